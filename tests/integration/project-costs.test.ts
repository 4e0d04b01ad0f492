import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loader as costsLoader } from '~/app/routes/projects.$id.costs';
import { loader as pdfLoader } from '~/app/routes/projects.$id.pdf';
import { tenantToday } from '~/core/calendar/tenant-today';
import { withTenant } from '~/core/db/with-tenant';
import { closeBrowser } from '~/core/documents/pdf';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { postBinary } from '~/tests/helpers/binary';
import { pdfText } from '~/tests/helpers/pdf-text';
import { runLoaderAs } from '~/tests/helpers/route-loader';

/*
 * A project's costs, snapshots, time reports, statistics and report (issue 18): what a project
 * costs (time at its hourly cost or the settings', articles at purchase price), the ongoing cost
 * since the reset day, snapshots, the period's time rows, the statistics and the PDF, isolated per
 * tenant and behind projects:read.
 */

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ids = {} as Record<'admin' | 'tech' | 'p1' | 'p2' | 'closed' | 'wo1' | 'wo2' | 'wo3' | 'wo4' | 'woDel', string>;
let today = '';
let ago40 = '';
let ago60 = '';

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

async function sql(text: string, bindings: unknown[] = []) {
  return withTenant(
    tenantA,
    async (trx) => (await trx.raw(text, bindings as never[])).rows as Record<string, unknown>[],
  );
}

const daysBefore = (day: string, n: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('pcost-a');
  b = await createTestTenant('pcost-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  today = tenantToday({ tenant: tenantA, now: new Date() });
  ago40 = daysBefore(today, 40);
  ago60 = daysBefore(today, 60);
  const users = await sql(`select id, email from users`);
  ids.admin = users.find((u) => u.email === a.adminEmail)!.id as string;
  ids.tech = users.find((u) => u.email === a.technicianEmail)!.id as string;

  // the settings: hourly cost 400, price 800; costs reset on today's day of the month
  await sql(`update project_settings set hourly_cost = 400, hourly_price = 800, cost_reset_day = ?`, [
    Number(today.slice(8, 10)),
  ]);
  const [p1] = await sql(
    `insert into projects (number, title, status, hourly_cost, estimated_hours, estimated_cost, contract_sum,
                           responsible_user_id, start_date)
     values (1001, 'Passersystem Kvarnen', 'ongoing', 500, 10, 10000, 50000, ?, ?) returning id`,
    [ids.admin, ago60],
  );
  ids.p1 = p1!.id as string;
  const [p2] = await sql(`insert into projects (number, title) values (1002, 'Larm Solrosen') returning id`);
  ids.p2 = p2!.id as string;
  const [closed] = await sql(
    `insert into projects (number, title, status, closed_at) values (1003, 'Stängt projekt', 'closed', now()) returning id`,
  );
  ids.closed = closed!.id as string;
  const [customer] = await sql(
    `insert into customers (customer_id, name) values ('20001', 'Brf Kvarnen') returning id`,
  );
  await sql(`insert into project_customers (project_id, customer_id) values (?, ?)`, [ids.p1, customer!.id]);

  const order = async (number: string, projectId: string, extra: string | null, closed = false, deleted = false) => {
    const [w] = await sql(
      `insert into work_orders (number, title, status_id, work_type_id, project_id, project_extra_status, closed_at, deleted_at)
       select ?, ?, (select id from work_order_statuses order by sort_order limit 1), (select id from work_types limit 1),
              ?, ?, ${closed ? 'now()' : 'null'}, ${deleted ? 'now()' : 'null'}
       returning id`,
      [number, `Order ${number}`, projectId, extra],
    );
    return w!.id as string;
  };
  ids.wo1 = await order('P-1', ids.p1, null);
  ids.wo2 = await order('P-2', ids.p1, 'accepted', true);
  ids.wo4 = await order('P-4', ids.p1, 'pending');
  ids.woDel = await order('P-DEL', ids.p1, 'declined', false, true);
  ids.wo3 = await order('S-1', ids.p2, null);

  const time = (wo: string, user: string, date: string, work: number, travel: number, comment: string | null = null) =>
    sql(
      `insert into work_order_time (work_order_id, user_id, date, work_minutes, travel_minutes, comment) values (?, ?, ?, ?, ?, ?)`,
      [wo, user, date, work, travel, comment],
    );
  // project 1: 2 h today (90 work + 30 travel) and 4 h 40 days ago; 10 h on a deleted order do not count
  await time(ids.wo1, ids.admin, today, 90, 30, 'Dragit kabel till centralen');
  await time(ids.wo2, ids.tech, ago40, 240, 0);
  await time(ids.woDel, ids.tech, today, 600, 0);
  // project 2: 30 minutes at the settings' hourly cost
  await time(ids.wo3, ids.tech, today, 30, 0);

  const [article] = await sql(
    `insert into articles (article_id, title, price, purchase_price, unit) values ('KORTL-1', 'Kortläsare', 150, 100, 'st') returning id`,
  );
  const row = (wo: string, amount: number, purchase: number | null, total: number, createdAt: string) =>
    sql(
      `insert into work_order_articles (work_order_id, article_id, title, amount, price, purchase_price, total, created_at)
       values (?, ?, 'Kortläsare', ?, 150, ?, ?, ?)`,
      [wo, article!.id, amount, purchase, total, createdAt],
    );
  // 2 × the article's 100 (today) and 3 × the row's own 50 (60 days ago); a deleted order's row does not count
  await row(ids.wo1, 2, null, 300, new Date().toISOString());
  await row(ids.wo2, 3, 50, 450, `${ago60}T10:00:00Z`);
  await row(ids.woDel, 10, 100, 1500, new Date().toISOString());

  // invoiced: the final invoice counts, the draft and the voided one do not
  for (const [status, total] of [
    ['finalized', 1000],
    ['draft', 500],
    ['void', 700],
  ] as const)
    await sql(
      `insert into invoices (status, invoice_date, total_price, project_id, project_contract_amount) values (?, ?, ?, ?, ?)`,
      [status, today, total, ids.p1, total],
    );
  for (const [title, done] of [
    ['Projektering', true],
    ['Installation', false],
    ['Driftsättning', false],
  ] as const)
    await sql(
      `insert into project_activities (project_id, title, completed_at) values (?, ?, ${done ? 'now()' : 'null'})`,
      [ids.p1, title],
    );
});

afterAll(async () => {
  await closeBrowser();
  await srv.close();
});

interface Costs {
  hourlyCost: string;
  hourlyCostSource: string;
  time: { workMinutes: number; travelMinutes: number; minutes: number; hours: string; cost: string };
  articles: { count: number; cost: string; salesTotal: string };
  total: string;
  ongoing: { since: string; timeCost: string; articleCost: string; cost: string };
  byMonth: { month: string; timeCost: string; articleCost: string; total: string }[];
  byUser: { userId: string; name: string; minutes: number; hours: string; cost: string }[];
  estimated: { hours: string | null; cost: string | null };
  difference: { hours: string | null; cost: string | null };
}

describe('project costs', () => {
  it('values time at the project’s hourly cost and articles at purchase price, leaving deleted orders out', async () => {
    const res = await call('GET', `/api/projects/${ids.p1}/costs`, tok.admin);
    expect(res.status, res.text).toBe(200);
    const c = res.json<{ costs: Costs }>().costs;
    expect(c.hourlyCost).toBe('500.00');
    expect(c.hourlyCostSource).toBe('project');
    // 360 minutes = 6 h × 500
    expect(c.time).toEqual({ workMinutes: 330, travelMinutes: 30, minutes: 360, hours: '6.00', cost: '3000.00' });
    // 2 × 100 (the article's purchase price) + 3 × 50 (the row's own)
    expect(c.articles).toEqual({ count: 2, cost: '350.00', salesTotal: '750.00' });
    expect(c.total).toBe('3350.00');
    expect(c.estimated).toEqual({ hours: '10.00', cost: '10000.00' });
    expect(c.difference).toEqual({ hours: '4.00', cost: '6650.00' });
    expect(c.byUser).toEqual([
      { userId: ids.tech, name: 'Tess Tekniker', minutes: 240, hours: '4.00', cost: '2000.00' },
      expect.objectContaining({ userId: ids.admin, minutes: 120, hours: '2.00', cost: '1000.00' }),
    ]);
    expect(c.byMonth).toHaveLength(12);
    expect(c.byMonth[11]!.month).toBe(today.slice(0, 7));
    const sum = (k: 'timeCost' | 'articleCost') => c.byMonth.reduce((s, m) => s + Number(m[k]), 0);
    expect(sum('timeCost')).toBe(3000);
    expect(sum('articleCost')).toBe(350);
    expect(c.byMonth.find((m) => m.month === ago60.slice(0, 7))!.articleCost).toBe('150.00');
  });

  it('counts the ongoing cost from the last reset day (today’s day of the month: only today’s rows)', async () => {
    const c = (await call('GET', `/api/projects/${ids.p1}/costs`, tok.admin)).json<{ costs: Costs }>().costs;
    expect(c.ongoing).toMatchObject({ since: today, timeCost: '1000.00', articleCost: '200.00', cost: '1200.00' });
  });

  it('falls back on the settings’ hourly cost when the project has none', async () => {
    const c = (await call('GET', `/api/projects/${ids.p2}/costs`, tok.admin)).json<{ costs: Costs }>().costs;
    expect(c.hourlyCost).toBe('400.00');
    expect(c.hourlyCostSource).toBe('settings');
    expect(c.time).toMatchObject({ minutes: 30, hours: '0.50', cost: '200.00' });
    expect(c.articles).toEqual({ count: 0, cost: '0.00', salesTotal: '0.00' });
    expect(c.total).toBe('200.00');
    expect(c.estimated).toEqual({ hours: null, cost: null });
    expect(c.difference).toEqual({ hours: null, cost: null });
  });
});

describe('cost snapshots', () => {
  it('stores the computed ongoing cost, or the one given, and lists them newest first', async () => {
    const first = await call('POST', `/api/projects/${ids.p1}/snapshot`, tok.admin, {});
    expect(first.status, first.text).toBe(200);
    const f = first.json<{ totalCost: string; snapshot: Record<string, unknown> }>();
    expect(f.totalCost).toBe('3350.00');
    expect(f.snapshot).toMatchObject({ ongoingCost: '1200.00', totalCost: '3350.00', periodStart: today });

    const given = await call('POST', `/api/projects/${ids.p1}/snapshot`, tok.admin, { ongoingCost: '999,5' });
    expect(given.status, given.text).toBe(200);
    expect(given.json<{ snapshot: { ongoingCost: string } }>().snapshot.ongoingCost).toBe('999.50');

    const list = await call('GET', `/api/projects/${ids.p1}/snapshot`, tok.admin);
    expect(list.status, list.text).toBe(200);
    const l = list.json<{ totalCost: string; snapshots: { ongoingCost: string; createUserName: string | null }[] }>();
    expect(l.totalCost).toBe('3350.00');
    expect(l.snapshots.map((s) => s.ongoingCost)).toEqual(['999.50', '1200.00']);
    expect(l.snapshots[0]!.createUserName).toBeTruthy();

    const history = await sql(`select action from history where entity = 'project' and entity_id = ?`, [ids.p1]);
    expect(history.filter((h) => h.action === 'cost_snapshot')).toHaveLength(2);
  });

  it('refuses a bad amount and a closed project', async () => {
    const bad = await call('POST', `/api/projects/${ids.p1}/snapshot`, tok.admin, { ongoingCost: 'mycket' });
    expect(bad.status).toBe(400);
    expect(bad.json<{ fields: Record<string, string[]> }>().fields).toEqual({ ongoingCost: ['ERROR_PRICE_PATTERN'] });
    const closed = await call('POST', `/api/projects/${ids.closed}/snapshot`, tok.admin, {});
    expect(closed.status).toBe(409);
    expect(closed.json<{ code: string }>().code).toBe('PROJECT_CLOSED');
  });
});

interface TimeReports {
  period: { from: string; to: string };
  rows: {
    date: string;
    userId: string;
    userName: string;
    workOrderNumber: string;
    workMinutes: number;
    comment: string | null;
  }[];
  totalCount: number;
  byUser: { userId: string; minutes: number; hours: string }[];
  totals: { workMinutes: number; travelMinutes: number; minutes: number };
}

describe('the project’s time reports', () => {
  it('lists the period’s rows with people and orders, and each person’s totals', async () => {
    const res = await call(
      'GET',
      `/api/projects/${ids.p1}/timereports?startTime=${daysBefore(today, 45)}&endTime=${today}`,
      tok.admin,
    );
    expect(res.status, res.text).toBe(200);
    const r = res.json<TimeReports>();
    expect(r.totalCount).toBe(2);
    expect(r.rows.map((x) => [x.date, x.workOrderNumber, x.workMinutes])).toEqual([
      [ago40, 'P-2', 240],
      [today, 'P-1', 90],
    ]);
    expect(r.rows[1]!.comment).toBe('Dragit kabel till centralen');
    expect(r.totals).toEqual({ workMinutes: 330, travelMinutes: 30, minutes: 360, hours: '6.00' });
    expect(r.byUser.map((u) => [u.userId, u.minutes])).toEqual([
      [ids.tech, 240],
      [ids.admin, 120],
    ]);

    const page = (
      await call(
        'GET',
        `/api/projects/${ids.p1}/timereports?startTime=${ago60}&endTime=${today}&limit=1&offset=1`,
        tok.admin,
      )
    ).json<TimeReports>();
    expect(page.totalCount).toBe(2);
    expect(page.rows.map((x) => x.date)).toEqual([today]);

    // this month when no period is given
    const month = (await call('GET', `/api/projects/${ids.p1}/timereports`, tok.admin)).json<TimeReports>();
    expect(month.period.from).toBe(`${today.slice(0, 7)}-01`);
    expect(month.rows.some((x) => x.date === today)).toBe(true);
  });

  it('refuses a period over 366 days and one that ends before it starts', async () => {
    const long = await call(
      'GET',
      `/api/projects/${ids.p1}/timereports?startTime=2025-01-01&endTime=2026-01-02`,
      tok.admin,
    );
    expect(long.status).toBe(400);
    expect(long.json<{ fields: Record<string, string[]> }>().fields).toEqual({
      endTime: ['ERROR_REPORT_PERIOD_TOO_LONG'],
    });
    const leap = await call(
      'GET',
      `/api/projects/${ids.p1}/timereports?startTime=2028-01-01&endTime=2028-12-31`,
      tok.admin,
    );
    expect(leap.status, leap.text).toBe(200);
    const reversed = await call(
      'GET',
      `/api/projects/${ids.p1}/timereports?startTime=2026-02-01&endTime=2026-01-01`,
      tok.admin,
    );
    expect(reversed.json<{ fields: Record<string, string[]> }>().fields).toEqual({
      endTime: ['ERROR_REPORT_PERIOD_REVERSED'],
    });
  });
});

describe('project statistics', () => {
  it('sets hours and cost against the estimate, revenue against cost, and counts orders, extra work and activities', async () => {
    const res = await call('GET', `/api/projects/${ids.p1}/statistics`, tok.admin);
    expect(res.status, res.text).toBe(200);
    expect(res.json<{ statistics: unknown }>().statistics).toEqual({
      projectId: ids.p1,
      hours: { actual: '6.00', estimated: '10.00', percent: '60.0', travel: '0.50' },
      cost: { actual: '3350.00', estimated: '10000.00', percent: '33.5' },
      // the work hours (5.5 h; travel is not billed) × 800 and the article rows' totals
      revenue: { labour: '4400.00', articles: '750.00', total: '5150.00', hourlyPrice: '800.00' },
      invoiced: '1000.00',
      // 50,000 − 1,000 invoiced + the open rows' 5,150
      leftToInvoice: '54150.00',
      contractSum: '50000.00',
      // 1800 / 5150 = 34.95 %
      margin: { amount: '1800.00', percent: '35.0' },
      workOrders: { open: 2, closed: 1, total: 3 },
      extraWork: { pending: 1, accepted: 1, declined: 0 },
      activities: { done: 1, total: 3 },
    });
  });
});

describe('the project report', () => {
  it('is a PDF with the project, its costs and, with details, the time rows', async () => {
    const res = await postBinary(srv.url, `/api/projects/${ids.p1}/pdf`, a.host, tok.admin, { details: true });
    expect(res.status, res.body.toString()).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('project-1001.pdf');
    expect(res.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(res.body);
    expect(text).toContain('Passersystem Kvarnen');
    expect(text).toContain('Brf Kvarnen');
    expect(text).toContain('P-1');
    expect(text).toContain('3 350,00');
    expect(text).toContain('Dragit kabel till centralen');

    const brief = await postBinary(srv.url, `/api/projects/${ids.p1}/pdf`, a.host, tok.admin, {});
    expect(brief.status).toBe(200);
    expect(await pdfText(brief.body)).not.toContain('Dragit kabel till centralen');
  });

  it('downloads from the web route, ?details=1', async () => {
    const res = await runLoaderAs(
      (args: never) => pdfLoader({ ...(args as object), params: { id: ids.p1 } } as never),
      { tenant: tenantA, host: a.host, token: tok.admin },
      `/projects/${ids.p1}/pdf?details=1`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const body = Buffer.from(await res.arrayBuffer());
    expect(await pdfText(body)).toContain('Dragit kabel till centralen');
  });
});

describe('the costs tab’s resource route', () => {
  const load = (url: string, token = tok.admin) =>
    runLoaderAs(
      (args: never) => costsLoader({ ...(args as object), params: { id: ids.p1 } } as never),
      { tenant: tenantA, host: a.host, token },
      url,
    );
  /** What the loader answered: `data(…)` comes back thrown by runLoaderAs (it is not a Response). */
  const body = async (res: Response) =>
    (res as unknown as { data?: unknown }).data ?? (await res.json().catch(() => null));

  it('answers the costs with the snapshots, and a period’s time reports or its refusal', async () => {
    const summary = await load(`/projects/${ids.p1}/costs`).catch((e: unknown) => e as Response);
    const s = (await body(summary)) as {
      part: string;
      costs: { total: string };
      snapshots: unknown[];
      isClosed: boolean;
    };
    expect(s).toMatchObject({ part: 'summary', costs: { total: '3350.00' }, isClosed: false });
    expect(Array.isArray(s.snapshots)).toBe(true);

    const time = (await body(
      await load(`/projects/${ids.p1}/costs?part=time&startTime=${ago60}&endTime=${today}`).catch(
        (e: unknown) => e as Response,
      ),
    )) as { time: { totalCount: number } };
    expect(time.time.totalCount).toBe(2);

    const refused = (await body(
      await load(`/projects/${ids.p1}/costs?part=time&startTime=2025-01-01&endTime=2026-06-30`).catch(
        (e: unknown) => e as Response,
      ),
    )) as { code: string; fields: Record<string, string[]> };
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', fields: { endTime: ['ERROR_REPORT_PERIOD_TOO_LONG'] } });
  });
});

describe('a large project', () => {
  // how fast is the benchmark's business (BENCH_ONLY=projects): here, that the sums are right
  it('sums 5,000 time rows and 5,000 article rows', async () => {
    const [big] = await sql(
      `insert into projects (number, title, hourly_cost) values (1004, 'Stort projekt', 600) returning id`,
    );
    await sql(
      `insert into work_orders (number, title, status_id, work_type_id, project_id)
       select 'B-' || n, 'Del ' || n, (select id from work_order_statuses order by sort_order limit 1),
              (select id from work_types limit 1), ?
         from generate_series(1, 100) n`,
      [big!.id],
    );
    // 50 rows of 60 minutes on each of the 100 orders, spread over the last 300 days, by two people
    await sql(
      `insert into work_order_time (work_order_id, user_id, date, work_minutes, travel_minutes)
       select w.id, case when n % 2 = 0 then ?::uuid else ?::uuid end, current_date - (n * 6), 45, 15
         from work_orders w cross join generate_series(1, 50) n where w.project_id = ?`,
      [ids.admin, ids.tech, big!.id],
    );
    await sql(
      `insert into work_order_articles (work_order_id, article_id, title, amount, price, purchase_price, total)
       select w.id, (select id from articles limit 1), 'Kabel', 2, 20, 10, 40
         from work_orders w cross join generate_series(1, 50) n where w.project_id = ?`,
      [big!.id],
    );
    const res = await call('GET', `/api/projects/${big!.id}/costs`, tok.admin);
    const stats = await call('GET', `/api/projects/${big!.id}/statistics`, tok.admin);
    expect(res.status, res.text).toBe(200);
    const c = res.json<{ costs: Costs }>().costs;
    // 5,000 hours × 600; 5,000 rows × 2 × 10
    expect(c.time).toMatchObject({ minutes: 300_000, hours: '5000.00', cost: '3000000.00' });
    expect(c.articles).toEqual({ count: 5000, cost: '100000.00', salesTotal: '200000.00' });
    expect(c.total).toBe('3100000.00');
    expect(c.byUser.map((u) => u.minutes)).toEqual([150_000, 150_000]);
    expect(stats.json<{ statistics: { hours: { actual: string } } }>().statistics.hours.actual).toBe('5000.00');
  });
});

describe('access', () => {
  it('another tenant’s project, a malformed and a missing id are 404', async () => {
    for (const path of ['costs', 'snapshot', 'timereports', 'statistics']) {
      const res = await call('GET', `/api/projects/${ids.p1}/${path}`, tok.adminB, undefined, b.host);
      expect(res.status, path).toBe(404);
    }
    const pdf = await postBinary(srv.url, `/api/projects/${ids.p1}/pdf`, b.host, tok.adminB, {});
    expect(pdf.status).toBe(404);
    expect((await call('POST', `/api/projects/${ids.p1}/snapshot`, tok.adminB, {}, b.host)).status).toBe(404);
    expect((await call('GET', `/api/projects/not-a-uuid/costs`, tok.admin)).status).toBe(404);
    expect((await call('GET', `/api/projects/00000000-0000-4000-8000-000000000000/statistics`, tok.admin)).status).toBe(
      404,
    );
  });

  it('a technician without projects:read is refused (403)', async () => {
    for (const path of ['costs', 'snapshot', 'timereports', 'statistics']) {
      const res = await call('GET', `/api/projects/${ids.p1}/${path}`, tok.tech);
      expect(res.status, path).toBe(403);
    }
    expect((await call('POST', `/api/projects/${ids.p1}/snapshot`, tok.tech, {})).status).toBe(403);
    expect((await postBinary(srv.url, `/api/projects/${ids.p1}/pdf`, a.host, tok.tech, {})).status).toBe(403);
  });
});
