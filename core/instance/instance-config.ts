import { z } from 'zod';

/** Spec section 1: instance language keys as stored; `ru` is selectable in the UI too. */
export const LANGUAGE_KEYS = ['se', 'en', 'ee', 'lv', 'ru'] as const;
export const COUNTRIES = ['SE', 'EE', 'AU'] as const;
/** Spec section 9: the three date formats, chosen per tenant. */
export const DATE_FORMATS = ['YYYY-MM-DD', 'DD.MM.YYYY', 'MM/DD/YYYY'] as const;

export const ZInstanceConfig = z.object({
  country: z.enum(COUNTRIES),
  languageKey: z.enum(LANGUAGE_KEYS),
  dateFormat: z.enum(DATE_FORMATS),
  currency: z.object({ symbol: z.string().min(1).max(5) }),
  logoUrl: z.string().url().max(2000).nullable(),
});
export type TInstanceConfig = z.infer<typeof ZInstanceConfig>;

const BY_COUNTRY: Record<(typeof COUNTRIES)[number], Omit<TInstanceConfig, 'country' | 'logoUrl'>> = {
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
