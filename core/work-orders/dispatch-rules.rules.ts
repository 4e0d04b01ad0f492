import { z } from 'zod';
import { isoDayOfWeek, parsePlainDate } from '~/core/calendar/dates';
import { AppError } from '~/core/errors/app-error';
import { UUID_PATTERN, validationError } from '~/core/errors/validation';

/**
 * Dispatch rules as pure functions (spec section 3 "day, start time, end time, dispatch to";
 * section 5 "time-range sets"). No database: the service applies them, unit tests pin them.
 *
 * A rule is a window on the week: it starts on ISO weekday `day` (1 Monday … 7 Sunday) at
 * `startTime` and lasts until `endTime`; an end before the start runs past midnight into the next
 * day (Sunday's runs into Monday). Decisions (docs/decisions/016-dispatch-rules-and-qr-visits.md):
 * - The whole set is one set, whoever the rules dispatch to: two overlapping windows would make
 *   "who gets this order" ambiguous, so they are refused even for different people.
 * - Section 5's test is applied on the week: a window wrapping past midnight is checked against
 *   the next day's windows too (Monday 22:00–02:00 and Tuesday 01:00–05:00 overlap).
 * - Two identical windows are refused as well, though neither endpoint lies *strictly* inside the
 *   other: the literal test would let them through and the match would be ambiguous.
 * - Windows that only touch (08:00–12:00 and 12:00–17:00) are fine: start inclusive, end exclusive.
 */

export const DAY_MINUTES = 24 * 60;
export const WEEK_MINUTES = 7 * DAY_MINUTES;
export const ISO_WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
/** Spec: at most as many rows as any settings list. */
export const MAX_DISPATCH_RULES = 200;

/** 24-hour "HH:MM" (the database's "HH:MM:SS" is read with `toHHMM`). */
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export const ZDispatchRule = z.object({
  day: z.coerce
    .number({ error: 'ERROR_REQUIRED_FIELD' })
    .int('ERROR_INVALID_VALUE')
    .min(1, 'ERROR_INVALID_VALUE')
    .max(7, 'ERROR_INVALID_VALUE'),
  startTime: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().regex(TIME_PATTERN, 'ERROR_INVALID_TIME'),
  endTime: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().regex(TIME_PATTERN, 'ERROR_INVALID_TIME'),
  userId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).regex(UUID_PATTERN, 'ERROR_REQUIRED_FIELD'),
});
export type TDispatchRule = z.infer<typeof ZDispatchRule>;

/** PUT /instance/wo/dispatchrule: the whole set, in order. */
export const ZDispatchRuleSet = z
  .object({
    dispatchRules: z.array(ZDispatchRule, { error: 'ERROR_INVALID_VALUE' }).max(MAX_DISPATCH_RULES, 'ERROR_MAX_LENGTH'),
  })
  .strict();

/** A window on the week: its first minute and its length in minutes. */
export interface Window {
  start: number;
  length: number;
}

/** "HH:MM" or "HH:MM:SS" as minutes after midnight; null when it is neither. */
export function timeToMinutes(value: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)(?::[0-5]\d(?:\.\d+)?)?$/.exec(value.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** The database's "08:00:00" as the form's "08:00". */
export const toHHMM = (value: string): string => value.slice(0, 5);

const mod = (n: number, m: number) => ((n % m) + m) % m;

/**
 * A rule's window on the week; null when its times cannot be read or start equals end (an
 * empty range). An end before the start wraps into the next day.
 */
export function ruleWindow(rule: { day: number; startTime: string; endTime: string }): Window | null {
  const s = timeToMinutes(rule.startTime);
  const e = timeToMinutes(rule.endTime);
  if (s === null || e === null || s === e || !Number.isInteger(rule.day) || rule.day < 1 || rule.day > 7) return null;
  return { start: (rule.day - 1) * DAY_MINUTES + s, length: e > s ? e - s : e + DAY_MINUTES - s };
}

/** Whether minute-of-week `point` lies strictly inside `w` (not on its start or end). */
function strictlyInside(point: number, w: Window): boolean {
  const d = mod(point - w.start, WEEK_MINUTES);
  return d > 0 && d < w.length;
}

/** Section 5 on two windows: a start or end of one strictly inside the other, or the same window. */
export function windowsOverlap(a: Window, b: Window): boolean {
  if (a.start === b.start && a.length === b.length) return true;
  const aEnd = mod(a.start + a.length, WEEK_MINUTES);
  const bEnd = mod(b.start + b.length, WEEK_MINUTES);
  return strictlyInside(a.start, b) || strictlyInside(aEnd, b) || strictlyInside(b.start, a) || strictlyInside(bEnd, a);
}

export interface DispatchRuleErrors {
  /** Field errors keyed `dispatchRules.<row>.<field>` (rows from 0), as every settings form reads them. */
  fields: Record<string, string[]>;
  /** For each overlapping row, the other rows (from 0) it overlaps, so the message can name them. */
  overlaps: Record<string, number[]>;
}

/**
 * The rules across rows of section 5: an empty range (start = end) is DISPATCH_RULE_EMPTY_RANGE on
 * its end time; each row overlapping another is DISPATCH_RULES_OVERLAP on its start time, with the
 * rows it overlaps in `overlaps`. Rows whose own shape is wrong are skipped here.
 */
export function dispatchRuleErrors(rules: { day: number; startTime: string; endTime: string }[]): DispatchRuleErrors {
  const fields: Record<string, string[]> = {};
  const overlaps: Record<string, number[]> = {};
  const windows = rules.map((r, i) => {
    const s = timeToMinutes(r.startTime);
    if (s !== null && s === timeToMinutes(r.endTime))
      fields[`dispatchRules.${i}.endTime`] = ['DISPATCH_RULE_EMPTY_RANGE'];
    return ruleWindow(r);
  });
  windows.forEach((a, i) => {
    if (!a) return;
    windows.forEach((b, j) => {
      if (i === j || !b || !windowsOverlap(a, b)) return;
      (overlaps[String(i)] ??= []).push(j);
    });
  });
  for (const i of Object.keys(overlaps)) fields[`dispatchRules.${i}.startTime`] = ['DISPATCH_RULES_OVERLAP'];
  return { fields, overlaps };
}

/**
 * Parses a PUT body and applies every rule; one 400 VALIDATION_FAILED with every field error at
 * once (and `overlaps`), so the form can mark each row.
 */
export function parseDispatchRuleSet(raw: unknown): TDispatchRule[] {
  const parsed = ZDispatchRuleSet.safeParse(raw ?? {});
  const fields: Record<string, string[]> = parsed.success ? {} : { ...validationError(parsed.error).details?.fields };
  const input = (raw ?? {}) as { dispatchRules?: unknown };
  const loose = Array.isArray(input.dispatchRules)
    ? input.dispatchRules.map((r: unknown) => {
        const o = (r && typeof r === 'object' ? r : {}) as Record<string, unknown>;
        return {
          day: Number(o.day),
          startTime: typeof o.startTime === 'string' ? o.startTime : '',
          endTime: typeof o.endTime === 'string' ? o.endTime : '',
        };
      })
    : [];
  const across = dispatchRuleErrors(loose);
  for (const [key, codes] of Object.entries(across.fields)) {
    const list = (fields[key] ??= []);
    for (const c of codes) if (!list.includes(c)) list.push(c);
  }
  if (!parsed.success || Object.keys(fields).length)
    throw new AppError('VALIDATION_FAILED', 400, { fields, overlaps: across.overlaps });
  return parsed.data.dispatchRules;
}

/** The ISO weekday (1 Monday … 7 Sunday) and minute of a wall-clock "YYYY-MM-DDTHH:MM". */
function weekMinute(localDateTime: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(localDateTime);
  if (!m) return null;
  const day = parsePlainDate(`${m[1]}-${m[2]}-${m[3]}`);
  if (!day) return null;
  const weekday = isoDayOfWeek(day);
  return (weekday - 1) * DAY_MINUTES + Number(m[4]) * 60 + Number(m[5]);
}

/**
 * The rule whose window holds the wall-clock moment `localDateTime` ("2026-03-05T08:30", in the
 * tenant's time zone): start inclusive, end exclusive; the part after midnight of a wrapping
 * window belongs to the rule of the day it started. With a valid set at most one matches; the
 * first in order wins otherwise. Null when none does.
 */
export function matchDispatchRule<R extends { day: number; startTime: string; endTime: string }>(
  rules: readonly R[],
  localDateTime: string,
): R | null {
  const minute = weekMinute(localDateTime);
  if (minute === null) return null;
  for (const rule of rules) {
    const w = ruleWindow(rule);
    if (w && mod(minute - w.start, WEEK_MINUTES) < w.length) return rule;
  }
  return null;
}
