import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '~/core/auth/password';
import { parseConfig } from '~/core/config/env';
import { withTenant } from '~/core/db/with-tenant';
import { DEMO, ensureDemoTenant, isLoopback } from '~/tenants/demo';
import { getTenantBySlug } from '~/tenants/registry';
import { startTestServer, type TestServer } from '~/tests/helpers/app';
import { uniqueSlug } from '~/tests/helpers/db';

/** Issue 30 item 4: the README's demo password opens the demo only on a server this machine alone reaches. */
let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer();
}, 120_000);
afterAll(() => srv?.close());

const demoHashes = async (slug: string) => {
  const tenant = (await getTenantBySlug(slug))!;
  return withTenant(tenant, async (trx) =>
    (
      await trx('users')
        .whereIn('email', [DEMO.admin.email, ...DEMO.users.map((u) => u.email)])
        .select('password_hash')
    ).map((r: { password_hash: string }) => r.password_hash),
  );
};
const allAccept = async (hashes: string[], password: string) =>
  (await Promise.all(hashes.map((h) => verifyPassword(h, password)))).every(Boolean);
const noneAccepts = async (hashes: string[], password: string) =>
  !(await Promise.all(hashes.map((h) => verifyPassword(h, password)))).some(Boolean);

describe('[demo] the published password', () => {
  it('knows loopback addresses, and the embedded database listens on loopback unless told otherwise', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST'])
      expect(isLoopback(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.10', 'ordo.example', '128.0.0.1']) expect(isLoopback(h)).toBe(false);
    expect(parseConfig({}).HOST).toBe('127.0.0.1');
    expect(parseConfig({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(parseConfig({ DATABASE_URL: 'postgres://db/ordo', SECRET_KEY: 'k'.repeat(40) }).HOST).toBe('0.0.0.0');
  });

  it('works on loopback; beyond it every demo user gets a generated password, printed once', async () => {
    const slug = uniqueSlug('demopw');
    const where = { slug, hosts: [`${slug}.ordo.test`] };
    const onLoopback = await ensureDemoTenant(where, { loopback: true });
    expect(onLoopback).toMatchObject({ created: true, published: true, password: DEMO.admin.password });
    expect(await allAccept(await demoHashes(slug), DEMO.admin.password)).toBe(true);

    const exposed = await ensureDemoTenant(where, { loopback: false });
    expect(exposed.published).toBe(false);
    expect(exposed.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const hashes = await demoHashes(slug);
    expect(hashes).toHaveLength(1 + DEMO.users.length);
    expect(await noneAccepts(hashes, DEMO.admin.password)).toBe(true);
    expect(await allAccept(hashes, exposed.password!)).toBe(true);

    // the next start beyond loopback prints no password: it was shown once and is not kept
    expect(await ensureDemoTenant(where, { loopback: false })).toMatchObject({ password: null, published: false });
    expect(await allAccept(await demoHashes(slug), exposed.password!)).toBe(true);
  }, 120_000);
});
