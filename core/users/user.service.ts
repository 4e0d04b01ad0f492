import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { recordHistory } from '~/core/history/history';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, zRequiredString } from '~/core/errors/validation';
import { LANGUAGE_KEYS } from '~/core/instance/instance-config';
import { requireAccess } from '~/core/permissions/access';
import { shownLevelName } from '~/core/access-levels/system-levels';
import { checkRegion } from '~/core/regions/region.service';
import { zOptionalTextOrUnset } from '~/core/registers/fields';

/** Spec section 9: user filters default to active on, inactive off, registered off. */
const zFlag = (fallback: boolean) =>
  z
    .preprocess(
      (v) => (v === 'true' || v === '1' || v === 'on' ? true : v === 'false' || v === '0' ? false : v),
      z.boolean(),
    )
    .default(fallback);

export const ZUserFilter = z.object({
  active: zFlag(true),
  inactive: zFlag(false),
  registered: zFlag(false),
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
  offset: z.coerce.number().int().min(0).default(0),
});

export interface UserListItem {
  id: string;
  email: string;
  name: string;
  shortName: string | null;
  phone: string | null;
  status: 'active' | 'inactive' | 'registered';
  language: string | null;
  departmentId: string | null;
  department: string | null;
  /** The user's region (the regions module; decision 067), which their lists start filtered by. */
  region: string | null;
  accessLevelIds: string[];
  accessLevels: string[];
}

/**
 * Users by status, sorted by name, filtered in SQL (one query for the page and its access levels,
 * one for the count).
 */
export async function listUsers(ctx: Ctx, raw: unknown = {}): Promise<{ users: UserListItem[]; totalCount: number }> {
  requireAccess(ctx.auth, { permission: 'users:read' });
  const f = parseInput(ZUserFilter, raw);
  const statuses = [f.active && 'active', f.inactive && 'inactive', f.registered && 'registered'].filter(
    Boolean,
  ) as string[];
  if (!statuses.length) return { users: [], totalCount: 0 };
  const base = ctx.trx('users as u').whereIn('u.status', statuses);
  if (f.q) {
    const like = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base.where((w) => w.whereILike('u.name', like).orWhereILike('u.email', like));
  }
  const [{ n }] = await base.clone().count({ n: '*' });
  const rows = await base
    .clone()
    .leftJoin('departments as d', 'd.id', 'u.department_id')
    .select(
      'u.id',
      'u.email',
      'u.name',
      'u.short_name',
      'u.phone',
      'u.status',
      'u.language',
      'u.department_id',
      'd.name as department',
      'u.region',
      ctx.trx.raw(
        `coalesce((select array_agg(al.id order by al.display_name) from user_access_levels ual
           join access_levels al on al.id = ual.access_level_id where ual.user_id = u.id), '{}') as access_level_ids`,
      ),
      ctx.trx.raw(
        `coalesce((select array_agg(al.display_name order by al.display_name) from user_access_levels ual
           join access_levels al on al.id = ual.access_level_id where ual.user_id = u.id), '{}') as access_levels`,
      ),
    )
    .orderByRaw('lower(u.name), u.id')
    .limit(f.limit)
    .offset(f.offset);
  return {
    totalCount: Number(n),
    users: rows.map((r: Record<string, unknown>) => ({
      id: r.id as string,
      email: r.email as string,
      name: r.name as string,
      shortName: (r.short_name as string) ?? null,
      phone: (r.phone as string) ?? null,
      status: r.status as UserListItem['status'],
      language: (r.language as string) ?? null,
      departmentId: (r.department_id as string) ?? null,
      department: (r.department as string) ?? null,
      region: (r.region as string) ?? null,
      accessLevelIds: r.access_level_ids as string[],
      accessLevels: (r.access_levels as string[]).map((name) => shownLevelName(ctx.lang, name)),
    })),
  };
}

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'ERROR_MAX_LENGTH')
    .optional()
    .transform((v) => (v ? v : null));

export const ZUpdateUser = z.object({
  id: z.string(),
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  shortName: optionalText(20),
  phone: optionalText(40),
  language: z.enum(LANGUAGE_KEYS, { error: 'ERROR_INVALID_VALUE' }).optional().nullable(),
  departmentId: z
    .string()
    .optional()
    .nullable()
    .transform((v) => (v ? v : null)),
  /** Left out: unchanged (the form shows it only with the regions module). */
  region: zOptionalTextOrUnset(100),
  accessLevelIds: z.array(z.string()).optional(),
  trackerId: optionalText(100),
  erpEmployeeId: optionalText(100),
});

async function history(ctx: Ctx, id: string, action: string, data: unknown) {
  await recordHistory(ctx, { entity: 'user', entityId: id, action: action, data: data });
}

async function requireUser(ctx: Ctx, id: unknown) {
  if (!isUuid(id)) throw notFound();
  const row = await ctx.trx('users').where({ id }).first('id', 'status', 'email', 'region');
  if (!row) throw notFound();
  return row as { id: string; status: string; email: string; region: string | null };
}

/** Edits a user (spec section 3 fields) and, when given, their access levels. */
export async function updateUser(ctx: Ctx, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'users:edit' });
  const input = parseInput(ZUpdateUser, raw);
  const user = await requireUser(ctx, input.id);
  const region = await checkRegion(ctx.trx, input.region, user.region);
  if (input.departmentId) {
    if (!isUuid(input.departmentId) || !(await ctx.trx('departments').where({ id: input.departmentId }).first('id')))
      throw new AppError('VALIDATION_FAILED', 400, { fields: { departmentId: ['ERROR_INVALID_VALUE'] } });
  }
  await ctx
    .trx('users')
    .where({ id: input.id })
    .update({
      name: input.name,
      short_name: input.shortName,
      phone: input.phone,
      ...(input.language !== undefined ? { language: input.language } : {}),
      department_id: input.departmentId,
      ...(region !== undefined ? { region } : {}),
      tracker_id: input.trackerId,
      erp_employee_id: input.erpEmployeeId,
      updated_at: ctx.now,
    });
  if (input.accessLevelIds) {
    const ids = [...new Set(input.accessLevelIds)];
    if (!ids.every(isUuid))
      throw new AppError('VALIDATION_FAILED', 400, { fields: { accessLevelIds: ['ERROR_INVALID_VALUE'] } });
    const found = ids.length ? await ctx.trx('access_levels').whereIn('id', ids).select('id') : [];
    if (found.length !== ids.length)
      throw new AppError('VALIDATION_FAILED', 400, { fields: { accessLevelIds: ['ERROR_INVALID_VALUE'] } });
    await ctx.trx('user_access_levels').where({ user_id: input.id }).delete();
    if (ids.length)
      await ctx.trx('user_access_levels').insert(ids.map((id) => ({ user_id: input.id, access_level_id: id })));
  }
  await history(ctx, input.id, 'edit', input);
}

/**
 * Deactivates a user: their sessions end at once (and validation refuses inactive users anyway).
 * You cannot deactivate yourself: the last admin could lock everyone out.
 */
export async function setUserActive(ctx: Ctx, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'users:edit' });
  const input = parseInput(z.object({ id: z.string(), active: z.boolean() }), raw);
  const user = await requireUser(ctx, input.id);
  if (!input.active && user.id === ctx.auth.user.id) throw new AppError('CANNOT_DEACTIVATE_YOURSELF', 409);
  if (user.status === 'registered' && input.active) throw new AppError('USER_HAS_NOT_REGISTERED', 409);
  await ctx
    .trx('users')
    .where({ id: user.id })
    .update({ status: input.active ? 'active' : 'inactive', updated_at: ctx.now });
  if (!input.active)
    await ctx.trx('sessions').where({ user_id: user.id }).whereNull('revoked_at').update({ revoked_at: ctx.now });
  await history(ctx, user.id, input.active ? 'reactivate' : 'deactivate', {});
}

// ---- departments ------------------------------------------------------------------------

export const ZDepartment = z.object({
  id: z.string().optional(),
  name: zRequiredString().max(100, 'ERROR_MAX_LENGTH'),
});

export async function listDepartments(ctx: Ctx) {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const rows = await ctx
    .trx('departments as d')
    .select(
      'd.id',
      'd.name',
      ctx.trx.raw('(select count(*) from users u where u.department_id = d.id)::int as user_count'),
    )
    .orderByRaw('lower(d.name)');
  return rows.map((r: { id: string; name: string; user_count: number }) => ({
    id: r.id,
    name: r.name,
    userCount: r.user_count,
  }));
}

export async function getDepartment(ctx: Ctx, id: unknown) {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  if (!isUuid(id)) throw notFound();
  const row = await ctx.trx('departments').where({ id }).first('id', 'name');
  if (!row) throw notFound();
  return row as { id: string; name: string };
}

export async function saveDepartment(ctx: Ctx, raw: unknown): Promise<{ id: string; name: string }> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZDepartment, raw);
  // The department first: an id that names none (not even a UUID) is 404, never a query on it.
  if (input.id) await getDepartment(ctx, input.id);
  const clash = await ctx
    .trx('departments')
    .whereRaw('lower(name) = lower(?)', [input.name])
    .modify((q) => (input.id ? q.whereNot('id', input.id) : q))
    .first('id');
  if (clash) throw new AppError('DEPARTMENT_NAME_TAKEN', 409, { message: 'A department with that name exists' });
  if (input.id) {
    await ctx.trx('departments').where({ id: input.id }).update({ name: input.name });
    return { id: input.id, name: input.name };
  }
  const [row] = await ctx.trx('departments').insert({ name: input.name }).returning(['id', 'name']);
  return row;
}

/** Spec section 8: a department with users cannot be deleted. */
export async function deleteDepartment(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const dep = await getDepartment(ctx, id);
  const used = await ctx.trx('users').where({ department_id: dep.id }).first('id');
  if (used) throw new AppError('DEPARTMENT_HAS_USERS', 409, { message: 'The department has users' });
  await ctx.trx('departments').where({ id: dep.id }).delete();
}

/** One user for the edit screen: the list item plus the optional spec fields. */
export async function getUser(
  ctx: Ctx,
  id: unknown,
): Promise<UserListItem & { trackerId: string | null; erpEmployeeId: string | null }> {
  requireAccess(ctx.auth, { permission: 'users:read' });
  if (!isUuid(id)) throw notFound();
  const row = await ctx
    .trx('users as u')
    .leftJoin('departments as d', 'd.id', 'u.department_id')
    .where('u.id', id)
    .first(
      'u.*',
      'd.name as department',
      ctx.trx.raw(
        `coalesce((select array_agg(access_level_id) from user_access_levels where user_id = u.id), '{}') as access_level_ids`,
      ),
    );
  if (!row) throw notFound();
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    shortName: row.short_name,
    phone: row.phone,
    status: row.status,
    language: row.language,
    departmentId: row.department_id,
    department: row.department,
    region: row.region ?? null,
    accessLevelIds: row.access_level_ids,
    accessLevels: [],
    trackerId: row.tracker_id,
    erpEmployeeId: row.erp_employee_id,
  };
}

/** Access levels to choose from when editing a user. */
export async function accessLevelOptions(ctx: Ctx): Promise<{ id: string; displayName: string }[]> {
  requireAccess(ctx.auth, { permission: 'users:read' });
  const rows = await ctx.trx('access_levels').select('id', 'display_name').orderByRaw('lower(display_name)');
  return rows
    .map((r: { id: string; display_name: string }) => ({
      id: r.id,
      displayName: shownLevelName(ctx.lang, r.display_name),
    }))
    .sort((a: { displayName: string }, b: { displayName: string }) =>
      a.displayName.localeCompare(b.displayName, ctx.lang),
    );
}
