/**
 * Issue 16's figures, each beside a baseline measured in the same run on the same machine:
 * - one generation run making a quarter's invoices for BENCH_AGREEMENTS (50,000) objects in one
 *   tenant, by one worker: invoices per minute and SQL statements per invoice; beside it, the raw
 *   SQL of inserting as many bare invoice rows in one set-based statement (the floor of writing them);
 * - the same run over BENCH_AGREEMENT_TENANTS (200) tenants of 1,000 objects each (the sweep);
 * - the upcoming list's first page on the 50,000: p95, beside its bare SQL (the same rows by index).
 * Tenants are seeded once (stable slugs) and reset each run: their agreement invoices are removed
 * and every agreement's next invoice date set back to the quarter's start.
 * Runs in-process on the bench database.
 */
import pg from 'pg';
import { benchAuth } from './bench-auth';
import { upcomingInvoices } from '~/core/agreements/agreement-invoices.service';
import { generateDue } from '~/core/agreements/agreement-runs';
import { parseConfig, setConfig } from '~/core/config/env';
import { countQueries } from '~/core/db/query-counter';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { openRuntime } from '~/core/runtime/boot';
import { inTenant } from '~/core/unit-of-work';
import { provisionTenant } from '~/tenants/provision';
import { getTenantBySlug } from '~/tenants/registry';
import { insertAgreementType, insertObjectsWithAgreements } from '~/tests/helpers/agreements';

const BIG = Number(process.env.BENCH_AGREEMENTS ?? 50_000);
const TENANTS = Number(process.env.BENCH_AGREEMENT_TENANTS ?? 200);
const PER_TENANT = Number(process.env.BENCH_AGREEMENTS_PER_TENANT ?? 1000);
const LIST_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
/** The quarter the run invoices: due on its first day, a run a few weeks later. */
const QUARTER = '2026-10-01';
const NOW = new Date('2026-11-25T10:00:00Z');

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function seededTenant(slug: string, objects: number): Promise<Tenant> {
  let tenant = await getTenantBySlug(slug);
  if (!tenant) {
    await provisionTenant({
      slug,
      name: `Avtal ${slug}`,
      hosts: [`${slug}.localhost`],
      adminEmail: `admin@${slug}.se`,
      adminPassword: 'bench-password-1',
    });
    tenant = (await getTenantBySlug(slug))!;
  }
  await withTenant(tenant, async (trx) => {
    const have = Number((await trx('object_agreements').count({ n: '*' }))[0]!.n);
    if (have !== objects) {
      await trx.raw('truncate object_agreements, agreements cascade');
      const [article] = await trx('articles')
        .insert({ article_id: `AVT-${Date.now()}`, title: 'Serviceavtal', price: '1000' })
        .returning('id');
      const type = await insertAgreementType(trx, {
        code: 'SERV-Q',
        invoiceInterval: 'quarter',
        invoiceDay: 1,
        woInterval: null,
        priceModel: 'fixed',
        priceArticleId: article.id,
      });
      await insertObjectsWithAgreements(trx, {
        agreementId: type,
        count: objects,
        start: QUARTER,
        prefix: `${Date.now()}-`,
      });
      await trx.raw('analyze object_agreements');
    }
    // reset: the quarter not yet invoiced
    await trx.raw(
      `delete from erp_deliveries where invoice_id in (select id from invoices where object_agreement_id is not null)`,
    );
    await trx.raw(
      `delete from history where entity = 'invoice' and entity_id in (select id::text from invoices where object_agreement_id is not null)`,
    );
    await trx.raw(`delete from invoices where object_agreement_id is not null`);
    await trx('object_agreements').update({ invoice_scheduled_to: QUARTER });
  });
  return tenant;
}

export async function agreementsBench(url: string): Promise<string[]> {
  const config = setConfig(
    parseConfig({
      DATABASE_URL: url,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0000',
    }),
  );
  const runtime = await openRuntime(config);
  const lines: string[] = [];
  try {
    const big = await seededTenant('bench-agr-big', BIG);

    // the floor: as many bare invoice rows in one statement, rolled back
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const schema = (await withTenant(big, (trx) => trx.raw('select current_schema() as s'))).rows[0].s as string;
    await client.query(`set search_path to ${schema}, public`);
    const customer = (await client.query('select id from customers limit 1')).rows[0].id as string;
    await client.query('begin');
    const r0 = performance.now();
    await client.query(
      `insert into invoices (status, customer_id, invoice_date, total_price, total_price_vat, data)
       select 'finalized', $1, '2026-11-25', 1000, 1250, '{}' from generate_series(1, $2)`,
      [customer, BIG],
    );
    const rawSeconds = (performance.now() - r0) / 1000;
    await client.query('rollback');

    const { result, counter } = countQueries(() => generateDue(big, { now: NOW, kinds: ['invoice'] }));
    const g0 = performance.now();
    const done = await result;
    const seconds = (performance.now() - g0) / 1000;
    const perMinute = (done.invoices / seconds) * 60;
    lines.push(
      `agreements  one run, ${done.invoices} invoices in one tenant  ${seconds.toFixed(1)} s  ${Math.round(perMinute).toLocaleString('en')} invoices/min (target >= 10,000)  ${(counter.statements / Math.max(1, done.invoices)).toFixed(3)} statements/invoice (${counter.statements} in all)  raw SQL bare insert ${rawSeconds.toFixed(1)} s  x raw SQL ${(seconds / rawSeconds).toFixed(1)}`,
    );
    const again = await generateDue(big, { now: NOW, kinds: ['invoice'] });
    lines.push(`agreements  a second run makes ${again.invoices} invoices`);

    // the upcoming list on 50,000 agreements (a new quarter due: reset the dates, keep the invoices)
    await withTenant(big, (trx) => trx('object_agreements').update({ invoice_scheduled_to: '2027-01-01' }));
    const admin = await withTenant(big, (trx) => trx('users').orderBy('created_at').first('id', 'email', 'name'));
    const auth = benchAuth(admin);
    const listMs: number[] = [];
    let shown = 0;
    for (let i = 0; i < LIST_REQUESTS; i++) {
      const t = performance.now();
      const page = await inTenant({ tenant: big, auth, lang: 'sv', now: new Date('2027-01-20T10:00:00Z') }, (ctx) =>
        upcomingInvoices(ctx, { offset: (i % 10) * 50 }),
      );
      listMs.push(performance.now() - t);
      shown = page.totalCount;
    }
    const rawList: number[] = [];
    for (let i = 0; i < LIST_REQUESTS; i++) {
      const t = performance.now();
      await client.query('begin');
      await client.query(
        `select oa.id, bo.serial_code, a.title from object_agreements oa join agreements a on a.id = oa.agreement_id
           join business_objects bo on bo.id = oa.business_object_id
          where oa.invoice_scheduled_to <= '2027-01-31' order by oa.invoice_scheduled_to, oa.id limit 50 offset $1`,
        [(i % 10) * 50],
      );
      await client.query('commit');
      rawList.push(performance.now() - t);
    }
    await client.end();
    lines.push(
      `agreements  upcoming list, first pages of ${shown.toLocaleString('en')} due  p95 ${ms(p95(listMs))} (target <= 50 ms)  raw SQL p95 ${ms(p95(rawList))}  x raw SQL ${(p95(listMs) / p95(rawList)).toFixed(1)}`,
    );

    // many tenants: the sweep over TENANTS tenants of PER_TENANT objects
    const small: Tenant[] = [];
    const s0 = performance.now();
    for (let i = 1; i <= TENANTS; i++)
      small.push(await seededTenant(`bench-agr-${String(i).padStart(3, '0')}`, PER_TENANT));
    const seedSeconds = (performance.now() - s0) / 1000;
    const t0 = performance.now();
    let made = 0;
    for (const tenant of small) made += (await generateDue(tenant, { now: NOW, kinds: ['invoice'] })).invoices;
    const sweepSeconds = (performance.now() - t0) / 1000;
    lines.push(
      `agreements  sweep over ${TENANTS} tenants x ${PER_TENANT} objects  ${made} invoices in ${sweepSeconds.toFixed(1)} s  ${Math.round((made / sweepSeconds) * 60).toLocaleString('en')} invoices/min (target >= 10,000)  (seed/reset ${seedSeconds.toFixed(0)} s)`,
    );
  } finally {
    await runtime.close();
  }
  return lines;
}
