/** UI languages: sv is the default; spec keys map se→sv, ee→et. */
export const LANGS = ['sv', 'en', 'et', 'lv', 'ru'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'sv';

export function isLang(v: unknown): v is Lang {
  return typeof v === 'string' && (LANGS as readonly string[]).includes(v);
}

/** Spec key (se, en, ee, lv, ru) or UI code → UI language; unknown falls back. */
export function langFromKey(key: string | null | undefined, fallback: Lang = DEFAULT_LANG): Lang {
  switch (key) {
    case 'se':
    case 'sv':
      return 'sv';
    case 'ee':
    case 'et':
      return 'et';
    case 'en':
    case 'lv':
    case 'ru':
      return key;
    default:
      return fallback;
  }
}

/** UI language → spec key as stored on users and instances. */
export function keyFromLang(lang: Lang): string {
  return lang === 'sv' ? 'se' : lang === 'et' ? 'ee' : lang;
}

/** Spec: se→sv, ee→et, every other language formats as en-gb. */
export function formattingLocale(lang: Lang): string {
  return lang === 'sv' ? 'sv-SE' : lang === 'et' ? 'et-EE' : 'en-GB';
}
