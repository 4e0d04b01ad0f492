/**
 * Issue 33 item 6's figures (decision 056), each beside a baseline measured in the same run:
 * - a price file of BENCH_CATALOGUE_ROWS (300,000) rows loaded by the import job (read from the file
 *   store, parsed, checked, inserted 5,000 at a time, swapped in), target >= 20,000 rows/s; beside
 *   it, a bare `COPY` (psql's \copy) of the same rows, already in the table's shape, into the same
 *   table and indexes; the process's RSS before, at its highest while loading, and after;
 * - catalogue search (the service, one unit of work) at BENCH_CATALOGUE_SEARCH_ROWS (1,000,000)
 *   rows, target p95 <= 50 ms; beside it the same statements as raw SQL.
 * Runs in-process on the bench database, in a tenant of its own made fresh each run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchAuth } from './bench-auth';
import { parseConfig, setConfig } from '~/core/config/env';
import { withTenant } from '~/core/db/with-tenant';
import { getFileStore } from '~/core/files/store';
import { openRuntime } from '~/core/runtime/boot';
import { executeImport } from '~/core/supplier-catalogues/catalogue-import';
import { catalogueProducts, searchCatalogue } from '~/core/supplier-catalogues/catalogue.service';
import { inTenant } from '~/core/unit-of-work';
import { provisionTenant } from '~/tenants/provision';
import { getTenantBySlug } from '~/tenants/registry';

const ROWS = Number(process.env.BENCH_CATALOGUE_ROWS ?? 300_000);
const SEARCH_ROWS = Number(process.env.BENCH_CATALOGUE_SEARCH_ROWS ?? 1_000_000);
const SEARCH_RUNS = Number(process.env.BENCH_CATALOGUE_SEARCH_RUNS ?? 20);
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

const WORDS = ['Kabel', 'Dosa', 'Rör', 'Kopplingsplint', 'Säkring', 'Relä', 'Detektor', 'Skruv', 'Kontakt', 'Brytare'];
const title = (i: number) =>
  `${WORDS[i % WORDS.length]} ${(i * 7919) % 100_003} typ ${String.fromCharCode(65 + (i % 26))}${i % 97}`;

/** The wholesaler's file (semicolons, comma decimals) and the same rows in the table's shape for COPY. */
async function writeFiles(dir: string, importId: string, supplierId: string): Promise<{ csv: string; copy: string }> {
  const csv = path.join(dir, 'prices.csv');
  const copy = path.join(dir, 'copy.csv');
  const a = fs.createWriteStream(csv);
  const b = fs.createWriteStream(copy);
  a.write('Artikelnr;Benämning;Enhet;Nettopris;Rek. pris;Rabattgrupp\n');
  const write = (s: fs.WriteStream, text: string) =>
    s.write(text) ? Promise.resolve() : new Promise<void>((r) => s.once('drain', () => r()));
  for (let i = 0; i < ROWS; i++) {
    const number = `A${String(i).padStart(7, '0')}`;
    const price = `${10 + (i % 5000)}.${String(i % 100).padStart(2, '0')}`;
    const rec = `${20 + (i % 9000)}.00`;
    const group = `G${i % 40}`;
    await write(a, `${number};${title(i)};st;${price.replace('.', ',')};${rec.replace('.', ',')};${group}\n`);
    await write(b, `${importId};${supplierId};${number};${title(i)};st;${price};${rec};${group}\n`);
  }
  await Promise.all([new Promise((r) => a.end(r)), new Promise((r) => b.end(r))]);
  return { csv, copy };
}

async function newImport(
  tenant: Parameters<typeof withTenant>[0],
  supplierId: string,
  storageKey: string,
  size: number,
  status: string,
) {
  return withTenant(tenant, async (trx) => {
    const [row] = (await trx('supplier_catalogue_imports')
      .insert({
        supplier_id: supplierId,
        kind: 'prices',
        status,
        storage_key: storageKey,
        file_name: 'prices.csv',
        file_size: size,
        file_format: 'csv',
        preview: JSON.stringify({ rows: [], dialect: { encoding: 'utf8', delimiter: ';' } }),
        mapping: JSON.stringify({
          header: true,
          columns: { articleNumber: 0, title: 1, unit: 2, purchasePrice: 3, recommendedPrice: 4, discountGroup: 5 },
        }),
      })
      .returning('id')) as { id: string }[];
    return row!.id;
  });
}

export async function catalogueBench(url: string): Promise<string[]> {
  const config = setConfig(
    parseConfig({
      DATABASE_URL: url,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0000',
    }),
  );
  const runtime = await openRuntime(config);
  const lines: string[] = [];
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ordo-catalogue-bench-'));
  try {
    const slug = `bench-cat-${Date.now().toString(36)}`;
    await provisionTenant({
      slug,
      name: 'Katalog Bench AB',
      hosts: [`${slug}.localhost`],
      adminEmail: `admin@${slug}.se`,
      adminPassword: 'bench-password-1',
    });
    const tenant = (await getTenantBySlug(slug))!;
    const { supplierId, copySupplierId, admin } = await withTenant(tenant, async (trx) => {
      const [s] = (await trx('suppliers').insert({ number: '2001', title: 'Grossist' }).returning('id')) as {
        id: string;
      }[];
      const [c] = (await trx('suppliers').insert({ number: '2002', title: 'COPY' }).returning('id')) as {
        id: string;
      }[];
      await trx('supplier_catalogues').insert([{ supplier_id: s!.id }, { supplier_id: c!.id }]);
      const user = await trx('users')
        .where({ email: `admin@${slug}.se` })
        .first('id', 'email', 'name');
      return { supplierId: s!.id, copySupplierId: c!.id, admin: user };
    });

    // the import: the file in the store, then the job's body, timed, with the process's memory
    const copyImport = await newImport(tenant, copySupplierId, 'none', 0, 'done');
    const files = await writeFiles(dir, copyImport, copySupplierId);
    const size = (await fs.promises.stat(files.csv)).size;
    const key = `${tenant.schemaName}/bench-prices`;
    await getFileStore().put(key, fs.createReadStream(files.csv), { contentType: 'text/csv' });
    const importId = await newImport(tenant, supplierId, key, size, 'queued');
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
    const t0 = performance.now();
    await executeImport(tenant, importId);
    const importMs = performance.now() - t0;
    clearInterval(sampler);
    const rssAfter = process.memoryUsage().rss;
    const done = await withTenant(tenant, (trx) =>
      trx('supplier_catalogue_imports').where({ id: importId }).first('status', 'rows_done', 'error'),
    );
    if (done.status !== 'done') throw new Error(`the bench import did not finish: ${JSON.stringify(done)}`);

    // the bare COPY of the same rows into the same table and indexes (psql's start is in the time: ~20 ms)
    const t1 = performance.now();
    const copy = spawnSync(
      'psql',
      [
        url,
        '-v',
        'ON_ERROR_STOP=1',
        '-c',
        `set search_path to ${tenant.schemaName}, public`,
        '-c',
        `\\copy supplier_catalogue_articles (import_id, supplier_id, article_number, title, unit, purchase_price, recommended_price, discount_group) from '${files.copy}' with (format csv, delimiter ';')`,
      ],
      { encoding: 'utf8' },
    );
    const copyMs = performance.now() - t1;
    if (!copy.error && copy.status !== 0) throw new Error(`psql \\copy failed: ${copy.stderr}`);
    const copyLine = copy.error
      ? 'bare COPY: psql not found'
      : `bare COPY ${ms(copyMs)} = ${Math.round(ROWS / (copyMs / 1000)).toLocaleString('en')} rows/s  x COPY ${(importMs / copyMs).toFixed(2)}`;
    lines.push(
      `catalogues  import ${ROWS.toLocaleString('en')} rows (target >= 20,000 rows/s)  ${ms(importMs)} = ${Math.round(ROWS / (importMs / 1000)).toLocaleString('en')} rows/s  ${copyLine}`,
      `catalogues  import memory (RSS)  before ${mb(rssBefore)}  peak ${mb(rssPeak)}  after ${mb(rssAfter)}  file ${mb(size)}`,
    );

    // search at SEARCH_ROWS: the catalogue grown by SQL to that size, analysed, then queried
    await withTenant(tenant, async (trx) => {
      await trx.raw(
        `insert into supplier_catalogue_articles
           (import_id, supplier_id, article_number, title, unit, purchase_price, recommended_price, discount_group)
         select ?, ?, 'B' || lpad(g::text, 7, '0'),
                (array['Kabel','Dosa','Rör','Kopplingsplint','Säkring','Relä','Detektor','Skruv','Kontakt','Brytare'])[1 + g % 10]
                  || ' ' || ((g::bigint * 7919) % 100003) || ' typ ' || chr(65 + g % 26) || (g % 97),
                'st', 10 + g % 5000, 20 + g % 9000, 'G' || (g % 40)
           from generate_series(1, ?) g`,
        [importId, supplierId, Math.max(0, SEARCH_ROWS - ROWS)],
      );
      await trx.raw(`update supplier_catalogues set article_count = ? where supplier_id = ?`, [
        SEARCH_ROWS,
        supplierId,
      ]);
      await trx.raw(
        `insert into supplier_catalogue_discounts (supplier_id, discount_group, percent)
         select ?, 'G' || g, g from generate_series(0, 39) g`,
        [supplierId],
      );
    });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`analyze ${tenant.schemaName}.supplier_catalogue_articles`);
    const scope = { tenant, auth: benchAuth(admin), lang: 'sv' as const };
    const queries = ['kabel', 'A0012', 'relä 4711', 'typ K3', '', 'B0999', 'zzz-none'];
    const serviceMs: number[] = [];
    const rawMs: number[] = [];
    const productsMs: number[] = [];
    for (let run = 0; run < SEARCH_RUNS; run++)
      for (const q of queries) {
        const page = 1 + (run % 5);
        let t = performance.now();
        await inTenant(scope, (ctx) => searchCatalogue(ctx, { supplierId, q, page, pageSize: 20 }));
        serviceMs.push(performance.now() - t);
        if (q.length >= 2) {
          t = performance.now();
          await inTenant(scope, (ctx) => catalogueProducts(ctx, { q, limit: 10 }));
          productsMs.push(performance.now() - t);
        }
        // the same statements as raw SQL in one transaction
        const like = `%${q.toLowerCase()}%`;
        const where = q ? `a.import_id = $1 and a.search_text like $2` : `a.import_id = $1`;
        const params: unknown[] = q ? [importId, like] : [importId];
        t = performance.now();
        await client.query('begin');
        await client.query(`select set_config('search_path', $1, true)`, [`${tenant.schemaName}, public`]);
        await client.query(`select current_import_id from supplier_catalogues where supplier_id = $1`, [supplierId]);
        await client.query(
          `select a.id, a.article_number, a.title, a.purchase_price, d.percent, a.recommended_price
             from supplier_catalogue_articles a
             left join supplier_catalogue_discounts d on d.supplier_id = a.supplier_id and d.discount_group = a.discount_group
            where ${where} order by a.article_number, a.id limit 20 offset ${(page - 1) * 20}`,
          params,
        );
        // the capped count (none without q: the catalogue keeps its count)
        if (q)
          await client.query(
            `select count(*) from (select 1 from supplier_catalogue_articles a where ${where} limit 1001) m`,
            params,
          );
        await client.query('commit');
        rawMs.push(performance.now() - t);
      }
    await client.end();
    lines.push(
      `catalogues  search ${SEARCH_ROWS.toLocaleString('en')} rows (target p95 <= 50 ms)  /supplierinventory/query/articles p95 ${ms(p95(serviceMs))}  raw SQL p95 ${ms(p95(rawMs))}  x raw SQL ${(p95(serviceMs) / p95(rawMs)).toFixed(1)}  /sbsc/products p95 ${ms(p95(productsMs))}`,
    );
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
    await runtime.close();
  }
  return lines;
}
