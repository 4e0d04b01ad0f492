/**
 * Issue 13's proposal figures on 20,000 proposals of 30 rows each (one tenant), one request at a
 * time, each beside baselines measured in the same run on the same machine (only the ratios mean
 * anything on a shared, noisy 2-core box):
 * - open a proposal of 30 rows through the API and through the page's loader: p95 <= 50 ms server time;
 * - save a proposal with 30 rows (PUT /api/proposals, the screen's autosave: the rows by id): <= 60 ms;
 * - the list's first page with the default filter (API: active; page: active, last month): <= 40 ms;
 * - beside each, the raw SQL of the same work on a bare `pg` client (begin, search path, the
 *   statements, commit), and a bare node:http server answering a body of the same size (its
 *   client-side p95, so the ratio is the app's client p95 to it). `x raw SQL` is the app's p95
 *   server time over the raw SQL's p95, `x bare http` its client p95 over the bare server's.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { parseConfig, setConfig } from '~/core/config/env';
import { openRuntime } from '~/core/runtime/boot';
import { getDatabase, withTenant, type Trx } from '~/core/db/with-tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { benchSecretKey } from './bench-db';

/** The proposals' benchmark volume (issue 13: 20,000 proposals of 30 rows). */
export const PROPOSAL_VOLUME = { proposals: 20_000, rows: 30 };

/**
 * Fills the bench tenant with proposals in a few set-based statements (generate_series), after
 * seedRegisters (proposals point at its customers, objects and articles). Proposal n is number n,
 * created (20,000 − n) × 30 minutes ago (about 1,400 in the last month), the newest at the top of
 * the list (the lowest sort order) as createProposal puts them; three in five active, the rest accepted, accepted into a work order or
 * declined; a tag on every third. Each has 30 rows: an article row mostly (a discount on every
 * fourth, a monthly price on every seventh), a comment as every fifth and a summary as every tenth,
 * with their totals on the proposal; and a create history row. Idempotent: skipped when proposals exist.
 */
export async function seedProposals(trx: Trx, volume = PROPOSAL_VOLUME): Promise<void> {
  // monthly prices on, as the rows have them (an existing bench tenant gets this too)
  await trx('proposal_settings').update({ monthly_price: true });
  if (await trx('proposals').first('id')) return;
  const words = `array['Inbrottslarm','Kameraövervakning','Passagesystem','Brandlarm','Dörrautomatik','Porttelefon',
    'Larmöverföring','Serviceavtal']`;
  await trx.raw(
    `with c as (select array_agg(id order by customer_id) as ids from customers),
          bo as (select array_agg(id order by serial_code) as ids, array_agg(customer_id order by serial_code) as cust
                   from business_objects),
          us as (select array_agg(id order by email) as ids from users where status = 'active')
     insert into proposals (sequence_number, title, sort_order, status, customer_id, business_object_id, contact_name,
                            contact_email, contact_phone, description_intro, description, general_terms, payment_terms,
                            valid_to, create_ts, update_ts, close_ts, create_user_id, close_user_id)
     select n,
            (${words})[1 + n % 8] || ' ' || n,
            -n,
            case when n % 5 < 3 then 'active' else (array['accepted','accepted-wo','declined'])[1 + n % 3] end,
            coalesce(bo.cust[1 + n % cardinality(bo.ids)], c.ids[1 + n % cardinality(c.ids)]),
            case when n % 2 = 0 then bo.ids[1 + n % cardinality(bo.ids)] end,
            'Kontakt ' || n % 1000,
            'kontakt' || n % 1000 || '@kund.se',
            '070-' || lpad((n % 10000000)::text, 7, '0'),
            'Tack för förfrågan. Här är vårt förslag.',
            repeat('Installation och driftsättning enligt beskrivning. ', 8),
            'Allmänna villkor enligt AB 04.',
            '30 dagar netto',
            (now() - g.age * interval '30 minutes' + interval '30 days')::date,
            now() - g.age * interval '30 minutes',
            now() - g.age * interval '30 minutes' + interval '1 hour',
            case when n % 5 >= 3 then now() - g.age * interval '30 minutes' + interval '2 days' end,
            us.ids[1 + n % cardinality(us.ids)],
            case when n % 5 >= 3 then us.ids[1 + n % cardinality(us.ids)] end
     from generate_series(1, ?) n, c, bo, us, lateral (select ? - n as age) g`,
    [volume.proposals, volume.proposals],
  );
  await trx.raw(`update proposal_settings set next_sequence = greatest(next_sequence, ?)`, [volume.proposals + 1]);
  await trx.raw('analyze proposals');
  await trx.raw(
    `with ar as (select array_agg(id order by article_id) as ids, array_agg(title order by article_id) as titles,
                        array_agg(unit order by article_id) as units, array_agg(price order by article_id) as prices,
                        array_agg(purchase_price order by article_id) as purchase from articles where status = 'active')
     insert into proposal_rows (proposal_id, sort_order, comment, is_summary_row, article_id, article_title, article_unit,
                                amount, price, purchase_price, monthly_price, discount_type, discount_value,
                                total_price, monthly_total_price)
     select p.id, k,
            case when k % 5 = 0 and k % 10 <> 0 then 'Montage dagtid, rad ' || k end,
            k % 10 = 0,
            case when a.on then ar.ids[i] end,
            case when a.on then ar.titles[i] end,
            case when a.on then ar.units[i] end,
            case when a.on then 1 + k % 4 end,
            case when a.on then ar.prices[i] end,
            case when a.on then ar.purchase[i] end,
            case when a.on and k % 7 = 0 then 199 end,
            case when a.on and k % 4 = 0 then 'PERCENTAGE' end,
            case when a.on and k % 4 = 0 then 10 end,
            case when a.on then round(ar.prices[i] * (1 + k % 4) * case when k % 4 = 0 then 0.9 else 1 end, 2) else 0 end,
            case when a.on and k % 7 = 0 then 199 * (1 + k % 4) else 0 end
     from proposals p, ar, generate_series(1, ?) k,
          lateral (select k % 5 <> 0 as on, 1 + (p.sequence_number * 7 + k) % cardinality(ar.ids) as i) a`,
    [volume.rows],
  );
  await trx.raw(
    `update proposals p set total_price = r.t, total_purchase_price = r.pp, total_monthly_price = r.m
       from (select proposal_id, sum(total_price) as t, sum(coalesce(purchase_price, 0) * coalesce(amount, 0)) as pp,
                    sum(monthly_total_price) as m
               from proposal_rows where proposal_id is not null group by proposal_id) r
      where r.proposal_id = p.id`,
  );
  await trx.raw(
    `with tg as (select array_agg(id order by sort_order) as ids from tags)
     insert into proposal_tags (proposal_id, tag_id)
     select p.id, tg.ids[1 + p.sequence_number % cardinality(tg.ids)]
     from proposals p, tg where p.sequence_number % 3 = 0 and cardinality(tg.ids) > 0`,
  );
  await trx.raw(
    `insert into history (entity, entity_id, action, user_id, at, data)
     select 'proposal', p.id::text, 'create', p.create_user_id, p.create_ts,
            jsonb_build_object('sequenceNumber', p.sequence_number, 'customerId', p.customer_id)
     from proposals p`,
  );
  await trx.raw('analyze');
}

/** Seeds the proposals on the bench tenant (after bench-db's seed), with fresh statistics; idempotent. */
export async function seedProposalVolume(url: string): Promise<void> {
  const config = setConfig(
    parseConfig({ DATABASE_URL: url, NODE_ENV: 'development', LOG_LEVEL: 'warn', SECRET_KEY: benchSecretKey() }),
  );
  const runtime = await openRuntime(config);
  try {
    const tenant = (await getTenantBySlug('bench'))!;
    await withTenant(tenant, (trx) => seedProposals(trx));
    // fresh visibility maps too: the list counts from its index alone
    await getDatabase().knex.raw(
      `vacuum (analyze) ${['proposals', 'proposal_rows', 'proposal_tags'].map((t) => `"${tenant.schemaName}".${t}`).join(', ')}`,
    );
  } finally {
    await runtime.close();
  }
}

type Make = () => { method: string; path: string; headers?: Record<string, string>; body?: string };
type Measured = { p50ms: number; p95ms: number; clientP95ms: number } & Record<string, number>;

export interface ProposalsBenchTarget {
  port: number;
  token: string;
  databaseUrl: string;
  schema: string;
  requests: number;
  /** run.ts's measure: one request at a time on `port` (warm-up included), Server-Timing p50/p95 and more. */
  measure(port: number, make: Make): Promise<Measured>;
  /** One request's answer (the body). */
  fetch(req: ReturnType<Make>): Promise<{ status: number; body: string }>;
}

const BARE_SERVER = `
const http = require('node:http');
const s = http.createServer((req, res) => {
  const n = Number(req.url.split('/')[1]) || 2;
  req.resume();
  req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end('"' + 'x'.repeat(n - 2) + '"'); });
});
s.keepAliveTimeout = 65000;
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
`;

async function bareHttpServer(): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`bare node:http server exited with ${code}`)));
  });
  return { port, stop: () => child.kill('SIGTERM') };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};

/** The raw SQL the service runs for one proposal (its query and its rows). */
const PROPOSAL_SQL = `select p.*, c.name as customer_name, c.customer_id as customer_number, b.serial_code as bo_serial,
         m.name as bo_model,
         coalesce((select array_agg(t.name order by lower(t.name)) from proposal_tags pt join tags t on t.id = pt.tag_id
                    where pt.proposal_id = p.id), '{}') as tags
    from proposals p left join customers c on c.id = p.customer_id
    left join business_objects b on b.id = p.business_object_id left join models m on m.id = b.model_id`;

const ROW_COLUMNS = `proposal_id, sort_order, comment, is_summary_row, article_id, article_title, article_unit, amount, price,
  purchase_price, monthly_price, discount_type, discount_value, total_price, monthly_total_price`;

export async function proposalsBench(t: ProposalsBenchTarget): Promise<Record<string, unknown>[]> {
  const auth = { authorization: `Bearer ${t.token}` };
  const cookie = { cookie: `__Host-ordo_session=${t.token}` };
  const api =
    (path: string): Make =>
    () => ({ method: 'GET', path, headers: auth });
  const page =
    (path: string): Make =>
    () => ({ method: 'GET', path, headers: cookie });
  const json = async (path: string) => {
    const res = await t.fetch({ method: 'GET', path, headers: auth });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.body.slice(0, 200)}`);
    return JSON.parse(res.body);
  };

  // The proposals: one to open, one for the raw save, and one for each save (each saved once, at its version).
  const db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  const saves = 20 + t.requests; // run.ts's measure warms up with 20
  let ids: string[];
  let filters: { tag: string; creator: string };
  try {
    await db.query(`set search_path to "${t.schema}"`);
    ids = (
      await db.query(
        `select id from proposals where status = 'active' and (select count(*) from proposal_rows r where r.proposal_id = proposals.id) = 30
         order by sort_order, sequence_number desc limit $1`,
        [saves + 2],
      )
    ).rows.map((r: { id: string }) => r.id);
    filters = (
      await db.query(
        `select (select tag_id from proposal_tags group by tag_id order by count(*) desc limit 1) as tag,
                (select create_user_id from proposals group by create_user_id order by count(*) desc limit 1) as creator`,
      )
    ).rows[0] as { tag: string; creator: string };
  } finally {
    await db.end();
  }
  if (ids.length < saves + 2) throw new Error(`only ${ids.length} active proposals of 30 rows`);
  const [openId, rawSaveId, ...saveIds] = ids as [string, string, ...string[]];
  const opened = await json(`/api/proposals/${openId}`);
  const bodies: string[] = [];
  for (const id of saveIds) {
    const p = await json(`/api/proposals/${id}`);
    // the screen's autosave: the whole proposal as loaded, a field and a row changed, the rows by id
    p.rows[1].articleAmount = String(Number(p.rows[1].articleAmount ?? 1) + 1);
    bodies.push(JSON.stringify({ proposal: { ...p, title: `${p.title} (sparad)` } }));
  }
  let nextSave = 0;
  const save: Make = () => ({
    method: 'PUT',
    path: '/api/proposals',
    headers: { ...auth, 'content-type': 'application/json' },
    body: bodies[nextSave++]!,
  });
  const sizes = {
    open: JSON.stringify(opened).length,
    save: bodies[0]!.length,
    list: JSON.stringify(await json('/api/proposals')).length,
  };

  // Raw SQL of the same work, on a bare client, one transaction each as the app runs them.
  const raw = await rawBaselines(t, openId, rawSaveId);
  // A bare node:http server answering bodies of the same sizes.
  const bare = await bareHttpServer();
  const bareRuns: Record<keyof typeof sizes, Measured> = {} as never;
  try {
    bareRuns.open = await t.measure(bare.port, () => ({ method: 'GET', path: `/${sizes.open}` }));
    bareRuns.save = await t.measure(bare.port, () => ({
      method: 'PUT',
      path: `/${sizes.open}`,
      headers: { 'content-type': 'application/json' },
      body: bodies[0]!,
    }));
    bareRuns.list = await t.measure(bare.port, () => ({ method: 'GET', path: `/${sizes.list}` }));
  } finally {
    bare.stop();
  }

  const rows: Record<string, unknown>[] = [];
  const ratio = (x: number, base: number) => +(x / base).toFixed(2);
  const baselines = (kind: keyof typeof sizes, label: string) => {
    rows.push(
      { scenario: `raw SQL: ${label} (baseline)`, p50ms: raw[kind].p50ms, p95ms: raw[kind].p95ms },
      {
        scenario: `bare node:http: ${label}, ${sizes[kind]} bytes (baseline)`,
        clientP95ms: bareRuns[kind].clientP95ms,
        rps: bareRuns[kind].rps,
      },
    );
  };
  const one = async (scenario: string, kind: keyof typeof sizes, make: Make, limit: number) => {
    const m = await t.measure(t.port, make);
    rows.push({
      scenario,
      ...m,
      'x raw SQL': ratio(m.p95ms, raw[kind].p95ms),
      'x bare http': ratio(m.clientP95ms, bareRuns[kind].clientP95ms),
      target: m.p95ms <= limit ? 'ok' : `MISSED (${limit})`,
    });
    console.error(`${scenario}: p50 ${m.p50ms} p95 ${m.p95ms} ms, ${m.sqlP50} statements`); // progress
  };

  baselines('open', 'open a proposal of 30 rows');
  await one('API proposal, 30 rows', 'open', api(`/api/proposals/${openId}`), 50);
  await one('page /proposals/:id (loader data)', 'open', page(`/proposals/${openId}.data`), 50);
  await one('page /proposals/:id', 'open', page(`/proposals/${openId}`), 50);
  baselines('save', 'save a proposal of 30 rows');
  await one('API save proposal, 30 rows', 'save', save, 60);
  baselines('list', 'the first page of active proposals');
  await one('API proposals, first page (active)', 'list', api('/api/proposals'), 40);
  await one('page /proposals (loader data: active, last month)', 'list', page('/proposals.data'), 40);
  await one('page /proposals', 'list', page('/proposals'), 40);
  // the list with the other filters: every status, by its most used tag and by its busiest creator
  await one('API proposals, all statuses, one tag', 'list', api(`/api/proposals?status=all&tags=${filters.tag}`), 40);
  await one(
    'API proposals, all statuses, one creator',
    'list',
    api(`/api/proposals?status=all&createUserId=${filters.creator}`),
    40,
  );
  await one(
    'page /proposals (loader data: a tag, every status, all time)',
    'list',
    page(`/proposals.data?status=all&period=all&tag=${filters.tag}`),
    40,
  );
  return rows;
}

/** p50/p95 of the raw SQL of opening, saving and listing, `requests` times each after 20 to warm up. */
async function rawBaselines(t: ProposalsBenchTarget, openId: string, saveId: string) {
  const db = new pg.Client({ connectionString: t.databaseUrl });
  await db.connect();
  const tx = async (work: () => Promise<unknown>) => {
    await db.query('begin');
    await db.query(`select set_config('search_path', $1, true)`, [`"${t.schema}"`]);
    await work();
    await db.query('commit');
  };
  const time = async (work: () => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < 20 + t.requests; i++) {
      const started = performance.now();
      await tx(work);
      if (i >= 20) ms.push(performance.now() - started);
    }
    return { p50ms: +pct(ms, 50).toFixed(2), p95ms: +pct(ms, 95).toFixed(2) };
  };
  try {
    const open = await time(async () => {
      await db.query(`${PROPOSAL_SQL} where p.id = $1`, [openId]);
      await db.query(`select * from proposal_rows where proposal_id = $1 order by sort_order, id`, [openId]);
    });
    // the save: lock, the rows replaced in one insert, the totals and version
    await db.query(`set search_path to "${t.schema}"`);
    const stored = (
      await db.query(`select ${ROW_COLUMNS} from proposal_rows where proposal_id = $1 order by sort_order`, [saveId])
    ).rows as Record<string, unknown>[];
    const columns = ROW_COLUMNS.split(',').map((c) => c.trim());
    const values = stored
      .map((_, r) => `(${columns.map((_c, c) => `$${r * columns.length + c + 1}`).join(', ')})`)
      .join(', ');
    const params = stored.flatMap((row) => columns.map((c) => row[c]));
    const save = await time(async () => {
      await db.query(`select id, version from proposals where id = $1 for update`, [saveId]);
      await db.query(`delete from proposal_rows where proposal_id = $1`, [saveId]);
      await db.query(`insert into proposal_rows (${ROW_COLUMNS}) values ${values}`, params);
      await db.query(`update proposals set version = version + 1, update_ts = now() where id = $1`, [saveId]);
    });
    const list = await time(async () => {
      await db.query(`select count(*) from proposals where status = 'active'`);
      const page = await db.query(
        `select id from proposals where status = 'active' order by sort_order, sequence_number desc limit 50`,
      );
      await db.query(`${PROPOSAL_SQL} where p.id = any($1)`, [page.rows.map((r: { id: string }) => r.id)]);
    });
    return { open, save, list };
  } finally {
    await db.end();
  }
}
