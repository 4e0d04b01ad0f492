import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { assertTimeOpen } from './period-lock.service';

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
