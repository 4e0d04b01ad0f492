import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPasswordLoginAllowed } from '~/core/auth/oidc-settings.service';
import {
  callbackRedirect,
  clearDiscoveryCache,
  completeOidcSuccess,
  finishOidc,
  startOidc,
  type OidcOutcome,
} from '~/core/auth/oidc.service';
import { withTenant } from '~/core/db/with-tenant';
import { AppError } from '~/core/errors/app-error';
import { getTenantBySlug } from '~/tenants/registry';
import type { Tenant } from '~/core/tenancy/tenant';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';
import { startFakeOidcProvider, type FakeOidcProvider } from '~/tests/fakes/oidc-provider';

/**
 * Microsoft/Google sign-in against a real local OIDC provider (tests/fakes/oidc-provider.ts). The
 * test server has no React Router pages, so the /auth/:provider/* routes' work is driven through
 * the service functions they wrap, while the provider's side is plain HTTP: redirects followed by
 * hand, the dev login form filled in, cookies carried.
 */

let srv: TestServer;
let t: TestTenant;
let tenant: Tenant;
let idp: FakeOidcProvider;
let adminToken: string;
const ORIGIN = 'http://oidc-app.ordo.test';

const api = (method: string, path: string, body?: unknown, token?: string) => {
  const j = body === undefined ? { body: undefined, headers: {} } : jsonBody(body);
  return request(srv.url, {
    method,
    path,
    host: t.host,
    body: j.body,
    headers: { ...j.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
};

async function configure(settings: Record<string, unknown>) {
  const res = await api('PUT', '/api/instance/oidc', settings, adminToken);
  expect(res.status, res.text).toBe(200);
  return res.json();
}

const microsoft = (overrides: Record<string, unknown> = {}) => ({
  enabled: true,
  issuer: idp.issuer,
  clientId: idp.clientId,
  clientSecret: idp.clientSecret,
  allowedDomains: [],
  ...overrides,
});

/** A tiny cookie jar for the provider's origin. */
class Jar {
  private cookies = new Map<string, string>();
  store(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, i).trim(), pair!.slice(i + 1));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Plays the browser at the provider: follows redirects until one leaves the provider (the app's
 * callback URL), submitting the dev login form with `login` when it shows.
 */
async function loginAtProvider(authorizationUrl: string, login: string): Promise<string> {
  const jar = new Jar();
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let hop = 0; hop < 15; hop++) {
    if (!url.startsWith(idp.issuer)) return url;
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie: jar.header() } });
    jar.store(res);
    init = {};
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href;
      continue;
    }
    const html = await res.text();
    expect(res.status, html).toBe(200);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    expect(html).toContain('name="login"');
    url = new URL(action!.replace(/&amp;/g, '&'), url).href;
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'anything' }).toString(),
    };
  }
  throw new Error('the provider never redirected back');
}

/** The whole flow as the routes run it: start → provider login → callback. */
async function signInWith(login: string, tamper?: (callbackUrl: URL) => void): Promise<OidcOutcome> {
  const started = await startOidc({ tenant, provider: 'microsoft', origin: ORIGIN });
  const back = new URL(await loginAtProvider(started.url, login));
  expect(back.origin + back.pathname).toBe(`${ORIGIN}/auth/microsoft/callback`);
  tamper?.(back);
  return finishOidc({ tenant, provider: 'microsoft', currentUrl: back, stateCookie: started.cookie, ip: '127.0.0.1' });
}

async function lastFailure() {
  return withTenant(tenant, (trx) =>
    trx('auth_events').where({ event: 'signin.failure' }).orderBy('id', 'desc').first('email', 'data'),
  );
}

beforeAll(async () => {
  srv = await startTestServer();
  t = await createTestTenant('oidc');
  tenant = (await getTenantBySlug(t.slug))!;
  idp = await startFakeOidcProvider({ redirectUris: [`${ORIGIN}/auth/microsoft/callback`] });
  const res = await api('POST', '/api/authenticate', { email: t.adminEmail, password: PASSWORD });
  adminToken = res.json().token;
  clearDiscoveryCache();
});
afterAll(async () => {
  await idp?.close();
  await srv?.close();
});

describe('[oidc] settings', () => {
  it('answers the login screen: Microsoft off, then on; the secret is sealed and never returned', async () => {
    const before = await api('GET', `/api/authenticate/microsoft?hostname=${t.host}`);
    expect(before.status).toBe(200);
    expect(before.json()).toEqual({ oauthEnabled: false, passwordDisabled: false });
    expect((await api('POST', '/api/authenticate/microsoft', {})).status).toBe(404);

    const view = await configure({ microsoft: microsoft() });
    expect(view.clients).toEqual([
      expect.objectContaining({ provider: 'microsoft', enabled: true, hasSecret: true, clientId: idp.clientId }),
    ]);
    expect(JSON.stringify(view)).not.toContain(idp.clientSecret);
    const row = await withTenant(tenant, (trx) => trx('oidc_clients').where({ provider: 'microsoft' }).first());
    expect(row.client_secret_sealed).toMatch(/^v2\.[0-9a-f]{8}\./);
    expect(row.client_secret_sealed).not.toContain(idp.clientSecret);

    expect((await api('GET', '/api/authenticate/microsoft')).json()).toEqual({
      oauthEnabled: true,
      passwordDisabled: false,
    });
    expect((await api('GET', '/api/authenticate/google')).json()).toEqual({
      oauthEnabled: false,
      passwordDisabled: false,
    });
    const start = await api('POST', '/api/authenticate/microsoft', {});
    expect(start.status).toBe(200);
    expect(start.json()).toEqual({ url: '/auth/microsoft/start' });
    const read = await api('GET', '/api/instance/oidc', undefined, adminToken);
    expect(read.status).toBe(200);
    expect(read.text).not.toContain(idp.clientSecret);
  });

  it('needs instance:edit to change and settings:read to read', async () => {
    const tech = await api('POST', '/api/authenticate', { email: t.technicianEmail, password: PASSWORD });
    const techToken = tech.json().token;
    expect((await api('PUT', '/api/instance/oidc', { passwordLoginDisabled: true }, techToken)).status).toBe(403);
    expect((await api('PUT', '/api/instance/oidc', { passwordLoginDisabled: true })).status).toBe(401);
    expect((await api('GET', '/api/instance/oidc')).status).toBe(401);
  });

  it('fills in the Microsoft issuer from the directory id and the Google issuer by default', async () => {
    const dir = '11111111-2222-3333-4444-555555555555';
    const view = await configure({
      google: { enabled: false, clientId: 'g', clientSecret: 's', allowedDomains: ['@Example.COM'] },
    });
    expect(view.clients.find((c: { provider: string }) => c.provider === 'google')).toMatchObject({
      issuer: 'https://accounts.google.com',
      allowedDomains: ['example.com'],
    });
    const bad = await api('PUT', '/api/instance/oidc', { microsoft: microsoft({ issuer: 'ftp://x' }) }, adminToken);
    expect(bad.status).toBe(400);
    // A Microsoft client saved from the directory id, then restored (the secret kept when left out).
    const ms = await configure({ microsoft: { ...microsoft({ issuer: undefined, directoryTenantId: dir }) } });
    expect(ms.clients[1].issuer).toBe(`https://login.microsoftonline.com/${dir}/v2.0`);
    await configure({ microsoft: { ...microsoft(), clientSecret: undefined } });
  });
});

describe('[oidc] sign-in code flow', () => {
  beforeAll(() => configure({ microsoft: microsoft() }));

  it('signs an existing user in (e-mail matched case-insensitively) and hands the token to the success page', async () => {
    const outcome = await signInWith(t.adminEmail.toUpperCase());
    expect(outcome).toMatchObject({ status: 'success', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    if (outcome.status !== 'success') throw new Error('not signed in');

    const keepalive = await api('GET', '/api/keepalive', undefined, outcome.token);
    expect(keepalive.status).toBe(200);
    expect(keepalive.json().user.email).toBe(t.adminEmail);

    const next = callbackRedirect(tenant, 'microsoft', outcome);
    expect(next.location).toBe(`/microsoft/success?token=${outcome.token}`);
    const handoff = /__Host-ordo_oidc=([^;]+)/.exec(next.setCookie)![1];
    const done = await completeOidcSuccess({
      tenant,
      provider: 'microsoft',
      token: outcome.token,
      handoffCookie: handoff,
    });
    expect(done?.token).toBe(outcome.token);
    // The token alone (a crafted link in another browser) is not enough.
    expect(
      await completeOidcSuccess({ tenant, provider: 'microsoft', token: outcome.token, handoffCookie: null }),
    ).toBeNull();
    expect(
      await completeOidcSuccess({ tenant, provider: 'microsoft', token: adminToken, handoffCookie: handoff }),
    ).toBeNull();

    const audit = await withTenant(tenant, (trx) =>
      trx('auth_events').where({ event: 'signin.success' }).orderBy('id', 'desc').first('email'),
    );
    expect(audit.email).toBe(t.adminEmail.toLowerCase());
  });

  it('refuses an e-mail no user has, and creates no user', async () => {
    const outcome = await signInWith(`ghost@${t.slug}.se`);
    expect(outcome).toEqual({ status: 'rejected', reason: 'unknown_user' });
    expect(callbackRedirect(tenant, 'microsoft', outcome).location).toBe('/login?error=MS_AUTH');
    expect(callbackRedirect(tenant, 'google', outcome).location).toBe('/login?error=GOOGLE_AUTH');
    const users = await withTenant(tenant, (trx) => trx('users').whereRaw('email ilike ?', ['ghost@%']).count());
    expect(Number(users[0].count)).toBe(0);
    expect(await lastFailure()).toMatchObject({
      email: `ghost@${t.slug}.se`,
      data: { provider: 'microsoft', reason: 'unknown_user' },
    });
  });

  it('refuses a user whose domain is not allowed', async () => {
    await configure({ microsoft: microsoft({ allowedDomains: ['other.example'] }) });
    expect(await signInWith(t.adminEmail)).toEqual({ status: 'rejected', reason: 'domain_not_allowed' });
    await configure({ microsoft: microsoft({ allowedDomains: [`${t.slug}.se`] }) });
    expect((await signInWith(t.adminEmail)).status).toBe('success');
  });

  it('requires a verified e-mail; without the claim, Microsoft is trusted only for an allowed domain', async () => {
    idp.setAccount('unverified', { email: t.adminEmail, email_verified: false });
    idp.setAccount('noclaim', { email: t.adminEmail, email_verified: undefined });
    await configure({ microsoft: microsoft({ allowedDomains: [] }) });
    expect(await signInWith('unverified')).toEqual({ status: 'rejected', reason: 'email_not_verified' });
    expect(await signInWith('noclaim')).toEqual({ status: 'rejected', reason: 'email_not_verified' });
    await configure({ microsoft: microsoft({ allowedDomains: [`${t.slug}.se`] }) });
    expect((await signInWith('noclaim')).status).toBe('success');
    expect(await signInWith('unverified')).toEqual({ status: 'rejected', reason: 'email_not_verified' });
  });

  it('refuses a disabled provider, at the start and at the callback', async () => {
    const started = await startOidc({ tenant, provider: 'microsoft', origin: ORIGIN });
    const back = await loginAtProvider(started.url, t.adminEmail);
    await configure({ microsoft: microsoft({ enabled: false }) });
    await expect(startOidc({ tenant, provider: 'microsoft', origin: ORIGIN })).rejects.toMatchObject({
      reason: 'disabled',
    });
    expect(await finishOidc({ tenant, provider: 'microsoft', currentUrl: back, stateCookie: started.cookie })).toEqual({
      status: 'rejected',
      reason: 'disabled',
    });
    await expect(startOidc({ tenant, provider: 'google', origin: ORIGIN })).rejects.toMatchObject({
      reason: 'disabled',
    });
    await configure({ microsoft: microsoft() });
  });

  it('refuses a tampered state, a missing or forged cookie, and a replayed code', async () => {
    expect(await signInWith(t.adminEmail, (u) => u.searchParams.set('state', 'attacker-state'))).toEqual({
      status: 'rejected',
      reason: 'state_mismatch',
    });

    const started = await startOidc({ tenant, provider: 'microsoft', origin: ORIGIN });
    const back = await loginAtProvider(started.url, t.adminEmail);
    const finish = (cookie: string | null) =>
      finishOidc({ tenant, provider: 'microsoft', currentUrl: back, stateCookie: cookie });
    expect(await finish(null)).toEqual({ status: 'rejected', reason: 'state_missing' });
    expect(await finish(started.cookie.slice(0, -4) + 'AAAA')).toEqual({ status: 'rejected', reason: 'state_invalid' });
    const other = await startOidc({ tenant, provider: 'microsoft', origin: ORIGIN });
    expect(await finish(other.cookie)).toEqual({ status: 'rejected', reason: 'state_mismatch' });
    expect((await finish(started.cookie)).status).toBe('success');
    // An authorization code works once.
    expect(await finish(started.cookie)).toEqual({ status: 'rejected', reason: 'exchange_failed' });
  });

  it('sends a user with MFA to the code step instead of signing in', async () => {
    const user = await withTenant(tenant, (trx) => trx('users').where({ email: t.technicianEmail }).first('id'));
    await withTenant(tenant, (trx) =>
      trx('user_mfa').insert({ user_id: user.id, secret_sealed: 'v1.x.y.z', enabled_at: new Date() }),
    );
    const outcome = await signInWith(t.technicianEmail);
    expect(outcome).toMatchObject({ status: 'mfa', token: expect.any(String) });
    expect(callbackRedirect(tenant, 'microsoft', outcome).location).toMatch(/^\/login\?mfa=/);
    const sessions = await withTenant(tenant, (trx) => trx('sessions').where({ user_id: user.id }).count());
    expect(Number(sessions[0].count)).toBe(1); // only the password sign-in of the permissions test
  });
});

describe('[oidc] password login disabled', () => {
  it('refuses to disable passwords while no provider is enabled', async () => {
    await configure({ microsoft: microsoft({ enabled: false }) });
    const res = await api('PUT', '/api/instance/oidc', { passwordLoginDisabled: true }, adminToken);
    expect(res.status).toBe(409);
    expect(res.json().code).toBe('PASSWORD_LOGIN_NEEDS_SSO');
    await configure({ microsoft: microsoft() });
  });

  it('flags it to the login screen, and assertPasswordLoginAllowed answers 403 PASSWORD_LOGIN_DISABLED', async () => {
    await withTenant(tenant, (trx) => assertPasswordLoginAllowed(trx));
    await configure({ passwordLoginDisabled: true });
    expect((await api('GET', '/api/authenticate/microsoft')).json()).toEqual({
      oauthEnabled: true,
      passwordDisabled: true,
    });
    const err = await withTenant(tenant, (trx) => assertPasswordLoginAllowed(trx)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'PASSWORD_LOGIN_DISABLED', status: 403 });
    // Spec login outcome "redirect": a password sign-in is told where to go instead.
    const redirected = await api('POST', '/api/authenticate', { email: t.adminEmail, password: PASSWORD });
    expect(redirected.status).toBe(302);
    expect(redirected.json()).toEqual({ status: 'redirect', action: null, url: '/auth/microsoft/start' });
    await configure({ passwordLoginDisabled: false });
    expect((await api('POST', '/api/authenticate', { email: t.adminEmail, password: PASSWORD })).status).toBe(200);
  });
});
