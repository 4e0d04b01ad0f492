/** The service-report vocabulary, without zod, so pages can import it (issue 32). */

/**
 * What a field asks for: a heading (no value), a short or long text, a number with a unit, a
 * yes/no/not-applicable answer, one of a list of choices, a date, a measured value with limits
 * (a value outside them is flagged, not refused), photos, or a signature.
 */
export const FIELD_KINDS = [
  'heading',
  'text',
  'longtext',
  'number',
  'yesno',
  'choice',
  'date',
  'measure',
  'photo',
  'signature',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** Answers of a yes/no field; `na` is "not applicable". */
export const YES_NO = ['yes', 'no', 'na'] as const;
export type YesNo = (typeof YES_NO)[number];

/** Bounds that keep one template and one filled report small. */
export const SERVICE_REPORT_LIMITS = {
  title: 100,
  description: 2000,
  pages: 20,
  fieldsPerPage: 60,
  label: 200,
  unit: 20,
  options: 30,
  option: 100,
  text: 500,
  longtext: 5000,
  photos: 12,
  signedName: 200,
  /** A PNG data URL from the pad, about 300 KB. */
  signature: 400_000,
  emailTargets: 10,
} as const;

export interface ReportField {
  id: string;
  kind: FieldKind;
  label: string;
  required: boolean;
  /** number and measure only */
  unit: string | null;
  /** measure only: a value below min or above max is out of range */
  min: number | null;
  max: number | null;
  /** choice only */
  options: string[];
}

export interface ReportPage {
  id: string;
  title: string;
  fields: ReportField[];
}

/** A template as the settings and the API answer it. */
export interface ServiceReportTemplate {
  id: string;
  title: string;
  description: string;
  perDoor: boolean;
  onDemand: boolean;
  active: boolean;
  builtIn: string | null;
  workTypeIds: string[];
  pages: ReportPage[];
  updatedAt: string;
}

/** A drawn signature with the signer's printed name. */
export interface SignatureValue {
  name: string;
  /** a PNG data URL; absent when the name alone is typed */
  image: string | null;
}

/**
 * A filled value: text (text, long text, choice, yes/no, date as YYYY-MM-DD), a number (number,
 * measure), file ids (photo) or a signature.
 */
export type FieldValue = string | number | string[] | SignatureValue;

/** Values of one page, by field id. */
export type PageValues = Record<string, FieldValue>;
/** Values of a report, by page id. */
export type ReportData = Record<string, PageValues>;

/** A value that is worth a deviation: a measure out of its limits, or a yes/no answered "no". */
export function isFlagged(field: ReportField, value: FieldValue | undefined): boolean {
  if (value === undefined) return false;
  if (field.kind === 'yesno') return value === 'no';
  if (field.kind === 'measure' && typeof value === 'number') {
    return (field.min !== null && value < field.min) || (field.max !== null && value > field.max);
  }
  return false;
}
