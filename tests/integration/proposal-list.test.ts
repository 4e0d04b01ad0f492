/**
 * Issue 13, the proposal list and history: filters by tag and creator, moving a proposal to another
 * place (what dragging in the list does), the history naming what a save changed, and another
 * tenant's ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant } from '~/core/unit-of-work';
import type { Ctx } from '~/core/context';
import { getTenantBySlug } from '~/tenants/registry';
import {
  getProposalHistory,
  getSalesOrderHistory,
  moveProposal,
  proposalListOptions,
} from '~/core/proposals/proposal-list.service';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let tenantB: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
let tagId: string;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const authOf = (tenant: Tenant, token: string) =>
  withTenant(tenant, (trx) => validateSession(trx, token, new Date(), { idleMinutes: 30, absoluteHours: 12 }));
const asAdmin = async <T>(fn: (ctx: Ctx) => Promise<T>) =>
  inTenant({ tenant: tenantA, auth: await authOf(tenantA, tok.admin), lang: 'sv' }, fn);

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('plist-a');
  b = await createTestTenant('plist-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tenantB = (await getTenantBySlug(b.slug))!;
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  tagId = await withTenant(
    tenantA,
    async (trx) => (await trx('tags').insert({ name: 'Kamera' }).returning('id'))[0].id,
  );
});
afterAll(() => srv?.close());

const create = async (title: string, token = tok.admin) => {
  const res = await call('POST', '/api/proposals', token, {});
  expect(res.status, res.text).toBe(200);
  const p = (await call('GET', `/api/proposals/${res.json().id}`, token)).json() as Json;
  const saved = await call('PUT', '/api/proposals', token, { proposal: { ...p, title } });
  expect(saved.status, saved.text).toBe(200);
  return saved.json() as Json;
};
const order = async () =>
  ((await call('GET', '/api/proposals?status=active', tok.admin)).json().proposals as Json[]).map((p) => p.title);

describe('[proposals] the list', () => {
  it('filters by tag and by creator, and offers the tags and active users to filter by', async () => {
    const tagged = await create('Kameror lager');
    await call('PUT', '/api/proposals', tok.admin, { proposal: { ...tagged, tags: ['kamera'] } });
    const options = await asAdmin((ctx) => proposalListOptions(ctx));
    expect(options.tags).toEqual([{ id: tagId, name: 'Kamera' }]);
    expect(options.users.map((u) => u.name)).toEqual(expect.arrayContaining([expect.any(String)]));
    const byTag = (await call('GET', `/api/proposals?status=all&tags=${tagId}`, tok.admin)).json();
    expect(byTag.proposals.map((p: Json) => p.title)).toEqual(['Kameror lager']);
    const admin = options.users.find((u) => byTag.proposals[0].createUserId === u.id);
    expect(admin).toBeDefined();
    const byCreator = (await call('GET', `/api/proposals?status=all&createUserId=${admin!.id}`, tok.admin)).json();
    expect(byCreator.proposals.map((p: Json) => p.title)).toContain('Kameror lager');
    const other = options.users.find((u) => u.id !== admin!.id)!;
    const none = (await call('GET', `/api/proposals?status=all&createUserId=${other.id}`, tok.admin)).json();
    expect(none.proposals.map((p: Json) => p.title)).not.toContain('Kameror lager');
  });

  it('moves a proposal before or after another and keeps the whole order', async () => {
    const one = await create('Ett');
    const two = await create('Två');
    const three = await create('Tre');
    // newest first at the top
    expect((await order()).slice(0, 3)).toEqual(['Tre', 'Två', 'Ett']);
    await asAdmin((ctx) => moveProposal(ctx, { id: three.id, overId: one.id, position: 'after' }));
    expect((await order()).slice(0, 3)).toEqual(['Två', 'Ett', 'Tre']);
    await asAdmin((ctx) => moveProposal(ctx, { id: one.id, overId: two.id, position: 'before' }));
    expect((await order()).slice(0, 3)).toEqual(['Ett', 'Två', 'Tre']);
    // the moved proposal's sortOrder is what the API's PATCH would have set
    const listed = (await call('GET', '/api/proposals?status=active', tok.admin)).json().proposals as Json[];
    const sortOrders = listed.slice(0, 3).map((p) => p.sortOrder);
    expect([...sortOrders].sort((x, y) => x - y)).toEqual(sortOrders);
    expect(new Set(sortOrders).size).toBe(3);
  });

  it('refuses a move by someone who cannot edit proposals, and another tenant’s proposal is not found', async () => {
    const p = await create('Egen');
    const q = await create('Annan');
    const techAuth = await authOf(tenantA, tok.tech);
    await expect(
      inTenant({ tenant: tenantA, auth: techAuth, lang: 'sv' }, (ctx) =>
        moveProposal(ctx, { id: p.id, overId: q.id, position: 'before' }),
      ),
    ).rejects.toMatchObject({ status: 403 });
    const authB = await authOf(tenantB, tok.adminB);
    await expect(
      inTenant({ tenant: tenantB, auth: authB, lang: 'sv' }, (ctx) =>
        moveProposal(ctx, { id: p.id, overId: q.id, position: 'before' }),
      ),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      inTenant({ tenant: tenantB, auth: authB, lang: 'sv' }, (ctx) => getProposalHistory(ctx, p.id)),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe('[proposals] history', () => {
  it('names the fields a save changed, not every field the screen sent', async () => {
    const p = await create('Larm kontor');
    const saved = (
      await call('PUT', '/api/proposals', tok.admin, { proposal: { ...p, paymentTerms: '30 dagar' } })
    ).json();
    // the screen sends everything again with nothing changed
    await call('PUT', '/api/proposals', tok.admin, { proposal: saved });
    const history = await asAdmin((ctx) => getProposalHistory(ctx, p.id));
    expect(history.totalCount).toBe(4);
    expect(history.rows.map((r) => r.action)).toEqual(['edit', 'edit', 'edit', 'create']);
    expect(history.rows.map((r) => (r.data as Json | null)?.fields ?? null)).toEqual([
      [],
      ['paymentTerms'],
      ['title'],
      null,
    ]);
    expect(history.rows[0]!.userName).toBeTruthy();
    const page = await asAdmin((ctx) => getProposalHistory(ctx, p.id, { from: 1, size: 2 }));
    expect(page.rows.map((r) => (r.data as Json | null)?.fields)).toEqual([['paymentTerms'], ['title']]);
    expect(page.totalCount).toBe(4);
  });

  it('keeps a sales order’s history too', async () => {
    const so = (await call('POST', '/api/salesorders', tok.admin, { salesOrder: { title: 'Order' } })).json();
    const id = (so.salesOrder ?? so).id as string;
    expect(id).toBeTruthy();
    const history = await asAdmin((ctx) => getSalesOrderHistory(ctx, id));
    expect(history.rows.map((r) => r.action)).toEqual(['create']);
    await expect(
      asAdmin((ctx) => getSalesOrderHistory(ctx, '00000000-0000-4000-8000-000000000000')),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});
