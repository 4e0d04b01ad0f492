import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);

/**
 * Writes `<file>.br` (brotli, highest level) beside each script, style sheet and SVG of the
 * browser's build; server/precompressed.ts serves them to browsers that accept `br`.
 */
function precompress(): Plugin {
  return {
    name: 'ordo-precompress',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    async writeBundle(options, bundle) {
      const dir = options.dir!;
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => /\.(js|css|svg)$/.test(name))
          .map(async (name) => {
            const file = path.join(dir, name);
            const data = await fs.readFile(file);
            const br = await brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            });
            await fs.writeFile(`${file}.br`, br);
          }),
      );
    },
  };
}

export default defineConfig({
  resolve: { alias: [{ find: /^~\//, replacement: path.resolve(import.meta.dirname) + '/' }] },
  plugins: [
    tailwindcss(),
    reactRouter(),
    precompress(),
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
    // The browser loads one language (app/locales/load.ts): each language's namespace files make one chunk.
    client: {
      build: {
        rolldownOptions: {
          experimental: { lazyBarrel: true },
          output: {
            codeSplitting: {
              groups: [
                {
                  test: /[\\/]app[\\/]locales[\\/][a-z]{2}[\\/][a-z]+\.json$/,
                  name: (id: string) => `locale-${/[\\/]locales[\\/]([a-z]{2})[\\/]/.exec(id)![1]}`,
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
