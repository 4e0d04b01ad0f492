import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests/e2e',
  // the demo company's data directory, made once for every spec file's app to copy
  globalSetup: './tests/e2e/global-setup.ts',
  // Spec files run side by side, each against its own app (started once per file, on the
  // production build that scripts/e2e.mjs makes first); each worker keeps one browser for all of
  // its files. Tests inside a file run in order: they build on each other's data.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [['list']],
  use: {
    locale: 'sv-SE',
    timezoneId: 'Europe/Stockholm',
    // a failed test keeps its trace (actions, network, DOM snapshots); no screencast, which kept
    // Chromium's compositor and GPU process busy through every test of the run
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
