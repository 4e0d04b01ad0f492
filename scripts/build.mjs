// The production build, and "is it current?" for `npm start`, the browser tests and the bench.
//
//   node scripts/build.mjs            build now (`npm run build`)
//   node scripts/build.mjs --if-stale build only when build/ is missing or older than the sources
//
// A build records when it started (build/.built-at); it is current while no source file is newer.
// Several processes may ask at once (parallel browser-test workers each start the app): one builds
// under a lock directory, the others wait for it and then find the build current.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = path.join(root, 'build');
const STAMP = path.join(BUILD, '.built-at');
const LOCK = path.join(root, '.build-lock');
const SOURCE_DIRS = ['app', 'core', 'server', 'tenants', 'migrations', 'plugins'];
const SOURCE_FILES = ['vite.config.ts', 'react-router.config.ts', 'package-lock.json', 'tsconfig.json'];
const SKIP = /(\.test\.tsx?|\.spec\.tsx?)$/;

function newestSource() {
  let newest = 0;
  const visit = (p) => {
    let st;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p))
        if (name !== 'node_modules' && !name.startsWith('.')) visit(path.join(p, name));
    } else if (!SKIP.test(p) && st.mtimeMs > newest) newest = st.mtimeMs;
  };
  for (const d of SOURCE_DIRS) visit(path.join(root, d));
  for (const f of SOURCE_FILES) visit(path.join(root, f));
  return newest;
}

/** Why the build must be made, or null when it is current. */
export function staleReason() {
  if (!fs.existsSync(path.join(BUILD, 'server/index.js')) || !fs.existsSync(path.join(BUILD, 'client')))
    return 'there is no production build yet';
  let builtAt = NaN;
  try {
    builtAt = Number(fs.readFileSync(STAMP, 'utf8'));
  } catch {
    return 'the build does not say when it was made';
  }
  return newestSource() > builtAt ? 'the sources changed since the last build' : null;
}

/** Whether this install can build at all (a production image has pruned the build tools). */
function canBuild() {
  return fs.existsSync(path.join(root, 'node_modules/@react-router/dev/bin.cjs'));
}

function runBuild({ inherit = false } = {}) {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules/@react-router/dev/bin.cjs'), 'build'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new BuildError(`The production build failed (exit ${code}):\n${out}`));
      const missing = missingServerDataFiles();
      if (missing.length)
        return reject(new BuildError(`The server build lacks the data files it reads: ${missing.join(', ')}`));
      fs.writeFileSync(STAMP, String(started));
      resolve(Date.now() - started);
    });
  });
}

/**
 * The data files the built server reads beside its chunks (`new URL('./common-passwords.txt',
 * import.meta.url)`, copied there by vite.config.ts) that are not there.
 */
export function missingServerDataFiles(dir = path.join(BUILD, 'server')) {
  const missing = [];
  const visit = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.name.endsWith('.js'))
        for (const m of fs
          .readFileSync(p, 'utf8')
          .matchAll(/\bnew\s+URL\(\s*["'`]\.\/([\w.-]+)["'`]\s*,\s*import\.meta\.url\s*\)/g))
          if (!fs.existsSync(path.join(d, m[1]))) missing.push(path.relative(root, path.join(d, m[1])));
    }
  };
  visit(dir);
  return missing;
}

class BuildError extends Error {
  name = 'BuildError';
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Takes the build lock, waiting while another live process holds it. */
async function lock() {
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      fs.writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
      return;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    let holder = NaN;
    try {
      holder = Number(fs.readFileSync(path.join(LOCK, 'pid'), 'utf8'));
    } catch {
      /* being written: wait */
    }
    if (Number.isInteger(holder) && holder > 0 && !alive(holder)) fs.rmSync(LOCK, { recursive: true, force: true });
    else await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Makes sure build/ is current: builds when it is missing or stale and the build tools are here.
 * `log` hears one line before a build and one after.
 */
export async function ensureBuild({ log = (line) => console.log(line) } = {}) {
  if (!staleReason()) return { built: false };
  // The browser tests build once before their apps start: an edit made while they run must not
  // rebuild under apps that are serving the build (ORDO_BUILD=as-is, set by tests/e2e/app-server.ts).
  if (process.env.ORDO_BUILD === 'as-is' && fs.existsSync(path.join(BUILD, 'server/index.js'))) return { built: false };
  if (!canBuild()) {
    if (fs.existsSync(path.join(BUILD, 'server/index.js'))) return { built: false };
    throw new BuildError(
      'There is no production build and no build tools to make one: run `npm install && npm run build`.',
    );
  }
  await lock();
  try {
    const reason = staleReason(); // someone else may have built it while we waited
    if (!reason) return { built: false };
    log(`  Building Ordo for production (${reason}); this takes about 15 seconds…`);
    const ms = await runBuild();
    log(`  Built in ${(ms / 1000).toFixed(1)} s.`);
    return { built: true };
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes('--if-stale');
  try {
    if (ifStale) await ensureBuild();
    else {
      await lock();
      try {
        const ms = await runBuild({ inherit: true });
        console.log(`Built in ${(ms / 1000).toFixed(1)} s.`);
      } finally {
        fs.rmSync(LOCK, { recursive: true, force: true });
      }
    }
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
