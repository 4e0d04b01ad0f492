import { RouterContextProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { isValidOcr } from '~/core/invoicing/ocr';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import { action as closeRouteAction, loader as closeRouteLoader } from '~/app/routes/work-orders.$id.close';
import { validateSession } from '~/core/auth/session.service';
import { sessionPolicy } from '~/core/unit-of-work';
import { withTenant } from '~/core/db/with-tenant';
import { SmtpMailer, setMailer } from '~/core/mail/mailer';
import { mailSettled } from '~/core/mail/templates/deliver';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { startSmtpPeer, type SmtpPeer } from '~/tests/helpers/smtp';

/*
 * Closing a work order and what follows (issue 5 items 7, 8 and 11), through the HTTP API: the
 * close with its draft invoice, reopen, copy as revisit, the order-finish broadcast and ATA.
 */

let srv: TestServer;
let smtp: SmtpPeer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'office' | 'tech' | 'closer' | 'ata' | 'adminB', string>;
const ref = {} as Record<
  | 'office'
  | 'tech'
  | 'cNoNumber'
  | 'cOk'
  | 'cReverse'
  | 'cNoErp'
  | 'article'
  | 'statusNew'
  | 'statusDone'
  | 'statusBilled',
  string
>;
let foreignOrder: string;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  smtp = await startSmtpPeer();
  setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
  a = await createTestTenant('close-a');
  b = await createTestTenant('close-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert([
      {
        display_name: 'Closers',
        permissions: ['workorders:read', 'workorders:close'],
        work_order_limit: 'none',
      },
      {
        display_name: 'ATA makers',
        permissions: ['workorders:read', 'workorders:create_project_extra_work'],
        work_order_limit: 'none',
      },
    ]);
    // a normal user with the Office level: app modules gate them (the admin is super and is not gated)
    ref.office = (
      await ensureUser(trx, {
        email: `office@${a.slug}.se`,
        name: 'Olga Kontor',
        password: PASSWORD,
        accessLevels: ['Office'],
      })
    ).id;
    await ensureUser(trx, {
      email: `closer@${a.slug}.se`,
      name: 'Stig Stängare',
      password: PASSWORD,
      accessLevels: ['Closers'],
    });
    await ensureUser(trx, {
      email: `ata@${a.slug}.se`,
      name: 'Åsa Projekt',
      password: PASSWORD,
      accessLevels: ['ATA makers'],
    });
    ref.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    const [noNumber, ok, reverse, noErp] = await trx('customers')
      .insert([
        { customer_id: null, name: 'Potentiell Kund AB', potential: true },
        {
          customer_id: '20001',
          name: 'Brf Tallen',
          payment_term_days: 10,
          broadcast_email: 'larm@tallen.se',
          invoice_language: 'en',
        },
        { customer_id: '20002', name: 'Omvänd Moms AB', reverse_vat: true },
        { customer_id: '20003', name: 'Ingen Erp AB', send_to_erp: false },
      ])
      .returning('id');
    Object.assign(ref, { cNoNumber: noNumber.id, cOk: ok.id, cReverse: reverse.id, cNoErp: noErp.id });
    const [art] = await trx('articles')
      .insert({ article_id: 'DET-1', title: 'Rörelsedetektor', price: '50.00', unit: 'st' })
      .returning('id');
    ref.article = art.id;
    const [billed] = await trx('work_order_statuses')
      .insert({ name: 'Fakturerad', is_closing: true, sort_order: 4 })
      .returning('id');
    ref.statusBilled = billed.id;
    const statuses = await trx('work_order_statuses').select('id', 'name');
    ref.statusNew = statuses.find((s) => s.name === 'Ny').id;
    ref.statusDone = statuses.find((s) => s.name === 'Klar').id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.office = await signIn(a, `office@${a.slug}.se`);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.closer = await signIn(a, `closer@${a.slug}.se`);
  tok.ata = await signIn(a, `ata@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
  const res = await call('POST', '/api/wo', tok.adminB, { workOrder: { title: 'Annans order' } }, b.host);
  foreignOrder = res.json().workOrder.id;
});
afterEach(async () => {
  await mailSettled();
  smtp.mails.length = 0;
});
afterAll(async () => {
  setMailer(undefined);
  await smtp?.close();
  await srv?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const create = async (workOrder: Record<string, unknown>, token = tok.office) => {
  const res = await call('POST', '/api/wo', token, { workOrder: { title: 'Larmet tjuter', ...workOrder } });
  expect(res.status, res.text).toBe(200);
  return res.json().workOrder as Json & { id: string; number: string };
};
const addArticle = (workOrderId: string, amount: string, price: string, extra: Record<string, unknown> = {}) =>
  withTenant(tenantA, (trx) =>
    trx('work_order_articles').insert({
      work_order_id: workOrderId,
      article_id: ref.article,
      title: 'Rörelsedetektor',
      amount,
      price,
      total: '0',
      ...extra,
    }),
  );
/** An order with an article on it: something to invoice, so closing it makes an invoice (issue 28 item 6). */
const billable = async (workOrder: Record<string, unknown>) => {
  const wo = await create(workOrder);
  await addArticle(wo.id, '1', '100.00');
  return wo;
};
const close = (workOrderId: string, body: Record<string, unknown> = {}, token = tok.office) =>
  call('POST', '/api/wo/close', token, { workOrderId, ...body });
const closeOk = async (workOrderId: string, body: Record<string, unknown> = {}, token = tok.office) => {
  const res = await close(workOrderId, body, token);
  expect(res.status, res.text).toBe(200);
  return res.json() as Json;
};
const invoicesOf = (workOrderId: string) =>
  withTenant(tenantA, (trx) =>
    trx('invoices').where({ work_order_id: workOrderId }).orderBy('create_ts').select('*'),
  ) as Promise<Json[]>;
const rowsOf = (invoiceId: string) =>
  withTenant(tenantA, (trx) =>
    trx('invoice_rows').where({ invoice_id: invoiceId }).orderBy('sort_order').select('*'),
  ) as Promise<Json[]>;
const history = async (id: string) => {
  const res = await call('GET', `/api/wo/history/${id}`, tok.admin);
  expect(res.status, res.text).toBe(200);
  return res.json().rows as Json[];
};
const listIds = async (list: string) => {
  const res = await call('GET', `/api/wo?list=${list}&size=200`, tok.office);
  expect(res.status, res.text).toBe(200);
  return (res.json().workOrders as { id: string }[]).map((w) => w.id);
};
const setModule = (id: string, enabled: boolean) =>
  withTenant(tenantA, (trx) => trx('app_modules').where({ id }).update({ enabled }));
const dateOf = (v: unknown) =>
  v instanceof Date
    ? `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}`
    : String(v);

describe('[work orders] close', () => {
  it('is refused while the customer has no customer number, or the order has no customer (409)', async () => {
    for (const customerId of [ref.cNoNumber, undefined]) {
      const wo = await create(customerId ? { customerId } : {});
      const res = await close(wo.id, { invoiceFee: '40' });
      expect(res.status).toBe(409);
      expect(res.json().code).toBe('CANNOT_CLOSE_WORK_ORDER_CUSTOMER_NUMBER_MISSING');
      const after = await call('GET', `/api/wo/${wo.id}`, tok.office);
      expect(after.json().workOrder.isClosed).toBe(false);
      expect(await invoicesOf(wo.id)).toEqual([]);
    }
  });

  it('closes into the closed list with a final invoice: article rows, the fee row, VAT 25 %, its number and OCR', async () => {
    const wo = await create({ customerId: ref.cOk, invoiceMarking: 'Ref 77' });
    await addArticle(wo.id, '2', '50.00');
    await addArticle(wo.id, '1', '20.00', { discount_type: 'PERCENTAGE', discount_value: '50' });
    const body = await closeOk(wo.id, {
      invoiceDate: '2026-03-02',
      deliveryDate: '2026-02-27',
      invoiceFee: '40',
      ignoreReverseVAT: false,
    });
    expect(body.workOrder).toMatchObject({ id: wo.id, isClosed: true, statusId: ref.statusDone, statusName: 'Klar' });
    expect(body.workOrder.closedAt).toEqual(expect.any(String));
    expect(body.invoice).toEqual({
      id: expect.any(String),
      status: 'finalized',
      invoiceNr: expect.stringMatching(/^\d+$/),
      totalPrice: '150.00',
      totalPriceVat: '188.00', // 187.50 rounded to whole kronor
      vatPercentage: '25.00',
      reverseVat: false,
      erpQueued: false, // the tenant has no ERP
    });
    expect(body.warnings).toEqual([]);

    expect(await listIds('closed')).toContain(wo.id);
    expect(await listIds('open')).not.toContain(wo.id);

    const [invoice] = await invoicesOf(wo.id);
    expect(invoice).toMatchObject({
      id: body.invoice.id,
      status: 'finalized',
      invoice_nr: body.invoice.invoiceNr,
      customer_id: ref.cOk,
      marking: 'Ref 77',
      invoice_fee: '40.00',
      vat_percentage: '25.00',
      reverse_vat: false,
      total_price: '150.00',
      vat_total: '37.50',
      rounding: '0.50',
      total_price_vat: '188.00',
      to_pay: '188.00',
      erp_reference_id: null,
    });
    expect(isValidOcr(invoice!.ocr)).toBe(true);
    expect(invoice!.ocr.startsWith(body.invoice.invoiceNr)).toBe(true);
    expect(dateOf(invoice!.invoice_date)).toBe('2026-03-02');
    expect(dateOf(invoice!.delivery_date)).toBe('2026-02-27');
    expect(dateOf(invoice!.payment_due_date)).toBe('2026-03-12'); // the customer's 10 days
    expect(invoice!.data).toMatchObject({
      customer: { customerId: '20001', displayName: 'Brf Tallen', configuration: { invoice: { reverseVat: false } } },
      workOrder: { id: wo.id, number: wo.number, invoiceMarking: 'Ref 77' },
      instance: { companyName: 'close-a AB' },
    });
    const rows = await rowsOf(invoice!.id);
    expect(rows.map((r) => [r.kind, r.article_id, r.amount, r.price, r.total])).toEqual([
      ['article', ref.article, '2.000', '50.00', '100.00'],
      ['article', ref.article, '1.000', '20.00', '10.00'],
      ['fee', null, '1.000', '40.00', '40.00'],
    ]);
    expect(rows[2]!.title).toBe('Invoice fee'); // the customer's invoice language

    const [last] = await history(wo.id);
    expect(last).toMatchObject({
      action: 'close',
      data: {
        status: { old: 'Ny', new: 'Klar' },
        invoiceId: invoice!.id,
        invoiceDate: '2026-03-02',
        deliveryDate: '2026-02-27',
        invoiceFee: '40.00',
        vatPercentage: '25.00',
      },
    });
  });

  it('sets no fee row when the article total is 0 or the fee was sent empty; closes with a chosen closing status', async () => {
    const toggledOff = await create({ customerId: ref.cOk });
    await addArticle(toggledOff.id, '1', '80.00');
    const body = await closeOk(toggledOff.id, { invoiceFee: '', statusId: ref.statusBilled });
    expect(body.workOrder.statusName).toBe('Fakturerad');
    expect(body.invoice).toMatchObject({ totalPrice: '80.00', totalPriceVat: '100.00' });
    expect((await rowsOf(body.invoice.id)).map((r) => r.kind)).toEqual(['article']);
    expect((await invoicesOf(toggledOff.id))[0]!.invoice_fee).toBeNull();
  });

  it('an order with nothing billable is never invoiced for the fee alone: 409 until closed without an invoice (issue 28 item 6)', async () => {
    const empty = await create({ customerId: ref.cOk });
    const refused = await close(empty.id, { invoiceFee: '40' });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json().code).toBe('WORK_ORDER_NOTHING_TO_INVOICE');
    expect(await listIds('open')).toContain(empty.id);
    expect(await invoicesOf(empty.id)).toEqual([]);

    const body = await closeOk(empty.id, { invoiceFee: '40', withoutInvoice: true });
    expect(body.invoice).toBeNull();
    expect(body.warnings).toEqual(['WORK_ORDER_CLOSED_WITHOUT_INVOICE']);
    expect(body.workOrder.closedAt).toBeTruthy();
    expect(await invoicesOf(empty.id)).toEqual([]);
    expect((await history(empty.id)).map((h) => h.action)).toContain('close');

    // an order that bills something closes into its invoice as before, whatever the answer says
    const billed = await create({ customerId: ref.cOk });
    await addArticle(billed.id, '1', '80.00');
    const invoiced = await closeOk(billed.id, { invoiceFee: '40', withoutInvoice: true });
    expect(invoiced.invoice).toMatchObject({ totalPrice: '120.00' });
  });

  it('sets no fee when the tenant has the invoice fee off', async () => {
    await withTenant(tenantA, (trx) => trx('work_order_settings').update({ invoice_fee_enabled: false }));
    try {
      const wo = await create({ customerId: ref.cOk });
      await addArticle(wo.id, '1', '80.00');
      const body = await closeOk(wo.id, { invoiceFee: '40' });
      expect(body.invoice.totalPrice).toBe('80.00');
      expect((await rowsOf(body.invoice.id)).map((r) => r.kind)).toEqual(['article']);
    } finally {
      await withTenant(tenantA, (trx) => trx('work_order_settings').update({ invoice_fee_enabled: true }));
    }
  });

  it('without the invoice details module: no invoice in the answer, the draft with today and no fee', async () => {
    await setModule('workorder_invoice_details', false);
    try {
      const wo = await create({ customerId: ref.cOk });
      await addArticle(wo.id, '1', '80.00');
      const body = await closeOk(wo.id, { invoiceFee: '40', invoiceDate: '2020-01-01' });
      expect(body.invoice).toBeNull();
      const [invoice] = await invoicesOf(wo.id);
      expect(invoice!.total_price).toBe('80.00');
      expect(invoice!.invoice_fee).toBeNull();
      expect(dateOf(invoice!.invoice_date)).not.toBe('2020-01-01');
    } finally {
      await setModule('workorder_invoice_details', true);
    }
  });

  it('reverse VAT customer: VAT 0 unless ignoreReverseVAT', async () => {
    const one = await create({ customerId: ref.cReverse });
    await addArticle(one.id, '1', '100.00');
    expect((await closeOk(one.id, { invoiceFee: '0' })).invoice).toMatchObject({
      vatPercentage: '0.00',
      reverseVat: true,
      totalPrice: '100.00',
      totalPriceVat: '100.00',
    });
    const two = await create({ customerId: ref.cReverse });
    await addArticle(two.id, '1', '100.00');
    expect((await closeOk(two.id, { invoiceFee: '0', ignoreReverseVAT: true })).invoice).toMatchObject({
      vatPercentage: '25.00',
      reverseVat: false,
      totalPriceVat: '125.00',
    });
  });

  it('warns when the customer is set not to send invoices to the ERP', async () => {
    const wo = await billable({ customerId: ref.cNoErp });
    const body = await closeOk(wo.id);
    expect(body.warnings).toEqual(['CUSTOMER_SET_NOT_TO_SEND_TO_ERP']);
  });

  it('refuses a negative fee and a status that is not a closing one (400); the order stays open', async () => {
    const wo = await create({ customerId: ref.cOk });
    await addArticle(wo.id, '1', '100.00');
    const negative = await close(wo.id, { invoiceFee: '-5' });
    expect(negative.status).toBe(400);
    expect(negative.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { invoiceFee: ['ERROR_NEGATIVE_AMOUNT'] },
    });
    const status = await close(wo.id, { statusId: ref.statusNew });
    expect(status.status).toBe(400);
    expect(status.json().fields).toEqual({ statusId: ['ERROR_INVALID_VALUE'] });
    const date = await close(wo.id, { invoiceDate: '2026-02-30' });
    expect(date.json().fields).toEqual({ invoiceDate: ['ERROR_INVALID_VALUE'] });
    expect((await call('GET', `/api/wo/${wo.id}`, tok.office)).json().workOrder.isClosed).toBe(false);
    expect(await invoicesOf(wo.id)).toEqual([]);
  });

  it('needs workorders:close (403); a locked or closed order is refused (409)', async () => {
    const wo = await billable({ customerId: ref.cOk, assignees: [ref.tech] });
    // the ATA makers' level reads work orders but may not close them
    const denied = await close(wo.id, {}, tok.ata);
    expect(denied.status).toBe(403);
    expect(denied.json().code).toBe('WARNING_PERMISSION_DENIED');

    expect((await call('POST', '/api/wo/lock', tok.office, { workOrderId: wo.id })).status).toBe(200);
    const locked = await close(wo.id);
    expect(locked.status).toBe(409);
    expect(locked.json().code).toBe('WORK_ORDER_LOCKED');
    expect((await call('POST', '/api/wo/unlock', tok.office, { workOrderId: wo.id })).status).toBe(200);

    await closeOk(wo.id, {}, tok.closer);
    const again = await close(wo.id);
    expect(again.status).toBe(409);
    expect(again.json().code).toBe('WORK_ORDER_CLOSED');
  });

  it('two closes at the same time: one closes, the other is refused (409), one invoice', async () => {
    const wo = await billable({ customerId: ref.cOk });
    const answers = await Promise.all([close(wo.id), close(wo.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.status === 409)!.json().code).toBe('WORK_ORDER_CLOSED');
    expect(await invoicesOf(wo.id)).toHaveLength(1);
  });

  it("answers 404 for another tenant's order on every call", async () => {
    const calls: [string, string, unknown][] = [
      ['POST', '/api/wo/close', { workOrderId: foreignOrder }],
      ['POST', '/api/wo/reopen', { workOrderId: foreignOrder }],
      ['POST', '/api/wo/copy', { workOrderId: foreignOrder, options: {} }],
      ['POST', '/api/wo/broadcast', { workOrder: { id: foreignOrder }, event: 'finished', status: 'send' }],
      ['POST', '/api/wo/projectextra', { workOrderId: foreignOrder, status: 'pending' }],
      ['GET', `/api/wo/${foreignOrder}/close`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await call(method, path, tok.admin, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
  });
});

describe('[work orders] close dialog defaults', () => {
  it('says what the dialog proposes and allows', async () => {
    const wo = await create({ customerId: ref.cNoErp });
    await addArticle(wo.id, '3', '10.00');
    const res = await call('GET', `/api/wo/${wo.id}/close`, tok.office);
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({
      canClose: true,
      canReopen: false,
      canCopy: true,
      isClosed: false,
      customerNumberMissing: false,
      sendToErp: false,
      reverseVat: false,
      invoiceDetails: true,
      feeEnabled: true,
      defaultFee: '40.00',
      articleTotal: '30.00',
      invoiceDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      broadcastAvailable: false,
      broadcastEmail: null,
      closingStatuses: [
        { id: ref.statusDone, name: 'Klar' },
        { id: ref.statusBilled, name: 'Fakturerad' },
      ],
      projectExtra: { inProject: false, status: null, canCreate: true, canAccept: true },
    });
    const noNumber = await create({ customerId: ref.cNoNumber });
    expect((await call('GET', `/api/wo/${noNumber.id}/close`, tok.office)).json().customerNumberMissing).toBe(true);
    const tallen = await create({ customerId: ref.cOk });
    const asCloser = (await call('GET', `/api/wo/${tallen.id}/close`, tok.closer)).json();
    expect(asCloser).toMatchObject({
      canClose: true,
      canReopen: false,
      canCopy: false,
      broadcastAvailable: true,
      broadcastEmail: 'larm@tallen.se',
    });
  });
});

describe('[work orders] reopen', () => {
  it('deletes the draft invoice (the tenant reviews invoices) and opens the order again with the default status', async () => {
    await withTenant(tenantA, (trx) => trx('invoice_settings').update({ review_before_sending: true }));
    onTestFinished(() =>
      withTenant(tenantA, (trx) => trx('invoice_settings').update({ review_before_sending: false })),
    );
    const wo = await create({ customerId: ref.cOk });
    await addArticle(wo.id, '1', '100.00');
    const closed = await closeOk(wo.id, { invoiceFee: '40' });
    const res = await call('POST', '/api/wo/reopen', tok.office, { workOrderId: wo.id });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({
      workOrder: { id: wo.id, isClosed: false, closedAt: null, statusId: ref.statusNew },
      invoices: { deleted: 1, kept: 0, voided: 0 },
    });
    expect(await invoicesOf(wo.id)).toEqual([]);
    expect(await rowsOf(closed.invoice.id)).toEqual([]);
    expect(await listIds('open')).toContain(wo.id);
    expect(await listIds('closed')).not.toContain(wo.id);
    const [last] = await history(wo.id);
    expect(last).toMatchObject({
      action: 'edit',
      data: {
        reopened: true,
        changes: [
          { field: 'status', old: 'Klar', new: 'Ny' },
          { field: 'isClosed', old: true, new: false },
        ],
      },
    });
    // closing again makes a new draft
    const again = await closeOk(wo.id, { invoiceFee: '40' });
    expect(again.invoice.id).not.toBe(closed.invoice.id);
  });

  it('keeps an invoice already in the ERP, unlinked, and a later close makes a new draft', async () => {
    const wo = await billable({ customerId: ref.cOk });
    const first = await closeOk(wo.id);
    await withTenant(tenantA, (trx) =>
      trx('invoices').where({ id: first.invoice.id }).update({ erp_reference_id: 'FX-1001', status: 'finalized' }),
    );
    const res = await call('POST', '/api/wo/reopen', tok.office, { workOrderId: wo.id });
    expect(res.json().invoices).toEqual({ deleted: 0, kept: 1, voided: 0 });
    const [kept] = await invoicesOf(wo.id);
    expect(kept).toMatchObject({ id: first.invoice.id, erp_reference_id: 'FX-1001' });
    expect(kept!.unlinked_at).not.toBeNull();
    const second = await closeOk(wo.id);
    expect((await invoicesOf(wo.id)).map((i) => i.id)).toEqual([first.invoice.id, second.invoice.id]);
  });

  it('voids a final invoice that never left (its number stays taken, no gap) and a later close makes the next number', async () => {
    const wo = await create({ customerId: ref.cOk });
    await addArticle(wo.id, '1', '100.00');
    const first = await closeOk(wo.id);
    const res = await call('POST', '/api/wo/reopen', tok.office, { workOrderId: wo.id });
    expect(res.json().invoices).toEqual({ deleted: 0, kept: 0, voided: 1 });
    const [voided] = await invoicesOf(wo.id);
    expect(voided).toMatchObject({ id: first.invoice.id, status: 'void', invoice_nr: first.invoice.invoiceNr });
    const second = await closeOk(wo.id);
    expect(Number(second.invoice.invoiceNr)).toBe(Number(first.invoice.invoiceNr) + 1);
  });

  it('refuses an open order (409 WORK_ORDER_NOT_CLOSED), a locked one (409) and a user without workorders:reopen (403)', async () => {
    const wo = await billable({ customerId: ref.cOk });
    const open = await call('POST', '/api/wo/reopen', tok.office, { workOrderId: wo.id });
    expect(open.status).toBe(409);
    expect(open.json().code).toBe('WORK_ORDER_NOT_CLOSED');
    await closeOk(wo.id);
    const denied = await call('POST', '/api/wo/reopen', tok.closer, { workOrderId: wo.id });
    expect(denied.status).toBe(403);
    expect((await call('POST', '/api/wo/lock', tok.office, { workOrderId: wo.id })).status).toBe(200);
    const locked = await call('POST', '/api/wo/reopen', tok.office, { workOrderId: wo.id });
    expect(locked.status).toBe(409);
    expect(locked.json().code).toBe('WORK_ORDER_LOCKED');
  });
});

describe('[work orders] copy (revisit)', () => {
  it('copies everything the options say into a new open order', async () => {
    const source = await create({
      customerId: ref.cOk,
      description: 'Byt batteri',
      summary: 'Batteri bytt',
      contactName: 'Kalle',
      street: 'Tallvägen 1',
      city: 'Västerås',
      assignees: [ref.tech, ref.office],
    });
    await addArticle(source.id, '2', '50.00');
    await closeOk(source.id);
    const res = await call('POST', '/api/wo/copy', tok.office, {
      workOrderId: source.id,
      options: { scheduleReports: true, description: true, summary: true, articles: true, files: true },
    });
    expect(res.status, res.text).toBe(200);
    const { workOrder, message } = res.json();
    expect(message).toBe('WORK_ORDER_REVISIT_SUCCESSFULLY_CREATED');
    expect(workOrder).toMatchObject({
      title: source.title,
      customerId: ref.cOk,
      description: 'Byt batteri',
      summary: 'Batteri bytt',
      contactName: 'Kalle',
      street: 'Tallvägen 1',
      city: 'Västerås',
      workTypeId: source.workTypeId,
      statusId: ref.statusNew,
      isClosed: false,
    });
    expect(workOrder.id).not.toBe(source.id);
    expect(workOrder.number).not.toBe(source.number);
    expect(workOrder.assignees.map((u: { id: string }) => u.id).sort()).toEqual([ref.tech, ref.office].sort());
    const rows = await withTenant(tenantA, (trx) =>
      trx('work_order_articles').where({ work_order_id: workOrder.id }).select('article_id', 'amount', 'price'),
    );
    expect(rows).toEqual([{ article_id: ref.article, amount: '2.000', price: '50.00' }]);
    const [created] = await history(workOrder.id);
    expect(created).toMatchObject({
      action: 'create',
      data: { copiedFrom: { id: source.id, number: source.number }, articles: 1 },
    });
  });

  it('without options: no description, summary or articles, the copier assigned', async () => {
    const source = await create({ customerId: ref.cOk, description: 'Text', summary: 'Sum', assignees: [ref.tech] });
    await addArticle(source.id, '1', '50.00');
    const res = await call('POST', '/api/wo/copy', tok.office, { workOrderId: source.id, options: {} });
    expect(res.status, res.text).toBe(200);
    const { workOrder } = res.json();
    expect(workOrder).toMatchObject({ description: null, summary: null, customerId: ref.cOk });
    expect(workOrder.assignees.map((u: { id: string }) => u.id)).toEqual([ref.office]);
    const rows = await withTenant(tenantA, (trx) => trx('work_order_articles').where({ work_order_id: workOrder.id }));
    expect(rows).toEqual([]);
  });

  it('needs the copy module and workorders:copy (403)', async () => {
    const source = await create({ customerId: ref.cOk });
    expect((await call('POST', '/api/wo/copy', tok.closer, { workOrderId: source.id })).status).toBe(403);
    await setModule('copy', false);
    try {
      expect((await call('POST', '/api/wo/copy', tok.office, { workOrderId: source.id })).status).toBe(403);
    } finally {
      await setModule('copy', true);
    }
  });
});

describe('[work orders] order-finish broadcast', () => {
  it('send mails the confirmation to the customer’s broadcast address in its language', async () => {
    const wo = await billable({ customerId: ref.cOk, street: 'Tallvägen 1', city: 'Västerås', summary: 'Allt klart' });
    await closeOk(wo.id);
    const res = await call('POST', '/api/wo/broadcast', tok.office, {
      workOrder: { id: wo.id },
      event: 'finished',
      status: 'send',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toEqual({ message: 'EMAIL_SENT_TO', recipient: 'larm@tallen.se' });
    const mail = await smtp.waitForMail((m) => m.to.includes('larm@tallen.se'));
    expect(mail.subject).toBe(`Work order ${wo.number} is finished: Larmet tjuter`);
    expect(mail.text).toContain('close-a AB has finished work order');
    expect(mail.text).toContain('Tallvägen 1, Västerås');
    expect(mail.text).toContain('Summary: Allt klart');
    const [last] = await history(wo.id);
    expect(last).toMatchObject({ action: 'broadcast', data: { event: 'finished', recipients: ['larm@tallen.se'] } });
  });

  it('falls back to the order contact e-mail; ignore sends nothing and records nothing', async () => {
    const wo = await billable({ customerId: ref.cNoErp, contactEmail: 'kontakt@ingenerp.se' });
    await closeOk(wo.id);
    const ignore = await call('POST', '/api/wo/broadcast', tok.office, {
      workOrder: { id: wo.id },
      event: 'finished',
      status: 'ignore',
    });
    expect(ignore.status, ignore.text).toBe(200);
    expect(ignore.json()).toEqual({});
    await mailSettled();
    expect(smtp.mails).toEqual([]);
    expect((await history(wo.id)).map((h) => h.action)).not.toContain('broadcast');
    const send = await call('POST', '/api/wo/broadcast', tok.office, {
      workOrder: { id: wo.id },
      event: 'finished',
      status: 'send',
    });
    expect(send.json().recipient).toBe('kontakt@ingenerp.se');
    const mail = await smtp.waitForMail((m) => m.to.includes('kontakt@ingenerp.se'));
    expect(mail.subject).toContain(wo.number); // the tenant's language (sv)
    expect(mail.subject).toContain('är klar');
  });

  it('refuses an open order (409), an order nobody can be mailed about (409), and without the module (403)', async () => {
    const open = await create({ customerId: ref.cOk });
    const send = { workOrder: { id: open.id }, event: 'finished', status: 'send' };
    const notClosed = await call('POST', '/api/wo/broadcast', tok.office, send);
    expect(notClosed.status).toBe(409);
    expect(notClosed.json().code).toBe('WORK_ORDER_NOT_CLOSED');
    const nobody = await billable({ customerId: ref.cReverse });
    await closeOk(nobody.id);
    const missing = await call('POST', '/api/wo/broadcast', tok.office, { ...send, workOrder: { id: nobody.id } });
    expect(missing.status).toBe(409);
    expect(missing.json().code).toBe('BROADCAST_RECIPIENT_MISSING');
    await setModule('broadcast', false);
    try {
      expect((await call('POST', '/api/wo/broadcast', tok.office, send)).status).toBe(403);
    } finally {
      await setModule('broadcast', true);
    }
    await mailSettled();
    expect(smtp.mails).toEqual([]);
  });
});

describe('[work orders] ATA (project extra work)', () => {
  it('marks a project order pending, then accepted or declined, each with its permission', async () => {
    const wo = await create({ customerId: ref.cOk });
    const post = (status: string, token: string) =>
      call('POST', '/api/wo/projectextra', token, { workOrderId: wo.id, status });

    const noProject = await post('pending', tok.ata);
    expect(noProject.status).toBe(409);
    expect(noProject.json().code).toBe('WORK_ORDER_NOT_IN_PROJECT');
    await withTenant(tenantA, async (trx) => {
      const [project] = await trx('projects').insert({ number: 7001, title: 'Nytt larm' }).returning('id');
      await trx('work_orders').where({ id: wo.id }).update({ project_id: project.id });
    });
    const early = await post('accepted', tok.admin);
    expect(early.status).toBe(409);
    expect(early.json().code).toBe('WORK_ORDER_NOT_EXTRA_WORK');

    expect((await post('pending', tok.tech)).status).toBe(403);
    const pending = await post('pending', tok.ata);
    expect(pending.status, pending.text).toBe(200);
    expect(pending.json().projectExtraStatus).toBe('pending');
    expect(await listIds('ata')).toContain(wo.id);

    expect((await post('accepted', tok.ata)).status).toBe(403);
    const accepted = await post('accepted', tok.office);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json().projectExtraStatus).toBe('accepted');
    const [last] = await history(wo.id);
    expect(last).toMatchObject({
      action: 'edit',
      data: { changes: [{ field: 'projectExtraStatus', old: 'pending', new: 'accepted' }] },
    });
    expect((await post('declined', tok.office)).json().projectExtraStatus).toBe('declined');
    const bad = await post('maybe', tok.office);
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({ status: ['ERROR_INVALID_VALUE'] });
  });
});

describe('[work orders] close of a project order', () => {
  it('makes no invoice of its own: the project invoices it, and the answer says so', async () => {
    const wo = await create({ customerId: ref.cOk });
    await addArticle(wo.id, '2', '50.00', { total: '100.00' });
    await withTenant(tenantA, async (trx) => {
      const [project] = await trx('projects').insert({ number: 7002, title: 'Passersystem' }).returning('id');
      await trx('work_orders').where({ id: wo.id }).update({ project_id: project.id });
    });
    const closed = await closeOk(wo.id, { invoiceFee: '40' });
    expect(closed.invoice).toBeNull();
    expect(closed.warnings).toEqual(['WORK_ORDER_INVOICED_WITH_PROJECT']);
    expect(closed.workOrder.isClosed).toBe(true);
    expect(await invoicesOf(wo.id)).toEqual([]);
  });
});

describe('[work orders] the order screen route /work-orders/:id/close', () => {
  /** Runs the route's loader or action as React Router would, after the i18n middleware. */
  async function runRoute(token: string, id: string, form?: Record<string, string | string[]>) {
    const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
    const context = new RouterContextProvider();
    context.set(tenantContext, tenantA);
    context.set(authContext, auth);
    context.set(requestContext, { ip: null, requestId: 'test', token });
    const url = `http://${a.host}/work-orders/${id}/close`;
    let body: FormData | undefined;
    if (form) {
      body = new FormData();
      for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    }
    const request = new Request(url, form ? { method: 'POST', body } : undefined);
    let answer: unknown;
    await i18nextMiddleware({ request, context, params: { id }, url: new URL(url), pattern: '' } as never, async () => {
      const args = { request, context, params: { id } } as never;
      answer = form ? await closeRouteAction(args) : await closeRouteLoader(args);
      return new Response(null);
    });
    const r = answer as { data?: Json; init?: { status?: number } } & Json;
    return 'data' in r && r.data ? { status: r.init?.status ?? 200, body: r.data } : { status: 200, body: r };
  }

  it('loads the dialog data and closes, reopens and copies through intents', async () => {
    const wo = await create({ customerId: ref.cOk, description: 'Kopieras' });
    await addArticle(wo.id, '1', '100.00');
    const loaded = await runRoute(tok.office, wo.id);
    expect(loaded.body).toMatchObject({ canClose: true, articleTotal: '100.00', defaultFee: '40.00' });

    const closed = await runRoute(tok.office, wo.id, {
      intent: 'close',
      statusId: ref.statusBilled,
      invoiceDate: '2026-05-04',
      deliveryDate: '2026-05-04',
      feeOn: 'true',
      invoiceFee: '40',
    });
    expect(closed).toMatchObject({
      status: 200,
      body: { ok: true, intent: 'close', invoice: { totalPrice: '140.00', totalPriceVat: '175.00' }, warnings: [] },
    });
    const again = await runRoute(tok.office, wo.id, { intent: 'close' });
    expect(again).toMatchObject({ status: 409, body: { intent: 'close', code: 'WORK_ORDER_CLOSED' } });

    const reopened = await runRoute(tok.office, wo.id, { intent: 'reopen' });
    expect(reopened.body).toMatchObject({ ok: true, intent: 'reopen' });
    // the fee toggle off sends the fee empty
    const noFee = await runRoute(tok.office, wo.id, { intent: 'close', invoiceFee: '40' });
    expect(noFee.body.invoice).toMatchObject({ totalPrice: '100.00' });

    const copied = await runRoute(tok.office, wo.id, { intent: 'copy', options: ['description', 'articles'] });
    expect(copied.body).toMatchObject({ ok: true, message: 'WORK_ORDER_REVISIT_SUCCESSFULLY_CREATED' });
    const copy = await call('GET', `/api/wo/${copied.body.workOrderId}`, tok.office);
    expect(copy.json().workOrder).toMatchObject({ description: 'Kopieras', summary: null, isClosed: false });

    const broadcast = await runRoute(tok.office, wo.id, { intent: 'broadcast', status: 'send' });
    expect(broadcast.body).toMatchObject({ ok: true, recipient: 'larm@tallen.se' });
    await smtp.waitForMail((m) => m.to.includes('larm@tallen.se'));

    const denied = await runRoute(tok.closer, wo.id, { intent: 'reopen' });
    expect(denied).toMatchObject({ status: 403, body: { code: 'WARNING_PERMISSION_DENIED' } });
  });
});

describe('[close] input declared at the boundary (issue 29)', () => {
  it('refuses a malformed body with 400 and the field, and /api/openapi.json shows the shapes', async () => {
    const wo = await create({ title: 'Gränsen' });
    const badDate = await close(wo.id, { invoiceDate: '2026-02-30' });
    expect(badDate.status).toBe(400);
    expect(badDate.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { invoiceDate: ['ERROR_INVALID_VALUE'] },
    });
    const badStatus = await call('POST', '/api/wo/projectextra', tok.admin, { workOrderId: wo.id, status: 'maybe' });
    expect(badStatus.status).toBe(400);
    expect(Object.keys(badStatus.json().fields)).toEqual(['status']);

    const doc = (await call('GET', '/api/openapi.json')).json();
    const extra = doc.paths['/wo/projectextra'].post.requestBody.content['application/json'].schema;
    expect(extra.properties.status.enum).toEqual(['pending', 'accepted', 'declined']);
    const copy = doc.paths['/wo/copy'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(copy.properties.options.properties)).toEqual([
      'scheduleReports',
      'description',
      'summary',
      'articles',
      'files',
    ]);
    expect(doc.paths['/wo/close'].post.requestBody.content['application/json'].schema.required).toContain(
      'workOrderId',
    );
  });
});
