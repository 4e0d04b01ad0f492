import type { Auth, Ctx } from '~/core/context';
import { notFound, permissionDenied } from '~/core/errors/app-error';
import { isUuid } from '~/core/errors/validation';
import { hasAccess, requireAccess } from '~/core/permissions/access';

/**
 * Who may see and change a person's trips and compensations (spec section 6): one's own with
 * timereports:read_own (or timereports:read); someone else's are read with distancereports:read
 * (trips) or compensationreports:read (compensations) and written with timereports:edit. Trips
 * also need the distance_reports app module. An unknown person, or another tenant's, is 404.
 */
export type ExpenseKind = 'distance' | 'compensation';

const OTHERS_READ = { distance: 'distancereports:read', compensation: 'compensationreports:read' } as const;

/** The app module trips need. */
export const DISTANCE_MODULE = { permission: 'signed-in', module: 'distance_reports' } as const;

const mayOwn = (auth: Auth) =>
  hasAccess(auth, { permission: 'timereports:read_own' }) || hasAccess(auth, { permission: 'timereports:read' });

export function canReadExpenses(auth: Auth | null, kind: ExpenseKind, userId: string): boolean {
  if (!auth) return false;
  if (kind === 'distance' && !hasAccess(auth, DISTANCE_MODULE)) return false;
  return auth.user.id === userId ? mayOwn(auth) : hasAccess(auth, { permission: OTHERS_READ[kind] });
}

export function canWriteExpenses(auth: Auth | null, kind: ExpenseKind, userId: string): boolean {
  if (!auth) return false;
  if (kind === 'distance' && !hasAccess(auth, DISTANCE_MODULE)) return false;
  return auth.user.id === userId ? mayOwn(auth) : hasAccess(auth, { permission: 'timereports:edit' });
}

/** The person asked about: the asker when none is named. */
const personOf = (auth: Auth, raw: unknown): unknown =>
  raw === undefined || raw === null || raw === '' ? auth.user.id : raw;

async function findUser(ctx: Ctx, id: unknown): Promise<{ id: string; name: string }> {
  if (!isUuid(id)) throw notFound();
  const user = (await ctx.trx('users').where({ id }).first('id', 'name')) as { id: string; name: string } | undefined;
  if (!user) throw notFound();
  return user;
}

async function requireExpense(
  ctx: Ctx,
  kind: ExpenseKind,
  rawUserId: unknown,
  may: (auth: Auth, userId: string) => boolean,
): Promise<{ id: string; name: string }> {
  requireAccess(ctx.auth, kind === 'distance' ? DISTANCE_MODULE : { permission: 'signed-in' });
  const userId = personOf(ctx.auth, rawUserId);
  if (!may(ctx.auth, String(userId))) throw permissionDenied();
  return findUser(ctx, userId);
}

/** 403 unless the asker may read this person's trips or compensations; 404 for an unknown person. */
export function requireExpenseReader(ctx: Ctx, kind: ExpenseKind, rawUserId: unknown) {
  return requireExpense(ctx, kind, rawUserId, (auth, id) => canReadExpenses(auth, kind, id));
}

/** 403 unless the asker may write this person's trips or compensations; 404 for an unknown person. */
export function requireExpenseWriter(ctx: Ctx, kind: ExpenseKind, rawUserId: unknown) {
  return requireExpense(ctx, kind, rawUserId, (auth, id) => canWriteExpenses(auth, kind, id));
}

/** The asker's permission for a row already stored: written by its person's rule. */
export function requireRowWriter(ctx: Ctx, kind: ExpenseKind, userId: string): void {
  requireAccess(ctx.auth, kind === 'distance' ? DISTANCE_MODULE : { permission: 'signed-in' });
  if (!canWriteExpenses(ctx.auth, kind, userId)) throw permissionDenied();
}
