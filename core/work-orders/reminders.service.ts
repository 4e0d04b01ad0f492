import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess, type Access } from '~/core/permissions/access';
import {
  REMINDER_MAX_AHEAD_MS,
  REMINDER_PAST_GRACE_MS,
  ZCreateReminder,
  ZDeleteReminder,
  ZEditReminder,
} from './reminders.schema';
import { loadActive, loadWorkOrder, WO_ENTITY, type WorkOrder } from './work-order-read';
import { activeUserChoices } from '~/core/users/active-users';

/** One reminder on a work order: whom to remind, when, about what, and whether it was mailed. */
export interface Reminder {
  id: string;
  workOrderId: string;
  userId: string;
  userName: string;
  /** ISO instant. */
  dueAt: string;
  message: string;
  createdBy: string | null;
  createdByName: string | null;
  createdAt: string;
  updatedAt: string;
  /** When the due sweep mailed it (claimed it for mailing); null while pending. */
  sentAt: string | null;
}

export interface RemindersPanelData {
  reminders: Reminder[];
  /** Whom a reminder may be for: the tenant's active users. */
  users: { id: string; name: string }[];
  /** Who a new reminder is for when nobody is chosen (null: the person adding it). */
  defaultUserId: string | null;
  /** workorders:edit on an order not in the recycle bin. */
  canEdit: boolean;
}

/** The reminders of spec section 3 are the app module `reminders`; reading needs the order's read right. */
const READ: Access = { permission: 'workorders:read', module: 'reminders' };
const EDIT: Access = { permission: 'workorders:edit', module: 'reminders' };

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));

function toReminder(r: Row): Reminder {
  return {
    id: r.id as string,
    workOrderId: r.work_order_id as string,
    userId: r.user_id as string,
    userName: (r.user_name as string) ?? '',
    dueAt: iso(r.due_at)!,
    message: (r.message as string) ?? '',
    createdBy: (r.created_by as string | null) ?? null,
    createdByName: (r.created_by_name as string | null) ?? null,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    sentAt: iso(r.sent_at),
  };
}

const reminderQuery = (ctx: Ctx) =>
  ctx
    .trx('work_order_reminders as r')
    .join('users as u', 'u.id', 'r.user_id')
    .leftJoin('users as cb', 'cb.id', 'r.created_by')
    .select('r.*', 'u.name as user_name', 'cb.name as created_by_name');

/**
 * Who is reminded when nobody is named: the person adding it when they are assigned to the order,
 * else the first assignee, else the order's creator while still active, else the person adding it.
 */
async function defaultReminded(ctx: Ctx, wo: WorkOrder): Promise<string | null> {
  const me = ctx.auth?.user.id ?? null;
  if (me && wo.assignees.some((a) => a.id === me)) return me;
  const candidates = [...wo.assignees.map((a) => a.id), ...(wo.createUserId ? [wo.createUserId] : [])];
  if (candidates.length) {
    const active: string[] = await ctx.trx('users').whereIn('id', candidates).where({ status: 'active' }).pluck('id');
    const first = candidates.find((id) => active.includes(id));
    if (first) return first;
  }
  return me;
}

async function panelOf(ctx: Ctx, wo: WorkOrder): Promise<RemindersPanelData> {
  const rows: Row[] = await reminderQuery(ctx)
    .where('r.work_order_id', wo.id)
    .orderBy([{ column: 'r.due_at' }, { column: 'r.id' }]);
  const canEdit = hasAccess(ctx.auth, EDIT) && !wo.deletedAt;
  return {
    reminders: rows.map(toReminder),
    users: canEdit ? await activeUserChoices(ctx.trx) : [],
    defaultUserId: canEdit ? await defaultReminded(ctx, wo) : null,
    canEdit,
  };
}

/**
 * GET /wo/{id}/reminder: the order's reminders, soonest first, with whom they may be for
 * (workorders:read, module reminders; 404 outside the user's work-order limit or tenant).
 */
export async function listWorkOrderReminders(ctx: Ctx, workOrderId: unknown): Promise<RemindersPanelData> {
  requireAccess(ctx.auth, READ);
  const wo = await loadWorkOrder(ctx, workOrderId);
  return panelOf(ctx, wo);
}

/**
 * A reminder of this order, or 404 (a foreign id, another order's reminder, or not a uuid).
 * `lock` holds its row until the change commits, so the due sweep (which skips locked rows) never
 * mails what is being changed.
 */
async function readReminder(ctx: Ctx, workOrderId: string, id: unknown, lock = false): Promise<Reminder> {
  if (!isUuid(id)) throw notFound();
  const q = reminderQuery(ctx).where({ 'r.id': id, 'r.work_order_id': workOrderId });
  const row: Row | undefined = await (lock ? q.forUpdate('r') : q).first();
  if (!row) throw notFound();
  return toReminder(row);
}

/** What history keeps of a reminder; `name` is whom it is for, which the history panel shows. */
const summary = (r: Reminder | null) => r && { name: r.userName, dueAt: r.dueAt, message: r.message };

async function recordChange(ctx: Ctx, wo: WorkOrder, old: Reminder | null, now: Reminder | null) {
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: 'edit',
    data: { changes: [{ field: 'reminder', old: summary(old), new: summary(now) }] },
  });
}

/** The rules a saved reminder must meet beyond its schema; field errors as a 400. */
async function checkReminder(ctx: Ctx, input: { userId: string; dueAt: Date }, dueChanged: boolean): Promise<void> {
  const fields: Record<string, string[]> = {};
  const due = input.dueAt.getTime();
  // an unchanged due time may lie in the past (an edit of the message only); a new one may not
  if (dueChanged && due < ctx.now.getTime() - REMINDER_PAST_GRACE_MS) fields.dueAt = ['ERROR_REMINDER_DUE_IN_PAST'];
  else if (due > ctx.now.getTime() + REMINDER_MAX_AHEAD_MS) fields.dueAt = ['ERROR_INVALID_VALUE'];
  const user = isUuid(input.userId)
    ? await ctx.trx('users').where({ id: input.userId, status: 'active' }).first('id')
    : null;
  if (!user) fields.userId = ['ERROR_INVALID_VALUE'];
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
}

/**
 * POST /wo/{id}/reminder {userId?, dueAt, message?}: a new reminder on an order that is not in the
 * recycle bin (workorders:edit, module reminders). A closed or locked order still takes reminders:
 * following up after the work is done is what they are for. The due time is an instant (ISO with
 * offset) not more than five minutes past; the person must be an active user of the tenant (left
 * out: `defaultReminded`); the message is at most 1,000 characters. History: `edit`, field
 * "reminder". Answers the new reminder's id and the panel.
 */
export async function createWorkOrderReminder(
  ctx: Ctx,
  raw: unknown,
): Promise<{ id: string; data: RemindersPanelData }> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZCreateReminder, raw);
  const wo = await loadActive(ctx, input.workOrderId);
  const userId = input.userId ?? (await defaultReminded(ctx, wo)) ?? '';
  await checkReminder(ctx, { userId, dueAt: input.dueAt }, true);
  const [row] = await ctx
    .trx('work_order_reminders')
    .insert({
      work_order_id: wo.id,
      user_id: userId,
      due_at: input.dueAt,
      message: input.message,
      created_by: ctx.auth.user.id,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning('id');
  const id = row.id as string;
  await recordChange(ctx, wo, null, await readReminder(ctx, wo.id, id));
  return { id, data: await panelOf(ctx, wo) };
}

/**
 * PUT /wo/{id}/reminder {id, userId?, dueAt, message?}: replaces a reminder (the person is kept when
 * left out). A reminder that was already mailed is not edited in place: moving its due time into
 * the future arms it again (it is mailed once more, at the new time); any other change of a sent
 * reminder is 409 REMINDER_ALREADY_SENT, so what was mailed and what the order shows agree.
 */
export async function editWorkOrderReminder(ctx: Ctx, raw: unknown): Promise<{ id: string; data: RemindersPanelData }> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZEditReminder, raw);
  const wo = await loadActive(ctx, input.workOrderId);
  const existing = await readReminder(ctx, wo.id, input.id, true);
  const userId = input.userId ?? existing.userId;
  const dueChanged = input.dueAt.getTime() !== new Date(existing.dueAt).getTime();
  const rearm = existing.sentAt !== null && input.dueAt.getTime() > ctx.now.getTime();
  if (existing.sentAt !== null && !rearm) throw new AppError('REMINDER_ALREADY_SENT', 409);
  await checkReminder(ctx, { userId, dueAt: input.dueAt }, dueChanged);
  // a pending reminder stays pending; only a re-armed sent one is cleared
  await ctx
    .trx('work_order_reminders')
    .where({ id: existing.id })
    .update({
      user_id: userId,
      due_at: input.dueAt,
      message: input.message,
      updated_at: ctx.now,
      ...(rearm ? { sent_at: null } : {}),
    });
  await recordChange(ctx, wo, existing, await readReminder(ctx, wo.id, existing.id));
  return { id: existing.id, data: await panelOf(ctx, wo) };
}

/**
 * DELETE /wo/{id}/reminder/{rid}: removes a reminder, sent or not (workorders:edit, module
 * reminders; the order must not be in the recycle bin). History: `edit`, field "reminder" (new
 * null). Answers the panel.
 */
export async function deleteWorkOrderReminder(ctx: Ctx, raw: unknown): Promise<RemindersPanelData> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZDeleteReminder, raw);
  const wo = await loadActive(ctx, input.workOrderId);
  const existing = await readReminder(ctx, wo.id, input.id, true);
  await ctx.trx('work_order_reminders').where({ id: existing.id }).delete();
  await recordChange(ctx, wo, existing, null);
  return panelOf(ctx, wo);
}
