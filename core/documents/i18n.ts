import i18next, { type TFunction } from 'i18next';
import { resources } from '~/app/locales';
import { DEFAULT_LANG, LANGS, type Lang } from '~/core/i18n/languages';

/** Translates a document text: `t('field.title')`, `t('doc.printed', { date })`. */
export type DocumentT = (key: string, vars?: Record<string, unknown>) => string;

const translators = new Map<Lang, DocumentT>();

/**
 * The document words of one language (`app/locales/<lang>/documents.json`), through i18next with
 * the app's options (flat keys, the default language as fallback). HTML escaping is the template's
 * job (handlebars escapes what a helper returns), so i18next does not escape.
 */
export function documentTranslator(lang: Lang): DocumentT {
  let t = translators.get(lang);
  if (!t) {
    const instance = i18next.createInstance();
    void instance.init({
      lng: lang,
      supportedLngs: [...LANGS],
      fallbackLng: DEFAULT_LANG,
      resources: Object.fromEntries(LANGS.map((l) => [l, { documents: resources[l].documents }])),
      ns: ['documents'],
      defaultNS: 'documents',
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    });
    const fixed: TFunction = instance.getFixedT(lang, 'documents');
    t = (key, vars) => String(fixed(key, vars ?? {}));
    translators.set(lang, t);
  }
  return t;
}
