import i18next from 'i18next';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { HydratedRouter } from 'react-router/dom';
import { i18nOptions } from '~/app/i18n';
import { isLang, DEFAULT_LANG } from '~/core/i18n/languages';
import { loadLanguage } from '~/app/locales/load';
import { snapshotTypedInput } from '~/app/lib/pre-hydration-input';

/**
 * The browser renders in the language the server chose (the <html lang> attribute), with only that
 * language's translations; the language switch loads another one when it is picked (root.tsx).
 */
async function main() {
  const htmlLang = document.documentElement.lang;
  const lng = isLang(htmlLang) ? htmlLang : DEFAULT_LANG;
  const resources = { [lng]: await loadLanguage(lng) };
  await i18next.use(initReactI18next).init({ ...i18nOptions, lng, resources, partialBundledLanguages: true });
  snapshotTypedInput();
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void main();
