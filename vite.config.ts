import fs from 'node:fs/promises';
import path from 'node:path';
import { reactRouter } from '@react-router/dev/vite';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import { LOCALE_CHUNKS_FILE } from './app/locales/chunks.server';
import { LANGS } from './core/i18n/languages';

/** A translation file: core/i18n/locales/<lang>/<namespace>.json. */
const LOCALE_FILE = /[\\/]core[\\/]i18n[\\/]locales[\\/]([a-z]{2})[\\/]([a-z]+)\.json$/;
/** A language's map of its namespace files: app/locales/<lang>/index.ts. */
const LOCALE_INDEX = /[\\/]app[\\/]locales[\\/]([a-z]{2})[\\/]index\.ts$/;

/**
 * Records which chunk of the browser's build holds each language's namespace, beside the build
 * (build/locale-chunks.json), so the server can preload exactly what a page uses
 * (app/locales/usage.tsx).
 */
function localeChunks(): Plugin {
  return {
    name: 'ordo-locale-chunks',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    async writeBundle(options, bundle) {
      const map: Record<string, string> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const id of chunk.moduleIds) {
          const match = LOCALE_FILE.exec(id) ?? LOCALE_INDEX.exec(id);
          if (match) map[`${match[1]}/${match[2] ?? 'index'}`] = `/${chunk.fileName}`;
        }
      }
      await fs.writeFile(path.join(options.dir!, '..', LOCALE_CHUNKS_FILE), JSON.stringify(map, null, 1));
    },
  };
}

/** `new URL('./file', import.meta.url)`: a data file a server module reads beside itself. */
const FILE_BESIDE = /\bnew\s+URL\(\s*["'`]\.\/([\w.-]+)["'`]\s*,\s*import\.meta\.url\s*\)/g;

/**
 * Copies the data files server modules read beside themselves (core/auth/common-passwords.txt)
 * beside the server chunk that holds each such module, so the same relative URL finds them in the
 * sources and in build/server. scripts/build.mjs checks that each one is there.
 */
function serverDataFiles(): Plugin {
  const filesOf = new Map<string, string[]>();
  return {
    name: 'ordo-server-data-files',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    transform: {
      filter: { code: /import\.meta\.url/ },
      handler(code, id) {
        const files = [...code.matchAll(FILE_BESIDE)].map((m) => m[1]!);
        if (files.length) filesOf.set(id, files);
        return null;
      },
    },
    async generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const id of chunk.moduleIds) {
          for (const file of filesOf.get(id) ?? []) {
            this.emitFile({
              type: 'asset',
              fileName: path.posix.join(path.posix.dirname(chunk.fileName), file),
              source: await fs.readFile(path.join(path.dirname(id), file)),
            });
          }
        }
      }
    },
  };
}

export default defineConfig({
  resolve: { alias: [{ find: /^~\//, replacement: path.resolve(import.meta.dirname) + '/' }] },
  plugins: [
    tailwindcss(),
    reactRouter(),
    // React Aria's own strings (menus, date fields) only in the five languages Ordo speaks.
    optimizeLocales.vite({ locales: [...LANGS] }),
    localeChunks(),
    serverDataFiles(),
    {
      name: 'ordo-side-effect-free-barrels',
      transform: {
        filter: { id: /[\\/]app[\\/]components[\\/]ui[\\/]index\.ts$/ },
        handler: () => ({ moduleSideEffects: false }),
      },
    },
  ],
  // The server build's entry is our Express app (server/app.ts), which mounts React Router.
  environments: {
    // The browser loads the namespaces a page uses (app/locales/load.ts): one chunk per language and
    // namespace, named so (precompress() also records which chunk holds which for the server).
    client: {
      build: {
        rolldownOptions: {
          experimental: { lazyBarrel: true },
          output: {
            codeSplitting: {
              groups: [
                {
                  test: LOCALE_FILE,
                  name: (id: string) => {
                    const [, lang, ns] = LOCALE_FILE.exec(id)!;
                    return `locale-${lang}-${ns}`;
                  },
                },
              ],
            },
          },
        },
      },
    },
    ssr: {
      build: { rolldownOptions: { input: './server/app.ts' } },
      // Let Vite resolve the adapter too, so it and our code share one react-router
      // (RouterContextProvider is checked with instanceof).
      resolve: { noExternal: ['@react-router/express'] },
    },
  },
  server: { hmr: process.env.NODE_ENV === 'test' ? false : undefined },
});
