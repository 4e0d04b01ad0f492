import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '~/core/db/database';
import { withTenant } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import { completeSignInLink } from '~/core/users/set-password.service';
import { authenticate } from '~/core/auth/authenticate.service';
import { tenantMigrations } from '~/migrations/tenant';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';
import { addHost, provisionTenant, removeHost } from './provision';
import { findTenantByHost, getTenantBySlug, invalidateHostCache, listTenants } from './registry';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  await loadRegistry({});
});
afterAll(() => db.close());

const policy = { idleMinutes: 30, absoluteHours: 12 };

describe('[tenants] provisioning', () => {
  it('resumes after an interruption and ends where an uninterrupted run ends', async () => {
    const slug = uniqueSlug('prov');
    const input = {
      slug,
      name: 'Resume AB',
      hosts: [`${slug}.ordo.test`],
      adminEmail: `admin@${slug}.se`,
      adminPassword: 'secret-pass-1',
    };
    const crash = { name: '9999-crash', up: async () => Promise.reject(new Error('power cut')) };
    await expect(provisionTenant(input, { migrations: [...tenantMigrations, crash] })).rejects.toThrow('power cut');
    const half = await getTenantBySlug(slug);
    expect(half).toMatchObject({ status: 'provisioning', provisionStep: 'registered' });
    expect(await findTenantByHost(`${slug}.ordo.test`)).toBeNull();

    const done = await provisionTenant(input);
    expect(done.created).toBe(true);
    expect(done.steps).toEqual(['registered', 'migrated', 'seeded', 'active']);
    invalidateHostCache();
    expect((await findTenantByHost(`${slug}.ordo.test`))?.slug).toBe(slug);

    const again = await provisionTenant(input);
    expect(again).toMatchObject({ created: false, steps: [] });
    const tenant = (await getTenantBySlug(slug))!;
    const counts = await withTenant(tenant, async (trx) => ({
      users: Number((await trx('users').count({ n: '*' }))[0]!.n),
      levels: Number((await trx('access_levels').count({ n: '*' }))[0]!.n),
    }));
    expect(counts).toEqual({ users: 1, levels: 3 });
  });

  it('issues a one-time sign-in link when no password is given; the link works once', async () => {
    const slug = uniqueSlug('link');
    const result = await provisionTenant({
      slug,
      name: 'Link AB',
      hosts: [`${slug}.ordo.test`],
      adminEmail: `boss@${slug}.se`,
    });
    expect(result.signInToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const tenant = (await getTenantBySlug(slug))!;
    const now = new Date();
    const bad = withTenant(tenant, (trx) =>
      completeSignInLink(trx, { token: result.signInToken!, now, policy }, { password: 'short', repeat: 'short' }),
    );
    await expect(bad).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const session = await withTenant(tenant, (trx) =>
      completeSignInLink(
        trx,
        { token: result.signInToken!, now, policy },
        { password: 'a-good-password', repeat: 'a-good-password' },
      ),
    );
    expect(session.token).toBeTruthy();
    const reuse = withTenant(tenant, (trx) =>
      completeSignInLink(
        trx,
        { token: result.signInToken!, now, policy },
        { password: 'another-pass', repeat: 'another-pass' },
      ),
    );
    await expect(reuse).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
    const login = await withTenant(tenant, (trx) =>
      authenticate({ trx, now, policy }, { email: `boss@${slug}.se`, password: 'a-good-password' }),
    );
    expect(login.status).toBe('success');
  });

  it('refuses a host that belongs to another tenant, and bad input, writing nothing', async () => {
    const one = uniqueSlug('h1');
    const two = uniqueSlug('h2');
    await provisionTenant({
      slug: one,
      name: 'One',
      hosts: [`${one}.ordo.test`],
      adminEmail: `a@${one}.se`,
      adminPassword: 'password-1',
    });
    await expect(
      provisionTenant({
        slug: two,
        name: 'Two',
        hosts: [`${one}.ordo.test`],
        adminEmail: `a@${two}.se`,
        adminPassword: 'password-1',
      }),
    ).rejects.toMatchObject({ code: 'HOST_TAKEN', status: 409 });
    expect(await getTenantBySlug(two)).toBeNull();
    await expect(provisionTenant({ slug: 'Bad Slug!', name: '', hosts: [], adminEmail: 'x' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      details: {
        fields: expect.objectContaining({ slug: ['ERROR_INVALID_SLUG'], adminEmail: ['ERROR_INVALID_EMAIL'] }),
      },
    });
    await expect(addHost(two, 'x.ordo.test')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await addHost(one, 'Extra.Ordo.Test');
    expect((await listTenants()).find((t) => t.slug === one)?.hosts).toContain('extra.ordo.test');
    await removeHost(one, 'extra.ordo.test');
    await expect(removeHost(one, 'extra.ordo.test')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
