import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Config } from '@react-router/dev/config';

const brotli = promisify(zlib.brotliCompress);

/**
 * Writes `<file>.br` (brotli, highest level) beside each script, style sheet and SVG of the
 * browser's build; server/precompressed.ts serves them to browsers that accept `br`. Done when
 * every build has ended, since React Router writes its route manifest during the server's build.
 */
async function precompress(assets: string) {
  const names = (await fs.readdir(assets)).filter((name) => /\.(js|css|svg)$/.test(name));
  await Promise.all(
    names.map(async (name) => {
      const data = await fs.readFile(path.join(assets, name));
      const br = await brotli(data, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      });
      await fs.writeFile(path.join(assets, `${name}.br`), br);
    }),
  );
}

export default {
  appDirectory: 'app',
  ssr: true,
  // Pre-bundle the browser's dependencies at dev-server start: discovering them on the first page
  // view would make Vite reload that page mid-use.
  future: { unstable_optimizeDeps: true },
  // The whole route manifest up front (~70 routes): lazy discovery patched the route tree on a
  // picker's first fetch to a not-yet-discovered path (e.g. /inventory/customers/options from a
  // work order) and reset the picker mid-typing.
  routeDiscovery: { mode: 'initial' },
  async buildEnd({ reactRouterConfig }) {
    await precompress(path.join(reactRouterConfig.buildDirectory, 'client', 'assets'));
  },
} satisfies Config;
