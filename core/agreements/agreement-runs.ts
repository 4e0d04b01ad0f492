import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { withTenant } from '~/core/db/with-tenant';
import { notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { langFromKey } from '~/core/i18n/languages';
import { defineJob } from '~/core/jobs/define-job';
import { enqueueInTransaction } from '~/core/jobs/outbox';
import { logger, type Logger } from '~/core/log/logger';
import { requireAccess } from '~/core/permissions/access';
import { zPlainDate } from './agreement-schema';
import type { Tenant } from '~/core/tenancy/tenant';
import { listTenants } from '~/tenants/registry';
import { applyDueAdjustments } from './price-adjustment.service';
import {
  generateInvoiceBatch,
  generateWorkOrderBatch,
  tenantToday,
  type BatchResult,
  type Skipped,
  type Warned,
} from './generation.service';

/*
 * Running generation (issue 16 items 3 and 4): the sweep every AGREEMENT_SWEEP_EVERY_MS makes what is
 * due today for every tenant; a bulk run ("invoice this period") makes the invoices due up to a
 * chosen day for one tenant, as a job whose progress is a row (agreement_runs) the page polls, so
 * the bar survives a reload. Each batch is its own transaction, and the run's progress is written
 * in that same transaction: what the bar says is exactly what exists.
 */

export const AGREEMENT_SWEEP_EVERY_MS = 10 * 60_000;

type Row = Record<string, unknown>;

function jobCtx(trx: Ctx['trx'], tenant: Tenant, now: Date): Ctx {
  return { trx, tenant, auth: null, lang: langFromKey(tenant.config.languageKey), now };
}

export interface GenerationTotals {
  workOrders: number;
  invoices: number;
  skipped: Skipped[];
  warnings: Warned[];
}

/**
 * Makes everything due for one tenant: price adjustments that took effect, then work orders and
 * invoices, batch by batch. `onBatch` runs inside each batch's transaction (the run's progress).
 */
export async function generateDue(
  tenant: Tenant,
  options: {
    until?: string;
    now?: Date;
    kinds?: ('wo' | 'invoice')[];
    onBatch?: (ctx: Ctx, kind: 'wo' | 'invoice', batch: BatchResult) => Promise<void>;
    batchSize?: number;
    /** Who gets a service order nobody else is named for (a bulk run: who started it). */
    assignTo?: string | null;
  } = {},
): Promise<GenerationTotals> {
  const now = options.now ?? new Date();
  const totals: GenerationTotals = { workOrders: 0, invoices: 0, skipped: [], warnings: [] };
  const until = options.until ?? tenantToday({ tenant, now });
  await withTenant(tenant, (trx) => applyDueAdjustments(jobCtx(trx, tenant, now), until));
  for (const kind of options.kinds ?? (['wo', 'invoice'] as const)) {
    let afterId: string | null = null;
    for (;;) {
      const batch: BatchResult = await withTenant(tenant, async (trx) => {
        const ctx = jobCtx(trx, tenant, now);
        const done =
          kind === 'wo'
            ? await generateWorkOrderBatch(ctx, {
                until,
                afterId,
                limit: options.batchSize,
                assignTo: options.assignTo,
              })
            : await generateInvoiceBatch(ctx, { until, afterId, limit: options.batchSize });
        await options.onBatch?.(ctx, kind, done);
        return done;
      });
      if (kind === 'wo') totals.workOrders += batch.created.length;
      else totals.invoices += batch.created.length;
      totals.skipped.push(...batch.skipped);
      totals.warnings.push(...batch.warnings);
      if (!batch.lastId) break;
      afterId = batch.lastId;
    }
  }
  return totals;
}

/** Every AGREEMENT_SWEEP_EVERY_MS: what is due today, for every active tenant. */
export const generateDueAgreementsJob = defineJob({
  id: 'agreements.generate-due',
  lane: 'sweep',
  schema: z.object({}),
  attempts: 1,
  async handler(_data, ctx) {
    const tenants = await listTenants({ status: 'active' });
    const failed: string[] = [];
    for (const tenant of tenants) {
      try {
        const done = await generateDue(tenant, { now: ctx.now });
        if (done.workOrders || done.invoices)
          ctx.log.info(
            { tenant: tenant.slug, workOrders: done.workOrders, invoices: done.invoices, skipped: done.skipped.length },
            'agreement work orders and invoices made',
          );
      } catch (err) {
        failed.push(tenant.slug);
        ctx.log.error({ err, tenant: tenant.slug }, 'agreement generation failed for a tenant');
      }
    }
    if (failed.length) throw new Error(`Agreement generation failed for: ${failed.join(', ')}`);
  },
});

// ---- bulk runs ----

/** A report line of a run, with the object it concerns (null once the agreement is gone). */
export type RunEntry<T> = T & { businessObjectId: string | null };

export interface AgreementRun {
  id: string;
  untilDate: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  total: number;
  done: number;
  /** Invoices made. */
  created: number;
  workOrders: number;
  skipped: RunEntry<Skipped>[];
  warnings: RunEntry<Warned>[];
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  startedBy: string | null;
  /** What it made, each to open (looked up once the run is over; at most RUN_MADE_LINES of each). */
  made: RunMade;
}

export interface RunMade {
  invoices: { id: string; invoiceNr: string | null; customerName: string | null }[];
  workOrders: { id: string; number: string; title: string }[];
}

/** How many made invoices and work orders a run's report lists by name (the rest are counted). */
export const RUN_MADE_LINES = 100;

const toRun = (r: Row, objectOf: Map<string, string>, made: RunMade): AgreementRun => {
  const skipped = ((r.skipped ?? []) as (Skipped | Warned)[]).map((s) => ({
    ...s,
    businessObjectId: objectOf.get(s.objectAgreementId) ?? null,
  }));
  return {
    id: r.id as string,
    untilDate: r.until_text as string,
    status: r.status as AgreementRun['status'],
    total: Number(r.total),
    done: Number(r.done),
    created: Number(r.created),
    workOrders: Number(r.work_orders ?? 0),
    skipped: skipped.filter((s): s is RunEntry<Skipped> => 'reason' in s),
    warnings: skipped.filter((s): s is RunEntry<Warned> => 'warning' in s),
    error: (r.error as string | null) ?? null,
    createdAt: new Date(r.created_at as string).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at as string).toISOString() : null,
    startedBy: (r.user_name as string | null) ?? null,
    made,
  };
};

/** The run's invoices and work orders by number, in the order made (gone ones left out). */
async function madeBy(trx: Ctx['trx'], r: Row): Promise<RunMade> {
  const made = (r.made ?? []) as { kind: 'invoice' | 'wo'; id: string }[];
  const ids = (kind: 'invoice' | 'wo') =>
    made
      .filter((m) => m.kind === kind)
      .slice(0, RUN_MADE_LINES)
      .map((m) => m.id);
  const [invoiceIds, orderIds] = [ids('invoice'), ids('wo')];
  const [invoices, orders] = await Promise.all([
    invoiceIds.length
      ? (trx('invoices as i')
          .leftJoin('customers as c', 'c.id', 'i.customer_id')
          .whereIn('i.id', invoiceIds)
          .select('i.id', 'i.invoice_nr', 'c.name as customer_name') as Promise<Row[]>)
      : [],
    orderIds.length
      ? (trx('work_orders').whereIn('id', orderIds).select('id', 'number', 'title') as Promise<Row[]>)
      : [],
  ]);
  const inv = new Map(invoices.map((i) => [i.id as string, i]));
  const wo = new Map(orders.map((o) => [o.id as string, o]));
  return {
    invoices: invoiceIds
      .filter((id) => inv.has(id))
      .map((id) => ({
        id,
        invoiceNr: (inv.get(id)!.invoice_nr as string | null) ?? null,
        customerName: (inv.get(id)!.customer_name as string | null) ?? null,
      })),
    workOrders: orderIds
      .filter((id) => wo.has(id))
      .map((id) => ({ id, number: String(wo.get(id)!.number), title: String(wo.get(id)!.title) })),
  };
}

async function readRun(trx: Ctx['trx'], id: string): Promise<AgreementRun | null> {
  const r: Row | undefined = await trx('agreement_runs as r')
    .leftJoin('users as u', 'u.id', 'r.create_user_id')
    .where('r.id', id)
    .first('r.*', trx.raw('r.until_date::text as until_text'), 'u.name as user_name');
  if (!r) return null;
  // the report links each line to its object: looked up once the run is over (not on every poll)
  const ids = [...new Set(((r.skipped ?? []) as { objectAgreementId: string }[]).map((s) => s.objectAgreementId))];
  const objectOf = new Map<string, string>();
  if (ids.length && (r.status === 'done' || r.status === 'failed'))
    for (const o of (await trx('object_agreements')
      .whereRaw('id in (select value::uuid from json_array_elements_text(cast(? as json)))', [JSON.stringify(ids)])
      .select('id', 'business_object_id')) as Row[])
      objectOf.set(o.id as string, o.business_object_id as string);
  const over = r.status === 'done' || r.status === 'failed';
  return toRun(r, objectOf, over ? await madeBy(trx, r) : { invoices: [], workOrders: [] });
}

/** Runs a queued bulk run to its end (the job's body; also what a test calls directly). */
export async function executeRun(tenant: Tenant, runId: string, log: Logger = logger): Promise<void> {
  const run = await withTenant(tenant, async (trx) => {
    const claimed = await trx('agreement_runs')
      .where({ id: runId })
      // only a queued run: the outbox hands a job over at least once, and a second copy finds it taken
      .where('status', 'queued')
      .update({ status: 'running' })
      .returning(['id', 'create_user_id', trx.raw('until_date::text as until_text')]);
    return claimed[0] as Row | undefined;
  });
  if (!run) return;
  try {
    await generateDue(tenant, {
      until: run.until_text as string,
      assignTo: (run.create_user_id as string | null) ?? null,
      // the period's service visits first, then its invoices (the sweep's order)
      kinds: ['wo', 'invoice'],
      async onBatch(ctx, kind, batch) {
        // a work order held back is the invoice's reason again: the report lists invoices' reasons
        const report = kind === 'invoice' ? [...batch.skipped, ...batch.warnings] : [];
        await ctx.trx.raw(
          `update agreement_runs set done = least(total, done + ?), created = created + ?,
                  work_orders = work_orders + ?, skipped = skipped || cast(? as jsonb),
                  made = made || cast(? as jsonb)
            where id = ?`,
          [
            batch.claimed,
            kind === 'invoice' ? batch.created.length : 0,
            kind === 'wo' ? batch.created.length : 0,
            JSON.stringify(report),
            JSON.stringify(batch.created.map((c) => ({ kind, id: c.id }))),
            runId,
          ],
        );
      },
    });
    await withTenant(tenant, (trx) =>
      trx('agreement_runs')
        .where({ id: runId })
        .update({ status: 'done', done: trx.raw('total'), finished_at: new Date() }),
    );
  } catch (err) {
    log.error({ err, tenant: tenant.slug, runId }, 'an agreement invoicing run failed');
    await withTenant(tenant, (trx) =>
      trx('agreement_runs')
        .where({ id: runId })
        .update({ status: 'failed', error: (err as Error).message.slice(0, 500), finished_at: new Date() }),
    );
    throw err;
  }
}

export const agreementInvoiceRunJob = defineJob({
  id: 'agreements.invoice-run',
  schema: z.object({ tenantId: z.string(), runId: z.string() }),
  attempts: 1,
  async handler(data, ctx) {
    const tenant = (await listTenants({ status: 'active' })).find((t) => t.id === data.tenantId);
    if (!tenant) return;
    await executeRun(tenant, data.runId, ctx.log);
  },
});

export const ZStartInvoiceRun = z.object({
  until: zPlainDate(),
});

/**
 * POST /agreements/invoices/run {until}: starts making every agreement's service work orders and
 * invoices due by `until` (agreements:edit). One run at a time per tenant: while one is queued or running its id is
 * answered again (409 AGREEMENT_RUN_IN_PROGRESS would lose the bar a second tab wants to show).
 */
export async function startInvoiceRun(ctx: Ctx, raw: unknown): Promise<{ run: AgreementRun }> {
  requireAccess(ctx.auth, { permission: 'agreements:edit' });
  const { until } = parseInput(ZStartInvoiceRun, raw);
  // one at a time: the lock orders two clicks; the second sees the first's row
  await ctx.trx.raw(`lock table agreement_runs in share row exclusive mode`);
  const live: Row | undefined = await ctx
    .trx('agreement_runs')
    .whereIn('status', ['queued', 'running'])
    .where('created_at', '>', new Date(ctx.now.getTime() - 6 * 3600_000))
    .first('id');
  if (live) return { run: (await readRun(ctx.trx, live.id as string))! };
  // what the run will go through: agreements with a work order or an invoice period starting by then
  const [{ wo, inv }] = (
    await ctx.trx.raw(
      `select count(*) filter (where oa.wo_scheduled_to <= ? and a.wo_interval is not null) as wo,
              count(*) filter (where oa.invoice_scheduled_to <= ? and a.invoice_interval is not null) as inv
         from object_agreements oa join agreements a on a.id = oa.agreement_id`,
      [until, until],
    )
  ).rows as { wo: string | number; inv: string | number }[];
  const [row] = await ctx
    .trx('agreement_runs')
    .insert({
      until_date: until,
      total: Number(wo) + Number(inv),
      create_user_id: ctx.auth!.user.id,
      created_at: ctx.now,
    })
    .returning('id');
  const runId = (row as Row).id as string;
  // the job is promised in this transaction (issue 30 item 2): a crash after commit leaves the
  // outbox row, which the worker's sweep hands to the queue, never a "queued" run nobody runs
  await enqueueInTransaction(ctx.trx, ctx.tenant, agreementInvoiceRunJob, { tenantId: ctx.tenant.id, runId });
  return { run: (await readRun(ctx.trx, runId))! };
}

/** GET /agreements/invoices/run/{id} and the latest run (agreements:read): the bar and the report. */
export async function getInvoiceRun(ctx: Ctx, id: unknown): Promise<{ run: AgreementRun }> {
  requireAccess(ctx.auth, { permission: 'agreements:read' });
  if (!isUuid(id)) throw notFound();
  const run = await readRun(ctx.trx, id);
  if (!run) throw notFound();
  return { run };
}

export async function latestInvoiceRun(ctx: Ctx): Promise<{ run: AgreementRun | null }> {
  requireAccess(ctx.auth, { permission: 'agreements:read' });
  const r: Row | undefined = await ctx.trx('agreement_runs').orderBy('created_at', 'desc').first('id');
  return { run: r ? await readRun(ctx.trx, r.id as string) : null };
}
