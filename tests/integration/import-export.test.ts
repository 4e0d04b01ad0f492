import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSession } from '~/core/auth/session.service';
import type { Auth } from '~/core/context';
import { withTenant } from '~/core/db/with-tenant';
import { isAppError } from '~/core/errors/app-error';
import { csvRecords } from '~/core/import-export/csv';
import { exportCsv, previewImport, runImport } from '~/core/import-export/import-export.service';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant } from '~/core/unit-of-work';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';

let srv: TestServer;
let t: TestTenant;
let tenant: Tenant;
let admin: Auth;
let tech: Auth;
let adminToken: string;

async function tokenOf(email: string): Promise<string> {
  const j = jsonBody({ email, password: PASSWORD });
  return (await request(srv.url, { method: 'POST', path: '/api/authenticate', host: t.host, ...j })).json()
    .token as string;
}

async function authOf(email: string): Promise<Auth> {
  const token = await tokenOf(email);
  return (await withTenant(tenant, (trx) =>
    validateSession(trx, token, new Date(), { idleMinutes: 30, absoluteHours: 12 }),
  ))!;
}

const as = <T>(auth: Auth, fn: Parameters<typeof inTenant<T>>[1]) => inTenant({ tenant, auth, lang: 'sv' }, fn);
const count = (table: string) => withTenant(tenant, async (trx) => Number((await trx(table).count({ n: '*' }))[0]!.n));

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return { code: e.code, status: e.status, details: e.details };
    throw e;
  }
  throw new Error('expected a failure');
}

beforeAll(async () => {
  srv = await startTestServer();
  t = await createTestTenant('imp');
  tenant = (await getTenantBySlug(t.slug))!;
  admin = await authOf(t.adminEmail);
  tech = await authOf(t.technicianEmail);
  adminToken = await tokenOf(t.adminEmail);
});
afterAll(() => srv.close());

const CUSTOMERS = [
  'customerId;name;type;email;street;postIndex;city;reverseVat',
  '20001;Brf Solrosen;company;styrelsen@solrosen.se;Solvägen 1;11122;Stockholm;nej',
  '20002;Anna Andersson;private;;;;;',
  '20001;Dubblett AB;company;;;;;', // same number as row 1
  '20003;;company;;;;;', // no name
  '20004;Felmejl AB;company;inte-en-adress;;;;ja',
  '20005;Gatulös AB;company;;;11122;Stockholm;', // an address needs its street
].join('\r\n');

describe('[import-export] customers', () => {
  it('checks every row without writing anything, with a preview and each bad row reason', async () => {
    const check = await as(admin, (ctx) => previewImport(ctx, 'customers', CUSTOMERS));
    expect(check).toMatchObject({ totalRows: 6, validRows: 2, invalidRows: 4 });
    expect(check.sample).toHaveLength(6);
    expect(check.issues).toEqual(
      expect.arrayContaining([
        { row: 3, field: 'customerId', code: 'DUPLICATE_CUSTOMER_ID' },
        { row: 4, field: 'name', code: 'ERROR_REQUIRED_FIELD' },
        { row: 5, field: 'email', code: 'ERROR_INVALID_EMAIL' },
        { row: 6, field: 'street', code: 'ERROR_REQUIRED_FIELD' },
      ]),
    );
    expect(await count('customers')).toBe(0);
    expect(await count('customer_addresses')).toBe(0);
    expect(await count('history')).toBe(0);
  });

  it('all or none imports nothing when a row is bad', async () => {
    const f = await failure(as(admin, (ctx) => runImport(ctx, 'customers', CUSTOMERS, 'all')));
    expect(f.code).toBe('IMPORT_HAS_ERRORS');
    expect(await count('customers')).toBe(0);
  });

  it('imports the good rows through the create call: fields, primary address, history', async () => {
    const done = await as(admin, (ctx) => runImport(ctx, 'customers', CUSTOMERS, 'valid'));
    expect(done).toMatchObject({ imported: 2, skipped: 4 });
    const rows = await withTenant(tenant, (trx) =>
      trx('customers').orderBy('customer_id').select('customer_id', 'name', 'type', 'reverse_vat'),
    );
    expect(rows).toEqual([
      { customer_id: '20001', name: 'Brf Solrosen', type: 'company', reverse_vat: false },
      { customer_id: '20002', name: 'Anna Andersson', type: 'private', reverse_vat: false },
    ]);
    const address = await withTenant(tenant, (trx) => trx('customer_addresses').select('street', 'city', 'is_primary'));
    expect(address).toEqual([{ street: 'Solvägen 1', city: 'Stockholm', is_primary: true }]);
    const history = await withTenant(tenant, (trx) => trx('history').where({ entity: 'customer' }).count({ n: '*' }));
    expect(Number(history[0]!.n)).toBe(2);
  });

  it('all or none imports every row of a clean file', async () => {
    const clean = 'customerId,name\n20010,Ett AB\n20011,Två AB\n';
    expect(await as(admin, (ctx) => runImport(ctx, 'customers', clean, 'all'))).toMatchObject({ imported: 2 });
    expect(await count('customers')).toBe(4);
  });

  it('exports with the list filters, and what it exports reads back', async () => {
    let csv = '';
    await as(admin, async (ctx) => {
      for await (const chunk of exportCsv(ctx, 'customers', { q: 'solros' })) csv += chunk;
    });
    const { headers, records } = csvRecords(csv);
    expect(headers).toContain('customerId');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ customerId: '20001', name: 'Brf Solrosen', city: 'Stockholm' });
  });

  it('refuses a file without its required columns, an empty one, and people without the permission', async () => {
    expect((await failure(as(admin, (ctx) => previewImport(ctx, 'customers', 'customerId\n1\n')))).code).toBe(
      'IMPORT_MISSING_COLUMNS',
    );
    expect((await failure(as(admin, (ctx) => previewImport(ctx, 'customers', '')))).code).toBe('IMPORT_FILE_EMPTY');
    const broken = await failure(as(admin, (ctx) => previewImport(ctx, 'customers', 'customerId;name\n1;"Brf\n')));
    expect([broken.code, broken.status]).toEqual(['IMPORT_FILE_INVALID', 400]);
    expect((await failure(as(tech, (ctx) => previewImport(ctx, 'customers', CUSTOMERS)))).status).toBe(403);
    expect((await failure(as(admin, (ctx) => previewImport(ctx, 'nothing', CUSTOMERS)))).status).toBe(404);
  });
});

describe('[import-export] objects and articles', () => {
  it('resolves model codes and customer numbers, and reports unknown ones', async () => {
    await withTenant(tenant, (trx) => trx('models').insert({ code: 'GF50', name: 'Galaxy Flex 50' }));
    const file = [
      'serialCode;model;customerNumber;location',
      'SN-1;GF50;20001;Entré',
      'SN-2;NOPE;;Källare',
      'SN-3;;99999;',
      'SN 4;;;',
    ].join('\n');
    const check = await as(admin, (ctx) => previewImport(ctx, 'objects', file));
    expect(check.issues).toEqual([
      { row: 2, field: 'model', code: 'ERROR_UNKNOWN_REFERENCE' },
      { row: 3, field: 'customerNumber', code: 'ERROR_UNKNOWN_REFERENCE' },
      { row: 4, field: 'bo.serialCode', code: 'ERROR_NO_SPACES' },
    ]);
    expect(await as(admin, (ctx) => runImport(ctx, 'objects', file, 'valid'))).toMatchObject({ imported: 1 });
    const bo = await withTenant(tenant, (trx) =>
      trx('business_objects as b')
        .join('models as m', 'm.id', 'b.model_id')
        .join('customers as c', 'c.id', 'b.customer_id')
        .first('b.serial_code', 'm.code', 'c.customer_id', 'b.location'),
    );
    expect(bo).toEqual({ serial_code: 'SN-1', code: 'GF50', customer_id: '20001', location: 'Entré' });
  });

  it('imports articles with their group and exports them', async () => {
    await withTenant(tenant, (trx) => trx('article_groups').insert({ title: 'LARM', display_name: 'Larm' }));
    const file = [
      'articleId;title;group;price;unit;houseWork',
      'A-100;Rörelsedetektor;LARM;495.50;st;nej',
      'A-101;Sirén;LARM;-5;st;',
      'A-102;Kabel;OKÄND;12;m;',
    ].join('\n');
    const done = await as(admin, (ctx) => runImport(ctx, 'articles', file, 'valid'));
    expect(done).toMatchObject({ imported: 1, skipped: 2 });
    expect(done.issues.map((i) => [i.row, i.code])).toEqual([
      [2, 'ERROR_NEGATIVE_AMOUNT'],
      [3, 'ERROR_UNKNOWN_REFERENCE'],
    ]);
    let csv = '';
    await as(admin, async (ctx) => {
      for await (const chunk of exportCsv(ctx, 'articles', {})) csv += chunk;
    });
    expect(csvRecords(csv).records).toEqual([
      expect.objectContaining({ articleId: 'A-100', title: 'Rörelsedetektor', group: 'LARM', price: '495.50' }),
    ]);
  });
});

describe('[import-export] the API', () => {
  const call = (method: string, path: string, body?: string, token = adminToken) =>
    request(srv.url, {
      method,
      path,
      host: t.host,
      body,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'text/csv' }) },
    });

  it('POST /api/import/{register} takes the CSV as the body: preview, then the good rows', async () => {
    const file = 'customerId;name\n30001;API Kund AB\n30001;Samma nummer AB\n';
    const preview = await call('POST', '/api/import/customers?mode=preview', file);
    expect(preview.status).toBe(200);
    expect(preview.json()).toMatchObject({
      totalRows: 2,
      validRows: 1,
      issues: [{ row: 2, field: 'customerId', code: 'DUPLICATE_CUSTOMER_ID' }],
    });
    const all = await call('POST', '/api/import/customers?mode=all', file);
    expect(all.status).toBe(400);
    expect(all.json()).toMatchObject({ code: 'IMPORT_HAS_ERRORS' });
    const valid = await call('POST', '/api/import/customers?mode=valid', file);
    expect(valid.json()).toMatchObject({ imported: 1, skipped: 1 });
    expect((await call('POST', '/api/import/nothing', file)).status).toBe(400);
  });

  it('GET /api/export/{register} answers the CSV for the filters; a technician gets 403', async () => {
    const res = await call('GET', '/api/export/customers?q=API%20Kund');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const { records } = csvRecords(res.text);
    expect(records.map((r) => r.customerId)).toEqual(['30001']);
    const techToken = await tokenOf(t.technicianEmail);
    expect((await call('GET', '/api/export/customers', undefined, techToken)).status).toBe(403);
  });
});
