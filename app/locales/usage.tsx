import { createContext, useContext } from 'react';
import { preloadModule } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useNonce } from '~/app/lib/nonce';

/** The server's map from a language and namespace to its chunk's URL (production builds only). */
export const LocaleChunksContext = createContext<((lang: string, ns: string) => string | undefined) | null>(null);

const ELEMENT_ID = 'ordo-i18n-namespaces';

/** What the server's render named, read by entry.client before it hydrates. */
export function namespacesOfThisPage(): string[] {
  try {
    const parsed: unknown = JSON.parse(document.getElementById(ELEMENT_ID)?.textContent ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((ns): ns is string => typeof ns === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Rendered last in the body: by then the server's render has asked for every namespace the page
 * shows (react-i18next reports them), so it names them for the browser and preloads their chunks
 * (React hoists the preloads into the head, which is sent after the shell is rendered).
 */
export function TranslationsUsed() {
  const { i18n } = useTranslation();
  const chunkUrl = useContext(LocaleChunksContext);
  // Data, never run; it carries the nonce all the same, like every inline script of the page.
  const nonce = useNonce();
  const used =
    typeof document === 'undefined' ? [...(i18n.reportNamespaces?.getUsedNamespaces() ?? [])] : namespacesOfThisPage();
  if (chunkUrl)
    for (const ns of ['index', ...used]) {
      const href = chunkUrl(i18n.language, ns);
      if (href) preloadModule(href, { as: 'script' });
    }
  return (
    <script
      type="application/json"
      id={ELEMENT_ID}
      nonce={nonce}
      suppressHydrationWarning
      dangerouslySetInnerHTML={{ __html: JSON.stringify(used) }}
    />
  );
}
