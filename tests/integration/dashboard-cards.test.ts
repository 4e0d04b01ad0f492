import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auth, Ctx } from '~/core/context';
import type { Database } from '~/core/db/database';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import type { Permission } from '~/core/permissions/permissions';
import { getDashboardCards, saveDashboardSettings, type DashboardCards } from '~/core/dashboard/kpi.service';
import type { DashboardPeriod } from '~/core/dashboard/dashboard-period';
import { getTenantBySlug } from '~/tenants/registry';
import { provisionTenant } from '~/tenants/provision';
import { insertAgreementType } from '~/tests/helpers/agreements';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';

/*
 * Issue 36 item 1 (decision 062): each card's figure against a fixture computed by hand, for each
 * of the three periods. Today is Friday 20 November 2026 in Stockholm; the periods start on
 * 1 December 2025 (12m), 1 January 2026 (year) and 1 October 2026 (2m), each at local midnight —
 * 23:00 or 22:00 UTC the day before — and the fixture puts rows just either side of those edges.
 */

let db: Database;
let slug: string;
beforeAll(async () => {
  db = await openTestDatabase();
  await loadRegistry({});
  slug = uniqueSlug('dash');
  await provisionTenant({
    slug,
    name: 'Dash AB',
    hosts: [`${slug}.ordo.test`],
    adminEmail: `a@${slug}.se`,
    adminPassword: 'password-1',
  });
});
afterAll(() => db.close());

const auth = (perms: Permission[], modules: string[] = ['dashboard']): Auth => ({
  sessionId: 's',
  user: {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'x@dash.se',
    fullName: 'X',
    shortName: null,
    initials: 'X',
    userType: 'normal',
    language: null,
    startPage: 'dashboard',
  },
  perms: new Set(perms),
  modules: new Set(modules),
  limit: 'none',
  mustEnrollMfa: false,
});

const NOW = new Date('2026-11-20T12:00:00Z');

async function inRollback(fn: (ctx: Ctx, trx: Trx) => Promise<void>) {
  const tenant = (await getTenantBySlug(slug))!;
  await withTenant(tenant, async (trx) => {
    await fn({ trx, tenant, auth: auth(['dashboard:read']), lang: 'sv', now: NOW }, trx);
    throw Object.assign(new Error('rollback'), { rollback: true });
  }).catch((e: { rollback?: boolean }) => {
    if (!e.rollback) throw e;
  });
}

async function seed(trx: Trx) {
  const [status] = await trx('work_order_statuses').where({ is_default: true }).select('id');
  const [type] = await trx('work_types').where({ is_default: true }).select('id');
  const [p1, p2] = await trx('projects')
    .insert([
      { number: 1, title: 'Halvt fakturerat', contract_sum: '10000' },
      { number: 2, title: 'Ofakturerat', contract_sum: '5000' },
      { number: 3, title: 'Stängt', contract_sum: '7000', status: 'closed', closed_at: '2026-11-01T00:00:00Z' },
    ])
    .returning('id');
  const wo = async (number: string, fields: Record<string, unknown>) => {
    const [row] = await trx('work_orders')
      .insert({ status_id: status.id, work_type_id: type.id, number, title: number, ...fields })
      .returning('id');
    return row.id as string;
  };
  const w1 = await wo('W1', { intake_ts: '2025-10-01T08:00:00Z' });
  const w2 = await wo('W2', { intake_ts: '2026-09-20T22:30:00Z', closed_at: '2026-09-30T22:30:00Z' }); // 10 days, 1 Oct local
  const w3 = await wo('W3', { intake_ts: '2026-09-10T21:30:00Z', closed_at: '2026-09-30T21:30:00Z' }); // 20 days, 30 Sep local
  const w4 = await wo('W4', { intake_ts: '2025-12-01T23:30:00Z', closed_at: '2025-12-31T23:30:00Z' }); // 30 days, 1 Jan local
  const w5 = await wo('W5', { intake_ts: '2025-11-01T00:00:00Z', closed_at: '2025-11-30T22:30:00Z' }); // 30 Nov local: outside
  await wo('W6', { intake_ts: '2026-11-01T10:00:00Z', closed_at: '2026-11-05T10:00:00Z', project_id: p1.id }); // 4 days
  await wo('W7', { intake_ts: '2026-11-01T10:00:00Z', closed_at: '2026-11-02T10:00:00Z', deleted_at: NOW });
  const w8 = await wo('W8', { intake_ts: '2025-11-20T00:30:00Z', closed_at: '2025-12-01T00:30:00Z' }); // 11 days, 1 Dec local
  await wo('W9', { intake_ts: '2026-11-19T08:00:00Z' });
  await wo('W10', { intake_ts: '2026-11-19T08:00:00Z', deleted_at: NOW });

  const [user] = await trx('users').select('id').limit(1);
  await trx('work_order_time').insert(
    [
      { work_order_id: w1, date: '2026-11-02', work_minutes: 120 },
      { work_order_id: w1, date: '2026-09-15', work_minutes: 60 },
      { work_order_id: w1, date: '2025-11-30', work_minutes: 30 }, // before every period
      { work_order_id: w2, date: '2026-10-05', work_minutes: 60 }, // a closed order's time: not open
    ].map((t) => ({ ...t, user_id: user.id })),
  );
  const [art] = await trx('articles').insert({ article_id: 'D-ART', title: 'Arbete' }).returning('id');
  const article = (work_order_id: string, total: string) => ({
    work_order_id,
    article_id: art.id,
    title: 'Rad',
    amount: 1,
    price: total,
    total,
  });
  await trx('work_order_articles').insert([
    article(w2, '1000'),
    article(w2, '500'),
    article(w3, '200'),
    article(w4, '300'),
    article(w5, '999'),
  ]);
  await trx('invoices').insert([
    { work_order_id: w3, status: 'finalized', invoice_date: '2026-10-01', total_price: '200' },
    { work_order_id: w4, status: 'draft', invoice_date: '2026-01-02', total_price: '300' },
    { work_order_id: w8, status: 'finalized', invoice_date: '2025-12-02', total_price: '0' },
    { project_id: p1.id, status: 'finalized', invoice_date: '2026-10-15', total_price: '4000', project_contract_amount: '4000' },
    { project_id: p1.id, status: 'draft', invoice_date: '2026-11-15', total_price: '1000', project_contract_amount: '1000' },
  ]);
  void p2;

  // agreements: a monthly one due on the 1st, one held back (inactive object); their invoices
  const agreementId = await insertAgreementType(trx, { code: 'D-M', invoiceInterval: 'month_1', invoiceDay: 1 });
  const [customer] = await trx('customers').insert({ customer_id: 'D1', name: 'Kund' }).returning('id');
  const old = '2025-01-01T00:00:00Z';
  const objects = await trx('business_objects')
    .insert([
      { serial_code: 'D-A', customer_id: customer.id, created_at: old, updated_at: old },
      { serial_code: 'D-B', customer_id: customer.id, status: 'inactive', created_at: old, updated_at: old },
      { serial_code: 'O1', created_at: '2026-10-01T00:00:00Z', updated_at: '2026-10-01T00:00:00Z' },
      {
        serial_code: 'O2',
        status: 'inactive',
        created_at: '2026-09-30T21:59:00Z',
        updated_at: '2026-11-10T10:00:00Z',
      },
      { serial_code: 'O3', status: 'inactive', created_at: '2025-06-01T00:00:00Z', updated_at: '2025-12-15T10:00:00Z' },
    ])
    .returning('id');
  const agreements = await trx('object_agreements')
    .insert(
      objects.slice(0, 2).map((o: { id: string }) => ({
        business_object_id: o.id,
        agreement_id: agreementId,
        valid_from: '2026-10-01',
        invoice_scheduled_to: '2026-11-01',
        invoice_period_from: '2026-10-01',
        total_price: '395.00',
      })),
    )
    .returning('id');
  await trx('object_agreement_rows').insert({
    object_agreement_id: agreements[0].id,
    kind: 'invoice',
    title: 'Larmcentral',
    amount: '2',
    price: '100',
    discount_type: 'PERCENTAGE',
    discount_value: '10',
  });
  const agreementInvoice = (status: string, date: string, total: string) => ({
    object_agreement_id: agreements[0].id,
    status,
    invoice_date: date,
    total_price: total,
  });
  await trx('invoices').insert([
    agreementInvoice('finalized', '2026-11-01', '395'),
    agreementInvoice('void', '2026-11-02', '395'),
    agreementInvoice('draft', '2026-10-01', '100'),
    agreementInvoice('finalized', '2025-12-01', '50'),
    agreementInvoice('finalized', '2025-11-30', '70'),
    agreementInvoice('finalized', '2026-11-21', '80'), // after today
  ]);

  const order = (n: string, st: string, createdAt: string) => ({
    source: 'csv',
    supplier_key: 'org:5567321707',
    order_number: n,
    status: st,
    created_at: createdAt,
  });
  await trx('supplier_orders').insert([
    order('1', 'error', '2026-11-19T08:00:00Z'),
    order('2', 'error', '2026-09-30T22:30:00Z'),
    order('3', 'error', '2026-09-30T21:30:00Z'),
    order('4', 'error', '2025-11-30T22:30:00Z'),
    order('5', 'added', '2026-11-19T08:00:00Z'),
  ]);
}

/** The figures of each card, without the trends (checked on their own below). */
function figures(c: DashboardCards) {
  return {
    open: [c.openToInvoice.value, c.openToInvoice.minutes, c.openToInvoice.openOrders],
    agreements: [c.agreementInvoicing.amount, c.agreementInvoicing.count],
    projects: [c.openProjects.count, c.openProjects.leftToInvoice, c.openProjects.invoiced],
    lead: [c.leadTime.days, c.leadTime.closed],
    accrued: [c.accruedIncome.value, c.accruedIncome.orders],
    invoiced: [c.invoicedVsNot.invoiced, c.invoicedVsNot.notInvoiced],
    objects: [c.objects.added, c.objects.lost],
    supplier: c.supplierOrdersInError.count,
  };
}

const EXPECTED: Record<DashboardPeriod, ReturnType<typeof figures>> = {
  // 2 h × 800 × 1.25; W2 and W6 (10 + 4 days); W2 1500 not invoiced; O1 added, O2 lost
  '2m': {
    open: ['2000.00', 120, 2],
    agreements: ['495.00', 2],
    projects: [2, '11000.00', '4000.00'],
    lead: [7, 2],
    accrued: ['1500.00', 1],
    invoiced: [0, 1],
    objects: [1, 1],
    supplier: 2,
  },
  // + September's hour; W3 (20) and W4 (30 days, closed on 1 January local); W4's 300 with a draft
  year: {
    open: ['3000.00', 180, 2],
    agreements: ['495.00', 2],
    projects: [2, '11000.00', '4000.00'],
    lead: [16, 4],
    accrued: ['1800.00', 2],
    invoiced: [1, 2],
    objects: [2, 1],
    supplier: 3,
  },
  // + 1 December 2025 local: the 50 agreement invoice, W8 (11 days, invoiced), O3 lost
  '12m': {
    open: ['3000.00', 180, 2],
    agreements: ['545.00', 3],
    projects: [2, '11000.00', '4000.00'],
    lead: [15, 5],
    accrued: ['1800.00', 2],
    invoiced: [2, 2],
    objects: [2, 2],
    supplier: 3,
  },
};

describe('[dashboard] cards', () => {
  it('shows zeros and no lead time with nothing to count', async () => {
    await inRollback(async (ctx) => {
      const c = await getDashboardCards(ctx, '2m');
      expect(figures(c)).toEqual({
        open: ['0.00', 0, 0],
        agreements: ['0.00', 0],
        projects: [0, '0.00', '0.00'],
        lead: [null, 0],
        accrued: ['0.00', 0],
        invoiced: [0, 0],
        objects: [0, 0],
        supplier: 0,
      });
      expect(c.settings).toEqual({ pricePerHour: '0.00', debitFactor: '1.000' });
      expect(c.openToInvoice.trend).toEqual([
        { month: '2026-10', value: 0 },
        { month: '2026-11', value: 0 },
      ]);
    });
  });

  for (const period of ['2m', 'year', '12m'] as const) {
    it(`counts each card over ${period}, the period's edges in the tenant's time zone`, async () => {
      await inRollback(async (ctx, trx) => {
        await seed(trx);
        await saveDashboardSettings(
          { ...ctx, auth: auth(['dashboard:read', 'dashboard:open_workorders_kpi_edit']) },
          { pricePerHour: '800', debitFactor: '1.25' },
        );
        const c = await getDashboardCards(ctx, period);
        expect(figures(c)).toEqual(EXPECTED[period]);
        expect(c.agreementInvoicing.due).toEqual({ count: 1, amount: '575.00' });
        expect(c.period.months.length).toBe({ '2m': 2, year: 11, '12m': 12 }[period]);
        expect(c.openToInvoice.trend.map((t) => t.month)).toEqual(c.period.months);
      });
    });
  }

  it("puts each month's figure in its column", async () => {
    await inRollback(async (ctx, trx) => {
      await seed(trx);
      await saveDashboardSettings(
        { ...ctx, auth: auth(['dashboard:read', 'dashboard:open_workorders_kpi_edit']) },
        { pricePerHour: '800', debitFactor: '1.25' },
      );
      const c = await getDashboardCards(ctx, '12m');
      const at = (trend: { month: string; value: number }[], month: string) => trend.find((t) => t.month === month)?.value;
      expect(at(c.openToInvoice.trend, '2026-11')).toBe(2000);
      expect(at(c.openToInvoice.trend, '2026-09')).toBe(1000);
      expect(at(c.leadTime.trend, '2026-10')).toBe(10);
      expect(at(c.leadTime.trend, '2026-09')).toBe(20);
      expect(at(c.leadTime.trend, '2026-01')).toBe(30);
      expect(at(c.leadTime.trend, '2025-12')).toBe(11);
      expect(at(c.accruedIncome.trend, '2026-10')).toBe(1500);
      expect(at(c.invoicedVsNot.trend, '2025-12')).toBe(100);
      expect(at(c.invoicedVsNot.trend, '2026-01')).toBe(0);
      expect(at(c.agreementInvoicing.trend, '2025-12')).toBe(50);
      expect(at(c.objects.lostTrend, '2025-12')).toBe(1);
      expect(at(c.objects.trend, '2026-09')).toBe(1);
      expect(at(c.supplierOrdersInError.trend, '2026-10')).toBe(1);
      expect(at(c.openProjects.trend, '2026-10')).toBe(4000);
    });
  });

  it('needs dashboard:read and the module; the prices need their own permission and sane values', async () => {
    await inRollback(async (ctx) => {
      await expect(getDashboardCards({ ...ctx, auth: auth(['dashboard:read'], []) }, '12m')).rejects.toMatchObject({
        status: 403,
      });
      await expect(getDashboardCards({ ...ctx, auth: auth([]) }, '12m')).rejects.toMatchObject({ status: 403 });
      await expect(saveDashboardSettings(ctx, { pricePerHour: 1, debitFactor: 1 })).rejects.toMatchObject({
        status: 403,
      });
      const editor = { ...ctx, auth: auth(['dashboard:read', 'dashboard:open_workorders_kpi_edit']) };
      await expect(saveDashboardSettings(editor, { pricePerHour: -1, debitFactor: 1 })).rejects.toMatchObject({
        status: 400,
      });
      await expect(saveDashboardSettings(editor, { pricePerHour: 1, debitFactor: 11 })).rejects.toMatchObject({
        status: 400,
      });
      expect(await saveDashboardSettings(editor, { pricePerHour: '950.5', debitFactor: '0.9' })).toEqual({
        pricePerHour: '950.50',
        debitFactor: '0.900',
      });
    });
  });
});
