import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { getTenantBySlug } from '~/tenants/registry';
import { withTenant } from '~/core/db/with-tenant';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ids = {} as Record<'tech' | 'admin' | 'sem' | 'arb' | 'narv' | 'wo', string>;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

async function sql(t: TestTenant, text: string, bindings: unknown[] = []) {
  const tenant = await getTenantBySlug(t.slug);
  return withTenant(
    tenant!,
    async (trx) => (await trx.raw(text, bindings as never[])).rows as Record<string, unknown>[],
  );
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('time-a');
  b = await createTestTenant('time-b');
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  const users = await sql(a, `select id, email from users`);
  ids.tech = users.find((u) => u.email === a.technicianEmail)!.id as string;
  ids.admin = users.find((u) => u.email === a.adminEmail)!.id as string;
  const tags = await sql(a, `select id, code from time_report_tags`);
  ids.sem = tags.find((t) => t.code === 'SEM')!.id as string;
  ids.arb = tags.find((t) => t.code === 'ARB')!.id as string;
  ids.narv = tags.find((t) => t.code === 'NARV')!.id as string;
  // a work order with the technician's time on Tuesday of week 46 of 2026 (10 November)
  const [wo] = await sql(
    a,
    `insert into work_orders (number, title, status_id, work_type_id)
     select 'WO-1', 'Larmservice', (select id from work_order_statuses limit 1), (select id from work_types limit 1)
     returning id`,
  );
  ids.wo = wo!.id as string;
  await sql(a, `insert into work_order_assignees (work_order_id, user_id) values (?, ?)`, [ids.wo, ids.tech]);
  await sql(
    a,
    `insert into work_order_time (work_order_id, user_id, date, work_minutes, travel_minutes) values (?, ?, '2026-11-10', 150, 30)`,
    [ids.wo, ids.tech],
  );
  await sql(a, `insert into company_holidays (date, name) values ('2026-11-13', 'Klämdag')`);
});
afterAll(() => srv.close());

const report = (body: Record<string, unknown>, token = tok.tech) => call('POST', '/api/timereports', token, body);

describe('time reports: the week', () => {
  it('a technician reports work, absence and attendance; the week shows them with work-order time, the holiday and totals', async () => {
    const work = await report({ tagId: ids.arb, date: '2026-11-09', startTime: '07:00', endTime: '11:30' });
    expect(work.status, work.text).toBe(200);
    expect(work.json<{ timeReport: { minutes: number } }>().timeReport.minutes).toBe(270);
    // a second range the same day, touching the first (multi)
    expect((await report({ tagId: ids.arb, date: '2026-11-09', startTime: '11:30', endTime: '16:00' })).status).toBe(
      200,
    );
    // a whole day of vacation: the scheduled 8 hours
    const sem = await report({ tagId: ids.sem, date: '2026-11-11' });
    expect(sem.json<{ timeReport: { minutes: number; tagCode: string } }>().timeReport).toMatchObject({
      minutes: 480,
      tagCode: 'SEM',
    });
    // attendance at its default time
    const narv = await report({ tagId: ids.narv, date: '2026-11-12' });
    expect(narv.json<{ timeReport: { startTime: string; endTime: string } }>().timeReport).toMatchObject({
      startTime: '07:00',
      endTime: '16:00',
    });

    const week = await call('GET', '/api/timereports/week/2026/46', tok.tech);
    expect(week.status, week.text).toBe(200);
    const w = week.json<{
      days: {
        date: string;
        holiday: string | null;
        scheduledMinutes: number;
        totals: { total: number; workOrder: number; absence: number; attend: number };
      }[];
      totals: { total: number; scheduled: number };
      canEdit: boolean;
    }>();
    expect(w.days.map((d) => d.date)).toEqual([
      '2026-11-09',
      '2026-11-10',
      '2026-11-11',
      '2026-11-12',
      '2026-11-13',
      '2026-11-14',
      '2026-11-15',
    ]);
    expect(w.days[0]!.totals.total).toBe(540);
    expect(w.days[1]!.totals).toMatchObject({ workOrder: 180, total: 180 });
    expect(w.days[2]!.totals).toMatchObject({ absence: 480, total: 480 });
    // attendance is shown apart, not counted against the schedule
    expect(w.days[3]!.totals).toMatchObject({ attend: 540, total: 0 });
    expect(w.days[4]).toMatchObject({ holiday: 'Klämdag', scheduledMinutes: 0 });
    expect(w.totals).toMatchObject({ total: 1200, scheduled: 4 * 480 });
    expect(w.canEdit).toBe(true);
  });

  it('refuses overlapping ranges, equal start and end, and an unknown tag, with field errors', async () => {
    const overlap = await report({ tagId: ids.arb, date: '2026-11-09', startTime: '10:00', endTime: '12:00' });
    expect(overlap.status).toBe(400);
    expect(overlap.json<{ fields: Record<string, string[]> }>().fields).toEqual({
      startTime: ['ERROR_RANGES_OVERLAP'],
    });
    const same = await report({ tagId: ids.arb, date: '2026-11-16', startTime: '10:00', endTime: '10:00' });
    expect(same.json<{ fields: Record<string, string[]> }>().fields).toEqual({
      endTime: ['ERROR_RANGE_START_EQUALS_END'],
    });
    const tag = await report({ tagId: '00000000-0000-0000-0000-000000000000', date: '2026-11-16', reportedHours: 2 });
    expect(tag.json<{ fields: Record<string, string[]> }>().fields).toEqual({ tagId: ['ERROR_INVALID_VALUE'] });
    // a night shift wraps past midnight
    const night = await report({ tagId: ids.arb, date: '2026-11-16', startTime: '22:00', endTime: '06:00' });
    expect(night.json<{ timeReport: { minutes: number } }>().timeReport.minutes).toBe(480);
  });

  it('refuses a day of more than 24 hours, counting work-order time inside the own work once (issue 28 item 2)', async () => {
    const day = '2026-09-15';
    // 20 h of own work and 10 h on an order the same day: the order's time is inside the 20 h, 20 h in all
    expect((await report({ tagId: ids.arb, date: day, reportedHours: 20 })).status).toBe(200);
    const order = await call('PUT', '/api/wo/time', tok.tech, { workOrderId: ids.wo, date: day, hours: 10 });
    expect(order.status, order.text).toBe(200);
    // 5 h more own work makes 25 h: refused, and nothing of it is written
    const over = await report({ tagId: ids.arb, date: day, reportedHours: 5 });
    expect(over.status).toBe(400);
    expect(over.json<{ fields: Record<string, string[]> }>().fields).toEqual({
      reportedHours: ['TIME_REPORT_DAY_OVER_24_HOURS'],
    });
    // 4 h of absence fits exactly (24 h); one more hour on the order beyond the own work does not
    expect((await report({ tagId: ids.sem, date: day, reportedHours: 4 })).status).toBe(200);
    const more = await call('PUT', '/api/wo/time', tok.tech, { workOrderId: ids.wo, date: day, hours: 21 });
    expect(more.status).toBe(400);
    expect(more.json<{ fields: Record<string, string[]> }>().fields).toEqual({
      hours: ['TIME_REPORT_DAY_OVER_24_HOURS'],
    });
    const rows = await sql(
      a,
      `select (select sum(minutes) from time_reports where user_id = ? and date = ?)::int as own,
              (select sum(work_minutes) from work_order_time where user_id = ? and date = ?)::int as orders`,
      [ids.tech, day, ids.tech, day],
    );
    expect(rows[0]).toEqual({ own: 24 * 60, orders: 10 * 60 });
  });

  it('a time report list spans at most 60 days', async () => {
    const ok = await call('GET', '/api/timereports?startTime=2026-11-01&endTime=2026-12-30', tok.tech);
    expect(ok.status).toBe(200);
    const tooLong = await call('GET', '/api/timereports?startTime=2026-11-01&endTime=2026-12-31', tok.tech);
    expect(tooLong.status).toBe(400);
    expect(tooLong.json<{ fields: Record<string, string[]> }>().fields).toEqual({
      endTime: ['ERROR_TIME_SPAN_TOO_LONG'],
    });
  });

  it("only the office reads and writes someone else's time; another tenant's report is not found", async () => {
    expect((await call('GET', `/api/timereports/week/2026/46?userId=${ids.admin}`, tok.tech)).status).toBe(403);
    expect((await report({ tagId: ids.arb, date: '2026-11-17', reportedHours: 1, userId: ids.admin })).status).toBe(
      403,
    );
    const office = await call('GET', `/api/timereports/week/2026/46?userId=${ids.tech}`, tok.admin);
    expect(office.status).toBe(200);
    const [row] = await sql(a, `select id from time_reports limit 1`);
    expect((await call('DELETE', `/api/timereports/${row!.id}`, tok.adminB, undefined, b.host)).status).toBe(404);
    expect(
      (await call('GET', `/api/timereports/week/2026/46?userId=${ids.tech}`, tok.adminB, undefined, b.host)).status,
    ).toBe(404);
  });

  it('copies last week onto this week, skipping days that have reports', async () => {
    // week 47: Monday already has a report
    await report({ tagId: ids.arb, date: '2026-11-16', reportedHours: 1 });
    const copy = await call('POST', '/api/timereports/week/copy', tok.tech, { year: 2026, week: 47 });
    expect(copy.status, copy.text).toBe(200);
    // week 46's work and attendance: Monday's two ranges (Monday is busy) and Thursday's attendance; not the absence
    expect(copy.json<{ copied: number }>().copied).toBe(1);
    const rows = await sql(
      a,
      `select to_char(date, 'YYYY-MM-DD') d from time_reports where date >= '2026-11-17' and user_id = ?`,
      [ids.tech],
    );
    expect(rows.map((r) => r.d)).toEqual(['2026-11-19']);
  });

  it('week 53 of 2026 exists and runs into 2027; week 54 does not', async () => {
    const w53 = await call('GET', '/api/timereports/week/2026/53', tok.tech);
    expect(w53.json<{ days: { date: string }[] }>().days.map((d) => d.date)).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
    expect((await call('GET', '/api/timereports/week/2026/54', tok.tech)).status).toBe(400);
  });
});

describe('time reports: the office', () => {
  it("the month for everyone sums each person's days; approving stops the person's changes until reopened", async () => {
    const month = await call('GET', '/api/timereports/month/2026/11', tok.admin);
    expect(month.status, month.text).toBe(200);
    const m = month.json<{
      people: {
        userId: string;
        totals: { total: number; absence: number; workOrder: number };
        days: Record<string, { total: number }>;
      }[];
    }>();
    const tech = m.people.find((p) => p.userId === ids.tech)!;
    expect(tech.totals).toMatchObject({ workOrder: 180, absence: 480 });
    expect(tech.days['2026-11-09']!.total).toBe(540);
    expect((await call('GET', '/api/timereports/month/2026/11', tok.tech)).status).toBe(403);

    const approve = await call('POST', '/api/timereports/month/approval', tok.admin, {
      userId: ids.tech,
      year: 2026,
      month: 11,
      approved: true,
    });
    expect(approve.status, approve.text).toBe(200);
    const parent = approve.json<{ parent: { id: string; status: string; approvedBy: string } }>().parent;
    expect(parent.status).toBe('approved');
    const refused = await report({ tagId: ids.arb, date: '2026-11-20', reportedHours: 2 });
    expect(refused.status).toBe(409);
    expect(refused.json<{ code: string }>().code).toBe('TIME_REPORT_APPROVED');
    // also on a work order
    const wo = await call('PUT', '/api/wo/time', tok.tech, { workOrderId: ids.wo, date: '2026-11-20', hours: 1 });
    expect(wo.json<{ code: string }>().code).toBe('TIME_REPORT_APPROVED');
    expect((await call('GET', `/api/timereports/parent/${parent.id}`, tok.tech)).status).toBe(200);
    expect(
      (
        await call('POST', '/api/timereports/parent', tok.admin, {
          userId: ids.tech,
          periodStart: '2026-11-01',
          periodEnd: '2026-11-30',
        })
      ).status,
    ).toBe(409);

    await call('PUT', '/api/timereports/parent', tok.admin, { id: parent.id, status: 'open' });
    expect((await report({ tagId: ids.arb, date: '2026-11-20', reportedHours: 2 })).status).toBe(200);
  });

  it('a month locked by hand refuses changes in the week and on work orders; unlocking needs timereports:edit and is in the history', async () => {
    expect((await call('POST', '/api/timereports/lock', tok.tech, { month: '2026-10' })).status).toBe(403);
    const lock = await call('POST', '/api/timereports/lock', tok.admin, { month: '2026-10' });
    expect(lock.status, lock.text).toBe(200);
    expect(lock.json()).toMatchObject({ month: '2026-10-01', locked: true, byHand: true });

    const week = await report({ tagId: ids.arb, date: '2026-10-20', reportedHours: 2 });
    expect(week.json<{ code: string }>().code).toBe('TIME_REPORT_LOCKED');
    const wo = await call('PUT', '/api/wo/time', tok.tech, { workOrderId: ids.wo, date: '2026-10-20', hours: 1 });
    expect(wo.json<{ code: string }>().code).toBe('TIME_REPORT_LOCKED');

    const w = await call('GET', '/api/timereports/week/2026/44', tok.tech);
    expect(w.json<{ days: { date: string; locked: boolean }[] }>().days.map((d) => d.locked)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    const months = await call('GET', '/api/timereports/lock?year=2026', tok.admin);
    expect(
      months
        .json<{ months: { month: string; locked: boolean }[] }>()
        .months.filter((m) => m.locked)
        .map((m) => m.month),
    ).toEqual(['2026-10-01']);

    expect((await call('POST', '/api/timereports/unlock', tok.admin, { month: '2026-10' })).status).toBe(200);
    expect((await report({ tagId: ids.arb, date: '2026-10-20', reportedHours: 2 })).status).toBe(200);
    const history = await sql(
      a,
      `select action from history where entity = 'time_period' and entity_id = '2026-10-01' order by id`,
    );
    expect(history.map((h) => h.action)).toEqual(['lock', 'unlock']);
  });

  it('a month that has not ended is locked only when asked explicitly (issue 28 item 2)', async () => {
    // next January has not ended whatever day this runs
    const month = `${new Date().getUTCFullYear() + 1}-01`;
    const refused = await call('POST', '/api/timereports/lock', tok.admin, { month });
    expect(refused.status).toBe(409);
    expect(refused.json<{ code: string }>().code).toBe('TIME_MONTH_NOT_ENDED');
    expect(await sql(a, `select month from time_period_locks where month = ?`, [`${month}-01`])).toEqual([]);
    const early = await call('POST', '/api/timereports/lock', tok.admin, { month, early: true });
    expect(early.status, early.text).toBe(200);
    expect(early.json()).toMatchObject({ month: `${month}-01`, locked: true, byHand: true });
    expect((await call('POST', '/api/timereports/unlock', tok.admin, { month })).status).toBe(200);
  });

  it("the lock day locks last month; the office can open it again; a month's lock day past its end is its last day", async () => {
    // today (the server's clock) is after the lock day 1 of this month: last month is locked
    await sql(a, `update work_order_settings set time_lock_day = 1`);
    const today = new Date();
    const last = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 15)).toISOString().slice(0, 10);
    const refused = await report({ tagId: ids.arb, date: last, reportedHours: 1 });
    expect(refused.json<{ code: string }>().code).toBe('TIME_REPORT_LOCKED');
    expect((await call('POST', '/api/timereports/unlock', tok.admin, { month: last.slice(0, 7) })).status).toBe(200);
    expect((await report({ tagId: ids.arb, date: last, reportedHours: 1 })).status).toBe(200);
    // locking it again by hand removes the hand-set row: the rule locks it anyway
    expect((await call('POST', '/api/timereports/lock', tok.admin, { month: last.slice(0, 7) })).status).toBe(200);
    expect(await sql(a, `select month from time_period_locks where month = ?`, [`${last.slice(0, 7)}-01`])).toEqual([]);
    await sql(a, `update work_order_settings set time_lock_day = null`);
  });
});
