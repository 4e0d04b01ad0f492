import type { Trx } from '~/core/db/with-tenant';

const DAY_MS = 86_400_000;

/** Erik's own car, the one his mileage (821, own car) is for. */
export const DEMO_OWN_CAR = 'ABC 123';
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The demo's time (issue 17): the two technicians' own time for the two months before today and
 * this month up to yesterday — Erik in two ranges a day (multi), Sara in hours — with a week of
 * vacation, a day caring for a sick child and a sick day; Erik's mileage in his own car (code 821,
 * the tax-free own-car allowance: a company car gets none); a lock day
 * of the 10th, so the month before last (and last month after the 10th) is locked for payroll; and
 * their employee numbers.
 */
export async function seedDemoTime(trx: Trx, now = new Date()): Promise<void> {
  const users: { id: string; email: string }[] = await trx('users')
    .whereIn('email', ['erik.tekniker@nordlarm.se', 'sara.tekniker@nordlarm.se'])
    .select('id', 'email');
  const erik = users.find((u) => u.email.startsWith('erik'))?.id;
  const sara = users.find((u) => u.email.startsWith('sara'))?.id;
  if (!erik || !sara) return;
  const tags: { id: string; code: string }[] = await trx('time_report_tags').select('id', 'code');
  const tag = (code: string) => tags.find((t) => t.code === code)!.id;
  const distanceTag = await trx('compensation_tags').where({ code: '821' }).first('id');

  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1);
  const rows: Record<string, unknown>[] = [];
  const trips: Record<string, unknown>[] = [];
  let odometer = 48_210;
  let weekdayIndex = 0;
  for (let ms = start; ms < today; ms += DAY_MS) {
    const weekday = new Date(ms).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const date = ymd(ms);
    weekdayIndex++;
    // Erik: a week of vacation early in the period, otherwise two ranges a day
    if (weekdayIndex >= 6 && weekdayIndex <= 10) rows.push({ user_id: erik, tag_id: tag('SEM'), date, minutes: 480 });
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
    if (weekdayIndex === 14) rows.push({ user_id: sara, tag_id: tag('VAB'), date, minutes: 480 });
    else if (weekdayIndex === 27) rows.push({ user_id: sara, tag_id: tag('SJK'), date, minutes: 480 });
    else rows.push({ user_id: sara, tag_id: tag('ARB'), date, minutes: 480 });
  }
  if (rows.length) await trx('time_reports').insert(rows);
  if (trips.length) await trx('distance_reports').insert(trips);
  await trx('work_order_settings').update({ time_lock_day: 10 });
  // their employee numbers in the payroll system (the payroll export's anstid)
  await trx('users').where({ id: erik }).whereNull('erp_employee_id').update({ erp_employee_id: '1001' });
  await trx('users').where({ id: sara }).whereNull('erp_employee_id').update({ erp_employee_id: '1002' });
}
