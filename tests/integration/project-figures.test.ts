import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loader as listLoader } from '~/app/routes/projects';
import { loader as projectLoader } from '~/app/routes/projects.$id';
import { loader as costsLoader } from '~/app/routes/projects.$id.costs';
import { loader as invoicingLoader } from '~/app/routes/projects.$id.invoicing';
import { loader as statisticsLoader } from '~/app/routes/projects.$id.statistics';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { runRouteAs } from '~/tests/helpers/route-loader';

/*
 * A project's figures agree everywhere (issue 28 item 7): the header, the list, the invoicing,
 * costs and statistics tabs all show the same hours, cost, income and left to invoice, computed
 * once (core/projects/project-figures.ts). The project here has two contract orders, accepted,
 * pending and declined extra work, travel time, an order in the recycle bin and a finalized part
 * invoice; every figure below is worked out by hand.
 *
 * Settings: hourly price 700, hourly cost 400. Contract sum 100 000.
 *   A contract  450 work + 30 travel   2 × 1 000 = 2 000 (row purchase 600 → cost 1 200)
 *   B contract  240 work + 60 travel   1 × 500 − 10 % = 450 (article purchase 300 → cost 300)
 *   C accepted  135 work + 30 travel   1 × 895 = 895 (purchase 500)
 *   D pending    60 work               1 × 4 150 − 10 % = 3 735 (purchase 2 000)
 *   E declined   30 work
 *   X deleted   600 work: not counted
 * Hours: work 915 min = 15,25 h, travel 120 min = 2,00 h, in all 17,25 h.
 * Cost: 17,25 h × 400 = 6 900 + articles 4 000 = 10 900.
 * Income (travel is not billed; pending and declined extra work are not income):
 *   labour (7,5 + 4 + 2,25) h × 700 = 9 625, articles 2 000 + 450 + 895 = 3 345, in all 12 970.
 * Invoicing: a 30 % part finalized = 30 000 invoiced; backlog C = 1 575 + 895 = 2 470;
 *   left to invoice 100 000 − 30 000 + 2 470 = 72 470; pending extra work D = 700 + 3 735 = 4 435.
 */

let srv: TestServer;
let a: TestTenant;
let tenantA: Tenant;
let token = '';
let projectId = '';

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

async function sql(text: string, bindings: unknown[] = []) {
  return withTenant(
    tenantA,
    async (trx) => (await trx.raw(text, bindings as never[])).rows as Record<string, unknown>[],
  );
}

const route = (handler: (args: never) => unknown, url: string, params: Record<string, string> = {}) =>
  runRouteAs(handler, { tenant: tenantA, host: a.host, token }, url, { params });

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('pfig-a');
  tenantA = (await getTenantBySlug(a.slug))!;
  token = await signIn(a, a.adminEmail);
  const [tech] = await sql(`select id from users where email = ?`, [a.technicianEmail]);
  await sql(`update project_settings set hourly_price = 700, hourly_cost = 400`);
  const [customer] = await sql(
    `insert into customers (customer_id, name) values ('30001', 'Brf Kvarnen') returning id`,
  );
  const [project] = await sql(
    `insert into projects (number, title, contract_sum) values (2001, 'Kvarnen', 100000) returning id`,
  );
  projectId = project!.id as string;
  await sql(`insert into project_customers (project_id, customer_id) values (?, ?)`, [projectId, customer!.id]);
  const [article] = await sql(
    `insert into articles (article_id, title, price, purchase_price, unit) values ('KL-1', 'Kortläsare', 500, 300, 'st')
     returning id`,
  );

  const order = async (
    number: string,
    extra: string | null,
    status: string,
    work: number,
    travel: number,
    deleted = false,
  ) => {
    const [w] = await sql(
      `insert into work_orders (number, title, status_id, work_type_id, customer_id, project_id, project_extra_status,
                                project_invoice_status, deleted_at)
       select ?, ?, (select id from work_order_statuses order by sort_order limit 1), (select id from work_types limit 1),
              ?, ?, ?, ?, ${deleted ? 'now()' : 'null'}
       returning id`,
      [number, `Order ${number}`, customer!.id, projectId, extra, status],
    );
    await sql(
      `insert into work_order_time (work_order_id, user_id, date, work_minutes, travel_minutes) values (?, ?, '2026-03-02', ?, ?)`,
      [w!.id, tech!.id, work, travel],
    );
    return w!.id as string;
  };
  const row = (
    wo: string,
    amount: number,
    price: number,
    discount: number | null,
    total: number,
    purchase: number | null,
  ) =>
    sql(
      `insert into work_order_articles (work_order_id, article_id, title, amount, price, discount_type, discount_value,
                                        purchase_price, total)
       values (?, ?, 'Kortläsare', ?, ?, ?, ?, ?, ?)`,
      [wo, article!.id, amount, price, discount === null ? null : 'PERCENTAGE', discount, purchase, total],
    );
  const A = await order('A-1', null, 'included', 450, 30);
  const B = await order('B-1', null, 'included', 240, 60);
  const C = await order('C-1', 'accepted', 'open', 135, 30);
  const D = await order('D-1', 'pending', 'open', 60, 0);
  await order('E-1', 'declined', 'open', 30, 0);
  const X = await order('X-1', null, 'open', 600, 0, true);
  await row(A, 2, 1000, null, 2000, 600);
  await row(B, 1, 500, 10, 450, null);
  await row(C, 1, 895, null, 895, 500);
  await row(D, 1, 4150, 10, 3735, 2000);
  await row(X, 5, 1000, null, 5000, 100);

  // a 30 % part of the contract sum, finalized
  const made = await call('POST', '/api/projects/invoices', token, { projectId, percent: 30 });
  expect(made.status, made.text).toBe(200);
  const invoiceId = made.json<{ invoice: { id: string } }>().invoice.id;
  const closed = await call('POST', `/api/projects/invoices/${invoiceId}/close`, token, {});
  expect(closed.status, closed.text).toBe(200);
});

afterAll(async () => {
  await srv.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('[projects] one computation of a project’s figures', () => {
  it('gives hand-computed hours, cost, income and left to invoice, and every tab shows the same', async () => {
    const header = await route(projectLoader as never, `/projects/${projectId}`, { id: projectId });
    expect(header.status).toBe(200);
    const project = header.body!.project as Json;
    expect(project.figures).toEqual({
      projectId,
      hours: { workMinutes: 915, travelMinutes: 120, minutes: 1035, work: '15.25', travel: '2.00', total: '17.25' },
      cost: {
        hourlyCost: '400.00',
        time: '6900.00',
        articles: '4000.00',
        articleCount: 4,
        // no supplier invoices on it (issue 33)
        supplierInvoices: '0.00',
        supplierInvoiceCount: 0,
        total: '10900.00',
      },
      income: { hourlyPrice: '700.00', labour: '9625.00', articles: '3345.00', total: '12970.00' },
      invoicing: {
        contractSum: '100000.00',
        invoiced: '30000.00',
        leftToInvoice: '72470.00',
        backlog: '2470.00',
        contractLeft: '70000.00',
        contractUnplanned: '70000.00',
        pendingExtraWork: '4435.00',
        draftCount: 0,
      },
    });
    // the header's figures
    expect(project.hours).toBe('17.25');
    expect(project.totals).toEqual(project.figures.invoicing);
    expect({ invoiced: project.invoiced, leftToInvoice: project.leftToInvoice }).toEqual({
      invoiced: '30000.00',
      leftToInvoice: '72470.00',
    });

    // the list
    const list = await route(listLoader as never, `/projects`);
    const item = (list.body!.projects as Json[]).find((p) => p.id === projectId)!;
    expect({ invoiced: item.invoiced, leftToInvoice: item.leftToInvoice }).toEqual({
      invoiced: '30000.00',
      leftToInvoice: '72470.00',
    });

    // the costs tab
    const costs = (await route(costsLoader as never, `/projects/${projectId}/costs`, { id: projectId })).body!
      .costs as Json;
    expect(costs.time).toEqual({
      workMinutes: 915,
      travelMinutes: 120,
      minutes: 1035,
      hours: '17.25',
      cost: '6900.00',
    });
    expect(costs.articles).toMatchObject({ count: 4, cost: '4000.00' });
    expect(costs.total).toBe('10900.00');
    expect(costs.byUser.reduce((s: number, u: Json) => s + Number(u.minutes), 0)).toBe(1035);

    // the statistics tab: travel is not income at the hourly price
    const stats = (await route(statisticsLoader as never, `/projects/${projectId}/statistics`, { id: projectId })).body!
      .statistics as Json;
    expect(stats.hours).toMatchObject({ actual: '17.25', travel: '2.00' });
    expect(stats.cost.actual).toBe('10900.00');
    expect(stats.revenue).toEqual({ labour: '9625.00', articles: '3345.00', total: '12970.00', hourlyPrice: '700.00' });
    expect(stats.margin.amount).toBe('2070.00');
    expect(stats.invoiced).toBe('30000.00');
    expect(stats.leftToInvoice).toBe('72470.00');
    expect(stats.contractSum).toBe('100000.00');

    // the invoicing tab: its totals, and its rows add up to the same backlog and pending extra work
    const invoicing = (await route(invoicingLoader as never, `/projects/${projectId}/invoicing`, { id: projectId }))
      .body as Json;
    expect(invoicing.totals).toEqual(project.figures.invoicing);
    const sumOf = (rows: Json[]) => rows.reduce((s, r) => s + Math.round(Number(r.total) * 100), 0) / 100;
    const rows = invoicing.rows as Json[];
    expect(sumOf(rows.filter((r) => r.invoiceable))).toBe(2470);
    expect(sumOf(rows.filter((r) => r.extraWork === 'pending'))).toBe(4435);
    // the labour rows bill work hours only: 15,25 h less the pending and declined orders' 1,5 h
    expect(
      rows
        .filter((r) => r.kind === 'workOrder' && (r.extraWork === null || r.extraWork === 'accepted'))
        .reduce((s, r) => s + Number(r.quantity), 0),
    ).toBe(13.75);
  });
});
