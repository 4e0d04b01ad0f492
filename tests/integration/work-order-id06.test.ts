import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAuth } from '~/tests/helpers/auth';
import { withTenant } from '~/core/db/with-tenant';
import { parseCsv } from '~/core/import-export/csv';
import { updateCompanyDetails } from '~/core/instance/instance.service';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { registerDay } from '~/core/work-orders/id06.service';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'office' | 'tech' | 'lead' | 'adminB', string>;
const ref = {} as Record<'admin' | 'tech' | 'lead' | 'wo1' | 'wo2' | 'wo3' | 'woGone' | 'n1' | 'n2', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
const register = (body: unknown, token = tok.admin, host = a.host) => call('POST', '/api/wo/id06', token, body, host);
const rowsOf = (text: string) => parseCsv(text);

const enableId06 = (tenant: Tenant) =>
  withTenant(tenant, (trx) =>
    trx.raw(
      `insert into app_modules (id, enabled) values ('id06', true) on conflict (id) do update set enabled = true`,
    ),
  );

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('id06-a');
  b = await createTestTenant('id06-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  const tenantB = (await getTenantBySlug(b.slug))!;
  await enableId06(tenantA);
  await enableId06(tenantB);
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert({
      display_name: 'Site lead',
      permissions: ['workorders:read', 'workorders:id06'],
      work_order_limit: 'user',
    });
    await ensureUser(trx, {
      email: `office@${a.slug}.se`,
      name: 'Olga Kontor',
      password: PASSWORD,
      accessLevels: ['Office'],
    });
    await ensureUser(trx, {
      email: `lead@${a.slug}.se`,
      name: 'Lena Platschef',
      password: PASSWORD,
      accessLevels: ['Site lead'],
    });
    const id = async (email: string) => (await trx('users').where({ email }).first('id')).id as string;
    ref.admin = await id(a.adminEmail);
    ref.tech = await id(a.technicianEmail);
    ref.lead = await id(`lead@${a.slug}.se`);
    await trx('users').where({ id: ref.tech }).update({ personal_identity_number: '19800101-1234' });
    await trx('users')
      .where({ id: ref.admin })
      .update({ name: 'Anders Admin', personal_identity_number: '19750505-4321' });
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.office = await signIn(a, `office@${a.slug}.se`);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.lead = await signIn(a, `lead@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
  await inTenant(
    { tenant: tenantA, auth: adminAuth(ref.admin), lang: 'sv' },
    async (ctx) =>
      void (await updateCompanyDetails(ctx, { companyName: 'Nordlarm Bygg AB', companyNr: '556677-8899' })),
  );
  tenantA = (await getTenantBySlug(a.slug))!;

  const create = async (workOrder: Record<string, unknown>, token = tok.admin, host = a.host) => {
    const res = await call('POST', '/api/wo', token, { workOrder }, host);
    expect(res.status, res.text).toBe(200);
    return res.json().workOrder as { id: string; number: string };
  };
  const wo1 = await create({ title: 'Larm i trapphus', id06Code: 'SITE-7', assignees: [ref.tech, ref.lead] });
  const wo2 = await create({ title: 'Passage', id06Code: 'site-7', assignees: [ref.admin] });
  const wo3 = await create({ title: 'Annan plats', id06Code: 'OTHER-1', assignees: [ref.tech] });
  const gone = await create({ title: 'Borttagen', id06Code: 'GONE-1' });
  Object.assign(ref, { wo1: wo1.id, wo2: wo2.id, wo3: wo3.id, woGone: gone.id, n1: wo1.number, n2: wo2.number });
  expect((await call('DELETE', `/api/wo/${gone.id}`, tok.admin)).status).toBe(200);
  await create({ title: 'Bara i B', id06Code: 'ONLY-B' }, tok.adminB, b.host);
  await withTenant(tenantA, (trx) =>
    trx('work_order_time').insert([
      // 07:00–15:30 in Stockholm on 5 March (UTC+1)
      {
        work_order_id: ref.wo1,
        user_id: ref.tech,
        date: '2026-03-05',
        start_ts: '2026-03-05T06:00:00Z',
        end_ts: '2026-03-05T14:30:00Z',
        work_minutes: 510,
      },
      // hours without times, on the same site under another spelling of its code
      { work_order_id: ref.wo2, user_id: ref.admin, date: '2026-03-05', work_minutes: 120 },
      // another day, and another site
      {
        work_order_id: ref.wo1,
        user_id: ref.tech,
        date: '2026-03-06',
        start_ts: '2026-03-06T07:00:00Z',
        end_ts: '2026-03-06T09:00:00Z',
        work_minutes: 120,
      },
      { work_order_id: ref.wo3, user_id: ref.tech, date: '2026-03-05', work_minutes: 60 },
    ]),
  );
});
afterAll(() => srv.close());

const adminAuth = (userId: string) => testAuth(userId, ['instance:edit']);

const HEADER_SV = [
  'ID06-kod (byggarbetsplats)',
  'Datum',
  'Arbetsgivarens organisationsnummer',
  'Arbetsgivare',
  'Namn',
  'Personnummer',
  'Började',
  'Slutade',
  'Timmar',
  'Arbetsorder',
];

describe('[id06] the register day', () => {
  it.each([
    ['2026-03-05', '2026-03-05'],
    ['2026-03-05T22:59:00Z', '2026-03-05'],
    ['2026-03-05T23:30:00Z', '2026-03-06'],
    [Date.parse('2026-07-01T22:30:00Z'), '2026-07-02'],
    ['2026-02-30', null],
  ])('%s is the day %s in Stockholm', (timestamp, day) => {
    expect(registerDay(timestamp, 'Europe/Stockholm')).toBe(day);
  });
});

describe('[id06] POST /api/wo/id06', () => {
  it("downloads the site's register for the day: who, for which employer, from when to when", async () => {
    const res = await register({ id06Code: 'site-7', timestamp: Date.parse('2026-03-05T10:00:00+01:00') });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('filename="id06-SITE-7-2026-03-05.csv"');
    expect(res.text.startsWith('\uFEFF')).toBe(true);
    expect(res.text).toContain('\r\n');
    expect(rowsOf(res.text)).toEqual([
      HEADER_SV,
      [
        'SITE-7',
        '2026-03-05',
        '556677-8899',
        'Nordlarm Bygg AB',
        'Tess Tekniker',
        '19800101-1234',
        '07:00',
        '15:30',
        '8,50',
        ref.n1,
      ],
      [
        'SITE-7',
        '2026-03-05',
        '556677-8899',
        'Nordlarm Bygg AB',
        'Anders Admin',
        '19750505-4321',
        '',
        '',
        '2,00',
        ref.n2,
      ],
    ]);
  });

  it('reads the day of a plain date or of an instant in the tenant zone', async () => {
    const plain = rowsOf((await register({ id06Code: 'SITE-7', timestamp: '2026-03-05' })).text);
    expect(plain).toHaveLength(3);
    // 23:30 UTC on the 5th is 00:30 on the 6th in Stockholm
    const next = rowsOf((await register({ id06Code: 'SITE-7', timestamp: '2026-03-05T23:30:00Z' })).text);
    expect(next.slice(1).map((r) => [r[1], r[4], r[6], r[7]])).toEqual([
      ['2026-03-06', 'Tess Tekniker', '08:00', '10:00'],
    ]);
    // a day nobody worked there: the header alone
    const empty = await register({ id06Code: 'SITE-7', timestamp: '2026-03-09' });
    expect(empty.status).toBe(200);
    expect(rowsOf(empty.text)).toEqual([HEADER_SV]);
  });

  it("lists only the orders inside the user's work-order limit", async () => {
    const res = await register({ id06Code: 'SITE-7', timestamp: '2026-03-05' }, tok.lead);
    expect(res.status).toBe(200);
    expect(
      rowsOf(res.text)
        .slice(1)
        .map((r) => r[4]),
    ).toEqual(['Tess Tekniker']);
    // A code only on orders the user may not see is not found for them.
    expect((await register({ id06Code: 'OTHER-1', timestamp: '2026-03-05' }, tok.lead)).status).toBe(404);
  });

  it("answers 404 ID06_CODE_NOT_FOUND for an unknown code, another tenant's or a deleted order's", async () => {
    for (const id06Code of ['NOPE', 'ONLY-B', 'GONE-1']) {
      const res = await register({ id06Code, timestamp: '2026-03-05' });
      expect(res.status, id06Code).toBe(404);
      expect(res.json().code).toBe('ID06_CODE_NOT_FOUND');
    }
    expect((await register({ id06Code: 'ONLY-B', timestamp: '2026-03-05' }, tok.adminB, b.host)).status).toBe(200);
  });

  it('refuses a missing or bad code or timestamp with the field named (400)', async () => {
    const fields = async (body: unknown) => {
      const res = await register(body);
      expect(res.status).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
      return res.json().fields;
    };
    expect(await fields({})).toEqual({ id06Code: ['ERROR_REQUIRED_FIELD'], timestamp: ['ERROR_REQUIRED_FIELD'] });
    expect(await fields({ id06Code: '  ', timestamp: '2026-03-05' })).toEqual({ id06Code: ['ERROR_REQUIRED_FIELD'] });
    expect(await fields({ id06Code: 'x'.repeat(101), timestamp: '2026-03-05' })).toEqual({
      id06Code: ['ERROR_MAX_LENGTH'],
    });
    expect(await fields({ id06Code: 'SITE-7', timestamp: 'yesterday' })).toEqual({
      timestamp: ['ERROR_INVALID_VALUE'],
    });
    expect(await fields({ id06Code: 'SITE-7', timestamp: '2026-02-30' })).toEqual({
      timestamp: ['ERROR_INVALID_VALUE'],
    });
    expect(await fields({ id06Code: 'SITE-7', timestamp: true })).toEqual({ timestamp: ['ERROR_INVALID_VALUE'] });
  });

  it('needs workorders:id06 and the id06 module (403)', async () => {
    const body = { id06Code: 'SITE-7', timestamp: '2026-03-05' };
    expect((await register(body, tok.tech)).status).toBe(403);
    expect((await register(body, tok.office)).status).toBe(200);
    await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'id06' }).update({ enabled: false }));
    try {
      const res = await register(body, tok.office);
      expect(res.status).toBe(403);
      expect(res.json().code).toBe('WARNING_PERMISSION_DENIED');
    } finally {
      await enableId06(tenantA);
    }
  });
});
