import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

/** Debian's Chromium (never a downloaded browser): CHROMIUM_PATH, /usr/bin/chromium, or PATH. */
export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
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
