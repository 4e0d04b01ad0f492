import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import { action as routeAction, loader as routeLoader } from '~/app/routes/projects.$id.activities';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { sessionPolicy } from '~/core/unit-of-work';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * A project's activities (issue 18; api-calls.md "Activities"): kept in a 1..n order through
 * adds, moves and deletes; completed and not; a closed project's do not change; another tenant's
 * project is 404.
 */

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ref = {} as Record<'project' | 'other' | 'closed' | 'tech' | 'admin', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('act-a');
  b = await createTestTenant('act-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    const [project, other, closed] = await trx('projects')
      .insert([
        { number: 2001, title: 'Passersystem' },
        { number: 2002, title: 'Annat projekt' },
        { number: 2003, title: 'Avslutat', status: 'closed', closed_at: new Date() },
      ])
      .returning('id');
    Object.assign(ref, { project: project.id, other: other.id, closed: closed.id });
    await trx('project_activities').insert({ project_id: closed.id, title: 'Slutbesiktning', sort_order: 1 });
    ref.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    ref.admin = (await trx('users').where({ email: a.adminEmail }).first('id')).id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(async () => {
  await srv?.close();
});

const base = (projectId = ref.project) => `/api/projects/${projectId}/activities`;
const titles = async (projectId = ref.project) => {
  const res = await call('GET', base(projectId), tok.admin);
  expect(res.status, res.text).toBe(200);
  const list = res.json().activities as Json[];
  // always a 1..n order
  expect(list.map((x) => x.sortOrder)).toEqual(list.map((_, i) => i + 1));
  return list.map((x) => x.title as string);
};
const add = async (title: string, extra: Json = {}, projectId = ref.project) => {
  const res = await call('POST', base(projectId), tok.admin, { title, ...extra });
  expect(res.status, res.text).toBe(200);
  return res.json().activity as Json & { id: string };
};
const idOf = async (title: string) => {
  const res = await call('GET', base(), tok.admin);
  return (res.json().activities as Json[]).find((x) => x.title === title)!.id as string;
};
const reorder = (id: string, sortOrder: unknown) => call('PUT', `${base()}/${id}/reorder`, tok.admin, { sortOrder });

describe('[projects] activities', () => {
  it('keeps a 1..n order through adds, moves and deletes', async () => {
    for (const title of ['Projektering', 'Kabeldragning', 'Montage', 'Driftsättning']) await add(title);
    expect(await titles()).toEqual(['Projektering', 'Kabeldragning', 'Montage', 'Driftsättning']);

    // placed on add
    const first = await add('Startmöte', { sortOrder: 1 });
    expect(first.sortOrder).toBe(1);
    expect(await titles()).toEqual(['Startmöte', 'Projektering', 'Kabeldragning', 'Montage', 'Driftsättning']);

    // to the first, the last and the middle
    expect((await reorder(await idOf('Montage'), 1)).status).toBe(200);
    expect(await titles()).toEqual(['Montage', 'Startmöte', 'Projektering', 'Kabeldragning', 'Driftsättning']);
    const last = await reorder(await idOf('Startmöte'), 5);
    expect(last.status).toBe(200);
    expect((last.json().activities as Json[]).map((x) => x.title)).toEqual([
      'Montage',
      'Projektering',
      'Kabeldragning',
      'Driftsättning',
      'Startmöte',
    ]);
    expect((await reorder(await idOf('Montage'), 3)).status).toBe(200);
    expect(await titles()).toEqual(['Projektering', 'Kabeldragning', 'Montage', 'Driftsättning', 'Startmöte']);
    // beyond the end is the end; the same place changes nothing
    expect((await reorder(await idOf('Projektering'), 99)).status).toBe(200);
    expect(await titles()).toEqual(['Kabeldragning', 'Montage', 'Driftsättning', 'Startmöte', 'Projektering']);
    expect((await reorder(await idOf('Montage'), 2)).status).toBe(200);
    expect(await titles()).toEqual(['Kabeldragning', 'Montage', 'Driftsättning', 'Startmöte', 'Projektering']);
    const bad = await reorder(await idOf('Montage'), 0);
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({ sortOrder: ['ERROR_INVALID_VALUE'] });

    // delete closes the gap
    const del = await call('DELETE', `${base()}/${await idOf('Driftsättning')}`, tok.admin);
    expect(del.status, del.text).toBe(200);
    expect(await titles()).toEqual(['Kabeldragning', 'Montage', 'Startmöte', 'Projektering']);
    // the other project's list is its own
    await add('Eget steg', {}, ref.other);
    expect(await titles(ref.other)).toEqual(['Eget steg']);
    expect(await titles()).toHaveLength(4);
  });

  it('edits, completes and uncompletes', async () => {
    const act = await add('Besiktning', {
      dueDate: '2026-05-04',
      responsibleUserId: ref.tech,
      description: 'Med kunden',
    });
    expect(act).toMatchObject({
      title: 'Besiktning',
      dueDate: '2026-05-04',
      responsibleUserId: ref.tech,
      responsibleUserName: 'Tess Tekniker',
      description: 'Med kunden',
      completed: false,
    });
    const edited = await call('PUT', `${base()}/${act.id}`, tok.admin, {
      title: 'Slutbesiktning',
      dueDate: '',
      responsibleUserId: '',
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json().activity).toMatchObject({
      title: 'Slutbesiktning',
      dueDate: null,
      responsibleUserId: null,
      description: null,
    });
    const invalid = await call('PUT', `${base()}/${act.id}`, tok.admin, {
      title: '',
      dueDate: '2026-02-30',
      responsibleUserId: '00000000-0000-4000-8000-000000000000',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.json().fields).toMatchObject({ title: ['ERROR_REQUIRED_FIELD'], dueDate: ['ERROR_INVALID_DATE'] });
    const nobody = await call('PUT', `${base()}/${act.id}`, tok.admin, {
      title: 'X',
      responsibleUserId: '00000000-0000-4000-8000-000000000000',
    });
    expect(nobody.status).toBe(400);
    expect(nobody.json().fields).toEqual({ responsibleUserId: ['ERROR_INVALID_VALUE'] });

    const done = await call('PUT', `${base()}/${act.id}/complete`, tok.admin, { completed: true });
    expect(done.status, done.text).toBe(200);
    expect(done.json().activity).toMatchObject({ completed: true, completedByName: expect.any(String) });
    expect(done.json().activity.completedAt).toBeTruthy();
    const undone = await call('PUT', `${base()}/${act.id}/complete`, tok.admin, { completed: false });
    expect(undone.json().activity).toMatchObject({ completed: false, completedAt: null, completedByName: null });
    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity: 'project', entity_id: ref.project }).pluck('action'),
    );
    expect(history).toEqual(
      expect.arrayContaining(['activity.create', 'activity.edit', 'activity.complete', 'activity.uncomplete']),
    );
  });

  it('refuses changes in a closed project (409) but shows its activities', async () => {
    const list = await call('GET', base(ref.closed), tok.admin);
    expect(list.status).toBe(200);
    const [act] = list.json().activities as Json[];
    const attempts = [
      call('POST', base(ref.closed), tok.admin, { title: 'Ny' }),
      call('PUT', `${base(ref.closed)}/${act!.id}`, tok.admin, { title: 'Ändrad' }),
      call('PUT', `${base(ref.closed)}/${act!.id}/reorder`, tok.admin, { sortOrder: 1 }),
      call('PUT', `${base(ref.closed)}/${act!.id}/complete`, tok.admin, { completed: true }),
      call('DELETE', `${base(ref.closed)}/${act!.id}`, tok.admin),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status, res.text).toBe(409);
      expect(res.json().code).toBe('PROJECT_CLOSED');
    }
  });

  it("another tenant's project, another project's activity and a missing right", async () => {
    const act = await add('Hemlig');
    expect((await call('GET', base(), tok.adminB, undefined, b.host)).status).toBe(404);
    const foreign = await call('POST', base(), tok.adminB, { title: 'Intrång' }, b.host);
    expect(foreign.status).toBe(404);
    expect(foreign.json().code).toBe('NOT_FOUND');
    expect((await call('PUT', `${base(ref.other)}/${act.id}/reorder`, tok.admin, { sortOrder: 1 })).status).toBe(404);
    expect((await call('DELETE', `${base(ref.other)}/${act.id}`, tok.admin)).status).toBe(404);
    expect((await call('PUT', `${base()}/not-an-id/complete`, tok.admin, { completed: true })).status).toBe(404);
    // the technician level has no projects:read
    expect((await call('GET', base(), tok.tech)).status).toBe(403);
    expect((await call('POST', base(), tok.tech, { title: 'X' })).status).toBe(403);
  });
});

describe('[projects] the activities panel route /projects/:id/activities', () => {
  async function runRoute(token: string, projectId: string, form?: Record<string, string>) {
    const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
    const context = new RouterContextProvider();
    context.set(tenantContext, tenantA);
    context.set(authContext, auth);
    context.set(requestContext, { ip: null, requestId: 'test', token });
    const url = `http://${a.host}/projects/${projectId}/activities`;
    let body: FormData | undefined;
    if (form) {
      body = new FormData();
      for (const [k, v] of Object.entries(form)) body.append(k, v);
    }
    const request = new Request(url, form ? { method: 'POST', body } : undefined);
    const params = { id: projectId };
    let answer: unknown;
    await i18nextMiddleware({ request, context, params, url: new URL(url), pattern: '' } as never, async () => {
      const args = { request, context, params } as never;
      answer = form ? await routeAction(args) : await routeLoader(args);
      return new Response(null);
    });
    const r = answer as { data?: Json; init?: { status?: number } | null };
    return { status: r.init?.status ?? 200, body: r.data! };
  }

  it('loads the panel and saves a move', async () => {
    const loaded = await runRoute(tok.admin, ref.other);
    expect(loaded.status).toBe(200);
    expect(loaded.body).toMatchObject({ canEdit: true, projectClosed: false });
    expect(loaded.body.users.map((u: Json) => u.id)).toEqual(expect.arrayContaining([ref.admin, ref.tech]));
    const created = await runRoute(tok.admin, ref.other, {
      intent: 'create',
      title: 'Sista',
      dueDate: '',
      responsibleUserId: '',
    });
    expect(created.body).toMatchObject({ ok: true, intent: 'create' });
    const id = (created.body.data.activities as Json[]).find((x) => x.title === 'Sista')!.id;
    const moved = await runRoute(tok.admin, ref.other, { intent: 'reorder', id, sortOrder: '1' });
    expect(moved.body.data.activities[0].title).toBe('Sista');
    const closed = await runRoute(tok.admin, ref.closed);
    expect(closed.body).toMatchObject({ canEdit: false, projectClosed: true, users: [] });
    const refused = await runRoute(tok.admin, ref.closed, { intent: 'create', title: 'Ny' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('PROJECT_CLOSED');
  });
});
