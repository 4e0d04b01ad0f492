import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { APP_MODULES } from '~/core/modules/app-modules';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

/**
 * Issue 29, item 1: the register, settings and sign-in calls declare their services' schemas, so
 * the router refuses a malformed body or query with 400 {code: VALIDATION_FAILED, fields} naming
 * the field, and /api/openapi.json shows the shape.
 */

let srv: TestServer;
let a: TestTenant;
let admin: string;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('inb');
  const tenant = (await getTenantBySlug(a.slug))!;
  // The module calls (on-call, sign-in settings) answer only with their module on.
  await withTenant(tenant, (trx) =>
    trx('app_modules')
      .insert([...APP_MODULES].map((id) => ({ id, enabled: true })))
      .onConflict('id')
      .merge(['enabled']),
  );
  admin = await signIn(a, a.adminEmail);
}, 60_000);
afterAll(() => srv.close());

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

/** The call answers 400 VALIDATION_FAILED naming `field`; the other fields it names are returned. */
async function refused(method: string, path: string, body: unknown, field: string, token: string | undefined = admin) {
  const res = await call(method, path, token, body);
  expect(res.status, `${method} ${path}`).toBe(400);
  const json = res.json<{ code: string; fields: Record<string, string[]> }>();
  expect(json.code).toBe('VALIDATION_FAILED');
  expect(Object.keys(json.fields), `${method} ${path}`).toContain(field);
  return json.fields;
}

describe('[api-input] malformed input is refused with the field named', () => {
  it('models, users and departments, app modules, access levels', async () => {
    await refused('POST', '/api/models', { model: { code: 5, name: 'Flex' } }, 'model.code');
    await refused(
      'PUT',
      '/api/models',
      { model: { id: randomUUID(), code: 'A', name: 'B', status: 'gone' } },
      'model.status',
    );
    await refused('GET', '/api/users?limit=0', undefined, 'limit');
    await refused('POST', '/api/instance/departments', { name: '' }, 'name');
    await refused('PUT', '/api/instance/appmodule', { appModuleId: 'no-such-module' }, 'appModuleId');
    await refused('POST', '/api/acls', { displayName: 'Lager', limit: 'everything' }, 'limit');
    await refused('PUT', '/api/acls', { displayName: 'Lager' }, 'id');
  });

  it('on-call shifts, invoice rules, time-report tags and settings', async () => {
    await refused('GET', '/api/timereports/oncall?from=2026-01-01&from=2026-02-01', undefined, 'from');
    await refused('POST', '/api/timereports/oncall', { userId: 'nobody', startTs: '', endTs: '' }, 'userId');
    await refused('PUT', '/api/instance/invoicerules', { timeRoundingMinutes: 7 }, 'timeRoundingMinutes');
    await refused('POST', '/api/timereports/conf/tags', { code: 'SEM', type: 'holiday' }, 'type');
    await refused('PUT', '/api/timereports/conf/settings', { lockDay: 32 }, 'lockDay');
  });

  it('suppliers: the entity’s fields are named plainly, wrapped in {supplier} or not', async () => {
    await refused('GET', '/api/suppliers?status=gone', undefined, 'status');
    await refused('GET', '/api/suppliers/id/propose?length=99', undefined, 'length');
    const wrapped = await refused('POST', '/api/suppliers', { supplier: { title: '' } }, 'title');
    expect(Object.keys(wrapped).some((k) => k.startsWith('supplier.'))).toBe(false);
    await refused('POST', '/api/suppliers', { title: '' }, 'title');
    await refused('PUT', `/api/suppliers/${randomUUID()}/contacts`, { contacts: 'none' }, 'contacts');
  });

  it('agreement types and their articles', async () => {
    await refused('GET', '/api/agreements?status=gone', undefined, 'status');
    await refused('POST', '/api/agreements', { agreement: { title: '' } }, 'title');
    // A new type without validFrom passes the boundary: the service makes it today.
    expect((await call('POST', '/api/agreements', admin, { title: 'Service kvartal' })).status).toBe(200);
    await refused('PUT', `/api/agreements/${randomUUID()}/pricing`, { priceModel: 'free' }, 'priceModel');
    await refused('POST', '/api/agreements/articles', { agreementId: randomUUID(), discountType: 'HALF' }, 'articleId');
  });

  it('customers: {customer} is required and its fields are named plainly', async () => {
    await refused('GET', '/api/customers?limit=9999', undefined, 'limit');
    await refused('POST', '/api/customers', { name: 'Ek AB' }, 'customer');
    const fields = await refused('POST', '/api/customers', { customer: { name: '' } }, 'name');
    expect(Object.keys(fields).some((k) => k.startsWith('customer.'))).toBe(false);
    await refused('PUT', '/api/customers', { customer: { name: 'Ek AB' } }, 'id');
    await refused('GET', '/api/customers/articlegroupdiscounts', undefined, 'customerId');
    await refused(
      'DELETE',
      `/api/customers/articlegroupdiscounts?customerId=${randomUUID()}`,
      undefined,
      'articleGroupId',
    );
    await refused('PUT', '/api/customers/articles', { customerId: randomUUID(), articleId: 'x' }, 'articleId');
    const c = randomUUID();
    await refused('PUT', `/api/customers/${c}/id`, { customerId: '' }, 'customerId');
    await refused('PUT', `/api/customers/${c}/conf`, { configuration: 'x' }, 'configuration');
    await refused('PUT', `/api/customers/${c}/contacts`, { contacts: [{ name: '' }] }, 'contacts.0.name');
    await refused('GET', `/api/customers/${c}/history?size=0`, undefined, 'size');
    await refused('DELETE', `/api/customers/${c}/articles?articleId=x`, undefined, 'articleId');
    await refused('POST', `/api/customers/${c}/zone/auth`, { name: 'Ek', email: 'nope' }, 'email');
    await refused('POST', `/api/customers/${c}/zone/auth`, { resend: 1 }, 'email');
    await refused('PUT', `/api/customers/${c}/zone/auth/${randomUUID()}`, { email: 'nope' }, 'email');
  });

  it('articles, groups, price lists and stock: wrapped entities are named plainly', async () => {
    await refused('GET', '/api/articles?status=gone', undefined, 'status');
    await refused('GET', '/api/articles/q?limit=0', undefined, 'limit');
    expect((await call('GET', '/api/articles/inactive?status=active', admin)).status).toBe(200);
    await refused('POST', '/api/articles', { title: 'Kabel' }, 'article');
    const fields = await refused('POST', '/api/articles', { article: { articleId: 'A 1' } }, 'articleId');
    expect(Object.keys(fields).some((k) => k.startsWith('article.'))).toBe(false);
    await refused('POST', '/api/articles/groups', { group: { title: 'has space' } }, 'title');
    await refused('PUT', '/api/articles/pricelists', { title: 'Bas' }, 'id');
    await refused('PUT', `/api/articles/pricelists/${randomUUID()}/details`, { groups: 'all' }, 'groups');
    await refused('POST', `/api/articles/${randomUUID()}/stock`, { amount: '1', type: 'steal' }, 'type');
    // Another tenant's or no article is 404 before its history's page is read (decision 020).
    expect((await call('GET', `/api/articles/${randomUUID()}/history?limit=0`, admin)).status).toBe(404);
  });

  it('recovery, registration, preferences and sign-in settings', async () => {
    await refused('POST', '/api/pw', { email: 'not an address' }, 'email', undefined);
    await refused('POST', '/api/pw/comp', { token: 'whatever', password: '' }, 'password', undefined);
    await refused('PATCH', '/api/users/conf', { startPage: 'nowhere' }, 'startPage');
    await refused('PUT', '/api/instance/oidc', { passwordLoginDisabled: 'yes' }, 'passwordLoginDisabled');
    await refused('POST', '/api/authenticate/mfa', { token: 'x' }, 'mfaCode', undefined);
  });

  it('a bad link token is still only the service’s TOKEN_EXPIRED, never a field error', async () => {
    for (const token of [42, 'x'.repeat(600), undefined]) {
      const res = await call('POST', '/api/pw/rt', undefined, { token });
      expect(res.status).toBe(400);
      expect(res.json()).toMatchObject({ code: 'TOKEN_EXPIRED' });
    }
  });
});

describe('[api-input] /api/openapi.json shows the newly declared inputs', () => {
  type Param = { name: string; in: string; schema: { type?: string; enum?: string[]; maximum?: number } };
  type Schema = { properties: Record<string, Schema & { enum?: string[]; maxLength?: number }>; required?: string[] };
  let doc: {
    paths: Record<
      string,
      Record<string, { parameters?: Param[]; requestBody?: { content: Record<string, { schema: Schema }> } }>
    >;
  };
  const body = (path: string, method: string) =>
    doc.paths[path]![method]!.requestBody!.content['application/json']!.schema;
  const query = (path: string, name: string) =>
    doc.paths[path]!.get!.parameters!.find((p) => p.name === name && p.in === 'query');

  beforeAll(async () => {
    doc = (await call('GET', '/api/openapi.json')).json();
  });

  it('documents bodies with their enums and limits', () => {
    expect(body('/models', 'post').properties.model!.required).toEqual(expect.arrayContaining(['code', 'name']));
    expect(body('/instance/departments', 'put').properties.name).toMatchObject({ type: 'string', maxLength: 100 });
    expect(body('/instance/appmodule', 'put').properties.appModuleId!.enum).toEqual(expect.arrayContaining(['oncall']));
    expect(body('/acls', 'post').properties).toHaveProperty('permissions');
    expect(body('/timereports/oncall', 'post').properties.comment).toMatchObject({
      anyOf: expect.arrayContaining([expect.objectContaining({ maxLength: 500 })]),
    });
    expect(body('/instance/invoicerules', 'put').properties).toHaveProperty('nextInvoiceNr');
    expect(body('/timereports/conf/settings', 'put').properties.mode!.enum).toBeDefined();
    expect(body('/suppliers', 'post').properties.supplier!.properties).toHaveProperty('title');
    expect(body('/suppliers/{id}/contacts', 'put').properties).not.toHaveProperty('id');
    expect(body('/agreements/articles', 'post').properties.discountType).toBeDefined();
    expect(body('/customers', 'post').properties.customer!.properties).toHaveProperty('addresses');
    expect(body('/customers/{id}/zone/auth', 'post').properties).toHaveProperty('resend');
    expect(body('/customers/{id}/contacts', 'put').properties).not.toHaveProperty('id');
    expect(body('/articles', 'post').properties.article!.properties).toHaveProperty('articleId');
    expect(body('/articles/{id}/stock', 'post').properties.type!.enum).toEqual(
      expect.arrayContaining(['add', 'remove']),
    );
    expect(body('/pw', 'post').properties).toHaveProperty('email');
    expect(body('/authenticate', 'post').properties).toHaveProperty('password');
    expect(body('/users/conf', 'patch').properties.startPage!.enum).toEqual(['workorders', 'dashboard']);
    expect(body('/instance/oidc', 'put').properties).toHaveProperty('microsoft');
  });

  it('documents queries as parameters', () => {
    expect(query('/users', 'limit')?.schema).toMatchObject({ maximum: 500 });
    expect(query('/suppliers', 'status')?.schema.enum).toEqual(['active', 'inactive', 'all']);
    expect(query('/customers/articlegroupdiscounts', 'customerId')).toBeDefined();
    expect(query('/agreements', 'status')).toBeDefined();
    expect(query('/models', 'q')).toBeDefined();
    expect(query('/articles', 'groupId')).toBeDefined();
    expect(query('/articles/{id}/history', 'limit')?.schema).toMatchObject({ maximum: 200 });
    expect(query('/timereports/oncall', 'from')).toBeDefined();
  });
});
