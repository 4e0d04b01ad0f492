import path from 'node:path';
import { defineConfig } from 'vitest/config';

// Kept apart from vite.config.ts so the reactRouter() plugin is not loaded under tests.
export default defineConfig({
  resolve: { alias: [{ find: /^~\//, replacement: path.resolve(import.meta.dirname) + '/' }] },
  test: {
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['node_modules/**', 'build/**', 'tests/e2e/**', 'data/**'],
    environment: 'node',
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores and one database: test files run one after another.
    fileParallelism: false,
    env: { NODE_ENV: 'test', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
  },
});
