import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import { action as invoicingAction, loader as invoicingLoader } from '~/app/routes/projects.$id.invoicing';
import { validateSession } from '~/core/auth/session.service';
import { inTenant, sessionPolicy } from '~/core/unit-of-work';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import { buildInvoiceDocumentModel, invoiceHtml } from '~/core/invoicing/invoice-documents.service';
import { projectInvoiceTotals } from '~/core/projects/project-invoice.service';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testAuth } from '~/tests/helpers/auth';

/*
 * Project invoicing through the HTTP API (issue 18; spec sections 3, 4, 5 and 8): part invoices of
 * the contract sum that add up to it exactly, the backlog with only accepted extra work, the
 * included marking refused for invoiced rows and rows on an invoice, close (customer number, the
 * rows invoiced, the ERP queue), reopen, a deleted draft freeing its rows, and the totals the
 * project list and screen show after each step. Projects are made with SQL here: the project calls
 * are another part of the issue.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'staff' | 'adminB', string>;
const ref = {} as Record<'customer' | 'noNumber' | 'article' | 'tech' | 'project' | 'bare' | 'other', string>;
/** The main project's orders: plain, accepted extra work, pending extra work. */
const wo = {} as Record<'plain' | 'accepted' | 'pending', { id: string; number: number }>;
const art = {} as Record<'plain' | 'accepted' | 'pending', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const inA = <T>(fn: (trx: Trx) => Promise<T>) => withTenant(tenantA, fn);

async function project(number: number, contractSum: string, customerId: string | null, extra: Json = {}) {
  return inA(async (trx) => {
    const [p] = await trx('projects')
      .insert({ number, title: `Projekt ${number}`, contract_sum: contractSum, ...extra })
      .returning('id');
    if (customerId) await trx('project_customers').insert({ project_id: p.id, customer_id: customerId });
    return p.id as string;
  });
}

/** A work order made through the API, then put in the project (and marked extra work) with SQL. */
async function projectOrder(projectId: string, title: string, minutes: number, extra: string | null = null) {
  const res = await call('POST', '/api/wo', tok.admin, { workOrder: { title, customerId: ref.customer } });
  expect(res.status, res.text).toBe(200);
  const order = res.json().workOrder as { id: string; number: number | string };
  await inA(async (trx) => {
    await trx('work_orders').where({ id: order.id }).update({ project_id: projectId, project_extra_status: extra });
    if (minutes)
      await trx('work_order_time').insert({
        work_order_id: order.id,
        user_id: ref.tech,
        date: '2026-03-02',
        work_minutes: minutes,
      });
  });
  return { id: order.id, number: Number(order.number) };
}

const addArticle = (workOrderId: string, amount: string, price: string, total: string) =>
  inA(async (trx) => {
    const [row] = await trx('work_order_articles')
      .insert({ work_order_id: workOrderId, article_id: ref.article, title: 'Kortläsare', amount, price, total })
      .returning('id');
    return row.id as string;
  });

const ok = async (method: string, path: string, body?: unknown, token = tok.admin) => {
  const res = await call(method, path, token, body);
  expect(res.status, res.text).toBe(200);
  return res.json() as Json;
};
const refused = async (method: string, path: string, body: unknown, status: number, token = tok.admin) => {
  const res = await call(method, path, token, body);
  expect(res.status, res.text).toBe(status);
  return res.json() as Json;
};
const rows = async (projectId = ref.project) => (await ok('GET', `/api/projects/${projectId}/articles`)).rows as Json[];
const rowOf = async (kind: 'workOrder' | 'article', id: string) =>
  (await rows()).find((r) => r.kind === kind && r.id === id)!;
const totals = (projectId = ref.project) =>
  inA(async (trx) => (await projectInvoiceTotals({ trx }, [projectId])).get(projectId)!);
/** What a project invoice keeps of its project and contract sum (its data's projectInvoice). */
const partOf = (invoiceId: string) =>
  inA(
    async (trx) => ((await trx('invoices').where({ id: invoiceId }).first('data')).data as Json).projectInvoice as Json,
  );
const createPart = (body: Json) => call('POST', '/api/projects/invoices', tok.admin, body);
const createOk = async (body: Json) => {
  const res = await createPart(body);
  expect(res.status, res.text).toBe(200);
  return res.json().invoice as Json;
};
const closeOk = (invoiceId: string, token = tok.admin) =>
  ok('POST', `/api/projects/invoices/${invoiceId}/close`, {}, token);
const deliveries = (invoiceId: string) =>
  inA((trx) => trx('erp_deliveries').where({ invoice_id: invoiceId }).orderBy('created_at').select('*')) as Promise<
    Json[]
  >;

beforeAll(async () => {
  srv = await startTestServer();
  // an ERP that takes invoices: closing queues the delivery (no worker runs here, nothing is sent)
  await loadRegistry({
    fortnox: { clientId: 'x', clientSecret: 'y', authBaseUrl: 'http://127.0.0.1:9', apiBaseUrl: 'http://127.0.0.1:9' },
  });
  a = await createTestTenant('proj-inv-a');
  b = await createTestTenant('proj-inv-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await inA(async (trx) => {
    await trx.raw(
      `insert into app_modules (id, enabled) values ('projects', true), ('erp', true)
       on conflict (id) do update set enabled = true`,
    );
    await trx('erp_connection').update({ kind: 'fortnox' });
    await trx('project_settings').update({ hourly_price: '600.00' });
    await trx('access_levels').insert({
      display_name: 'Projektledare',
      permissions: ['projects:read', 'projects:edit', 'workorders:read', 'invoices:read'],
      work_order_limit: 'none',
    });
    await ensureUser(trx, {
      email: `pl@${a.slug}.se`,
      name: 'Petra Projektledare',
      password: PASSWORD,
      accessLevels: ['Projektledare'],
    });
    ref.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    const [c, n] = await trx('customers')
      .insert([
        { customer_id: '30001', name: 'Fastighets AB Eken', invoice_language: 'sv' },
        { customer_id: null, name: 'Nykund AB' },
      ])
      .returning('id');
    ref.customer = c.id;
    ref.noNumber = n.id;
    ref.article = (
      await trx('articles')
        .insert({ article_id: 'KL-1', title: 'Kortläsare', price: '300.00', unit: 'st' })
        .returning('id')
    )[0].id;
  });
  await withTenant((await getTenantBySlug(b.slug))!, (trx) =>
    trx.raw(
      `insert into app_modules (id, enabled) values ('projects', true) on conflict (id) do update set enabled = true`,
    ),
  );
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.staff = await signIn(a, `pl@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);

  // 100 000,00 contract; its own hourly price 500 (the tenant's 600 is for projects without one)
  ref.project = await project(1001, '100000.00', ref.customer, { hourly_price: '500.00' });
  wo.plain = await projectOrder(ref.project, 'Kortläsare entré', 90); // 1,5 h × 500 = 750
  art.plain = await addArticle(wo.plain.id, '2', '300.00', '600.00');
  wo.accepted = await projectOrder(ref.project, 'ÄTA extra dörr', 60, 'accepted'); // 500
  art.accepted = await addArticle(wo.accepted.id, '1', '100.00', '100.00');
  wo.pending = await projectOrder(ref.project, 'ÄTA kamera', 120, 'pending'); // 1000, not yet
  art.pending = await addArticle(wo.pending.id, '1', '200.00', '200.00');
  ref.bare = await project(1002, '50000.00', ref.noNumber);
  ref.other = await project(1003, '10000.00', ref.customer);
});
afterAll(async () => {
  await srv?.close();
});

describe('[projects] invoicing rows and the backlog', () => {
  it('lists the orders with their labour and their article rows; only accepted extra work is backlog', async () => {
    const all = await rows();
    expect(all.map((r) => [r.kind, r.total, r.status, r.extraWork, r.invoiceable])).toEqual([
      ['workOrder', '750.00', 'open', null, true],
      ['article', '600.00', 'open', null, true],
      ['workOrder', '500.00', 'open', 'accepted', true],
      ['article', '100.00', 'open', 'accepted', true],
      ['workOrder', '1000.00', 'open', 'pending', false],
      ['article', '200.00', 'open', 'pending', false],
    ]);
    expect(all[0]).toMatchObject({
      title: `#${wo.plain.number} Kortläsare entré`,
      quantity: '1.50',
      unit: 'h',
      price: '500.00',
      invoiceId: null,
      canMarkIncluded: true,
    });
    // a project without its own hourly price takes the tenant's
    const tenantPriced = await projectOrder(ref.other, 'Service', 30);
    expect((await rows(ref.other)).find((r) => r.id === tenantPriced.id)).toMatchObject({
      price: '600.00',
      total: '300.00',
    });
    expect(await totals()).toEqual({
      contractSum: '100000.00',
      invoiced: '0.00',
      leftToInvoice: '101950.00',
      backlog: '1950.00',
      contractLeft: '100000.00',
      contractUnplanned: '100000.00',
      // the pending extra work: not in the backlog, not invoiceable until accepted
      pendingExtraWork: '1200.00',
      draftCount: 0,
    });
  });

  it('marks rows included and open again; included rows leave the backlog, an order takes its articles along', async () => {
    await ok('PATCH', `/api/projects/${ref.project}/workorders/status`, {
      workOrderId: wo.pending.id,
      status: 'included',
    });
    expect((await rowOf('article', art.pending)).status).toBe('included');
    await ok('PATCH', `/api/projects/${ref.project}/workorders/status`, { workOrderId: wo.pending.id, status: 'open' });
    await ok('PATCH', `/api/projects/${ref.project}/articles/status`, { rowId: art.plain, status: 'included' });
    expect((await totals()).backlog).toBe('1350.00');
    await ok('PATCH', `/api/projects/${ref.project}/articles/status`, { rowId: art.plain, status: 'open' });
    expect((await totals()).backlog).toBe('1950.00');
    // invoiced by hand needs a finalized invoice of the project
    const bad = await refused(
      'PATCH',
      `/api/projects/${ref.project}/articles/status`,
      { rowId: art.plain, status: 'invoiced' },
      400,
    );
    expect(bad.fields).toEqual({ invoiceId: ['ERROR_INVALID_VALUE'] });
    await refused('PATCH', `/api/projects/${ref.project}/articles/status`, { rowId: art.plain, status: 'maybe' }, 400);
    // a row of another project is not found here
    await refused('PATCH', `/api/projects/${ref.other}/articles/status`, { rowId: art.plain, status: 'included' }, 404);
  });
});

describe('[projects] part invoices', () => {
  const state = {} as Record<'first' | 'second' | 'rest', Json>;

  it('refuses an empty invoice (400) and a project without a customer (409)', async () => {
    const empty = await createPart({ projectId: ref.project, percent: null, withBacklog: false });
    expect(empty.status).toBe(400);
    expect(empty.json().code).toBe('PROJECT_INVOICE_EMPTY');
    const none = await project(1004, '1000.00', null);
    const res = await createPart({ projectId: none, percent: 10, withBacklog: false });
    expect(res.status).toBe(409);
    expect(res.json().code).toBe('PROJECT_INVOICE_CUSTOMER_MISSING');
    const zero = await createPart({ projectId: ref.project, percent: 0, withBacklog: false });
    expect(zero.status).toBe(400);
    expect(zero.json().fields).toEqual({ percent: ['ERROR_INVALID_VALUE'] });
  });

  it('a first part of 33,33 % is a draft with one row in the customer’s language; drafts are not invoiced', async () => {
    state.first = await createOk({
      projectId: ref.project,
      percent: 33.33,
      withBacklog: false,
      invoiceDate: '2026-03-10',
    });
    expect(state.first).toMatchObject({
      status: 'draft',
      invoiceNr: null,
      invoiceDate: '2026-03-10',
      percent: '33.33',
      rest: false,
      contractAmount: '33330.00',
      backlogAmount: '0.00',
      totalPrice: '33330.00',
      totalPriceVat: '41663.00', // 25 % VAT, rounded to whole kronor
      customerName: 'Fastighets AB Eken',
    });
    const invoice = await ok('GET', `/api/invoice/${state.first.id}`);
    expect(invoice.articles.map((r: Json) => [r.articleTitle, r.amount, r.price, r.totalPrice])).toEqual([
      ['Delbetalning 33,33 % av kontraktssumma', '1.00', '33330.00', '33330.00'],
    ]);
    expect(invoice.source).toEqual({ type: 'project', id: ref.project, number: '1001', title: 'Projekt 1001' });
    // its draft changes on the project, not in the invoice editor
    expect(invoice.canEdit).toBe(false);
    const put = await refused('PUT', '/api/invoice', { id: state.first.id, version: invoice.version, rows: [] }, 409);
    expect(put.code).toBe('PROJECT_INVOICE_EDIT_IN_PROJECT');
    expect(await totals()).toMatchObject({
      invoiced: '0.00',
      leftToInvoice: '101950.00',
      draftCount: 1,
      contractUnplanned: '66670.00',
    });
  });

  it('close gives it its number, queues it for the ERP and counts it invoiced', async () => {
    const closed = await closeOk(state.first.id);
    expect(closed.queued).toBe(true);
    expect(closed.delivery).toBe('queued');
    expect(await partOf(state.first.id)).toMatchObject({
      contractSum: '100000.00',
      invoicedBefore: '0.00',
      contractPart: '33330.00',
      leftAfter: '66670.00',
    });
    expect(closed.invoice).toMatchObject({ status: 'finalized', erp: 'queued' });
    expect(closed.invoice.invoiceNr).toMatch(/^\d+$/);
    state.first = closed.invoice;
    expect((await deliveries(state.first.id)).map((d) => d.status)).toEqual(['pending']);
    expect(await totals()).toMatchObject({
      invoiced: '33330.00',
      contractLeft: '66670.00',
      leftToInvoice: '68620.00',
      draftCount: 0,
    });
    await refused('POST', `/api/projects/invoices/${state.first.id}/close`, {}, 409);
  });

  it('a part with the backlog carries the open rows; they cannot be marked included while on it (§8)', async () => {
    state.second = await createOk({ projectId: ref.project, percent: 33.33, withBacklog: true });
    expect(state.second).toMatchObject({
      contractAmount: '33330.00',
      backlogAmount: '1950.00',
      totalPrice: '35280.00',
    });
    const invoice = await ok('GET', `/api/invoice/${state.second.id}`);
    // the part of the contract sum is a part payment, not material (issue 28 item 4)
    expect(invoice.articles.map((r: Json) => [r.kind, r.type, r.articleTitle, r.amount, r.unit, r.totalPrice])).toEqual(
      [
        ['part_payment', 'partPayment', 'Delbetalning 33,33 % av kontraktssumma', '1.00', null, '33330.00'],
        ['labour', 'labour', `#${wo.plain.number} Kortläsare entré`, '1.50', 'h', '750.00'],
        ['article', 'material', 'Kortläsare', '2.00', 'st', '600.00'],
        // the accepted extra work's rows say they are extra work (the order's title already does)
        ['labour', 'labour', `#${wo.accepted.number} ÄTA extra dörr`, '1.00', 'h', '500.00'],
        ['article', 'material', `ÄTA #${wo.accepted.number}: Kortläsare`, '1.00', 'st', '100.00'],
      ],
    );
    // it carries the contract sum and what of it the first part invoiced
    expect(await partOf(state.second.id)).toMatchObject({
      contractSum: '100000.00',
      invoicedBefore: '33330.00',
      contractPart: '33330.00',
      leftAfter: '33340.00',
    });
    const all = await rows();
    expect(all.filter((r) => r.invoiceId === state.second.id).map((r) => r.id)).toEqual([
      wo.plain.id,
      art.plain,
      wo.accepted.id,
      art.accepted,
    ]);
    // still open until the invoice is closed: the backlog still counts them
    expect((await rowOf('article', art.plain)).status).toBe('open');
    for (const [path, body] of [
      ['articles', { rowId: art.plain, status: 'included' }],
      ['workorders', { workOrderId: wo.plain.id, status: 'included' }],
    ] as const) {
      const res = await refused('PATCH', `/api/projects/${ref.project}/${path}/status`, body, 409);
      expect(res.code).toBe('PROJECT_ROW_INVOICED');
    }
    expect(await totals()).toMatchObject({
      invoiced: '33330.00',
      backlog: '1950.00',
      leftToInvoice: '68620.00',
      draftCount: 1,
    });
  });

  it('refuses a part beyond what is left of the contract sum, drafts counted (409)', async () => {
    const res = await createPart({ projectId: ref.project, percent: 40, withBacklog: false });
    expect(res.status).toBe(409);
    expect(res.json().code).toBe('PROJECT_INVOICE_EXCEEDS_CONTRACT');
  });

  it('deleting the draft frees its rows; made again and closed, they are invoiced', async () => {
    expect(await ok('DELETE', `/api/projects/invoices/${state.second.id}`)).toEqual({ deleted: true, voided: false });
    expect((await rows()).every((r) => r.invoiceId === null)).toBe(true);
    await refused('GET', `/api/invoice/${state.second.id}`, undefined, 404);

    state.second = await createOk({ projectId: ref.project, percent: 33.33, withBacklog: true });
    const closed = await closeOk(state.second.id);
    expect(closed.invoice).toMatchObject({ status: 'finalized', backlogAmount: '1950.00' });
    const after = await rows();
    expect(after.map((r) => r.status)).toEqual(['invoiced', 'invoiced', 'invoiced', 'invoiced', 'open', 'open']);
    expect(after[0]).toMatchObject({
      invoiceId: state.second.id,
      invoiceNr: closed.invoice.invoiceNr,
      canMarkIncluded: false,
    });
    for (const [path, body] of [
      ['articles', { rowId: art.accepted, status: 'included' }],
      ['workorders', { workOrderId: wo.accepted.id, status: 'included' }],
      ['articles', { rowId: art.plain, status: 'open' }],
    ] as const) {
      const res = await refused('PATCH', `/api/projects/${ref.project}/${path}/status`, body, 409);
      expect(res.code).toBe('PROJECT_ROW_INVOICED');
    }
    expect(await totals()).toEqual({
      contractSum: '100000.00',
      invoiced: '68610.00',
      leftToInvoice: '33340.00',
      backlog: '0.00',
      contractLeft: '33340.00',
      contractUnplanned: '33340.00',
      // the pending extra work: not in the backlog, not invoiceable until accepted
      pendingExtraWork: '1200.00',
      draftCount: 0,
    });
  });

  it('the rest makes the parts add up to the contract sum exactly', async () => {
    state.rest = await createOk({ projectId: ref.project, percent: 'rest', withBacklog: true });
    expect(state.rest).toMatchObject({ rest: true, percent: null, contractAmount: '33340.00', backlogAmount: '0.00' });
    const invoice = await ok('GET', `/api/invoice/${state.rest.id}`);
    expect(invoice.articles.map((r: Json) => r.articleTitle)).toEqual(['Resterande del av kontraktssumma']);
    state.rest = (await closeOk(state.rest.id)).invoice;
    const { invoices } = await ok('GET', `/api/projects/${ref.project}/invoices`);
    expect(invoices.map((i: Json) => i.contractAmount)).toEqual(['33330.00', '33330.00', '33340.00']);
    expect(await totals()).toMatchObject({ invoiced: '101950.00', leftToInvoice: '0.00', contractLeft: '0.00' });
    const none = await createPart({ projectId: ref.project, percent: 'rest', withBacklog: true });
    expect(none.status).toBe(400);
    expect(none.json().code).toBe('PROJECT_INVOICE_EMPTY');
    // the same list for the invoice screens
    const viaInvoices = await ok('GET', `/api/invoice/project/${ref.project}`);
    expect(viaInvoices.invoices.map((i: Json) => i.id)).toEqual(invoices.map((i: Json) => i.id));
  });

  it('reopen: an invoice the ERP does not have is a draft again with its number; one in the ERP is refused', async () => {
    const number = state.rest.invoiceNr;
    const reopened = await ok('POST', `/api/projects/invoices/${state.rest.id}/reopen`);
    expect(reopened.invoice).toMatchObject({ status: 'draft', invoiceNr: number, erp: 'none' });
    expect((await deliveries(state.rest.id)).map((d) => [d.status, d.error_code])).toEqual([
      ['skipped', 'INVOICE_REOPENED'],
    ]);
    expect(await totals()).toMatchObject({ invoiced: '68610.00', leftToInvoice: '33340.00', draftCount: 1 });
    // changed while a draft (the date), closed again: the same number, queued again
    const changed = await ok('PUT', '/api/projects/invoices', { id: state.rest.id, invoiceDate: '2026-04-01' });
    expect(changed.invoice).toMatchObject({ invoiceDate: '2026-04-01', contractAmount: '33340.00', invoiceNr: number });
    const again = await closeOk(state.rest.id);
    expect(again.invoice).toMatchObject({ status: 'finalized', invoiceNr: number, erp: 'queued' });
    expect((await deliveries(state.rest.id)).map((d) => d.status)).toEqual(['pending']);
    expect(await totals()).toMatchObject({ invoiced: '101950.00', leftToInvoice: '0.00' });

    await inA((trx) => trx('erp_deliveries').where({ invoice_id: state.first.id }).update({ status: 'delivered' }));
    const inErp = await refused('POST', `/api/projects/invoices/${state.first.id}/reopen`, {}, 409);
    expect(inErp.code).toBe('INVOICE_ALREADY_IN_ERP');
  });

  it('reopening a part with backlog opens its rows again; deleting that numbered draft voids it', async () => {
    const reopened = await ok('POST', `/api/projects/invoices/${state.second.id}/reopen`);
    expect(reopened.invoice.status).toBe('draft');
    const after = await rows();
    expect(after.slice(0, 4).map((r) => [r.status, r.invoiceId])).toEqual([
      ['open', state.second.id],
      ['open', state.second.id],
      ['open', state.second.id],
      ['open', state.second.id],
    ]);
    expect(await totals()).toMatchObject({ invoiced: '66670.00', backlog: '1950.00', leftToInvoice: '35280.00' });
    expect(await ok('DELETE', `/api/projects/invoices/${state.second.id}`)).toEqual({ deleted: false, voided: true });
    expect((await ok('GET', `/api/invoice/${state.second.id}`)).status).toBe('void');
    expect((await rows()).every((r) => r.invoiceId === null)).toBe(true);
    expect(await totals()).toMatchObject({ invoiced: '66670.00', contractUnplanned: '33330.00', backlog: '1950.00' });
  });

  it('marks a row invoiced by hand with a finalized invoice of the project', async () => {
    await ok('PATCH', `/api/projects/${ref.project}/workorders/status`, {
      workOrderId: wo.pending.id,
      status: 'invoiced',
      invoiceId: state.first.id,
    });
    const row = await rowOf('workOrder', wo.pending.id);
    expect(row).toMatchObject({ status: 'invoiced', invoiceId: state.first.id });
    expect((await rowOf('article', art.pending)).status).toBe('invoiced');
  });

  it('the printed part invoice shows the project, the contract sum, what was invoiced before and what is left', async () => {
    const model = await inTenant({ tenant: tenantA, auth: testAuth(ref.tech, ['invoices:read']), lang: 'sv' }, (ctx) =>
      buildInvoiceDocumentModel(ctx, state.second.id),
    );
    expect(model.project).toEqual({
      number: '1001',
      title: 'Projekt 1001',
      contractSum: '100000.00',
      invoicedBefore: '33330.00',
      contractPart: '33330.00',
      leftAfter: '33340.00',
    });
    const html = invoiceHtml(model);
    expect(html).toContain('Kontraktssumma');
    expect(html).toContain('Fakturerat tidigare av kontraktssumman');
    expect(html).toContain('Kvar av kontraktssumman efter denna faktura');
    expect(html).toContain(`ÄTA #${wo.accepted.number}: Kortläsare`);
  });

  it('closing says it was not sent when no ERP that takes invoices is connected', async () => {
    await inA((trx) => trx('erp_connection').update({ kind: 'none' }));
    try {
      const draft = await createOk({ projectId: ref.other, percent: 10, withBacklog: false });
      const closed = await closeOk(draft.id);
      expect(closed).toMatchObject({ queued: false, delivery: 'notConnected' });
      expect(closed.invoice).toMatchObject({ status: 'finalized', erp: 'none' });
      expect(await deliveries(draft.id)).toEqual([]);
    } finally {
      await inA((trx) => trx('erp_connection').update({ kind: 'fortnox' }));
    }
  });
});

describe('[projects] closing needs a customer number; negative totals need their permission', () => {
  it('close without a customer number is refused and the draft stays', async () => {
    const draft = await createOk({ projectId: ref.bare, percent: 10, withBacklog: false });
    const res = await refused('POST', `/api/projects/invoices/${draft.id}/close`, {}, 409);
    expect(res.code).toBe('PROJECT_INVOICE_CUSTOMER_NUMBER_MISSING');
    expect((await ok('GET', `/api/projects/${ref.bare}/invoices`)).invoices[0]).toMatchObject({ status: 'draft' });
    // changing the draft computes it again
    const changed = await ok('PUT', '/api/projects/invoices', { id: draft.id, percent: 20 });
    expect(changed.invoice).toMatchObject({ percent: '20', contractAmount: '10000.00', totalPrice: '10000.00' });
  });

  it('a negative invoice closes only with projects:close_negative_invoice', async () => {
    const credit = await project(1005, '0.00', ref.customer);
    const order = await projectOrder(credit, 'Kreditering', 0);
    await addArticle(order.id, '-1', '500.00', '-500.00');
    const draft = await createOk({ projectId: credit, percent: null, withBacklog: true });
    expect(draft).toMatchObject({ backlogAmount: '-500.00', totalPrice: '-500.00' });
    const res = await refused('POST', `/api/projects/invoices/${draft.id}/close`, {}, 403, tok.staff);
    expect(res.code).toBe('WARNING_PERMISSION_DENIED');
    expect((await closeOk(draft.id)).invoice.status).toBe('finalized');
  });

  it('a closed project refuses changes', async () => {
    const closedProject = await project(1006, '1000.00', ref.customer, { status: 'closed' });
    const res = await createPart({ projectId: closedProject, percent: 10, withBacklog: false });
    expect(res.status).toBe(409);
    expect(res.json().code).toBe('PROJECT_CLOSED');
  });
});

describe('[projects] invoicing access', () => {
  it('another tenant’s project or invoice is 404', async () => {
    const { invoices } = await ok('GET', `/api/projects/${ref.project}/invoices`);
    const id = invoices[0].id as string;
    for (const [method, path, body] of [
      ['GET', `/api/projects/${ref.project}/articles`, undefined],
      ['GET', `/api/projects/${ref.project}/invoices`, undefined],
      ['GET', `/api/invoice/project/${ref.project}`, undefined],
      ['PATCH', `/api/projects/${ref.project}/articles/status`, { rowId: art.plain, status: 'included' }],
      ['POST', '/api/projects/invoices', { projectId: ref.project, percent: 1, withBacklog: false }],
      ['POST', `/api/projects/invoices/${id}/reopen`, {}],
      ['POST', `/api/projects/invoices/${id}/close`, {}],
      ['DELETE', `/api/projects/invoices/${id}`, undefined],
    ] as const) {
      const res = await call(method, path, tok.adminB, body, b.host);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });

  it('a technician without projects:read is refused (403); project staff read and edit', async () => {
    for (const path of [`/api/projects/${ref.project}/articles`, `/api/projects/${ref.project}/invoices`])
      expect((await call('GET', path, tok.tech)).status).toBe(403);
    expect(
      (await call('POST', '/api/projects/invoices', tok.tech, { projectId: ref.project, percent: 1 })).status,
    ).toBe(403);
    expect((await call('GET', `/api/projects/${ref.project}/articles`, tok.staff)).status).toBe(200);
  });
});

describe('[projects] the invoicing tab route /projects/:id/invoicing', () => {
  /** Runs the route's loader or action as React Router would, after the i18n middleware. */
  async function runRoute(token: string, id: string, form?: Record<string, string>) {
    const auth = await inA((trx) => validateSession(trx, token, new Date(), sessionPolicy()));
    const context = new RouterContextProvider();
    context.set(tenantContext, tenantA);
    context.set(authContext, auth);
    context.set(requestContext, { ip: null, requestId: 'test', token });
    const url = `http://${a.host}/projects/${id}/invoicing`;
    let body: FormData | undefined;
    if (form) {
      body = new FormData();
      for (const [k, v] of Object.entries(form)) body.append(k, v);
    }
    const request = new Request(url, form ? { method: 'POST', body } : undefined);
    let answer: unknown;
    await i18nextMiddleware({ request, context, params: { id }, url: new URL(url), pattern: '' } as never, async () => {
      const args = { request, context, params: { id } } as never;
      answer = form ? await invoicingAction(args) : await invoicingLoader(args);
      return new Response(null);
    });
    const r = answer as { data?: Json; init?: { status?: number } | null };
    return { status: r.init?.status ?? 200, body: r.data as Json };
  }

  it('loads the tab, makes and closes a part invoice through intents; another project’s invoice is not found', async () => {
    const id = await project(1007, '20000.00', ref.customer);
    const loaded = await runRoute(tok.staff, id);
    expect(loaded.status).toBe(200);
    expect(loaded.body).toMatchObject({
      project: { number: 1007 },
      totals: { contractSum: '20000.00', leftToInvoice: '20000.00' },
      customer: { name: 'Fastighets AB Eken', customerNumber: '30001' },
      canEdit: true,
      canCloseNegative: false,
      erpName: expect.any(String),
    });

    const made = await runRoute(tok.staff, id, { intent: 'create', percent: '25,5', withBacklog: 'false' });
    expect(made.status).toBe(200);
    const draft = made.body.data.invoices[0];
    expect(draft).toMatchObject({ status: 'draft', contractAmount: '5100.00' });

    const bad = await runRoute(tok.staff, id, { intent: 'create', percent: 'x', withBacklog: 'false' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ percent: ['ERROR_INVALID_VALUE'] });

    const elsewhere = await runRoute(tok.staff, ref.bare, { intent: 'close', invoiceId: draft.id });
    expect(elsewhere.status).toBe(404);

    const closed = await runRoute(tok.staff, id, { intent: 'close', invoiceId: draft.id });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ ok: true, queued: true });
    expect(closed.body.invoiceNr).toMatch(/^\d+$/);
    expect(closed.body.data.totals).toMatchObject({ invoiced: '5100.00', leftToInvoice: '14900.00' });

    const rest = await runRoute(tok.staff, id, { intent: 'create', rest: 'true', withBacklog: 'true' });
    expect(rest.body.data.invoices[1]).toMatchObject({ rest: true, contractAmount: '14900.00' });
    const deleted = await runRoute(tok.staff, id, { intent: 'delete', invoiceId: rest.body.data.invoices[1].id });
    expect(deleted.body.data.invoices).toHaveLength(1);

    // a technician may not read projects
    const tech = await runRoute(tok.tech, id, { intent: 'create', percent: '10', withBacklog: 'false' });
    expect(tech.status).toBe(403);
  });
});
