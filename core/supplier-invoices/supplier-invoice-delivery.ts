import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { afterCommit, withTenant, type Trx } from '~/core/db/with-tenant';
import { notFound } from '~/core/errors/app-error';
import { ErpError, isErpError } from '~/core/extension-points/erp-http';
import {
  ORDO_SUPPLIER_INVOICE_KEY_PREFIX,
  type ErpSupplier,
  type ErpSupplierInvoice,
  type ErpSupplierInvoiceRow,
} from '~/core/extension-points/erp-provider';
import {
  erpProvider,
  erpSession,
  fingerprintOf,
  readErpConnection,
  type ErpConnection,
} from '~/core/invoicing/erp-connection';
import {
  claimDueDeliveries,
  DELIVERY_BATCH,
  deliveryBackoffMs,
  MAX_DELIVERY_ATTEMPTS,
} from '~/core/invoicing/erp-delivery';
import { defineJob } from '~/core/jobs/define-job';
import type { JobQueue } from '~/core/jobs/queue';
import { logger, type Logger } from '~/core/log/logger';
import { compare, formatDecimal, mul, round, sub, sum } from '~/core/pricing';
import type { Tenant } from '~/core/tenancy/tenant';
import { listTenants } from '~/tenants/registry';

/*
 * Payment-approved supplier invoices to the ERP (issue 33 item 3; decision 054), exactly once, the
 * way sales invoices go (decision 025, core/invoicing/erp-delivery.ts): the approval writes a row
 * of supplier_invoice_deliveries in its own transaction; a job claims due rows (for update skip
 * locked, with a lease), finds or makes the supplier at the vendor and books the invoice with no
 * transaction open, and records the answer in a short transaction of its own. The idempotency key is
 * the same on every try and the plugin looks for it before creating on any try but the first, so a
 * worker killed between the vendor's "created" and our "recorded" never books it twice: its lease
 * runs out, the next try finds the invoice and records it.
 */

type Row = Record<string, unknown>;

export const SUPPLIER_INVOICE_HISTORY = 'supplier_invoice';
export const supplierInvoiceKeyOf = (invoiceId: string) => `${ORDO_SUPPLIER_INVOICE_KEY_PREFIX}${invoiceId}`;

let kickQueue: JobQueue | null = null;
/** The process's queue, set at boot where workers run; without it the sweep delivers. */
export function setSupplierInvoiceDeliveryQueue(queue: JobQueue | null): void {
  kickQueue = queue;
}

/** Writes the delivery in the approving transaction; one per invoice (a second call keeps the first). */
export async function queueSupplierInvoiceDelivery(ctx: Ctx, invoiceId: string, kind: string): Promise<void> {
  await ctx
    .trx('supplier_invoice_deliveries')
    .insert({
      supplier_invoice_id: invoiceId,
      kind,
      idempotency_key: supplierInvoiceKeyOf(invoiceId),
      status: 'pending',
      next_attempt_at: ctx.now,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .onConflict('supplier_invoice_id')
    .ignore();
  const queue = kickQueue;
  const tenantId = ctx.tenant.id;
  if (queue)
    afterCommit(ctx.trx, () =>
      queue
        .enqueue(deliverSupplierInvoicesTenantJob, { tenantId })
        .catch((err: unknown) => logger.warn({ err, tenantId }, 'could not queue a supplier-invoice delivery run')),
    );
}

const RATES = new Set(['25', '12', '6', '0']);

/** The approved invoice as the plugin receives it, and what the mapping knew of its supplier. */
export async function buildErpSupplierInvoice(
  trx: Trx,
  invoiceId: string,
  connection: ErpConnection,
): Promise<{ invoice: ErpSupplierInvoice; knownSupplier: { externalId: string; fingerprint: string | null } | null }> {
  const si: Row | undefined = await trx('supplier_invoices as si')
    .leftJoin('work_orders as w', 'w.id', 'si.work_order_id')
    .leftJoin('projects as p', 'p.id', 'si.project_id')
    .where('si.id', invoiceId)
    .first(
      'si.*',
      trx.raw(`to_char(si.invoice_date, 'YYYY-MM-DD') as invoice_day`),
      trx.raw(`to_char(coalesce(si.due_date, si.invoice_date + 30), 'YYYY-MM-DD') as due_day`),
      trx.raw('si.total_price::text as total_price_text'),
      trx.raw('si.total_vat::text as total_vat_text'),
      trx.raw('si.rounding::text as rounding_text'),
      trx.raw('si.total::text as total_text'),
      trx.raw('si.fee::text as fee_text'),
      'w.number as work_order_number',
      'p.number as project_number',
    );
  if (!si) throw notFound();
  const supplier: Row | undefined = await trx('suppliers').where({ id: si.supplier_id }).first();
  if (!supplier) throw notFound();
  const rows: Row[] = await trx('supplier_invoice_rows')
    .where({ supplier_invoice_id: invoiceId })
    .orderBy(['sort_order', 'id'])
    .select('description', 'account', trx.raw('total::text as total'), trx.raw('vat_percent::text as vat_percent'));
  const mapping: Row | undefined = await trx('erp_mappings')
    .where({ kind: connection.kind, entity: 'supplier', local_id: supplier.id })
    .first('external_id', 'fingerprint');
  const totalVat = formatDecimal(String(si.total_vat_text));
  const erpRows: ErpSupplierInvoiceRow[] = rows.map((r) => {
    const rate = String(Number(r.vat_percent));
    if (!RATES.has(rate))
      throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
        vendorMessage: `A row has VAT ${rate} %, which Ordo does not book; register the invoice in the ERP`,
      });
    return {
      description: String(r.description),
      account: (r.account as string) ?? null,
      amount: formatDecimal(String(r.total)),
      vatPercent: rate as ErpSupplierInvoiceRow['vatPercent'],
      vat: formatDecimal(round(mul(String(r.total), `0.${rate.padStart(2, '0')}`), 2)),
      projectNumber: si.project_number === null || si.project_number === undefined ? null : String(si.project_number),
    };
  });
  // the rows' VAT adds up to the invoice's (the supplier rounded per invoice): the difference goes on
  // the largest row, so a vendor that books VAT per row books what the supplier charged
  const diff = sub(totalVat, sum(erpRows.map((r) => r.vat)));
  if (erpRows.length && compare(diff, '0') !== 0) {
    const largest = erpRows.reduce((a, b) => (compare(b.amount, a.amount) > 0 ? b : a));
    largest.vat = formatDecimal(sum([largest.vat, diff]));
  }
  const currency = String(si.currency);
  if (currency !== 'SEK' && currency !== 'EUR')
    throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
      vendorMessage: `Supplier invoices in ${currency} are not sent; register it in the ERP`,
    });
  const erpSupplier: ErpSupplier = {
    id: supplier.id as string,
    supplierNumber: String(supplier.number),
    name: String(supplier.name ?? supplier.title),
    organizationalNumber: (supplier.organization_number as string) ?? null,
    vatNumber: (si.seller_vat_number as string) ?? null,
    email: null,
    phone: null,
    address: { street: null, postIndex: null, city: null },
    iban: (supplier.iban as string) ?? null,
    bic: (supplier.bic as string) ?? null,
    bankgiro: null,
    plusgiro: null,
    defaultAccount: (supplier.erp_account as string) ?? null,
  };
  return {
    invoice: {
      id: si.id as string,
      invoiceNumber: String(si.invoice_number),
      invoiceDate: String(si.invoice_day),
      dueDate: String(si.due_day),
      currency,
      ocr: (si.ocr as string) ?? null,
      ourReference: (si.work_order_number as string) ?? (si.order_reference as string) ?? null,
      comments: null,
      supplier: { ...erpSupplier, externalId: (mapping?.external_id as string) ?? null },
      rows: erpRows,
      fee: si.fee_text === null || si.fee_text === undefined ? null : formatDecimal(String(si.fee_text)),
      totalPrice: formatDecimal(String(si.total_price_text)),
      totalVat,
      rounding: formatDecimal(String(si.rounding_text)),
      total: formatDecimal(String(si.total_text)),
    },
    knownSupplier: mapping
      ? { externalId: mapping.external_id as string, fingerprint: (mapping.fingerprint as string) ?? null }
      : null,
  };
}

const claimDue = (tenant: Tenant, now: Date, limit: number) =>
  claimDueDeliveries<Row>(tenant, 'supplier_invoice_deliveries', now, limit);

/** Records a try's end, only while this worker still holds the row (its lease and attempt). */
async function record(
  tenant: Tenant,
  claimed: Row,
  now: Date,
  change: Row,
  history: { action: string; data: unknown },
) {
  await withTenant(tenant, async (trx) => {
    const n = await trx('supplier_invoice_deliveries')
      .where({ id: claimed.id, status: 'sending', attempts: claimed.attempts })
      .update({ ...change, lease_until: null, updated_at: now });
    if (!Number(n)) return; // another worker took over after our lease ran out; its answer counts
    await trx('history').insert({
      entity: SUPPLIER_INVOICE_HISTORY,
      entity_id: claimed.supplier_invoice_id,
      action: history.action,
      user_id: null,
      at: now,
      data: JSON.stringify(history.data),
    });
  });
}

type Outcome = 'delivered' | 'retry' | 'failed';

/**
 * An invoice fetched from the ERP (decision 054 "Fetched from the ERP"): it is booked there already,
 * so its delivery approves its payment there, with the same claim, lease and record as a booking.
 * The plugin looks whether it is approved already on any try but the first.
 */
async function approveAtErp(
  tenant: Tenant,
  connection: ErpConnection,
  fetched: { erpKind: string; externalId: string },
  firstAttempt: boolean,
) {
  if (connection.kind !== fetched.erpKind) throw new ErpError('ERP_NOT_CONNECTED', { vendorMessage: fetched.erpKind });
  const { provider } = erpProvider(connection.kind);
  if (!provider.approveSupplierInvoicePayment)
    throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
      vendorMessage: `${connection.kind} does not approve supplier invoices`,
    });
  return provider.approveSupplierInvoicePayment(erpSession(tenant, connection), fetched.externalId, { firstAttempt });
}

async function deliverOne(tenant: Tenant, claimed: Row, now: Date, log: Logger): Promise<Outcome> {
  const attempts = Number(claimed.attempts);
  // a row retried by hand keeps its last error: it looks for the invoice first
  const firstAttempt = attempts === 1 && !claimed.error_code;
  try {
    const fetched = await withTenant(tenant, async (trx) => {
      const si: Row | undefined = await trx('supplier_invoices')
        .where({ id: claimed.supplier_invoice_id })
        .first('source', 'erp_kind', 'erp_external_id');
      return si?.source === 'erp'
        ? {
            connection: await readErpConnection(trx),
            erpKind: String(si.erp_kind),
            externalId: String(si.erp_external_id),
          }
        : null;
    });
    if (fetched) {
      const sent = await approveAtErp(tenant, fetched.connection, fetched, firstAttempt);
      await record(
        tenant,
        claimed,
        now,
        {
          status: 'delivered',
          external_id: sent.externalId,
          external_nr: sent.externalNr,
          error_code: null,
          error_text: null,
          delivered_at: now,
        },
        { action: 'erp.payment_approved', data: { kind: claimed.kind, externalId: sent.externalId, attempts } },
      );
      return 'delivered';
    }
    const { connection, built } = await withTenant(tenant, async (trx) => {
      const connection = await readErpConnection(trx);
      return {
        connection,
        built: await buildErpSupplierInvoice(trx, claimed.supplier_invoice_id as string, connection),
      };
    });
    if (connection.kind !== claimed.kind) throw new ErpError('ERP_NOT_CONNECTED', { vendorMessage: connection.kind });
    const { provider } = erpProvider(connection.kind);
    if (!provider.capabilities.supplierInvoices || !provider.sendSupplierInvoice)
      throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
        vendorMessage: `${connection.kind} does not book supplier invoices`,
      });
    const session = erpSession(tenant, connection);
    const { invoice, knownSupplier } = built;
    // the supplier: asked of the vendor only when new or changed since it last got it
    const { externalId: _known, ...supplierFields } = invoice.supplier;
    const print = fingerprintOf(supplierFields);
    let supplierExt = knownSupplier?.externalId ?? null;
    if (provider.ensureSupplier && (!supplierExt || knownSupplier?.fingerprint !== print)) {
      supplierExt = await provider.ensureSupplier(session, invoice.supplier, supplierExt);
      const ext = supplierExt;
      await withTenant(tenant, (trx) =>
        trx.raw(
          `insert into erp_mappings (kind, entity, local_id, external_id, fingerprint, updated_at)
           values (?, 'supplier', ?, ?, ?, now())
           on conflict (kind, entity, local_id)
             do update set external_id = excluded.external_id, fingerprint = excluded.fingerprint, updated_at = now()`,
          [connection.kind, invoice.supplier.id, ext, print],
        ),
      );
    }
    const sent = await provider.sendSupplierInvoice(
      session,
      { ...invoice, supplier: { ...invoice.supplier, externalId: supplierExt } },
      claimed.idempotency_key as string,
      { firstAttempt },
    );
    await record(
      tenant,
      claimed,
      now,
      {
        status: 'delivered',
        external_id: sent.externalId,
        external_nr: sent.externalNr,
        error_code: null,
        error_text: null,
        delivered_at: now,
      },
      {
        action: 'erp.created',
        data: { kind: claimed.kind, externalId: sent.externalId, externalNr: sent.externalNr, attempts },
      },
    );
    return 'delivered';
  } catch (err) {
    const e = isErpError(err)
      ? err
      : new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', { retryable: true, vendorMessage: (err as Error).message });
    const giveUp = !e.retryable || attempts >= MAX_DELIVERY_ATTEMPTS;
    log.warn(
      { err, tenant: tenant.slug, supplierInvoiceId: claimed.supplier_invoice_id, attempts, giveUp },
      'supplier-invoice delivery failed',
    );
    await record(
      tenant,
      claimed,
      now,
      {
        status: giveUp ? 'failed' : 'pending',
        error_code: e.code,
        error_text: e.vendorMessage,
        next_attempt_at: new Date(now.getTime() + deliveryBackoffMs(attempts, e.retryAfterMs)),
      },
      {
        action: giveUp ? 'erp.failed' : 'erp.retry',
        data: { kind: claimed.kind, code: e.code, message: e.vendorMessage, attempts },
      },
    );
    return giveUp ? 'failed' : 'retry';
  }
}

/** Delivers what a tenant has due, one invoice after the other (the vendor's rate limit is per tenant). */
export async function deliverDueSupplierInvoices(
  tenant: Tenant,
  options: { now?: () => Date; log?: Logger; maxBatches?: number } = {},
): Promise<Record<Outcome, number>> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? logger;
  const done: Record<Outcome, number> = { delivered: 0, retry: 0, failed: 0 };
  for (let batch = 0; batch < (options.maxBatches ?? 100); batch++) {
    const claimed = await claimDue(tenant, now(), DELIVERY_BATCH);
    for (const c of claimed) done[await deliverOne(tenant, c, now(), log)]++;
    if (claimed.length < DELIVERY_BATCH) break;
  }
  return done;
}

/**
 * POST /supplierinvoices/{id}/erp/retry (supplier_invoices:edit): a failed delivery is queued again
 * with the same key (and its error kept, so the next try looks for the invoice before booking it).
 */
export async function retrySupplierInvoiceDelivery(ctx: Ctx, invoiceId: string): Promise<boolean> {
  const n = await ctx
    .trx('supplier_invoice_deliveries')
    .where({ supplier_invoice_id: invoiceId, status: 'failed' })
    .update({ status: 'pending', attempts: 0, next_attempt_at: ctx.now, lease_until: null, updated_at: ctx.now });
  return Number(n) > 0;
}

export const deliverSupplierInvoicesTenantJob = defineJob({
  id: 'supplier-invoices.erp-deliver-tenant',
  schema: z.object({ tenantId: z.string() }),
  attempts: 1,
  async handler(data, ctx) {
    const tenant = (await listTenants({ status: 'active' })).find((t) => t.id === data.tenantId);
    if (!tenant) return;
    const done = await deliverDueSupplierInvoices(tenant, { log: ctx.log });
    if (done.delivered || done.failed)
      ctx.log.info({ tenant: tenant.slug, ...done }, 'supplier-invoice ERP deliveries');
  },
});

export const deliverDueSupplierInvoicesJob = defineJob({
  id: 'supplier-invoices.erp-deliver-due',
  lane: 'sweep',
  schema: z.object({}),
  attempts: 1,
  async handler(_data, ctx) {
    const failed: string[] = [];
    for (const tenant of await listTenants({ status: 'active' })) {
      try {
        await deliverDueSupplierInvoices(tenant, { log: ctx.log });
      } catch (err) {
        failed.push(tenant.slug);
        ctx.log.error({ err, tenant: tenant.slug }, 'supplier-invoice deliveries failed for a tenant');
      }
    }
    if (failed.length) throw new Error(`supplier-invoice deliveries failed for: ${failed.join(', ')}`);
  },
});
