import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { parseCsv } from '~/core/import-export/csv';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

/**
 * Issue 36 item 2 over HTTP (decision 065): one call a statistics table and its file, with the
 * permission (`dashboard:read`), the input schema and another tenant's department.
 */
let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let admin: string;
let tech: string;
let departmentB: string;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('stat-a');
  b = await createTestTenant('stat-b');
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  const tenantB = (await getTenantBySlug(b.slug))!;
  departmentB = await withTenant(tenantB, async (trx) => {
    const [d] = await trx('departments').insert({ name: 'Bara B' }).returning('id');
    return d.id as string;
  });
});
afterAll(() => srv.close());

describe('[statistics] the API', () => {
  it('answers each table to a holder of dashboard:read, and refuses a technician without it', async () => {
    for (const path of [
      'by-type',
      'by-status',
      'by-technician',
      'by-customer',
      'revenue-by-month',
      'revenue-by-source',
      'hours',
      'first-time-fix',
      'agreement-revenue',
    ]) {
      const res = await call('GET', `/api/statistics/${path}?period=year`, admin);
      expect(res.status, path).toBe(200);
      expect(res.json()).toMatchObject({
        period: { period: 'year' },
        departmentId: null,
        table: { rows: expect.any(Array) },
      });
    }
    const refused = await call('GET', '/api/statistics/by-type', tech);
    expect(refused.status).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'WARNING_PERMISSION_DENIED' });
    expect((await call('GET', '/api/statistics/by-type/export?format=csv', tech)).status).toBe(403);
    expect((await call('GET', '/api/statistics/by-type', '')).status).toBe(401);
  });

  it("refuses a period that is not one, and answers another tenant's department as not found", async () => {
    const bad = await call('GET', '/api/statistics/hours?period=week', admin);
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ fields: { period: ['ERROR_INVALID_VALUE'] } });
    const foreign = await call('GET', `/api/statistics/hours?departmentId=${departmentB}`, admin);
    expect(foreign.status).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await call('GET', '/api/statistics/no-such/export?format=csv', admin)).status).toBe(400);
  });

  it('downloads a table as CSV and as XLSX', async () => {
    const csv = await call('GET', '/api/statistics/by-status/export?format=csv&period=2m', admin);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="statistics-byStatus-\d{4}-\d{2}-01_/);
    const rows = parseCsv(csv.text);
    expect(rows[0]).toEqual(['Status', 'Arbetsordrar']);
    expect(rows.at(-1)![0]).toBe('Totalt');
    const xlsx = await call('GET', '/api/statistics/by-status/export?format=xlsx', admin);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  });
});
