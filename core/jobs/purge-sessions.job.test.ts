import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '~/core/db/database';
import { schemaNameForSlug } from '~/core/db/identifiers';
import { migrateSchema } from '~/core/db/migrate';
import { setDatabase, withControl, withTenant } from '~/core/db/with-tenant';
import type { TenantStatus } from '~/core/tenancy/tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { tenantMigrations } from '~/migrations/tenant';
import { toTenant } from '~/tenants/registry';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';
import { runJob } from './define-job';
import { EmbeddedQueue } from './embedded-queue';
import {
  PURGE_SESSIONS_EVERY_MS,
  coreJobs,
  purgeExpiredSessionsJob,
  registerCoreSchedules,
} from './purge-sessions.job';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.close();
  setDatabase(undefined);
});

/** The lightweight tenant: a registry row and a migrated schema, without the provisioning steps. */
async function createTenant(label: string, status: TenantStatus = 'active'): Promise<Tenant> {
  const slug = uniqueSlug(label);
  const schema = schemaNameForSlug(slug);
  const [row] = await withControl((trx) =>
    trx('tenants').insert({ slug, schema_name: schema, display_name: label, status }).returning('*'),
  );
  await migrateSchema(db.knex, schema, tenantMigrations);
  return toTenant(row);
}

const HOUR = 3_600_000;

/** One user with a session in each state; returns the session ids by state. */
async function seedSessions(tenant: Tenant) {
  const now = Date.now();
  return withTenant(tenant, async (trx) => {
    const [user] = await trx('users')
      .insert({ email: `u-${tenant.slug}@example.com`, name: 'Test User' })
      .returning('id');
    const session = async (idle: number, absolute: number, revokedAgo?: number) => {
      const [s] = await trx('sessions')
        .insert({
          token_hash: randomBytes(32).toString('hex'),
          user_id: user.id,
          idle_expires_at: new Date(now + idle),
          expires_at: new Date(now + absolute),
          revoked_at: revokedAgo === undefined ? null : new Date(now - revokedAgo),
        })
        .returning('id');
      return s.id as string;
    };
    return {
      live: await session(HOUR, 10 * HOUR),
      pastAbsoluteEnd: await session(HOUR, -HOUR),
      idleTooLong: await session(-60_000, 10 * HOUR),
      revokedLongAgo: await session(HOUR, 10 * HOUR, 25 * HOUR),
      revokedRecently: await session(HOUR, 10 * HOUR, HOUR),
    };
  });
}

const sessionIds = (tenant: Tenant) =>
  withTenant(tenant, async (trx) => (await trx('sessions').select('id')).map((r: { id: string }) => r.id).sort());

describe('purgeExpiredSessionsJob', () => {
  it('deletes dead sessions in every active tenant and keeps live ones', async () => {
    const a = await createTenant('purge-a');
    const b = await createTenant('purge-b');
    const off = await createTenant('purge-off', 'disabled');
    const sa = await seedSessions(a);
    const sb = await seedSessions(b);
    const soff = await seedSessions(off);

    await runJob(purgeExpiredSessionsJob, {}, { jobId: 'test', attempt: 1 });

    // Revoked sessions stay a day for the audit trail.
    expect(await sessionIds(a)).toEqual([sa.live, sa.revokedRecently].sort());
    expect(await sessionIds(b)).toEqual([sb.live, sb.revokedRecently].sort());
    // A disabled tenant is not touched.
    expect(await sessionIds(off)).toHaveLength(Object.keys(soff).length);
  });

  it('still purges the other tenants when one fails, then fails the run so it is retried', async () => {
    const good = await createTenant('purge-good');
    const sg = await seedSessions(good);
    // An active registry row whose schema was never created: every statement in it fails.
    const brokenSlug = uniqueSlug('purge-broken');
    const [broken] = await withControl((trx) =>
      trx('tenants')
        .insert({
          slug: brokenSlug,
          schema_name: schemaNameForSlug(brokenSlug),
          display_name: 'Broken',
          status: 'active',
        })
        .returning('id'),
    );
    try {
      const outcome = await runJob(purgeExpiredSessionsJob, {}, { jobId: 'test', attempt: 1 }).then(
        () => null,
        (e: Error) => e,
      );
      expect(outcome?.message).toMatch(new RegExp(`failed for: .*${brokenSlug}`));
      expect(outcome?.message).not.toContain(good.slug);
      expect(await sessionIds(good)).toEqual([sg.live, sg.revokedRecently].sort());
    } finally {
      await withControl((trx) => trx('tenants').where({ id: broken.id }).delete());
    }
  });

  it('is scheduled every 15 minutes under one key, however often the schedule is registered', async () => {
    const queue = new EmbeddedQueue();
    await registerCoreSchedules(queue);
    await registerCoreSchedules(queue);
    const rows = await withControl((trx) => trx('jobs').where({ repeat_key: 'purge-expired-sessions' }));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ job_id: purgeExpiredSessionsJob.id, status: 'waiting' });
    expect(Number(rows[0].repeat_every_ms)).toBe(15 * 60_000);
    expect(PURGE_SESSIONS_EVERY_MS).toBe(15 * 60_000);
  });

  it('is one of the core jobs, whose ids are unique', () => {
    const ids = coreJobs.map((j) => j.id);
    expect(ids).toContain(purgeExpiredSessionsJob.id);
    expect(ids).toContain('mail.send');
    expect(new Set(ids).size).toBe(ids.length);
  });
});
