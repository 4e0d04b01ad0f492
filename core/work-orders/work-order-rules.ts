/**
 * The pure rules of work orders (no database): required fields, assignees, what an edit
 * changed, and the closed list's default period. The service applies them; unit tests pin them.
 */
import { addDays, dateInZone, startOfIsoWeek } from '~/core/calendar/dates';
import type { RequiredField } from '~/core/work-orders/settings/settings.service';

/** Which input field carries each configurable required field (spec section 5). */
export const REQUIRED_FIELD_INPUT: Record<RequiredField, string> = {
  tag: 'tags',
  contact: 'contactName',
  email: 'contactEmail',
  phone: 'contactPhone',
  description: 'description',
  invoiceMarking: 'invoiceMarking',
  customerOrderNumber: 'customerOrderNumber',
  onSiteContact: 'onSiteContactName',
};

const isBlank = (v: unknown) =>
  v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/**
 * Field errors (ERROR_REQUIRED_FIELD) for the required fields that are empty. On a create every
 * required field is checked; on an edit only those the edit sends (an edit of the title alone
 * does not fail because a field made required later is still empty on an old order).
 */
export function requiredFieldErrors(
  required: readonly RequiredField[],
  input: Record<string, unknown>,
  mode: 'create' | 'edit',
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const field of required) {
    const key = REQUIRED_FIELD_INPUT[field];
    if (mode === 'edit' && !(key in input)) continue;
    if (isBlank(input[key])) errors[key] = ['ERROR_REQUIRED_FIELD'];
  }
  return errors;
}

/** Assignees: at least one (ERROR_AT_LEAST_ONE_ASSIGNEE), nobody twice (ERROR_USER_ALREADY_ADDED). */
export function assigneeError(ids: readonly string[]): string | null {
  if (ids.length === 0) return 'ERROR_AT_LEAST_ONE_ASSIGNEE';
  const seen = new Set<string>();
  for (const id of ids) {
    const key = id.toLowerCase();
    if (seen.has(key)) return 'ERROR_USER_ALREADY_ADDED';
    seen.add(key);
  }
  return null;
}

export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
}

const norm = (v: unknown): unknown => {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return [...v].map(norm).sort();
  return v === undefined ? null : v;
};

/** The fields whose value differs, with old and new values (dates as ISO text, lists unordered). */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  keys: readonly string[],
): FieldChange[] {
  const out: FieldChange[] = [];
  for (const key of keys) {
    if (!(key in after)) continue;
    const o = norm(before[key]);
    const n = norm(after[key]);
    if (JSON.stringify(o) !== JSON.stringify(n)) out.push({ field: key, old: o, new: n });
  }
  return out;
}

/**
 * The ISO week (Monday to Sunday) that `now` lies in, in the tenant's `timeZone`, as dates
 * `YYYY-MM-DD`: the closed list's default period (spec section 9).
 */
export function isoWeekOf(now: Date, timeZone: string): { from: string; to: string } {
  const monday = startOfIsoWeek(dateInZone(now, timeZone));
  return { from: monday, to: addDays(monday, 6) };
}
