/**
 * Issue 14's figures, each beside a baseline measured in the same run on the same machine:
 * - closing BENCH_INVOICES (1,000) orders queues as many deliveries (the outbox row is written in the
 *   close's transaction); beside it, the raw SQL of one bare insert per order;
 * - one worker delivers them to the local Fortnox fake at Fortnox's own limit (25 requests per 5 s),
 *   with zero 429s and zero duplicates; beside it, the least time the limit allows for the requests
 *   it needed (requests / 25 × 5 s): the ratio says how close to the limit the worker runs;
 * - the first invoice PDF after a start, cold (the request launches Chromium) and warm (the browser
 *   started with the server), beside a bare page printed right after;
 * - the invoice PDF with a warm browser: p95 <= 150 ms (>= 10 PDFs a second); beside it, the same
 *   browser printing a one-line page (htmlToPdf), so the ratio is the invoice's own cost.
 * Runs in-process on the bench database, in a tenant of its own made fresh each run.
 */
import pg from 'pg';
import { benchAuth } from './bench-auth';
import { parseConfig, setConfig } from '~/core/config/env';
import { withTenant } from '~/core/db/with-tenant';
import { closeBrowser, htmlToPdf, warmDocumentBrowser } from '~/core/documents/pdf';
import { getRegistry } from '~/core/extension-points/registry';
import { saveErpCredentials } from '~/core/invoicing/erp-connection';
import { deliverDue } from '~/core/invoicing/erp-delivery';
import { buildInvoiceDocumentModel, invoiceHtml, invoicePdf } from '~/core/invoicing/invoice-documents.service';
import { openRuntime } from '~/core/runtime/boot';
import { inTenant } from '~/core/unit-of-work';
import { closeWorkOrder } from '~/core/work-orders/close.service';
import { provisionTenant } from '~/tenants/provision';
import { getTenantBySlug } from '~/tenants/registry';
import { consentAsBrowser, fortnoxPluginOptions, startFortnoxFake } from '~/tests/fakes/fortnox';

const INVOICES = Number(process.env.BENCH_INVOICES ?? 1000);
const PDFS = Number(process.env.BENCH_INVOICE_PDFS ?? 60);

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

export async function invoicingBench(url: string): Promise<string[]> {
  const fake = await startFortnoxFake();
  const config = setConfig(
    parseConfig({
      DATABASE_URL: url,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0000',
      PLUGIN_OPTIONS: JSON.stringify(fortnoxPluginOptions(fake)),
    }),
  );
  const runtime = await openRuntime(config);
  const lines: string[] = [];
  try {
    const slug = `bench-inv-${Date.now().toString(36)}`;
    await provisionTenant({
      slug,
      name: 'Faktura Bench AB',
      hosts: [`${slug}.localhost`],
      adminEmail: `admin@${slug}.se`,
      adminPassword: 'bench-password-1',
    });
    const tenant = (await getTenantBySlug(slug))!;
    const provider = getRegistry().erpProviders.get('fortnox')!.instance;
    if (provider.auth.type !== 'oauth2') throw new Error('fortnox is OAuth2');
    const back = await consentAsBrowser(
      provider.auth.authorizeUrl({ redirectUri: 'http://bench.localhost/settings/erp/callback', state: 's' }),
    );
    const credentials = await provider.auth.exchangeCode({
      code: back.searchParams.get('code')!,
      redirectUri: 'http://bench.localhost/settings/erp/callback',
      tenantId: tenant.id,
    });
    const admin = await withTenant(tenant, async (trx) => {
      await trx('erp_connection').update({ kind: 'fortnox' });
      await saveErpCredentials(trx, credentials);
      // 50 customers, 3 articles, INVOICES open orders with 3 article rows each, set-based
      await trx.raw(
        `insert into customers (customer_id, name) select 'B' || n, 'Bench Kund ' || n from generate_series(1, 50) n`,
      );
      await trx.raw(
        `insert into articles (article_id, title, price, unit) values ('B-DET', 'Detektor', 250, 'st'), ('B-KAB', 'Kabel', 12.5, 'm'), ('B-SIR', 'Siren', 890, 'st')`,
      );
      await trx.raw(
        `insert into work_orders (number, title, customer_id, status_id, work_type_id, intake_ts, update_ts)
         select 'B' || n, 'Service ' || n, (select array_agg(id order by customer_id) from customers)[1 + n % 50],
                (select id from work_order_statuses where is_default), (select id from work_types where is_default), now(), now()
           from generate_series(1, ?) n`,
        [INVOICES],
      );
      await trx.raw(
        `insert into work_order_articles (work_order_id, article_id, title, amount, price, total, sort_order)
         select w.id, a.id, a.title, 2, a.price, 0, row_number() over (partition by w.id order by a.article_id)
           from work_orders w cross join articles a`,
      );
      return trx('users')
        .where({ email: `admin@${slug}.se` })
        .first('id', 'email', 'name');
    });
    const auth = benchAuth(admin);
    const orders = await withTenant(tenant, (trx) => trx('work_orders').orderBy('number').pluck('id'));

    // closing: each order in its own transaction, as a person closing them one after the other
    const closeMs: number[] = [];
    for (const id of orders) {
      const t = performance.now();
      await inTenant({ tenant, auth, lang: 'sv' }, (ctx) => closeWorkOrder(ctx, { workOrderId: id, invoiceFee: '40' }));
      closeMs.push(performance.now() - t);
    }
    const queued = await withTenant(tenant, (trx) =>
      trx('erp_deliveries').where({ status: 'pending' }).count({ n: '*' }),
    );
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      'create temporary table bench_outbox (id serial, invoice_id uuid, key text, created_at timestamptz default now())',
    );
    const rawMs: number[] = [];
    for (let i = 0; i < Math.min(200, orders.length); i++) {
      const t = performance.now();
      await client.query('begin');
      await client.query('insert into bench_outbox (invoice_id, key) values ($1, $2)', [orders[i], `k${i}`]);
      await client.query('commit');
      rawMs.push(performance.now() - t);
    }
    await client.end();
    lines.push(
      `invoicing  close ${INVOICES} orders (invoice + outbox row)  p95 ${ms(p95(closeMs))}  raw SQL insert p95 ${ms(p95(rawMs))}  x raw SQL ${(p95(closeMs) / p95(rawMs)).toFixed(1)}  queued ${Number(queued[0]!.n)}`,
    );

    // delivering: one worker, Fortnox's limit
    const before = fake.requestCount();
    const t0 = performance.now();
    const done = await deliverDue(tenant);
    const seconds = (performance.now() - t0) / 1000;
    const requests = fake.requestCount() - before;
    const floor = (requests / 25) * 5;
    const keys = fake.invoices().map((i) => i.ExternalInvoiceReference1 as string);
    const duplicates = keys.length - new Set(keys).size;
    lines.push(
      `invoicing  deliver ${done.delivered}/${INVOICES} to the Fortnox fake  ${seconds.toFixed(1)} s for ${requests} requests  limit floor ${floor.toFixed(1)} s  x floor ${(seconds / floor).toFixed(2)}  429s ${fake.rateLimitedCount()}  duplicates ${duplicates}  failed ${done.failed}`,
    );

    // the PDF with a warm browser
    const invoiceIds = await withTenant(tenant, (trx) =>
      trx('invoices').orderBy('invoice_sequence').limit(PDFS).pluck('id'),
    );
    // the first PDF after a start (issue 30 item 1): the request launching Chromium itself (cold),
    // and with the browser the server started at boot (warmDocumentBrowser), beside a bare page
    await closeBrowser();
    let t1 = performance.now();
    await inTenant({ tenant, auth, lang: 'sv' }, (ctx) => invoicePdf(ctx, { invoiceId: invoiceIds[0]! }));
    const coldMs = performance.now() - t1;
    await closeBrowser();
    await warmDocumentBrowser();
    t1 = performance.now();
    await inTenant({ tenant, auth, lang: 'sv' }, (ctx) => invoicePdf(ctx, { invoiceId: invoiceIds[0]! }));
    const warmFirstMs = performance.now() - t1;
    t1 = performance.now();
    await htmlToPdf('<p>Faktura</p>');
    const bareFirstMs = performance.now() - t1;
    lines.push(
      `invoicing  first invoice PDF after a start  cold (the request launches Chromium) ${ms(coldMs)}  warm (started with the server) ${ms(warmFirstMs)}  bare page ${ms(bareFirstMs)}  warm x bare ${(warmFirstMs / bareFirstMs).toFixed(2)}`,
    );
    const pdfMs: number[] = [];
    for (const id of invoiceIds) {
      const t = performance.now();
      await inTenant({ tenant, auth, lang: 'sv' }, (ctx) => invoicePdf(ctx, { invoiceId: id }));
      pdfMs.push(performance.now() - t);
    }
    // the two halves of one PDF: reading the invoice into its model, and printing the HTML
    const modelMs: number[] = [];
    const printMs: number[] = [];
    for (const id of invoiceIds) {
      let t = performance.now();
      const model = await inTenant({ tenant, auth, lang: 'sv' }, (ctx) => buildInvoiceDocumentModel(ctx, id));
      modelMs.push(performance.now() - t);
      t = performance.now();
      await htmlToPdf(invoiceHtml(model));
      printMs.push(performance.now() - t);
    }
    const bareMs: number[] = [];
    for (let i = 0; i < invoiceIds.length; i++) {
      const t = performance.now();
      await htmlToPdf('<p>Faktura</p>');
      bareMs.push(performance.now() - t);
    }
    lines.push(
      `invoicing  invoice PDF (warm browser, target p95 <= 150 ms)  p95 ${ms(p95(pdfMs))}  ${(1000 / (pdfMs.reduce((s, x) => s + x, 0) / pdfMs.length)).toFixed(1)} PDFs/s  bare page PDF p95 ${ms(p95(bareMs))}  x bare ${(p95(pdfMs) / p95(bareMs)).toFixed(2)}  (model p95 ${ms(p95(modelMs))}, print p95 ${ms(p95(printMs))})`,
    );
  } finally {
    await runtime.close();
    await fake.close();
  }
  return lines;
}
