// `npm run test:pglite`: the tests where the engines can differ (vitest.config.ts ENGINE_SENSITIVE),
// on embedded PGlite whatever TEST_DATABASE_URL says. The whole suite runs on PostgreSQL in `npm test`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const env = { ...process.env, ORDO_TEST_SET: 'engines' };
delete env.TEST_DATABASE_URL;
const result = spawnSync(process.execPath, [bin, 'run', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
