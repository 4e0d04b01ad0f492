/**
 * Issue 13 item 8, the proposal configuration through the API: the switches, terms and numbering;
 * standard texts, custom fields and price templates saved as whole lists that keep their ids; a
 * proposal's custom-field values checked against the fields, required ones blocking acceptance;
 * who may change it, and another tenant's lists are its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ref = {} as Record<'customer' | 'article' | 'inactive', string>;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('pconf-a');
  b = await createTestTenant('pconf-b');
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  ref.customer = (
    await call('POST', '/api/customers', tok.admin, { customer: { customerId: '4001', name: 'Brf Linden' } })
  ).json().id;
  const article = async (articleId: string, title: string) => {
    const res = (
      await call('POST', '/api/articles', tok.admin, { article: { articleId, title, unit: 'st', price: '100.00' } })
    ).json();
    return (res.article ?? res).id as string;
  };
  ref.article = await article('5001', 'Larmpaket');
  ref.inactive = await article('5002', 'Utgången');
  await withTenant((await getTenantBySlug(a.slug))!, async (trx) => {
    await trx('articles').where({ id: ref.inactive }).update({ status: 'inactive' });
  });
});
afterAll(() => srv?.close());

const conf = async (token = tok.admin, host?: string) => {
  const res = await call('GET', '/api/proposals/conf', token, undefined, host);
  expect(res.status, res.text).toBe(200);
  return res.json() as Json;
};
const put = (body: Json, token = tok.admin) => call('PUT', '/api/proposals/conf', token, body);

describe('[proposal settings] switches, terms and numbering', () => {
  it('changes switches and terms, and the next number, which may not fall to one in use', async () => {
    const before = await conf();
    expect(before).toMatchObject({ summaryRows: true, monthlyPrice: false, nextSequence: 1, salesOrderNextNumber: 1 });
    const res = await put({ monthlyPrice: true, generalTerms: 'Gäller 30 dagar.', nextSequence: 100 });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({ monthlyPrice: true, generalTerms: 'Gäller 30 dagar.', nextSequence: 100 });
    const p = (await call('POST', '/api/proposals', tok.admin, { customerId: ref.customer })).json();
    expect(p.sequenceNumber).toBe(100);
    expect((await call('GET', `/api/proposals/${p.id}`, tok.admin)).json().generalTerms).toBe('Gäller 30 dagar.');
    // 100 is taken now: 100 and below are refused, and nothing of the request is written
    const refused = await put({ nextSequence: 100, paymentTerms: 'Ändrat' });
    expect(refused.status).toBe(400);
    expect(refused.json().fields).toEqual({ nextSequence: ['PROPOSAL_NUMBER_IN_USE'] });
    expect(await conf()).toMatchObject({ nextSequence: 101, paymentTerms: '' });
  });

  it('only instance:edit changes it; everyone with the CRM rights reads it', async () => {
    expect((await put({ monthlyPrice: false }, tok.tech)).status).toBe(403);
    expect((await call('GET', '/api/proposals/conf', tok.tech)).status).toBe(403);
    expect((await put({ nextSequence: 'x' })).json().fields).toMatchObject({ nextSequence: expect.any(Array) });
  });
});

describe('[proposal settings] lists', () => {
  it('saves texts, fields and templates whole, keeping ids on rename and dropping the unlisted', async () => {
    const res = await put({
      standardTexts: [
        { title: 'Garanti', body: 'Två års garanti.' },
        { title: 'Service', body: 'Årlig service ingår.' },
      ],
      customFields: [
        { label: 'Fastighetsbeteckning', type: 'text', required: true },
        { label: 'Antal dörrar', type: 'number' },
      ],
      priceTemplates: [
        {
          title: 'Larmpaket',
          articleId: ref.article,
          tiers: [
            { label: 'Bas', price: '2800' },
            { label: 'Standard', price: 4400 },
            { label: 'Premium', price: '6000,00' },
          ],
        },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const saved = res.json();
    expect(saved.standardTexts.map((t: Json) => t.title)).toEqual(['Garanti', 'Service']);
    expect(saved.customFields).toMatchObject([
      { label: 'Fastighetsbeteckning', type: 'text', required: true },
      { label: 'Antal dörrar', type: 'number', required: false },
    ]);
    expect(saved.priceTemplates[0]).toMatchObject({
      articleId: ref.article,
      articleTitle: 'Larmpaket',
      monthly: false,
      tiers: [
        { label: 'Bas', price: '2800.00' },
        { label: 'Standard', price: '4400.00' },
        { label: 'Premium', price: '6000.00' },
      ],
    });
    // rename the first text, drop the second, move a field: ids stay
    const [garanti] = saved.standardTexts;
    const [fastighet, dorrar] = saved.customFields;
    const again = (
      await put({
        standardTexts: [{ id: garanti.id, title: 'Garantitid', body: garanti.body }],
        customFields: [dorrar, fastighet],
      })
    ).json();
    expect(again.standardTexts).toEqual([{ id: garanti.id, title: 'Garantitid', body: 'Två års garanti.' }]);
    expect(again.customFields.map((f: Json) => f.id)).toEqual([dorrar.id, fastighet.id]);
    expect(again.priceTemplates).toHaveLength(1);
    // the other tenant has none of it
    expect(await conf(tok.adminB, b.host)).toMatchObject({ standardTexts: [], customFields: [], priceTemplates: [] });
  });

  it('refuses a template with an inactive article, bad tiers, or an unknown id, writing nothing', async () => {
    const before = await conf();
    const inactive = await put({
      standardTexts: [],
      priceTemplates: [{ title: 'Gammal', articleId: ref.inactive, tiers: [{ label: 'A', price: '1' }] }],
    });
    expect(inactive.status).toBe(400);
    expect(inactive.json().fields).toEqual({ 'priceTemplates.0.articleId': ['NOT_FOUND'] });
    const tiers = await put({ priceTemplates: [{ title: 'Tom', articleId: ref.article, tiers: [] }] });
    expect(Object.keys(tiers.json().fields)).toEqual(['priceTemplates.0.tiers']);
    const price = await put({
      priceTemplates: [{ title: 'Neg', articleId: ref.article, tiers: [{ label: 'A', price: '-5' }] }],
    });
    expect(price.json().fields).toEqual({ 'priceTemplates.0.tiers.0.price': ['ERROR_NEGATIVE_AMOUNT'] });
    const unknown = await put({
      standardTexts: [{ id: '00000000-0000-4000-8000-000000000000', title: 'X', body: 'Y' }],
    });
    expect(unknown.json().fields).toEqual({ 'standardTexts.0': ['NOT_FOUND'] });
    expect(await conf()).toEqual(before);
  });
});

describe('[proposal settings] custom-field values', () => {
  it('checks values against the fields; a required one left empty blocks accepting until filled in', async () => {
    const { customFields } = await conf();
    const required = customFields.find((f: Json) => f.required);
    const number = customFields.find((f: Json) => f.type === 'number');
    const p = (await call('POST', '/api/proposals', tok.admin, { customerId: ref.customer })).json();
    const current = (await call('GET', `/api/proposals/${p.id}`, tok.admin)).json();
    const save = (customData: Json, version: number) =>
      call('PUT', '/api/proposals', tok.admin, { proposal: { id: p.id, version, customData } });

    const unknown = await save({ 'not-a-field': 'x' }, current.version);
    expect(unknown.status).toBe(400);
    expect(unknown.json().fields).toEqual({ 'customData.not-a-field': ['NOT_FOUND'] });
    const bad = await save({ [number.id]: 'många' }, current.version);
    expect(bad.json().fields).toEqual({ [`customData.${number.id}`]: ['ERROR_INVALID_VALUE'] });

    const partial = await save({ [number.id]: '4', [required.id]: '  ' }, current.version);
    expect(partial.status, partial.text).toBe(200);
    expect(partial.json().customData).toEqual({ [number.id]: '4' });
    const blocked = await call('POST', '/api/proposals/close', tok.admin, { proposalId: p.id, status: 'accepted' });
    expect(blocked.status).toBe(409);
    expect(blocked.json().code).toBe('PROPOSAL_REQUIRED_FIELDS_MISSING');
    expect((await call('GET', `/api/proposals/${p.id}`, tok.admin)).json().status).toBe('active');

    const filled = await save({ [number.id]: '4', [required.id]: 'Linden 1:2' }, partial.json().version);
    expect(filled.status, filled.text).toBe(200);
    const accepted = await call('POST', '/api/proposals/close', tok.admin, { proposalId: p.id, status: 'accepted' });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json().message).toBe('PROPOSAL_SUCCESSFULLY_ACCEPTED');
  });
});
