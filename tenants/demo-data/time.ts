import type { Trx } from '~/core/db/with-tenant';

const DAY_MS = 86_400_000;

/** Erik's own car, the one his mileage (821, own car) is for. */
export const DEMO_OWN_CAR = 'ABC 123';
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const ERIK = 'erik.tekniker@nordlarm.se';
const SARA = 'sara.tekniker@nordlarm.se';

/** Monday to Friday (YYYY-MM-DD) from the first of the month before last up to yesterday. */
function demoWeekdays(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days: string[] = [];
  for (let ms = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1); ms < today; ms += DAY_MS)
    if (![0, 6].includes(new Date(ms).getUTCDay())) days.push(ymd(ms));
  return days;
}

interface DemoAbsence {
  email: string;
  date: string;
  code: 'SEM' | 'VAB' | 'SJK';
}

/**
 * The technicians' days away: Erik's week of vacation early in the period, Sara's day caring for a
 * sick child and her sick day. The history gives them no visits on these days (issue 28).
 */
export function demoAbsenceDays(now: Date): DemoAbsence[] {
  return demoWeekdays(now).flatMap((date, i): DemoAbsence[] => {
    const n = i + 1;
    if (n >= 6 && n <= 10) return [{ email: ERIK, date, code: 'SEM' }];
    if (n === 14) return [{ email: SARA, date, code: 'VAB' }];
    if (n === 27) return [{ email: SARA, date, code: 'SJK' }];
    return [];
  });
}

/**
 * The demo's time (issue 17): the two technicians' own time for the two months before today and
 * this month up to yesterday — Erik in two ranges a day (multi), Sara in hours — with a week of
 * vacation, a day caring for a sick child and a sick day; Erik's mileage in his own car (code 821,
 * the tax-free own-car allowance: a company car gets none); a lock day
 * of the 10th, so the month before last (and last month after the 10th) is locked for payroll; the
 * two ended months approved; and their employee numbers.
 */
export async function seedDemoTime(trx: Trx, now = new Date()): Promise<void> {
  const users: { id: string; email: string }[] = await trx('users')
    .whereIn('email', [ERIK, SARA])
    .select('id', 'email');
  const erik = users.find((u) => u.email.startsWith('erik'))?.id;
  const sara = users.find((u) => u.email.startsWith('sara'))?.id;
  if (!erik || !sara) return;
  const tags: { id: string; code: string }[] = await trx('time_report_tags').select('id', 'code');
  const tag = (code: string) => tags.find((t) => t.code === code)!.id;
  const distanceTag = await trx('compensation_tags').where({ code: '821' }).first('id');

  const rows: Record<string, unknown>[] = [];
  const trips: Record<string, unknown>[] = [];
  const away = demoAbsenceDays(now);
  const absence = (email: string, date: string) => away.find((a) => a.email === email && a.date === date)?.code;
  let odometer = 48_210;
  for (const [i, date] of demoWeekdays(now).entries()) {
    const weekdayIndex = i + 1;
    // Erik: a week of vacation early in the period, otherwise two ranges a day
    const erikAway = absence(ERIK, date);
    if (erikAway) rows.push({ user_id: erik, tag_id: tag(erikAway), date, minutes: 480 });
    else {
      rows.push({ user_id: erik, tag_id: tag('ARB'), date, start_time: '07:00', end_time: '11:30', minutes: 270 });
      rows.push({ user_id: erik, tag_id: tag('ARB'), date, start_time: '12:00', end_time: '16:00', minutes: 240 });
      const km = 20 + ((weekdayIndex * 17) % 60);
      odometer += km;
      trips.push({
        user_id: erik,
        date,
        // his own car: own-car mileage (821) is never paid for driving the company's service van
        vehicle: DEMO_OWN_CAR,
        reading_km: odometer,
        distance_km: km,
        tag_id: distanceTag?.id ?? null,
        comment: 'Egen bil till kund',
      });
    }
    // Sara: hours, a day caring for a sick child and a sick day
    rows.push({ user_id: sara, tag_id: tag(absence(SARA, date) ?? 'ARB'), date, minutes: 480 });
  }
  if (rows.length) await trx('time_reports').insert(rows);
  if (trips.length) await trx('distance_reports').insert(trips);
  await trx('work_order_settings').update({ time_lock_day: 10 });
  // the office approved their ended months (only approved time goes to payroll, issue 28)
  const approver = (await trx('users').where({ email: 'admin@nordlarm.se' }).first('id')) as { id: string } | undefined;
  const ended = [2, 1].map((m) => ({
    period_start: ymd(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m, 1)),
    period_end: ymd(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m + 1, 0)),
  }));
  await trx('time_report_parents').insert(
    [erik, sara].flatMap((user_id) =>
      ended.map((p) => ({ user_id, ...p, status: 'approved', approved_by: approver?.id ?? null, approved_at: now })),
    ),
  );
  // their employee numbers in the payroll system (the payroll export's anstid)
  await trx('users').where({ id: erik }).whereNull('erp_employee_id').update({ erp_employee_id: '1001' });
  await trx('users').where({ id: sara }).whereNull('erp_employee_id').update({ erp_employee_id: '1002' });
}
