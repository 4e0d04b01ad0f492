import type { Trx } from '~/core/db/with-tenant';

/**
 * Issue 6's planning board on the bench tenant: 50 technicians, each planned on two orders every
 * working day for a year around December 2026 (about 26,000 plans), on orders spread over the
 * 100,000. Idempotent: skipped when the tenant has plans.
 */
export async function seedSchedules(trx: Trx): Promise<void> {
  if (await trx('work_order_schedules').first('id')) return;
  await trx.raw(
    `with techs as (select id, row_number() over (order by email) - 1 as k from users where email like 'tech%'),
          days as (select d::date as day, row_number() over (order by d) as i
                     from generate_series('2026-06-01'::date, '2027-05-31'::date, interval '1 day') d
                    where extract(isodow from d) < 6),
          plans as (select t.id as user_id, days.day, s,
                           ((days.i * 100 + t.k * 2 + s) % 100000 + 1)::text as number
                      from techs t cross join days cross join generate_series(0, 1) s)
     insert into work_order_schedules (work_order_id, user_id, date, start_ts, end_ts)
     select w.id, p.user_id, p.day,
            (p.day + time '08:00' + p.s * interval '4 hours') at time zone 'Europe/Stockholm',
            (p.day + time '11:00' + p.s * interval '4 hours') at time zone 'Europe/Stockholm'
       from plans p join work_orders w on w.number = p.number
     on conflict do nothing`,
  );
  // the orders' planned span follows their plans, as the service keeps it
  await trx.raw(
    `update work_orders w set planned_start = p.s, planned_end = p.e
       from (select work_order_id, min(start_ts) as s, max(end_ts) as e from work_order_schedules group by work_order_id) p
      where p.work_order_id = w.id`,
  );
  await trx.raw(
    `insert into work_order_assignees (work_order_id, user_id)
     select distinct work_order_id, user_id from work_order_schedules on conflict do nothing`,
  );
  await trx.raw('analyze work_order_schedules');
}

/**
 * The calendar's reads with issue 6's targets (p95 server time): the technician calendar's month
 * (60 ms) and week (30 ms), as the page loads them and as the API answers them.
 */
export function calendarScenarios(): { name: string; kind: 'api' | 'page'; path: string; limit: number }[] {
  return [
    {
      name: 'calendar month, technicians (page data)',
      kind: 'page',
      path: '/work-orders/calendar.data?period=month&perspective=technician&step=1&date=2026-12-09',
      limit: 60,
    },
    {
      name: 'calendar week, technicians (page data)',
      kind: 'page',
      path: '/work-orders/calendar.data?period=week&perspective=technician&step=1&date=2026-12-09',
      limit: 30,
    },
    { name: 'API wo/month/2026/12', kind: 'api', path: '/api/wo/month/2026/12', limit: 60 },
    { name: 'API wo/week/2026/50', kind: 'api', path: '/api/wo/week/2026/50', limit: 30 },
  ];
}
