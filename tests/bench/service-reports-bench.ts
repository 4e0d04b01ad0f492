/**
 * Issue 32's figures, each beside a baseline measured in the same run:
 * - a report of 6 pages with 60 fields and 12 photos: each page save through the service (one unit
 *   of work: the order, the template, the photos' check, the merge, the history row), target p95
 *   <= 50 ms; beside it, the raw SQL of the page's merge alone in a transaction;
 * - its PDF on the warm document browser (photos read from the file store and inlined), target
 *   <= 1.5 s; beside it, a bare page of the same size (as many rows and images) printed right after.
 * Runs in-process on the bench database, in a tenant of its own made fresh each run.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import pg from 'pg';
import sharp from 'sharp';
import { benchAuth } from './bench-auth';
import { parseConfig, setConfig } from '~/core/config/env';
import { withTenant } from '~/core/db/with-tenant';
import { htmlToPdf, warmDocumentBrowser } from '~/core/documents/pdf';
import { getFileStore } from '~/core/files/store';
import { openRuntime } from '~/core/runtime/boot';
import { reportPdf } from '~/core/service-reports/service-report-generate';
import { saveReport, saveTemplate } from '~/core/service-reports/service-report.service';
import { inTenant } from '~/core/unit-of-work';
import { provisionTenant } from '~/tenants/provision';
import { getTenantBySlug } from '~/tenants/registry';

const SAVES = Number(process.env.BENCH_REPORT_SAVES ?? 30);
const PDFS = Number(process.env.BENCH_REPORT_PDFS ?? 10);
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

export async function serviceReportsBench(url: string): Promise<string[]> {
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
  try {
    const slug = `bench-srep-${Date.now().toString(36)}`;
    await provisionTenant({
      slug,
      name: 'Rapport Bench AB',
      hosts: [`${slug}.localhost`],
      adminEmail: `admin@${slug}.se`,
      adminPassword: 'bench-password-1',
    });
    const tenant = (await getTenantBySlug(slug))!;
    // 12 photos of 1600×1200 stored with their thumbnails, as uploads leave them
    const store = getFileStore();
    const image = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#7a8' } })
      .jpeg()
      .toBuffer();
    const thumb = await sharp(image).resize(320, 320, { fit: 'inside' }).webp({ quality: 72 }).toBuffer();
    const keys: { key: string; thumbKey: string }[] = [];
    for (let i = 0; i < 12; i++) {
      const key = `${tenant.schemaName}/${randomUUID()}`;
      await store.put(key, Readable.from(image), { contentType: 'image/jpeg' });
      await store.put(`${key}-thumb`, Readable.from(thumb), { contentType: 'image/webp' });
      keys.push({ key, thumbKey: `${key}-thumb` });
    }
    const { admin, workOrderId, photoIds } = await withTenant(tenant, async (trx) => {
      const [wo] = await trx
        .raw(
          `insert into work_orders (number, title, status_id, work_type_id, intake_ts, update_ts)
         values ('B1', 'Service', (select id from work_order_statuses where is_default),
                 (select id from work_types where is_default), now(), now()) returning id`,
        )
        .then((r: { rows: { id: string }[] }) => r.rows);
      const files = (await trx('files')
        .insert(
          keys.map((k, i) => ({
            owner_type: 'wo',
            owner_id: wo!.id,
            kind: 'file',
            name: `foto-${i + 1}.jpg`,
            storage_key: k.key,
            thumb_key: k.thumbKey,
            content_type: 'image/jpeg',
            size: image.length,
          })),
        )
        .returning('id')) as { id: string }[];
      const user = await trx('users')
        .where({ email: `admin@${slug}.se` })
        .first('id', 'email', 'name');
      return { admin: user, workOrderId: wo!.id, photoIds: files.map((f) => f.id) };
    });
    const auth = benchAuth(admin);
    const scope = { tenant, auth, lang: 'sv' as const };

    // 6 pages of 10 fields: measures, yes/no, texts, numbers, and two photo fields per page
    const kinds = [
      'measure',
      'yesno',
      'text',
      'number',
      'yesno',
      'longtext',
      'measure',
      'choice',
      'photo',
      'yesno',
    ] as const;
    const template = await inTenant(scope, (ctx) =>
      saveTemplate(ctx, {
        title: 'Bench-protokoll',
        onDemand: true,
        pages: Array.from({ length: 6 }, (_, p) => ({
          title: `Sida ${p + 1}`,
          fields: kinds.map((kind, f) => ({
            kind,
            label: `Punkt ${p + 1}.${f + 1}`,
            unit: kind === 'measure' ? 'N' : null,
            min: kind === 'measure' ? 0 : null,
            max: kind === 'measure' ? 150 : null,
            options: kind === 'choice' ? ['Godkänd', 'Anmärkning', 'Underkänd'] : [],
          })),
        })),
      }),
    );
    const pageData = (p: number, n: number) =>
      Object.fromEntries(
        template.pages[p]!.fields.map((f, i) => [
          f.id,
          f.kind === 'measure'
            ? 100 + ((n + i) % 80)
            : f.kind === 'yesno'
              ? i % 3 === 0
                ? 'no'
                : 'yes'
              : f.kind === 'choice'
                ? 'Godkänd'
                : f.kind === 'photo'
                  ? photoIds.slice(p * 2, p * 2 + 2)
                  : f.kind === 'number'
                    ? n
                    : `Kontrollerad ${n}`,
        ]),
      );
    const save = (p: number, n: number) =>
      inTenant(scope, (ctx) =>
        saveReport(ctx, { workOrderId, serviceReportId: template.id, page: p, data: pageData(p, n) }, false),
      );
    for (let p = 0; p < 6; p++) await save(p, 0); // warm-up and the full report
    const saveMs: number[] = [];
    for (let n = 0; n < SAVES; n++) {
      const t = performance.now();
      await save(n % 6, n + 1);
      saveMs.push(performance.now() - t);
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const reportId = await withTenant(tenant, (trx) =>
      trx('service_reports')
        .first('id')
        .then((r: { id: string }) => r.id),
    );
    const rawMs: number[] = [];
    for (let n = 0; n < SAVES; n++) {
      const page = template.pages[n % 6]!;
      const t = performance.now();
      await client.query('begin');
      await client.query(`select set_config('search_path', $1, true)`, [tenant.schemaName]);
      await client.query(
        `update service_reports set data = data || jsonb_build_object($2::text, $3::jsonb), updated_at = now()
          where id = $1 and signed_at is null`,
        [reportId, page.id, JSON.stringify(pageData(n % 6, n))],
      );
      await client.query('commit');
      rawMs.push(performance.now() - t);
    }
    await client.end();
    lines.push(
      `service reports  page save (6 pages, 60 fields, 12 photos; target p95 <= 50 ms)  p95 ${ms(p95(saveMs))}  raw SQL merge p95 ${ms(p95(rawMs))}  x raw SQL ${(p95(saveMs) / p95(rawMs)).toFixed(1)}`,
    );

    // the PDF: signed first, then printed on the warm browser
    await inTenant(scope, (ctx) =>
      saveReport(ctx, { workOrderId, serviceReportId: template.id, signature: { name: 'Bench Kund' } }, true),
    );
    await warmDocumentBrowser();
    await inTenant(scope, (ctx) => reportPdf(ctx, { id: workOrderId, reportId }));
    const pdfMs: number[] = [];
    for (let n = 0; n < PDFS; n++) {
      const t = performance.now();
      await inTenant(scope, (ctx) => reportPdf(ctx, { id: workOrderId, reportId }));
      pdfMs.push(performance.now() - t);
    }
    // a bare page of the same size: 60 rows and 12 inlined images of the same thumbnails
    const dataUrl = `data:image/webp;base64,${thumb.toString('base64')}`;
    const bare = `<!doctype html><html><body><table>${Array.from(
      { length: 60 },
      (_, i) => `<tr><td>Punkt ${i}</td><td>Kontrollerad</td></tr>`,
    ).join(
      '',
    )}</table>${Array.from({ length: 12 }, () => `<img src="${dataUrl}" width="120" height="120">`).join('')}</body></html>`;
    const bareMs: number[] = [];
    for (let n = 0; n < PDFS; n++) {
      const t = performance.now();
      await htmlToPdf(bare);
      bareMs.push(performance.now() - t);
    }
    lines.push(
      `service reports  report PDF (warm browser, target p95 <= 1500 ms)  p95 ${ms(p95(pdfMs))}  bare page of the same size p95 ${ms(p95(bareMs))}  x bare ${(p95(pdfMs) / p95(bareMs)).toFixed(2)}`,
    );
  } finally {
    await runtime.close();
  }
  return lines;
}
