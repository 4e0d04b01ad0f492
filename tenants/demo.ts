import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '~/core/auth/password';
import { tenantToday } from '~/core/calendar/tenant-today';
import { withTenant } from '~/core/db/with-tenant';
import { ensureUser } from '~/core/users/create-user';
import { getRegistry } from '~/core/extension-points/registry';
import { seedDemoArticles } from './demo-data/articles';
import { seedDemoAgreementTypes, seedDemoObjectAgreements } from './demo-data/agreements';
import { seedDemoCustomers } from './demo-data/customers';
import { seedDemoObjects } from './demo-data/objects';
import { seedDemoInvoices } from './demo-data/invoices';
import { seedDemoWorkOrders } from './demo-data/work-orders';
import { seedDemoSuppliers } from './demo-data/suppliers';
import { seedDemoFiles, storeDemoFiles } from './demo-data/files';
import { deleteStored } from '~/core/files/store';
import { seedDemoProposals } from './demo-data/proposals';
import { seedDemoContracts } from './demo-data/contracts';
import { seedDemoOnCall } from './demo-data/on-call';
import { seedDemoTime } from './demo-data/time';
import { seedDemoProjects } from './demo-data/projects';
import { provisionTenant } from './provision';
import { getTenantBySlug, setInstanceConfig } from './registry';

/** The demo company `npm start` serves: a Swedish security installer with a few users. */
export const DEMO = {
  slug: 'demo',
  name: 'Nordlarm Säkerhet AB',
  hosts: ['demo.localhost'],
  admin: { email: 'admin@nordlarm.se', name: 'Maria Lindqvist', password: 'ordo-demo-2026' },
  company: {
    companyName: 'Nordlarm Säkerhet AB',
    companyNr: '556812-3458',
    address: 'Verkstadsgatan 7',
    postIndex: '721 30',
    city: 'Västerås',
    email: 'info@nordlarm.se',
    phone: '021-12 34 50',
    vatRegistrationNr: 'SE556812345801',
    bgAccount: '5050-1055',
  },
  users: [
    { email: 'erik.tekniker@nordlarm.se', name: 'Erik Johansson', accessLevels: ['Technician'] },
    { email: 'sara.tekniker@nordlarm.se', name: 'Sara Nilsson', accessLevels: ['Technician'] },
    { email: 'anna.kontor@nordlarm.se', name: 'Anna Berg', accessLevels: ['Office'] },
  ],
} as const;

/** Whether a listen address is this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/**
 * The demo users still signing in with the published password get a generated one (issue 30 item
 * 4): the README's password opens the demo only on a server reachable from this machine alone.
 * Answers the new password, to be printed this once, or null when no demo user had the published one.
 */
async function replacePublishedPasswords(slug: string): Promise<string | null> {
  const tenant = await getTenantBySlug(slug);
  if (!tenant) return null;
  return withTenant(tenant, async (trx) => {
    const emails = [DEMO.admin.email, ...DEMO.users.map((u) => u.email)];
    const users: { id: string; password_hash: string | null }[] = await trx('users')
      .whereIn('email', emails)
      .select('id', 'password_hash');
    const published = [];
    for (const u of users) if (await verifyPassword(u.password_hash, DEMO.admin.password)) published.push(u.id);
    if (!published.length) return null;
    const password = randomBytes(12).toString('base64url');
    await trx('users')
      .whereIn('id', published)
      .update({ password_hash: await hashPassword(password), updated_at: new Date() });
    return password;
  });
}

/**
 * Creates the demo tenant if it is missing or half-made; never touches one that exists, except
 * that on a server listening beyond loopback (`loopback: false`) the published password is replaced
 * by a generated one. `password` is what to print: the published one, the generated one this once,
 * or null (generated at an earlier start and not kept).
 */
export async function ensureDemoTenant(
  where: { slug: string; hosts: string[] } = { slug: DEMO.slug, hosts: [...DEMO.hosts] },
  { loopback = true }: { loopback?: boolean } = {},
): Promise<{ created: boolean; email: string; password: string | null; published: boolean }> {
  const before = await getTenantBySlug(where.slug);
  const result = await provisionTenant({
    slug: where.slug,
    name: DEMO.name,
    hosts: where.hosts,
    country: 'SE',
    language: 'se',
    adminEmail: DEMO.admin.email,
    adminName: DEMO.admin.name,
    adminPassword: DEMO.admin.password,
  });
  if (result.created) {
    const tenant = await getTenantBySlug(where.slug);
    const now = new Date();
    const today = tenantToday({ tenant: tenant!, now });
    // the files' bytes are stored before the unit of work, and removed again if it does not use them
    const files = await storeDemoFiles(tenant!.schemaName);
    let filesUsed = false;
    try {
      filesUsed = await withTenant(tenant!, async (trx) => {
        // The demo shows the optional sign-in features too (spec: available when the instance enables them).
        await trx.raw(
          `insert into app_modules (id, enabled) values ('mfa', true), ('microsoft_auth', true)
         on conflict (id) do update set enabled = true`,
        );
        for (const u of DEMO.users)
          await ensureUser(trx, {
            email: u.email,
            name: u.name,
            password: DEMO.admin.password,
            accessLevels: [...u.accessLevels],
          });
        // The registers, in the order they refer to each other, then what app-module plugins add.
        await seedDemoSuppliers(trx);
        await seedDemoArticles(trx);
        await seedDemoAgreementTypes(trx, today);
        // Invoice rules: technicians' hours at "Arbetstid tekniker", a quarter of an hour at a time,
        // and the kilometres at "Milersättning" (per Swedish mil of 10 km).
        await trx('invoice_settings').update({
          labour_article_id: trx('articles').where({ article_id: '90001' }).select('id'),
          mileage_article_id: trx('articles').where({ article_id: '90004' }).select('id'),
          time_rounding_minutes: 15,
        });
        await seedDemoCustomers(trx);
        await seedDemoObjects(trx);
        await seedDemoObjectAgreements(trx, today);
        await seedDemoWorkOrders(trx);
        await seedDemoInvoices({ trx, tenant: tenant!, auth: null, lang: 'sv', now });
        const usesFiles = await seedDemoFiles(trx, files);
        await seedDemoProposals(trx);
        await seedDemoContracts(trx);
        // the on-call rota: Erik and Sara a week at a time, this month and the next (the oncall module is on by default)
        await seedDemoOnCall(trx);
        await seedDemoTime(trx);
        await seedDemoProjects(trx);
        for (const m of getRegistry().appModules.values()) await m.instance.seedDemo?.(trx);
        return usesFiles;
      });
    } finally {
      if (!filesUsed) await deleteStored(files.keys);
    }
    // The company details documents print as their sender.
    await setInstanceConfig(tenant!.id, { ...tenant!.config, company: DEMO.company });
  }
  const created = !before || result.created;
  if (loopback) return { created, email: DEMO.admin.email, password: DEMO.admin.password, published: true };
  return { created, email: DEMO.admin.email, password: await replacePublishedPasswords(where.slug), published: false };
}
