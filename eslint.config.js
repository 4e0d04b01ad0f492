import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'node_modules/**',
      '.react-router/**',
      'data/**',
      'bench-results/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Only core/db opens connections; everything else gets a transaction (ARCHITECTURE §4).
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'pg', message: 'Only core/db talks to the database driver.' },
            {
              name: 'knex',
              message: 'Only core/db imports knex; use the ctx.trx you are given.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // the test harness makes the databases and tenants the tests run on
    files: [
      'core/db/**',
      'tests/global-setup.ts',
      'tests/e2e/global-setup.ts',
      'tests/e2e/app-server.ts',
      'tests/bench/**',
    ],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // app/ holds routes and UI only: no SQL, no database (ARCHITECTURE §2).
    files: ['app/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'knex', message: 'No SQL in app/: call a core service.' },
            { name: 'pg', message: 'No SQL in app/: call a core service.' },
          ],
          patterns: [
            { group: ['~/core/db/*', '!~/core/db/with-tenant'], message: 'No SQL in app/: call a core service.' },
          ],
        },
      ],
      // the transaction a loader is given is for the core services it calls, not for queries of its own
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='trx'], MemberExpression[object.property.name='trx']",
          message: 'No SQL in app/: call a core service.',
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.mjs', '*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
  },
  prettier,
);
