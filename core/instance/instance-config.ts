import { z } from 'zod';

/** Spec section 1: instance language keys as stored; `ru` is selectable in the UI too. */
export const LANGUAGE_KEYS = ['se', 'en', 'ee', 'lv', 'ru'] as const;
export const COUNTRIES = ['SE', 'EE', 'AU'] as const;
/** Spec section 9: the three date formats, chosen per tenant. */
export const DATE_FORMATS = ['YYYY-MM-DD', 'DD.MM.YYYY', 'MM/DD/YYYY'] as const;

/**
 * The company details documents print (spec section 3, the invoice's instance part: companyName,
 * companyNr, address, email, bgAccount, vatRegistrationNr, plus post index, city and phone). Every
 * field is optional; a missing company name prints the tenant's display name.
 */
export const COMPANY_FIELDS = [
  'companyName',
  'companyNr',
  'address',
  'postIndex',
  'city',
  'email',
  'phone',
  'vatRegistrationNr',
  'bgAccount',
] as const;
export type CompanyField = (typeof COMPANY_FIELDS)[number];
export type TCompanyDetails = Record<CompanyField, string | null>;

const companyText = z.string().max(200).nullable().default(null);
export const ZCompanyDetails = z.object(
  Object.fromEntries(COMPANY_FIELDS.map((f) => [f, companyText])) as Record<CompanyField, typeof companyText>,
);
export const emptyCompanyDetails = (): TCompanyDetails =>
  Object.fromEntries(COMPANY_FIELDS.map((f) => [f, null])) as TCompanyDetails;

/**
 * What the instance calls its objects (spec section 1: "interface wording varies per object kind
 * (machine, elevator, security facility, gates)"); `object` is the generic wording.
 */
export const OBJECT_KINDS = ['object', 'machine', 'elevator', 'security', 'gate'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];
/** Object ids are proposed with at least this many digits (spec section 5: a positive length). */
export const MAX_OBJECT_ID_LENGTH = 12;

/** The object settings of the instance (PATCH /instance/bo, settings → object). */
export const ZObjectSettings = z.object({
  kind: z.enum(OBJECT_KINDS),
  minIdLength: z.number().int().min(1).max(MAX_OBJECT_ID_LENGTH),
});
export type TObjectSettings = z.infer<typeof ZObjectSettings>;
export const defaultObjectSettings = (): TObjectSettings => ({ kind: 'object', minIdLength: 5 });

/**
 * Per-tenant limits of the file store (issue 12), set by the operator: the largest file an upload
 * may hold and the bytes the tenant may store in all.
 */
export const ZFileLimits = z.object({
  maxUploadMb: z.number().int().min(1).max(4096),
  quotaMb: z.number().int().min(1),
});
export type TFileLimits = z.infer<typeof ZFileLimits>;
export const defaultFileLimits = (): TFileLimits => ({ maxUploadMb: 50, quotaMb: 10_240 });

export const ZInstanceConfig = z.object({
  country: z.enum(COUNTRIES),
  languageKey: z.enum(LANGUAGE_KEYS),
  dateFormat: z.enum(DATE_FORMATS),
  currency: z.object({ symbol: z.string().min(1).max(5) }),
  logoUrl: z.string().url().max(2000).nullable(),
  company: ZCompanyDetails.default(emptyCompanyDetails),
  objects: ZObjectSettings.default(defaultObjectSettings),
  files: ZFileLimits.default(defaultFileLimits),
});
export type TInstanceConfig = z.infer<typeof ZInstanceConfig>;

const BY_COUNTRY: Record<
  (typeof COUNTRIES)[number],
  Omit<TInstanceConfig, 'country' | 'logoUrl' | 'company' | 'objects' | 'files'>
> = {
  SE: { languageKey: 'se', dateFormat: 'YYYY-MM-DD', currency: { symbol: 'kr' } },
  EE: { languageKey: 'ee', dateFormat: 'DD.MM.YYYY', currency: { symbol: '€' } },
  AU: { languageKey: 'en', dateFormat: 'DD.MM.YYYY', currency: { symbol: '$' } },
};

/** The configuration a new tenant starts with: the country's customs, overridden where given. */
export function defaultInstanceConfig(
  country: (typeof COUNTRIES)[number] = 'SE',
  overrides: Partial<TInstanceConfig> = {},
): TInstanceConfig {
  return ZInstanceConfig.parse({ country, logoUrl: null, ...BY_COUNTRY[country], ...overrides });
}

/** Reads a stored configuration, filling what an older row lacks. */
export function readInstanceConfig(stored: unknown): TInstanceConfig {
  const partial = ZInstanceConfig.partial().safeParse(stored);
  const value = partial.success ? partial.data : {};
  return defaultInstanceConfig(value.country ?? 'SE', value);
}
