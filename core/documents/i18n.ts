import i18next, { type TFunction } from 'i18next';
import { resources } from '~/core/i18n/locales';
import { DEFAULT_LANG, LANGS, type Lang } from '~/core/i18n/languages';

/** Translates a document text: `t('field.title')`, `t('doc.printed', { date })`. */
export type DocumentT = (key: string, vars?: Record<string, unknown>) => string;

/** A namespace of the app's words a document may print (labels of forms it prints, e.g. `objects`). */
export type DocumentNamespace = keyof (typeof resources)['en'];

const translators = new Map<string, DocumentT>();

/**
 * The document words of one language (`core/i18n/locales/<lang>/documents.json`, or another namespace
 * when a document prints labels the app already has, such as the security forms' in `objects`),
 * through i18next with the app's options (flat keys, the default language as fallback). HTML
 * escaping is the template's job (handlebars escapes what a helper returns), so i18next does not
 * escape.
 */
export function documentTranslator(lang: Lang, ns: DocumentNamespace = 'documents'): DocumentT {
  const cacheKey = `${lang}:${ns}`;
  let t = translators.get(cacheKey);
  if (!t) {
    const instance = i18next.createInstance();
    void instance.init({
      lng: lang,
      supportedLngs: [...LANGS],
      fallbackLng: DEFAULT_LANG,
      resources: Object.fromEntries(LANGS.map((l) => [l, { [ns]: resources[l][ns] }])),
      ns: [ns],
      defaultNS: ns,
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    });
    const fixed: TFunction = instance.getFixedT(lang, ns);
    t = (key, vars) => String(fixed(key, vars ?? {}));
    translators.set(cacheKey, t);
  }
  return t;
}
