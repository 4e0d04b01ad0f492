import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import * as settingsRoute from '~/app/routes/settings.time-reports';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { timeReportSettings } from '~/core/time-reports/time-settings.service';
import { inTenant, sessionPolicy } from '~/core/unit-of-work';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

/**
 * Issue 17: the time-report tags (/timereports/conf/tags) and the time-report settings (mode,
 * scheduled minutes, lock day). Anyone signed in reads them; instance:edit changes them.
 */
let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
let techId: string;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('ttag-a');
  b = await createTestTenant('ttag-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  techId = await withTenant(tenantA, async (trx) => {
    const row = (await trx('users').where({ email: a.technicianEmail }).first('id')) as { id: string };
    return row.id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv?.close());

const TAGS = '/api/timereports/conf/tags';
const SETTINGS = '/api/timereports/conf/settings';
interface Tag {
  id: string;
  code: string;
  name: string | null;
  type: string;
  defaultStart: string | null;
  defaultEnd: string | null;
  payrollCode: string | null;
  active: boolean;
  sortOrder: number;
}
const tagsOf = async (token: string, query = '') =>
  (await call('GET', `${TAGS}${query}`, token)).json<{ tags: Tag[] }>().tags;
const fieldsOf = (res: { json<T>(): T }) => res.json<{ code: string; fields: Record<string, string[]> }>();
/** A time report on a tag, written straight into the table (the time report's own calls are another area). */
const reportOn = (tagId: string) =>
  withTenant(tenantA, (trx) =>
    trx('time_reports').insert({ user_id: techId, tag_id: tagId, date: '2026-03-02', minutes: 480 }),
  );

describe('[time tags] the seeded Swedish codes', () => {
  it('are listed to anyone signed in, by sort order, without names, attendance with its default time', async () => {
    const tags = await tagsOf(tok.tech);
    expect(tags.slice(0, 4).map((t) => [t.code, t.type])).toEqual([
      ['ARB', 'work'],
      ['RES', 'work'],
      ['NARV', 'attend'],
      ['JOUR', 'attend'],
    ]);
    expect(tags.filter((t) => t.type === 'absence').map((t) => t.code)).toEqual([
      'ASK', 'ATF', 'FPE', 'FRA', 'HAV', 'KOM', 'MIL', 'NAR', 'OS1', 'OS2', 'OS3', 'OS4', 'OS5',
      'PAP', 'PEM', 'PER', 'SEM', 'SJK', 'SMB', 'SVE', 'TJL', 'UTB', 'VAB',
    ]); // prettier-ignore
    expect(tags.find((t) => t.code === 'NARV')).toMatchObject({
      name: null,
      defaultStart: '07:00',
      defaultEnd: '16:00',
      payrollCode: null,
      active: true,
    });
    expect(tags.find((t) => t.code === 'SEM')).toMatchObject({ defaultStart: null, defaultEnd: null });
    expect((await call('GET', TAGS)).status).toBe(401);
  });
});

describe('[time tags] add, change, delete', () => {
  it('adds a tag with its code in capitals, last in order; a code is unique regardless of case', async () => {
    const last = Math.max(...(await tagsOf(tok.admin, '?includeInactive=true')).map((t) => t.sortOrder));
    const add = await call('POST', TAGS, tok.admin, {
      code: 'frisk',
      name: 'Friskvård',
      type: 'absence',
      payrollCode: ' 771 ',
    });
    expect(add.status, add.text).toBe(200);
    expect(add.json<{ tag: Tag }>().tag).toMatchObject({
      code: 'FRISK',
      name: 'Friskvård',
      type: 'absence',
      payrollCode: '771',
      active: true,
      sortOrder: last + 1,
    });
    const dup = await call('POST', TAGS, tok.admin, { code: 'Sem', type: 'absence' });
    expect(dup.status).toBe(409);
    expect(dup.json<{ code: string }>().code).toBe('DUPLICATE_TIME_REPORT_TAG');

    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity: 'time_report_tag', entity_id: add.json<{ tag: Tag }>().tag.id }).select('action'),
    );
    expect(history.map((h: { action: string }) => h.action)).toEqual(['add']);
  });

  it.each([
    [{ code: 'A', type: 'work' }, { code: ['ERROR_TIME_TAG_CODE'] }],
    [{ code: 'ABCDEFGHIJK', type: 'work' }, { code: ['ERROR_TIME_TAG_CODE'] }],
    [{ code: 'SÄR', type: 'work' }, { code: ['ERROR_TIME_TAG_CODE'] }],
    [{ code: 'AB C', type: 'work' }, { code: ['ERROR_TIME_TAG_CODE'] }],
    [{ code: 'XY', type: 'overtime' }, { type: ['ERROR_INVALID_VALUE'] }],
    [{ type: 'work' }, { code: ['ERROR_REQUIRED_FIELD'] }],
    [
      { code: 'BER', type: 'attend' },
      { defaultStart: ['ERROR_REQUIRED_FIELD'], defaultEnd: ['ERROR_REQUIRED_FIELD'] },
    ],
    [
      { code: 'BER', type: 'attend', defaultStart: '25:00', defaultEnd: '07:00' },
      { defaultStart: ['ERROR_INVALID_VALUE'] },
    ],
    [{ code: 'BER', type: 'work', name: 'x'.repeat(101) }, { name: ['ERROR_MAX_LENGTH'] }],
  ])('refuses %j', async (input, fields) => {
    const res = await call('POST', TAGS, tok.admin, input);
    expect(res.status).toBe(400);
    expect(fieldsOf(res).fields).toEqual(fields);
  });

  it('keeps default times on attendance only', async () => {
    const attend = await call('POST', TAGS, tok.admin, {
      code: 'BER',
      type: 'attend',
      defaultStart: '16:00',
      defaultEnd: '07:00:00',
    });
    expect(attend.json<{ tag: Tag }>().tag).toMatchObject({ defaultStart: '16:00', defaultEnd: '07:00' });
    const work = await call('POST', TAGS, tok.admin, {
      code: 'SERV',
      type: 'work',
      defaultStart: '08:00',
      defaultEnd: '17:00',
    });
    expect(work.status, work.text).toBe(200);
    expect(work.json<{ tag: Tag }>().tag).toMatchObject({ defaultStart: null, defaultEnd: null });
  });

  it('changes a tag; an inactive one is listed only when asked', async () => {
    const sem = (await tagsOf(tok.admin)).find((t) => t.code === 'SEM')!;
    const renamed = await call('PUT', TAGS, tok.admin, { ...sem, name: 'Semester (betald)', payrollCode: 'SEMB' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json<{ tag: Tag }>().tag).toMatchObject({
      code: 'SEM',
      name: 'Semester (betald)',
      payrollCode: 'SEMB',
      sortOrder: sem.sortOrder,
    });
    const clash = await call('PUT', TAGS, tok.admin, { ...sem, code: 'sjk' });
    expect(clash.status).toBe(409);
    expect(clash.json<{ code: string }>().code).toBe('DUPLICATE_TIME_REPORT_TAG');

    const off = await call('PUT', TAGS, tok.admin, { ...sem, name: '', active: false });
    expect(off.json<{ tag: Tag }>().tag).toMatchObject({ name: null, active: false });
    expect((await tagsOf(tok.tech)).map((t) => t.code)).not.toContain('SEM');
    expect((await tagsOf(tok.tech, '?includeInactive=true')).find((t) => t.code === 'SEM')).toMatchObject({
      active: false,
    });
    expect((await call('PUT', TAGS, tok.admin, { ...sem, active: true })).status).toBe(200);
    expect((await call('PUT', TAGS, tok.admin, { ...sem, id: '00000000-0000-4000-8000-000000000000' })).status).toBe(
      404,
    );
  });

  it('deletes an unused tag; a used one is IN_USE, keeps its type, and can be set inactive', async () => {
    const tags = await tagsOf(tok.admin);
    const os5 = tags.find((t) => t.code === 'OS5')!;
    expect((await call('DELETE', `${TAGS}/${os5.id}`, tok.admin)).status).toBe(200);
    expect((await call('DELETE', `${TAGS}/${os5.id}`, tok.admin)).status).toBe(404);
    expect((await call('DELETE', `${TAGS}/nope`, tok.admin)).status).toBe(404);

    const vab = tags.find((t) => t.code === 'VAB')!;
    await reportOn(vab.id);
    const used = await call('DELETE', `${TAGS}/${vab.id}`, tok.admin);
    expect(used.status).toBe(409);
    expect(used.json()).toMatchObject({ code: 'IN_USE', usedBy: { timeReports: 1 } });
    const retyped = await call('PUT', TAGS, tok.admin, { ...vab, type: 'work' });
    expect(retyped.status).toBe(409);
    expect(retyped.json<{ code: string }>().code).toBe('IN_USE');
    const inactive = await call('PUT', TAGS, tok.admin, { ...vab, active: false });
    expect(inactive.json<{ tag: Tag }>().tag.active).toBe(false);
    expect((await tagsOf(tok.admin, '?includeInactive=true')).map((t) => t.code)).toContain('VAB');
  });

  it('only instance:edit changes them; another tenant’s tag is not found', async () => {
    const arb = (await tagsOf(tok.admin)).find((t) => t.code === 'ARB')!;
    expect((await call('POST', TAGS, tok.tech, { code: 'XX', type: 'work' })).status).toBe(403);
    expect((await call('PUT', TAGS, tok.tech, { ...arb, name: 'Jobb' })).status).toBe(403);
    expect((await call('DELETE', `${TAGS}/${arb.id}`, tok.tech)).status).toBe(403);
    expect((await call('DELETE', `${TAGS}/${arb.id}`, tok.adminB, undefined, b.host)).status).toBe(404);
    expect((await call('PUT', TAGS, tok.adminB, { ...arb, name: 'Jobb' }, b.host)).status).toBe(404);
    expect((await tagsOf(tok.admin)).find((t) => t.code === 'ARB')!.name).toBeNull();
  });
});

describe('[time tags] the time-report settings', () => {
  it('round-trips mode, scheduled minutes and lock day', async () => {
    const first = await call('GET', SETTINGS, tok.tech);
    expect(first.json()).toEqual({ mode: 'default', scheduledMinutes: [480, 480, 480, 480, 480, 0, 0], lockDay: null });
    const saved = await call('PUT', SETTINGS, tok.admin, {
      mode: 'multi',
      scheduledMinutes: [480, 480, 480, 480, 420, 0, 0],
      lockDay: 31,
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json()).toEqual({ mode: 'multi', scheduledMinutes: [480, 480, 480, 480, 420, 0, 0], lockDay: 31 });
    expect((await call('GET', SETTINGS, tok.tech)).json()).toEqual(saved.json());
    // what is left out stays; hours:minutes as text
    const part = await call('PUT', SETTINGS, tok.admin, {
      scheduledMinutes: ['8:00', '8', '7,5', '7.25', '0:45', '0', '0:00'],
    });
    expect(part.json()).toEqual({ mode: 'multi', scheduledMinutes: [480, 480, 450, 435, 45, 0, 0], lockDay: 31 });
    const cleared = await call('PUT', SETTINGS, tok.admin, { lockDay: '', mode: 'hours' });
    expect(cleared.json()).toMatchObject({ mode: 'hours', lockDay: null });
    // the lead's services read the same
    const auth = await withTenant(tenantA, (trx) => validateSession(trx, tok.tech, new Date(), sessionPolicy()));
    expect(await inTenant({ tenant: tenantA, auth, lang: 'sv' }, timeReportSettings)).toEqual({
      mode: 'hours',
      scheduledMinutes: [480, 480, 450, 435, 45, 0, 0],
      lockDay: null,
    });
    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity: 'time_report_settings' }).count({ n: '*' }).first(),
    );
    expect(Number((history as { n: string }).n)).toBe(3);
  });

  it.each([
    [{ mode: 'weekly' }, { mode: ['ERROR_INVALID_VALUE'] }],
    [{ lockDay: 0 }, { lockDay: ['ERROR_INVALID_VALUE'] }],
    [{ lockDay: 32 }, { lockDay: ['ERROR_INVALID_VALUE'] }],
    [{ lockDay: 1.5 }, { lockDay: ['ERROR_INVALID_VALUE'] }],
    [{ scheduledMinutes: [480, 480, 480, 480, 480, 0] }, { scheduledMinutes: ['ERROR_INVALID_VALUE'] }],
    [{ scheduledMinutes: [480, 480, 480, 480, 1441, 0, 0] }, { 'scheduledMinutes.4': ['ERROR_INVALID_VALUE'] }],
    [{ scheduledMinutes: [480, 480, 'x', 480, 480, 0, 0] }, { 'scheduledMinutes.2': ['ERROR_INVALID_VALUE'] }],
    [{ scheduledMinutes: [480, 480, '24:01', 480, 480, 0, 0] }, { 'scheduledMinutes.2': ['ERROR_INVALID_VALUE'] }],
    [{ colour: 'red' }, { _: ['ERROR_INVALID_VALUE'] }],
  ])('refuses %j', async (input, fields) => {
    const res = await call('PUT', SETTINGS, tok.admin, input);
    expect(res.status).toBe(400);
    expect(fieldsOf(res).fields).toEqual(fields);
  });

  it('only instance:edit changes them', async () => {
    expect((await call('PUT', SETTINGS, tok.tech, { mode: 'default' })).status).toBe(403);
    expect((await call('GET', SETTINGS)).status).toBe(401);
  });
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Handler = (args: never) => unknown;

/** A loader or action run as React Router runs it: the session's auth, after the i18n middleware. */
async function runRoute(
  handler: Handler,
  token: string,
  form?: [string, string][],
): Promise<{ status: number; body: Json | undefined }> {
  const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
  const context = new RouterContextProvider();
  context.set(tenantContext, tenantA);
  context.set(authContext, auth);
  context.set(requestContext, { ip: null, requestId: 'test', token });
  const full = new URL('/settings/time-reports', `http://${a.host}`);
  let body: FormData | undefined;
  if (form) {
    body = new FormData();
    for (const [k, v] of form) body.append(k, v);
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
  const r = answer as { type?: string; data?: Json; init?: { status?: number } | null };
  if (r?.type === 'DataWithResponseInit') return { status: r.init?.status ?? 200, body: r.data };
  return { status: 200, body: answer as Json };
}

describe('[time tags] the settings page', () => {
  it('saves the settings from the form, adds a tag and answers IN_USE for a used one', async () => {
    const week = ['7:30', '7:30', '7:30', '7:30', '6:00', '0:00', '0:00'].map(
      (v) => ['scheduled', v] as [string, string],
    );
    const saved = await runRoute(settingsRoute.action as Handler, tok.admin, [
      ['intent', 'settings'],
      ['mode', 'default'],
      ...week,
      ['lockDay', '5'],
    ]);
    expect(saved).toMatchObject({ status: 200, body: { ok: true } });
    const bad = await runRoute(settingsRoute.action as Handler, tok.admin, [
      ['intent', 'settings'],
      ['mode', 'default'],
      ...week.slice(0, 6),
      ['scheduled', 'lång'],
      ['lockDay', '5'],
    ]);
    expect(bad).toMatchObject({ status: 400, body: { fields: { 'scheduledMinutes.6': ['ERROR_INVALID_VALUE'] } } });
    const added = await runRoute(settingsRoute.action as Handler, tok.admin, [
      ['intent', 'tag'],
      ['id', ''],
      ['code', 'vik'],
      ['name', ''],
      ['type', 'work'],
      ['defaultStart', ''],
      ['defaultEnd', ''],
      ['payrollCode', ''],
      ['active', 'true'],
      ['sortOrder', ''],
    ]);
    expect(added).toMatchObject({ status: 200, body: { ok: true } });
    const page = await runRoute(settingsRoute.loader as Handler, tok.admin);
    expect(page.body).toMatchObject({
      canEdit: true,
      settings: { mode: 'default', scheduledMinutes: [450, 450, 450, 450, 360, 0, 0], lockDay: 5 },
    });
    expect(page.body!.tags.find((t: Tag) => t.code === 'VIK')).toMatchObject({ name: null, type: 'work' });
    const vab = page.body!.tags.find((t: Tag) => t.code === 'VAB') as Tag;
    const inUse = await runRoute(settingsRoute.action as Handler, tok.admin, [
      ['intent', 'delete'],
      ['id', vab.id],
    ]);
    expect(inUse).toMatchObject({ status: 409, body: { code: 'IN_USE', usedBy: { timeReports: 1 } } });
    const asTech = await runRoute(settingsRoute.loader as Handler, tok.tech);
    expect(asTech.body).toMatchObject({ canEdit: false });
  });
});
