import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { validateSession } from '~/core/auth/session.service';
import { inTenant } from '~/core/unit-of-work';
import { changePassword, listMySessions, revokeMySession, updateProfile } from '~/core/users/profile.service';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';

let srv: TestServer;
let a: TestTenant;
let tenant: Tenant;
beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('prof');
  tenant = (await getTenantBySlug(a.slug))!;
});
afterAll(() => srv.close());

const policy = { idleMinutes: 30, absoluteHours: 12 };
async function signIn(email: string, password = PASSWORD) {
  const res = await request(srv.url, {
    method: 'POST',
    path: '/api/authenticate',
    host: a.host,
    ...jsonBody({ email, password }),
  });
  return res.json().token as string | undefined;
}
const as = async <T>(token: string, fn: Parameters<typeof inTenant<T>>[1]) => {
  const auth = await withTenant(tenant, (trx) => validateSession(trx, token, new Date(), policy));
  return inTenant({ tenant, auth, lang: 'sv' }, fn);
};

describe('[profile] own details, password and sessions', () => {
  it('saves name and phone, validating them', async () => {
    const token = (await signIn(a.technicianEmail))!;
    await expect(as(token, (ctx) => updateProfile(ctx, { name: ' ' }))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { name: ['ERROR_REQUIRED_FIELD'] } },
    });
    await as(token, (ctx) => updateProfile(ctx, { name: 'Tess Nyberg', phone: '070-1' }));
    const row = await withTenant(tenant, (trx) =>
      trx('users').where({ email: a.technicianEmail }).first('name', 'phone'),
    );
    expect(row).toEqual({ name: 'Tess Nyberg', phone: '070-1' });
  });

  it('changes the password only with the right current one, and ends the other sessions', async () => {
    const other = (await signIn(a.adminEmail))!;
    const current = (await signIn(a.adminEmail))!;
    await expect(
      as(current, (ctx) =>
        changePassword(ctx, { current: 'wrong', password: 'new-password-42', repeat: 'new-password-42' }),
      ),
    ).rejects.toMatchObject({ details: { fields: { current: ['ERROR_WRONG_CURRENT_PASSWORD'] } } });
    await expect(
      as(current, (ctx) => changePassword(ctx, { current: PASSWORD, password: 'new-password-42', repeat: 'other' })),
    ).rejects.toMatchObject({ details: { fields: { repeat: ['ERROR_PASSWORDS_DO_NOT_MATCH'] } } });
    await as(current, (ctx) =>
      changePassword(ctx, { current: PASSWORD, password: 'new-password-42', repeat: 'new-password-42' }),
    );
    const keep = await withTenant(tenant, (trx) => validateSession(trx, current, new Date(), policy));
    const gone = await withTenant(tenant, (trx) => validateSession(trx, other, new Date(), policy));
    expect(keep).not.toBeNull();
    expect(gone).toBeNull();
    expect(await signIn(a.adminEmail)).toBeUndefined();
    expect(await signIn(a.adminEmail, 'new-password-42')).toBeTruthy();
    const events = await withTenant(tenant, (trx) =>
      trx('auth_events').where({ event: 'password.changed' }).count({ n: '*' }),
    );
    expect(Number(events[0]!.n)).toBe(1);
  });

  it("lists one's own sessions and ends one; another user's session id is not found", async () => {
    const first = (await signIn(a.technicianEmail))!;
    const second = (await signIn(a.technicianEmail))!;
    const sessions = await as(second, (ctx) => listMySessions(ctx));
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const firstId = sessions.find((s) => !s.current)!.id;
    const adminToken = (await signIn(a.adminEmail, 'new-password-42'))!;
    await expect(as(adminToken, (ctx) => revokeMySession(ctx, firstId))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await as(second, (ctx) => revokeMySession(ctx, firstId));
    expect(await withTenant(tenant, (trx) => validateSession(trx, first, new Date(), policy))).toBeNull();
  });
});
