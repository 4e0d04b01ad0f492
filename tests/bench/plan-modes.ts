/**
 * `node --import tsx tests/bench/plan-modes.ts` on the seeded bench tenant (run.ts or
 * explain-work-orders.ts seeds it): the work-order list's and map's statements of every case, run
 * on a bare client planned generically (`force_generic_plan`) and per call (`auto`), p50/p95 of each
 * (decision 047). BENCH_DATABASE_URL as run.ts; PLAN_FILTER=<substring of a case name>;
 * PLAN_RUNS (30).
 */
import pg from 'pg';
import { openRuntime } from '~/core/runtime/boot';
import { parseConfig, setConfig } from '~/core/config/env';
import { BENCH_URL, benchSecretKey } from './bench-db';
import { listScenarios, loadFixtures, mapScenarios } from './work-order-scenarios';
import { captureStatements, timeRawStatements, type Statement } from './work-order-raw-sql';

/** EXPLAIN ANALYZE of one statement planned for its values, on a bare client scoped as the app's. */
async function explain(st: Statement): Promise<string> {
  const client = new pg.Client({ connectionString: BENCH_URL });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(
      `select set_config('search_path', 't_bench', true), set_config('random_page_cost', '1.1', true)`,
    );
    const { rows } = await client.query(`explain (analyze, buffers) ${st.sql}`, st.bindings);
    await client.query('rollback');
    return rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

async function main() {
  const fixtures = await loadFixtures(BENCH_URL);
  const runtime = await openRuntime(
    setConfig(
      parseConfig({
        DATABASE_URL: BENCH_URL,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        SECRET_KEY: benchSecretKey(),
      }),
    ),
  );
  const only = process.env.PLAN_FILTER;
  const runs = Number(process.env.PLAN_RUNS ?? 30);
  const pick = (cases: Record<string, string>) =>
    Object.fromEntries(Object.entries(cases).filter(([name]) => !only || name.includes(only)));
  try {
    const captured = {
      ...Object.fromEntries(
        Object.entries(await captureStatements(fixtures, pick(listScenarios(fixtures)), 'list')).map(([k, v]) => [
          `wo ${k}`,
          v,
        ]),
      ),
      ...Object.fromEntries(
        Object.entries(await captureStatements(fixtures, pick(mapScenarios(fixtures)), 'map')).map(([k, v]) => [
          `map ${k}`,
          v,
        ]),
      ),
    };
    const rows: Record<string, unknown>[] = [];
    if (process.env.PLAN_EXPLAIN === '1') {
      for (const [name, statements] of Object.entries(captured))
        for (const st of statements) console.log(`\n== ${name}\n${await explain(st)}`);
      return;
    }
    for (const [name, statements] of Object.entries(captured)) {
      const generic = await timeRawStatements(BENCH_URL, 't_bench', statements, {
        runs,
        planCacheMode: 'force_generic_plan',
      });
      const custom = await timeRawStatements(BENCH_URL, 't_bench', statements, { runs, planCacheMode: 'auto' });
      const row = {
        case: name,
        statements: statements.length,
        genericP50: generic.p50ms,
        genericP95: generic.p95ms,
        customP50: custom.p50ms,
        customP95: custom.p95ms,
      };
      rows.push(row);
      console.error(JSON.stringify(row)); // progress
    }
    console.table(rows);
  } finally {
    await runtime.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
