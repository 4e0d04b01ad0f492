import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, tenantDate } from '~/core/calendar/dates';
import { withTenant } from '~/core/db/with-tenant';
import { bucketOf, LOAD_BUCKETS_MS, readLoadTimes } from '~/core/instance/load-metrics';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

/** Issue 36 item 6: GET /instance, PATCH /instance/conf and POST /instance/m over HTTP, with their permissions. */
let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let admin: string;
let tech: string;
let adminB: string;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
const callB = testApi(() => ({ url: srv.url, host: b.host })).call;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('inst-a');
  b = await createTestTenant('inst-b');
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

describe('[instance] GET /instance and PATCH /instance/conf', () => {
  it("answers the spec's Instance to any signed-in user, and 401 without a session", async () => {
    const res = await call('GET', '/api/instance', tech);
    expect(res.status).toBe(200);
    const body = res.json() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body.configuration).toEqual({
      country: 'SE',
      languageKey: 'se',
      dateFormat: 'YYYY-MM-DD',
      currency: { symbol: 'kr' },
      logoUrl: null,
    });
    expect(typeof body.displayName).toBe('string');
    expect(body.workOrderConfiguration.statuses.filter((s: { default: boolean }) => s.default)).toHaveLength(1);
    expect(body.workOrderConfiguration.workTypes.length).toBeGreaterThan(0);
    expect(Array.isArray(body.appModules)).toBe(true);
    expect((await call('GET', '/api/instance', '')).status).toBe(401);
  });

  it('saves the fields given and keeps the rest; one history row a save; only instance:edit', async () => {
    const res = await call('PATCH', '/api/instance/conf', admin, {
      displayName: 'Nordlås AB',
      currency: { symbol: '€' },
      logoUrl: 'https://example.com/logo.png',
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      displayName: 'Nordlås AB',
      configuration: {
        country: 'SE',
        languageKey: 'se',
        dateFormat: 'YYYY-MM-DD',
        currency: { symbol: '€' },
        logoUrl: 'https://example.com/logo.png',
      },
    });
    const second = await call('PATCH', '/api/instance/conf', admin, { dateFormat: 'DD.MM.YYYY', logoUrl: null });
    expect(second.json()).toMatchObject({
      displayName: 'Nordlås AB',
      configuration: { dateFormat: 'DD.MM.YYYY', currency: { symbol: '€' }, logoUrl: null },
    });
    expect((await call('GET', '/api/instance', tech)).json()).toMatchObject({ displayName: 'Nordlås AB' });
    const tenant = (await getTenantBySlug(a.slug))!;
    expect(await withTenant(tenant, (trx) => trx('history').where({ entity: 'instance' }).count('* as n'))).toEqual([
      { n: '2' },
    ]);
    // the other tenant is untouched
    expect((await callB('GET', '/api/instance', adminB)).json()).toMatchObject({
      configuration: { currency: { symbol: 'kr' }, dateFormat: 'YYYY-MM-DD' },
    });
    expect((await call('PATCH', '/api/instance/conf', tech, { displayName: 'X' })).status).toBe(403);
  });

  it('refuses what the spec does not allow, field by field', async () => {
    for (const [body, field] of [
      [{ dateFormat: 'D/M/Y' }, 'dateFormat'],
      [{ country: 'XX' }, 'country'],
      [{ currency: { symbol: 'kronor' } }, 'currencySymbol'],
      [{ logoUrl: 'ftp://x/logo.png' }, 'logoUrl'],
      [{ displayName: ' ' }, 'displayName'],
    ] as const) {
      const res = await call('PATCH', '/api/instance/conf', admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys((res.json() as { fields: Record<string, string[]> }).fields)).toContain(field);
    }
    expect((await call('PATCH', '/api/instance/conf', admin, { colour: 'red' })).status).toBe(400);
  });
});

describe('[instance] POST /instance/m: load times kept a day and page, p50/p95 for operators', () => {
  it('counts each report in its bucket, refuses nonsense and anonymous reports, and reads percentiles in SQL', async () => {
    const post = (body: unknown, token = tech) => call('POST', '/api/instance/m', token, body);
    // 20 loads of the dashboard: 18 fast (≤ 200 ms), 2 slow (1.2 s): p50 ≤ 200, p95 ≤ 1500
    for (let i = 0; i < 18; i++) expect((await post({ name: 'routes/dashboard', timeMs: 120 + i * 4 })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await post({ name: 'routes/dashboard', timeMs: 1200 })).status).toBe(200);
    expect((await post({ name: 'routes/work-orders.$id', timeMs: '40' })).status).toBe(200);
    expect((await post({ name: '../etc', timeMs: 10 })).status).toBe(400);
    expect((await post({ name: 'routes/x', timeMs: -1 })).status).toBe(400);
    expect((await post({ name: 'routes/x', timeMs: 600_001 })).status).toBe(400);
    expect((await post({ name: 'routes/x', timeMs: 10 }, '')).status).toBe(401);

    const tenant = (await getTenantBySlug(a.slug))!;
    const since = addDays(tenantDate(new Date(), 'SE'), -6);
    const times = await withTenant(tenant, (trx) => readLoadTimes(trx, since));
    expect(times).toEqual([
      { name: 'routes/dashboard', count: 20, p50Ms: 200, p95Ms: 1500 },
      { name: 'routes/work-orders.$id', count: 1, p50Ms: 50, p95Ms: 50 },
    ]);
    // a histogram, not a row a report
    const rows = await withTenant(tenant, (trx) => trx('page_load_metrics').count('* as n'));
    expect(Number(rows[0]!.n)).toBeLessThanOrEqual(5);
  });

  it('keeps at most 100 pages a day and forgets days older than 30', async () => {
    const tenant = (await getTenantBySlug(b.slug))!;
    const today = tenantDate(new Date(), 'SE');
    await withTenant(tenant, async (trx) => {
      await trx('page_load_metrics').insert([
        { day: addDays(today, -31), name: 'old', bucket: 0, count: 3 },
        ...Array.from({ length: 100 }, (_, i) => ({ day: today, name: `p${i}`, bucket: 0, count: 1 })),
      ]);
    });
    expect((await callB('POST', '/api/instance/m', adminB, { name: 'p101', timeMs: 10 })).status).toBe(200);
    expect((await callB('POST', '/api/instance/m', adminB, { name: 'p7', timeMs: 10 })).status).toBe(200);
    const rows = await withTenant(tenant, (trx) =>
      trx('page_load_metrics').whereIn('name', ['old', 'p101', 'p7']).orderBy('name').select('name', 'count'),
    );
    expect(rows).toEqual([{ name: 'p7', count: 2 }]);
  });

  it('puts a time in the bucket whose upper edge holds it', () => {
    expect([0, 50, 51, 1000, 1001, 600_000].map(bucketOf).map((b) => LOAD_BUCKETS_MS[b])).toEqual([
      50, 50, 100, 1000, 1500, 600_000,
    ]);
  });
});
