import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preparedInTenant, withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer } from '~/tests/helpers/app';

let srv: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  srv = await startTestServer();
  tenant = (await getTenantBySlug((await createTestTenant('plans')).slug))!;
});
afterAll(() => srv.close());

/**
 * PostgreSQL folds a CASE arm whose test is a known constant and leaves the other arms alone, so
 * with $1 = 0 a plan made for the value answers 1, while a generic plan (the value unknown) folds
 * the constant `1/0` of the other arm and fails with "division by zero" while planning.
 */
const PLANNED_FOR_ITS_VALUE = 'select case when ?::int = 0 then 1 else 1/0 end as v';

describe('[platform] query plans in a tenant unit of work (decision 047)', () => {
  it('plans a parameterised statement for its values, not generically', async () => {
    const row = await withTenant(tenant, async (trx) => {
      const { rows } = await trx.raw(
        `select current_setting('plan_cache_mode') as mode, ${PLANNED_FOR_ITS_VALUE.slice(7)}`,
        [0],
      );
      return rows[0] as { mode: string; v: number };
    });
    expect(row.mode).toBe('auto');
    expect(row.v).toBe(1);
  });

  it('scopes the unit of work to its schema, the SSD page cost and no JIT compilation', async () => {
    const inside = await withTenant(tenant, async (trx) => {
      const { rows } = await trx.raw(
        `select current_setting('search_path') as path, current_setting('random_page_cost') as cost,
                current_setting('jit') as jit`,
      );
      return rows[0] as { path: string; cost: string; jit: string };
    });
    expect(inside.path).toContain(tenant.schemaName);
    expect(inside.cost).toBe('1.1');
    expect(inside.jit).toBe('off');
  });

  it('still runs a named prepared statement by ids, the same answer on every call', async () => {
    const answers = await withTenant(tenant, async (trx) => {
      const out: unknown[] = [];
      // beyond the five calls after which PostgreSQL may keep a generic plan for it
      for (let i = 0; i < 8; i++)
        out.push(
          await preparedInTenant<{ n: number }>(
            trx,
            tenant,
            { name: 'plans-test-users', sql: 'select count(*)::int as n from users where id <> all(?::uuid[])' },
            [[]],
          ),
        );
      return out;
    });
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect((answers[0] as { n: number }[])[0]!.n).toBeGreaterThanOrEqual(2);
  });
});
