import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { inUse, isForeignKeyViolation, uniqueViolation } from '~/core/registers/list-query';
import { TAG_TYPES, type TagType } from './time-report.rules';

/**
 * Time-report tags (api-calls.md "Time-report tags: /timereports/conf/tags"; spec section 3 "tag
 * types: absence, attend (with a default time)"): what a person's own time is reported as — work
 * (ARB, RES), absence (the Swedish payroll codes) or attendance with the time a click fills in.
 * Seeded tags have no name: screens show the code's translated label until a name is typed.
 * Anyone signed in reads them (the time report needs them); instance:edit changes them. A tag
 * time reports use cannot be deleted (409 IN_USE): it is set inactive instead.
 */

export const TIME_TAG_TYPES = TAG_TYPES;
export type TimeTagType = TagType;

export interface TimeReportTag {
  id: string;
  code: string;
  name: string | null;
  type: TimeTagType;
  /** 'HH:MM'; attendance tags only. */
  defaultStart: string | null;
  defaultEnd: string | null;
  payrollCode: string | null;
  active: boolean;
  sortOrder: number;
}

/** History entity of a tag. */
export const TIME_TAG_ENTITY = 'time_report_tag';
/** 2–10 capital letters or digits (the payroll codes: SEM, OS1, NARV). */
export const TIME_TAG_CODE_PATTERN = /^[A-Z0-9]{2,10}$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

type Row = {
  id: string;
  code: string;
  name: string | null;
  type: TimeTagType;
  default_start: string | null;
  default_end: string | null;
  payroll_code: string | null;
  active: boolean;
  sort_order: number;
};

const hhmm = (v: string | null) => (v === null ? null : String(v).slice(0, 5));
const toTag = (r: Row): TimeReportTag => ({
  id: r.id,
  code: r.code,
  name: r.name,
  type: r.type,
  defaultStart: hhmm(r.default_start),
  defaultEnd: hhmm(r.default_end),
  payrollCode: r.payroll_code,
  active: r.active,
  sortOrder: Number(r.sort_order),
});
const COLUMNS = ['id', 'code', 'name', 'type', 'default_start', 'default_end', 'payroll_code', 'active', 'sort_order'];

/** GET /timereports/conf/tags[?includeInactive=true]: the tags by sort order, the active ones unless asked. */
export async function listTimeReportTags(ctx: Ctx, opts: { includeInactive?: boolean } = {}): Promise<TimeReportTag[]> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const q = ctx.trx('time_report_tags').select(COLUMNS);
  if (!opts.includeInactive) q.where({ active: true });
  const rows = (await q.orderBy([{ column: 'sort_order' }, { column: 'code' }])) as Row[];
  return rows.map(toTag);
}

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const zOptionalText = (max: number) =>
  z.preprocess(blankToNull, z.string({ error: 'ERROR_INVALID_VALUE' }).trim().max(max, 'ERROR_MAX_LENGTH').nullish());
const zTime = z.preprocess(
  blankToNull,
  z
    .string({ error: 'ERROR_INVALID_VALUE' })
    .trim()
    .transform((v) => v.slice(0, 5))
    .refine((v) => TIME_PATTERN.test(v), 'ERROR_INVALID_VALUE')
    .nullish(),
);
const zFlag = z.preprocess(
  (v) => (v === 'true' || v === 'on' ? true : v === 'false' ? false : v),
  z.boolean({ error: 'ERROR_INVALID_VALUE' }),
);

export const ZTag = z
  .object({
    code: z
      .string({ error: 'ERROR_REQUIRED_FIELD' })
      .trim()
      .min(1, 'ERROR_REQUIRED_FIELD')
      .transform((v) => v.toUpperCase())
      .refine((v) => TIME_TAG_CODE_PATTERN.test(v), 'ERROR_TIME_TAG_CODE'),
    name: zOptionalText(100),
    type: z.enum(TIME_TAG_TYPES, { error: 'ERROR_INVALID_VALUE' }),
    defaultStart: zTime,
    defaultEnd: zTime,
    payrollCode: zOptionalText(20),
    active: zFlag.default(true),
    sortOrder: z.coerce
      .number({ error: 'ERROR_INVALID_VALUE' })
      .int('ERROR_INVALID_VALUE')
      .min(0, 'ERROR_INVALID_VALUE')
      .max(100_000, 'ERROR_INVALID_VALUE')
      .optional(),
  })
  .superRefine((t, issue) => {
    // Attendance fills in a default time; the others have none.
    if (t.type !== 'attend') return;
    for (const field of ['defaultStart', 'defaultEnd'] as const)
      if (!t[field]) issue.addIssue({ code: 'custom', path: [field], message: 'ERROR_REQUIRED_FIELD' });
  });
export const ZEditTag = ZTag.and(z.object({ id: z.string({ error: 'ERROR_REQUIRED_FIELD' }) }));
type TTag = z.infer<typeof ZTag>;

function columnsOf(t: TTag) {
  const attend = t.type === 'attend';
  return {
    code: t.code,
    name: t.name ?? null,
    type: t.type,
    default_start: attend ? t.defaultStart : null,
    default_end: attend ? t.defaultEnd : null,
    payroll_code: t.payrollCode ?? null,
    active: t.active,
  };
}

/** A unique-index violation on the code is 409 DUPLICATE_TIME_REPORT_TAG. */
async function write<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (uniqueViolation(e) !== null)
      throw new AppError('DUPLICATE_TIME_REPORT_TAG', 409, { fields: { code: ['DUPLICATE_TIME_REPORT_TAG'] } });
    throw e;
  }
}

async function usage(ctx: Ctx, id: string): Promise<number> {
  const row = (await ctx.trx('time_reports').where({ tag_id: id }).count({ n: '*' }).first()) as
    { n: string | number } | undefined;
  return Number(row?.n ?? 0);
}

/** POST /timereports/conf/tags: a new tag, last in its order unless told. */
export async function createTimeReportTag(ctx: Ctx, raw: unknown): Promise<{ tag: TimeReportTag }> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZTag, raw);
  const sortOrder =
    input.sortOrder ??
    Number(
      ((await ctx.trx('time_report_tags').max({ m: 'sort_order' }).first()) as { m: number | null } | undefined)?.m ??
        0,
    ) + 1;
  const [row] = await write(
    async () =>
      (await ctx
        .trx('time_report_tags')
        .insert({ ...columnsOf(input), sort_order: sortOrder })
        .returning(COLUMNS)) as Row[],
  );
  const tag = toTag(row!);
  await recordHistory(ctx, { entity: TIME_TAG_ENTITY, entityId: tag.id, action: 'add', data: tag });
  return { tag };
}

/**
 * PUT /timereports/conf/tags {id, code, name, type, defaultStart, defaultEnd, payrollCode, active,
 * sortOrder}. A tag time reports use keeps its type (409 IN_USE): the reports were made under it.
 */
export async function updateTimeReportTag(ctx: Ctx, raw: unknown): Promise<{ tag: TimeReportTag }> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZEditTag, raw);
  if (!isUuid(input.id)) throw notFound();
  const before = (await ctx.trx('time_report_tags').where({ id: input.id }).forUpdate().first(COLUMNS)) as
    Row | undefined;
  if (!before) throw notFound();
  if (before.type !== input.type) {
    const used = await usage(ctx, input.id);
    if (used > 0) throw inUse({ timeReports: used });
  }
  const [row] = await write(
    async () =>
      (await ctx
        .trx('time_report_tags')
        .where({ id: input.id })
        .update({ ...columnsOf(input), sort_order: input.sortOrder ?? before.sort_order })
        .returning(COLUMNS)) as Row[],
  );
  const tag = toTag(row!);
  await recordHistory(ctx, { entity: TIME_TAG_ENTITY, entityId: tag.id, action: 'edit', data: tag });
  return { tag };
}

/** DELETE /timereports/conf/tags/{id}: only a tag no time report uses (409 IN_USE {usedBy: {timeReports}}). */
export async function deleteTimeReportTag(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  if (!isUuid(id)) throw notFound();
  const before = (await ctx.trx('time_report_tags').where({ id }).forUpdate().first(COLUMNS)) as Row | undefined;
  if (!before) throw notFound();
  const used = await usage(ctx, id);
  if (used > 0) throw inUse({ timeReports: used });
  try {
    await ctx.trx('time_report_tags').where({ id }).delete();
  } catch (e) {
    if (isForeignKeyViolation(e)) throw inUse({ timeReports: 1 });
    throw e;
  }
  await recordHistory(ctx, { entity: TIME_TAG_ENTITY, entityId: id, action: 'delete', data: toTag(before) });
}
