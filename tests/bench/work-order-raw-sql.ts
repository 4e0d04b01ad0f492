/**
 * The raw-SQL floor of the work-order list and map cases (issue 30, item 9): the statements the
 * services send for a case, captured once in-process, then run again on a bare `pg` client (one
 * transaction with the tenant's settings, the same bind parameters) and timed. A case's p95 through
 * the app sits beside this floor in the bench, so the ratio shows what the app adds to its SQL.
 *
 * `planCacheMode` runs the same statements planned generically (`force_generic_plan`) or per call
 * (`auto`: an unnamed statement is planned for its values), which is how decision 047 was measured.
 */
import pg from 'pg';
import type { Auth, Ctx } from '~/core/context';
import { getDatabase, withTenant } from '~/core/db/with-tenant';
import { PERMISSIONS } from '~/core/permissions/permissions';
import { listWorkOrders } from '~/core/work-orders/work-order-list.service';
import { listWorkOrderMarkers } from '~/core/work-orders/work-order-map.service';
import { workOrdersByIdsSql } from '~/core/work-orders/work-order-read';
import { getTenantBySlug } from '~/tenants/registry';
import { parseConfig, setConfig } from '~/core/config/env';
import { openRuntime } from '~/core/runtime/boot';
import { benchSecretKey } from './bench-db';
import type { WorkOrderFixtures } from './work-order-scenarios';

export interface Statement {
  sql: string;
  bindings: unknown[];
}

function benchAuth(admin: string): Auth {
  return {
    sessionId: 'raw-sql',
    user: {
      id: admin,
      email: 'admin@bench.se',
      fullName: 'Admin',
      shortName: null,
      initials: 'A',
      userType: 'super',
      language: null,
      startPage: 'workorders',
    },
    perms: new Set(PERMISSIONS),
    modules: new Set(['maps']),
    limit: 'none',
    mustEnrollMfa: false,
  };
}

/**
 * The statements of each case as the services send them (`?` placeholders numbered as `$n`), on an
 * open runtime. `kind` picks the service: the list (GET /wo) or the map's markers. The list's page of
 * orders by id is a prepared statement knex does not report: it is added as it is sent.
 */
export async function captureStatements(
  fixtures: WorkOrderFixtures,
  cases: Record<string, string>,
  kind: 'list' | 'map',
): Promise<Record<string, Statement[]>> {
  const tenant = (await getTenantBySlug('bench'))!;
  const auth = benchAuth(fixtures.admin);
  const knex = getDatabase().knex;
  const out: Record<string, Statement[]> = {};
  let captured: Statement[] = [];
  const onQuery = (q: { sql: string; bindings?: readonly unknown[] }) => {
    if (!/^\s*select/i.test(q.sql) || /set_config\(/.test(q.sql)) return;
    captured.push({ sql: q.sql, bindings: [...(q.bindings ?? [])] });
  };
  knex.on('query', onQuery);
  try {
    for (const [name, qs] of Object.entries(cases)) {
      captured = [];
      const raw = Object.fromEntries(new URLSearchParams(qs));
      await withTenant(tenant, async (trx) => {
        const ctx: Ctx = { trx, tenant, auth, lang: 'sv', now: new Date() };
        if (kind === 'map') return void (await listWorkOrderMarkers(ctx, raw));
        const { workOrders } = await listWorkOrders(ctx, raw);
        if (workOrders.length) {
          let n = 0;
          const text = workOrdersByIdsSql(trx).replace(/\?/g, () => `$${++n}`);
          captured.push({ sql: text, bindings: [workOrders.map((w) => w.id)] });
        }
      });
      out[name] = captured;
    }
  } finally {
    knex.off('query', onQuery);
  }
  return out;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};

/**
 * Runs `statements` `runs` times (after 3 unmeasured) on a bare client, each run one transaction
 * scoped as the app scopes it, and answers the p50 and p95 of a run's statements in milliseconds.
 */
export async function timeRawStatements(
  url: string,
  schema: string,
  statements: Statement[],
  options: { runs: number; planCacheMode?: 'auto' | 'force_generic_plan' | 'force_custom_plan' },
): Promise<{ p50ms: number; p95ms: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const times: number[] = [];
    for (let i = 0; i < options.runs + 3; i++) {
      await client.query('begin');
      await client.query(
        `select set_config('search_path', $1, true), set_config('random_page_cost', '1.1', true),
                set_config('jit', 'off', true), set_config('plan_cache_mode', $2, true)`,
        [`"${schema}"`, options.planCacheMode ?? 'auto'],
      );
      const started = performance.now();
      for (const st of statements) await client.query(st.sql, st.bindings);
      const ms = performance.now() - started;
      await client.query('commit');
      if (i >= 3) times.push(ms);
    }
    return { p50ms: +pct(times, 50).toFixed(2), p95ms: +pct(times, 95).toFixed(2) };
  } finally {
    await client.end();
  }
}

/**
 * Each case's raw-SQL floor (p50/p95 of its statements on a bare client, planned as the app plans
 * them), captured on a runtime opened here and closed before the timing.
 */
export async function rawBaselines(
  url: string,
  fixtures: WorkOrderFixtures,
  cases: Record<string, string>,
  kind: 'list' | 'map',
  runs: number,
): Promise<Record<string, { p50ms: number; p95ms: number }>> {
  const runtime = await openRuntime(
    setConfig(
      parseConfig({ DATABASE_URL: url, NODE_ENV: 'development', LOG_LEVEL: 'warn', SECRET_KEY: benchSecretKey() }),
    ),
  );
  let captured: Record<string, Statement[]>;
  try {
    captured = await captureStatements(fixtures, cases, kind);
  } finally {
    await runtime.close();
  }
  const out: Record<string, { p50ms: number; p95ms: number }> = {};
  for (const [name, statements] of Object.entries(captured))
    out[name] = await timeRawStatements(url, 't_bench', statements, { runs });
  return out;
}
