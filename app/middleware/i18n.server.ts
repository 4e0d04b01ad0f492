import { createI18nextMiddleware } from 'remix-i18next';
import { initReactI18next } from 'react-i18next';
import { authContext, tenantContext, zoneAuthContext } from '~/app/context';
import { DEFAULT_LANG, LANGS, isLang, langFromKey } from '~/core/i18n/languages';
import { LANG_COOKIE, readCookie } from '~/core/http/session-token';
import { i18nOptions } from '~/app/i18n';
import { resources } from '~/core/i18n/locales';

/**
 * The UI language: the signed-in user's own choice, else the language switch's cookie, else the
 * tenant's language, else Swedish.
 */
const QUERY_LANGS = new Set(['se', 'sv', 'ee', 'et', 'en', 'lv', 'ru']);

export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...LANGS],
    fallbackLanguage: DEFAULT_LANG,
    order: ['custom'],
    async findLocale({ request, context }) {
      const auth = context.get(authContext);
      if (auth?.user.language) return langFromKey(auth.user.language);
      // a zone user: their own language, else their customer's (decision 061)
      const zone = context.get(zoneAuthContext);
      const zoneLang = zone?.user.language ?? zone?.customerLanguage;
      if (zoneLang) return langFromKey(zoneLang);
      // Spec: the login screen reads a `lang` query parameter (spec keys se/ee or UI codes).
      const query = new URL(request.url).searchParams.get('lang');
      if (!auth && !zone && query && QUERY_LANGS.has(query)) return langFromKey(query);
      const cookie = readCookie(request.headers.get('cookie'), LANG_COOKIE);
      if (isLang(cookie)) return cookie;
      return langFromKey(context.get(tenantContext).config.languageKey);
    },
  },
  i18next: { ...i18nOptions, resources },
  plugins: [initReactI18next],
});
