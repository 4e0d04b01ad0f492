import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, zRequiredString } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { inUse } from '~/core/registers/list-query';
import { COMPENSATION_TYPES, hasTwoDecimals, type CompensationType } from './compensation.rules';

/**
 * Compensation types (spec section 3 "Compensation types: distance, travel, expense"; section 9
 * codes; settings "compensation types"; api-calls.md /timereports/conf/compensation/tags): the
 * codes a compensation is reported by, with the unit price a distance (per km) or travel (per
 * day) tag is paid at and the payroll system's code. Anyone signed in reads them (the week's
 * forms offer them); changing them is instance:edit, like the other company settings. A tag
 * in use cannot be deleted (409 IN_USE): it is set inactive instead, and its type stays.
 */

export interface CompensationTag {
  id: string;
  code: string;
  /** Typed in the settings; null: the screens show the code's label (`expenses:code.<code>`). */
  name: string | null;
  type: CompensationType;
  /** Per kilometre (distance) or per day (travel); always null for an expense. */
  unitPrice: number | null;
  /** The payroll system's code (PAXml "typ"); the code itself when null. */
  payrollCode: string | null;
  active: boolean;
  sortOrder: number;
}

export const COMPENSATION_TAG_ENTITY = 'compensation_tag';

type Row = Record<string, unknown>;

export const toCompensationTag = (r: Row): CompensationTag => ({
  id: r.id as string,
  code: r.code as string,
  name: (r.name as string | null) ?? null,
  type: r.type as CompensationType,
  unitPrice: r.unit_price === null || r.unit_price === undefined ? null : Number(r.unit_price),
  payrollCode: (r.payroll_code as string | null) ?? null,
  active: Boolean(r.active),
  sortOrder: Number(r.sort_order),
});

const COLUMNS = ['id', 'code', 'name', 'type', 'unit_price', 'payroll_code', 'active', 'sort_order'];

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : emptyToUndefined(v)),
    z.string().trim().max(max, 'ERROR_MAX_LENGTH').optional(),
  );
const zBool = z.preprocess(
  (v) => (v === 'true' || v === 'on' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  z.boolean({ error: 'ERROR_INVALID_VALUE' }),
);

export const ZCompensationTag = z.object({
  code: zRequiredString().max(20, 'ERROR_MAX_LENGTH').regex(/^\S+$/, 'ERROR_NO_SPACES'),
  name: optionalText(100),
  type: z.enum(COMPENSATION_TYPES, { error: 'ERROR_REQUIRED_FIELD' }),
  unitPrice: z.preprocess(
    (v) =>
      typeof v === 'string' && v.trim() !== '' ? Number(v.replace(/\s/g, '').replace(',', '.')) : emptyToUndefined(v),
    z
      .number({ error: 'ERROR_INVALID_NUMBER' })
      .min(0, 'ERROR_NEGATIVE_AMOUNT')
      .max(99_999_999, 'ERROR_INVALID_VALUE')
      .refine(hasTwoDecimals, 'ERROR_PRICE_PATTERN')
      .optional(),
  ),
  payrollCode: optionalText(20),
  active: zBool.default(true),
  sortOrder: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : emptyToUndefined(v)),
    z.number({ error: 'ERROR_INVALID_NUMBER' }).int('ERROR_INVALID_NUMBER').min(0).max(100_000).optional(),
  ),
});
export const ZEditCompensationTag = ZCompensationTag.extend({ id: z.string({ error: 'ERROR_REQUIRED_FIELD' }) });

type TagInput = z.infer<typeof ZCompensationTag>;

function values(input: TagInput) {
  return {
    code: input.code,
    name: input.name ?? null,
    type: input.type,
    // an expense is the amount on its receipt: it has no unit price
    unit_price: input.type === 'expense' ? null : (input.unitPrice ?? null),
    payroll_code: input.payrollCode ?? null,
    active: input.active,
  };
}

const duplicate = () =>
  new AppError('DUPLICATE_COMPENSATION_TAG', 409, { fields: { code: ['DUPLICATE_COMPENSATION_TAG'] } });

async function codeTaken(ctx: Ctx, code: string, exceptId?: string): Promise<boolean> {
  const q = ctx.trx('compensation_tags').whereRaw('lower(code) = lower(?)', [code]);
  if (exceptId) void q.whereNot('id', exceptId);
  return Boolean(await q.first('id'));
}

/** How many reports use a tag, by kind (compensations, trips). */
async function usage(ctx: Ctx, id: string): Promise<{ compensationReports: number; distanceReports: number }> {
  const [{ n: c }] = (await ctx.trx('compensation_reports').where({ tag_id: id }).count({ n: '*' })) as { n: string }[];
  const [{ n: d }] = (await ctx.trx('distance_reports').where({ tag_id: id }).count({ n: '*' })) as { n: string }[];
  return { compensationReports: Number(c), distanceReports: Number(d) };
}

/**
 * GET /timereports/conf/compensation/tags: every tag in its order (inactive ones too, marked;
 * `?active=1` only the active ones).
 */
export async function listCompensationTags(
  ctx: Ctx,
  raw: { active?: unknown } = {},
): Promise<{ tags: CompensationTag[] }> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const q = ctx
    .trx('compensation_tags')
    .select(COLUMNS)
    .orderBy([{ column: 'sort_order' }, { column: 'code' }]);
  if (raw.active === '1' || raw.active === 'true' || raw.active === true) void q.where({ active: true });
  return { tags: ((await q) as Row[]).map(toCompensationTag) };
}

/** One tag by id (404 when unknown or another tenant's). */
async function getCompensationTag(ctx: Ctx, id: unknown): Promise<CompensationTag> {
  if (!isUuid(id)) throw notFound();
  const row = (await ctx.trx('compensation_tags').where({ id }).first(COLUMNS)) as Row | undefined;
  if (!row) throw notFound();
  return toCompensationTag(row);
}

/** POST: a new tag at the end of its type's order; a code already used is 409 DUPLICATE_COMPENSATION_TAG. */
export async function addCompensationTag(ctx: Ctx, raw: unknown): Promise<{ tag: CompensationTag }> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZCompensationTag, raw);
  if (await codeTaken(ctx, input.code)) throw duplicate();
  const sortOrder =
    input.sortOrder ??
    Number(((await ctx.trx('compensation_tags').max({ m: 'sort_order' })) as { m: number | null }[])[0]?.m ?? 0) + 1;
  const [row] = (await ctx
    .trx('compensation_tags')
    .insert({ ...values(input), sort_order: sortOrder })
    .returning(COLUMNS)) as Row[];
  const tag = toCompensationTag(row!);
  await recordHistory(ctx, { entity: COMPENSATION_TAG_ENTITY, entityId: tag.id, action: 'add', data: tag });
  return { tag };
}

/**
 * PUT {id, code, name, type, unitPrice, payrollCode, active, sortOrder}. A tag in use keeps its
 * type (its reports were priced by it): another type is a field error ERROR_TYPE_IN_USE.
 */
export async function editCompensationTag(ctx: Ctx, raw: unknown): Promise<{ tag: CompensationTag }> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZEditCompensationTag, raw);
  const before = await getCompensationTag(ctx, input.id);
  if (await codeTaken(ctx, input.code, before.id)) throw duplicate();
  if (input.type !== before.type) {
    const used = await usage(ctx, before.id);
    if (used.compensationReports + used.distanceReports > 0)
      throw new AppError('VALIDATION_FAILED', 400, { fields: { type: ['ERROR_TYPE_IN_USE'] } });
  }
  const [row] = (await ctx
    .trx('compensation_tags')
    .where({ id: before.id })
    .update({ ...values(input), sort_order: input.sortOrder ?? before.sortOrder })
    .returning(COLUMNS)) as Row[];
  const tag = toCompensationTag(row!);
  await recordHistory(ctx, {
    entity: COMPENSATION_TAG_ENTITY,
    entityId: tag.id,
    action: 'edit',
    data: { old: before, new: tag },
  });
  return { tag };
}

/** Sets a tag active or inactive (the settings' "set inactive" for a tag in use). */
export async function setCompensationTagActive(
  ctx: Ctx,
  id: unknown,
  active: boolean,
): Promise<{ tag: CompensationTag }> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const before = await getCompensationTag(ctx, id);
  const [row] = (await ctx
    .trx('compensation_tags')
    .where({ id: before.id })
    .update({ active })
    .returning(COLUMNS)) as Row[];
  const tag = toCompensationTag(row!);
  if (before.active !== active)
    await recordHistory(ctx, {
      entity: COMPENSATION_TAG_ENTITY,
      entityId: tag.id,
      action: active ? 'activate' : 'deactivate',
    });
  return { tag };
}

/** DELETE /{id}: a tag no report uses; one in use is 409 IN_USE {usedBy} (set it inactive instead). */
export async function deleteCompensationTag(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const tag = await getCompensationTag(ctx, id);
  const used = await usage(ctx, tag.id);
  if (used.compensationReports + used.distanceReports > 0) throw inUse(used);
  await ctx.trx('compensation_tags').where({ id: tag.id }).delete();
  await recordHistory(ctx, { entity: COMPENSATION_TAG_ENTITY, entityId: tag.id, action: 'delete', data: tag });
}
