import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { assertTimeOpen } from './period-lock.service';
import { DAY_MINUTES } from './range-set';
import { workedMinutes } from './time-report.rules';

/**
 * Whether a person's time on some days may still change: not in a locked month (409
 * TIME_REPORT_LOCKED) and not in a period the office approved for that person (409
 * TIME_REPORT_APPROVED; the office reopens the period to allow changes). Every writer of time —
 * the week, distance, compensation and the work-order time panel — asks this first.
 */
export async function assertTimeChangeable(ctx: Ctx, userId: string, ...dates: string[]): Promise<void> {
  await assertTimeOpen(ctx, ...dates);
  if (!dates.length) return;
  const approved = await ctx
    .trx('time_report_parents')
    .where({ user_id: userId, status: 'approved' })
    .andWhere((q) => {
      for (const d of dates)
        void q.orWhere((w) => void w.where('period_start', '<=', d).andWhere('period_end', '>=', d));
    })
    .first('id');
  if (approved) throw new AppError('TIME_REPORT_APPROVED', 409);
}

/**
 * After a write of a person's time on a date, inside the same unit of work: refuses (400, the
 * field named) a day whose worked time (own work rows, work-order time inside them, as the week
 * and the payroll count it) and absence together exceed 24 hours (issue 28 item 2: a day of
 * 28:20 reached payroll). Throwing here rolls the write back.
 */
export async function assertDayWithin24Hours(ctx: Ctx, userId: string, date: string, field: string): Promise<void> {
  const own: { work: string | null; absence: string | null } | undefined = await ctx
    .trx('time_reports as r')
    .join('time_report_tags as t', 't.id', 'r.tag_id')
    .where({ 'r.user_id': userId, 'r.date': date })
    .first(
      ctx.trx.raw(`sum(r.minutes) filter (where t.type = 'work') as work`),
      ctx.trx.raw(`sum(r.minutes) filter (where t.type = 'absence') as absence`),
    );
  const order: { minutes: string | null } | undefined = await ctx
    .trx('work_order_time as w')
    .join('work_orders as o', 'o.id', 'w.work_order_id')
    .whereNull('o.deleted_at')
    .where({ 'w.user_id': userId, 'w.date': date })
    .first(ctx.trx.raw('sum(w.work_minutes + w.travel_minutes) as minutes'));
  const total = workedMinutes(Number(own?.work ?? 0), Number(order?.minutes ?? 0)) + Number(own?.absence ?? 0);
  if (total > DAY_MINUTES)
    throw new AppError('VALIDATION_FAILED', 400, { fields: { [field]: ['TIME_REPORT_DAY_OVER_24_HOURS'] } });
}
