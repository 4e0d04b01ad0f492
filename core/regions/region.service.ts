import { z } from 'zod';
import type { Auth, Ctx } from '~/core/context';
import type { Trx } from '~/core/db/with-tenant';
import { AppError, notFound } from '~/core/errors/app-error';
import { parseInput, zRequiredString } from '~/core/errors/validation';
import { hasAccess, requireAccess, type Access } from '~/core/permissions/access';
import { ALL_REGIONS } from './region.constants';

export { ALL_REGIONS };

/**
 * The regions register (issue 36 item 4, spec section 6 module "regions"; decision 067): the
 * regions users, business objects and projects belong to, keyed by name (migration 0070). A region
 * in use is deactivated, not deleted; a rename follows into every row that names it.
 */
export const REGIONS_READ: Access = { permission: 'signed-in', module: 'regions' };
export const REGIONS_EDIT: Access = { permission: 'instance:edit', module: 'regions' };

const zName = () =>
  zRequiredString()
    .max(100, 'ERROR_MAX_LENGTH')
    .refine((v) => v.toLowerCase() !== ALL_REGIONS, 'ERROR_INVALID_VALUE');

export const ZRegionCreate = z.object({ name: zName() });
export const ZRegionUpdate = z.object({
  name: zName(),
  newName: zName().optional(),
  active: z.boolean().optional(),
});
export const ZRegionDelete = z.object({ name: zName() });

export interface Region {
  name: string;
  active: boolean;
  /** How many users, objects and projects name it. */
  users: number;
  objects: number;
  projects: number;
}

/** Every region (the inactive ones last), with what uses it: four index-only counts per region. */
export async function listRegions(ctx: Ctx): Promise<Region[]> {
  requireAccess(ctx.auth, REGIONS_READ);
  const rows = (await ctx.trx.raw(
    `select r.name, r.active,
            (select count(*) from users u where u.region = r.name)::int as users,
            (select count(*) from business_objects b where b.region = r.name)::int as objects,
            (select count(*) from projects p where p.region = r.name)::int as projects
       from regions r
      order by r.active desc, lower(r.name)`,
  )) as { rows: Region[] };
  return rows.rows;
}

/** The names a form offers: the active regions, and `keep` (the record's own) even if inactive. */
export async function regionChoices(ctx: Ctx, keep?: string | null): Promise<string[]> {
  if (!ctx.auth || !hasAccess(ctx.auth, REGIONS_READ)) return [];
  const rows = (await ctx
    .trx('regions')
    .where('active', true)
    .modify((q) => (keep ? q.orWhere('name', keep) : q))
    .orderByRaw('lower(name)')
    .select('name')) as { name: string }[];
  return rows.map((r) => r.name);
}

async function findRegion(trx: Trx, name: string): Promise<{ name: string; active: boolean } | undefined> {
  return trx('regions').where({ name }).first('name', 'active');
}

async function assertNameFree(trx: Trx, name: string, except?: string): Promise<void> {
  const clash = await trx('regions')
    .whereRaw('lower(name) = lower(?)', [name])
    .modify((q) => (except ? q.whereNot('name', except) : q))
    .first('name');
  if (clash) throw new AppError('REGION_NAME_TAKEN', 409, { message: 'A region with that name exists' });
}

export async function createRegion(ctx: Ctx, raw: unknown): Promise<{ name: string; active: boolean }> {
  requireAccess(ctx.auth, REGIONS_EDIT);
  const input = parseInput(ZRegionCreate, raw);
  await assertNameFree(ctx.trx, input.name);
  await ctx.trx('regions').insert({ name: input.name });
  return { name: input.name, active: true };
}

/** Renames and/or (de)activates a region; a rename reaches every user, object and project (cascade). */
export async function updateRegion(ctx: Ctx, raw: unknown): Promise<{ name: string; active: boolean }> {
  requireAccess(ctx.auth, REGIONS_EDIT);
  const input = parseInput(ZRegionUpdate, raw);
  const region = await findRegion(ctx.trx, input.name);
  if (!region) throw notFound();
  const name = input.newName ?? region.name;
  if (name !== region.name) await assertNameFree(ctx.trx, name, region.name);
  const active = input.active ?? region.active;
  await ctx.trx('regions').where({ name: region.name }).update({ name, active });
  return { name, active };
}

/** Deletes a region nothing names (409 REGION_IN_USE otherwise: deactivate it instead). */
export async function deleteRegion(ctx: Ctx, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, REGIONS_EDIT);
  const input = parseInput(ZRegionDelete, raw);
  const region = await findRegion(ctx.trx, input.name);
  if (!region) throw notFound();
  const used = (await ctx.trx.raw(
    `select exists (select 1 from users where region = :n)
         or exists (select 1 from business_objects where region = :n)
         or exists (select 1 from projects where region = :n) as used`,
    { n: region.name },
  )) as { rows: { used: boolean }[] };
  if (used.rows[0]!.used)
    throw new AppError('REGION_IN_USE', 409, { message: 'The region is in use; deactivate it instead' });
  await ctx.trx('regions').where({ name: region.name }).delete();
}

/**
 * A region a record is being saved with: null or a name of the register that is active, or the
 * record's current one (an inactive region stays on what already has it). Anything else is a
 * field error on `field`, never a foreign-key failure.
 */
export async function checkRegion(
  trx: Trx,
  value: string | null | undefined,
  current: string | null | undefined,
  field = 'region',
): Promise<string | null | undefined> {
  if (value === undefined || value === null || value === '') return value === '' ? null : value;
  if (value === current) return value;
  const region = await findRegion(trx, value);
  if (!region || !region.active)
    throw new AppError('VALIDATION_FAILED', 400, { fields: { [field]: ['ERROR_UNKNOWN_REGION'] } });
  return region.name;
}

/** The session's region (spec section 3, Session `region`): the user's, with the regions module on. */
export function sessionRegion(auth: Auth | null | undefined): string | null {
  return auth && hasAccess(auth, REGIONS_READ) ? (auth.user.region ?? null) : null;
}

/**
 * The region a list is filtered by: the one asked for, none for `all`, and by default the
 * session's (so a user of region North opens North's orders and projects, and may widen it).
 */
export function listRegion(auth: Auth | null | undefined, asked: string | null | undefined): string | null {
  if (asked === ALL_REGIONS) return null;
  return asked || sessionRegion(auth);
}
