import type { Trx } from '~/core/db/with-tenant';
import { addDays, formatPlainDate, isoDayOfWeek, parsePlainDate } from '~/core/calendar/dates';
import { nextMonth } from '~/core/time-reports/on-call.rules';
import { dateIn, wallClockToIso } from '~/core/work-orders/time-rules';

/**
 * The demo company's on-call schedule (issue 17): Erik and Sara take turns a week at a time,
 * Monday 07:00 to Monday 07:00 Swedish time, from the week this month starts in to the end of
 * next month, so the schedule and "on call now" have something to show. Dates are relative to
 * today. Idempotent: a tenant that has shifts is left alone.
 */
const ZONE = 'Europe/Stockholm';
const ROTA = ['erik.tekniker@nordlarm.se', 'sara.tekniker@nordlarm.se'];

export async function seedDemoOnCall(trx: Trx, now = new Date()): Promise<number> {
  if (await trx('on_call_shifts').first('id')) return 0;
  const users = (await trx('users').whereIn('email', ROTA).select('id', 'email')) as { id: string; email: string }[];
  const rota = ROTA.map((email) => users.find((u) => u.email === email)?.id).filter((id): id is string => !!id);
  if (!rota.length) return 0;
  const admin = ((await trx('users').where({ email: 'admin@nordlarm.se' }).first('id')) as { id: string } | undefined)
    ?.id;
  const today = parsePlainDate(dateIn(now, ZONE))!;
  const first = { ...today, day: 1 };
  // the first day after next month
  const end = nextMonth(nextMonth(formatPlainDate(first)));
  const rows = [];
  for (
    let monday = addDays(first, 1 - isoDayOfWeek(first)), i = 0;
    formatPlainDate(monday) < end;
    monday = addDays(monday, 7), i++
  ) {
    rows.push({
      user_id: rota[i % rota.length],
      start_ts: wallClockToIso(`${formatPlainDate(monday)}T07:00`, ZONE),
      end_ts: wallClockToIso(`${formatPlainDate(addDays(monday, 7))}T07:00`, ZONE),
      comment: i === 0 ? 'Larmjour, telefon 021-12 34 59' : null,
      create_user_id: admin ?? null,
    });
  }
  await trx('on_call_shifts').insert(rows);
  return rows.length;
}
