import i18next from 'i18next';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { HydratedRouter } from 'react-router/dom';
import { i18nOptions } from '~/app/i18n';
import { isLang, DEFAULT_LANG } from '~/core/i18n/languages';
import { resources } from '~/app/locales';
import { snapshotTypedInput } from '~/app/lib/pre-hydration-input';

/**
 * The browser renders in the language the server chose (the <html lang> attribute); all languages
 * are loaded so the language switch applies without a reload.
 */
async function main() {
  const htmlLang = document.documentElement.lang;
  const lng = isLang(htmlLang) ? htmlLang : DEFAULT_LANG;
  await i18next.use(initReactI18next).init({ ...i18nOptions, lng, resources });
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
