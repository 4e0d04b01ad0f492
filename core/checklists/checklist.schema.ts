import { z } from 'zod';
import { AppError } from '~/core/errors/app-error';
import { UUID_PATTERN } from '~/core/errors/validation';
import { CHECKLIST_ITEM_TYPES, CHECKLIST_LIMITS, type ChecklistItem, type ChecklistValue } from './checklist.types';

export * from './checklist.types';

const zUuid = z.string({ error: 'ERROR_INVALID_VALUE' }).regex(UUID_PATTERN, 'ERROR_INVALID_VALUE');

export const ZChecklistItem = z.object({
  /** Kept from the saved template so filled values stay attached; left out for a new item. */
  id: zUuid.nullish().transform((v) => v ?? null),
  label: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(CHECKLIST_LIMITS.label, 'ERROR_MAX_LENGTH'),
  type: z.enum(CHECKLIST_ITEM_TYPES, { error: 'ERROR_INVALID_VALUE' }),
  required: z.boolean({ error: 'ERROR_INVALID_VALUE' }).default(false),
});

/** POST /instance/checklist (no id) and PUT /instance/checklist (with id). */
export const ZSaveChecklist = z.object({
  id: zUuid.optional(),
  title: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(2, 'ERROR_MIN_LENGTH_2')
    .max(CHECKLIST_LIMITS.title, 'ERROR_MAX_LENGTH'),
  workTypeIds: z
    .array(zUuid, { error: 'ERROR_REQUIRED_FIELD' })
    .min(1, 'ERROR_AT_LEAST_ONE_WORK_TYPE')
    .max(200, 'ERROR_INVALID_VALUE')
    .transform((ids) => [...new Set(ids)]),
  items: z
    .array(ZChecklistItem, { error: 'ERROR_REQUIRED_FIELD' })
    .min(1, 'ERROR_AT_LEAST_ONE_ITEM')
    .max(CHECKLIST_LIMITS.items, 'ERROR_MAX_LENGTH'),
});
export type TSaveChecklist = z.infer<typeof ZSaveChecklist>;

/** GET /wo/checklist?workType: the work type whose templates are asked for. */
export const ZChecklistsOfWorkType = z.object({ workType: zUuid });

/** PUT /wo/checklist: the values of one template on one order, keyed by item id. */
export const ZFillChecklist = z.object({
  workOrderId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  checklistId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  values: z.record(z.string(), z.unknown(), { error: 'ERROR_INVALID_VALUE' }).default({}),
});
export type TFillChecklist = z.infer<typeof ZFillChecklist>;

const isEmpty = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/**
 * One value checked against its item, or an error key. Empty is allowed for every item while
 * filling (a required item may be left for later) and means "no value"; a number item takes a
 * number or a numeric text ("3,5" with a decimal comma too); a check item a boolean ("true"/"false"
 * from a form too).
 */
export function parseItemValue(
  item: ChecklistItem,
  raw: unknown,
): { ok: true; value: ChecklistValue | null } | { ok: false; error: string } {
  if (isEmpty(raw)) return { ok: true, value: item.type === 'check' ? false : null };
  if (item.type === 'check') {
    if (typeof raw === 'boolean') return { ok: true, value: raw };
    if (raw === 'true' || raw === 'on') return { ok: true, value: true };
    if (raw === 'false') return { ok: true, value: false };
    return { ok: false, error: 'ERROR_INVALID_VALUE' };
  }
  if (item.type === 'number') {
    const n =
      typeof raw === 'number'
        ? raw
        : typeof raw === 'string' && /^\s*-?\d+([.,]\d+)?\s*$/.test(raw)
          ? Number(raw.trim().replace(',', '.'))
          : NaN;
    if (!Number.isFinite(n) || Math.abs(n) > 1e12) return { ok: false, error: 'ERROR_NOT_A_NUMBER' };
    return { ok: true, value: n };
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') return { ok: false, error: 'ERROR_INVALID_VALUE' };
  const text = String(raw).trim();
  if (text.length > CHECKLIST_LIMITS.text) return { ok: false, error: 'ERROR_MAX_LENGTH' };
  return { ok: true, value: text };
}

/**
 * The values to store for a template: every given key must name one of its items (unknown ids are
 * refused) and every value must suit its item. Empty values are dropped (a false tick is kept, so
 * "checked, then unchecked" reads as ✗). Throws 400 VALIDATION_FAILED with `values.<itemId>` keys.
 */
export function parseChecklistValues(items: ChecklistItem[], raw: Record<string, unknown>) {
  const byId = new Map(items.map((i) => [i.id, i]));
  const fields: Record<string, string[]> = {};
  const values: Record<string, ChecklistValue> = {};
  for (const [key, v] of Object.entries(raw)) {
    const item = byId.get(key);
    if (!item) {
      fields[`values.${key}`] = ['ERROR_UNKNOWN_CHECKLIST_ITEM'];
      continue;
    }
    const parsed = parseItemValue(item, v);
    if (!parsed.ok) fields[`values.${key}`] = [parsed.error];
    else if (parsed.value !== null) values[key] = parsed.value;
  }
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
  return values;
}
