/**
 * The floor for a signed-in API call: a raw tenant transaction on a bare `pg` pool of the app's size
 * (begin, set the search path, one indexed select, commit), `clients` at a time, for `seconds`.
 */
import pg from 'pg';

export async function rawTenantTransactions(
  url: string,
  schema: string,
  options: { clients: number; seconds: number; poolMax?: number },
): Promise<{ rps: number; transactions: number }> {
  const pool = new pg.Pool({ connectionString: url, max: options.poolMax ?? 10 });
  const once = async () => {
    const c = await pool.connect();
    try {
      await c.query('begin');
      await c.query(`select set_config('search_path', $1, true)`, [`"${schema}"`]);
      await c.query('select id, email from users where id = (select id from users limit 1)');
      await c.query('commit');
    } finally {
      c.release();
    }
  };
  const run = async (seconds: number) => {
    let n = 0;
    const until = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.clients }, async () => {
        while (performance.now() < until) {
          await once();
          n++;
        }
      }),
    );
    return { n, seconds: (performance.now() - started) / 1000 };
  };
  try {
    await run(1);
    const { n, seconds } = await run(options.seconds);
    return { rps: Math.round(n / seconds), transactions: n };
  } finally {
    await pool.end();
  }
}
