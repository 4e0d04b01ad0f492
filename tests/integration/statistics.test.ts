import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auth, Ctx } from '~/core/context';
import type { Database } from '~/core/db/database';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import type { Permission } from '~/core/permissions/permissions';
import { parseCsv } from '~/core/import-export/csv';
import { statisticsCalls } from '~/core/api/calls/statistics.calls';
import type { DashboardPeriod } from '~/core/dashboard/dashboard-period';
import {
  exportStatisticsTable,
  getStatistics,
  readStatisticsTable,
  type StatisticsTable,
  type StatisticsTableId,
} from '~/core/statistics/statistics.service';
import { getTenantBySlug } from '~/tenants/registry';
import { provisionTenant } from '~/tenants/provision';
import { insertAgreementType } from '~/tests/helpers/agreements';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';
import { readXlsx } from '~/tests/helpers/xlsx-reader';

/*
 * Issue 36 item 2 (decision 065): every statistics table against a fixture computed by hand, for
 * each period and with a department chosen. Today is Friday 20 November 2026 in Stockholm; the
 * periods start on 1 December 2025 (12m), 1 January 2026 (year) and 1 October 2026 (2m), each at
 * local midnight (23:00 or 22:00 UTC the day before), and the fixture puts orders just either side
 * of those instants, invoices and time on the first and last days.
 */

let db: Database;
let slug: string;
beforeAll(async () => {
  db = await openTestDatabase();
  await loadRegistry({});
  slug = uniqueSlug('stat');
  await provisionTenant({
    slug,
    name: 'Stat AB',
    hosts: [`${slug}.ordo.test`],
    adminEmail: `a@${slug}.se`,
    adminPassword: 'password-1',
  });
});
afterAll(() => db.close());

const auth = (perms: Permission[], modules: string[] = ['statistics'], userType = 'normal'): Auth => ({
  sessionId: 's',
  user: {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'x@stat.se',
    fullName: 'X',
    shortName: null,
    initials: 'X',
    userType: userType as Auth['user']['userType'],
    language: null,
    startPage: 'dashboard',
  },
  perms: new Set(perms),
  modules: new Set(modules),
  limit: 'none',
  mustEnrollMfa: false,
});

const NOW = new Date('2026-11-20T12:00:00Z');

interface Fixture {
  d1: string;
  d2: string;
  u1: string;
  u2: string;
}

async function inRollback(fn: (ctx: Ctx, f: Fixture) => Promise<void>) {
  const tenant = (await getTenantBySlug(slug))!;
  await withTenant(tenant, async (trx) => {
    const f = await seed(trx);
    await fn({ trx, tenant, auth: auth(['dashboard:read']), lang: 'en', now: NOW }, f);
    throw Object.assign(new Error('rollback'), { rollback: true });
  }).catch((e: { rollback?: boolean }) => {
    if (!e.rollback) throw e;
  });
}

async function seed(trx: Trx): Promise<Fixture> {
  const [open] = await trx('work_order_statuses').where({ is_default: true }).select('id');
  const [closing] = await trx('work_order_statuses').where({ is_closing: true }).orderBy('sort_order').select('id');
  const [service] = await trx('work_types').where({ is_default: true }).select('id');
  const [alarm] = await trx('work_types').insert({ name: 'Larm statistik', sort_order: 99 }).returning('id');
  const [d1, d2] = await trx('departments')
    .insert([{ name: 'Service' }, { name: 'Installation' }])
    .returning('id');
  // the regions (decision 067): O1, its orders, Anna and the project in Norr; O2 and its agreement in Syd
  await trx('regions').insert([{ name: 'Norr' }, { name: 'Syd' }]);
  const [u1, u2] = await trx('users')
    .insert([
      { email: 'anna@stat.se', name: 'Anna', department_id: d1.id, region: 'Norr' },
      { email: 'bo@stat.se', name: 'Bo', department_id: d2.id },
    ])
    .returning('id');
  const [c1, c2] = await trx('customers')
    .insert([{ name: 'Alfa' }, { name: 'Beta' }])
    .returning('id');
  const [o1, o2] = await trx('business_objects')
    .insert([
      { serial_code: 'S-O1', customer_id: c1.id, region: 'Norr' },
      { serial_code: 'S-O2', customer_id: c2.id, region: 'Syd' },
    ])
    .returning('id');
  const agreementId = await insertAgreementType(trx, { code: 'ST', title: 'Service', invoiceInterval: 'month_1' });
  const [oa] = await trx('object_agreements')
    .insert({ business_object_id: o2.id, agreement_id: agreementId, valid_from: '2025-01-01' })
    .returning('id');

  let n = 0;
  const wo = async (f: Record<string, unknown>, assignees: string[] = []) => {
    n += 1;
    const closed = Boolean(f.closed_at);
    const [row] = await trx('work_orders')
      .insert({
        number: `S${n}`,
        title: `S${n}`,
        status_id: closed ? closing.id : open.id,
        work_type_id: service.id,
        ...f,
      })
      .returning('id');
    if (assignees.length)
      await trx('work_order_assignees').insert(assignees.map((user_id) => ({ work_order_id: row.id, user_id })));
    return row.id as string;
  };
  // A: 1 Oct 00:30 local — inside every period; closed 5 Oct; revisited by G
  const a = await wo(
    {
      intake_ts: '2026-09-30T22:30:00Z',
      closed_at: '2026-10-05T10:00:00Z',
      work_type_id: alarm.id,
      customer_id: c1.id,
      business_object_id: o1.id,
      assignee_departments: [d1.id],
    },
    [u1.id],
  );
  // B: 30 Sep 23:30 local — outside the last 2 months
  await wo({ intake_ts: '2026-09-30T21:30:00Z', customer_id: c1.id, assignee_departments: [d2.id] }, [u2.id]);
  // C: 1 Jan 00:30 local — inside this year; two technicians
  const c = await wo(
    {
      intake_ts: '2025-12-31T23:30:00Z',
      closed_at: '2026-01-10T10:00:00Z',
      work_type_id: alarm.id,
      customer_id: c2.id,
      business_object_id: o2.id,
      assignee_departments: [d1.id, d2.id],
    },
    [u1.id, u2.id],
  );
  // D: 31 Dec 23:30 local — the last 12 months only; no customer, no technician
  const d = await wo({ intake_ts: '2025-12-31T22:30:00Z' });
  // E: 30 Nov 2025 23:30 local — before every period
  await wo({ intake_ts: '2025-11-30T22:30:00Z', customer_id: c1.id });
  // F: deleted — never counted, nor its time
  const f = await wo(
    { intake_ts: '2026-11-01T10:00:00Z', work_type_id: alarm.id, customer_id: c1.id, deleted_at: NOW },
    [u2.id],
  );
  // G: the revisit of A (5 days after), itself not revisited
  const g = await wo(
    {
      intake_ts: '2026-10-10T08:00:00Z',
      closed_at: '2026-10-12T08:00:00Z',
      customer_id: c1.id,
      business_object_id: o1.id,
      assignee_departments: [d1.id],
    },
    [u1.id],
  );
  // H: the agreement's service order on C's object 5 days after C closed: not a revisit
  await wo({
    intake_ts: '2026-01-15T08:00:00Z',
    customer_id: c2.id,
    business_object_id: o2.id,
    object_agreement_id: oa.id,
    agreement_period_from: '2026-01-01',
  });
  // I: taken in before the periods, closed 1 Dec 00:30 local (inside 12m); C came 31 days later: no revisit
  await wo({
    intake_ts: '2025-11-25T08:00:00Z',
    closed_at: '2025-11-30T23:30:00Z',
    business_object_id: o2.id,
    assignee_departments: [d2.id],
  });
  // J: closed 30 Nov 23:30 local — before the periods
  const j = await wo({
    intake_ts: '2025-11-20T08:00:00Z',
    closed_at: '2025-11-30T22:30:00Z',
    business_object_id: o1.id,
  });

  const [p1] = await trx('projects')
    .insert({ number: 901, title: 'P', responsible_user_id: u1.id, region: 'Norr' })
    .returning('id');
  const [s1] = await trx('sales_orders').insert({ number: 901, title: 'SO', department_id: d2.id }).returning('id');
  const inv = async (fields: Record<string, unknown>, rows: Record<string, unknown>[] = []) => {
    const [row] = await trx('invoices')
      .insert({ status: 'finalized', ...fields })
      .returning('id');
    if (rows.length) await trx('invoice_rows').insert(rows.map((r) => ({ invoice_id: row.id, title: 'Rad', ...r })));
  };
  await inv({ work_order_id: a, invoice_date: '2026-10-01', total_price: '1000' }, [
    { kind: 'labour', user_id: u1.id, amount: '1.5', price: '600', total: '900' },
  ]);
  await inv({ work_order_id: g, invoice_date: '2026-09-30', total_price: '500' }, [
    { kind: 'labour', user_id: u1.id, amount: '0.5', price: '600', total: '300' },
    { kind: 'article', user_id: u1.id, amount: '3', price: '10', total: '30' },
  ]);
  await inv({ object_agreement_id: oa.id, period_from: '2026-01-01', invoice_date: '2026-01-01', total_price: '300' });
  await inv({ project_id: p1.id, invoice_date: '2025-12-01', total_price: '2000' });
  await inv({ sales_order_id: s1.id, invoice_date: '2026-11-20', total_price: '700' });
  await inv({ work_order_id: c, status: 'draft', invoice_date: '2026-10-15', total_price: '900' }, [
    { kind: 'labour', user_id: u2.id, amount: '5', price: '600', total: '3000' },
  ]);
  await inv({
    object_agreement_id: oa.id,
    period_from: '2026-10-01',
    status: 'void',
    invoice_date: '2026-10-15',
    total_price: '300',
  });
  await inv({ work_order_id: j, invoice_date: '2025-11-30', total_price: '400' });
  await inv({ invoice_date: '2026-11-02', total_price: '100' });

  await trx('work_order_time').insert([
    { work_order_id: a, user_id: u1.id, date: '2026-10-02', work_minutes: 120 },
    { work_order_id: d, user_id: u1.id, date: '2025-12-01', work_minutes: 60 },
    { work_order_id: d, user_id: u1.id, date: '2025-11-30', work_minutes: 600 },
    { work_order_id: c, user_id: u2.id, date: '2026-01-01', work_minutes: 90 },
    { work_order_id: f, user_id: u2.id, date: '2026-11-01', work_minutes: 60 },
  ]);
  return { d1: d1.id, d2: d2.id, u1: u1.id, u2: u2.id };
}

/** A table as `[label, ...values]` rows, the total last as `['TOTAL', ...]`. */
function plain(t: StatisticsTable): (string | number | null)[][] {
  return [...t.rows.map((r) => [r.name ?? r.key, ...r.values]), ...(t.total ? [['TOTAL', ...t.total.values]] : [])];
}

async function table(ctx: Ctx, id: StatisticsTableId, period: DashboardPeriod, departmentId?: string) {
  return plain((await readStatisticsTable(ctx, id, { period, departmentId })).table);
}

describe('[statistics] the tables against a hand-computed fixture', () => {
  it('work orders by type, status, technician and customer, over each period edge', async () => {
    await inRollback(async (ctx) => {
      expect(await table(ctx, 'byType', '12m')).toEqual([
        [expect.any(String), 4, 1, 3], // the default type: B, D, G, H
        ['Larm statistik', 2, 2, 0], // A, C
        ['TOTAL', 6, 3, 3],
      ]);
      expect(await table(ctx, 'byType', 'year')).toEqual([
        [expect.any(String), 3, 1, 2],
        ['Larm statistik', 2, 2, 0],
        ['TOTAL', 5, 3, 2],
      ]);
      expect((await table(ctx, 'byType', '2m')).at(-1)).toEqual(['TOTAL', 2, 2, 0]);

      const status = await table(ctx, 'byStatus', '12m');
      expect(status.map((r) => r[1])).toEqual([3, 3, 6]);

      expect(await table(ctx, 'byTechnician', '12m')).toEqual([
        ['Anna', 3, 3, 0], // A, C, G
        ['Bo', 2, 1, 1], // B, C: an order with two technicians counts for both
        ['-', 2, 0, 2], // D, H: nobody
      ]);
      expect(await table(ctx, 'byCustomer', '12m')).toEqual([
        ['Alfa', 3, 2, 1],
        ['Beta', 2, 1, 1],
        ['-', 1, 0, 1],
      ]);
      expect(await table(ctx, 'byCustomer', '2m')).toEqual([['Alfa', 2, 2, 0]]);
    });
  });

  it('revenue by month and by source: finalized invoices excl. VAT, drafts, voids and earlier ones left out', async () => {
    await inRollback(async (ctx) => {
      // columns: work orders, agreements, projects, sales orders, other, total
      expect(await table(ctx, 'revenueByMonth', '12m')).toEqual([
        ['2025-12', 0, 0, 2000, 0, 0, 2000],
        ['2026-01', 0, 300, 0, 0, 0, 300],
        ['2026-09', 500, 0, 0, 0, 0, 500],
        ['2026-10', 1000, 0, 0, 0, 0, 1000],
        ['2026-11', 0, 0, 0, 700, 100, 800],
        ['TOTAL', 1500, 300, 2000, 700, 100, 4600],
      ]);
      expect((await table(ctx, 'revenueByMonth', 'year')).at(-1)).toEqual(['TOTAL', 1500, 300, 0, 700, 100, 2600]);
      expect((await table(ctx, 'revenueByMonth', '2m')).map((r) => r[0])).toEqual(['2026-10', '2026-11', 'TOTAL']);

      expect(await table(ctx, 'revenueBySource', '12m')).toEqual([
        ['projects', 1, 2000, 43.5],
        ['workOrders', 2, 1500, 32.6],
        ['salesOrders', 1, 700, 15.2],
        ['agreements', 1, 300, 6.5],
        ['other', 1, 100, 2.2],
        ['TOTAL', 6, 4600, 100],
      ]);
    });
  });

  it('hours reported on orders and billed on finalized invoices, per person', async () => {
    await inRollback(async (ctx) => {
      // reported (h), billed (h), billed share
      expect(await table(ctx, 'hours', '12m')).toEqual([
        ['Anna', 3, 2, 66.7],
        ['Bo', 1.5, 0, 0],
        ['TOTAL', 4.5, 2, 44.4],
      ]);
      expect(await table(ctx, 'hours', 'year')).toEqual([
        ['Anna', 2, 2, 100],
        ['Bo', 1.5, 0, 0],
        ['TOTAL', 3.5, 2, 57.1],
      ]);
      expect(await table(ctx, 'hours', '2m')).toEqual([
        ['Anna', 2, 1.5, 75],
        ['TOTAL', 2, 1.5, 75],
      ]);
    });
  });

  it('first-time fix: a revisit within 30 days, not an agreement order, not 31 days later', async () => {
    await inRollback(async (ctx) => {
      // closed, revisits, first-time fix %
      expect(await table(ctx, 'firstTimeFix', '12m')).toEqual([
        ['2025-12', 1, 0, 100], // I: C came 31 days after
        ['2026-01', 1, 0, 100], // C: H is the agreement's order
        ['2026-10', 2, 1, 50], // A revisited by G
        ['TOTAL', 4, 1, 75],
      ]);
      expect((await table(ctx, 'firstTimeFix', 'year')).at(-1)).toEqual(['TOTAL', 3, 1, 66.7]);
      expect(await table(ctx, 'firstTimeFix', '2m')).toEqual([
        ['2026-10', 2, 1, 50],
        ['TOTAL', 2, 1, 50],
      ]);
    });
  });

  it('agreement revenue by agreement', async () => {
    await inRollback(async (ctx) => {
      expect(await table(ctx, 'agreementRevenue', '12m')).toEqual([
        ['ST Service', 1, 1, 300],
        ['TOTAL', 1, 1, 300],
      ]);
      // the October invoice is void: nothing in the last 2 months
      expect(await table(ctx, 'agreementRevenue', '2m')).toEqual([['TOTAL', 0, 0, 0]]);
    });
  });

  it('a department: orders by their technicians, invoices by order, sales order and project; people by theirs', async () => {
    await inRollback(async (ctx, f) => {
      expect((await table(ctx, 'byType', '12m', f.d1)).at(-1)).toEqual(['TOTAL', 3, 3, 0]); // A, C, G
      expect((await table(ctx, 'byType', '12m', f.d2)).at(-1)).toEqual(['TOTAL', 2, 1, 1]); // B, C
      // D1: A's and G's invoices and the project of Anna; not the agreement's, the sales order's or the hand-made one
      expect((await table(ctx, 'revenueByMonth', '12m', f.d1)).at(-1)).toEqual(['TOTAL', 1500, 0, 2000, 0, 0, 3500]);
      expect((await table(ctx, 'revenueBySource', '12m', f.d2)).at(-1)).toEqual(['TOTAL', 1, 700, 100]);
      expect(await table(ctx, 'hours', '12m', f.d2)).toEqual([
        ['Bo', 1.5, 0, 0],
        ['TOTAL', 1.5, 0, 0],
      ]);
      expect((await table(ctx, 'firstTimeFix', '12m', f.d1)).at(-1)).toEqual(['TOTAL', 3, 1, 66.7]);
    });
  });

  it('a region: orders and their invoices by the object, projects by theirs, people by theirs; all is every one', async () => {
    await inRollback(async (ctx) => {
      const region = async (id: StatisticsTableId, name: string) =>
        plain((await readStatisticsTable(ctx, id, { period: '12m', region: name })).table);
      expect((await region('byType', 'Norr')).at(-1)).toEqual(['TOTAL', 2, 2, 0]); // A, G (J before the period)
      // A's and G's invoices and the project's; not the agreement's (Syd), the sales order's or the hand-made one
      expect((await region('revenueByMonth', 'Norr')).at(-1)).toEqual(['TOTAL', 1500, 0, 2000, 0, 0, 3500]);
      expect((await region('revenueByMonth', 'Syd')).at(-1)).toEqual(['TOTAL', 0, 300, 0, 0, 0, 300]);
      // Anna: A's 120 and D's 60 minutes reported, 1.5 + 0.5 hours billed
      expect(await region('hours', 'Norr')).toEqual([
        ['Anna', 3, 2, 66.7],
        ['TOTAL', 3, 2, 66.7],
      ]);
      expect((await region('firstTimeFix', 'Norr')).at(-1)).toEqual(['TOTAL', 2, 1, 50]); // A revisited by G
      expect(await region('byType', 'all')).toEqual(await table(ctx, 'byType', '12m'));
      await expect(readStatisticsTable(ctx, 'byType', { period: '12m', region: 'Atlantis' })).rejects.toMatchObject({
        status: 404,
      });
      // the page offers the register's regions with the regions module only
      expect((await getStatistics(ctx, { period: '2m' })).regions).toEqual([]);
      const withRegions = { ...ctx, auth: auth(['dashboard:read'], ['statistics', 'regions']) };
      expect((await getStatistics(withRegions, { period: '2m' })).regions).toEqual(['Norr', 'Syd']);
    });
  });

  it('the page reads every table and the departments; each API call answers its table', async () => {
    await inRollback(async (ctx, f) => {
      const page = await getStatistics(ctx, { period: '2m' });
      expect(page.period).toMatchObject({ from: '2026-10-01', to: '2026-11-20', months: ['2026-10', '2026-11'] });
      expect(page.tables.map((t) => t.id)).toEqual([
        'byType',
        'byStatus',
        'byTechnician',
        'byCustomer',
        'revenueByMonth',
        'revenueBySource',
        'hours',
        'firstTimeFix',
        'agreementRevenue',
      ]);
      expect(page.departments).toEqual(
        expect.arrayContaining([
          { id: f.d1, name: 'Service' },
          { id: f.d2, name: 'Installation' },
        ]),
      );
      const call = statisticsCalls.find((c) => c.path === '/statistics/revenue-by-source')!;
      const answer = (await call.handler(ctx, { period: '12m' }, { ip: null, userAgent: null, token: null })) as {
        table: StatisticsTable;
      };
      expect(answer.table.total?.values).toEqual([6, 4600, 100]);
      expect(statisticsCalls.map((c) => c.path)).toContain('/statistics/first-time-fix');
    });
  });
});

describe('[statistics] refusals', () => {
  it('needs dashboard:read and the statistics module (super passes the module)', async () => {
    await inRollback(async (ctx) => {
      await expect(getStatistics({ ...ctx, auth: auth([]) })).rejects.toMatchObject({
        code: 'WARNING_PERMISSION_DENIED',
        status: 403,
      });
      await expect(readStatisticsTable({ ...ctx, auth: auth(['dashboard:read'], []) }, 'byType')).rejects.toMatchObject(
        {
          status: 403,
        },
      );
      await expect(
        exportStatisticsTable({ ...ctx, auth: auth([]) }, 'byType', { format: 'csv' }),
      ).rejects.toMatchObject({
        status: 403,
      });
      const asSuper = await readStatisticsTable({ ...ctx, auth: auth(['dashboard:read'], [], 'super') }, 'byType');
      expect(asSuper.table.total?.values).toEqual([6, 3, 3]);
    });
  });

  it("another tenant's or a made-up department is not found; a period that is not one is refused", async () => {
    await inRollback(async (ctx) => {
      await expect(
        readStatisticsTable(ctx, 'byType', { departmentId: '6f1c1f1e-1111-4111-8111-111111111111' }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
      await expect(readStatisticsTable(ctx, 'byType', { departmentId: 'x' })).rejects.toMatchObject({ status: 404 });
      await expect(readStatisticsTable(ctx, 'byType', { period: 'week' })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        status: 400,
      });
      await expect(exportStatisticsTable(ctx, 'byType', { format: 'pdf' })).rejects.toMatchObject({ status: 400 });
    });
  });
});

describe('[statistics] files', () => {
  it('a table as CSV: the headers in the language, decimal commas, the total last', async () => {
    await inRollback(async (ctx) => {
      const file = await exportStatisticsTable(ctx, 'hours', { period: '12m', format: 'csv' });
      expect(file.filename).toBe('statistics-hours-2025-12-01_2026-11-20.csv');
      const rows = parseCsv(file.body.toString('utf8'));
      expect(rows).toEqual([
        ['Person', 'Reported (h)', 'Billed (h)', 'Billed (%)'],
        ['Anna', '3,00', '2,00', '66,7'],
        ['Bo', '1,50', '0,00', '0,0'],
        ['Total', '4,50', '2,00', '44,4'],
      ]);
      const sources = parseCsv(
        (await exportStatisticsTable(ctx, 'revenueBySource', { format: 'csv' })).body.toString('utf8'),
      );
      expect(sources.map((r) => r[0])).toEqual([
        'Source',
        'Projects',
        'Work orders',
        'Sales orders',
        'Agreements',
        'Other invoices',
        'Total',
      ]);
      const none = parseCsv(
        (await exportStatisticsTable(ctx, 'byTechnician', { format: 'csv' })).body.toString('utf8'),
      );
      expect(none.at(-1)).toEqual(['None', '2', '0', '2']);
    });
  });

  it('a table as XLSX: numbers as numbers, in Swedish for a Swedish user, with a department', async () => {
    await inRollback(async (ctx, f) => {
      const file = await exportStatisticsTable({ ...ctx, lang: 'sv' }, 'revenueByMonth', {
        period: 'year',
        departmentId: f.d1,
        format: 'xlsx',
      });
      expect(file.filename).toMatch(/\.xlsx$/);
      const [sheet] = await readXlsx(file.body);
      expect(sheet!.name).toBe('Intäkter per månad');
      expect(sheet!.rows).toEqual([
        ['Månad', 'Arbetsordrar', 'Avtal', 'Projekt', 'Säljordrar', 'Övrigt', 'Totalt'],
        ['2026-09', 500, 0, 0, 0, 0, 500],
        ['2026-10', 1000, 0, 0, 0, 0, 1000],
        ['Totalt', 1500, 0, 0, 0, 0, 1500],
      ]);
    });
  });
});
