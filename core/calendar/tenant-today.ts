import type { Ctx } from '~/core/context';
import { tenantDate } from './dates';

/** The tenant's calendar day at `now` (`YYYY-MM-DD` in its time zone, not UTC's). */
export function tenantToday(ctx: Pick<Ctx, 'tenant' | 'now'>): string {
  return tenantDate(ctx.now, ctx.tenant.config?.country);
}
