import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import * as onCallRoute from '~/app/routes/time.on-call';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { onCallNow } from '~/core/time-reports/on-call.service';
import { inTenant, sessionPolicy } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { seedDemoOnCall } from '~/tenants/demo-data/on-call';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

/**
 * Issue 17: the on-call schedule (the ONCALL app module). Anyone signed in with the module reads
 * it; oncallreports:edit plans it; one person's shifts never overlap.
 */
let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'planner' | 'adminB', string>;
const ids = {} as Record<'tech' | 'sara' | 'gone' | 'planner', string>;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('jour-a');
  b = await createTestTenant('jour-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert({
      display_name: 'Jourplanerare',
      description: 'Plans the on-call schedule',
      permissions: ['oncallreports:edit'],
      work_order_limit: 'none',
    });
    ids.planner = (
      await ensureUser(trx, {
        email: `plan@${a.slug}.se`,
        name: 'Per Planerare',
        password: PASSWORD,
        accessLevels: ['Jourplanerare'],
      })
    ).id;
    ids.sara = (
      await ensureUser(trx, {
        email: `sara@${a.slug}.se`,
        name: 'Sara Nilsson',
        password: PASSWORD,
        accessLevels: ['Technician'],
      })
    ).id;
    ids.gone = (
      await ensureUser(trx, {
        email: `gone@${a.slug}.se`,
        name: 'Gunnar Gått',
        password: PASSWORD,
        accessLevels: ['Technician'],
      })
    ).id;
    await trx('users').where({ id: ids.gone }).update({ status: 'inactive' });
    ids.tech = ((await trx('users').where({ email: a.technicianEmail }).first('id')) as { id: string }).id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.planner = await signIn(a, `plan@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv?.close());

const PATH = '/api/timereports/oncall';
type Shift = { id: string; userId: string; userName: string; startTs: string; endTs: string; comment: string | null };
const fieldsOf = (res: { json<T>(): T }) => res.json<{ code: string; fields: Record<string, string[]> }>();

describe('[on-call] the schedule over the API', () => {
  it('plans, lists with names and holidays, changes and deletes shifts; times in the company zone', async () => {
    await call('POST', '/api/timereports/conf/holidays', tok.admin, { date: '2026-03-20', name: 'Kickoff' });
    const add = await call('POST', PATH, tok.planner, {
      userId: ids.tech,
      startTs: '2026-03-05T17:00', // Swedish wall clock: 16:00 UTC in winter
      endTs: '2026-03-06T07:00',
      comment: 'Larmjour',
    });
    expect(add.status, add.text).toBe(200);
    const { shift } = add.json<{ shift: Shift }>();
    expect(shift).toMatchObject({
      userId: ids.tech,
      userName: 'Tess Tekniker',
      startTs: '2026-03-05T16:00:00.000Z',
      endTs: '2026-03-06T06:00:00.000Z',
      comment: 'Larmjour',
    });
    // an ISO instant with its zone is taken as it is
    const second = await call('POST', PATH, tok.planner, {
      userId: ids.sara,
      startTs: '2026-03-28T23:00:00Z',
      endTs: '2026-04-02T06:00:00+02:00',
    });
    expect(second.status, second.text).toBe(200);
    const saraShift = second.json<{ shift: Shift }>().shift;
    expect(saraShift).toMatchObject({ endTs: '2026-04-02T04:00:00.000Z', comment: null });

    // anyone signed in with the module reads the schedule
    const march = await call('GET', `${PATH}?from=2026-03-01&to=2026-03-31`, tok.tech);
    expect(march.status, march.text).toBe(200);
    const body = march.json<{ from: string; to: string; shifts: Shift[]; holidays: unknown[] }>();
    expect(body.from).toBe('2026-02-28T23:00:00.000Z');
    expect(body.to).toBe('2026-03-31T22:00:00.000Z');
    expect(body.shifts.map((s) => s.userName)).toEqual(['Tess Tekniker', 'Sara Nilsson']);
    expect(body.holidays).toEqual([{ date: '2026-03-20', name: 'Kickoff' }]);
    // a window that only touches the shift's end does not list it
    const after = await call('GET', `${PATH}?from=2026-03-06T06:00:00Z&to=2026-03-07T00:00:00Z`, tok.tech);
    expect(after.json<{ shifts: Shift[] }>().shifts).toEqual([]);
    const april = await call('GET', `${PATH}?from=2026-04-01&to=2026-04-30`, tok.tech);
    expect(april.json<{ shifts: Shift[] }>().shifts.map((s) => s.id)).toEqual([saraShift.id]);

    const moved = await call('PUT', PATH, tok.planner, {
      id: shift.id,
      userId: ids.sara,
      startTs: '2026-03-10T17:00',
      endTs: '2026-03-11T07:00',
      comment: '',
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json<{ shift: Shift }>().shift).toMatchObject({
      userName: 'Sara Nilsson',
      startTs: '2026-03-10T16:00:00.000Z',
      comment: null,
    });

    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity: 'on_call_shift', entity_id: shift.id }).orderBy('at').select('action'),
    );
    expect(history.map((h: { action: string }) => h.action)).toEqual(['add', 'edit']);

    expect((await call('DELETE', `${PATH}/${shift.id}`, tok.planner)).status).toBe(200);
    expect((await call('DELETE', `${PATH}/${shift.id}`, tok.planner)).status).toBe(404);
    expect((await call('DELETE', `${PATH}/not-an-id`, tok.planner)).status).toBe(404);
    expect((await call('DELETE', `${PATH}/${saraShift.id}`, tok.admin)).status).toBe(200);
  });

  it('refuses overlapping shifts of the same person, not of others, and allows touching ends', async () => {
    const first = await call('POST', PATH, tok.admin, {
      userId: ids.tech,
      startTs: '2026-05-04T07:00',
      endTs: '2026-05-11T07:00',
    });
    expect(first.status, first.text).toBe(200);
    const clash = await call('POST', PATH, tok.admin, {
      userId: ids.tech,
      startTs: '2026-05-10T17:00',
      endTs: '2026-05-12T07:00',
    });
    expect(clash.status).toBe(409);
    expect(clash.json<{ code: string }>().code).toBe('ON_CALL_OVERLAP');
    const inside = await call('POST', PATH, tok.admin, {
      userId: ids.tech,
      startTs: '2026-05-05T00:00',
      endTs: '2026-05-06T00:00',
    });
    expect(inside.status).toBe(409);
    // the next week starts where the first ends
    const next = await call('POST', PATH, tok.admin, {
      userId: ids.tech,
      startTs: '2026-05-11T07:00',
      endTs: '2026-05-18T07:00',
    });
    expect(next.status, next.text).toBe(200);
    // someone else may be on call at the same time
    const other = await call('POST', PATH, tok.admin, {
      userId: ids.sara,
      startTs: '2026-05-04T07:00',
      endTs: '2026-05-11T07:00',
    });
    expect(other.status, other.text).toBe(200);
    // moving a shift onto the person's other shift is refused; onto itself is fine
    const nextId = next.json<{ shift: Shift }>().shift.id;
    const onto = await call('PUT', PATH, tok.admin, {
      id: nextId,
      userId: ids.tech,
      startTs: '2026-05-10T07:00',
      endTs: '2026-05-18T07:00',
    });
    expect(onto.status).toBe(409);
    expect(onto.json<{ code: string }>().code).toBe('ON_CALL_OVERLAP');
    const longer = await call('PUT', PATH, tok.admin, {
      id: nextId,
      userId: ids.tech,
      startTs: '2026-05-11T07:00',
      endTs: '2026-05-19T07:00',
    });
    expect(longer.status, longer.text).toBe(200);
    // handing the shift to Sara clashes with hers
    const handOver = await call('PUT', PATH, tok.admin, {
      id: first.json<{ shift: Shift }>().shift.id,
      userId: ids.sara,
      startTs: '2026-05-04T07:00',
      endTs: '2026-05-11T07:00',
    });
    expect(handOver.status).toBe(409);
  });

  it('validates times, length, person and window', async () => {
    const before = await call('POST', PATH, tok.admin, {
      userId: ids.tech,
      startTs: '2026-06-05T17:00',
      endTs: '2026-06-05T17:00',
    });
    expect(before.status).toBe(400);
    expect(fieldsOf(before).fields).toEqual({ endTs: ['ERROR_END_BEFORE_START'] });
    const long = await call('POST', PATH, tok.admin, {
      userId: ids.tech,
      startTs: '2026-06-01T00:00',
      endTs: '2026-07-02T01:01',
    });
    expect(fieldsOf(long).fields).toEqual({ endTs: ['ERROR_ON_CALL_SHIFT_TOO_LONG'] });
    const thirtyOne = await call('POST', PATH, tok.admin, {
      userId: ids.tech,
      startTs: '2026-06-01T00:00',
      endTs: '2026-07-02T00:00',
    });
    expect(thirtyOne.status, thirtyOne.text).toBe(200);
    const bad = await call('POST', PATH, tok.admin, { userId: 'x', startTs: 'soon', endTs: '2026-02-30T10:00' });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad).fields).toEqual({ userId: ['ERROR_INVALID_VALUE'] });
    const times = await call('POST', PATH, tok.admin, { userId: ids.tech, startTs: 'soon', endTs: '2026-02-30T10:00' });
    expect(fieldsOf(times).fields).toEqual({ startTs: ['ERROR_INVALID_VALUE'], endTs: ['ERROR_INVALID_VALUE'] });
    const missing = await call('POST', PATH, tok.admin, {});
    expect(Object.keys(fieldsOf(missing).fields).sort()).toEqual(['endTs', 'startTs', 'userId']);
    const inactive = await call('POST', PATH, tok.admin, {
      userId: ids.gone,
      startTs: '2026-08-01T17:00',
      endTs: '2026-08-02T07:00',
    });
    expect(fieldsOf(inactive).fields).toEqual({ userId: ['ERROR_USER_INACTIVE'] });
    const stranger = await call('POST', PATH, tok.admin, {
      userId: '00000000-0000-4000-8000-000000000000',
      startTs: '2026-08-01T17:00',
      endTs: '2026-08-02T07:00',
    });
    expect(fieldsOf(stranger).fields).toEqual({ userId: ['ERROR_INVALID_VALUE'] });

    const wide = await call('GET', `${PATH}?from=2026-01-01&to=2026-03-04`, tok.tech);
    expect(wide.status).toBe(400);
    expect(fieldsOf(wide).fields).toEqual({ to: ['ERROR_ON_CALL_PERIOD_TOO_LONG'] });
    expect((await call('GET', `${PATH}?from=2026-01-01&to=2026-03-03`, tok.tech)).status).toBe(200);
    expect(fieldsOf(await call('GET', `${PATH}?from=2026-03-05&to=2026-03-01`, tok.tech)).fields).toEqual({
      to: ['ERROR_END_BEFORE_START'],
    });
    // without a window: the current month
    expect((await call('GET', PATH, tok.tech)).status).toBe(200);
  });

  it('needs oncallreports:edit to change, a session to read, and the module for both', async () => {
    const shift = { userId: ids.tech, startTs: '2026-09-01T17:00', endTs: '2026-09-02T07:00' };
    expect((await call('POST', PATH, tok.tech, shift)).status).toBe(403);
    expect((await call('GET', PATH)).status).toBe(401);
    const made = await call('POST', PATH, tok.planner, shift);
    expect(made.status, made.text).toBe(200);
    const id = made.json<{ shift: Shift }>().shift.id;
    expect((await call('PUT', PATH, tok.tech, { ...shift, id })).status).toBe(403);
    expect((await call('DELETE', `${PATH}/${id}`, tok.tech)).status).toBe(403);

    await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'oncall' }).update({ enabled: false }));
    try {
      expect((await call('GET', PATH, tok.tech)).status).toBe(403);
      expect(
        (await call('POST', PATH, tok.planner, { ...shift, startTs: '2026-09-03T17:00', endTs: '2026-09-04T07:00' }))
          .status,
      ).toBe(403);
      expect((await call('DELETE', `${PATH}/${id}`, tok.planner)).status).toBe(403);
      // "on call now" is simply empty without the module
      const auth = await withTenant(tenantA, (trx) => validateSession(trx, tok.tech, new Date(), sessionPolicy()));
      const now = await inTenant(
        { tenant: tenantA, auth, lang: 'sv', now: new Date('2026-09-01T20:00:00Z') },
        onCallNow,
      );
      expect(now).toEqual([]);
    } finally {
      await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'oncall' }).update({ enabled: true }));
    }
    expect((await call('GET', PATH, tok.tech)).status).toBe(200);
  });

  it('another tenant’s shift is not found', async () => {
    const made = await call('POST', PATH, tok.admin, {
      userId: ids.tech,
      startTs: '2026-10-01T17:00',
      endTs: '2026-10-02T07:00',
    });
    const id = made.json<{ shift: Shift }>().shift.id;
    expect((await call('DELETE', `${PATH}/${id}`, tok.adminB, undefined, b.host)).status).toBe(404);
    const put = await call(
      'PUT',
      PATH,
      tok.adminB,
      { id, userId: ids.tech, startTs: '2026-10-01T17:00', endTs: '2026-10-02T07:00' },
      b.host,
    );
    expect(put.status).toBe(404);
    const listB = await call('GET', `${PATH}?from=2026-10-01&to=2026-10-31`, tok.adminB, undefined, b.host);
    expect(listB.json<{ shifts: unknown[] }>().shifts).toEqual([]);
    // still there in A
    const listA = await call('GET', `${PATH}?from=2026-10-01&to=2026-10-31`, tok.admin);
    expect(listA.json<{ shifts: Shift[] }>().shifts.map((s) => s.id)).toEqual([id]);
  });

  it('knows who is on call right now', async () => {
    const made = await call('POST', PATH, tok.admin, {
      userId: ids.sara,
      startTs: '2026-11-02T16:00:00Z',
      endTs: '2026-11-03T06:00:00Z',
    });
    expect(made.status, made.text).toBe(200);
    const auth = await withTenant(tenantA, (trx) => validateSession(trx, tok.tech, new Date(), sessionPolicy()));
    const nowAt = (iso: string) => inTenant({ tenant: tenantA, auth, lang: 'sv', now: new Date(iso) }, onCallNow);
    expect((await nowAt('2026-11-02T20:00:00Z')).map((s) => s.userName)).toEqual(['Sara Nilsson']);
    expect(await nowAt('2026-11-03T06:00:00Z')).toEqual([]);
    expect((await nowAt('2026-11-02T16:00:00Z')).length).toBe(1);
  });
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Handler = (args: never) => unknown;

/** A loader or action run as React Router runs it: the session's auth, after the i18n middleware. */
async function runRoute(
  handler: Handler,
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

describe('[on-call] the page', () => {
  it('opens for anyone with the module; shows a month of weeks; the planner adds a shift from a day', async () => {
    const guard = onCallRoute.middleware[0] as unknown as (
      a: unknown,
      next: () => Promise<Response>,
    ) => Promise<unknown>;
    const guardStatus = async (token: string) => {
      const res = await runRoute(
        ((args: object) => guard({ ...args, params: {} }, async () => new Response(null))) as Handler,
        token,
        '/time/on-call',
      );
      return res.status;
    };
    expect(await guardStatus(tok.tech)).toBe(200);

    const added = await runRoute(onCallRoute.action as Handler, tok.planner, '/time/on-call?month=2026-12', {
      intent: 'save',
      id: '',
      userId: ids.tech,
      startTs: '2026-12-24T17:00',
      endTs: '2026-12-25T07:00',
      comment: 'Julafton',
    });
    expect(added).toMatchObject({ status: 200, body: { ok: true } });
    const refused = await runRoute(onCallRoute.action as Handler, tok.tech, '/time/on-call?month=2026-12', {
      intent: 'save',
      id: '',
      userId: ids.tech,
      startTs: '2026-12-27T17:00',
      endTs: '2026-12-28T07:00',
    });
    expect(refused).toMatchObject({ status: 403, body: { code: 'WARNING_PERMISSION_DENIED' } });
    const overlap = await runRoute(onCallRoute.action as Handler, tok.planner, '/time/on-call?month=2026-12', {
      intent: 'save',
      id: '',
      userId: ids.tech,
      startTs: '2026-12-25T06:00',
      endTs: '2026-12-25T09:00',
    });
    expect(overlap).toMatchObject({ status: 409, body: { code: 'ON_CALL_OVERLAP' } });

    const page = await runRoute(onCallRoute.loader as Handler, tok.tech, '/time/on-call?month=2026-12');
    expect(page.body).toMatchObject({ month: '2026-12-01', canEdit: false, people: [] });
    expect(page.body!.weeks.map((w: { week: number }) => w.week)).toEqual([49, 50, 51, 52, 53]);
    expect(page.body!.shifts.map((s: Shift) => [s.userName, s.comment])).toEqual([['Tess Tekniker', 'Julafton']]);
    const planner = await runRoute(onCallRoute.loader as Handler, tok.planner, '/time/on-call?month=bogus');
    expect(planner.body!.canEdit).toBe(true);
    expect(planner.body!.people.map((p: { name: string }) => p.name)).toContain('Sara Nilsson');
    expect(planner.body!.people.map((p: { name: string }) => p.name)).not.toContain('Gunnar Gått');
  });
});

describe('[on-call] the demo company', () => {
  it('has Erik and Sara on call a week at a time, this month and the next', async () => {
    const tenantB = (await getTenantBySlug(b.slug))!;
    const made = await withTenant(tenantB, async (trx) => {
      for (const [email, name] of [
        ['erik.tekniker@nordlarm.se', 'Erik Johansson'],
        ['sara.tekniker@nordlarm.se', 'Sara Nilsson'],
      ])
        await ensureUser(trx, { email, name, password: PASSWORD, accessLevels: ['Technician'] });
      const n = await seedDemoOnCall(trx, new Date('2026-03-17T12:00:00Z'));
      expect(await seedDemoOnCall(trx, new Date('2026-03-17T12:00:00Z'))).toBe(0);
      return n;
    });
    // from Monday 23 February (the week 1 March is in) to the end of April
    expect(made).toBe(10);
    const list = async (from: string, to: string) =>
      (await call('GET', `${PATH}?from=${from}&to=${to}`, tok.adminB, undefined, b.host)).json<{ shifts: Shift[] }>()
        .shifts;
    const march = await list('2026-03-01', '2026-03-31');
    expect(march.map((s) => s.userName)).toEqual([
      'Erik Johansson',
      'Sara Nilsson',
      'Erik Johansson',
      'Sara Nilsson',
      'Erik Johansson',
      'Sara Nilsson',
    ]);
    expect(march[0]).toMatchObject({ startTs: '2026-02-23T06:00:00.000Z', endTs: '2026-03-02T06:00:00.000Z' });
    // across the change to summer time: 07:00 Swedish time on both ends
    expect(march.at(-1)).toMatchObject({ startTs: '2026-03-30T05:00:00.000Z', endTs: '2026-04-06T05:00:00.000Z' });
    expect((await list('2026-04-01', '2026-04-30')).at(-1)).toMatchObject({ endTs: '2026-05-04T05:00:00.000Z' });
  });
});
