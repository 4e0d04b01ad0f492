#!/usr/bin/env node
/**
 * `npm run test:plugin -- plugins/<folder>`: runs an ERP plugin's tests — the shared contract suite
 * (its contract.test.ts, see docs/plugins/erp.md) and any other *.test.ts beside it — so an outside
 * integrator can check a plugin without running the whole product's tests.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const folder = process.argv[2];
if (!folder) {
  console.error('Usage: npm run test:plugin -- plugins/<folder>');
  process.exit(2);
}
const dir = path.resolve(folder);
if (!fs.existsSync(path.join(dir, 'index.ts'))) {
  console.error(`${folder}: no index.ts — a plugin folder default-exports its definition from index.ts`);
  process.exit(2);
}
if (!fs.existsSync(path.join(dir, 'contract.test.ts'))) {
  console.error(
    `${folder}: no contract.test.ts — an ERP plugin runs erpContract() from tests/erp-contract/erp-contract.ts`,
  );
  process.exit(2);
}
const bin = path.resolve('node_modules/.bin/vitest');
const result = spawnSync(bin, ['run', path.relative(process.cwd(), dir)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
