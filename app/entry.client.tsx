import i18next from 'i18next';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { HydratedRouter } from 'react-router/dom';
import { i18nOptions } from '~/app/i18n';
import { isLang, DEFAULT_LANG } from '~/core/i18n/languages';
import { chunkBackend, loadNamespaces, loadRemainingNamespaces } from '~/app/locales/load';
import { namespacesOfThisPage } from '~/app/locales/usage';
import { snapshotTypedInput } from '~/app/lib/pre-hydration-input';

/**
 * A navigation, revalidation or fetcher that a newer one supersedes (a click while the last page
 * still loads, a redirect after a save) is aborted, and the router's promise for it rejects with an
 * AbortError no code waits for. That is the expected end of the older request, not a fault: it is
 * not reported as an uncaught error. Every other rejection still is.
 */
window.addEventListener('unhandledrejection', (event) => {
  const reason: unknown = event.reason;
  if (reason instanceof DOMException && reason.name === 'AbortError') event.preventDefault();
});

/**
 * The browser renders in the language the server chose (the <html lang> attribute), with only the
 * namespaces the server's render used (app/locales/usage.tsx); the language's other namespaces follow
 * when the page is idle, and the language switch loads another language when it is picked (root.tsx).
 * No fallback language here: the server renders missing keys the same way, since every language has
 * every key (core/i18n/locales/locales.test.ts).
 */
async function main() {
  // React Router's entry is an async module script: it can run while the server still streams the
  // page, before the list of namespaces (rendered last in the body) has arrived. Reading the list
  // then found none, the page hydrated without its translations and React reported a mismatch.
  if (document.readyState === 'loading')
    await new Promise<void>((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
  const htmlLang = document.documentElement.lang;
  const lng = isLang(htmlLang) ? htmlLang : DEFAULT_LANG;
  const namespaces = namespacesOfThisPage();
  const resources = { [lng]: await loadNamespaces(lng, namespaces) };
  await i18next
    .use(initReactI18next)
    .use(chunkBackend)
    .init({
      ...i18nOptions,
      lng,
      fallbackLng: false,
      ns: Object.keys(resources[lng]!),
      resources,
      partialBundledLanguages: true,
      // A namespace not here yet (a dialog opened before the idle load ends) renders once it arrives.
      react: { useSuspense: false },
    });
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
  loadRemainingNamespaces(i18next);
}

void main();
