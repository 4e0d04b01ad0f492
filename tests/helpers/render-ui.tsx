import i18next from 'i18next';
import type { ReactNode } from 'react';
import { I18nProvider } from 'react-aria-components';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { createRoutesStub } from 'react-router';
import { afterEach, expect } from 'vitest';
import { ToastProvider } from '~/app/components/ui';
import { resources } from '~/core/i18n/locales';

/**
 * Server-renders components in English inside a router, toasts and i18n, for tests that read the
 * text a person would see. Every test of the file fails if a key the components asked for is
 * missing from `namespaces`.
 */
export async function englishRenderer(namespaces: string[]): Promise<(node: ReactNode) => string> {
  const missingKeys: string[] = [];
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: false,
    ns: ['common', 'ui', ...namespaces],
    defaultNS: 'common',
    resources: { en: resources.en },
    keySeparator: false,
    interpolation: { escapeValue: false },
    initAsync: false,
    saveMissing: true,
    missingKeyHandler: (_lngs, ns, key) => missingKeys.push(`${ns}:${key}`),
  });
  afterEach(() => {
    expect(missingKeys).toEqual([]);
    missingKeys.length = 0;
  });
  return (node) => {
    const Stub = createRoutesStub([{ path: '/', Component: () => <>{node}</> }]);
    // React separates text parts with comments; drop them so the text reads as shown
    return renderToString(
      <I18nextProvider i18n={i18n}>
        <I18nProvider locale="en-GB">
          <ToastProvider>
            <Stub />
          </ToastProvider>
        </I18nProvider>
      </I18nextProvider>,
    ).replace(/<!-- -->/g, '');
  };
}
