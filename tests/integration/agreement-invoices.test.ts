import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import * as appLayoutRoute from '~/app/routes/app-layout';
import * as invoicesRoute from '~/app/routes/agreements.invoices';
import * as runRoute_ from '~/app/routes/agreements.invoices.run';
import * as adjustRoute from '~/app/routes/agreements.price-adjustment';
import { tenantToday } from '~/core/agreements/generation.service';
import { addDays, addMonthsToFirst } from '~/core/calendar/dates';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { sessionPolicy } from '~/core/unit-of-work';
import { getTenantBySlug } from '~/tenants/registry';
import { insertAgreementType, insertObjectsWithAgreements } from '~/tests/helpers/agreements';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * The agreement invoice screens and price adjustment (issue 16 items 4 and 5) over HTTP and through
 * their routes, on one tenant with three monthly agreements that start this month (one object
 * inactive): what is due this month and why one is held back, the next 12 months, the count badge,
 * a bulk run polled to its end (created and skipped with reasons), the history it leaves, a second
 * run that makes nothing, a price adjustment previewed and applied at once or left waiting, and who
 * may do what.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let tenant: Tenant;
const tok = {} as Record<'admin' | 'tech', string>;
const ref = {} as Record<'type' | 'inactiveObject' | 'today' | 'monthStart' | 'monthEnd', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('agr-inv');
  tenant = (await getTenantBySlug(a.slug))!;
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  ref.today = tenantToday({ tenant, now: new Date() });
  ref.monthStart = addMonthsToFirst(ref.today, 0);
  ref.monthEnd = addDays(addMonthsToFirst(ref.today, 1), -1);
  await withTenant(tenant, async (trx) => {
    ref.type = await insertAgreementType(trx, {
      code: 'LARM-M',
      title: 'Larmövervakning',
      invoiceInterval: 'month_1',
      invoiceDay: 1,
      woInterval: null,
    });
    await insertObjectsWithAgreements(trx, {
      agreementId: ref.type,
      count: 3,
      start: ref.monthStart,
      prefix: 'AI',
      totalPrice: '1200.00',
    });
    const [inactive] = await trx('business_objects')
      .where({ serial_code: 'OBJ-AI3' })
      .update({ status: 'inactive' })
      .returning('id');
    ref.inactiveObject = inactive.id;
  });
});
afterAll(() => srv?.close());

type Handler = (args: never) => unknown;

/** A loader or action run as React Router runs it: the session's auth, after the i18n middleware. */
async function runRoute(
  handler: Handler,
  token: string,
  url: string,
  init: { method?: string; json?: unknown; form?: Record<string, string> } = {},
): Promise<{ status: number; body: Json | undefined }> {
  const auth = await withTenant(tenant, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
  const context = new RouterContextProvider();
  context.set(tenantContext, tenant);
  context.set(authContext, auth);
  context.set(requestContext, { ip: null, requestId: 'test', token });
  const full = new URL(url, `http://${a.host}`);
  const body =
    init.json !== undefined
      ? { body: JSON.stringify(init.json), headers: { 'content-type': 'application/json' } }
      : init.form
        ? { body: new URLSearchParams(init.form) }
        : {};
  const request = new Request(full, { method: init.method ?? 'GET', ...body });
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

/** The route's guard: 200 when it lets the request through, else its status. */
async function guardStatus(middleware: readonly unknown[], token: string, url: string) {
  const guard = middleware[0] as (a: unknown, next: () => Promise<Response>) => Promise<unknown>;
  const res = await runRoute(
    ((args: object) => guard({ ...args, params: {} }, async () => new Response(null))) as Handler,
    token,
    url,
  );
  return res.status;
}

async function waitForRun(id: string): Promise<Json> {
  const until = Date.now() + 30_000;
  for (;;) {
    const res = await call('GET', `/api/agreements/invoices/run/${id}`, tok.admin);
    expect(res.status, res.text).toBe(200);
    const run = res.json().run as Json;
    if (run.status === 'done' || run.status === 'failed') return run;
    if (Date.now() > until) throw new Error(`the run did not finish: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('[agreements] agreement invoices', () => {
  it('lists this month’s due invoices by default, with the reason one is held back, and searches', async () => {
    const res = await call('GET', '/api/agreements/invoices/upcoming', tok.admin);
    expect(res.status, res.text).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ from: ref.monthStart, to: ref.monthEnd, totalCount: 3 });
    const bySerial = Object.fromEntries((body.invoices as Json[]).map((i) => [i.serialCode, i]));
    expect(bySerial['OBJ-AI1']).toMatchObject({
      customerName: 'Customer AI1',
      agreementCode: 'LARM-M',
      periodFrom: ref.monthStart,
      periodTo: ref.monthEnd,
      generateOn: ref.monthStart,
      amount: '1200.00',
      skipReason: null,
    });
    expect(bySerial['OBJ-AI3']).toMatchObject({ businessObjectId: ref.inactiveObject, skipReason: 'OBJECT_INACTIVE' });

    const searched = (await call('GET', '/api/agreements/invoices/upcoming?q=ai2', tok.admin)).json();
    expect(searched.totalCount).toBe(1);
    expect(searched.invoices[0].serialCode).toBe('OBJ-AI2');
    const paged = (await call('GET', '/api/agreements/invoices/upcoming?limit=2&offset=2', tok.admin)).json();
    expect(paged).toMatchObject({ totalCount: 3 });
    expect(paged.invoices).toHaveLength(1);
  });

  it('counts what is due by today for the badge, the active agreements only', async () => {
    expect((await call('GET', '/api/invoice/agreement/count', tok.admin)).json()).toEqual({ count: 2 });
    const layout = await runRoute(appLayoutRoute.loader as Handler, tok.admin, '/');
    expect(layout.body!.counts).toEqual({ agreementInvoices: 2, supplierInvoices: 0 });
    expect((layout.body!.links as Json[]).find((l) => l.to === '/agreements')).toMatchObject({
      badge: 'agreementInvoices',
      count: 2,
    });
    // a technician sees no agreements link and nothing is counted for them
    const tech = await runRoute(appLayoutRoute.loader as Handler, tok.tech, '/');
    expect(tech.body!.counts).toEqual({ agreementInvoices: 0, supplierInvoices: 0 });
    expect((tech.body!.links as Json[]).some((l) => l.to === '/agreements')).toBe(false);
  });

  it('schedules the next 12 months by month', async () => {
    const body = (await call('GET', '/api/agreements/invoices/scheduled', tok.admin)).json();
    expect(body.months).toHaveLength(12);
    expect(body.months[0]).toEqual({ month: ref.monthStart.slice(0, 7), count: 2, amount: '2400.00' });
    expect(body.months[11]).toEqual({
      month: addMonthsToFirst(ref.monthStart, 11).slice(0, 7),
      count: 2,
      amount: '2400.00',
    });
  });

  it('refuses a technician everything', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/agreements/invoices/upcoming'],
      ['GET', '/api/agreements/invoices/scheduled'],
      ['GET', '/api/invoice/agreement/count'],
      ['GET', '/api/invoice/agreement/history'],
      ['POST', '/api/agreements/invoices/run', { until: ref.monthEnd }],
      ['POST', '/api/agreements/pricing/preview', { agreementIds: [ref.type], percent: 5, effectiveFrom: ref.today }],
      ['POST', '/api/agreements/pricing/adjust', { agreementIds: [ref.type], percent: 5, effectiveFrom: ref.today }],
    ] as [string, string, unknown?][]) {
      const res = await call(method, path, tok.tech, body);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect(await guardStatus(invoicesRoute.middleware, tok.tech, '/agreements/invoices')).toBe(403);
    expect(await guardStatus(runRoute_.middleware, tok.tech, '/agreements/invoices/run')).toBe(403);
    expect(await guardStatus(adjustRoute.middleware, tok.tech, '/agreements/price-adjustment')).toBe(403);
    expect(await guardStatus(invoicesRoute.middleware, tok.admin, '/agreements/invoices')).toBe(200);
    expect(await guardStatus(adjustRoute.middleware, tok.admin, '/agreements/price-adjustment')).toBe(200);
  });

  it('the page opens on this month’s list, with the period buttons and no run yet', async () => {
    const page = await runRoute(invoicesRoute.loader as Handler, tok.admin, '/agreements/invoices');
    expect(page.body).toMatchObject({
      tab: 'upcoming',
      canRun: true,
      canHistory: true,
      run: null,
      upcoming: { from: ref.monthStart, to: ref.monthEnd, totalCount: 3 },
      presets: {
        thisMonth: { from: ref.monthStart, to: ref.monthEnd },
        nextMonth: { from: addMonthsToFirst(ref.today, 1) },
      },
    });
    const quarterStart = (page.body!.presets as Json).thisQuarter.from as string;
    expect(['01', '04', '07', '10']).toContain(quarterStart.slice(5, 7));
    // a date that does not exist is no filter
    const bad = await runRoute(invoicesRoute.loader as Handler, tok.admin, '/agreements/invoices?to=2026-02-30');
    expect(bad.body!.upcoming.to).toBe(ref.monthEnd);
    const scheduled = await runRoute(invoicesRoute.loader as Handler, tok.admin, '/agreements/invoices?tab=scheduled');
    expect(scheduled.body).toMatchObject({ tab: 'scheduled', upcoming: null });
    expect(scheduled.body!.scheduled.months).toHaveLength(12);
  });

  it('runs "invoice this period" in the background, polled to its end: invoices made, the inactive one skipped', async () => {
    const started = await call('POST', '/api/agreements/invoices/run', tok.admin, { until: ref.monthEnd });
    expect(started.status, started.text).toBe(200);
    const first = started.json().run;
    expect(first).toMatchObject({ untilDate: ref.monthEnd, total: 3 });
    expect(['queued', 'running', 'done']).toContain(first.status);

    const done = await waitForRun(first.id);
    expect(done).toMatchObject({ status: 'done', total: 3, done: 3, created: 2, workOrders: 0, warnings: [] });
    expect(done.skipped).toEqual([
      {
        objectAgreementId: expect.any(String),
        serialCode: 'OBJ-AI3',
        periodFrom: ref.monthStart,
        reason: 'OBJECT_INACTIVE',
        businessObjectId: ref.inactiveObject,
      },
    ]);
    expect((await call('GET', '/api/agreements/invoices/run', tok.admin)).json().run.id).toBe(first.id);

    // the page's poll and its reload show the same run, its report kept
    const polled = await runRoute(runRoute_.loader as Handler, tok.admin, `/agreements/invoices/run?id=${first.id}`);
    expect(polled.body!.run).toMatchObject({ id: first.id, status: 'done', created: 2, skippedCount: 1 });
    const latest = await runRoute(runRoute_.loader as Handler, tok.admin, '/agreements/invoices/run');
    expect(latest.body!.run.id).toBe(first.id);
    const page = await runRoute(invoicesRoute.loader as Handler, tok.admin, '/agreements/invoices');
    expect(page.body!.run).toMatchObject({ id: first.id, status: 'done', skipped: [{ reason: 'OBJECT_INACTIVE' }] });
    const missing = await runRoute(
      runRoute_.loader as Handler,
      tok.admin,
      '/agreements/invoices/run?id=00000000-0000-4000-8000-000000000000',
    );
    expect(missing.status).toBe(404);

    // made: the list keeps only the held-back one, the badge is 0, the history has the two
    const after = (await call('GET', '/api/agreements/invoices/upcoming', tok.admin)).json();
    expect(after.totalCount).toBe(1);
    expect(after.invoices[0]).toMatchObject({ serialCode: 'OBJ-AI3', skipReason: 'OBJECT_INACTIVE' });
    expect((await call('GET', '/api/invoice/agreement/count', tok.admin)).json()).toEqual({ count: 0 });
    const history = (await call('GET', '/api/invoice/agreement/history', tok.admin)).json();
    expect(history).toMatchObject({
      startTime: ref.monthStart,
      endTime: ref.monthEnd,
      totalCount: 2,
      totalPrice: '2400.00',
    });
    expect((history.invoices as Json[]).map((i) => i.serialCode).sort()).toEqual(['OBJ-AI1', 'OBJ-AI2']);
    expect(history.invoices[0]).toMatchObject({
      periodFrom: ref.monthStart,
      periodTo: ref.monthEnd,
      agreementTitle: 'Larmövervakning',
      totalPrice: '1200.00',
    });
    // the report links what the run made (issue 28 item 16)
    expect(done.made.invoices.map((i: Json) => i.id).sort()).toEqual(
      (history.invoices as Json[]).map((i) => i.id).sort(),
    );
    expect(done.made.invoices[0]).toMatchObject({ invoiceNr: expect.anything(), customerName: expect.any(String) });
    // a quarter invoiced from an earlier month is still in this month's history: periods overlapping the window
    const moved = history.invoices[0].id as string;
    await withTenant(tenant, (trx) =>
      trx('invoices')
        .where({ id: moved })
        .update({
          period_from: trx.raw(`period_from - interval '1 month'`),
          period_to: trx.raw(`period_to + interval '1 month'`),
        }),
    );
    const overlapping = (await call('GET', '/api/invoice/agreement/history', tok.admin)).json();
    expect(overlapping.totalCount).toBe(2);
    expect((overlapping.invoices as Json[]).map((i) => i.id)).toContain(moved);
    const before = (
      await call('GET', `/api/invoice/agreement/history?startTime=2000-01-01&endTime=2000-01-31`, tok.admin)
    ).json();
    expect(before.totalCount).toBe(0);
    const historyPage = await runRoute(invoicesRoute.loader as Handler, tok.admin, '/agreements/invoices?tab=history');
    expect(historyPage.body).toMatchObject({ tab: 'history', history: { totalCount: 2, totalPrice: '2400.00' } });

    // a second run finds nothing new to make
    const again = await call('POST', '/api/agreements/invoices/run', tok.admin, { until: ref.monthEnd });
    const second = await waitForRun(again.json().run.id);
    expect(second.id).not.toBe(first.id);
    expect(second).toMatchObject({ status: 'done', created: 0 });
    expect(second.skipped.map((s: Json) => s.reason)).toEqual(['OBJECT_INACTIVE']);
    expect((await call('GET', '/api/invoice/agreement/history', tok.admin)).json().totalCount).toBe(2);
  });

  it('starts a run from the page’s action; a bad date is a field error', async () => {
    const started = await runRoute(invoicesRoute.action as Handler, tok.admin, '/agreements/invoices', {
      method: 'POST',
      form: { until: ref.monthEnd },
    });
    expect(started).toMatchObject({ status: 200, body: { ok: true, run: { untilDate: ref.monthEnd } } });
    const run = await waitForRun(started.body!.run.id);
    expect(run).toMatchObject({ status: 'done', created: 0 });
    const bad = await runRoute(invoicesRoute.action as Handler, tok.admin, '/agreements/invoices', {
      method: 'POST',
      form: { until: 'soon' },
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_FAILED', fields: { until: ['ERROR_INVALID_DATE'] } },
    });
  });

  it('previews a price adjustment and applies it at once for today, or leaves it waiting for a later date', async () => {
    const preview = await call('POST', '/api/agreements/pricing/preview', tok.admin, {
      agreementIds: [ref.type],
      percent: 5,
      effectiveFrom: ref.today,
    });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.json()).toMatchObject({ oldTotal: '3600.00', newTotal: '3780.00' });
    expect(preview.json().rows).toHaveLength(3);
    expect(preview.json().rows[0]).toMatchObject({ serialCode: 'OBJ-AI1', oldAmount: '1200.00', newAmount: '1260.00' });

    // the page's action says the same, and "2,5" is 2.5
    const pagePreview = await runRoute(adjustRoute.action as Handler, tok.admin, '/agreements/price-adjustment', {
      method: 'POST',
      json: { intent: 'preview', agreementIds: [ref.type], percent: '2,5', effectiveFrom: ref.today },
    });
    expect(pagePreview.body).toMatchObject({ ok: true, preview: { oldTotal: '3600.00', newTotal: '3690.00' } });
    const noPercent = await runRoute(adjustRoute.action as Handler, tok.admin, '/agreements/price-adjustment', {
      method: 'POST',
      json: { intent: 'preview', agreementIds: [ref.type], percent: '', effectiveFrom: ref.today },
    });
    expect(noPercent).toMatchObject({ status: 400, body: { fields: { percent: ['ERROR_INVALID_NUMBER'] } } });
    const nothing = await runRoute(adjustRoute.action as Handler, tok.admin, '/agreements/price-adjustment', {
      method: 'POST',
      json: { intent: 'preview', agreementIds: [], percent: '5', effectiveFrom: ref.today },
    });
    expect(nothing).toMatchObject({
      status: 400,
      body: { fields: { objectAgreementIds: ['AGREEMENT_ADJUSTMENT_NOTHING_CHOSEN'] } },
    });

    const now = await call('POST', '/api/agreements/pricing/adjust', tok.admin, {
      agreementIds: [ref.type],
      percent: 5,
      effectiveFrom: ref.today,
    });
    expect(now.status, now.text).toBe(200);
    expect(now.json()).toMatchObject({ agreements: 3, applied: true });
    const upcoming = (await call('GET', '/api/agreements/invoices/upcoming', tok.admin)).json();
    expect(upcoming.invoices[0].amount).toBe('1260.00');

    // a date to come waits; applying through the page with one agreement left out of the preview
    const nextYear = `${Number(ref.today.slice(0, 4)) + 1}-01-01`;
    const rows = preview.json().rows as Json[];
    const later = await runRoute(adjustRoute.action as Handler, tok.admin, '/agreements/price-adjustment', {
      method: 'POST',
      json: {
        intent: 'apply',
        agreementIds: [],
        objectAgreementIds: rows.slice(0, 2).map((r) => r.objectAgreementId),
        percent: '3',
        effectiveFrom: nextYear,
      },
    });
    expect(later.body).toMatchObject({ ok: true, result: { agreements: 2, applied: false } });
    const list = (await call('GET', '/api/agreements/pricing/adjustments', tok.admin)).json().adjustments as Json[];
    expect(list.map((x) => [x.percent, x.effectiveFrom, x.agreements, x.appliedAt === null])).toEqual([
      ['3.00', nextYear, 2, true],
      ['5.00', ref.today, 3, false],
    ]);
    const page = await runRoute(adjustRoute.loader as Handler, tok.admin, '/agreements/price-adjustment');
    expect(page.body).toMatchObject({ defaultDate: nextYear, today: ref.today });
    expect(page.body!.types).toContainEqual(expect.objectContaining({ id: ref.type, code: 'LARM-M', objectCount: 3 }));
    expect(page.body!.adjustments).toHaveLength(2);
    // still 1260: the waiting one has not changed a price
    expect((await call('GET', '/api/agreements/invoices/upcoming', tok.admin)).json().invoices[0].amount).toBe(
      '1260.00',
    );
  });
});
