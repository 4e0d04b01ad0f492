import type { BackendModule, i18n as I18n } from 'i18next';
import type { Lang } from '~/core/i18n/languages';
import { NAMESPACES } from '~/core/i18n/locales/namespaces';

/**
 * The browser's translations, one namespace of one language at a time: each file is its own chunk
 * (vite.config.ts). A page's first load carries only the namespaces its server render used (the
 * server names them and preloads their chunks, ./usage.tsx); the others of the language follow once
 * the page is interactive, and the i18next backend below fetches any asked for before that.
 * The server holds every language (core/i18n/locales/index.ts).
 */
type Files = Record<string, () => Promise<Record<string, string>>>;
/** One small map per language by namespace (./<lang>/index.ts), so a page carries only its language's map. */
const languages = import.meta.glob<Files>('./*/index.ts', { import: 'files' });

export type LanguageResources = Record<string, Record<string, string>>;

/** The always-needed namespaces: the default one and the UI kit's. */
export const BASE_NAMESPACES = ['common', 'ui'] as const;

async function languageFiles(lang: string): Promise<Files> {
  const load = languages[`./${lang}/index.ts`];
  if (!load) throw new Error(`No translations for ${lang}`);
  return load();
}

async function loadFile(lang: string, ns: string): Promise<Record<string, string>> {
  const load = (await languageFiles(lang))[ns];
  if (!load) throw new Error(`No translations for ${lang}/${ns}`);
  return load();
}

export async function loadNamespaces(lang: Lang, namespaces: readonly string[]): Promise<LanguageResources> {
  const files = await languageFiles(lang);
  const wanted = [...new Set([...BASE_NAMESPACES, ...namespaces])].filter((ns) => files[ns]);
  const entries = await Promise.all(wanted.map(async (ns) => [ns, await files[ns]!()] as const));
  return Object.fromEntries(entries);
}

/** i18next's way to the chunks: a namespace or language asked for later (a dialog, the switch). */
export const chunkBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(lang, ns, callback) {
    loadFile(lang, ns).then(
      (data) => callback(null, data),
      (err: Error) => callback(err, false),
    );
  },
};

/** The rest of the language's namespaces, fetched while the browser is idle after hydration. */
export function loadRemainingNamespaces(i18n: I18n): void {
  const idle = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 200));
  idle(() => void i18n.loadNamespaces([...NAMESPACES]));
}

/** Switches a running i18next to `lang`; the backend loads its translations first. */
export async function switchLanguage(i18n: I18n, lang: Lang): Promise<void> {
  await i18n.changeLanguage(lang);
}
