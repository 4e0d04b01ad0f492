import { parsePeriod, weekDates, zDate } from './period-input';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { requireExpenseReader, type ExpenseKind } from './expense-access';

/**
 * What trips and compensations share: an empty form value counts as none, numbers may be typed
 * as the person writes them ("1 234,5"), a comment of at most 2000 characters, and reading a
 * person's rows over a span of dates or an ISO week.
 */

/** '' and null as undefined: a form's empty field is a field not sent. */
export const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** An optional id (the row's, the person's): '' is none. */
export const zOptionalId = () => z.preprocess(emptyToUndefined, z.string().optional());

/** An optional comment, trimmed, at most 2000 characters. */
export const zComment = () =>
  z.preprocess(emptyToUndefined, z.string().trim().max(2000, 'ERROR_MAX_LENGTH').optional());

/**
 * An optional number from 0 to `max`, typed with spaces and a decimal comma or sent as a number,
 * with as many decimals as `decimalsOk` allows.
 */
export const zTypedNumber = (max: number, decimalsOk: (n: number) => boolean) =>
  z.preprocess(
    (v) =>
      typeof v === 'string' && v.trim() !== '' ? Number(v.replace(/\s/g, '').replace(',', '.')) : emptyToUndefined(v),
    z
      .number({ error: 'ERROR_INVALID_NUMBER' })
      .min(0, 'ERROR_NEGATIVE_AMOUNT')
      .max(max, 'ERROR_INVALID_VALUE')
      .refine(decimalsOk, 'ERROR_INVALID_VALUE')
      .optional(),
  );

/** 400 VALIDATION_FAILED with one field's error. */
export const fieldError = (field: string, code: string) =>
  new AppError('VALIDATION_FAILED', 400, { fields: { [field]: [code] } });

export { zDate };

/**
 * startTime and endTime (dates, or moments whose date counts) of at most 60 days: 400 with
 * ERROR_TIME_SPAN_TOO_LONG on endTime beyond it, ERROR_END_BEFORE_START before it starts.
 */
export const parseSpan = parsePeriod;

/** The seven dates (Monday first) of ISO week `week` of `year`; 400 for a week the year lacks. */
export function weekDays(rawYear: unknown, rawWeek: unknown): { year: number; week: number; days: string[] } {
  const { year, week, dates } = weekDates(rawYear, rawWeek);
  return { year, week, days: dates };
}

type Between<R> = (ctx: Ctx, userId: string, from: string, to: string) => Promise<R[]>;

/** A person's rows over startTime…endTime (at most 60 days), once the asker may read them. */
export async function expensesInSpan<R>(
  ctx: Ctx,
  kind: ExpenseKind,
  raw: Record<string, unknown>,
  between: Between<R>,
): Promise<R[]> {
  const user = await requireExpenseReader(ctx, kind, raw.userId);
  const { from, to } = parseSpan(raw);
  return between(ctx, user.id, from, to);
}

/** A person's rows of an ISO week, once the asker may read them; with the week's days and whose they are. */
export async function expensesOfWeek<R>(
  ctx: Ctx,
  kind: ExpenseKind,
  raw: { year?: unknown; week?: unknown; userId?: unknown },
  between: Between<R>,
): Promise<{ year: number; week: number; days: string[]; userId: string; reports: R[] }> {
  const user = await requireExpenseReader(ctx, kind, raw.userId);
  const { year, week, days } = weekDays(raw.year, raw.week);
  return { year, week, days, userId: user.id, reports: await between(ctx, user.id, days[0]!, days[6]!) };
}
