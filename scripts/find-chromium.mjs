import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

/**
 * Debian's Chromium (never a downloaded browser): CHROMIUM_PATH, else Debian's headless shell
 * (package chromium-headless-shell: the same Blink without the browser's UI, GPU process and
 * compositor, which is what Playwright itself runs headless tests on), else the full browser.
 */
export function findChromium() {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/lib/chromium/chromium-headless-shell',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
  ].filter(Boolean);
  for (const c of candidates) if (fs.existsSync(c)) return c;
  try {
    return (
      execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() ||
      null
    );
  } catch {
    return null;
  }
}
