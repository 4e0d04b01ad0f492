import { z } from 'zod';
import { AppError } from '~/core/errors/app-error';
import { EMAIL_PATTERN, UUID_PATTERN } from '~/core/errors/validation';
import {
  FIELD_KINDS,
  SERVICE_REPORT_LIMITS as L,
  YES_NO,
  type FieldValue,
  type PageValues,
  type ReportField,
  type ReportPage,
} from './service-report.types';

export * from './service-report.types';

const zUuid = z.string({ error: 'ERROR_INVALID_VALUE' }).regex(UUID_PATTERN, 'ERROR_INVALID_VALUE');
const zNumber = z.number({ error: 'ERROR_NOT_A_NUMBER' }).finite('ERROR_NOT_A_NUMBER');

/**
 * One field of a template. The rules of its kind: a heading takes no value so it is never required;
 * only numbers and measures carry a unit; a measure has at least one limit and min ≤ max; a choice
 * has 2–30 distinct options. Settings the kind does not use are dropped, not refused (a form sends
 * every input).
 */
export const ZReportField = z
  .object({
    /** Kept from the saved template so filled values stay attached; left out for a new field. */
    id: zUuid.nullish().transform((v) => v ?? null),
    kind: z.enum(FIELD_KINDS, { error: 'ERROR_INVALID_VALUE' }),
    label: z
      .string({ error: 'ERROR_REQUIRED_FIELD' })
      .trim()
      .min(1, 'ERROR_REQUIRED_FIELD')
      .max(L.label, 'ERROR_MAX_LENGTH'),
    required: z.boolean({ error: 'ERROR_INVALID_VALUE' }).default(false),
    unit: z
      .string({ error: 'ERROR_INVALID_VALUE' })
      .trim()
      .max(L.unit, 'ERROR_MAX_LENGTH')
      .nullish()
      .transform((v) => (v ? v : null)),
    min: zNumber.nullish().transform((v) => v ?? null),
    max: zNumber.nullish().transform((v) => v ?? null),
    options: z
      .array(
        z
          .string({ error: 'ERROR_INVALID_VALUE' })
          .trim()
          .min(1, 'ERROR_REQUIRED_FIELD')
          .max(L.option, 'ERROR_MAX_LENGTH'),
        {
          error: 'ERROR_INVALID_VALUE',
        },
      )
      .max(L.options, 'ERROR_MAX_LENGTH')
      .default([]),
  })
  .superRefine((f, ctx) => {
    if (f.kind === 'heading' && f.required)
      ctx.addIssue({ code: 'custom', path: ['required'], message: 'ERROR_HEADING_NOT_REQUIRED' });
    if (f.kind === 'measure') {
      if (f.min === null && f.max === null)
        ctx.addIssue({ code: 'custom', path: ['min'], message: 'ERROR_MEASURE_NEEDS_LIMIT' });
      if (f.min !== null && f.max !== null && f.min > f.max)
        ctx.addIssue({ code: 'custom', path: ['max'], message: 'ERROR_MIN_ABOVE_MAX' });
    }
    if (f.kind === 'choice') {
      if (f.options.length < 2)
        ctx.addIssue({ code: 'custom', path: ['options'], message: 'ERROR_AT_LEAST_TWO_OPTIONS' });
      const lower = f.options.map((o) => o.toLowerCase());
      if (new Set(lower).size !== lower.length)
        ctx.addIssue({ code: 'custom', path: ['options'], message: 'ERROR_DUPLICATE_OPTION' });
    }
  })
  .transform((f) => ({
    ...f,
    required: f.kind === 'heading' ? false : f.required,
    unit: f.kind === 'number' || f.kind === 'measure' ? f.unit : null,
    min: f.kind === 'measure' ? f.min : null,
    max: f.kind === 'measure' ? f.max : null,
    options: f.kind === 'choice' ? f.options : [],
  }));

export const ZReportPage = z.object({
  id: zUuid.nullish().transform((v) => v ?? null),
  title: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(L.title, 'ERROR_MAX_LENGTH'),
  fields: z
    .array(ZReportField, { error: 'ERROR_REQUIRED_FIELD' })
    .min(1, 'ERROR_AT_LEAST_ONE_FIELD')
    .max(L.fieldsPerPage, 'ERROR_MAX_LENGTH'),
});

/** POST /instance/servicereport (no id) and PUT /instance/servicereport (with id). */
export const ZSaveTemplate = z
  .object({
    id: zUuid.optional(),
    title: z
      .string({ error: 'ERROR_REQUIRED_FIELD' })
      .trim()
      .min(2, 'ERROR_MIN_LENGTH_2')
      .max(L.title, 'ERROR_MAX_LENGTH'),
    description: z.string({ error: 'ERROR_INVALID_VALUE' }).trim().max(L.description, 'ERROR_MAX_LENGTH').default(''),
    perDoor: z.boolean({ error: 'ERROR_INVALID_VALUE' }).default(false),
    onDemand: z.boolean({ error: 'ERROR_INVALID_VALUE' }).default(false),
    active: z.boolean({ error: 'ERROR_INVALID_VALUE' }).default(true),
    workTypeIds: z
      .array(zUuid, { error: 'ERROR_INVALID_VALUE' })
      .max(200, 'ERROR_INVALID_VALUE')
      .default([])
      .transform((ids) => [...new Set(ids)]),
    pages: z
      .array(ZReportPage, { error: 'ERROR_REQUIRED_FIELD' })
      .min(1, 'ERROR_AT_LEAST_ONE_PAGE')
      .max(L.pages, 'ERROR_MAX_LENGTH'),
  })
  .superRefine((t, ctx) => {
    // a template nobody can start is a mistake: tied to work types, or on demand
    if (!t.onDemand && t.workTypeIds.length === 0)
      ctx.addIssue({ code: 'custom', path: ['workTypeIds'], message: 'ERROR_AT_LEAST_ONE_WORK_TYPE' });
  });
export type TSaveTemplate = z.infer<typeof ZSaveTemplate>;

/** POST /instance/servicereport/delete {id, type}: delete, or (de)activate one that reports use. */
export const ZDeleteTemplate = z.object({
  id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  type: z.enum(['delete', 'deactivate', 'activate'], { error: 'ERROR_INVALID_VALUE' }).default('delete'),
});

/** GET /wo/servicereport?workType */
export const ZTemplatesOfWorkType = z.object({ workType: zUuid });

const zEmailTargets = z
  .array(
    z
      .string({ error: 'ERROR_INVALID_EMAIL' })
      .trim()
      .max(254, 'ERROR_MAX_LENGTH')
      .regex(EMAIL_PATTERN, 'ERROR_INVALID_EMAIL'),
    { error: 'ERROR_INVALID_VALUE' },
  )
  .max(L.emailTargets, 'ERROR_MAX_LENGTH')
  .transform((a) => [...new Set(a.map((e) => e.toLowerCase()))]);

/**
 * PUT /wo/servicereport (save a page) and POST /wo/servicereport (save, sign and close):
 * {workOrderId, serviceReportId (the template), page (its id or index), data (the page's values),
 * doorautomaticId (per-door templates), emailTargets, signature: {name, image}}.
 */
export const ZFillReport = z.object({
  workOrderId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  serviceReportId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  page: z.union([z.string(), z.number().int()], { error: 'ERROR_INVALID_VALUE' }).nullish(),
  data: z.record(z.string(), z.unknown(), { error: 'ERROR_INVALID_VALUE' }).nullish(),
  doorautomaticId: z.string({ error: 'ERROR_INVALID_VALUE' }).nullish(),
  emailTargets: zEmailTargets.nullish(),
  signature: z
    .object({
      name: z
        .string({ error: 'ERROR_REQUIRED_FIELD' })
        .trim()
        .min(1, 'ERROR_REQUIRED_FIELD')
        .max(L.signedName, 'ERROR_MAX_LENGTH'),
      image: z
        .string({ error: 'ERROR_INVALID_VALUE' })
        .max(L.signature, 'ERROR_SIGNATURE_TOO_LARGE')
        .regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/, 'ERROR_INVALID_VALUE')
        .nullish()
        .transform((v) => v ?? null),
    })
    .nullish(),
});
export type TFillReport = z.infer<typeof ZFillReport>;

/** POST /wo/servicereport/reopen */
export const ZReopenReport = z.object({
  workOrderId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  serviceReportId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  doorautomaticId: z.string({ error: 'ERROR_INVALID_VALUE' }).nullish(),
});

const isEmpty = (v: unknown) =>
  v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

const toNumber = (raw: unknown) =>
  typeof raw === 'number'
    ? raw
    : typeof raw === 'string' && /^\s*-?\d+([.,]\d+)?\s*$/.test(raw)
      ? Number(raw.trim().replace(',', '.'))
      : NaN;

function validDate(s: string) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

type Parsed = { ok: true; value: FieldValue | null } | { ok: false; error: string };

/**
 * One value checked against its field's kind, or an error key. Empty means "no value" (a required
 * field may stay empty while filling; signing checks it). A measure outside its limits is kept:
 * it is flagged (isFlagged), never refused, since the technician records what was measured.
 */
export function parseFieldValue(field: ReportField, raw: unknown): Parsed {
  if (field.kind === 'heading')
    return isEmpty(raw) ? { ok: true, value: null } : { ok: false, error: 'ERROR_INVALID_VALUE' };
  if (isEmpty(raw)) return { ok: true, value: null };
  switch (field.kind) {
    case 'text':
    case 'longtext': {
      if (typeof raw !== 'string' && typeof raw !== 'number') return { ok: false, error: 'ERROR_INVALID_VALUE' };
      const text = String(raw).trim();
      if (text.length > (field.kind === 'text' ? L.text : L.longtext)) return { ok: false, error: 'ERROR_MAX_LENGTH' };
      return { ok: true, value: text };
    }
    case 'number':
    case 'measure': {
      const n = toNumber(raw);
      if (!Number.isFinite(n) || Math.abs(n) > 1e12) return { ok: false, error: 'ERROR_NOT_A_NUMBER' };
      return { ok: true, value: n };
    }
    case 'yesno':
      return typeof raw === 'string' && (YES_NO as readonly string[]).includes(raw)
        ? { ok: true, value: raw }
        : { ok: false, error: 'ERROR_INVALID_VALUE' };
    case 'choice':
      return typeof raw === 'string' && field.options.includes(raw)
        ? { ok: true, value: raw }
        : { ok: false, error: 'ERROR_INVALID_VALUE' };
    case 'date':
      return typeof raw === 'string' && validDate(raw.trim())
        ? { ok: true, value: raw.trim() }
        : { ok: false, error: 'ERROR_INVALID_DATE' };
    case 'photo': {
      const ids = Array.isArray(raw) ? raw : [raw];
      if (!ids.every((id) => typeof id === 'string' && UUID_PATTERN.test(id)))
        return { ok: false, error: 'ERROR_INVALID_VALUE' };
      const unique = [...new Set(ids as string[])];
      if (unique.length > L.photos) return { ok: false, error: 'ERROR_MAX_LENGTH' };
      return { ok: true, value: unique };
    }
    case 'signature': {
      const sig = ZFillReport.shape.signature.unwrap().unwrap().safeParse(raw);
      if (!sig.success) return { ok: false, error: sig.error.issues[0]?.message ?? 'ERROR_INVALID_VALUE' };
      return { ok: true, value: sig.data };
    }
  }
}

/**
 * The values of one page to store: every key must name one of its fields and every value suit
 * its kind. Empty values are dropped. Throws 400 VALIDATION_FAILED with `data.<fieldId>` keys.
 */
export function parsePageValues(page: ReportPage, raw: Record<string, unknown>): PageValues {
  const byId = new Map(page.fields.map((f) => [f.id, f]));
  const fields: Record<string, string[]> = {};
  const values: PageValues = {};
  for (const [key, v] of Object.entries(raw)) {
    const field = byId.get(key);
    if (!field) {
      fields[`data.${key}`] = ['ERROR_UNKNOWN_REPORT_FIELD'];
      continue;
    }
    const parsed = parseFieldValue(field, v);
    if (!parsed.ok) fields[`data.${key}`] = [parsed.error];
    else if (parsed.value !== null) values[key] = parsed.value;
  }
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
  return values;
}

/**
 * The required fields left empty, as `pages.<pageId>.<fieldId>` keys: a report is signed only
 * when none is (yes/no counts "not applicable" as an answer).
 */
export function missingRequired(pages: ReportPage[], data: Record<string, PageValues>): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const page of pages)
    for (const f of page.fields)
      if (f.required && isEmpty(data[page.id]?.[f.id])) fields[`pages.${page.id}.${f.id}`] = ['ERROR_REQUIRED_FIELD'];
  return fields;
}
