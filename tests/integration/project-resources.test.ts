import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import * as planningPage from '~/app/routes/projects.planning';
import * as resourcesRoute from '~/app/routes/projects.resources';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { sessionPolicy } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'reader' | 'adminB', string>;
const ids: Record<string, string> = {};

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

async function ok(method: string, path: string, token: string, body?: unknown): Promise<Json> {
  const res = await call(method, path, token, body);
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json<Json>();
}

const plan = (body: Json) => ok('POST', '/api/projects/resources', tok.admin, body);

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('res-a');
  b = await createTestTenant('res-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert({
      display_name: 'Projektläsare',
      permissions: ['projects:read'],
      work_order_limit: 'none',
    });
    await ensureUser(trx, {
      email: `reader@${a.slug}.se`,
      name: 'Rut Läsare',
      password: PASSWORD,
      accessLevels: ['Projektläsare'],
    });
    ids.admin = (await trx('users').where({ email: a.adminEmail }).first('id')).id;
    ids.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    ids.gone = (
      await trx('users')
        .insert({ email: `gone@${a.slug}.se`, name: 'Gunnar Gammal', status: 'inactive' })
        .returning('id')
    )[0].id;
    const project = async (number: number, title: string, status = 'ongoing') =>
      (await trx('projects').insert({ number, title, status }).returning('id'))[0].id as string;
    ids.pA = await project(1001, 'Larm Solrosen');
    ids.pB = await project(1002, 'Passage Kvarnen');
    ids.pC = await project(1003, 'Kameror Hamnen');
    ids.closed = await project(1004, 'Avslutat', 'closed');
    const supplier = async (number: string, title: string, status = 'active') =>
      (await trx('suppliers').insert({ number, title, status }).returning('id'))[0].id as string;
    ids.sElektro = await supplier('L1', 'Elektro AB');
    ids.sOld = await supplier('L2', 'Gamla Bygg AB', 'inactive');
    ids.sLinked = await supplier('L3', 'Vilande Lyft AB', 'inactive');
    await trx('project_suppliers').insert({ project_id: ids.pA, supplier_id: ids.sLinked });
    const status = (await trx('work_order_statuses').orderBy('sort_order').first('id')).id;
    const type = (await trx('work_types').orderBy('sort_order').first('id')).id;
    const order = async (number: string, title: string, projectId: string | null) =>
      (
        await trx('work_orders')
          .insert({ number, title, status_id: status, work_type_id: type, project_id: projectId })
          .returning('id')
      )[0].id as string;
    ids.woC = await order('5001', 'Kamera kaj 3', ids.pC);
    ids.woA = await order('5002', 'Centralapparat', ids.pA);
    ids.woNone = await order('5003', 'Service utan projekt', null);
    // the board: the technician on C's order on Tuesday, on A's on Wednesday, on an order of no project on Thursday
    const schedule = (workOrderId: string, date: string) =>
      trx('work_order_schedules').insert({
        work_order_id: workOrderId,
        user_id: ids.tech,
        date,
        start_ts: `${date}T07:00:00Z`,
        end_ts: `${date}T09:00:00Z`,
      });
    await schedule(ids.woC, '2026-03-03');
    await schedule(ids.woA, '2026-03-04');
    await schedule(ids.woNone, '2026-03-05');
  });
  const tenantB = (await getTenantBySlug(b.slug))!;
  await withTenant(tenantB, async (trx) => {
    ids.pOther = (await trx('projects').insert({ number: 1001, title: 'Annans projekt' }).returning('id'))[0].id;
    const user = (await trx('users').where({ email: b.adminEmail }).first('id')).id;
    ids.resOther = (
      await trx('project_resources')
        .insert({ project_id: ids.pOther, user_id: user, start_date: '2026-03-02', end_date: '2026-03-06' })
        .returning('id')
    )[0].id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.reader = await signIn(a, `reader@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
});

afterAll(async () => {
  await srv?.close();
});

describe('[projects] resource planning', () => {
  it('plans a person, moves and stretches the plan, and deletes it', async () => {
    const { resource } = await plan({
      projectId: ids.pA,
      userId: ids.tech,
      startDate: '2026-03-02',
      endDate: '2026-03-13',
      hoursPerDay: '7,5',
      comment: 'Montage',
    });
    expect(resource).toMatchObject({
      projectId: ids.pA,
      projectNumber: 1001,
      projectTitle: 'Larm Solrosen',
      projectStatus: 'ongoing',
      userId: ids.tech,
      supplierId: null,
      startDate: '2026-03-02',
      endDate: '2026-03-13',
      hoursPerDay: 7.5,
      comment: 'Montage',
    });
    // a drag: two weeks later, length kept
    const moved = await ok('PUT', '/api/projects/resources', tok.admin, {
      id: resource.id,
      startDate: '2026-03-16',
      endDate: '2026-03-27',
    });
    expect(moved.resource).toMatchObject({ startDate: '2026-03-16', endDate: '2026-03-27', hoursPerDay: 7.5 });
    // its end stretched a week; the comment cleared
    const stretched = await ok('PUT', '/api/projects/resources', tok.admin, {
      id: resource.id,
      endDate: '2026-04-03',
      comment: '',
    });
    expect(stretched.resource).toMatchObject({ startDate: '2026-03-16', endDate: '2026-04-03', comment: null });
    // an end before the start is refused, nothing changed
    const bad = await call('PUT', '/api/projects/resources', tok.admin, { id: resource.id, endDate: '2026-03-01' });
    expect(bad.status).toBe(400);
    expect(bad.json<Json>().fields).toEqual({ endDate: ['ERROR_STOP_DATE_BEFORE_START_DATE'] });

    const cal = await ok('GET', '/api/projects/resources/2026-03-01/2026-04-30', tok.reader);
    const tess = cal.people.find((p: Json) => p.userId === ids.tech);
    expect(tess.rows.map((r: Json) => [r.startDate, r.endDate])).toEqual([['2026-03-16', '2026-04-03']]);
    // every active user has a row, the inactive one none
    expect(cal.people.map((p: Json) => p.userId)).toEqual(expect.arrayContaining([ids.admin, ids.tech]));
    expect(cal.people.some((p: Json) => p.userId === ids.gone)).toBe(false);
    expect(cal.weeks[0]).toEqual({ year: 2026, week: 9, start: '2026-02-23' });
    expect(cal.canEdit).toBe(false);

    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity: 'project', entity_id: ids.pA }).orderBy('at').pluck('action'),
    );
    expect(history).toEqual(['resource.add', 'resource.edit', 'resource.edit']);

    await ok('DELETE', `/api/projects/resources/${resource.id}`, tok.admin);
    expect((await call('DELETE', `/api/projects/resources/${resource.id}`, tok.admin)).status).toBe(404);
    const after = await ok('GET', '/api/projects/resources/2026-03-01/2026-04-30', tok.admin);
    expect(after.people.flatMap((p: Json) => p.rows)).toEqual([]);
  });

  it('marks a person on two projects the same days, and on other projects’ work orders', async () => {
    const { resource: onA } = await plan({
      projectId: ids.pA,
      userId: ids.tech,
      startDate: '2026-03-02',
      endDate: '2026-03-13',
    });
    const { resource: onB } = await plan({
      projectId: ids.pB,
      userId: ids.tech,
      startDate: '2026-03-09',
      endDate: '2026-03-20',
    });
    const cal = await ok('GET', '/api/projects/resources/2026-03-01/2026-03-31', tok.admin);
    const mine = cal.conflicts.filter((c: Json) => c.userId === ids.tech);
    const overlap = mine.filter((c: Json) => c.kind === 'overlap');
    expect(overlap).toHaveLength(1);
    expect(overlap[0]).toMatchObject({
      year: 2026,
      week: 11,
      weekStart: '2026-03-09',
      dates: ['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13'],
      workOrders: [],
    });
    expect(overlap[0].projects.map((p: Json) => p.number).sort()).toEqual([1001, 1002]);
    // Tuesday on project C's order and Thursday on an order of no project clash with project A;
    // Wednesday's order is A's own
    const onOrders = mine.filter((c: Json) => c.kind === 'workOrder');
    expect(onOrders).toHaveLength(1);
    expect(onOrders[0]).toMatchObject({
      week: 10,
      weekStart: '2026-03-02',
      dates: ['2026-03-03', '2026-03-05'],
      projects: [{ id: ids.pA, number: 1001, title: 'Larm Solrosen' }],
    });
    expect(onOrders[0].workOrders).toEqual([
      { id: ids.woC, number: '5001', title: 'Kamera kaj 3', date: '2026-03-03', projectId: ids.pC },
      { id: ids.woNone, number: '5003', title: 'Service utan projekt', date: '2026-03-05', projectId: null },
    ]);

    // planned on C that Tuesday too: its order is no longer a clash
    const { resource: onC } = await plan({
      projectId: ids.pC,
      userId: ids.tech,
      startDate: '2026-03-03',
      endDate: '2026-03-03',
    });
    const again = await ok('GET', '/api/projects/resources/2026-03-01/2026-03-31', tok.admin);
    const orders = again.conflicts.find((c: Json) => c.kind === 'workOrder' && c.userId === ids.tech);
    expect(orders.workOrders.map((w: Json) => w.number)).toEqual(['5003']);

    // one project's calendar: only its plans and the clashes it is part of
    const onlyB = await ok('GET', `/api/projects/resources/2026-03-01/2026-03-31?projectId=${ids.pB}`, tok.admin);
    expect(onlyB.projectId).toBe(ids.pB);
    expect(onlyB.people.map((p: Json) => p.userId)).toEqual([ids.tech]);
    expect(onlyB.people[0].rows.map((r: Json) => r.id)).toEqual([onB.id]);
    expect(onlyB.conflicts.map((c: Json) => [c.kind, c.weekStart])).toEqual([['overlap', '2026-03-09']]);
    // named people: those, planned or not
    const named = await ok('GET', `/api/projects/resources/2026-03-01/2026-03-31?userIds=${ids.admin}`, tok.admin);
    expect(named.people.map((p: Json) => [p.userId, p.rows.length])).toEqual([[ids.admin, 0]]);

    for (const r of [onA, onB, onC]) await ok('DELETE', `/api/projects/resources/${r.id}`, tok.admin);
  });

  it('plans suppliers: active ones and those linked to the project', async () => {
    const { suppliers } = await ok('GET', `/api/projects/resources/suppliers?projectId=${ids.pA}`, tok.reader);
    expect(suppliers.map((s: Json) => [s.title, s.linked])).toEqual([
      ['Vilande Lyft AB', true],
      ['Elektro AB', false],
    ]);
    const { resource } = await plan({
      projectId: ids.pA,
      supplierId: ids.sElektro,
      startDate: '2026-05-04',
      endDate: '2026-05-08',
    });
    expect(resource).toMatchObject({ supplierId: ids.sElektro, userId: null });
    const linked = await plan({
      projectId: ids.pA,
      supplierId: ids.sLinked,
      startDate: '2026-05-04',
      endDate: '2026-05-04',
    });
    // an inactive supplier of no project is not planned, nor one of the other kind at once
    const refused = await call('POST', '/api/projects/resources', tok.admin, {
      projectId: ids.pB,
      supplierId: ids.sLinked,
      startDate: '2026-05-04',
      endDate: '2026-05-04',
    });
    expect(refused.status).toBe(400);
    expect(refused.json<Json>().fields).toEqual({ supplierId: ['ERROR_INVALID_VALUE'] });
    const both = await call('POST', '/api/projects/resources', tok.admin, {
      projectId: ids.pA,
      supplierId: ids.sElektro,
      userId: ids.tech,
      startDate: '2026-05-04',
      endDate: '2026-05-04',
    });
    expect(both.status).toBe(400);
    const cal = await ok('GET', '/api/projects/resources/2026-05-01/2026-05-31', tok.admin);
    expect(cal.suppliers.map((s: Json) => [s.name, s.rows.length])).toEqual([
      ['Elektro AB', 1],
      ['Vilande Lyft AB', 1],
    ]);
    // a supplier's plan becomes a person's
    const toPerson = await ok('PUT', '/api/projects/resources', tok.admin, {
      id: linked.resource.id,
      userId: ids.admin,
    });
    expect(toPerson.resource).toMatchObject({ userId: ids.admin, supplierId: null });
    for (const id of [resource.id, linked.resource.id]) await ok('DELETE', `/api/projects/resources/${id}`, tok.admin);
  });

  it('refuses: a period over 12 months and a week, inactive people, closed projects', async () => {
    expect((await call('GET', '/api/projects/resources/2026-01-01/2027-01-07', tok.admin)).status).toBe(200);
    const long = await call('GET', '/api/projects/resources/2026-01-01/2027-01-08', tok.admin);
    expect(long.status).toBe(400);
    expect(long.json<Json>().fields).toEqual({ to: ['ERROR_PLANNING_PERIOD_TOO_LONG'] });
    expect((await call('GET', '/api/projects/resources/2026-03-10/2026-03-01', tok.admin)).status).toBe(400);
    expect((await call('GET', '/api/projects/resources/2026-02-30/2026-03-01', tok.admin)).status).toBe(400);

    const inactive = await call('POST', '/api/projects/resources', tok.admin, {
      projectId: ids.pA,
      userId: ids.gone,
      startDate: '2026-03-02',
      endDate: '2026-03-06',
    });
    expect(inactive.status).toBe(400);
    expect(inactive.json<Json>().fields).toEqual({ userId: ['ERROR_INVALID_VALUE'] });

    const closed = await call('POST', '/api/projects/resources', tok.admin, {
      projectId: ids.closed,
      userId: ids.tech,
      startDate: '2026-03-02',
      endDate: '2026-03-06',
    });
    expect(closed.status).toBe(409);
    expect(closed.json<Json>().code).toBe('PROJECT_CLOSED');
    // a plan made before the project closed stays as it is
    const { resource } = await plan({
      projectId: ids.pB,
      userId: ids.tech,
      startDate: '2026-06-01',
      endDate: '2026-06-05',
    });
    await withTenant(tenantA, (trx) => trx('projects').where({ id: ids.pB }).update({ status: 'closed' }));
    const move = await call('PUT', '/api/projects/resources', tok.admin, { id: resource.id, startDate: '2026-06-08' });
    expect(move.status).toBe(409);
    expect((await call('DELETE', `/api/projects/resources/${resource.id}`, tok.admin)).status).toBe(409);
    // nor moved onto a closed project
    const { resource: onA } = await plan({
      projectId: ids.pA,
      userId: ids.tech,
      startDate: '2026-06-01',
      endDate: '2026-06-05',
    });
    expect((await call('PUT', '/api/projects/resources', tok.admin, { id: onA.id, projectId: ids.pB })).status).toBe(
      409,
    );
    const cal = await ok('GET', `/api/projects/resources/2026-06-01/2026-06-30?projectId=${ids.pB}`, tok.admin);
    expect(cal.people[0].rows[0]).toMatchObject({ id: resource.id, projectStatus: 'closed' });
    await withTenant(tenantA, (trx) => trx('projects').where({ id: ids.pB }).update({ status: 'ongoing' }));
    for (const id of [resource.id, onA.id]) await ok('DELETE', `/api/projects/resources/${id}`, tok.admin);
  });

  it('another tenant’s project or plan is not found; without projects:read or :edit the asker is refused', async () => {
    const other = await call('POST', '/api/projects/resources', tok.admin, {
      projectId: ids.pOther,
      userId: ids.tech,
      startDate: '2026-03-02',
      endDate: '2026-03-06',
    });
    expect(other.status).toBe(404);
    expect(
      (await call('PUT', '/api/projects/resources', tok.admin, { id: ids.resOther, startDate: '2026-03-09' })).status,
    ).toBe(404);
    expect((await call('DELETE', `/api/projects/resources/${ids.resOther}`, tok.admin)).status).toBe(404);
    expect((await call('DELETE', '/api/projects/resources/not-a-uuid', tok.admin)).status).toBe(404);
    expect(
      (await call('GET', `/api/projects/resources/2026-03-01/2026-03-31?projectId=${ids.pOther}`, tok.admin)).status,
    ).toBe(404);
    // B's own calendar shows its plan, not A's
    const calB = await call('GET', '/api/projects/resources/2026-03-01/2026-03-31', tok.adminB, undefined, b.host);
    expect(calB.json<Json>().people.flatMap((p: Json) => p.rows.map((r: Json) => r.id))).toEqual([ids.resOther]);

    expect((await call('GET', '/api/projects/resources/2026-03-01/2026-03-31', tok.tech)).status).toBe(403);
    expect((await call('GET', '/api/projects/resources/suppliers', tok.tech)).status).toBe(403);
    const byReader = await call('POST', '/api/projects/resources', tok.reader, {
      projectId: ids.pA,
      userId: ids.tech,
      startDate: '2026-03-02',
      endDate: '2026-03-06',
    });
    expect(byReader.status).toBe(403);
  });

  it('the board’s project perspective names its projects and has a row for orders of none', async () => {
    const board = await ok('GET', '/api/wo/calendar?perspective=project&date=2026-03-01&step=1', tok.admin);
    expect(board.projects).toEqual([
      { id: ids.pA, number: 1001, title: 'Larm Solrosen' },
      { id: ids.pC, number: 1003, title: 'Kameror Hamnen' },
    ]);
    expect(board.items.some((i: Json) => i.projectId === null)).toBe(true);
  });
});

describe('[projects] the planning page and the planner’s route', () => {
  async function runRoute(
    handler: (args: never) => unknown,
    token: string,
    url: string,
    form?: Record<string, string>,
  ): Promise<{ status: number; body: Json | undefined }> {
    const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
    const context = new RouterContextProvider();
    context.set(tenantContext, tenantA);
    context.set(authContext, auth);
    context.set(requestContext, { ip: null, requestId: 'test', token });
    const full = new URL(url, `http://${a.host}`);
    let body: FormData | undefined;
    if (form) {
      body = new FormData();
      for (const [k, v] of Object.entries(form)) body.append(k, v);
    }
    const request = new Request(full, { method: body ? 'POST' : 'GET', body });
    let answer: unknown;
    await i18nextMiddleware({ request, context, params: {}, url: full, pattern: '' } as never, async () => {
      try {
        answer = await handler({ request, context, params: {} } as never);
      } catch (e) {
        answer = e;
      }
      return new Response(null);
    });
    if (answer instanceof Response) return { status: answer.status, body: undefined };
    const r = answer as { type?: string; data?: Json; init?: { status?: number } | null };
    if (r?.type === 'DataWithResponseInit') return { status: r.init?.status ?? 200, body: r.data };
    return { status: 200, body: answer as Json };
  }
  const guardStatus = async (middleware: readonly unknown[], token: string, url: string) => {
    const guard = middleware[0] as (a: unknown, next: () => Promise<Response>) => Promise<unknown>;
    const res = await runRoute(
      ((args: object) => guard({ ...args, params: {} }, async () => new Response(null))) as never,
      token,
      url,
    );
    return res.status;
  };

  it('opens with projects:read; the step and the first month come from the URL', async () => {
    expect(await guardStatus(planningPage.middleware, tok.reader, '/projects/planning')).toBe(200);
    expect(await guardStatus(planningPage.middleware, tok.tech, '/projects/planning')).toBe(403);
    expect(await guardStatus(resourcesRoute.middleware, tok.tech, '/projects/resources')).toBe(403);
    const page = await runRoute(planningPage.loader as never, tok.admin, '/projects/planning?step=6&date=2026-12-10');
    expect(page.body).toMatchObject({ step: 6, date: '2026-12-10', canEdit: true });
    // December to May in whole weeks: from the Monday of 1 December's week to the Sunday of 31 May's
    expect(page.body!.plan).toMatchObject({ from: '2026-11-30', to: '2027-06-06' });
    const odd = await runRoute(planningPage.loader as never, tok.reader, '/projects/planning?step=5&date=bad');
    expect(odd.body).toMatchObject({ step: 3, canEdit: false });
  });

  it('plans, moves and deletes through the route’s intents; refusals come back as codes', async () => {
    const planned = await runRoute(resourcesRoute.action as never, tok.admin, '/projects/resources', {
      intent: 'plan',
      projectId: ids.pC,
      userId: ids.admin,
      supplierId: '',
      startDate: '2026-09-07',
      endDate: '2026-09-11',
      hoursPerDay: '',
      comment: '',
    });
    expect(planned).toMatchObject({ status: 200, body: { ok: true, intent: 'plan' } });
    const id = planned.body!.id as string;
    const moved = await runRoute(resourcesRoute.action as never, tok.admin, '/projects/resources', {
      intent: 'move',
      id,
      startDate: '2026-09-14',
      endDate: '2026-09-18',
    });
    expect(moved.status).toBe(200);
    const loaded = await runRoute(
      resourcesRoute.loader as never,
      tok.admin,
      `/projects/resources?from=2026-09-01&to=2026-09-30&projectId=${ids.pC}`,
    );
    expect(loaded.body!.plan.people[0].rows[0]).toMatchObject({ id, startDate: '2026-09-14', endDate: '2026-09-18' });
    const options = await runRoute(
      resourcesRoute.loader as never,
      tok.admin,
      `/projects/resources?options=1&projectId=${ids.pC}`,
    );
    expect(options.body!.options.projects.map((p: Json) => p.number)).toEqual([1003, 1002, 1001]);
    expect(options.body!.options.users.map((u: Json) => u.id)).not.toContain(ids.gone);

    const denied = await runRoute(resourcesRoute.action as never, tok.reader, '/projects/resources', {
      intent: 'delete',
      id,
    });
    expect(denied).toMatchObject({ status: 403, body: { code: 'WARNING_PERMISSION_DENIED' } });
    const bad = await runRoute(resourcesRoute.action as never, tok.admin, '/projects/resources', {
      intent: 'move',
      id,
      endDate: '2026-09-01',
    });
    expect(bad).toMatchObject({ status: 400, body: { fields: { endDate: ['ERROR_STOP_DATE_BEFORE_START_DATE'] } } });
    const deleted = await runRoute(resourcesRoute.action as never, tok.admin, '/projects/resources', {
      intent: 'delete',
      id,
    });
    expect(deleted).toMatchObject({ status: 200, body: { ok: true, intent: 'delete' } });
  });
});
