// `npm test`: lint and typecheck side by side (each is one process on one core), then the
// production build, the unit and integration tests, and the browser tests (with ORDO_PGLITE_AFTER=1,
// as .ci/run sets, then the PGlite set). Each phase prints its
// time, and the run stops at the first phase that fails.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs one command to its end; resolves with its exit code and prints how long it took. */
function run(args) {
  const since = Date.now();
  return new Promise((resolve) => {
    const child = spawn(args[0], args.slice(1), { stdio: 'inherit' });
    child.on('exit', (code, signal) => {
      console.log(`=== ${args.join(' ')}: ${Math.round((Date.now() - since) / 1000)} s`);
      resolve(code ?? (signal ? 1 : 0));
    });
    child.on('error', (err) => {
      console.error(`Could not run ${args.join(' ')}: ${err.message}`);
      resolve(1);
    });
  });
}

const started = Date.now();
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

/** Runs the commands of one phase side by side and stops the run when any of them fails. */
async function phase(name, ...commands) {
  const since = Date.now();
  console.log(`\n=== ${name}`);
  const codes = await Promise.all(commands.map(run));
  const failed = codes.find((c) => c !== 0);
  console.log(`=== ${name}: ${failed === undefined ? 'passed' : 'FAILED'} in ${seconds(since)}`);
  if (failed !== undefined) {
    console.log(`=== npm test failed after ${seconds(started)}`);
    process.exit(failed);
  }
}

await phase('lint and typecheck', [npm, 'run', 'lint'], [npm, 'run', 'typecheck']);
await phase('build', ['node', 'scripts/build.mjs', '--if-stale']);
await phase('unit and integration tests', [npm, 'run', 'test:unit']);
await phase('browser tests', [npm, 'run', 'test:e2e']);
// CI (.ci/run) runs the tests where the engines differ once more on embedded PGlite, after the browser
// tests: beside them at a lower priority (stop 43), CI's two cores starved it into hook timeouts.
if (process.env.ORDO_PGLITE_AFTER === '1') await phase('the PGlite set', [npm, 'run', 'test:pglite']);
console.log(`\n=== npm test passed in ${seconds(started)}`);
