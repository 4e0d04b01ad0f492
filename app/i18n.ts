import type { InitOptions } from 'i18next';
import { DEFAULT_LANG, LANGS } from '~/core/i18n/languages';
import { NAMESPACES } from '~/core/i18n/locales/namespaces';

/** i18next options shared by the server and the browser, so both render the same text. */
export const i18nOptions: InitOptions = {
  supportedLngs: [...LANGS],
  fallbackLng: DEFAULT_LANG,
  ns: [...NAMESPACES],
  defaultNS: 'common',
  // Keys are flat ("login.title", "ERROR_REQUIRED_FIELD"): dots are part of the key.
  keySeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
};
