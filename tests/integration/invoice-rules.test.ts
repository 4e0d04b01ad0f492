import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * Settings → invoicing through the HTTP API (issue 14 items 1 and 6): GET and PUT
 * /api/instance/invoicerules — the defaults, saving, the labour article per work type and per
 * person, articles that must exist here and be active, the next invoice number that only goes up
 * past the numbers given, the history row, and access.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'office' | 'tech' | 'adminB', string>;
const ref = {} as Record<
  'labour' | 'travel' | 'km' | 'senior' | 'old' | 'articleOfB' | 'install' | 'service' | 'tech' | 'customer',
  string
>;

const PATH = '/api/instance/invoicerules';
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
const put = (body: unknown, token = tok.admin) => call('PUT', PATH, token, body);
const get = async (token = tok.admin) => {
  const res = await call('GET', PATH, token);
  expect(res.status, res.text).toBe(200);
  return res.json() as Json;
};

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('invr-a');
  b = await createTestTenant('invr-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await ensureUser(trx, {
      email: `office@${a.slug}.se`,
      name: 'Olle Kontor',
      password: PASSWORD,
      accessLevels: ['Office'],
    });
    ref.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    const arts = await trx('articles')
      .insert([
        { article_id: 'ARB', title: 'Arbete', price: '650.00', unit: 'h', product_type: 'service' },
        { article_id: 'RES', title: 'Restid', price: '450.00', unit: 'h', product_type: 'service' },
        { article_id: 'MIL', title: 'Milersättning', price: '4.50', unit: 'km' },
        { article_id: 'ARB-S', title: 'Arbete senior', price: '850.00', unit: 'h', product_type: 'service' },
        { article_id: 'OLD', title: 'Utgått arbete', price: '500.00', unit: 'h', status: 'inactive' },
      ])
      .returning('id');
    [ref.labour, ref.travel, ref.km, ref.senior, ref.old] = arts.map((r: { id: string }) => r.id);
    ref.install = (await trx('work_types').where({ name: 'Installation' }).first('id')).id;
    ref.service = (await trx('work_types').whereNot({ id: ref.install }).orderBy('sort_order').first('id')).id;
    ref.customer = (await trx('customers').insert({ customer_id: '40001', name: 'Brf Linden' }).returning('id'))[0].id;
  });
  const tenantB = (await getTenantBySlug(b.slug))!;
  ref.articleOfB = await withTenant(
    tenantB,
    async (trx) =>
      (await trx('articles').insert({ article_id: 'B-1', title: 'Arbete B', price: '1.00' }).returning('id'))[0].id,
  );
  tok.admin = await signIn(a, a.adminEmail);
  tok.office = await signIn(a, `office@${a.slug}.se`);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(async () => {
  await srv?.close();
});

/** A closed work order's final invoice number (the tenant reviews nothing: closing finalizes). */
async function finalizeOne(): Promise<number> {
  const res = await call('POST', '/api/wo', tok.admin, { workOrder: { title: 'Service', customerId: ref.customer } });
  expect(res.status, res.text).toBe(200);
  const wo = res.json().workOrder as Json;
  await withTenant(tenantA, (trx) =>
    trx('work_order_articles').insert({
      work_order_id: wo.id,
      article_id: ref.labour,
      title: 'Arbete',
      amount: '1',
      price: '650.00',
      total: 0,
      sort_order: 1,
    }),
  );
  const closed = await call('POST', '/api/wo/close', tok.admin, { workOrderId: wo.id, invoiceDate: '2026-11-10' });
  expect(closed.status, closed.text).toBe(200);
  return Number(closed.json().invoice.invoiceNr);
}

describe('[invoicing] GET and PUT /api/instance/invoicerules', () => {
  it("answers a new tenant's defaults", async () => {
    expect(await get()).toEqual({
      reviewBeforeSending: false,
      applyTypesOff: [],
      billTime: true,
      labourArticle: null,
      billTravelTime: false,
      travelArticle: null,
      timeRoundingMinutes: 0,
      mileageArticle: null,
      bankAccount: null,
      ocr: true,
      nextInvoiceNr: 1,
      lowestNextInvoiceNr: 1,
      overrides: { workTypes: [], users: [] },
    });
  });

  it('saves the rules, answers them with the articles’ numbers and titles, and writes one history row', async () => {
    const res = await put({
      reviewBeforeSending: true,
      billTime: true,
      labourArticleId: ref.labour,
      billTravelTime: true,
      travelArticleId: ref.travel,
      timeRoundingMinutes: 15,
      mileageArticleId: ref.km,
      bankAccount: '  SE45 5000 0000 0583 9825 7466 ',
      ocr: false,
    });
    expect(res.status, res.text).toBe(200);
    const saved = res.json() as Json;
    expect(saved).toMatchObject({
      reviewBeforeSending: true,
      labourArticle: { id: ref.labour, articleId: 'ARB', title: 'Arbete' },
      billTravelTime: true,
      travelArticle: { id: ref.travel, articleId: 'RES', title: 'Restid' },
      timeRoundingMinutes: 15,
      mileageArticle: { id: ref.km, articleId: 'MIL', title: 'Milersättning' },
      bankAccount: 'SE45 5000 0000 0583 9825 7466',
      ocr: false,
    });
    expect(await get()).toEqual(saved);
    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity: 'invoice_settings' }).orderBy('at', 'desc').first('action', 'data'),
    );
    expect(history.action).toBe('edit');
    expect(history.data).toMatchObject({
      reviewBeforeSending: { old: false, new: true },
      timeRoundingMinutes: { old: 0, new: 15 },
      labourArticleId: { old: null, new: ref.labour },
    });
    expect(history.data.billTime).toBeUndefined();

    // fields left out keep their value; "" clears an article and the bank account
    const cleared = await put({ travelArticleId: '', bankAccount: '', ocr: true, reviewBeforeSending: false });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json()).toMatchObject({
      travelArticle: null,
      bankAccount: null,
      ocr: true,
      labourArticle: { id: ref.labour },
      timeRoundingMinutes: 15,
    });
  });

  it('replaces the labour articles per work type and per person as sent', async () => {
    const res = await put({
      overrides: {
        workTypes: [{ workTypeId: ref.install, articleId: ref.senior }],
        users: [{ userId: ref.tech, articleId: ref.senior }],
      },
    });
    expect(res.status, res.text).toBe(200);
    const { overrides } = res.json() as Json;
    expect(overrides.workTypes).toEqual([
      {
        id: expect.any(String),
        workType: { id: ref.install, name: 'Installation' },
        article: { id: ref.senior, articleId: 'ARB-S', title: 'Arbete senior' },
      },
    ]);
    expect(overrides.users).toEqual([
      {
        id: expect.any(String),
        user: { id: ref.tech, name: 'Tess Tekniker' },
        article: { id: ref.senior, articleId: 'ARB-S', title: 'Arbete senior' },
      },
    ]);

    // sent again with another work type and no person: exactly those remain
    const next = await put({
      overrides: { workTypes: [{ workTypeId: ref.service, articleId: ref.labour }], users: [] },
    });
    expect(next.status, next.text).toBe(200);
    expect(next.json().overrides.workTypes.map((o: Json) => [o.workType.id, o.article.id])).toEqual([
      [ref.service, ref.labour],
    ]);
    expect(next.json().overrides.users).toEqual([]);
    // left out, they stay
    expect((await put({ billTime: true })).json().overrides.workTypes).toHaveLength(1);

    // a work type or person twice is a field error on the second
    const twice = await put({
      overrides: {
        workTypes: [
          { workTypeId: ref.install, articleId: ref.labour },
          { workTypeId: ref.install, articleId: ref.senior },
        ],
        users: [
          { userId: ref.tech, articleId: ref.labour },
          { userId: ref.tech, articleId: ref.labour },
        ],
      },
    });
    expect(twice.status).toBe(400);
    expect(twice.json().fields).toEqual({
      'overrides.workTypes.1.workTypeId': ['ERROR_WORK_TYPE_ALREADY_ADDED'],
      'overrides.users.1.userId': ['ERROR_USER_ALREADY_ADDED'],
    });
  });

  it('refuses an inactive or unknown article, another tenant’s article and an unknown work type or person, changing nothing', async () => {
    const before = await get();
    const res = await put({
      labourArticleId: ref.old,
      mileageArticleId: 'not-an-id',
      travelArticleId: ref.articleOfB,
      bankAccount: 'x'.repeat(40),
      overrides: {
        workTypes: [{ workTypeId: ref.articleOfB, articleId: ref.labour }],
        users: [{ userId: ref.tech, articleId: ref.old }],
      },
    });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.json().fields).toEqual({
      labourArticleId: ['ERROR_ARTICLE_INACTIVE'],
      mileageArticleId: ['NOT_FOUND'],
      travelArticleId: ['NOT_FOUND'],
      'overrides.workTypes.0.workTypeId': ['NOT_FOUND'],
      'overrides.users.0.articleId': ['ERROR_ARTICLE_INACTIVE'],
    });
    expect(await get()).toEqual(before);

    const invalid = await put({ timeRoundingMinutes: 7, bankAccount: 'x'.repeat(51), billTime: 'yes' });
    expect(invalid.status).toBe(400);
    expect(invalid.json().fields).toEqual({
      timeRoundingMinutes: ['ERROR_INVALID_VALUE'],
      bankAccount: ['ERROR_MAX_LENGTH'],
      billTime: ['ERROR_INVALID_VALUE'],
    });
  });

  it('lets the next invoice number go up, never to or below a number already given', async () => {
    await put({ reviewBeforeSending: false });
    const first = await finalizeOne();
    let rules = await get();
    expect(rules.nextInvoiceNr).toBe(first + 1);
    expect(rules.lowestNextInvoiceNr).toBe(first + 1);

    for (const taken of [first, first - 1 || 1]) {
      const res = await put({ nextInvoiceNr: taken });
      expect(res.status).toBe(400);
      expect(res.json().fields).toEqual({ nextInvoiceNr: ['ERROR_INVOICE_NUMBER_TAKEN'] });
    }
    expect((await put({ nextInvoiceNr: 0 })).json().fields).toEqual({ nextInvoiceNr: ['ERROR_INVALID_VALUE'] });
    expect((await put({ nextInvoiceNr: '12a' })).json().fields).toEqual({ nextInvoiceNr: ['ERROR_INVALID_VALUE'] });

    const raised = await put({ nextInvoiceNr: String(first + 1000) });
    expect(raised.status, raised.text).toBe(200);
    expect(raised.json().nextInvoiceNr).toBe(first + 1000);
    // the next final invoice takes it, and the counter moves on from there
    expect(await finalizeOne()).toBe(first + 1000);
    rules = await get();
    expect(rules).toMatchObject({ nextInvoiceNr: first + 1001, lowestNextInvoiceNr: first + 1001 });
    // back below the number just given is refused; unchanged is fine
    expect((await put({ nextInvoiceNr: first + 500 })).json().fields).toEqual({
      nextInvoiceNr: ['ERROR_INVOICE_NUMBER_TAKEN'],
    });
    expect((await put({ nextInvoiceNr: first + 1001 })).status).toBe(200);
  });

  it('reads with instance:read and changes with instance:edit (403 otherwise); another tenant sees its own rules', async () => {
    const office = await call('GET', PATH, tok.office);
    expect(office.status, office.text).toBe(200);
    const refused = await put({ ocr: false }, tok.office);
    expect(refused.status).toBe(403);
    expect(refused.json().code).toBe('WARNING_PERMISSION_DENIED');
    expect((await call('GET', PATH, tok.tech)).status).toBe(403);
    expect((await put({ ocr: false }, tok.tech)).status).toBe(403);
    expect((await get()).ocr).toBe(true);

    const ofB = await call('GET', PATH, tok.adminB, undefined, b.host);
    expect(ofB.status).toBe(200);
    expect(ofB.json()).toMatchObject({ labourArticle: null, overrides: { workTypes: [], users: [] } });
    // B's own article is fine in B
    const inB = await call('PUT', PATH, tok.adminB, { labourArticleId: ref.articleOfB }, b.host);
    expect(inB.status, inB.text).toBe(200);
    expect(inB.json().labourArticle).toEqual({ id: ref.articleOfB, articleId: 'B-1', title: 'Arbete B' });
  });

  it('needs the invoice_rules module (a super user goes past module gating)', async () => {
    const setModule = (enabled: boolean) =>
      call('PUT', '/api/instance/appmodule', tok.admin, { appModuleId: 'invoice_rules', enabled });
    expect((await setModule(false)).status).toBe(200);
    try {
      expect((await call('GET', PATH, tok.office)).status).toBe(403);
    } finally {
      await setModule(true);
    }
    expect((await call('GET', PATH, tok.office)).status).toBe(200);
  });
});
