import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { getTenantBySlug } from '~/tenants/registry';
import type { Tenant } from '~/core/tenancy/tenant';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let tenantB: Tenant;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('iso-a');
  b = await createTestTenant('iso-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tenantB = (await getTenantBySlug(b.slug))!;
});
afterAll(() => srv.close());

async function pool<T>(n: number, concurrency: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

describe('[platform] tenant isolation', () => {
  it('thousands of interleaved units of work on one pool only ever see their own schema', async () => {
    const results = await pool(4000, 40, async (i) => {
      const t = i % 2 === 0 ? tenantA : tenantB;
      const emails = await withTenant(t, async (trx) => {
        const rows = await trx('users').select('email');
        // Yield inside the transaction so other units interleave on the pool.
        await new Promise((r) => setImmediate(r));
        const again = await trx('users').select('email');
        return [...rows, ...again].map((r: { email: string }) => r.email);
      });
      return { slug: t.slug, emails };
    });
    for (const r of results) {
      expect(r.emails.length).toBeGreaterThan(0);
      for (const e of r.emails) expect(e.endsWith(`@${r.slug}.se`)).toBe(true);
    }
  });

  it('thousands of interleaved API requests for two tenants never see each other', async () => {
    const sign = async (t: TestTenant) => {
      const j = jsonBody({ email: t.adminEmail, password: PASSWORD });
      return (await request(srv.url, { method: 'POST', path: '/api/authenticate', host: t.host, ...j })).json()
        .token as string;
    };
    const tokens = { [a.slug]: await sign(a), [b.slug]: await sign(b) };
    const results = await pool(2000, 32, async (i) => {
      const t = i % 2 === 0 ? a : b;
      const res = await request(srv.url, {
        path: '/api/keepalive',
        host: t.host,
        headers: { authorization: `Bearer ${tokens[t.slug]}` },
      });
      return { expected: t.adminEmail, status: res.status, email: res.json().user?.email };
    });
    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.email).toBe(r.expected);
    }
  });

  it('leaves no search_path behind on pooled connections', async () => {
    // Touch every pooled connection inside tenant transactions, then ask every connection again.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => withTenant(i % 2 ? tenantA : tenantB, (trx) => trx.raw('select 1'))),
    );
    const paths = await Promise.all(
      Array.from({ length: 40 }, () =>
        srv.db.knex.transaction(async (trx) => {
          const { rows } = await trx.raw('show search_path');
          await trx.raw('select pg_sleep(0.01)');
          return rows[0].search_path as string;
        }),
      ),
    );
    for (const path of paths) {
      expect(path).not.toContain(tenantA.schemaName);
      expect(path).not.toContain(tenantB.schemaName);
    }
  });
});
