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
import { seedDemoFiles } from './demo-data/files';
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

/** Creates the demo tenant if it is missing or half-made; never touches one that exists. */
export async function ensureDemoTenant(
  where: { slug: string; hosts: string[] } = { slug: DEMO.slug, hosts: [...DEMO.hosts] },
): Promise<{ created: boolean; email: string; password: string }> {
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
    await withTenant(tenant!, async (trx) => {
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
      await seedDemoFiles(trx, tenant!.schemaName);
      await seedDemoProposals(trx);
      await seedDemoContracts(trx);
      // the on-call rota: Erik and Sara a week at a time, this month and the next (the oncall module is on by default)
      await seedDemoOnCall(trx);
      await seedDemoTime(trx);
      await seedDemoProjects(trx);
      for (const m of getRegistry().appModules.values()) await m.instance.seedDemo?.(trx);
    });
    // The company details documents print as their sender.
    await setInstanceConfig(tenant!.id, { ...tenant!.config, company: DEMO.company });
  }
  return { created: !before || result.created, email: DEMO.admin.email, password: DEMO.admin.password };
}
