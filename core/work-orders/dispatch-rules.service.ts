import { tenantTimeZone } from '~/core/i18n/number-format';
import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { recordHistory } from '~/core/history/history';
import { requireAccess, type Access } from '~/core/permissions/access';
import { matchDispatchRule, parseDispatchRuleSet, toHHMM } from './dispatch-rules.rules';
import { isoToWallClock } from './time-rules';
import { activeUserChoices } from '~/core/users/active-users';

/** One dispatch rule as the API and the settings page see it (times "HH:MM", day 1 Monday … 7 Sunday). */
export interface DispatchRule {
  id: string;
  day: number;
  startTime: string;
  endTime: string;
  userId: string;
  userName: string;
}

/** Reading the set: as every work-order setting (settings:read), with the app module on. */
export const DISPATCH_RULES_READ: Access = { permission: 'settings:read', module: 'dispatch_rules' };
/** Replacing it: as saving the work-order settings (instance:edit), with the app module on. */
export const DISPATCH_RULES_EDIT: Access = { permission: 'instance:edit', module: 'dispatch_rules' };

interface Row {
  id: string;
  day: number;
  start_time: string;
  end_time: string;
  user_id: string;
  user_name: string;
}

async function readRules(ctx: Ctx): Promise<DispatchRule[]> {
  const rows: Row[] = await ctx
    .trx('dispatch_rules as r')
    .join('users as u', 'u.id', 'r.user_id')
    .orderBy([{ column: 'r.sort_order' }, { column: 'r.created_at' }, { column: 'r.id' }])
    .select('r.id', 'r.day', 'r.start_time', 'r.end_time', 'r.user_id', 'u.name as user_name');
  return rows.map((r) => ({
    id: r.id,
    day: Number(r.day),
    // PGlite and pg both answer "08:00:00" for a time column
    startTime: toHHMM(String(r.start_time)),
    endTime: toHHMM(String(r.end_time)),
    userId: r.user_id,
    userName: r.user_name,
  }));
}

/** GET /instance/wo/dispatchrule: the set in order, each with the name of the person it dispatches to. */
export async function listDispatchRules(ctx: Ctx): Promise<{ dispatchRules: DispatchRule[] }> {
  requireAccess(ctx.auth, DISPATCH_RULES_READ);
  return { dispatchRules: await readRules(ctx) };
}

/**
 * PUT /instance/wo/dispatchrule {dispatchRules}: replaces the whole set, in order, under the rules
 * of spec section 5 (dispatch-rules.rules.ts). Each rule dispatches to an active user of this
 * tenant (another tenant's id reads as unknown: `dispatchRules.<row>.userId` ERROR_INVALID_VALUE).
 * Nothing references a rule, so the set is deleted and inserted again; one history row.
 */
export async function replaceDispatchRules(ctx: Ctx, raw: unknown): Promise<{ dispatchRules: DispatchRule[] }> {
  requireAccess(ctx.auth, DISPATCH_RULES_EDIT);
  const rules = parseDispatchRuleSet(raw);
  const userIds = [...new Set(rules.map((r) => r.userId))];
  const active = new Set(
    userIds.length
      ? (
          (await ctx.trx('users').whereIn('id', userIds).where('status', 'active').select('id')) as { id: string }[]
        ).map((u) => u.id)
      : [],
  );
  const fields: Record<string, string[]> = {};
  rules.forEach((r, i) => {
    if (!active.has(r.userId)) fields[`dispatchRules.${i}.userId`] = ['ERROR_INVALID_VALUE'];
  });
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });

  await ctx.trx('dispatch_rules').delete();
  if (rules.length)
    await ctx.trx('dispatch_rules').insert(
      rules.map((r, i) => ({
        day: r.day,
        start_time: r.startTime,
        end_time: r.endTime,
        user_id: r.userId,
        sort_order: i + 1,
      })),
    );
  await recordHistory(ctx, {
    entity: 'dispatch_rules',
    entityId: ctx.tenant.id,
    action: 'edit',
    data: { dispatchRules: rules },
  });
  return { dispatchRules: await readRules(ctx) };
}

/**
 * Who a new work order is dispatched to (spec section 3 "new orders created in that window are
 * assigned accordingly"): the active user of the rule whose window holds `ctx.now` on the wall
 * clock of the tenant's time zone, or null — also when the tenant has the `dispatch_rules` module
 * off. One statement: the module's state is read in it, not from the session (which a super user
 * or a module switched in the same transaction would make wrong). No access check: the caller
 * (createWorkOrder) has its own.
 */
export async function dispatchTarget(ctx: Ctx): Promise<string | null> {
  const rows: { rows: { day: number; start_time: string; end_time: string; user_id: string }[] } = await ctx.trx.raw(
    `select r.day, r.start_time::text as start_time, r.end_time::text as end_time, r.user_id
       from dispatch_rules r
       join users u on u.id = r.user_id and u.status = 'active'
      where exists (select 1 from app_modules m where m.id = 'dispatch_rules' and m.enabled)
      order by r.sort_order, r.created_at, r.id`,
  );
  if (!rows.rows.length) return null;
  const rules = rows.rows.map((r) => ({
    day: Number(r.day),
    startTime: r.start_time,
    endTime: r.end_time,
    userId: r.user_id,
  }));
  const local = isoToWallClock(ctx.now.toISOString(), tenantTimeZone(ctx.tenant.config?.country));
  return matchDispatchRule(rules, local)?.userId ?? null;
}

/** Who a rule can dispatch to: the tenant's active users, by name (the settings page's choices). */
export async function dispatchUserOptions(ctx: Ctx): Promise<{ id: string; name: string }[]> {
  requireAccess(ctx.auth, DISPATCH_RULES_READ);
  return activeUserChoices(ctx.trx);
}
