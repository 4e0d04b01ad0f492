import type { Ctx } from '~/core/context';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { isoToWallClock } from '~/core/work-orders/time-rules';

/** The tenant's calendar day at `now` (`YYYY-MM-DD` in its time zone, not UTC's). */
export function tenantToday(ctx: Pick<Ctx, 'tenant' | 'now'>): string {
  return isoToWallClock(ctx.now.toISOString(), tenantTimeZone(ctx.tenant.config?.country)).slice(0, 10);
}
