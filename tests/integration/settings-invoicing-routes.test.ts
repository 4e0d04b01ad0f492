import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import * as erpCallbackRoute from '~/app/routes/settings.erp.callback';
import * as erpRoute from '~/app/routes/settings.erp';
import * as invoicingRoute from '~/app/routes/settings.invoicing';
import * as settingsRoute from '~/app/routes/settings';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import type { Tenant } from '~/core/tenancy/tenant';
import { sessionPolicy } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { consentAsBrowser, startFortnoxFake, type FortnoxFake } from '~/tests/fakes/fortnox';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * The routes of Settings → invoicing and Settings → ERP (issue 14 item 6) run as React Router runs
 * them, after the i18n middleware: who may open them, the invoicing form's save and its field
 * errors, and the ERP page's OAuth round trip against the local Fortnox fake — the action sends the
 * browser to the vendor with this host's callback, the callback route exchanges the code and goes
 * back to /settings/erp?connected=1, or shows why not — then test, accounts and disconnect.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let fake: FortnoxFake;
let a: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'office' | 'tech', string>;
const ref = {} as Record<'labour' | 'old' | 'install', string>;

const { signIn } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  fake = await startFortnoxFake();
  await loadRegistry({
    fortnox: { clientId: fake.clientId, clientSecret: fake.clientSecret, authBaseUrl: fake.url, apiBaseUrl: fake.url },
  });
  a = await createTestTenant('invset');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await ensureUser(trx, {
      email: `office@${a.slug}.se`,
      name: 'Olle Kontor',
      password: PASSWORD,
      accessLevels: ['Office'],
    });
    const arts = await trx('articles')
      .insert([
        { article_id: 'ARB', title: 'Arbete', price: '650.00', unit: 'h' },
        { article_id: 'OLD', title: 'Utgått', price: '1.00', status: 'inactive' },
      ])
      .returning('id');
    [ref.labour, ref.old] = arts.map((r: { id: string }) => r.id);
    ref.install = (await trx('work_types').where({ name: 'Installation' }).first('id')).id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.office = await signIn(a, `office@${a.slug}.se`);
  tok.tech = await signIn(a, a.technicianEmail);
});
afterAll(async () => {
  await fake?.close();
  await srv?.close();
});

type Handler = (args: never) => unknown;

/** A loader, action or guard run as React Router runs it: the session's auth, after the i18n middleware. */
async function runRoute(
  handler: Handler,
  token: string,
  url: string,
  init: { method?: string; json?: unknown } = {},
): Promise<{ status: number; body: Json | undefined; location: string | null }> {
  const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
  const context = new RouterContextProvider();
  context.set(tenantContext, tenantA);
  context.set(authContext, auth);
  context.set(requestContext, { ip: null, requestId: 'test', token });
  const full = new URL(url, `http://${a.host}`);
  const request = new Request(full, {
    method: init.method ?? 'GET',
    ...(init.json === undefined
      ? {}
      : { body: JSON.stringify(init.json), headers: { 'content-type': 'application/json' } }),
  });
  let answer: unknown;
  await i18nextMiddleware({ request, context, params: {}, url: full, pattern: '' } as never, async () => {
    try {
      answer = await handler({ request, context, params: {} } as never);
    } catch (e) {
      answer = e;
    }
    return new Response(null);
  });
  if (answer instanceof Response)
    return { status: answer.status, body: undefined, location: answer.headers.get('Location') };
  const r = answer as { type?: string; data?: Json; init?: { status?: number } | null };
  if (r?.type === 'DataWithResponseInit') return { status: r.init?.status ?? 200, body: r.data, location: null };
  return { status: 200, body: answer as Json, location: null };
}

/** The route's guard: 200 when it lets the request through, else its status. */
async function guardStatus(middleware: readonly unknown[], token: string, url: string) {
  const guard = middleware[0] as Handler;
  const res = await runRoute(
    ((args: { request: Request; context: RouterContextProvider }) =>
      (guard as unknown as (a: unknown, next: () => Promise<Response>) => Promise<unknown>)(
        { ...args, params: {} },
        async () => new Response(null),
      )) as Handler,
    token,
    url,
  );
  return res.location ? 302 : res.status;
}

describe('[invoicing] Settings → invoicing, the route', () => {
  it('opens with instance:read and the module, saves with instance:edit; the settings index lists it', async () => {
    expect(await guardStatus(invoicingRoute.middleware, tok.admin, '/settings/invoicing')).toBe(200);
    expect(await guardStatus(invoicingRoute.middleware, tok.office, '/settings/invoicing')).toBe(200);
    expect(await guardStatus(invoicingRoute.middleware, tok.tech, '/settings/invoicing')).toBe(403);

    const admin = await runRoute(invoicingRoute.loader as Handler, tok.admin, '/settings/invoicing');
    expect(admin.body).toMatchObject({ canEdit: true, rules: { billTime: true, nextInvoiceNr: 1 } });
    expect(admin.body!.workTypes).toContainEqual({ id: ref.install, name: 'Installation' });
    expect(admin.body!.users).toContainEqual({ id: expect.any(String), name: 'Tess Tekniker' });
    const office = await runRoute(invoicingRoute.loader as Handler, tok.office, '/settings/invoicing');
    expect(office.body).toMatchObject({ canEdit: false });

    const index = await runRoute(settingsRoute.loader as Handler, tok.admin, '/settings');
    const links = (index.body!.links as { to: string }[]).map((l) => l.to);
    expect(links).toEqual(expect.arrayContaining(['/settings/invoicing', '/settings/erp']));
    const officeIndex = await runRoute(settingsRoute.loader as Handler, tok.office, '/settings');
    expect((officeIndex.body!.links as { to: string }[]).map((l) => l.to)).toContain('/settings/invoicing');
  });

  it('saves the form and answers field errors the page shows beside the fields', async () => {
    const saved = await runRoute(invoicingRoute.action as Handler, tok.admin, '/settings/invoicing', {
      method: 'POST',
      json: {
        billTime: true,
        labourArticleId: ref.labour,
        timeRoundingMinutes: 30,
        bankAccount: 'SE12',
        overrides: { workTypes: [{ workTypeId: ref.install, articleId: ref.labour }], users: [] },
      },
    });
    expect(saved).toMatchObject({ status: 200, body: { ok: true } });
    const after = await runRoute(invoicingRoute.loader as Handler, tok.admin, '/settings/invoicing');
    expect(after.body!.rules).toMatchObject({
      labourArticle: { id: ref.labour, articleId: 'ARB' },
      timeRoundingMinutes: 30,
      bankAccount: 'SE12',
      overrides: { workTypes: [{ workType: { id: ref.install } }] },
    });

    const refused = await runRoute(invoicingRoute.action as Handler, tok.admin, '/settings/invoicing', {
      method: 'POST',
      json: { labourArticleId: ref.old, overrides: { workTypes: [{ workTypeId: ref.install, articleId: '' }] } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      code: 'VALIDATION_FAILED',
      fields: { 'overrides.workTypes.0.articleId': ['ERROR_REQUIRED_FIELD'] },
    });
    const inactive = await runRoute(invoicingRoute.action as Handler, tok.admin, '/settings/invoicing', {
      method: 'POST',
      json: { labourArticleId: ref.old },
    });
    expect(inactive.body!.fields).toEqual({ labourArticleId: ['ERROR_ARTICLE_INACTIVE'] });

    const office = await runRoute(invoicingRoute.action as Handler, tok.office, '/settings/invoicing', {
      method: 'POST',
      json: { ocr: false },
    });
    expect(office).toMatchObject({ status: 403, body: { code: 'WARNING_PERMISSION_DENIED' } });
  });
});

describe('[invoicing] Settings → ERP, the routes', () => {
  it('connects Fortnox through the vendor’s sign-in and back to /settings/erp?connected=1', async () => {
    expect(await guardStatus(erpRoute.middleware, tok.office, '/settings/erp')).toBe(200);
    expect(await guardStatus(erpRoute.middleware, tok.tech, '/settings/erp')).toBe(403);
    expect(await guardStatus(erpCallbackRoute.middleware, tok.office, '/settings/erp/callback')).toBe(403);

    const chosen = await runRoute(erpRoute.action as Handler, tok.admin, '/settings/erp', {
      method: 'POST',
      json: { intent: 'kind', kind: 'fortnox' },
    });
    expect(chosen).toMatchObject({ status: 200, body: { ok: true } });
    let page = await runRoute(erpRoute.loader as Handler, tok.admin, '/settings/erp');
    expect(page.body).toMatchObject({ canEdit: true, settings: { kind: 'fortnox', connected: false } });
    expect((await runRoute(erpRoute.loader as Handler, tok.office, '/settings/erp')).body).toMatchObject({
      canEdit: false,
    });

    // the action sends the browser to Fortnox, which comes back to this host's callback
    const start = await runRoute(erpRoute.action as Handler, tok.admin, '/settings/erp', {
      method: 'POST',
      json: { intent: 'connect' },
    });
    expect(start.status).toBe(302);
    expect(start.location).toMatch(new RegExp(`^${fake.url}/oauth-v1/auth\\?`));
    expect(new URL(start.location!).searchParams.get('redirect_uri')).toBe(`http://${a.host}/settings/erp/callback`);
    const back = await consentAsBrowser(start.location!);
    expect(`${back.origin}${back.pathname}`).toBe(`http://${a.host}/settings/erp/callback`);

    // a state we did not issue: the refusal in words, nothing connected
    const forged = new URL(back);
    forged.searchParams.set('state', 'forged');
    const refused = await runRoute(erpCallbackRoute.loader as Handler, tok.admin, forged.pathname + forged.search);
    expect(refused.body).toEqual({ code: 'ERP_OAUTH_STATE_INVALID', vendorMessage: null, erpName: 'Fortnox' });

    const done = await runRoute(erpCallbackRoute.loader as Handler, tok.admin, back.pathname + back.search);
    expect(done).toMatchObject({ status: 302, location: '/settings/erp?connected=1' });
    page = await runRoute(erpRoute.loader as Handler, tok.admin, '/settings/erp?connected=1');
    expect(page.body!.settings).toMatchObject({
      kind: 'fortnox',
      connected: true,
      companyName: 'Ordo Testbolag AB',
      lastTestError: null,
    });
    // used up: the same answer again is refused
    const replay = await runRoute(erpCallbackRoute.loader as Handler, tok.admin, back.pathname + back.search);
    expect(replay.body).toMatchObject({ code: 'ERP_OAUTH_STATE_INVALID' });
    // the person said no at the vendor
    const cancelled = await runRoute(
      erpCallbackRoute.loader as Handler,
      tok.admin,
      '/settings/erp/callback?error=access_denied&error_description=The+user+denied',
    );
    expect(cancelled.body).toEqual({ code: 'ERP_AUTH_FAILED', vendorMessage: 'The user denied', erpName: 'Fortnox' });
  });

  it('tests the connection, saves the accounts (4–6 digits) and disconnects', async () => {
    const test = await runRoute(erpRoute.action as Handler, tok.admin, '/settings/erp', {
      method: 'POST',
      json: { intent: 'test' },
    });
    expect(test.body).toMatchObject({
      ok: true,
      intent: 'test',
      test: { ok: true, companyName: 'Ordo Testbolag AB', error: null },
    });

    const bad = await runRoute(erpRoute.action as Handler, tok.admin, '/settings/erp', {
      method: 'POST',
      json: { intent: 'accounts', kind: 'fortnox', accounts: { sales: { '25': '30', '12': '3002' }, fee: 'abcd' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body!.fields).toEqual({
      'accounts.sales.25': ['ERROR_ACCOUNT_PATTERN'],
      'accounts.fee': ['ERROR_ACCOUNT_PATTERN'],
    });
    const good = await runRoute(erpRoute.action as Handler, tok.admin, '/settings/erp', {
      method: 'POST',
      json: {
        intent: 'accounts',
        kind: 'fortnox',
        accounts: { sales: { '25': '3001', '12': '', reverse: '3231' }, fee: '3541', rounding: '3740' },
      },
    });
    expect(good.body).toMatchObject({ ok: true });
    let page = await runRoute(erpRoute.loader as Handler, tok.admin, '/settings/erp');
    expect(page.body!.settings).toMatchObject({
      connected: true,
      accounts: { sales: { '25': '3001', reverse: '3231' }, fee: '3541', rounding: '3740' },
    });

    const office = await runRoute(erpRoute.action as Handler, tok.office, '/settings/erp', {
      method: 'POST',
      json: { intent: 'disconnect' },
    });
    expect(office.status).toBe(403);
    const off = await runRoute(erpRoute.action as Handler, tok.admin, '/settings/erp', {
      method: 'POST',
      json: { intent: 'disconnect' },
    });
    expect(off.body).toMatchObject({ ok: true });
    page = await runRoute(erpRoute.loader as Handler, tok.admin, '/settings/erp');
    expect(page.body!.settings).toMatchObject({ connected: false, companyName: null });
  });
});
