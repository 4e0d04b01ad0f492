import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

/** Issue 16 item 1: agreement types through the REST API (api-calls.md "Agreements"). */
let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;
let adminB: string;
let labour: string;
let travel: string;
let serviceWorkType: string;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('agt-a');
  b = await createTestTenant('agt-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  [labour, travel] = await withTenant(tenantA, async (trx) => {
    const rows = (await trx('articles')
      .insert([
        { article_id: '90001', title: 'Arbetstid tekniker', unit: 'tim', price: '725.00' },
        { article_id: '90003', title: 'Resa', unit: 'st', price: '495.00' },
      ])
      .returning('id')) as { id: string }[];
    return rows.map((r) => r.id);
  });
  serviceWorkType = await withTenant(tenantA, async (trx) => (await trx('work_types').first('id')).id as string);
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const full = (over: Record<string, unknown> = {}) => ({
  code: 'SERV-Q',
  title: 'Serviceavtal kvartal',
  description: 'Ett servicebesök per år, fakturering kvartalsvis.',
  status: 'active',
  type: 'service',
  validFrom: '2026-01-01',
  validTo: null,
  woDay: 15,
  woInterval: 'year_1',
  workTypeId: null,
  invoiceDay: 0,
  invoiceInterval: 'quarter',
  ...over,
});

describe('[agreements] agreement types', () => {
  let id: string;

  it('creates from {title} alone: the code is made from the title, valid from today, active', async () => {
    const res = await call('POST', '/api/agreements', admin, { title: 'Larmövervakning månad' });
    expect(res.status).toBe(200);
    const made = (await call('GET', `/api/agreements/${res.json().id}`, admin)).json().agreement;
    expect(made).toMatchObject({
      code: 'LARMOVERVAKNING-MANA',
      title: 'Larmövervakning månad',
      status: 'active',
      type: 'service',
      woDay: 1,
      woInterval: null,
      invoiceInterval: null,
      priceModel: 'fixed',
      price: '0.00',
      objectCount: 0,
    });
    expect(made.validFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The same title again gets the next free code.
    const again = await call('POST', '/api/agreements', admin, { title: 'Larmövervakning månad' });
    expect((await call('GET', `/api/agreements/${again.json().id}`, admin)).json().agreement.code).toBe(
      'LARMOVERVAKNING-MANA-2',
    );
  });

  it('creates with every field, reads it back, and edits it', async () => {
    const res = await call('POST', '/api/agreements', admin, {
      agreement: {
        ...full(),
        workTypeId: serviceWorkType,
        priceModel: 'fixed',
        price: '1 950,50',
        priceArticleId: labour,
      },
    });
    expect(res.status).toBe(200);
    id = res.json().id;
    const one = (await call('GET', `/api/agreements/${id}`, admin)).json().agreement;
    expect(one).toMatchObject({
      ...full(),
      id,
      workTypeId: serviceWorkType,
      priceModel: 'fixed',
      price: '1950.50',
      priceArticleId: labour,
      configuration: {},
      objectCount: 0,
    });

    const put = await call('PUT', '/api/agreements', admin, {
      agreement: {
        ...full({ id, title: 'Serviceavtal kvartal plus', validTo: '2027-12-31', invoiceDay: 31 }),
        configuration: { note: 'x' },
      },
    });
    expect(put.status).toBe(200);
    const changed = (await call('GET', `/api/agreements/${id}`, admin)).json().agreement;
    expect(changed).toMatchObject({
      title: 'Serviceavtal kvartal plus',
      validTo: '2027-12-31',
      invoiceDay: 31,
      workTypeId: null,
      configuration: { note: 'x' },
      // PUT /agreements leaves the pricing alone
      price: '1950.50',
    });
    // Left out, the configuration is kept.
    await call('PUT', '/api/agreements', admin, { agreement: full({ id, title: 'Serviceavtal kvartal' }) });
    expect((await call('GET', `/api/agreements/${id}`, admin)).json().agreement.configuration).toEqual({ note: 'x' });
  });

  it('refuses a taken code, whatever its case, with 409 DUPLICATE_AGREEMENT_TYPE on create and edit', async () => {
    const dup = await call('POST', '/api/agreements', admin, { agreement: full({ code: 'serv-q' }) });
    expect(dup.status).toBe(409);
    expect(dup.json()).toMatchObject({
      code: 'DUPLICATE_AGREEMENT_TYPE',
      fields: { code: ['DUPLICATE_AGREEMENT_TYPE'] },
    });
    const other = (await call('POST', '/api/agreements', admin, { agreement: full({ code: 'OTHER' }) })).json().id;
    const taken = await call('PUT', '/api/agreements', admin, { agreement: full({ id: other, code: 'Serv-Q' }) });
    expect(taken.status).toBe(409);
    expect(taken.json().code).toBe('DUPLICATE_AGREEMENT_TYPE');
    await call('DELETE', `/api/agreements/${other}`, admin);
  });

  it('validates: valid-from required and not after valid-to, intervals, days, work type of this tenant', async () => {
    const missing = await call('PUT', '/api/agreements', admin, { agreement: full({ id, validFrom: '' }) });
    expect(missing.status).toBe(400);
    expect(missing.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { validFrom: ['ERROR_REQUIRED_FIELD'] } });
    const explicitNull = await call('POST', '/api/agreements', admin, { title: 'X', validFrom: null });
    expect(explicitNull.json().fields).toEqual({ validFrom: ['ERROR_REQUIRED_FIELD'] });

    const reversed = await call('PUT', '/api/agreements', admin, {
      agreement: full({ id, validFrom: '2026-06-01', validTo: '2026-05-31' }),
    });
    expect(reversed.status).toBe(400);
    expect(reversed.json().fields).toEqual({ validTo: ['ERROR_VALID_TO_BEFORE_VALID_FROM'] });
    // The same day is fine (valid from ≤ valid to).
    const sameDay = await call('PUT', '/api/agreements', admin, {
      agreement: full({ id, validFrom: '2026-06-01', validTo: '2026-06-01' }),
    });
    expect(sameDay.status).toBe(200);

    const bad = await call('POST', '/api/agreements', admin, {
      agreement: full({
        code: 'A B',
        title: '',
        validFrom: '2026-02-30',
        woDay: 32,
        woInterval: 'weekly',
        invoiceDay: -1,
        type: 'lease',
      }),
    });
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({
      code: ['ERROR_NO_SPACES'],
      title: ['ERROR_REQUIRED_FIELD'],
      validFrom: ['ERROR_INVALID_DATE'],
      woDay: ['ERROR_INVALID_VALUE'],
      woInterval: ['ERROR_INVALID_VALUE'],
      invoiceDay: ['ERROR_INVALID_VALUE'],
      type: ['ERROR_INVALID_VALUE'],
    });

    // Another tenant's work type is not one of ours.
    const foreignWorkType = await withTenant((await getTenantBySlug(b.slug))!, async (trx) =>
      trx('work_types').insert({ name: 'Främmande' }).returning('id'),
    );
    const wt = await call('PUT', '/api/agreements', admin, {
      agreement: full({ id, workTypeId: (foreignWorkType[0] as { id: string }).id }),
    });
    expect(wt.status).toBe(400);
    expect(wt.json().fields).toEqual({ workTypeId: ['ERROR_INVALID_VALUE'] });
    await call('PUT', '/api/agreements', admin, { agreement: full({ id }) });
  });

  it('reads and sets the pricing', async () => {
    const pricing = await call('GET', `/api/agreements/${id}/pricing`, admin);
    expect(pricing.json()).toEqual({
      priceModel: 'fixed',
      price: '1950.50',
      priceArticleId: labour,
      priceArticle: { id: labour, articleNumber: '90001', title: 'Arbetstid tekniker' },
    });
    const put = await call('PUT', `/api/agreements/${id}/pricing`, admin, {
      priceModel: 'articles',
      price: 0,
      priceArticleId: null,
    });
    expect(put.status).toBe(200);
    expect((await call('GET', `/api/agreements/${id}/pricing`, admin)).json()).toEqual({
      priceModel: 'articles',
      price: '0.00',
      priceArticleId: null,
      priceArticle: null,
    });
    const bad = await call('PUT', `/api/agreements/${id}/pricing`, admin, {
      priceModel: 'hourly',
      price: '-5',
      priceArticleId: '00000000-0000-4000-8000-000000000000',
    });
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({ priceModel: ['ERROR_INVALID_VALUE'], price: ['ERROR_NEGATIVE_AMOUNT'] });
    const unknownArticle = await call('PUT', `/api/agreements/${id}/pricing`, admin, {
      priceModel: 'fixed',
      price: '100',
      priceArticleId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownArticle.status).toBe(400);
    expect(unknownArticle.json().fields).toEqual({ priceArticleId: ['ERROR_INVALID_VALUE'] });
  });

  it('includes articles with discounts: add, list, change, remove', async () => {
    const add = await call('POST', '/api/agreements/articles', admin, {
      agreementId: id,
      articleId: labour,
      discountType: 'PERCENTAGE',
      discountValue: 10,
    });
    expect(add.status).toBe(200);
    await call('POST', '/api/agreements/articles', admin, { agreementId: id, articleId: travel });
    const again = await call('POST', '/api/agreements/articles', admin, { agreementId: id, articleId: labour });
    expect(again.status).toBe(409);
    expect(again.json().code).toBe('DUPLICATE_AGREEMENT_ARTICLE');

    const list = (await call('GET', `/api/agreements/${id}/articles`, admin)).json();
    expect(list.articles).toEqual([
      {
        agreementId: id,
        articleId: labour,
        articleNumber: '90001',
        title: 'Arbetstid tekniker',
        unit: 'tim',
        listPrice: '725.00',
        status: 'active',
        discountType: 'PERCENTAGE',
        discountValue: '10.00',
      },
      {
        agreementId: id,
        articleId: travel,
        articleNumber: '90003',
        title: 'Resa',
        unit: 'st',
        listPrice: '495.00',
        status: 'active',
        discountType: 'NONE',
        discountValue: '0.00',
      },
    ]);

    const tooMuch = await call('PUT', '/api/agreements/articles', admin, {
      agreementId: id,
      articleId: travel,
      discountType: 'PERCENTAGE',
      discountValue: 101,
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json().fields).toEqual({ discountValue: ['ERROR_PERCENT_RANGE'] });
    const amount = await call('PUT', '/api/agreements/articles', admin, {
      agreementId: id,
      articleId: travel,
      discountType: 'REGULAR',
      discountValue: '100,50',
    });
    expect(amount.status).toBe(200);
    const after = (await call('GET', `/api/agreements/${id}/articles`, admin)).json().articles;
    expect(after[1]).toMatchObject({ articleId: travel, discountType: 'REGULAR', discountValue: '100.50' });

    const unknown = await call('POST', '/api/agreements/articles', admin, {
      agreementId: id,
      articleId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json().fields).toEqual({ articleId: ['ERROR_INVALID_VALUE'] });
    const notIncluded = await call('PUT', '/api/agreements/articles', admin, {
      agreementId: id,
      articleId: '00000000-0000-4000-8000-000000000000',
      discountType: 'NONE',
    });
    expect(notIncluded.status).toBe(404);

    expect((await call('DELETE', `/api/agreements/${id}/articles?articleId=${travel}`, admin)).status).toBe(200);
    expect((await call('DELETE', `/api/agreements/${id}/articles?articleId=${travel}`, admin)).status).toBe(404);
    expect(
      (await call('GET', `/api/agreements/${id}/articles`, admin))
        .json()
        .articles.map((x: { articleId: string }) => x.articleId),
    ).toEqual([labour]);
  });

  it('lists by title with objectCount, searches and filters; refuses to delete a type in use (409 IN_USE)', async () => {
    await withTenant(tenantA, async (trx) => {
      const objects = (await trx('business_objects')
        .insert([{ serial_code: 'AGT-OBJ-1' }, { serial_code: 'AGT-OBJ-2' }])
        .returning('id')) as { id: string }[];
      await trx('object_agreements').insert(
        objects.map((o) => ({ business_object_id: o.id, agreement_id: id, valid_from: '2026-01-01' })),
      );
    });
    const list = (await call('GET', '/api/agreements', admin)).json();
    expect(list.totalCount).toBe(3);
    // By title: Larmövervakning … before Serviceavtal.
    expect(list.agreements.map((x: { code: string; objectCount: number }) => [x.code, x.objectCount])).toEqual([
      ['LARMOVERVAKNING-MANA', 0],
      ['LARMOVERVAKNING-MANA-2', 0],
      ['SERV-Q', 2],
    ]);
    expect((await call('GET', `/api/agreements/${id}`, admin)).json().agreement.objectCount).toBe(2);
    const search = (await call('GET', '/api/agreements?q=servicebesök', admin)).json();
    expect(search.agreements.map((x: { code: string }) => x.code)).toEqual(['SERV-Q']);
    expect((await call('GET', '/api/agreements?q=%25', admin)).json().totalCount).toBe(0);
    const paged = (await call('GET', '/api/agreements?limit=1&offset=1', admin)).json();
    expect(paged).toMatchObject({ totalCount: 3 });
    expect(paged.agreements.map((x: { code: string }) => x.code)).toEqual(['LARMOVERVAKNING-MANA-2']);
    expect((await call('GET', '/api/agreements?type=monitoring', admin)).json().totalCount).toBe(0);

    const refused = await call('DELETE', `/api/agreements/${id}`, admin);
    expect(refused.status).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'IN_USE', usedBy: { objects: 2 } });
    // Set inactive instead: the status filter then finds it.
    await call('PUT', '/api/agreements', admin, { agreement: full({ id, status: 'inactive' }) });
    expect(
      (await call('GET', '/api/agreements?status=inactive', admin)).json().agreements.map((x: { id: string }) => x.id),
    ).toEqual([id]);

    const free = (await call('GET', '/api/agreements?q=MANA-2', admin)).json().agreements[0].id;
    expect((await call('DELETE', `/api/agreements/${free}`, admin)).status).toBe(200);
    expect((await call('GET', `/api/agreements/${free}`, admin)).status).toBe(404);
  });

  it('needs agreements:read/edit/delete; another tenant’s or a malformed id is 404', async () => {
    expect((await call('GET', '/api/agreements', tech)).status).toBe(403);
    expect((await call('GET', `/api/agreements/${id}`, tech)).status).toBe(403);
    expect((await call('POST', '/api/agreements', tech, { title: 'X' })).status).toBe(403);
    expect((await call('PUT', '/api/agreements', tech, { agreement: full({ id }) })).status).toBe(403);
    expect((await call('DELETE', `/api/agreements/${id}`, tech)).status).toBe(403);
    expect((await call('PUT', `/api/agreements/${id}/pricing`, tech, { priceModel: 'fixed' })).status).toBe(403);
    expect((await call('POST', '/api/agreements/articles', tech, { agreementId: id, articleId: travel })).status).toBe(
      403,
    );

    expect((await call('GET', `/api/agreements/${id}`, adminB, undefined, b.host)).status).toBe(404);
    expect((await call('GET', `/api/agreements/${id}/pricing`, adminB, undefined, b.host)).status).toBe(404);
    expect((await call('GET', `/api/agreements/${id}/articles`, adminB, undefined, b.host)).status).toBe(404);
    expect((await call('PUT', '/api/agreements', adminB, { agreement: full({ id, code: 'Y' }) }, b.host)).status).toBe(
      404,
    );
    expect((await call('DELETE', `/api/agreements/${id}`, adminB, undefined, b.host)).status).toBe(404);
    expect(
      (await call('POST', '/api/agreements/articles', adminB, { agreementId: id, articleId: travel }, b.host)).status,
    ).toBe(404);
    expect((await call('GET', '/api/agreements', adminB, undefined, b.host)).json().totalCount).toBe(0);
    expect((await call('GET', '/api/agreements/not-a-uuid', admin)).status).toBe(404);
  });
});
