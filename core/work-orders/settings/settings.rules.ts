import { z } from 'zod';
import { AppError } from '~/core/errors/app-error';
import { UUID_PATTERN, validationError } from '~/core/errors/validation';
import { REQUIRED_FIELDS, WORK_ORDER_MODES } from './settings.types';

/**
 * The work-order settings rules of spec section 5, as pure functions: the shape of each list
 * (zod) and the rules across rows (exactly one default, at least one closing status, unique
 * names). Errors carry field keys like `statuses.2.name`, so the form shows them on that row.
 */

/** Spec section 5: a tag has at least 2 characters, letters and digits only (any alphabet). */
export const TAG_NAME_PATTERN = /^[\p{L}\p{N}]+$/u;
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
/** A prefix goes in front of the number: letters, digits and - / _ . */
export const NUMBER_PREFIX_PATTERN = /^[\p{L}\p{N}\-/_.]*$/u;

const zId = z
  .string()
  .regex(UUID_PATTERN, 'ERROR_INVALID_VALUE')
  .nullish()
  .transform((v) => v ?? null);
const zFlag = z.boolean({ error: 'ERROR_INVALID_VALUE' }).default(false);

export const ZStatusRow = z.object({
  id: zId,
  name: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(2, 'ERROR_MIN_LENGTH_2').max(50, 'ERROR_MAX_LENGTH'),
  isDefault: zFlag,
  isClosing: zFlag,
});
export const ZWorkTypeRow = z.object({
  id: zId,
  name: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(2, 'ERROR_LENGTH_2_50').max(50, 'ERROR_LENGTH_2_50'),
  isDefault: zFlag,
});
export const ZTagRow = z.object({
  id: zId,
  name: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(2, 'ERROR_TAG_INVALID')
    .max(50, 'ERROR_MAX_LENGTH')
    .regex(TAG_NAME_PATTERN, 'ERROR_TAG_INVALID'),
  color: z
    .string({ error: 'ERROR_INVALID_COLOR' })
    .trim()
    .regex(COLOR_PATTERN, 'ERROR_INVALID_COLOR')
    .transform((v) => v.toLowerCase()),
});

const zList = <T extends z.ZodType>(row: T) =>
  z.array(row, { error: 'ERROR_INVALID_VALUE' }).max(200, 'ERROR_MAX_LENGTH');

/** PATCH /instance/wo: any of the sections; a list given replaces the whole set. */
export const ZWorkOrderSettingsPatch = z
  .object({
    statuses: zList(ZStatusRow).optional(),
    workTypes: zList(ZWorkTypeRow).optional(),
    tags: zList(ZTagRow).optional(),
    requiredFields: z
      .array(z.enum(REQUIRED_FIELDS, { error: 'ERROR_INVALID_VALUE' }), { error: 'ERROR_INVALID_VALUE' })
      .transform((v) => REQUIRED_FIELDS.filter((f) => v.includes(f)))
      .optional(),
    mode: z.enum(WORK_ORDER_MODES, { error: 'ERROR_INVALID_VALUE' }).optional(),
    numberPrefix: z
      .string({ error: 'ERROR_INVALID_VALUE' })
      .trim()
      .max(10, 'ERROR_MAX_LENGTH')
      .regex(NUMBER_PREFIX_PATTERN, 'ERROR_INVALID_VALUE')
      .optional(),
    nextNumber: z.coerce
      .number({ error: 'ERROR_INVALID_VALUE' })
      .int('ERROR_INVALID_VALUE')
      .min(1, 'ERROR_INVALID_VALUE')
      .max(Number.MAX_SAFE_INTEGER, 'ERROR_INVALID_VALUE')
      .optional(),
    /** Day 1–31 of the next month on which time reports lock (past a month's end: its last day); empty or null: never by date. */
    timeLockDay: z
      .preprocess(
        (v) => (v === '' ? null : v),
        z.coerce
          .number({ error: 'ERROR_INVALID_VALUE' })
          .int('ERROR_INVALID_VALUE')
          .min(1, 'ERROR_INVALID_VALUE')
          .max(31, 'ERROR_INVALID_VALUE')
          .nullable(),
      )
      .optional(),
  })
  .strict();
export type WorkOrderSettingsPatch = z.infer<typeof ZWorkOrderSettingsPatch>;
export type StatusInput = z.infer<typeof ZStatusRow>;
export type WorkTypeInput = z.infer<typeof ZWorkTypeRow>;
export type TagInput = z.infer<typeof ZTagRow>;

type Fields = Record<string, string[]>;
const add = (fields: Fields, key: string, code: string) => {
  const list = (fields[key] ??= []);
  if (!list.includes(code)) list.push(code);
};

/** Names must be unique regardless of case: the second and later of equal names are marked. */
function uniqueNames(fields: Fields, section: string, rows: { name: string }[]) {
  const seen = new Set<string>();
  rows.forEach((r, i) => {
    const key = r.name.toLocaleLowerCase();
    if (!key) return;
    if (seen.has(key)) add(fields, `${section}.${i}.name`, 'ERROR_DUPLICATE_NAME');
    seen.add(key);
  });
}

/** A row's id may appear once: two rows cannot both keep the same status. */
function uniqueIds(fields: Fields, section: string, rows: { id: string | null }[]) {
  const seen = new Set<string>();
  rows.forEach((r, i) => {
    if (!r.id) return;
    if (seen.has(r.id)) add(fields, `${section}.${i}.id`, 'ERROR_INVALID_VALUE');
    seen.add(r.id);
  });
}

/** Exactly one default: none marks the list, more than one marks every default row. */
function exactlyOneDefault(fields: Fields, section: string, rows: { isDefault: boolean }[]) {
  const defaults = rows.flatMap((r, i) => (r.isDefault ? [i] : []));
  if (defaults.length === 0) add(fields, section, 'ERROR_EXACTLY_ONE_DEFAULT');
  if (defaults.length > 1)
    for (const i of defaults) add(fields, `${section}.${i}.isDefault`, 'ERROR_EXACTLY_ONE_DEFAULT');
}

type RuleRow = { id: string | null; name: string; isDefault: boolean; isClosing?: boolean };

export function statusRuleErrors(rows: RuleRow[]): Fields {
  const fields: Fields = {};
  uniqueIds(fields, 'statuses', rows);
  uniqueNames(fields, 'statuses', rows);
  exactlyOneDefault(fields, 'statuses', rows);
  if (!rows.some((r) => r.isClosing)) add(fields, 'statuses', 'ERROR_AT_LEAST_ONE_CLOSING');
  rows.forEach((r, i) => {
    if (r.isDefault && r.isClosing) add(fields, `statuses.${i}.isClosing`, 'ERROR_CLOSING_AND_DEFAULT_DIFFER');
  });
  return fields;
}

export function workTypeRuleErrors(rows: RuleRow[]): Fields {
  const fields: Fields = {};
  uniqueIds(fields, 'workTypes', rows);
  uniqueNames(fields, 'workTypes', rows);
  exactlyOneDefault(fields, 'workTypes', rows);
  return fields;
}

export function tagRuleErrors(rows: { id: string | null; name: string }[]): Fields {
  const fields: Fields = {};
  uniqueIds(fields, 'tags', rows);
  uniqueNames(fields, 'tags', rows);
  return fields;
}

/** Rows as the cross-row rules read them, from input that may not have passed the shape checks. */
function looseRows(raw: unknown) {
  if (!Array.isArray(raw)) return null;
  return raw.map((r: unknown) => {
    const o = (r && typeof r === 'object' ? r : {}) as Record<string, unknown>;
    return {
      id: typeof o.id === 'string' && o.id ? o.id : null,
      name: typeof o.name === 'string' ? o.name.trim() : '',
      isDefault: o.isDefault === true,
      isClosing: o.isClosing === true,
    };
  });
}

/**
 * Parses a PATCH body and applies every rule; throws one 400 VALIDATION_FAILED with every field
 * error at once (a row's own errors and the rules across rows), so the form can mark them all.
 */
export function parseSettingsPatch(raw: unknown): WorkOrderSettingsPatch {
  const input = (raw ?? {}) as Record<string, unknown>;
  const parsed = ZWorkOrderSettingsPatch.safeParse(input);
  const fields: Fields = parsed.success ? {} : { ...validationError(parsed.error).details?.fields };
  const merge = (more: Fields) => {
    for (const [key, codes] of Object.entries(more)) for (const code of codes) add(fields, key, code);
  };
  const statuses = looseRows(input.statuses);
  const workTypes = looseRows(input.workTypes);
  const tags = looseRows(input.tags);
  if (statuses) merge(statusRuleErrors(statuses));
  if (workTypes) merge(workTypeRuleErrors(workTypes));
  if (tags) merge(tagRuleErrors(tags));
  if (!parsed.success || Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
  return parsed.data;
}
