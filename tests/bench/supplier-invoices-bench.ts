/**
 * Issue 33's list figure: the supplier-invoice list (`GET /supplierinvoices`, one page of 50 with its
 * count and the tabs' counts, three statements in one unit of work) at 50,000 invoices, target p95
 * <= 40 ms; beside each case, the same three statements as raw SQL in a bare transaction on the same
 * connection settings. Cases: the office's tabs (to approve, approved, all), a project's invoices,
 * and a technician who sees only the invoices they are responsible for. Runs in-process on the
 * bench database, in a tenant of its own made fresh each run (BENCH_SI_INVOICES, 50,000).
 */
import pg from 'pg';
import { benchAuth } from './bench-auth';
import type { Auth } from '~/core/context';
import { parseConfig, setConfig } from '~/core/config/env';
import { withTenant } from '~/core/db/with-tenant';
import { openRuntime } from '~/core/runtime/boot';
import { listSupplierInvoices } from '~/core/supplier-invoices/supplier-invoice.service';
import { inTenant } from '~/core/unit-of-work';
import { provisionTenant } from '~/tenants/provision';
import { getTenantBySlug } from '~/tenants/registry';

const INVOICES = Number(process.env.BENCH_SI_INVOICES ?? 50_000);
const RUNS = Number(process.env.BENCH_SI_RUNS ?? 60);
const TARGET_MS = 40;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** The three statements listSupplierInvoices runs, as plain SQL (`$1` status, `$2` project, `$3` responsible). */
const RAW = {
  page: `select si.id, si.source, si.status, si.invoice_number, si.invoice_type,
      to_char(si.invoice_date, 'YYYY-MM-DD') as invoice_date, to_char(si.due_date, 'YYYY-MM-DD') as due_date,
      si.currency, si.supplier_id, coalesce(s.title, si.seller_name) as supplier_name, si.order_reference,
      si.work_order_id, w.number as work_order_number, si.project_id, p.number as project_number,
      p.title as project_title, si.responsible_user_id, u.name as responsible_user_name,
      si.total_price::text, si.total::text, si.content_approved_at, si.payment_approved_at, si.created_at
    from supplier_invoices si
      left join suppliers s on s.id = si.supplier_id
      left join work_orders w on w.id = si.work_order_id
      left join projects p on p.id = si.project_id
      left join users u on u.id = si.responsible_user_id
    where ($1::text is null or si.status = $1) and ($2::uuid is null or si.project_id = $2)
      and ($3::uuid is null or si.responsible_user_id = $3)
    order by si.created_at desc, si.id desc limit 50`,
  count: `select count(*) as n from supplier_invoices si
    where ($1::text is null or si.status = $1) and ($2::uuid is null or si.project_id = $2)
      and ($3::uuid is null or si.responsible_user_id = $3)`,
  counts: `select count(*)::int as pending,
      (count(*) filter (where si.content_approved_at is not null))::int as payment_pending
    from supplier_invoices si where si.status = 'pending' and ($1::uuid is null or si.project_id = $1)
      and ($2::uuid is null or si.responsible_user_id = $2)`,
};

export async function supplierInvoicesBench(url: string): Promise<string[]> {
  const config = setConfig(
    parseConfig({ DATABASE_URL: url, NODE_ENV: 'development', LOG_LEVEL: 'warn', SECRET_KEY: 'bench-secret-key-bench-secret-key-0000' }),
  );
  const runtime = await openRuntime(config);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const lines: string[] = [];
  try {
    const slug = `bench-si-${Date.now().toString(36)}`;
    await provisionTenant({
      slug,
      name: 'Inköp Bench AB',
      hosts: [`${slug}.localhost`],
      adminEmail: `admin@${slug}.se`,
      adminPassword: 'bench-password-1',
    });
    const tenant = (await getTenantBySlug(slug))!;
    const seeded = Date.now();
    const { admin, tech, project } = await withTenant(tenant, async (trx) => {
      const admin = await trx('users').where({ email: `admin@${slug}.se` }).first('id', 'email', 'name');
      const [tech] = await trx('users')
        .insert({ email: `tech@${slug}.se`, name: 'Tekla Tekniker' })
        .returning(['id', 'email', 'name']);
      await trx.raw(`insert into suppliers (number, title, name)
        select 'L' || g, 'Grossist ' || g, 'Grossist ' || g || ' AB' from generate_series(1, 40) g`);
      const [project] = await trx('projects')
        .insert({ number: 9001, title: 'Stort projekt', status: 'ongoing', responsible_user_id: tech.id })
        .returning('id');
      await trx.raw(
        `with st as (select array_agg(id order by sort_order) filter (where not is_closing) as open from work_order_statuses),
              wt as (select array_agg(id order by sort_order) as ids from work_types)
         insert into work_orders (number, title, status_id, work_type_id, project_id)
         select (100000 + g)::text, 'Order ' || g, st.open[1], wt.ids[1], case when g % 10 = 0 then ?::uuid end
         from generate_series(1, 500) g, st, wt`,
        [project.id],
      );
      // 50,000 invoices over two years: a tenth pending (some with the content approved), a few declined;
      // every 25th for the project, a fifth with the technician responsible
      await trx.raw(
        `with s as (select id, row_number() over (order by id) as n from suppliers),
              w as (select id, project_id, row_number() over (order by id) as n from work_orders)
         insert into supplier_invoices (source, supplier_id, supplier_key, invoice_number, invoice_date, work_order_id,
           project_id, responsible_user_id, total_price, total_vat, total, status, content_approved_at,
           payment_approved_at, declined_at, created_at)
         select 'peppol', s.id, 's:' || s.id, 'F-' || g, current_date - (g % 730), w.id,
           case when g % 25 = 0 then ?::uuid else w.project_id end,
           case when g % 5 = 0 then ?::uuid else ?::uuid end,
           (g % 9000) + 100, ((g % 9000) + 100) * 0.25, ((g % 9000) + 100) * 1.25,
           case when g % 10 = 0 then 'pending' when g % 37 = 0 then 'declined' else 'approved' end,
           case when g % 10 = 0 and g % 20 = 0 then now() when g % 10 <> 0 and g % 37 <> 0 then now() end,
           case when g % 10 <> 0 and g % 37 <> 0 then now() end,
           case when g % 10 <> 0 and g % 37 = 0 then now() end,
           now() - make_interval(secs => g * 1200)
         from generate_series(1, ?) g
           join s on s.n = 1 + g % 40
           join w on w.n = 1 + g % 500`,
        [project.id, tech.id, admin.id, INVOICES],
      );
      return { admin, tech, project: project.id as string };
    });
    // as autovacuum leaves a table that is read far more than written: its visibility map set, so the
    // tabs' counts are index-only scans
    await client.query(`vacuum analyze "${tenant.schemaName}".supplier_invoices`);
    await client.query('analyze');
    lines.push(`supplier invoices  seeded ${INVOICES.toLocaleString('en')} invoices in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);

    const office = benchAuth(admin);
    const technician: Auth = {
      ...benchAuth(tech),
      user: { ...benchAuth(tech).user, userType: 'normal' },
      perms: new Set(['supplier_invoices:read']),
    };
    const cases: { name: string; auth: Auth; input: Record<string, unknown>; raw: [string | null, string | null, string | null] }[] = [
      { name: 'to approve (the default tab)', auth: office, input: { status: 'pending' }, raw: ['pending', null, null] },
      { name: 'approved', auth: office, input: { status: 'approved' }, raw: ['approved', null, null] },
      { name: 'all', auth: office, input: { status: 'all' }, raw: [null, null, null] },
      { name: 'a project’s, all', auth: office, input: { status: 'all', projectId: project }, raw: [null, project, null] },
      { name: 'technician, responsible only, all', auth: technician, input: { status: 'all' }, raw: [null, null, tech.id] },
    ];
    for (const c of cases) {
      const service: number[] = [];
      const raw: number[] = [];
      for (let i = 0; i < RUNS + 5; i++) {
        let t = performance.now();
        const page = await inTenant({ tenant, auth: c.auth, lang: 'sv' }, (ctx) => listSupplierInvoices(ctx, c.input));
        if (i >= 5) service.push(performance.now() - t);
        if (i === 0 && !page.invoices.length) throw new Error(`bench case "${c.name}" found no invoices`);
        t = performance.now();
        await client.query('begin');
        await client.query(`set local search_path = "${tenant.schemaName}"`);
        await client.query(RAW.page, c.raw);
        await client.query(RAW.count, c.raw);
        await client.query(RAW.counts, [c.raw[1], c.raw[2]]);
        await client.query('commit');
        if (i >= 5) raw.push(performance.now() - t);
      }
      const s = p95(service);
      const r = p95(raw);
      lines.push(
        `supplier invoices  list ${c.name}: p95 ${ms(s)}, raw SQL p95 ${ms(r)}, ratio ${(s / r).toFixed(2)}  ${s <= TARGET_MS ? 'ok' : `MISSED (${TARGET_MS} ms)`}`,
      );
    }
  } finally {
    await client.end();
    await runtime.close();
  }
  return lines;
}
