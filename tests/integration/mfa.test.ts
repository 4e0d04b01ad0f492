import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { validateSession } from '~/core/auth/session.service';
import { confirmMfaEnrollment, disableMfa, MFA_CHALLENGE, startMfaEnrollment } from '~/core/auth/mfa.service';
import { inTenant } from '~/core/unit-of-work';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';

let srv: TestServer;
let t: TestTenant;
let tenant: Tenant;
let secret: string;
let recoveryCodes: string[];
const policy = { idleMinutes: 30, absoluteHours: 12 };

const post = (path: string, body: unknown) =>
  request(srv.url, { method: 'POST', path, host: t.host, ...jsonBody(body) });
const as = async <T>(token: string, fn: Parameters<typeof inTenant<T>>[1]) => {
  const auth = await withTenant(tenant, (trx) => validateSession(trx, token, new Date(), policy));
  return inTenant({ tenant, auth, lang: 'sv' }, fn);
};

beforeAll(async () => {
  srv = await startTestServer();
  t = await createTestTenant('mfa');
  tenant = (await getTenantBySlug(t.slug))!;
  const token = (await post('/api/authenticate', { email: t.technicianEmail, password: PASSWORD })).json().token;
  const enrol = await as(token, (ctx) => startMfaEnrollment(ctx));
  expect(enrol.uri).toMatch(/^otpauth:\/\/totp\//);
  expect(enrol.qrSvg).toContain('<svg');
  secret = enrol.secret;
  await expect(as(token, (ctx) => confirmMfaEnrollment(ctx, { code: '000000' }))).rejects.toMatchObject({
    details: { fields: { code: ['TWO_FACTOR_CODE_INCORRECT'] } },
  });
  recoveryCodes = (await as(token, async (ctx) => confirmMfaEnrollment(ctx, { code: await generate({ secret }) })))
    .recoveryCodes;
  expect(recoveryCodes).toHaveLength(10);
});
afterAll(() => srv.close());

describe('[identity] MFA at sign-in', () => {
  it('asks for the code after the right password, refuses a wrong one with 400, then signs in', async () => {
    const first = await post('/api/authenticate', { email: t.technicianEmail, password: PASSWORD });
    expect(first.status).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ status: 'action', action: 'MFA', data: { provider: 'totp' }, user: null });
    const wrong = await post('/api/authenticate/mfa', { token: body.token, mfaCode: '123456' });
    expect(wrong.status).toBe(400);
    expect(wrong.json()).toEqual({ code: 'TWO_FACTOR_CODE_INCORRECT' });
    // The enrolment used this time step's code; the next step's code (within the accepted drift) is fresh.
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const ok = await post('/api/authenticate/mfa', { token: body.token, mfaCode: code });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'success', user: { email: t.technicianEmail } });
    // The challenge is spent, and the same code does not work twice.
    expect((await post('/api/authenticate/mfa', { token: body.token, mfaCode: code })).status).toBe(409);
    const again = (await post('/api/authenticate', { email: t.technicianEmail, password: PASSWORD })).json();
    expect((await post('/api/authenticate/mfa', { token: again.token, mfaCode: code })).json()).toEqual({
      code: 'TWO_FACTOR_CODE_INCORRECT',
    });
  });

  it('takes each recovery code once', async () => {
    const one = (await post('/api/authenticate', { email: t.technicianEmail, password: PASSWORD })).json();
    expect(
      (await post('/api/authenticate/mfa', { token: one.token, mfaCode: recoveryCodes[0]!.toLowerCase() })).status,
    ).toBe(200);
    const two = (await post('/api/authenticate', { email: t.technicianEmail, password: PASSWORD })).json();
    expect((await post('/api/authenticate/mfa', { token: two.token, mfaCode: recoveryCodes[0] })).status).toBe(400);
  });

  it('ends the challenge after too many wrong codes with 409 MFA_AUTHENTICATION_FAILED', async () => {
    const c = (await post('/api/authenticate', { email: t.technicianEmail, password: PASSWORD })).json();
    for (let i = 0; i < MFA_CHALLENGE.maxAttempts; i++)
      expect((await post('/api/authenticate/mfa', { token: c.token, mfaCode: '000000' })).status).toBe(400);
    const over = await post('/api/authenticate/mfa', { token: c.token, mfaCode: recoveryCodes[1] });
    expect(over.status).toBe(409);
    expect(over.json()).toEqual({ code: 'MFA_AUTHENTICATION_FAILED' });
    const events = await withTenant(tenant, (trx) =>
      trx('auth_events').where({ event: 'mfa.failure' }).count({ n: '*' }),
    );
    expect(Number(events[0]!.n)).toBeGreaterThanOrEqual(MFA_CHALLENGE.maxAttempts);
  });

  it('turns MFA off only with the current password; then the password alone signs in', async () => {
    const c = (await post('/api/authenticate', { email: t.technicianEmail, password: PASSWORD })).json();
    const session = (await post('/api/authenticate/mfa', { token: c.token, mfaCode: recoveryCodes[2] })).json().token;
    await expect(as(session, (ctx) => disableMfa(ctx, { password: 'wrong' }))).rejects.toMatchObject({
      details: { fields: { password: ['ERROR_WRONG_CURRENT_PASSWORD'] } },
    });
    await as(session, (ctx) => disableMfa(ctx, { password: PASSWORD }));
    expect((await post('/api/authenticate', { email: t.technicianEmail, password: PASSWORD })).json().status).toBe(
      'success',
    );
  });
});

describe('[identity] a tenant that requires MFA', () => {
  it('marks users of the chosen access levels who have not set it up; everyone else goes on', async () => {
    const { updateMfaPolicy, getMfaPolicy } = await import('~/core/auth/mfa-policy.service');
    const admin = (await post('/api/authenticate', { email: t.adminEmail, password: PASSWORD })).json().token;
    const policy0 = await as(admin, (ctx) => getMfaPolicy(ctx));
    const technician = policy0.levels.find((l) => l.displayName === 'Technician')!.id;
    await expect(
      as(admin, (ctx) => updateMfaPolicy(ctx, { mfaRequired: 'levels', mfaAccessLevelIds: [] })),
    ).rejects.toMatchObject({
      details: { fields: { mfaAccessLevelIds: ['ERROR_REQUIRED_FIELD'] } },
    });
    await as(admin, (ctx) => updateMfaPolicy(ctx, { mfaRequired: 'levels', mfaAccessLevelIds: [technician] }));
    const must = async (email: string) => {
      const tok = (await post('/api/authenticate', { email, password: PASSWORD })).json().token;
      return (await withTenant(tenant, (trx) => validateSession(trx, tok, new Date(), policy)))!.mustEnrollMfa;
    };
    expect(await must(t.technicianEmail)).toBe(true);
    expect(await must(t.adminEmail)).toBe(false);
    await as(admin, (ctx) => updateMfaPolicy(ctx, { mfaRequired: 'all' }));
    expect(await must(t.adminEmail)).toBe(true);
    await as(admin, (ctx) => updateMfaPolicy(ctx, { mfaRequired: 'off' }));
    expect(await must(t.technicianEmail)).toBe(false);
  });
});

describe('[identity] optional sign-in features are app modules', () => {
  it('without the mfa module nobody can start enrolment, and the tenant rule does not apply', async () => {
    const { updateMfaPolicy } = await import('~/core/auth/mfa-policy.service');
    const admin = (await post('/api/authenticate', { email: t.adminEmail, password: PASSWORD })).json().token;
    await as(admin, (ctx) => updateMfaPolicy(ctx, { mfaRequired: 'all' }));
    await withTenant(tenant, (trx) => trx('app_modules').where({ id: 'mfa' }).update({ enabled: false }));
    try {
      const fresh = (await post('/api/authenticate', { email: t.adminEmail, password: PASSWORD })).json().token;
      const auth = await withTenant(tenant, (trx) => validateSession(trx, fresh, new Date(), policy));
      expect(auth!.mustEnrollMfa).toBe(false);
      // (The admin is user type super, which bypasses module gating; the technician is not.)
      const tech = (await post('/api/authenticate', { email: t.technicianEmail, password: PASSWORD })).json().token;
      await expect(as(tech, (ctx) => startMfaEnrollment(ctx))).rejects.toMatchObject({
        code: 'WARNING_PERMISSION_DENIED',
      });
    } finally {
      await withTenant(tenant, (trx) => trx('app_modules').where({ id: 'mfa' }).update({ enabled: true }));
      await as(admin, (ctx) => updateMfaPolicy(ctx, { mfaRequired: 'off' }));
    }
  });
});
