import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, zRequiredString } from '~/core/errors/validation';
import {
  answerPendingExtraWork,
  pendingExtraWorkView,
  type ExtraWorkView,
} from '~/core/projects/extra-work-link.service';
import { requireZone } from './zone-view.service';

/**
 * Extra work (ÄTA) in the customer's zone (issue 35 item 3, decision 063): the customer's orders
 * awaiting its approval, shown and answered exactly as through the e-mailed link
 * (core/projects/extra-work-link.service.ts), with the zone user's printed name. The order is
 * found in the customer's scope in SQL first: another customer's order is 404.
 */

export interface ZoneExtraWork {
  workOrderId: string;
  view: Omit<ExtraWorkView, 'expiresAt'>;
}

/** Orders of the customer marked as extra work still awaiting an answer, in an ongoing project. */
function pendingOfCustomer(ctx: Ctx, customerId: string) {
  return ctx
    .trx('work_orders as w')
    .join('projects as p', 'p.id', 'w.project_id')
    .where({ 'w.customer_id': customerId, 'w.project_extra_status': 'pending', 'p.status': 'ongoing' })
    .whereNull('w.deleted_at');
}

const withoutExpiry = ({ expiresAt: _, ...view }: ExtraWorkView) => view;

/** `GET /zone/extrawork`: the extra work awaiting the customer's answer (at most 50, the oldest first). */
export async function listZoneExtraWork(ctx: Ctx): Promise<{ items: ZoneExtraWork[] }> {
  const zone = requireZone(ctx);
  const ids = (await pendingOfCustomer(ctx, zone.customerId)
    .orderBy([
      { column: 'w.intake_ts', order: 'asc' },
      { column: 'w.id', order: 'asc' },
    ])
    .limit(50)
    .pluck('w.id')) as string[];
  const items: ZoneExtraWork[] = [];
  for (const id of ids) {
    const view = await pendingExtraWorkView(ctx, id);
    if (view) items.push({ workOrderId: id, view: withoutExpiry(view) });
  }
  return { items };
}

export const ZZoneExtraWorkAnswer = z.object({
  answer: z.enum(['accepted', 'declined'], { error: 'ERROR_INVALID_VALUE' }),
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
});

/**
 * `POST /zone/extrawork/{id}/answer {answer, name}`: approves or declines the order's extra work.
 * An order of the customer no longer awaiting an answer (answered here, by the link or by the
 * office) is 409 EXTRA_WORK_NOT_PENDING; another customer's, 404.
 */
export async function answerZoneExtraWork(
  ctx: Ctx,
  id: unknown,
  raw: unknown,
): Promise<{ workOrderId: string; answer: 'accepted' | 'declined' }> {
  const zone = requireZone(ctx);
  if (!isUuid(id)) throw notFound();
  const own = await ctx
    .trx('work_orders')
    .where({ id, customer_id: zone.customerId })
    .whereNull('deleted_at')
    .first('id');
  if (!own) throw notFound();
  const input = parseInput(ZZoneExtraWorkAnswer, raw);
  const done = await answerPendingExtraWork(ctx, own.id as string, input.answer, {
    name: `${input.name} (${zone.user.email})`,
    via: 'customerZone',
  });
  if (!done) throw new AppError('EXTRA_WORK_NOT_PENDING', 409);
  return { workOrderId: own.id as string, answer: input.answer };
}
