import path from 'node:path';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  resolve: { alias: [{ find: /^~\//, replacement: path.resolve(import.meta.dirname) + '/' }] },
  plugins: [
    tailwindcss(),
    reactRouter(),
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
