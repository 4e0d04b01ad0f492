import type { Ctx } from '~/core/context';
import { recordHistory } from '~/core/history/history';
import { AppError, notFound } from '~/core/errors/app-error';
import { UUID_PATTERN, parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import type { Permission, WorkOrderLimit } from '~/core/permissions/permissions';
import { ZCreateAccessLevel, ZUpdateAccessLevel, type TAccessLevel } from './access-level.schema';
import { shownLevelDescription, shownLevelName, storedLevelTexts } from './system-levels';

export { ZCreateAccessLevel, ZUpdateAccessLevel };
export type { TAccessLevel, TCreateAccessLevel, TUpdateAccessLevel } from './access-level.schema';

const READ = { permission: 'accesslevels:read' } as const;
const EDIT = { permission: 'accesslevels:edit' } as const;

/** Spec-style code: another level already has this display name (compared case-insensitively). */
export const nameTaken = () =>
  new AppError('ACCESS_LEVEL_NAME_TAKEN', 409, { fields: { displayName: ['ACCESS_LEVEL_NAME_TAKEN'] } });
/** Spec-style code: users still hold the level, so deleting it would silently strip their rights. */
export const levelInUse = (userCount: number) => new AppError('ACCESS_LEVEL_IN_USE', 409, { userCount });

interface Row {
  id: string;
  display_name: string;
  description: string | null;
  configuration: Record<string, unknown> | null;
  permissions: string[] | null;
  work_order_limit: WorkOrderLimit;
  user_count: string | number;
}

function toAccessLevel(row: Row): TAccessLevel {
  return {
    id: row.id,
    displayName: row.display_name,
    description: row.description,
    configuration: row.configuration ?? {},
    permissions: (row.permissions ?? []) as Permission[],
    limit: row.work_order_limit,
    userCount: Number(row.user_count),
  };
}

function selectLevels(ctx: Ctx) {
  return ctx
    .trx('access_levels as al')
    .select(
      'al.id',
      'al.display_name',
      'al.description',
      'al.configuration',
      'al.permissions',
      'al.work_order_limit',
      ctx.trx.raw('(select count(*) from user_access_levels ual where ual.access_level_id = al.id) as user_count'),
    );
}

/** Loads one level of this tenant; a malformed id is as unknown as another tenant's id. */
async function findLevel(ctx: Ctx, id: string): Promise<TAccessLevel> {
  if (!UUID_PATTERN.test(id)) throw notFound();
  const row = (await selectLevels(ctx).where('al.id', id).first()) as Row | undefined;
  if (!row) throw notFound();
  return toAccessLevel(row);
}

async function assertNameFree(ctx: Ctx, displayName: string, exceptId?: string) {
  const q = ctx.trx('access_levels').whereRaw('lower(display_name) = lower(?)', [displayName]);
  if (exceptId) q.whereNot('id', exceptId);
  if (await q.first('id')) throw nameTaken();
}

/** The unique index on lower(display_name) is the last word when two saves race. */
function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505';
}

async function writeHistory(ctx: Ctx, id: string, action: 'create' | 'edit' | 'delete', data: unknown) {
  await recordHistory(ctx, { entity: 'access_level', entityId: id, action: action, data: data });
}

/** A level as its reader sees it: a seeded level's unchanged words in the reader's language. */
function shown(ctx: Ctx, level: TAccessLevel): TAccessLevel {
  return {
    ...level,
    displayName: shownLevelName(ctx.lang, level.displayName),
    description: shownLevelDescription(ctx.lang, level.displayName, level.description),
  };
}

/** Every access level of the tenant, by name (as shown). */
export async function listAccessLevels(ctx: Ctx): Promise<TAccessLevel[]> {
  requireAccess(ctx.auth, READ);
  const rows = (await selectLevels(ctx).orderByRaw('lower(al.display_name)')) as Row[];
  return rows
    .map((r) => shown(ctx, toAccessLevel(r)))
    .sort((a, b) => a.displayName.localeCompare(b.displayName, ctx.lang));
}

/** One access level. An id of another tenant is simply not in this schema: 404 like any other. */
export async function getAccessLevel(ctx: Ctx, id: string): Promise<TAccessLevel> {
  requireAccess(ctx.auth, READ);
  return shown(ctx, await findLevel(ctx, id));
}

/**
 * Creates an access level. Names are unique regardless of case, because users and admins pick
 * levels by name (409 ACCESS_LEVEL_NAME_TAKEN); unknown permission strings are a 400.
 */
export async function createAccessLevel(ctx: Ctx, raw: unknown): Promise<TAccessLevel> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZCreateAccessLevel, raw);
  await assertNameFree(ctx, input.displayName);
  let id: string;
  try {
    const [row] = (await ctx
      .trx('access_levels')
      .insert({
        display_name: input.displayName,
        description: input.description,
        permissions: input.permissions,
        work_order_limit: input.limit,
        configuration: JSON.stringify(input.configuration),
      })
      .returning('id')) as { id: string }[];
    id = row!.id;
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken();
    throw e;
  }
  await writeHistory(ctx, id, 'create', input);
  return shown(ctx, await findLevel(ctx, id));
}

/**
 * Changes an access level; fields left out keep their value. Users holding the level get the new
 * permissions on their next request, since sessions read permissions per request.
 */
export async function updateAccessLevel(ctx: Ctx, raw: unknown): Promise<TAccessLevel> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZUpdateAccessLevel, raw);
  const before = await findLevel(ctx, input.id);
  // a seeded level's words come back as the editor showed them (translated): keep them stored as they were
  const texts = storedLevelTexts(ctx.lang, before, {
    displayName: input.displayName ?? before.displayName,
    description: input.description === undefined ? before.description : input.description,
  });
  const after = {
    ...texts,
    permissions: input.permissions ?? before.permissions,
    limit: input.limit ?? before.limit,
    configuration: input.configuration ?? before.configuration,
  };
  if (after.displayName.toLowerCase() !== before.displayName.toLowerCase())
    await assertNameFree(ctx, after.displayName, before.id);
  try {
    await ctx
      .trx('access_levels')
      .where({ id: before.id })
      .update({
        display_name: after.displayName,
        description: after.description,
        permissions: after.permissions,
        work_order_limit: after.limit,
        configuration: JSON.stringify(after.configuration),
      });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken();
    throw e;
  }
  const { userCount: _count, id: _id, ...previous } = before;
  await writeHistory(ctx, before.id, 'edit', { before: previous, after });
  return shown(ctx, await findLevel(ctx, before.id));
}

/**
 * Deletes an access level. Refused with 409 ACCESS_LEVEL_IN_USE while any user holds it: the
 * database would otherwise drop the users' links silently and they would lose rights (perhaps the
 * last administrator their own), so the admin first moves those users to another level.
 */
export async function deleteAccessLevel(ctx: Ctx, id: string): Promise<void> {
  requireAccess(ctx.auth, EDIT);
  const level = await findLevel(ctx, id);
  if (level.userCount > 0) throw levelInUse(level.userCount);
  await ctx.trx('access_levels').where({ id: level.id }).delete();
  const { userCount: _count, id: _id, ...data } = level;
  await writeHistory(ctx, level.id, 'delete', data);
}
