import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSession, validateSession } from '~/core/auth/session.service';
import { countQueries } from '~/core/db/query-counter';
import { tenantStatement, withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';

/**
 * Issue 11: the session check that precedes every request is one statement outside any transaction,
 * and what a person's access levels grant is kept per process by the levels' row versions. These
 * tests pin what that must never cost: an edited, removed or reassigned access level takes effect
 * on the next request, a revoked session at once, and another tenant's token is nobody.
 */
let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let tenantB: Tenant;
beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('sess');
  b = await createTestTenant('sess');
  tenantA = (await getTenantBySlug(a.slug))!;
  tenantB = (await getTenantBySlug(b.slug))!;
});
afterAll(() => srv.close());

const policy = { idleMinutes: 30, absoluteHours: 12 };
async function signIn(host: string, email: string) {
  const res = await request(srv.url, {
    method: 'POST',
    path: '/api/authenticate',
    host,
    ...jsonBody({ email, password: PASSWORD }),
  });
  return res.json().token as string;
}
const levelOf = (tenant: Tenant, email: string) =>
  withTenant(tenant, (trx) =>
    trx('user_access_levels as ual')
      .join('users as u', 'u.id', 'ual.user_id')
      .where('u.email', email)
      .first('ual.access_level_id as id'),
  ) as Promise<{ id: string }>;

describe('[platform] the session check before each request', () => {
  it('sees an edited access level on the very next request, as the transaction-bound check does', async () => {
    const token = await signIn(a.host, a.technicianEmail);
    const before = (await checkSession(tenantA, token, new Date(), policy))!;
    expect(before.perms.has('workorders:read')).toBe(true);
    const { id } = await levelOf(tenantA, a.technicianEmail);
    await withTenant(tenantA, (trx) =>
      trx.raw(`update access_levels set permissions = array_remove(permissions, 'workorders:read') where id = ?`, [id]),
    );
    const after = (await checkSession(tenantA, token, new Date(), policy))!;
    expect(after.perms.has('workorders:read')).toBe(false);
    const inTrx = (await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), policy)))!;
    expect([...inTrx.perms].sort()).toEqual([...after.perms].sort());
    // and the API agrees: the call that needs workorders:read is refused
    const res = await request(srv.url, {
      path: '/api/wo',
      host: a.host,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(403);
    await withTenant(tenantA, (trx) =>
      trx.raw(`update access_levels set permissions = array_append(permissions, 'workorders:read') where id = ?`, [id]),
    );
    expect((await checkSession(tenantA, token, new Date(), policy))!.perms.has('workorders:read')).toBe(true);
  });

  it('follows a change of access level and of the work-order limit', async () => {
    const token = await signIn(a.host, a.technicianEmail);
    const tech = (await checkSession(tenantA, token, new Date(), policy))!;
    const admin = (await checkSession(tenantA, await signIn(a.host, a.adminEmail), new Date(), policy))!;
    expect(tech.perms.size).toBeLessThan(admin.perms.size);
    const { id: adminLevel } = await levelOf(tenantA, a.adminEmail);
    await withTenant(tenantA, async (trx) => {
      const user = await trx('users').where({ email: a.technicianEmail }).first('id');
      await trx('user_access_levels').where({ user_id: user.id }).delete();
      await trx('user_access_levels').insert({ user_id: user.id, access_level_id: adminLevel });
    });
    const promoted = (await checkSession(tenantA, token, new Date(), policy))!;
    expect([...promoted.perms].sort()).toEqual([...admin.perms].sort());
    await withTenant(tenantA, (trx) =>
      trx('access_levels').where({ id: adminLevel }).update({ work_order_limit: 'user' }),
    );
    expect((await checkSession(tenantA, token, new Date(), policy))!.limit).toBe('user');
    await withTenant(tenantA, (trx) =>
      trx('access_levels').where({ id: adminLevel }).update({ work_order_limit: 'none' }),
    );
    expect((await checkSession(tenantA, token, new Date(), policy))!.limit).toBe('none');
  });

  it('is one statement, ends with revocation at once, and knows no other tenant’s token', async () => {
    const token = await signIn(b.host, b.adminEmail);
    await checkSession(tenantB, token, new Date(), policy); // grants read once
    const { result, counter } = countQueries(() => checkSession(tenantB, token, new Date(), policy));
    expect((await result)!.user.email).toBe(b.adminEmail);
    expect(counter.statements).toBe(1);
    expect(await checkSession(tenantA, token, new Date(), policy)).toBeNull();
    await withTenant(tenantB, (trx) => trx('sessions').update({ revoked_at: new Date() }));
    expect(await checkSession(tenantB, token, new Date(), policy)).toBeNull();
  });

  it('qualifies its tables with the tenant schema only, whatever the connection prepared before', async () => {
    await withTenant(tenantB, (trx) => trx('users').insert({ email: `extra@${b.slug}.se`, name: 'Extra' }));
    const count = { name: 'count-users', sql: (s: string) => `select count(*)::int as n from ${s}.users` };
    const expected = async (t: Tenant) =>
      Number((await withTenant(t, (trx) => trx('users').count<{ n: string }[]>('* as n')))[0]!.n);
    const [wantA, wantB] = [await expected(tenantA), await expected(tenantB)];
    expect(wantA).not.toBe(wantB);
    // alternate, so that pooled connections that prepared the statement for one tenant serve the other
    for (let i = 0; i < 6; i++) {
      const [t, want] = i % 2 ? [tenantB, wantB] : [tenantA, wantA];
      expect((await tenantStatement<{ n: number }>(t, count, []))[0]!.n).toBe(want);
    }
  });
});
