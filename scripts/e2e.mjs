// Runs the browser tests on the system's Chromium, and says clearly when there is none.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './build.mjs';
import { findChromium } from './find-chromium.mjs';

const chromium = findChromium();
if (!chromium) {
  console.error(
    '\n  Browser tests need Chromium, and none was found.\n' +
      "  Install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.\n" +
      '  .ci/run installs it; the tests never download a browser.\n',
  );
  process.exit(1);
}
// Every test starts the app as `npm start` does, on the production build: make it once, here,
// rather than in the first test's start-up time.
await ensureBuild();
// The project's own Playwright, so this works without npm putting node_modules/.bin on PATH.
const bin = fileURLToPath(new URL('../node_modules/.bin/playwright', import.meta.url));
const result = spawnSync(bin, ['test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium },
});
if (result.error) console.error(`Could not run Playwright (${bin}): ${result.error.message}`);
process.exit(result.status ?? 1);
