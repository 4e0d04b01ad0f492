import type { i18n as I18n } from 'i18next';
import type { Lang } from '~/core/i18n/languages';

/**
 * The browser's translations, one language at a time: each language is its own chunk (vite.config.ts
 * groups its namespace files), fetched when the page is in that language or the switch picks it.
 * The server holds every language (./index.ts); a page's first load carries one.
 */
const files = import.meta.glob<Record<string, string>>('./*/*.json', { import: 'default' });

export type LanguageResources = Record<string, Record<string, string>>;

export async function loadLanguage(lang: Lang): Promise<LanguageResources> {
  const prefix = `./${lang}/`;
  const entries = await Promise.all(
    Object.entries(files)
      .filter(([file]) => file.startsWith(prefix))
      .map(async ([file, load]) => [file.slice(prefix.length, -'.json'.length), await load()] as const),
  );
  return Object.fromEntries(entries);
}

/** Switches a running i18next to `lang`, loading its translations first when they are not here yet. */
export async function switchLanguage(i18n: I18n, lang: Lang): Promise<void> {
  if (!i18n.hasResourceBundle(lang, 'common')) {
    const resources = await loadLanguage(lang);
    for (const [ns, bundle] of Object.entries(resources)) i18n.addResourceBundle(lang, ns, bundle, true, true);
  }
  await i18n.changeLanguage(lang);
}
