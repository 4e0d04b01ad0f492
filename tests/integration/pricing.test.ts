import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSession } from '~/core/auth/session.service';
import { lookupArticlePrice } from '~/core/articles/price-lookup.service';
import { countQueries } from '~/core/db/query-counter';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant } from '~/core/unit-of-work';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { request } from '~/tests/helpers/http';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;
let otherAdmin: string;

/** Ids of the rows each branch of the price lookup needs. */
const ids: Record<string, string> = {};

const insert = async (trx: Trx, table: string, row: Record<string, unknown>) =>
  ((await trx(table).insert(row).returning('id')) as { id: string }[])[0]!.id;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('prc-a');
  b = await createTestTenant('prc-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    ids.larm = await insert(trx, 'article_groups', { title: 'LARM', display_name: 'Larm' });
    ids.kam = await insert(trx, 'article_groups', { title: 'KAM', display_name: 'Kamera' });
    ids.detector = await insert(trx, 'articles', {
      article_id: '1001',
      title: 'Rörelsedetektor',
      article_group_id: ids.larm,
      price: '1000.00',
      purchase_price: '600.00',
    });
    ids.camera = await insert(trx, 'articles', {
      article_id: '2001',
      title: 'Domkamera',
      article_group_id: ids.kam,
      price: '2000.00',
      purchase_price: '1333.33',
    });
    ids.loose = await insert(trx, 'articles', { article_id: '9001', title: 'Kabel', price: '12.50' });
    ids.pass = await insert(trx, 'article_groups', { title: 'PASS', display_name: 'Passage' });
    ids.card = await insert(trx, 'articles', {
      article_id: '3001',
      title: 'Passerkort',
      article_group_id: ids.pass,
      price: '45.00',
    });
    // Avtalskund: 10 % off LARM, purchase price + 25 % for KAM. Objektlista: 20 % off LARM.
    ids.contract = await insert(trx, 'price_lists', { title: 'Avtalskund' });
    ids.objectList = await insert(trx, 'price_lists', { title: 'Objektlista' });
    await trx('price_list_groups').insert([
      { price_list_id: ids.contract, article_group_id: ids.larm, pricing_type: 'discount', value: '10' },
      { price_list_id: ids.contract, article_group_id: ids.kam, pricing_type: 'markup_purchase', value: '25' },
      { price_list_id: ids.objectList, article_group_id: ids.larm, pricing_type: 'discount', value: '20' },
      { price_list_id: ids.objectList, article_group_id: ids.kam, pricing_type: 'markup_sales', value: '5' },
    ]);
    ids.plain = await insert(trx, 'customers', { name: 'Kund utan avtal', customer_id: 'K1' });
    ids.contractCustomer = await insert(trx, 'customers', {
      name: 'Brf Solrosen',
      customer_id: 'K2',
      price_list_id: ids.contract,
      default_discount: '3',
    });
    ids.discountCustomer = await insert(trx, 'customers', {
      name: 'Ica Nära',
      customer_id: 'K3',
      default_discount: '7.5',
    });
    await trx('customer_article_group_discounts').insert({
      customer_id: ids.discountCustomer,
      article_group_id: ids.kam,
      discount_type: 'REGULAR',
      discount_value: '150',
    });
    await trx('customer_articles').insert({ customer_id: ids.contractCustomer, article_id: ids.loose, price: '9.90' });
    ids.object = await insert(trx, 'business_objects', {
      serial_code: 'OBJ-1',
      customer_id: ids.contractCustomer,
      price_list_id: ids.objectList,
    });
    ids.bareObject = await insert(trx, 'business_objects', { serial_code: 'OBJ-2', customer_id: ids.contractCustomer });
    await trx('business_object_articles').insert({
      business_object_id: ids.object,
      article_id: ids.loose,
      price: '8.00',
    });
  });
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  otherAdmin = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

const { signIn } = testApi(() => ({ url: srv.url, host: a.host }));

const lookup = (article: string, query: Record<string, string> = {}, token = tech, host = a.host) =>
  request(srv.url, {
    path: `/api/articles/${article}?${new URLSearchParams(query)}`,
    host,
    headers: { authorization: `Bearer ${token}` },
  });

describe('[pricing] GET /api/articles/{id}: price lookup by precedence', () => {
  it.each<[string, () => [string, Record<string, string>], object]>([
    [
      'no customer: the article price',
      () => [ids.detector!, {}],
      { salesPrice: '1000.00', priceType: 'ARTICLE_PRICE', discountType: 'NONE', discountValue: '0.00' },
    ],
    [
      'a customer without anything: the article price',
      () => [ids.detector!, { customerId: ids.plain! }],
      { salesPrice: '1000.00', priceType: 'ARTICLE_PRICE', discountType: 'NONE' },
    ],
    [
      "the object's own price for the article beats everything",
      () => [ids.loose!, { customerId: ids.contractCustomer!, businessObjectId: ids.object! }],
      { salesPrice: '8.00', priceType: 'OBJECT_PRICE', discountType: 'NONE' },
    ],
    [
      "the customer's own price beats price lists",
      () => [ids.loose!, { customerId: ids.contractCustomer!, businessObjectId: ids.bareObject! }],
      { salesPrice: '9.90', priceType: 'CUSTOMER_PRICE', discountType: 'NONE' },
    ],
    [
      "the object's price list beats the customer's (discount: price kept, percentage given)",
      () => [ids.detector!, { customerId: ids.contractCustomer!, businessObjectId: ids.object! }],
      { salesPrice: '1000.00', priceType: 'OBJECT_PRICE_LIST', discountType: 'PERCENTAGE', discountValue: '20.00' },
    ],
    [
      "the object's price list with a markup on the sales price",
      () => [ids.camera!, { businessObjectId: ids.object! }],
      { salesPrice: '2100.00', priceType: 'OBJECT_PRICE_LIST', discountType: 'NONE' },
    ],
    [
      "without customerId the object's customer is used",
      () => [ids.loose!, { businessObjectId: ids.bareObject! }],
      { salesPrice: '9.90', priceType: 'CUSTOMER_PRICE', discountType: 'NONE' },
    ],
    [
      "the customer's price list: a discount",
      () => [ids.detector!, { customerId: ids.contractCustomer! }],
      { salesPrice: '1000.00', priceType: 'CUSTOMER_PRICE_LIST', discountType: 'PERCENTAGE', discountValue: '10.00' },
    ],
    [
      "the customer's price list: markup on the purchase price, rounded to öre",
      () => [ids.camera!, { customerId: ids.contractCustomer! }],
      { salesPrice: '1666.66', priceType: 'CUSTOMER_PRICE_LIST', discountType: 'NONE' }, // 1666.6625
    ],
    [
      "a group the customer's price list does not price falls through to the default discount",
      () => [ids.card!, { customerId: ids.contractCustomer! }],
      { salesPrice: '45.00', priceType: 'CUSTOMER_DISCOUNT', discountType: 'PERCENTAGE', discountValue: '3.00' },
    ],
    [
      "an article without a group gets the customer's default discount",
      () => [ids.loose!, { customerId: ids.discountCustomer! }],
      { salesPrice: '12.50', priceType: 'CUSTOMER_DISCOUNT', discountType: 'PERCENTAGE', discountValue: '7.50' },
    ],
    [
      "the customer's discount for the article group beats the default discount",
      () => [ids.camera!, { customerId: ids.discountCustomer! }],
      { salesPrice: '2000.00', priceType: 'CUSTOMER_GROUP_DISCOUNT', discountType: 'REGULAR', discountValue: '150.00' },
    ],
    [
      "the customer's default discount for a group without a group discount",
      () => [ids.detector!, { customerId: ids.discountCustomer! }],
      { salesPrice: '1000.00', priceType: 'CUSTOMER_DISCOUNT', discountType: 'PERCENTAGE', discountValue: '7.50' },
    ],
  ])('%s', async (_name, args, expected) => {
    const [article, query] = args();
    const res = await lookup(article, query);
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toEqual({ discountValue: '0.00', ...expected });
  });

  it('reads everything in one statement', async () => {
    const auth = await withTenant(tenantA, (trx) =>
      validateSession(trx, tech, new Date(), { idleMinutes: 30, absoluteHours: 12 }),
    );
    const empty = countQueries(() => inTenant({ tenant: tenantA, auth, lang: 'sv' }, async () => null));
    await empty.result;
    const run = countQueries(() =>
      inTenant({ tenant: tenantA, auth, lang: 'sv' }, (ctx) =>
        lookupArticlePrice(ctx, ids.detector, { customerId: ids.contractCustomer, businessObjectId: ids.object }),
      ),
    );
    expect(await run.result).toMatchObject({ priceType: 'OBJECT_PRICE_LIST' });
    expect(run.counter.statements).toBe(empty.counter.statements + 1);
  });

  it('answers 404 for an unknown or foreign article, customer or object', async () => {
    expect((await lookup('not-a-uuid')).status).toBe(404);
    expect((await lookup(ids.plain!)).status).toBe(404); // a customer id is not an article
    expect((await lookup(ids.detector!, { customerId: ids.detector! })).status).toBe(404);
    expect((await lookup(ids.detector!, { businessObjectId: ids.plain! })).status).toBe(404);
    expect((await lookup(ids.detector!, { customerId: 'junk' })).status).toBe(404);
    const foreign = await lookup(ids.detector!, {}, otherAdmin, b.host);
    expect(foreign.status).toBe(404);
    expect(foreign.json()).toEqual({ code: 'NOT_FOUND' });
  });

  it('needs articles:read and a session', async () => {
    expect((await lookup(ids.detector!, {}, 'nonsense')).status).toBe(401);
    await withTenant(tenantA, (trx) =>
      trx('access_levels')
        .where({ display_name: 'Technician' })
        .update({ permissions: ['workorders:read'] }),
    );
    try {
      const res = await lookup(ids.detector!);
      expect(res.status).toBe(403);
      expect(res.json()).toEqual({ code: 'WARNING_PERMISSION_DENIED' });
      expect((await lookup(ids.detector!, {}, admin)).status).toBe(200);
    } finally {
      await withTenant(tenantA, (trx) =>
        trx('access_levels')
          .where({ display_name: 'Technician' })
          .update({ permissions: ['articles:read'] }),
      );
    }
  });
});
