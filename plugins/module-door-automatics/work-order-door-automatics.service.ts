import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { loadActive, loadChangeable, WO_ENTITY } from '~/core/work-orders/work-order-read';
import { MODULE_ID } from './constants';
import { selectDoorAutomatics, toDoorAutomatic, type DoorAutomatic } from './door-automatic.service';

/*
 * The door automatics a work order is about (GET and PUT /wo/doorautomatics/{id}): which of the
 * automatic doors at the order's object the technician is sent to service, in the office's order.
 * Reading them is reading the order (workorders:read, inside the user's work-order limit);
 * choosing them needs workorders:edit_doorautomatics (spec section 6) on an order that may
 * change (open, not locked). Both answer 404 while the door-automatics module is off.
 */

const READ = { permission: 'workorders:read', module: MODULE_ID } as const;
const EDIT = { permission: 'workorders:edit_doorautomatics', module: MODULE_ID } as const;

/** At most this many door automatics on one order. */
export const MAX_WORK_ORDER_DOOR_AUTOMATICS = 100;

/** PUT body: `{doorAutomatics: [id, …]}`, each an id or `{id}` (a door automatic as GET answers it). */
export const ZWorkOrderDoorAutomatics = z.object({
  doorAutomatics: z
    .array(
      z.union([z.string(), z.object({ id: z.string() }).transform((o) => o.id)], { error: 'ERROR_INVALID_VALUE' }),
      {
        error: (iss) => (iss.input === undefined ? 'ERROR_REQUIRED_FIELD' : 'ERROR_INVALID_VALUE'),
      },
    )
    .max(MAX_WORK_ORDER_DOOR_AUTOMATICS, 'ERROR_MAX_LENGTH'),
});

type Row = Record<string, unknown>;

async function linked(ctx: Ctx, workOrderId: string): Promise<DoorAutomatic[]> {
  const rows = (await selectDoorAutomatics(ctx)
    .join('work_order_door_automatics as l', 'l.door_automatic_id', 'd.id')
    .where('l.work_order_id', workOrderId)
    .orderBy([{ column: 'l.sort_order' }, { column: 'd.number' }])) as Row[];
  return rows.map(toDoorAutomatic);
}

/** GET /wo/doorautomatics/{id}: the order's door automatics, each with its object. */
export async function getWorkOrderDoorAutomatics(
  ctx: Ctx,
  workOrderId: unknown,
): Promise<{ doorAutomatics: DoorAutomatic[] }> {
  requireAccess(ctx.auth, READ);
  const wo = await loadActive(ctx, workOrderId);
  return { doorAutomatics: await linked(ctx, wo.id) };
}

/**
 * PUT /wo/doorautomatics/{id} {doorAutomatics}: replaces the order's door automatics with these,
 * in this order (a repeated one counts once). Each must be one of this tenant's door automatics at
 * the order's object, else that entry's field error (ERROR_INVALID_VALUE for an unknown one,
 * ERROR_DOOR_AUTOMATIC_NOT_AT_OBJECT for one elsewhere). A change is one `edit` history row on the
 * order with the door automatic IDs before and after.
 */
export async function setWorkOrderDoorAutomatics(
  ctx: Ctx,
  workOrderId: unknown,
  raw: unknown,
): Promise<{ doorAutomatics: DoorAutomatic[] }> {
  requireAccess(ctx.auth, EDIT);
  const wo = await loadChangeable(ctx, workOrderId);
  const input = parseInput(ZWorkOrderDoorAutomatics, raw);
  const wanted = input.doorAutomatics.map((id) => id.trim());
  const known = wanted.filter(isUuid);
  const rows = known.length
    ? ((await ctx.trx('door_automatics').whereIn('id', known).select('id', 'business_object_id')) as Row[])
    : [];
  const objectOf = new Map(rows.map((r) => [r.id as string, r.business_object_id as string]));
  const fields: Record<string, string[]> = {};
  wanted.forEach((id, i) => {
    const objectId = objectOf.get(id);
    if (objectId === undefined) fields[`doorAutomatics.${i}`] = ['ERROR_INVALID_VALUE'];
    else if (objectId !== wo.businessObjectId) fields[`doorAutomatics.${i}`] = ['ERROR_DOOR_AUTOMATIC_NOT_AT_OBJECT'];
  });
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });

  const ids = [...new Set(wanted)];
  const before = await linked(ctx, wo.id);
  const same = before.length === ids.length && before.every((d, i) => d.id === ids[i]);
  if (same) return { doorAutomatics: before };

  await ctx.trx('work_order_door_automatics').where({ work_order_id: wo.id }).delete();
  if (ids.length)
    await ctx
      .trx('work_order_door_automatics')
      .insert(ids.map((id, i) => ({ work_order_id: wo.id, door_automatic_id: id, sort_order: i + 1 })));
  await ctx.trx('work_orders').where({ id: wo.id }).update({ update_ts: ctx.now });
  const after = await linked(ctx, wo.id);
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: 'edit',
    data: {
      changes: [{ field: 'doorAutomatics', old: before.map((d) => d.number), new: after.map((d) => d.number) }],
    },
  });
  return { doorAutomatics: after };
}
