import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import { loader as listLoader } from '~/app/routes/invoices';
import { action as invoiceAction, loader as invoiceLoader } from '~/app/routes/invoices.$id';
import { action as documentAction, loader as documentLoader } from '~/app/routes/invoices.$id.document';
import { loader as historyLoader } from '~/app/routes/invoices.$id.history';
import { loader as salesOrderLoader } from '~/app/routes/sales.$id';
import { loader as workOrderLoader } from '~/app/routes/work-orders.$id';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { sessionPolicy } from '~/core/unit-of-work';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { ensureUser } from '~/core/users/create-user';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * The invoice screens' routes (issue 14 item 2), run as React Router runs them (after the i18n
 * middleware, with the session's auth): the list's loader and its filters, the invoice's loader and
 * its save / finalize / erp intents with the refusals mapped to statuses, the history, the
 * documents route's ERP file, and the closed orders' screens showing their invoice.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type RouteFn = (args: never) => unknown;

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'closer' | 'adminB', string>;
const ref = {} as Record<'customer' | 'detector', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('invscr-a');
  b = await createTestTenant('invscr-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    const [c] = await trx('customers')
      .insert({ customer_id: '40001', name: 'Brf Linden', payment_term_days: 30 })
      .returning('id');
    ref.customer = c.id;
    const [art] = await trx('articles')
      .insert({ article_id: 'DET-1', title: 'Rörelsedetektor', price: '200.00', unit: 'st' })
      .returning('id');
    ref.detector = art.id;
    // drafts to edit: the invoice waits for a review before it is final
    await trx('invoice_settings').update({ review_before_sending: true });
    // closes orders, reads no invoices
    await trx('access_levels').insert({
      display_name: 'Closers',
      permissions: ['workorders:read', 'workorders:close'],
      work_order_limit: 'none',
    });
    await ensureUser(trx, {
      email: `closer@${a.slug}.se`,
      name: 'Stig Stängare',
      password: PASSWORD,
      accessLevels: ['Closers'],
    });
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.closer = await signIn(a, `closer@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(async () => {
  await srv?.close();
});

/** Runs a route's loader or action as React Router would, after the i18n middleware. */
async function runRoute(
  fn: RouteFn,
  token: string,
  path: string,
  params: Record<string, string>,
  body?: { json?: unknown; form?: Record<string, string> },
  tenant: Tenant = tenantA,
): Promise<{ status: number; body: Json; headers?: Headers }> {
  const auth = await withTenant(tenant, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
  const context = new RouterContextProvider();
  context.set(tenantContext, tenant);
  context.set(authContext, auth);
  context.set(requestContext, { ip: null, requestId: 'test', token });
  const url = `http://${a.host}${path}`;
  let init: RequestInit | undefined;
  if (body?.json !== undefined)
    init = { method: 'POST', body: JSON.stringify(body.json), headers: { 'content-type': 'application/json' } };
  else if (body?.form) {
    const form = new FormData();
    for (const [k, v] of Object.entries(body.form)) form.append(k, v);
    init = { method: 'POST', body: form };
  }
  const request = new Request(url, init);
  let answer: unknown;
  await i18nextMiddleware({ request, context, params, url: new URL(url), pattern: '' } as never, async () => {
    try {
      answer = await (fn as (args: unknown) => unknown)({ request, context, params });
    } catch (e) {
      answer = e;
    }
    return new Response(null);
  });
  if (answer instanceof Response) return { status: answer.status, body: {}, headers: answer.headers };
  const r = answer as { data?: Json; init?: { status?: number } | null } & Json;
  // data(…, {status}) from a loader or action, returned or thrown
  if (r && typeof r === 'object' && 'data' in r && 'init' in r)
    return { status: r.init?.status ?? 200, body: (r.data ?? {}) as Json };
  return { status: 200, body: r };
}

async function closedOrder(): Promise<{ workOrderId: string; invoiceId: string }> {
  const res = await call('POST', '/api/wo', tok.admin, {
    workOrder: { title: 'Larmservice', customerId: ref.customer },
  });
  expect(res.status, res.text).toBe(200);
  const wo = res.json().workOrder as Json;
  await withTenant(tenantA, (trx) =>
    trx('work_order_articles').insert({
      work_order_id: wo.id,
      article_id: ref.detector,
      title: 'Rörelsedetektor',
      amount: '2',
      price: '200.00',
      total: 0,
      sort_order: 1,
    }),
  );
  const closed = await call('POST', '/api/wo/close', tok.admin, { workOrderId: wo.id, invoiceDate: '2026-11-10' });
  expect(closed.status, closed.text).toBe(200);
  return { workOrderId: wo.id as string, invoiceId: closed.json().invoice.id as string };
}

/** The invoice route: its loader, or with a body its action. */
const invoiceRoute = (token: string, id: string, json?: unknown) =>
  json === undefined
    ? runRoute(invoiceLoader as RouteFn, token, `/invoices/${id}`, { id })
    : runRoute(invoiceAction as RouteFn, token, `/invoices/${id}`, { id }, { json });

describe('[invoicing] the invoice list route /invoices', () => {
  it('lists with the filters of the address, made valid, each invoice with its order link and ERP state', async () => {
    const { workOrderId, invoiceId } = await closedOrder();
    const all = await runRoute(listLoader as RouteFn, tok.admin, '/invoices?status=paid&erp=x&from=nope', {});
    expect(all.status).toBe(200);
    expect(all.body.filters).toEqual({ status: 'all', erp: 'all', q: '', from: '', to: '' });
    expect(all.body.erpName).toEqual(expect.any(String));
    const row = all.body.invoices.find((i: Json) => i.id === invoiceId);
    expect(row).toMatchObject({
      status: 'draft',
      invoiceNr: null,
      customerName: 'Brf Linden',
      erp: 'none',
      sourceHref: `/work-orders/${workOrderId}`,
      totalPriceVat: '500.00',
    });
    const drafts = await runRoute(listLoader as RouteFn, tok.admin, '/invoices?status=draft&erp=none', {});
    expect(drafts.body.filters).toMatchObject({ status: 'draft', erp: 'none' });
    expect(drafts.body.invoices.every((i: Json) => i.status === 'draft')).toBe(true);
    const finals = await runRoute(listLoader as RouteFn, tok.admin, '/invoices?status=finalized', {});
    expect(finals.body.invoices.some((i: Json) => i.id === invoiceId)).toBe(false);
    const page = await runRoute(listLoader as RouteFn, tok.admin, '/invoices?offset=1', {});
    expect(page.body.offset).toBe(1);
  });
});

describe('[invoicing] the invoice route /invoices/:id', () => {
  it('reads a draft; saves it with its version; refuses a stale one (409) and a bad field (400); finalizes it', async () => {
    const { invoiceId } = await closedOrder();
    const read = await invoiceRoute(tok.admin, invoiceId);
    expect(read.status).toBe(200);
    const inv = read.body.invoice as Json;
    expect(inv).toMatchObject({ status: 'draft', canEdit: true, applyTypes: ['pdf', 'email'] });

    const saved = await invoiceRoute(tok.admin, invoiceId, {
      intent: 'save',
      version: inv.version,
      invoice: {
        marking: 'Hus C',
        paymentTermDays: '10',
        rows: [
          ...inv.articles.map((r: Json) => ({ ...r, discountType: 'PERCENTAGE', discountValue: '10' })),
          { articleTitle: 'Extra arbete', amount: '1', price: '100', vatPercent: '12', work: 'labour' },
        ],
      },
    });
    expect(saved).toMatchObject({ status: 200, body: { ok: true, intent: 'save', invoiceNr: null } });
    const after = (await invoiceRoute(tok.admin, invoiceId)).body.invoice as Json;
    expect(after).toMatchObject({ marking: 'Hus C', paymentTermDays: 10, version: inv.version + 1 });
    expect(after.articles.map((r: Json) => [r.articleTitle, r.totalPrice, r.vatPercent, r.work])).toEqual([
      ['Rörelsedetektor', '360.00', '25', 'material'],
      ['Extra arbete', '100.00', '12', 'labour'],
    ]);
    expect(after.figures).toMatchObject({ net: '460.00', total: '562.00' });

    const stale = await invoiceRoute(tok.admin, invoiceId, {
      intent: 'save',
      version: inv.version,
      invoice: { marking: 'x' },
    });
    expect(stale).toMatchObject({ status: 409, body: { intent: 'save', code: 'INVOICE_CHANGED' } });
    const bad = await invoiceRoute(tok.admin, invoiceId, {
      intent: 'save',
      version: after.version,
      invoice: { paymentTermDays: 'many', taxReductionPersons: [{ personId: '123' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toMatchObject({
      paymentTermDays: ['ERROR_INVALID_VALUE'],
      'taxReductionPersons.0.personId': ['ERROR_PERSON_ID_INVALID'],
    });

    // finalizing needs invoices:read and the right that closes the order
    const tech = await invoiceRoute(tok.tech, invoiceId, { intent: 'finalize' });
    expect(tech).toMatchObject({ status: 403, body: { code: 'WARNING_PERMISSION_DENIED' } });

    const fin = await invoiceRoute(tok.admin, invoiceId, { intent: 'finalize' });
    expect(fin).toMatchObject({
      status: 200,
      body: { ok: true, intent: 'finalize', invoiceNr: expect.stringMatching(/^\d+$/) },
    });
    const final = (await invoiceRoute(tok.admin, invoiceId)).body.invoice as Json;
    expect(final).toMatchObject({ status: 'finalized', canEdit: false, invoiceNr: fin.body.invoiceNr });
    const late = await invoiceRoute(tok.admin, invoiceId, {
      intent: 'save',
      version: final.version,
      invoice: { marking: 'late' },
    });
    expect(late).toMatchObject({ status: 409, body: { code: 'INVOICE_NOT_DRAFT' } });
    // the tenant's ERP takes no invoices: sending is refused with the reason
    const erp = await invoiceRoute(tok.admin, invoiceId, { intent: 'erp' });
    expect(erp).toMatchObject({ status: 409, body: { intent: 'erp', code: 'ERP_CANNOT_SEND_INVOICES' } });
    const unknown = await invoiceRoute(tok.admin, invoiceId, { intent: 'pay' });
    expect(unknown).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });

    const history = await runRoute(historyLoader as RouteFn, tok.admin, `/invoices/${invoiceId}/history`, {
      id: invoiceId,
    });
    expect(history.body.rows.map((h: Json) => h.action)).toEqual(['finalize', 'edit', 'create']);
    expect(history.body.rows[1].data).toMatchObject({ changed: expect.arrayContaining(['marking', 'rows']) });
    expect(history.body.rows[0].when).toEqual(expect.any(String));
  });

  it('another tenant’s invoice is not found (404)', async () => {
    const { invoiceId } = await closedOrder();
    const foreign = await runRoute(
      invoiceLoader as RouteFn,
      tok.adminB,
      `/invoices/${invoiceId}`,
      { id: invoiceId },
      undefined,
      (await getTenantBySlug(b.slug))!,
    );
    expect(foreign.status).toBe(404);
    const missing = await runRoute(invoiceLoader as RouteFn, tok.admin, '/invoices/not-an-id', { id: 'not-an-id' });
    expect(missing.status).toBe(404);
  });
});

describe('[invoicing] the documents route /invoices/:id/document', () => {
  it('refuses a format it does not make (400); an ERP file the ERP does not take goes back with the reason, the draft kept', async () => {
    const { invoiceId } = await closedOrder();
    const path = `/invoices/${invoiceId}/document`;
    const docx = await runRoute(documentLoader as RouteFn, tok.admin, `${path}?format=docx`, { id: invoiceId });
    expect(docx.status).toBe(400);
    const file = await runRoute(
      documentAction as RouteFn,
      tok.admin,
      path,
      { id: invoiceId },
      {
        form: { type: 'visma-xml' },
      },
    );
    expect(file.status).toBe(302);
    expect(file.headers?.get('location')).toBe(`/invoices/${invoiceId}?notice=ERP_CANNOT_MAKE_FILE`);
    // the finalizing rolled back with the refusal
    const inv = (await invoiceRoute(tok.admin, invoiceId)).body.invoice as Json;
    expect(inv).toMatchObject({ status: 'draft', invoiceNr: null });
  });
});

describe('[invoicing] the order screens show their invoice', () => {
  it('a closed work order links its invoice for those who read invoices', async () => {
    const { workOrderId, invoiceId } = await closedOrder();
    const admin = await runRoute(workOrderLoader as RouteFn, tok.admin, `/work-orders/${workOrderId}`, {
      id: workOrderId,
    });
    expect(admin.status).toBe(200);
    expect(admin.body.invoice).toMatchObject({ id: invoiceId, status: 'draft', invoiceNr: null, erp: 'none' });
    const closer = await runRoute(workOrderLoader as RouteFn, tok.closer, `/work-orders/${workOrderId}`, {
      id: workOrderId,
    });
    expect(closer.status).toBe(200);
    expect(closer.body.workOrder.id).toBe(workOrderId);
    expect(closer.body.invoice).toBeNull();
    // an open order has none
    const open = (
      await call('POST', '/api/wo', tok.admin, { workOrder: { title: 'Öppen', customerId: ref.customer } })
    ).json().workOrder as Json;
    const openLoaded = await runRoute(workOrderLoader as RouteFn, tok.admin, `/work-orders/${open.id}`, {
      id: open.id,
    });
    expect(openLoaded.body.invoice).toBeNull();
  });

  it('a closed sales order links its invoice', async () => {
    const made = await call('POST', '/api/salesorders', tok.admin, { customerId: ref.customer, title: 'Larmpaket' });
    expect(made.status, made.text).toBe(200);
    const so = made.json() as Json;
    const saved = await call('PUT', '/api/salesorders', tok.admin, {
      salesOrder: { id: so.id, version: so.version, rows: [{ articleId: ref.detector, articleAmount: '1' }] },
    });
    expect(saved.status, saved.text).toBe(200);
    const closed = await call('POST', `/api/salesorders/${so.id}/close`, tok.admin, { paid: false });
    expect(closed.status, closed.text).toBe(200);
    const loaded = await runRoute(salesOrderLoader as RouteFn, tok.admin, `/sales/${so.id}`, { id: so.id });
    expect(loaded.status).toBe(200);
    expect(loaded.body.invoice).toMatchObject({ status: 'draft', erp: 'none' });
    const inv = await invoiceRoute(tok.admin, loaded.body.invoice.id);
    expect(inv.body.invoice.source).toMatchObject({ type: 'salesOrder', id: so.id });
  });
});
