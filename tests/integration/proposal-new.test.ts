/**
 * Issue 28 item 19: a new proposal is created by its first save. Opening "new proposal" and
 * leaving it writes nothing (no empty proposal in the list); the first save creates it with what
 * was typed, in one transaction, and a refused first save leaves nothing behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { ensureUser } from '~/core/users/create-user';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { runRouteAs } from '~/tests/helpers/route-loader';
import * as listRoute from '~/app/routes/proposals';
import * as proposalRoute from '~/app/routes/proposals.$id';

let srv: TestServer;
let a: TestTenant;
let tenant: Tenant;
let token: string;
const { signIn } = testApi(() => ({ url: srv.url, host: a.host }));
const as = () => ({ tenant, host: a.host, token });
const count = () => withTenant(tenant, async (trx) => Number((await trx('proposals').count({ n: '*' }))[0]!.n));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('prop-new');
  tenant = (await getTenantBySlug(a.slug))!;
  token = await signIn(a, a.adminEmail);
}, 60_000);
afterAll(async () => {
  await srv?.close();
});

describe('[proposals] a new proposal is created by its first save', () => {
  it('"new proposal" opens an empty screen without writing a proposal', async () => {
    const before = await count();
    const made = await runRouteAs(listRoute.action, as(), '/proposals', { form: {} });
    expect(made.location).toBe('/proposals/new');
    const page = await runRouteAs(proposalRoute.loader, as(), '/proposals/new', { params: { id: 'new' } });
    expect(page.status).toBe(200);
    expect(page.body!.proposal).toMatchObject({ id: '', status: 'active', title: '', rows: [] });
    expect(await count()).toBe(before);
  });

  it('the first save creates the proposal with what was typed; the next save is an ordinary one', async () => {
    const before = await count();
    const page = await runRouteAs(proposalRoute.loader, as(), '/proposals/new', { params: { id: 'new' } });
    const draft = page.body!.proposal as Record<string, unknown>;
    const first = await runRouteAs(proposalRoute.action, as(), '/proposals/new', {
      params: { id: 'new' },
      json: { intent: 'save', proposal: { ...draft, title: 'Larm för Brf Ny' } },
    });
    expect(first.status).toBe(200);
    const saved = first.body!.proposal as { id: string; version: number; title: string; sequenceNumber: number };
    expect(saved.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(saved.title).toBe('Larm för Brf Ny');
    expect(saved.sequenceNumber).toBeGreaterThan(0);
    expect(await count()).toBe(before + 1);

    // a save sent before the screen's address moved to the id saves that proposal, creating none
    const again = await runRouteAs(proposalRoute.action, as(), '/proposals/new', {
      params: { id: 'new' },
      json: { intent: 'save', proposal: { ...saved, title: 'Larm för Brf Ny 2' } },
    });
    expect(again.body!.proposal).toMatchObject({ id: saved.id, title: 'Larm för Brf Ny 2' });
    expect(await count()).toBe(before + 1);
  });

  it('a refused first save leaves nothing behind', async () => {
    const before = await count();
    const page = await runRouteAs(proposalRoute.loader, as(), '/proposals/new', { params: { id: 'new' } });
    const refused = await runRouteAs(proposalRoute.action, as(), '/proposals/new', {
      params: { id: 'new' },
      json: { intent: 'save', proposal: { ...page.body!.proposal, title: 'x'.repeat(201) } },
    });
    expect(refused.status).toBe(400);
    expect(await count()).toBe(before);
  });

  it('one who may only read proposals gets the 403 page for a new one, not a server error', async () => {
    await withTenant(tenant, async (trx) => {
      await trx('access_levels').insert({
        display_name: 'Läser offerter',
        permissions: ['proposal:read'],
        work_order_limit: 'none',
      });
      await ensureUser(trx, {
        email: `reader@${a.slug}.se`,
        name: 'Rut Läsare',
        password: PASSWORD,
        accessLevels: ['Läser offerter'],
      });
    });
    const reader = await signIn(a, `reader@${a.slug}.se`);
    const page = await runRouteAs(proposalRoute.loader, { tenant, host: a.host, token: reader }, '/proposals/new', {
      params: { id: 'new' },
    });
    expect(page.status).toBe(403);
  });
});
