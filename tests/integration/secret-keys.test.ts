import { spawnSync } from 'node:child_process';
import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mfaSecretContext } from '~/core/auth/mfa.service';
import { parseConfig, setConfig } from '~/core/config/env';
import { keyRing, open } from '~/core/crypto/secret-box';
import type { Database } from '~/core/db/database';
import { withTenant } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import { readErpConnection, saveErpCredentials } from '~/core/invoicing/erp-connection';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { rotateKeys, SEALED_COLUMNS } from '~/tenants/rotate-key';
import { createTestTenant } from '~/tests/helpers/app';
import { openTestDatabase } from '~/tests/helpers/db';

/*
 * Issue 30 item 3 (decision 040): sealed values name their key and are bound to their tenant and
 * column; `rotate-key` re-seals them while the old key still opens; no entry starts on PostgreSQL
 * without SECRET_KEY.
 */
const root = path.resolve(import.meta.dirname, '../..');
const OLD = randomBytes(32).toString('base64url');
const NEW = randomBytes(32).toString('base64url');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-keys-'));
const useKeys = (env: Record<string, string>) =>
  setConfig(parseConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...env }));
const CREDENTIALS = { accessToken: 'access-a', refreshToken: 'refresh-a' };

/** The format before key ids (v1) as the old secret-box wrote it, with the bare key. */
function sealV1(plaintext: string, secret: string): string {
  const iv = randomBytes(12);
  const key = Buffer.from(hkdfSync('sha256', secret, 'ordo', 'integration-secrets', 32));
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', ...[iv, cipher.getAuthTag(), body].map((p) => p.toString('base64url'))].join('.');
}

let db: Database;
let a: Tenant;
let b: Tenant;
let adminA: string;

beforeAll(async () => {
  db = await openTestDatabase();
  await loadRegistry({});
  useKeys({ SECRET_KEY: OLD });
  a = (await getTenantBySlug((await createTestTenant('keys-a')).slug))!;
  b = (await getTenantBySlug((await createTestTenant('keys-b')).slug))!;
  await withTenant(a, (trx) => saveErpCredentials(trx, CREDENTIALS));
  // a TOTP secret as the version before key ids sealed it
  await withTenant(a, async (trx) => {
    adminA = (await trx('users').orderBy('created_at').first('id')).id;
    await trx('user_mfa').insert({ user_id: adminA, secret_sealed: sealV1('JBSWY3DPEHPK3PXP', OLD) });
  });
});

afterAll(async () => {
  await db.close();
});

const erpSealed = (t: Tenant) =>
  withTenant(t, async (trx) => (await trx('erp_connection').first('credentials')).credentials as string | null);
const mfaSealed = () =>
  withTenant(a, async (trx) => (await trx('user_mfa').where({ user_id: adminA }).first('secret_sealed')).secret_sealed);

describe('[platform] sealed secrets: tenant binding and key rotation', () => {
  it("refuses a sealed value copied into another tenant's row", async () => {
    const fromA = await erpSealed(a);
    expect(fromA).toMatch(/^v2\.[0-9a-f]{8}\./);
    await withTenant(b, (trx) => trx('erp_connection').update({ credentials: fromA }));
    expect((await withTenant(b, readErpConnection)).credentials).toBeNull();
    expect((await withTenant(a, readErpConnection)).credentials).toEqual(CREDENTIALS);
    // and in another column of the same tenant
    expect(() => open(fromA!, mfaSecretContext(a.id, adminA))).toThrow();
    await withTenant(b, (trx) => trx('erp_connection').update({ credentials: null }));
  });

  it('opens with the old and the new key while both are given, re-seals everything once, then needs only the new key', async () => {
    useKeys({ SECRET_KEY: NEW, SECRET_KEYS_OLD: OLD });
    expect((await withTenant(a, readErpConnection)).credentials).toEqual(CREDENTIALS);
    expect(open(await mfaSealed(), mfaSecretContext(a.id, adminA))).toBe('JBSWY3DPEHPK3PXP');

    const first = await rotateKeys(keyRing(), [a.slug, b.slug]);
    const ofA = first.find((r) => r.slug === a.slug)!;
    expect(ofA.error).toBeUndefined();
    expect(ofA.resealed).toMatchObject({ 'erp_connection.credentials': 1, 'user_mfa.secret_sealed': 1 });
    expect(first.find((r) => r.slug === b.slug)).toMatchObject({ current: 0 });
    const newId = keyRing().current.id;
    expect(await erpSealed(a)).toMatch(new RegExp(`^v2\\.${newId}\\.`));
    expect(await mfaSealed()).toMatch(new RegExp(`^v2\\.${newId}\\.`));

    // idempotent: nothing left to re-seal
    const again = await rotateKeys(keyRing(), [a.slug]);
    expect(Object.values(again[0]!.resealed).every((n) => n === 0)).toBe(true);
    expect(again[0]!.current).toBe(2);

    // the old key retired: everything still opens
    useKeys({ SECRET_KEY: NEW });
    expect((await withTenant(a, readErpConnection)).credentials).toEqual(CREDENTIALS);
    expect(open(await mfaSealed(), mfaSecretContext(a.id, adminA))).toBe('JBSWY3DPEHPK3PXP');
  });

  it('knows every column named *_sealed', async () => {
    const { rows } = await db.knex.raw(
      `select table_name || '.' || column_name as name from information_schema.columns
        where table_schema = ? and column_name like '%\\_sealed'`,
      [a.schemaName],
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const listed = SEALED_COLUMNS.map((c) => c.name);
    for (const { name } of rows as { name: string }[]) expect(listed).toContain(name);
  });

  it('leaves a tenant unchanged when one of its values opens with no known key, and says so', async () => {
    useKeys({ SECRET_KEY: OLD });
    await withTenant(b, (trx) => saveErpCredentials(trx, CREDENTIALS));
    useKeys({ SECRET_KEY: randomBytes(32).toString('base64url') });
    const [ofB] = await rotateKeys(keyRing(), [b.slug]);
    expect(ofB!.error).toMatch(/unknown key/);
  });
});

describe('[platform] no entry starts on PostgreSQL without SECRET_KEY', () => {
  const entries: [string, string[]][] = [
    ['the worker', ['--import', 'tsx', 'server/worker.ts']],
    ['the tenant CLI', ['--import', 'tsx', 'tenants/cli.ts', 'list']],
  ];
  for (const [name, args] of entries)
    for (const nodeEnv of ['development', 'production'])
      it(`${name} (NODE_ENV=${nodeEnv}) refuses with a clear message`, () => {
        const env: NodeJS.ProcessEnv = {
          ...process.env,
          NODE_ENV: nodeEnv,
          DATABASE_URL: 'postgres://postgres@127.0.0.1:1/ordo',
          DATA_DIR: dataDir,
        };
        delete env.SECRET_KEY;
        const run = spawnSync(process.execPath, args, { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
        expect(run.status).toBe(1);
        expect(run.stderr).toContain('SECRET_KEY: is required on PostgreSQL (DATABASE_URL)');
      });
});
