import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDue } from '~/core/agreements/agreement-runs';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { insertAgreementType } from '~/tests/helpers/agreements';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * The agreement on an installed object through the API (issue 16 item 2; the object page's
 * Agreement tab calls the same services): putting one on with the spec's defaults, the validation
 * the form shows at its fields, the version check, the work-order and invoice rows, another
 * tenant's object, who may read and who may change it, the year of invoices, and taking it off.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenant: Tenant;
let admin: string;
let tech: string;
let adminB: string;
const ref = {} as Record<
  'customer' | 'other' | 'otherAddress' | 'object' | 'spare' | 'article' | 'type' | 'objectB',
  string
>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
const path = (bo: string, rest = '') => `/api/bo/${bo}/agreement${rest}`;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('oagr-a');
  b = await createTestTenant('oagr-b');
  tenant = (await getTenantBySlug(a.slug))!;
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
  await withTenant(tenant, async (trx) => {
    const [c, o] = await trx('customers')
      .insert([
        { customer_id: '8001', name: 'Brf Solrosen' },
        { customer_id: '8002', name: 'Fastighets AB Norr' },
      ])
      .returning('id');
    ref.customer = c.id;
    ref.other = o.id;
    const [addr] = await trx('customer_addresses')
      .insert({ customer_id: o.id, street: 'Kungsgatan 1', post_index: '11122', city: 'Stockholm', is_primary: true })
      .returning('id');
    ref.otherAddress = addr.id;
    const objects = await trx('business_objects')
      .insert([
        { serial_code: 'OA-1', customer_id: c.id },
        { serial_code: 'OA-2', customer_id: c.id },
      ])
      .returning('id');
    [ref.object, ref.spare] = objects.map((x: { id: string }) => x.id);
    const [art] = await trx('articles')
      .insert({ article_id: 'LARMC', title: 'Larmcentral', price: '150', unit: 'mån' })
      .returning('id');
    ref.article = art.id;
    ref.type = await insertAgreementType(trx, {
      code: 'SERV-Q',
      title: 'Serviceavtal',
      invoiceInterval: 'quarter',
      invoiceDay: 1,
      woInterval: 'year_1',
      woDay: 15,
      price: '1950',
    });
  });
  await withTenant((await getTenantBySlug(b.slug))!, async (trx) => {
    const [bo] = await trx('business_objects').insert({ serial_code: 'B-1' }).returning('id');
    ref.objectB = bo.id;
  });
});
afterAll(() => srv.close());

describe('[agreements] agreement on an object', () => {
  it('has none at first, and gets one with the spec defaults: next invoice the first quarter after valid-from', async () => {
    const none = await call('GET', path(ref.object), admin);
    expect(none.status).toBe(200);
    expect(none.json()).toEqual({ agreement: null });

    const put = await call('PUT', path(ref.object), admin, {
      agreement: { agreementId: ref.type, validFrom: '2026-02-10' },
    });
    expect(put.status, put.text).toBe(200);
    const got = (await call('GET', path(ref.object), admin)).json().agreement as Json;
    expect(got).toMatchObject({
      businessObjectId: ref.object,
      agreementId: ref.type,
      agreement: {
        code: 'SERV-Q',
        title: 'Serviceavtal',
        status: 'active',
        woInterval: 'year_1',
        woDay: 15,
        invoiceInterval: 'quarter',
        invoiceDay: 1,
        priceModel: 'fixed',
      },
      validFrom: '2026-02-10',
      validTo: null,
      invoicePeriodFrom: '2026-04-01',
      invoiceScheduledTo: '2026-04-01',
      woScheduledTo: '2026-03-01',
      totalPrice: '0.00',
      articles: [],
      invoiceCustomerId: null,
      invoiceAddressId: null,
      version: 1,
      nextInvoice: { from: '2026-04-01', to: '2026-06-30', generateOn: '2026-04-01' },
      nextWorkOrder: { from: '2026-03-01', to: '2027-02-28', generateOn: '2026-03-15' },
      lastInvoiced: null,
      warnings: [],
    });
    expect(put.json().agreement).toEqual(got);
  });

  it('refuses a missing valid-from, a valid-to before it and an invoice date that starts no period, at the fields', async () => {
    const put = (agreement: Json) =>
      call('PUT', path(ref.spare), admin, { agreement: { agreementId: ref.type, ...agreement } });
    const missing = await put({ validTo: '2026-12-31' });
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { validFrom: ['ERROR_REQUIRED_FIELD'] },
    });

    const backwards = await put({ validFrom: '2026-06-01', validTo: '2026-05-31' });
    expect(backwards.status).toBe(400);
    expect(backwards.json().fields).toEqual({ validTo: ['AGREEMENT_VALID_TO_BEFORE_FROM'] });

    const notStart = await put({
      validFrom: '2026-01-01',
      invoiceScheduledTo: '2026-05-01',
      woScheduledTo: '2026-05-02',
    });
    expect(notStart.status).toBe(400);
    expect(notStart.json().fields).toEqual({
      invoiceScheduledTo: ['AGREEMENT_NOT_A_PERIOD_START'],
      woScheduledTo: ['AGREEMENT_NOT_A_PERIOD_START'],
    });

    const noType = await put({ agreementId: '', validFrom: '2026-01-01' });
    expect(noType.status).toBe(400);
    // schema errors carry the body's path (the form looks under both names)
    expect(noType.json().fields).toMatchObject({ agreementId: ['ERROR_REQUIRED_FIELD'] });
    // nothing was put on the object
    expect((await call('GET', path(ref.spare), admin)).json()).toEqual({ agreement: null });
  });

  it('saves with the version read and refuses a stale one (409 AGREEMENT_CHANGED); keeps the dates not sent', async () => {
    const before = (await call('GET', path(ref.object), admin)).json().agreement as Json;
    const change = {
      agreementId: ref.type,
      validFrom: '2026-02-10',
      totalPrice: '1950,50',
      invoiceCustomerId: ref.other,
      invoiceAddressId: ref.otherAddress,
      invoiceExtra: 'Avtal 2026/17',
      fieldText1: 'Larmklass 2',
      fieldTextArea1: 'Nyckel i tub vid entrén',
      fieldDate1: '2026-03-01',
      invoiceScheduledTo: '2026-07-01',
      version: before.version,
    };
    const saved = await call('PUT', path(ref.object), admin, { agreement: change });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json().agreement).toMatchObject({
      totalPrice: '1950.50',
      invoiceCustomerId: ref.other,
      invoiceAddressId: ref.otherAddress,
      invoiceExtra: 'Avtal 2026/17',
      fieldText1: 'Larmklass 2',
      fieldTextArea1: 'Nyckel i tub vid entrén',
      fieldDate1: '2026-03-01',
      invoiceScheduledTo: '2026-07-01',
      woScheduledTo: '2026-03-01',
      invoicePeriodFrom: '2026-04-01',
      version: before.version + 1,
    });

    const stale = await call('PUT', path(ref.object), admin, { agreement: { ...change, totalPrice: '1' } });
    expect(stale.status).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'AGREEMENT_CHANGED' });
    expect((await call('GET', path(ref.object), admin)).json().agreement.totalPrice).toBe('1950.50');

    // an address of another customer than the invoice customer is refused at its field
    const wrongAddress = await call('PUT', path(ref.object), admin, {
      agreement: { ...change, invoiceCustomerId: null, version: before.version + 1 },
    });
    expect(wrongAddress.status).toBe(400);
    expect(wrongAddress.json().fields).toEqual({ invoiceAddressId: ['ERROR_INVALID_VALUE'] });
  });

  it('keeps work-order and invoice rows apart: added, read, changed and removed, title and price from the article', async () => {
    const fromArticle = await call('POST', path(ref.object, '/wo'), admin, { row: { articleId: ref.article } });
    expect(fromArticle.status, fromArticle.text).toBe(200);
    const woRow = fromArticle.json().row as Json;
    expect(woRow).toMatchObject({
      articleId: ref.article,
      articleNumber: 'LARMC',
      title: 'Larmcentral',
      amount: '1.000',
      price: '150.00',
      discountType: 'NONE',
      total: '150.00',
    });

    const text = await call('POST', path(ref.object, '/invoice'), admin, {
      row: { title: 'Fjärruppkoppling', amount: '2', price: '100', discountType: 'PERCENTAGE', discountValue: '10' },
    });
    expect(text.status, text.text).toBe(200);
    const invoiceRow = text.json().row as Json;
    expect(invoiceRow).toMatchObject({ articleId: null, title: 'Fjärruppkoppling', total: '180.00' });

    expect((await call('GET', path(ref.object, '/wo'), admin)).json().rows.map((r: Json) => r.id)).toEqual([woRow.id]);
    expect((await call('GET', path(ref.object, '/invoice'), admin)).json().rows.map((r: Json) => r.id)).toEqual([
      invoiceRow.id,
    ]);
    // a row is only found under its own kind
    expect((await call('GET', path(ref.object, `/invoice/${woRow.id}`), admin)).status).toBe(404);
    expect((await call('GET', path(ref.object, `/wo/${woRow.id}`), admin)).json().row.title).toBe('Larmcentral');

    const changed = await call('PUT', path(ref.object, '/invoice'), admin, {
      row: {
        id: invoiceRow.id,
        articleId: ref.article,
        title: 'Larmcentral, månad',
        amount: '3',
        price: '120',
        discountType: 'REGULAR',
        discountValue: '20',
      },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json().row).toMatchObject({ title: 'Larmcentral, månad', articleNumber: 'LARMC', total: '300.00' });

    const nothing = await call('POST', path(ref.object, '/invoice'), admin, { row: { amount: '1' } });
    expect(nothing.status).toBe(400);
    expect(nothing.json().fields).toEqual({ title: ['ERROR_REQUIRED_FIELD'] });
    const badDiscount = await call('POST', path(ref.object, '/invoice'), admin, {
      row: { title: 'x', discountType: 'PERCENTAGE', discountValue: '150' },
    });
    expect(badDiscount.status).toBe(400);
    expect(Object.keys(badDiscount.json().fields)).toEqual(['discountValue']);

    expect((await call('DELETE', path(ref.object, `/wo/${woRow.id}`), admin)).status).toBe(200);
    expect((await call('GET', path(ref.object, '/wo'), admin)).json().rows).toEqual([]);
    expect((await call('DELETE', path(ref.object, `/wo/${woRow.id}`), admin)).status).toBe(404);
    // an object without an agreement has no rows to add to
    expect((await call('POST', path(ref.spare, '/wo'), admin, { row: { title: 'x' } })).status).toBe(404);
  });

  it("answers 404 for another tenant's object, as for an unknown one", async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { agreement: { agreementId: ref.type, validFrom: '2026-01-01' } }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, path(ref.object), adminB, body, b.host);
      expect(res.status, `${method}`).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    expect((await call('GET', path(ref.objectB, '/invoice'), admin)).status).toBe(404);
    expect((await call('GET', path(ref.objectB), adminB, undefined, b.host)).json()).toEqual({ agreement: null });
  });

  it('lets a technician read the agreement (bo:read) but not change it (bo:agreements:edit)', async () => {
    const read = await call('GET', path(ref.object), tech);
    expect(read.status).toBe(200);
    expect(read.json().agreement.agreement.code).toBe('SERV-Q');
    expect((await call('GET', path(ref.object, '/invoice'), tech)).status).toBe(200);
    const version = read.json().agreement.version;
    for (const [method, rest, body] of [
      ['PUT', '', { agreement: { agreementId: ref.type, validFrom: '2026-01-01', version } }],
      ['DELETE', '', undefined],
      ['POST', '/invoice', { row: { title: 'x' } }],
    ] as const) {
      const res = await call(method, path(ref.object, rest), tech, body);
      expect(res.status, `${method} ${rest}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'WARNING_PERMISSION_DENIED' });
    }
    const schedule = await call('POST', '/api/bo/agreement/wo/schedule', tech, {
      objectAgreementIds: [read.json().agreement.id],
    });
    expect(schedule.status).toBe(403);
  });

  it('is taken off an object; once invoiced it stays (409 AGREEMENT_HAS_INVOICES) and its year lists the invoice', async () => {
    const put = await call('PUT', path(ref.spare), admin, {
      agreement: { agreementId: ref.type, validFrom: '2026-01-01', totalPrice: '1000' },
    });
    expect(put.status, put.text).toBe(200);
    const oa = put.json().agreement as Json;
    expect(oa.invoiceScheduledTo).toBe('2026-01-01');

    // the object without invoices: taken off, gone, a second removal finds nothing
    const second = await call('DELETE', path(ref.spare), admin);
    expect(second.status).toBe(200);
    expect((await call('GET', path(ref.spare), admin)).json()).toEqual({ agreement: null });
    expect((await call('DELETE', path(ref.spare), admin)).status).toBe(404);

    // the first object's agreement invoiced for Q3 2026 (its invoice date is 1 July)
    const current = (await call('GET', path(ref.object), admin)).json().agreement as Json;
    await generateDue(tenant, { now: new Date('2026-07-02T10:00:00Z'), kinds: ['invoice'] });
    const year = await call('GET', `/api/invoice/agreement/${current.id}?year=2026`, admin);
    expect(year.status, year.text).toBe(200);
    const periods = year.json().periods as Json[];
    expect(periods.map((p) => [p.from, p.to, p.generateOn])).toEqual([
      ['2026-04-01', '2026-06-30', '2026-04-01'],
      ['2026-07-01', '2026-09-30', '2026-07-01'],
      ['2026-10-01', '2026-12-31', '2026-10-01'],
    ]);
    expect(periods.map((p) => p.invoice?.periodFrom ?? null)).toEqual([null, '2026-07-01', null]);
    expect(periods[1]!.invoice).toMatchObject({ customerName: 'Fastighets AB Norr' });

    const after = (await call('GET', path(ref.object), admin)).json().agreement as Json;
    expect(after).toMatchObject({
      invoiceScheduledTo: '2026-10-01',
      lastInvoiced: { from: '2026-07-01', to: '2026-09-30' },
    });
    const refused = await call('DELETE', path(ref.object), admin);
    expect(refused.status).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'AGREEMENT_HAS_INVOICES' });
    expect((await call('GET', path(ref.object), admin)).json().agreement.id).toBe(current.id);

    // a to-date ends it instead, with the spec's warning
    const ended = await call('PUT', path(ref.object), admin, {
      agreement: {
        agreementId: ref.type,
        validFrom: '2026-02-10',
        validTo: '2026-12-31',
        totalPrice: '1950.50',
        invoiceCustomerId: ref.other,
        version: after.version,
      },
    });
    expect(ended.status, ended.text).toBe(200);
    expect(ended.json().agreement.warnings).toEqual(['AGREEMENT_HAS_TO_DATE']);
  });
});
