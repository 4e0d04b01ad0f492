import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The tests where PostgreSQL and embedded PGlite can behave differently: the database layer,
 * migrations and provisioning, the embedded job backend, and the SQL that leans on extensions,
 * triggers, locking, constraints and prepared statements. `npm test` runs everything on the
 * database it is given (PostgreSQL in CI); `npm run test:pglite` runs these once more on PGlite.
 */
export const ENGINE_SENSITIVE = [
  'core/db/**/*.test.ts',
  'core/jobs/**/*.test.ts',
  'tenants/provision.test.ts',
  'tenants/demo*.test.ts',
  'tests/integration/tenant-isolation.test.ts',
  'tests/integration/session-check.test.ts',
  'tests/integration/api-session.test.ts',
  'tests/integration/customers.test.ts',
  'tests/integration/business-objects.test.ts',
  'tests/integration/import-export.test.ts',
  'tests/integration/work-order-list.test.ts',
  'tests/integration/work-order-close.test.ts',
  'tests/integration/work-order-schedule.test.ts',
  'tests/integration/work-order-reminders.test.ts',
  'tests/integration/work-order-map.test.ts',
  'tests/integration/demo*.test.ts',
  // triggers (file_storage), recursive CTEs and unnest … with ordinality
  'tests/integration/files.test.ts',
  // the invoice counter's row lock, lag() over the history, jsonb_array_elements updates, lateral joins
  'tests/integration/invoices.test.ts',
  // skip locked claims, jsonb_to_recordset updates, date arithmetic in SQL (agreement generation)
  'tests/integration/agreement-generation.test.ts',
  // the generation day clamped in SQL (upcoming, due count), json_array_elements_text (the run's report)
  'tests/integration/agreement-invoices.test.ts',
  // the job outbox's skip locked claim with a lease, handed over after commit on the one connection
  'tests/integration/job-outbox.test.ts',
  // time columns wrapping past midnight, union all grouped by kind, on conflict on a date key (month locks)
  'tests/integration/time-reports.test.ts',
  // the month's payroll aggregated in SQL (group by with filters over four tables)
  'tests/integration/payroll-export.test.ts',
  // project invoicing: any(uuid[]) over grouped sums, lateral time sums, for update on the project and invoice
  'tests/integration/project-invoices.test.ts',
  // a project's costs grouped by grouping sets, at time zone days, lateral counts (issue 18)
  'tests/integration/project-costs.test.ts',
  // row locks on links and orders (extra-work answers); window functions inside an update (activity order)
  'tests/integration/project-extra-work.test.ts',
  'tests/integration/project-activities.test.ts',
  // resource plans: any(uuid[]) over people, date-range self joins, the board's plans joined by day (issue 18)
  'tests/integration/project-resources.test.ts',
  // supplier catalogues: unnest of text and numeric arrays holding NULLs in one insert, pg_trgm, distinct on (issue 33 item 6)
  'tests/integration/supplier-catalogues.test.ts',
];

const engines = process.env.ORDO_TEST_SET === 'engines';

// Kept apart from vite.config.ts so the reactRouter() plugin is not loaded under tests.
export default defineConfig({
  resolve: { alias: [{ find: /^~\//, replacement: path.resolve(import.meta.dirname) + '/' }] },
  test: {
    include: engines ? ENGINE_SENSITIVE : ['**/*.test.ts', '**/*.test.tsx'],
    exclude: [
      'node_modules/**',
      'build/**',
      'tests/e2e/**',
      'data/**',
      // the template is made by pg_dump on PostgreSQL (tests/global-setup.ts): nothing to test on PGlite
      ...(engines ? ['core/db/schema-template.test.ts'] : []),
    ],
    environment: 'node',
    globalSetup: ['tests/global-setup.ts'],
    setupFiles: ['tests/setup-file-state.ts', 'tests/setup-tenant-template.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Test files run side by side: each makes its own tenants (unique slugs) on the shared
    // database, and most of a test's time is spent waiting on the database, not on the 2 cores.
    fileParallelism: true,
    // A worker keeps its modules from one test file to the next instead of importing the app anew
    // for each (vitest measured 41 % of the run as module import, evaluated 66,000 times): every file
    // sets up what it uses (config, database, registry) in its own hooks.
    isolate: false,
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
    // No fallback key exists (issue 30): the tests are given one, new each run unless set.
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      SECRET_KEY: process.env.SECRET_KEY ?? randomBytes(32).toString('base64url'),
      // a browser, SMTP, HTTP or file-store call inside a transaction fails the test (decision 049)
      ORDO_TRANSACTION_GUARD: 'strict',
    },
  },
});
