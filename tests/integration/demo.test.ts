import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDue } from '~/core/agreements/agreement-runs';
import { tenantToday } from '~/core/calendar/tenant-today';
import { isFarBeyondSchedule, workedMinutes } from '~/core/time-reports/time-report.rules';
import { withTenant } from '~/core/db/with-tenant';
import { DEMO, ensureDemoTenant } from '~/tenants/demo';
import { getTenantBySlug } from '~/tenants/registry';
import type { Tenant } from '~/core/tenancy/tenant';
import { uniqueSlug } from '~/tests/helpers/db';
import { startTestServer, type TestServer } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';

/**
 * Issue 11: the demo company is worth exploring: a year of history, created on first start.
 * Made here under its own slug, so each run sees a fresh one (its dates are relative to today).
 */
let srv: TestServer;
let tenant: Tenant;
let host: string;

beforeAll(async () => {
  srv = await startTestServer();
  const slug = uniqueSlug('demo');
  host = `${slug}.ordo.test`;
  const made = await ensureDemoTenant({ slug, hosts: [host] });
  expect(made.created).toBe(true);
  tenant = (await getTenantBySlug(slug))!;
}, 120_000);
afterAll(() => srv?.close());

const count = async (sql: string) =>
  withTenant(tenant, async (trx) => Number(((await trx.raw(sql)) as { rows: { n: string }[] }).rows[0]!.n));

describe('[demo] Nordlarm Säkerhet AB', () => {
  it('bills technicians’ hours and the mileage (per Swedish mil) on the invoice a close makes', async () => {
    const rules = await withTenant(tenant, (trx) =>
      trx('invoice_settings as s')
        .join('articles as l', 'l.id', 's.labour_article_id')
        .join('articles as m', 'm.id', 's.mileage_article_id')
        .first(
          'l.article_id as labour',
          'm.article_id as mileage',
          'm.unit as mileage_unit',
          's.time_rounding_minutes',
        ),
    );
    expect(rules).toEqual({ labour: '90001', mileage: '90004', mileage_unit: 'mil', time_rounding_minutes: 15 });
    // every closed demo order has its invoice; the numbers run on without gaps after the year's
    const invoices = await withTenant(tenant, (trx) =>
      trx('invoices as i')
        .join('work_orders as w', 'w.id', 'i.work_order_id')
        .whereNotNull('w.closed_at')
        .where('i.status', 'finalized')
        .orderBy('i.invoice_sequence')
        .select('i.status', 'i.invoice_nr', 'i.invoice_sequence', 'i.total_price_vat'),
    );
    const numbers = invoices.map((i: { invoice_sequence: string }) => Number(i.invoice_sequence));
    expect(numbers.length).toBeGreaterThan(100);
    expect(numbers.every((n: number, k: number) => k === 0 || n === numbers[k - 1]! + 1)).toBe(true);
    // a project's orders are invoiced by the project, not one by one; an order closed with nothing to
    // bill (no time, no articles) has no invoice, never one of the fee alone (issue 28 item 6)
    const nothingBilled = `not exists (select 1 from work_order_time t where t.work_order_id = w.id)
                    and not exists (select 1 from work_order_articles a where a.work_order_id = w.id)`;
    expect(
      await count(`select count(*) as n from work_orders w where closed_at is not null and project_id is null
                    and not exists (select 1 from invoices i where i.work_order_id = w.id) and not (${nothingBilled})`),
    ).toBe(0);
    expect(
      await count(`select count(*) as n from work_orders w where closed_at is not null and project_id is null
                    and exists (select 1 from invoices i where i.work_order_id = w.id) and ${nothingBilled}`),
    ).toBe(0);
    // the demo has such orders, closed without an invoice
    expect(
      await count(`select count(*) as n from work_orders w where closed_at is not null and project_id is null
                    and ${nothingBilled}`),
    ).toBeGreaterThan(0);
    expect(
      invoices.every(
        (i: { status: string; total_price_vat: string }) => i.status === 'finalized' && Number(i.total_price_vat) > 0,
      ),
    ).toBe(true);
  });

  it('has a drive with manuals and a floor plan on an object, readable through the API', async () => {
    const signIn = await request(srv.url, {
      method: 'POST',
      path: '/api/authenticate',
      host,
      ...jsonBody({ email: DEMO.admin.email, password: DEMO.admin.password }),
    });
    const auth = { authorization: `Bearer ${signIn.json<{ token: string }>().token}` };
    const drive = (await request(srv.url, { path: '/api/file/drive', host, headers: auth })).json<{
      files: { name: string; kind: string }[];
    }>();
    expect(drive.files.map((f) => f.name)).toEqual(['Manualer', 'Mallar', 'Prislistor', 'Elsäkerhetsverket']);
    const found = (await request(srv.url, { path: '/api/file/drive?q=servicerutin', host, headers: auth })).json<{
      files: { id: string }[];
    }>();
    const pdf = await request(srv.url, { path: `/api/file/${found.files[0]!.id}`, host, headers: auth });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.text.startsWith('%PDF-1.4')).toBe(true);
    expect(
      await count(`select count(*) as n from files where owner_type = 'bo' and is_default and thumb_key is not null`),
    ).toBe(1);
  });

  it('has service agreements on six objects, with this quarter’s invoices due at once', async () => {
    expect(await count(`select count(*) as n from agreements`)).toBe(2);
    expect(await count(`select count(*) as n from object_agreements`)).toBe(6);
    const done = await generateDue(tenant, { now: new Date() });
    // three quarterly agreements make this quarter's invoice; their next service visit is next year's
    expect(done.invoices).toBeGreaterThanOrEqual(3);
    expect(done.workOrders).toBe(0);
    expect(done.skipped).toEqual([]);
    expect((await generateDue(tenant, { now: new Date() })).invoices).toBe(0);
  });

  it('has about 40 customers, 150 objects and 1,500 work orders over a year', async () => {
    expect(await count(`select count(*) as n from customers`)).toBeGreaterThanOrEqual(40);
    expect(await count(`select count(*) as n from business_objects`)).toBe(150);
    expect(await count(`select count(*) as n from work_orders where project_id is null`)).toBe(1500);
    expect(
      await count(`select count(*) as n from work_orders where intake_ts < now() - interval '300 days'`),
    ).toBeGreaterThan(50);
    // every customer the orders name has its primary address
    expect(
      await count(
        `select count(*) as n from customers c where not exists (select 1 from customer_addresses a where a.customer_id = c.id and a.is_primary) and c.potential = false`,
      ),
    ).toBe(0);
  });

  it('has this week on the board, some overdue, the newest unplanned, and most closed and invoiced', async () => {
    const signIn = await request(srv.url, {
      method: 'POST',
      path: '/api/authenticate',
      host,
      ...jsonBody({ email: DEMO.admin.email, password: DEMO.admin.password }),
    });
    expect(signIn.status).toBe(200);
    const token = signIn.json<{ token: string }>().token;
    const board = (
      await request(srv.url, {
        path: '/api/wo/calendar?period=week',
        host,
        headers: { authorization: `Bearer ${token}` },
      })
    ).json<{ items: unknown[]; unscheduled: unknown[] }>();
    expect(board.items.length).toBeGreaterThanOrEqual(20);
    expect(board.unscheduled.length).toBeGreaterThan(0);

    const overdue = await count(
      `select count(*) as n from work_orders where closed_at is null and planned_end < now() - interval '1 day'`,
    );
    expect(overdue).toBeGreaterThanOrEqual(5);
    // one notion of planned: every planned order is on the board
    expect(
      await count(
        `select count(*) as n from work_orders w where planned_start is not null
           and not exists (select 1 from work_order_schedules s where s.work_order_id = w.id)`,
      ),
    ).toBe(0);
    const closed = await count(`select count(*) as n from work_orders where closed_at is not null`);
    expect(closed).toBeGreaterThan(1000);
    expect(await count(`select count(*) as n from invoices where status = 'finalized'`)).toBeGreaterThan(900);
    // an invoice's total is its rows' (articles and fee)
    expect(
      await count(
        `select count(*) as n from invoices i
          where i.total_price <> (select coalesce(sum(total), 0) from invoice_rows r where r.invoice_id = i.id)`,
      ),
    ).toBe(0);
    expect(await count(`select count(*) as n from work_order_time`)).toBeGreaterThan(closed - 1);
  });

  it('keeps its users and passwords, has price lists, and documents have a sender', async () => {
    for (const u of DEMO.users) {
      const res = await request(srv.url, {
        method: 'POST',
        path: '/api/authenticate',
        host,
        ...jsonBody({ email: u.email, password: DEMO.admin.password }),
      });
      expect(res.status, u.email).toBe(200);
    }
    expect(await count(`select count(*) as n from price_lists`)).toBeGreaterThan(0);
    expect(await count(`select count(*) as n from articles`)).toBeGreaterThan(20);
    expect(tenant.config.company).toMatchObject({ companyName: DEMO.name, companyNr: expect.any(String) });
  });
  it('has an ongoing project with contract work, an extra work waiting for approval, activities and plans', async () => {
    const [project] = await withTenant(tenant, (trx) =>
      trx('projects').where({ status: 'ongoing' }).select('id', 'contract_sum'),
    );
    expect(Number(project.contract_sum)).toBeGreaterThan(0);
    const of = (sql: string) => count(sql.replace('$p', `'${project.id as string}'`));
    expect(await of(`select count(*) as n from work_orders where project_id = $p`)).toBe(3);
    expect(
      await of(`select count(*) as n from work_orders where project_id = $p and project_extra_status = 'pending'`),
    ).toBe(1);
    expect(
      await of(
        `select count(*) as n from work_order_time t join work_orders w on w.id = t.work_order_id where w.project_id = $p`,
      ),
    ).toBeGreaterThan(0);
    expect(await of(`select count(*) as n from project_activities where project_id = $p`)).toBe(4);
    expect(await of(`select count(*) as n from project_resources where project_id = $p`)).toBeGreaterThan(0);
    expect(await count(`select count(*) as n from projects where status = 'closed'`)).toBe(1);
  });

  it('has no impossible days: no one over 24 h a day or far beyond the schedule in a month, and every technician an employee number (issue 28)', async () => {
    // every person-day of the year: own work, absence and work-order time, counted as the week and payroll count them
    const days = await withTenant(
      tenant,
      async (trx) =>
        (
          await trx.raw(`
          with own as (
            select r.user_id, r.date,
                   sum(r.minutes) filter (where t.type = 'work') as work,
                   sum(r.minutes) filter (where t.type = 'absence') as absence
              from time_reports r join time_report_tags t on t.id = r.tag_id
             group by r.user_id, r.date),
          orders as (
            select w.user_id, w.date, sum(w.work_minutes + w.travel_minutes) as minutes
              from work_order_time w join work_orders o on o.id = w.work_order_id
             where o.deleted_at is null
             group by w.user_id, w.date)
          select coalesce(own.user_id, orders.user_id) as user_id,
                 to_char(coalesce(own.date, orders.date), 'YYYY-MM-DD') as date,
                 coalesce(own.work, 0)::int as work, coalesce(own.absence, 0)::int as absence,
                 coalesce(orders.minutes, 0)::int as orders
            from own full join orders on orders.user_id = own.user_id and orders.date = own.date`)
        ).rows as { user_id: string; date: string; work: number; absence: number; orders: number }[],
    );
    expect(days.length).toBeGreaterThan(100);
    const over24 = days.filter((d) => workedMinutes(d.work, d.orders) + d.absence > 24 * 60);
    expect(over24).toEqual([]);

    // each month of the year on the office's month view: no one's total far beyond the schedule
    const signIn = await request(srv.url, {
      method: 'POST',
      path: '/api/authenticate',
      host,
      ...jsonBody({ email: DEMO.admin.email, password: DEMO.admin.password }),
    });
    const headers = { authorization: `Bearer ${signIn.json<{ token: string }>().token}` };
    const today = tenantToday({ tenant, now: new Date() });
    const beyond: string[] = [];
    for (let back = 0; back < 12; back++) {
      const first = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 - back, 1));
      const [year, month] = [first.getUTCFullYear(), first.getUTCMonth() + 1];
      const res = await request(srv.url, { path: `/api/timereports/month/${year}/${month}`, host, headers });
      expect(res.status, res.text).toBe(200);
      const people = res.json<{ people: { name: string; totals: { total: number; scheduled: number } }[] }>().people;
      for (const p of people)
        if (isFarBeyondSchedule(p.totals.total, p.totals.scheduled))
          beyond.push(`${year}-${month} ${p.name}: ${p.totals.total} min against ${p.totals.scheduled}`);
    }
    expect(beyond).toEqual([]);

    // the payroll export knows each technician by their employee number
    const technicians = await withTenant(tenant, (trx) =>
      trx('users as u')
        .join('user_access_levels as ul', 'ul.user_id', 'u.id')
        .join('access_levels as a', 'a.id', 'ul.access_level_id')
        .where('a.display_name', 'Technician')
        .select('u.name', 'u.erp_employee_id'),
    );
    expect(technicians.length).toBe(2);
    for (const tech of technicians) expect(tech.erp_employee_id, tech.name).toMatch(/^\d+$/);
  });
});
