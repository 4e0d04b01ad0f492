#!/usr/bin/env node
/**
 * Compiles the official Peppol BIS Billing 3.0 and EN 16931 validation rules in
 * tests/fixtures/peppol/rules into SaxonJS stylesheets (SEF, gzipped) that the tests run
 * (tests/helpers/peppol-rules.ts). Run it after replacing a rule file: `node scripts/peppol-rules.mjs`
 * (about a minute). The Peppol Schematron becomes XSLT with SchXslt (tests/fixtures/peppol/schxslt);
 * CEN ships its rules as XSLT already. The manifest records the sources' hashes: a test fails when
 * a rule file changed and its compiled form did not.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, 'tests/fixtures/peppol');
const require = createRequire(import.meta.url);
const xslt3 = require.resolve('xslt3/xslt3.js');
const saxonVersion = JSON.parse(readFileSync(require.resolve('saxon-js/package.json'), 'utf8')).version;
const tmp = mkdtempSync(path.join(tmpdir(), 'peppol-rules-'));
const run = (...args) => execFileSync(process.execPath, [xslt3, ...args], { stdio: 'inherit' });
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

export const RULE_SETS = [
  { name: 'PEPPOL-EN16931-UBL', source: 'rules/PEPPOL-EN16931-UBL.sch' },
  { name: 'EN16931-UBL-validation', source: 'rules/EN16931-UBL-validation.xslt' },
];

try {
  const manifest = { saxonJs: saxonVersion, rules: {} };
  for (const set of RULE_SETS) {
    const source = path.join(dir, set.source);
    let xsl = source;
    if (source.endsWith('.sch')) {
      xsl = path.join(tmp, `${set.name}.xsl`);
      run(`-xsl:${path.join(dir, 'schxslt/pipeline-for-svrl.xsl')}`, `-s:${source}`, `-o:${xsl}`);
    }
    const sef = path.join(tmp, `${set.name}.sef.json`);
    run(`-xsl:${xsl}`, `-export:${sef}`, '-relocate:on', '-nogo');
    writeFileSync(path.join(dir, 'compiled', `${set.name}.sef.json.gz`), gzipSync(readFileSync(sef), { level: 9 }));
    manifest.rules[set.name] = { source: set.source, sha256: sha256(source) };
  }
  writeFileSync(path.join(dir, 'compiled/manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
