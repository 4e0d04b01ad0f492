/**
 * `node --import tsx tests/bench/explain-work-orders.ts` (seeds the bench tenant as run.ts does): runs the
 * work-order list service for every filter and sort of GET /wo (work-order-scenarios.ts) on the
 * seeded bench tenant, and prints each statement's plan (EXPLAIN ANALYZE), its time, which
 * indexes it uses, and a flag when it reads `work_orders` (or its assignees/tags) by a seq scan
 * (a seq scan under a LIMIT, which stops once it has the capped count's rows, is told apart).
 *
 *   BENCH_DATABASE_URL (as run.ts), EXPLAIN_FILTER=<substring of a scenario name>,
 *   EXPLAIN_PLANS=1 prints the full text plans too.
 * Exits non-zero when a statement seq-scans work_orders without a LIMIT to stop it.
 */
import type { Knex } from 'knex';
import { openRuntime } from '~/core/runtime/boot';
import { getDatabase, withTenant } from '~/core/db/with-tenant';
import type { Auth, Ctx } from '~/core/context';
import { PERMISSIONS } from '~/core/permissions/permissions';
import { listWorkOrders } from '~/core/work-orders/work-order-list.service';
import { getTenantBySlug } from '~/tenants/registry';
import { parseConfig, setConfig } from '~/core/config/env';
import { BENCH_URL, benchSecretKey, seed } from './bench-db';
import { listScenarios, loadFixtures } from './work-order-scenarios';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Visits every node, saying whether a LIMIT above it stops it early (no sort or hash between). */
function walk(node: PlanNode, visit: (n: PlanNode, limited: boolean) => void, limited = false) {
  visit(node, limited);
  const next =
    node['Node Type'] === 'Limit' ? true : ['Sort', 'Hash', 'Aggregate'].includes(node['Node Type']) ? false : limited;
  for (const child of node.Plans ?? []) walk(child, visit, next);
}

const WATCHED = new Set(['work_orders', 'work_order_assignees', 'work_order_tags', 'customers']);

async function main() {
  await seed(BENCH_URL);
  const fixtures = await loadFixtures(BENCH_URL);
  const config = setConfig(
    parseConfig({ DATABASE_URL: BENCH_URL, NODE_ENV: 'development', LOG_LEVEL: 'warn', SECRET_KEY: benchSecretKey() }),
  );
  const runtime = await openRuntime(config);
  const only = process.env.EXPLAIN_FILTER;
  const full = process.env.EXPLAIN_PLANS === '1';
  let seqScans = 0;
  try {
    const tenant = (await getTenantBySlug('bench'))!;
    const auth: Auth = {
      sessionId: 'explain',
      user: {
        id: fixtures.admin,
        email: 'admin@bench.se',
        fullName: 'Admin',
        shortName: null,
        initials: 'A',
        userType: 'super',
        language: null,
        startPage: 'workorders',
      },
      perms: new Set(PERMISSIONS),
      modules: new Set(),
      limit: 'none',
      mustEnrollMfa: false,
    };
    const knex = getDatabase().knex;
    const captured: { sql: string; bindings: readonly unknown[] }[] = [];
    const onQuery = (q: { sql: string; bindings?: readonly unknown[] }) => {
      if (!/^\s*select/i.test(q.sql) || /set_config\('search_path'/.test(q.sql)) return;
      // knex reports the native text ($1, $2, … in order); raw() takes ? placeholders
      captured.push({ sql: q.sql.replace(/\$\d+/g, '?'), bindings: q.bindings ?? [] });
    };
    knex.on('query', onQuery);
    const summary: Record<string, unknown>[] = [];
    for (const [name, qs] of Object.entries(listScenarios(fixtures))) {
      if (only && !name.includes(only)) continue;
      captured.length = 0;
      const raw = Object.fromEntries(new URLSearchParams(qs));
      let total = 0;
      await withTenant(tenant, async (trx) => {
        const ctx: Ctx = { trx, tenant, auth, lang: 'sv', now: new Date() };
        total = (await listWorkOrders(ctx, raw)).totalCount;
      });
      const statements = [...captured];
      knex.off('query', onQuery);
      for (const [i, st] of statements.entries()) {
        // the best of three runs: the machine is shared, and the first run may read cold pages
        const { plan, text, ms } = await withTenant(tenant, async (trx: Knex.Transaction) => {
          let best: { Plan: PlanNode; 'Execution Time': number } | undefined;
          for (let run = 0; run < 3; run++) {
            const json = await trx.raw(`explain (analyze, format json) ${st.sql}`, st.bindings as Knex.RawBinding[]);
            const p = json.rows[0]['QUERY PLAN'][0] as { Plan: PlanNode; 'Execution Time': number };
            if (!best || p['Execution Time'] < best['Execution Time']) best = p;
          }
          const txt = full ? await trx.raw(`explain ${st.sql}`, st.bindings as Knex.RawBinding[]) : null;
          return {
            plan: best!,
            ms: best!['Execution Time'],
            text: txt ? (txt.rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n') : '',
          };
        });
        const indexes = new Set<string>();
        const seq: string[] = [];
        const limitedSeq: string[] = [];
        walk(plan.Plan, (n, limited) => {
          // the indexes that decide the plan: on the orders and what filters or sorts them
          if (n['Index Name'] && !/_pkey$/.test(n['Index Name'])) indexes.add(n['Index Name']);
          if (n['Node Type'] === 'Seq Scan' && n['Relation Name'] && WATCHED.has(n['Relation Name']))
            (limited ? limitedSeq : seq).push(n['Relation Name']);
        });
        if (seq.includes('work_orders')) seqScans++;
        summary.push({
          scenario: name,
          statement: i === 0 ? 'count' : 'page',
          ms: +ms.toFixed(1),
          rows: i === 0 ? total : undefined,
          // a seq scan under LIMIT (the capped count) reads only until it has enough rows
          seqScan: seq.length
            ? `SEQ SCAN ${[...new Set(seq)].join(', ')}`
            : limitedSeq.length
              ? `seq scan under LIMIT: ${[...new Set(limitedSeq)].join(', ')}`
              : '',
          indexes: [...indexes].join(' '),
        });
        if (full) console.log(`\n== ${name} (${i === 0 ? 'count' : 'page'})\n${text}`);
      }
      knex.on('query', onQuery);
    }
    knex.off('query', onQuery);
    console.table(summary);
    console.log(seqScans ? `${seqScans} statement(s) seq-scan work_orders` : 'no statement seq-scans work_orders');
  } finally {
    await runtime.close();
  }
  process.exit(seqScans ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
