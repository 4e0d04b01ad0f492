import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { uniqueSlug } from '~/tests/helpers/db';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-cli-'));

/** The CLI as an operator runs it: its own process, on PostgreSQL in CI or a PGlite directory. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- CLI JSON is checked field by field
async function cli(...args: string[]): Promise<{ code: number; json: any }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'development', LOG_LEVEL: 'silent' };
  if (process.env.TEST_DATABASE_URL) env.DATABASE_URL = process.env.TEST_DATABASE_URL;
  else delete env.DATABASE_URL;
  try {
    const { stdout } = await run(path.join(root, 'node_modules/.bin/tsx'), ['tenants/cli.ts', ...args, '--json'], {
      cwd: root,
      env,
    });
    return { code: 0, json: JSON.parse(stdout) };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, json: JSON.parse(err.stdout) };
  }
}

describe('[tenants] the tenant CLI', () => {
  const slug = uniqueSlug('cli');
  const host = `${slug}.ordo.test`;

  it('creates a tenant and prints a one-time sign-in link; running it again changes nothing', async () => {
    const created = await cli(
      'create',
      slug,
      '--name',
      'CLI Larm AB',
      '--host',
      host,
      '--admin-email',
      `admin@${slug}.se`,
      '--country',
      'EE',
    );
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ slug, created: true, steps: ['registered', 'migrated', 'seeded', 'active'] });
    expect(created.json.signInUrl).toMatch(new RegExp(`^http://${host}:\\d+/welcome\\?t=[A-Za-z0-9_-]{43}$`));
    const again = await cli(
      'create',
      slug,
      '--name',
      'CLI Larm AB',
      '--host',
      host,
      '--admin-email',
      `admin@${slug}.se`,
    );
    expect(again.json).toMatchObject({ created: false, signInUrl: null });
  }, 120_000);

  it('lists, disables, enables, adds and removes hosts, and manages plugins', async () => {
    const list = await cli('list');
    const mine = list.json.find((t: { slug: string }) => t.slug === slug);
    expect(mine).toMatchObject({
      status: 'active',
      hosts: [host],
      config: { country: 'EE', languageKey: 'ee', dateFormat: 'DD.MM.YYYY' },
    });
    expect((await cli('disable', slug)).json).toEqual({ slug, status: 'disabled' });
    expect((await cli('enable', slug)).json).toEqual({ slug, status: 'active' });
    expect((await cli('add-host', slug, 'larm.cli.test')).code).toBe(0);
    expect((await cli('list')).json.find((t: { slug: string }) => t.slug === slug).hosts.sort()).toEqual(
      [host, 'larm.cli.test'].sort(),
    );
    expect((await cli('remove-host', slug, 'larm.cli.test')).code).toBe(0);
    // other test files create and drop tenants meanwhile: the whole answer is shown when this fails
    const migrated = await cli('migrate', '--all');
    expect(migrated.json[slug], JSON.stringify(migrated)).toEqual([]);
    expect((await cli('file-limits', slug)).json).toEqual({ slug, maxUploadMb: 50, quotaMb: 10_240, usedMb: 0 });
    expect((await cli('file-limits', slug, '--max-upload-mb', '200', '--quota-mb', '51200')).json).toMatchObject({
      maxUploadMb: 200,
      quotaMb: 51_200,
    });
    expect((await cli('file-limits', slug, '--quota-mb', '0')).json.error.code).toBe('VALIDATION_FAILED');
    expect((await cli('list')).json.find((t: { slug: string }) => t.slug === slug).config.files).toEqual({
      maxUploadMb: 200,
      quotaMb: 51_200,
    });
    expect((await cli('enable-plugin', slug, 'none')).json).toMatchObject({
      enabled: ['none'],
      installed: expect.arrayContaining(['none']),
    });
  }, 240_000); // a dozen CLI processes: slow on a loaded 2-core machine, nothing timed

  it('sweeps stored files no row names, once they are over a day old, and says which', async () => {
    const schema = (await cli('list')).json.find((t: { slug: string }) => t.slug === slug).schemaName as string;
    const dir = path.join(dataDir, 'files', schema);
    fs.mkdirSync(dir, { recursive: true });
    const old = path.join(dir, 'left-by-a-crash');
    const young = path.join(dir, 'upload-on-its-way');
    fs.writeFileSync(old, 'abc');
    fs.writeFileSync(young, 'de');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    fs.utimesSync(old, twoDaysAgo, twoDaysAgo);
    const swept = await cli('sweep-files', slug);
    expect(swept.json).toEqual([{ slug, examined: 1, removed: [`${schema}/left-by-a-crash`], bytes: 3 }]);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.existsSync(young)).toBe(true);
  }, 120_000);

  it('answers bad input with an error and a non-zero exit, writing nothing', async () => {
    const bad = await cli('create', 'Bad Slug', '--name', '', '--admin-email', 'nope');
    expect(bad.code).toBe(1);
    expect(bad.json.error.code).toBe('VALIDATION_FAILED');
    expect(bad.json.error.message).toMatch(/slug: ERROR_INVALID_SLUG/);
    const unknown = await cli('disable', 'no-such-tenant');
    expect(unknown).toMatchObject({ code: 1, json: { error: { code: 'NOT_FOUND' } } });
    expect((await cli('frobnicate')).json.error.message).toMatch(/Unknown command/);
  }, 120_000);
});
