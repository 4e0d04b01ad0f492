import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { parsePlainDate } from '~/core/calendar/dates';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, zRequiredString } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';

/**
 * Company holidays (spec section 3 "company holiday", section 5: one per date): days the company
 * is closed, shown on the planning board. api-calls.md: GET, POST, PUT /timereports/conf/holidays,
 * DELETE /timereports/conf/holidays/{id}. Anyone signed in may read them (the board shows them);
 * changing them instance:edit, like the other company settings.
 */

export interface CompanyHoliday {
  id: string;
  date: string;
  name: string;
}

const ENTITY = 'company_holiday';
const zDate = z
  .string({ error: 'ERROR_REQUIRED_FIELD' })
  .trim()
  .refine((v) => parsePlainDate(v) !== null, 'ERROR_INVALID_VALUE');
export const ZHoliday = z.object({ date: zDate, name: zRequiredString().max(100, 'ERROR_MAX_LENGTH') });
export const ZEditHoliday = ZHoliday.extend({ id: z.string().refine(isUuid, 'ERROR_INVALID_VALUE') });
/** ?year= (1970–9999); left out, empty or not a number, this year. */
export const ZHolidayYear = z.object({
  year: z.preprocess(
    (v) => Number(v) || undefined,
    z
      .number({ error: 'ERROR_INVALID_VALUE' })
      .int('ERROR_INVALID_VALUE')
      .min(1970, 'ERROR_INVALID_VALUE')
      .max(9999, 'ERROR_INVALID_VALUE')
      .optional(),
  ),
});

const columns = (ctx: Ctx) => ['id', ctx.trx.raw(`to_char(date, 'YYYY-MM-DD') as date`), 'name'];

/** One year's holidays (this year when none is asked), by date. */
export async function listHolidays(
  ctx: Ctx,
  raw: { year?: unknown } = {},
): Promise<{ holidays: CompanyHoliday[]; year: number }> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const year = parseInput(ZHolidayYear, raw).year ?? ctx.now.getFullYear();
  const holidays = (await ctx
    .trx('company_holidays')
    .where('date', '>=', `${year}-01-01`)
    .andWhere('date', '<=', `${year}-12-31`)
    .orderBy('date')
    .select(columns(ctx))) as CompanyHoliday[];
  return { holidays, year };
}

async function write(ctx: Ctx, fn: () => Promise<CompanyHoliday | undefined>): Promise<CompanyHoliday> {
  try {
    const row = await fn();
    if (!row) throw notFound();
    return row;
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw new AppError('DUPLICATE_COMPANY_HOLIDAY', 409);
    throw e;
  }
}

/** POST: a new holiday; a date that already has one is 409 DUPLICATE_COMPANY_HOLIDAY. */
export async function addHoliday(ctx: Ctx, raw: unknown): Promise<{ holiday: CompanyHoliday }> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZHoliday, raw);
  const holiday = await write(ctx, async () => {
    const [row] = await ctx
      .trx('company_holidays')
      .insert({ date: input.date, name: input.name })
      .returning(columns(ctx));
    return row as CompanyHoliday;
  });
  await recordHistory(ctx, { entity: ENTITY, entityId: holiday.id, action: 'add', data: input });
  return { holiday };
}

/** PUT: renames or moves a holiday. */
export async function editHoliday(ctx: Ctx, raw: unknown): Promise<{ holiday: CompanyHoliday }> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZEditHoliday, raw);
  const holiday = await write(ctx, async () => {
    const [row] = await ctx
      .trx('company_holidays')
      .where({ id: input.id })
      .update({ date: input.date, name: input.name })
      .returning(columns(ctx));
    return row as CompanyHoliday | undefined;
  });
  await recordHistory(ctx, {
    entity: ENTITY,
    entityId: holiday.id,
    action: 'edit',
    data: { date: input.date, name: input.name },
  });
  return { holiday };
}

/** DELETE /{id}. */
export async function deleteHoliday(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  if (!isUuid(id)) throw notFound();
  const [row] = await ctx.trx('company_holidays').where({ id }).delete().returning(columns(ctx));
  if (!row) throw notFound();
  await recordHistory(ctx, { entity: ENTITY, entityId: id, action: 'delete', data: row });
}
