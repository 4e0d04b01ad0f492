import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { afterCommit, withTenant, type Trx } from '~/core/db/with-tenant';
import { AppError, notFound } from '~/core/errors/app-error';
import { recordHistory } from '~/core/history/history';
import { ErpError, isErpError } from '~/core/extension-points/erp-http';
import {
  erpStopOf,
  isErpCustomerConflict,
  type ErpArticle,
  type ErpInvoice,
  type ErpInvoiceRow,
} from '~/core/extension-points/erp-provider';
import { defineJob } from '~/core/jobs/define-job';
import type { JobQueue } from '~/core/jobs/queue';
import { logger, type Logger } from '~/core/log/logger';
import type { Tenant } from '~/core/tenancy/tenant';
import { listTenants } from '~/tenants/registry';
import {
  erpProvider,
  erpSession,
  fingerprintOf,
  readErpConnection,
  readMappings,
  writeMappings,
  type ErpConnection,
  type Mapping,
} from './erp-connection';
import { clearCustomerConflict, customerToCreate, recordCustomerConflict } from './erp-customer-conflicts';
import type { DeliveryStatus } from './erp-delivery-status';
import { INVOICE_ENTITY, invoiceColumns } from './invoice-store';
import { invoiceRowType, vatRateOf } from './invoice-lines';
import { splitTaxReduction } from './tax-reduction';

/*
 * ERP delivery (issue 14 item 4; architecture §7; decision 025). Sending is an outbox row written in
 * the transaction that finalizes or applies the invoice; a job claims due rows (for update skip
 * locked, with a lease), talks to the vendor with no transaction open, and records the answer in a
 * short transaction of its own. The row's idempotency key is the same on every try; the plugin looks
 * for it at the vendor before creating on any try but the first, so a worker killed between the
 * vendor's "created" and our "recorded" never makes a second invoice: its lease runs out, the next
 * try finds the invoice and records it.
 */

type Row = Record<string, unknown>;

/** Tries before a delivery is marked failed (the invoice then shows the reason and a retry button). */
export const MAX_DELIVERY_ATTEMPTS = 8;
/** How long a claimed delivery is a worker's; after it, another worker may take it (the first died). */
export const DELIVERY_LEASE_MS = 5 * 60_000;
/** Deliveries claimed per statement. */
export const DELIVERY_BATCH = 50;
/** The sweep that picks up what no kick delivered (a retry that fell due, a crashed worker's lease). */
export const DELIVERY_SWEEP_EVERY_MS = 10_000;

/** Exponential backoff: 30 s, 1 min, 2 min … capped at an hour; a 429's Retry-After when longer. */
export function deliveryBackoffMs(attempts: number, retryAfterMs: number | null = null): number {
  const exp = Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
  return Math.max(exp, retryAfterMs ?? 0);
}

export const idempotencyKeyOf = (invoiceId: string) => `ordo-${invoiceId}`;

export { MAYBE_AT_VENDOR, type DeliveryStatus } from './erp-delivery-status';

export interface Delivery {
  id: string;
  kind: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  errorCode: string | null;
  errorText: string | null;
  externalId: string | null;
  externalInvoiceNr: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export const toDelivery = (r: Row): Delivery => ({
  id: r.id as string,
  kind: r.kind as string,
  status: r.status as DeliveryStatus,
  attempts: Number(r.attempts),
  nextAttemptAt: r.next_attempt_at ? new Date(r.next_attempt_at as string).toISOString() : null,
  errorCode: (r.error_code as string) ?? null,
  errorText: (r.error_text as string) ?? null,
  externalId: (r.external_id as string) ?? null,
  externalInvoiceNr: (r.external_invoice_nr as string) ?? null,
  createdAt: new Date(r.created_at as string).toISOString(),
  deliveredAt: r.delivered_at ? new Date(r.delivered_at as string).toISOString() : null,
});

// ---- the kick: deliver soon after commit, without waiting for the sweep ----

let kickQueue: JobQueue | null = null;
/** The process's queue, set at boot where workers run; without it the sweep delivers. */
export function setDeliveryQueue(queue: JobQueue | null): void {
  kickQueue = queue;
}

function kickAfterCommit(trx: Trx, tenantId: string): void {
  const queue = kickQueue;
  if (!queue) return;
  afterCommit(trx, () =>
    queue
      .enqueue(deliverTenantJob, { tenantId })
      .catch((err: unknown) => logger.warn({ err, tenantId }, 'could not queue an ERP delivery run')),
  );
}

/**
 * Queues many new final invoices at once (an agreement run): one insert, one kick after commit. The
 * caller has checked what `queueDelivery` checks (final, customer sends, the ERP takes invoices, not
 * zero); each row gets the same idempotency key a single queueing would.
 */
export async function queueNewDeliveries(ctx: Ctx, kind: string, invoiceIds: readonly string[]): Promise<void> {
  if (!invoiceIds.length) return;
  await ctx.trx('erp_deliveries').insert(
    invoiceIds.map((invoiceId) => ({
      invoice_id: invoiceId,
      kind,
      idempotency_key: idempotencyKeyOf(invoiceId),
      status: 'pending',
      next_attempt_at: ctx.now,
      create_user_id: ctx.auth?.user.id ?? null,
      created_at: ctx.now,
      updated_at: ctx.now,
    })),
  );
  kickAfterCommit(ctx.trx, ctx.tenant.id);
}

/**
 * Queues the invoice's delivery to the tenant's ERP in the caller's transaction. A finalized invoice
 * only; a customer set not to send is refused (409 CUSTOMER_SET_NOT_TO_SEND_TO_ERP); an ERP that
 * cannot take invoices over its API (none, files) is refused (409 ERP_CANNOT_SEND_INVOICES). A
 * delivery already waiting is answered as it is; a failed one is tried again (the same key, so the
 * vendor's copy, if any, is found); a delivered one is 409 INVOICE_ALREADY_IN_ERP.
 */
export async function queueDelivery(ctx: Ctx, invoiceId: string): Promise<Delivery> {
  const invoice: Row | undefined = await ctx
    .trx('invoices as i')
    .leftJoin('customers as c', 'c.id', 'i.customer_id')
    .where('i.id', invoiceId)
    .first('i.id', 'i.status', 'i.erp_reference_id', 'i.tax_reduction', 'c.send_to_erp');
  if (!invoice) throw notFound();
  if (invoice.status !== 'finalized') throw new AppError('INVOICE_NOT_FINALIZED', 409);
  if (invoice.send_to_erp === false) throw new AppError('CUSTOMER_SET_NOT_TO_SEND_TO_ERP', 409);
  const connection = await readErpConnection(ctx.trx);
  const erp = erpProvider(connection.kind);
  if (!erp.provider.capabilities.sendInvoices) throw new AppError('ERP_CANNOT_SEND_INVOICES', 409);
  if (invoice.tax_reduction !== 'none' && !erp.provider.capabilities.taxReduction)
    throw new AppError('ERP_CANNOT_TAKE_TAX_REDUCTION', 409);
  if (invoice.erp_reference_id) throw new AppError('INVOICE_ALREADY_IN_ERP', 409);
  const existing: Row | undefined = await ctx
    .trx('erp_deliveries')
    .where({ invoice_id: invoiceId, kind: erp.id })
    .forUpdate()
    .first();
  if (existing?.status === 'delivered') throw new AppError('INVOICE_ALREADY_IN_ERP', 409);
  let row: Row;
  if (existing && (existing.status === 'pending' || existing.status === 'sending')) row = existing;
  else if (existing) {
    [row] = await ctx
      .trx('erp_deliveries')
      .where({ id: existing.id })
      .update({ status: 'pending', next_attempt_at: ctx.now, attempts: 0, lease_until: null, updated_at: ctx.now })
      .returning('*');
  } else {
    [row] = await ctx
      .trx('erp_deliveries')
      .insert({
        invoice_id: invoiceId,
        kind: erp.id,
        idempotency_key: idempotencyKeyOf(invoiceId),
        status: 'pending',
        next_attempt_at: ctx.now,
        create_user_id: ctx.auth?.user.id ?? null,
        created_at: ctx.now,
        updated_at: ctx.now,
      })
      .returning('*');
  }
  kickAfterCommit(ctx.trx, ctx.tenant.id);
  return toDelivery(row!);
}

/**
 * Queues again, in the caller's transaction, the customer's deliveries to `kind` that stopped with
 * `code` (a customer conflict the office has just resolved). They keep their error, so the next
 * try looks for the invoice before making one. Answers how many.
 */
export async function retryStoppedDeliveries(
  ctx: Ctx,
  kind: string,
  customerId: string,
  code: string,
): Promise<number> {
  const ids = ctx.trx('invoices').where({ customer_id: customerId }).select('id');
  const n = await ctx
    .trx('erp_deliveries')
    .where({ kind, status: 'failed', error_code: code })
    .whereIn('invoice_id', ids)
    .update({ status: 'pending', next_attempt_at: ctx.now, attempts: 0, lease_until: null, updated_at: ctx.now });
  if (Number(n)) kickAfterCommit(ctx.trx, ctx.tenant.id);
  return Number(n);
}

/** What the office found in the ERP for a delivery stopped as needs checking (issue 31). */
export type CheckedAnswer = { booked: { externalInvoiceNr: string } } | { sendAgain: true };

/**
 * Settles, in the caller's transaction, the invoice's delivery that stopped as `needs_checking`: the
 * office looked in the ERP. `booked`: it is there — the ERP's number is recorded on the delivery and
 * the invoice (the vendor's reference the stop kept stays its id, else the number), the delivery is
 * done and never sent again. `sendAgain`: it is not there — queued again as a first try (its error
 * cleared), so the plugin makes it without looking for an earlier one. 409
 * ERP_DELIVERY_NOT_NEEDS_CHECKING for an invoice whose delivery is in any other state.
 */
export async function settleCheckedDelivery(ctx: Ctx, invoiceId: string, answer: CheckedAnswer): Promise<Delivery> {
  const row: Row | undefined = await ctx
    .trx('erp_deliveries')
    .where({ invoice_id: invoiceId })
    .orderBy('created_at', 'desc')
    .forUpdate()
    .first();
  if (!row || row.status !== 'needs_checking') throw new AppError('ERP_DELIVERY_NOT_NEEDS_CHECKING', 409);
  if ('booked' in answer) {
    const number = answer.booked.externalInvoiceNr;
    const externalId = (row.external_id as string | null) ?? number;
    const [done] = await ctx
      .trx('erp_deliveries')
      .where({ id: row.id })
      .update({
        status: 'delivered',
        external_id: externalId,
        external_invoice_nr: number,
        error_code: null,
        error_text: null,
        lease_until: null,
        delivered_at: ctx.now,
        updated_at: ctx.now,
      })
      .returning('*');
    await ctx
      .trx('invoices')
      .where({ id: invoiceId })
      .update({ erp_reference_id: externalId, external_invoice_nr: number, erp_state: 'success', update_ts: ctx.now });
    await recordHistory(ctx, {
      entity: INVOICE_ENTITY,
      entityId: invoiceId,
      action: 'erp.booked',
      data: { kind: row.kind, externalId, externalInvoiceNr: number },
    });
    return toDelivery(done!);
  }
  const [queued] = await ctx
    .trx('erp_deliveries')
    .where({ id: row.id })
    .update({
      status: 'pending',
      attempts: 0,
      error_code: null,
      error_text: null,
      external_id: null,
      lease_until: null,
      next_attempt_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning('*');
  await recordHistory(ctx, {
    entity: INVOICE_ENTITY,
    entityId: invoiceId,
    action: 'erp.resend',
    data: { kind: row.kind, reference: row.external_id ?? null },
  });
  kickAfterCommit(ctx.trx, ctx.tenant.id);
  return toDelivery(queued!);
}

// ---- building what the plugin receives ----

const money = (v: unknown) => String(v ?? '0');

/** The invoice as the plugin receives it, with the mapping's vendor ids where known. */
export async function buildErpInvoice(trx: Trx, invoiceId: string, connection: ErpConnection): Promise<ErpInvoice> {
  return (await buildDelivery(trx, invoiceId, connection)).invoice;
}

interface DeliveryInput {
  invoice: ErpInvoice;
  /** The invoice's articles as the ERP's article register gets them (list price, not the customer's). */
  articles: ErpArticle[];
  known: { customer: Mapping | null; articles: Map<string, Mapping> };
  /** The office resolved a customer conflict with "a new customer": the ERP makes one. */
  createCustomer: boolean;
}

/** Everything one delivery needs, read in one short transaction: the invoice, its articles, the mapping. */
async function buildDelivery(trx: Trx, invoiceId: string, connection: ErpConnection): Promise<DeliveryInput> {
  const invoice: Row | undefined = await trx('invoices')
    .where({ id: invoiceId })
    .first(...invoiceColumns(trx));
  if (!invoice) throw notFound();
  const customer: Row | undefined = await trx('customers').where({ id: invoice.customer_id }).first();
  if (!customer) throw notFound();
  const address: Row | undefined = await trx('customer_addresses')
    .where({ customer_id: customer.id })
    .orderBy([{ column: 'is_primary', order: 'desc' }, { column: 'sort_order' }])
    .first('street', 'post_index', 'city');
  const rows: Row[] = await trx('invoice_rows')
    .where({ invoice_id: invoiceId })
    .orderBy([{ column: 'sort_order' }, { column: 'id' }]);
  const articles = await readMappings(
    trx,
    connection.kind,
    'article',
    rows.map((r) => r.article_id as string).filter(Boolean),
  );
  const customers = await readMappings(trx, connection.kind, 'customer', [customer.id as string]);
  const articleIds = [...new Set(rows.map((r) => r.article_id as string).filter(Boolean))];
  const registry: Row[] = articleIds.length
    ? await trx('articles')
        .whereIn('id', articleIds)
        .select('id', 'article_id', 'title', 'unit', 'price', 'product_type', 'house_work', 'vat_percent')
    : [];
  const reverse = Boolean(invoice.reverse_vat);
  const sales = connection.accounts.sales;
  const erpRows: ErpInvoiceRow[] = rows.map((r) => {
    const vat = vatRateOf(r.vat_percent);
    return {
      kind: r.kind as ErpInvoiceRow['kind'],
      type: invoiceRowType(String(r.kind), String(r.work)),
      articleId: (r.article_id as string) ?? null,
      articleNumber: (r.article_number as string) ?? null,
      externalArticleId: r.article_id ? (articles.get(r.article_id as string)?.externalId ?? null) : null,
      description: [r.title, r.description].filter(Boolean).join(', '),
      amount: String(r.amount),
      unit: (r.unit as string) ?? null,
      price: money(r.price),
      discount:
        r.discount_type === 'PERCENTAGE' || r.discount_type === 'REGULAR'
          ? { type: r.discount_type, value: String(r.discount_value ?? '0') }
          : null,
      total: money(r.total),
      vatPercent: reverse ? '0' : vat,
      houseWork:
        invoiceRowType(String(r.kind), String(r.work)) === 'labour' &&
        invoice.tax_reduction !== 'none' &&
        invoice.tax_reduction !== 'green',
      account:
        (r.kind === 'fee' ? connection.accounts.fee : undefined) ?? (reverse ? sales.reverse : sales[vat]) ?? null,
    };
  });
  const persons = (invoice.tax_reduction_persons as { personId: string }[] | null) ?? [];
  const reduction = String(invoice.tax_reduction);
  const shares = splitTaxReduction(money(invoice.tax_reduction_amount), persons.length);
  const notes: string[] = [];
  if (reverse) notes.push('Omvänd betalningsskyldighet');
  const data = (invoice.data ?? {}) as Row;
  const erpInvoice: ErpInvoice = {
    id: invoice.id as string,
    invoiceNr: String(invoice.invoice_nr),
    invoiceDate: invoice.date_text as string,
    deliveryDate: (invoice.delivery_text as string) ?? null,
    dueDate: (invoice.due_text as string) ?? (invoice.date_text as string),
    paymentTermDays: Number(invoice.payment_term_days),
    ocr: (invoice.ocr as string) ?? null,
    currency: invoice.currency === 'EUR' ? 'EUR' : 'SEK',
    description: (invoice.description as string) ?? null,
    marking: (invoice.marking as string) ?? null,
    customerOrderNumber: (invoice.customer_order_number as string) ?? null,
    ourReference: (invoice.our_reference as string) ?? null,
    yourReference: (invoice.your_reference as string) ?? null,
    reverseVat: reverse,
    customer: {
      id: customer.id as string,
      externalId: customers.get(customer.id as string)?.externalId ?? null,
      customerNumber: String(customer.customer_id ?? ''),
      name: customer.name as string,
      type: customer.type === 'private' ? 'private' : 'company',
      organizationalNumber: (customer.organizational_number as string) ?? null,
      personId: (customer.person_id as string) ?? null,
      vatNumber: (customer.vat_number as string) ?? null,
      email: ((customer.invoice_email ?? customer.email) as string) ?? null,
      phone: (customer.phone as string) ?? null,
      address: {
        street: (address?.street as string) ?? null,
        postIndex: (address?.post_index as string) ?? null,
        city: (address?.city as string) ?? null,
      },
      paymentTermDays: Number(invoice.payment_term_days),
      reverseVat: Boolean(customer.reverse_vat),
    },
    rows: erpRows,
    fee: invoice.invoice_fee === null || invoice.invoice_fee === undefined ? null : money(invoice.invoice_fee),
    totalPrice: money(invoice.total_price),
    totalVat: money(invoice.vat_total),
    rounding: money(invoice.rounding),
    total: money(invoice.total_price_vat),
    taxReduction:
      reduction === 'ROT' || reduction === 'RUT' || reduction === 'green'
        ? {
            kind: reduction,
            amount: money(invoice.tax_reduction_amount),
            propertyDesignation: (invoice.property_designation as string) ?? null,
            housingAssociationOrgNr: (invoice.housing_org_nr as string) ?? null,
            persons: persons.map((p, i) => ({
              personId: p.personId,
              // whole kronor each, the first person takes the kronor left over
              amount: shares[i]!,
            })),
          }
        : null,
    notes: [...notes, ...(typeof data.footerText === 'string' ? [data.footerText] : [])],
  };
  return {
    invoice: erpInvoice,
    articles: registry.map((a) => ({
      id: a.id as string,
      articleNumber: a.article_id as string,
      title: a.title as string,
      unit: (a.unit as string) ?? null,
      price: money(a.price),
      isService: a.product_type === 'service',
      houseWork: Boolean(a.house_work),
      vatPercent: vatRateOf(a.vat_percent, erpRows.find((r) => r.articleId === a.id)?.vatPercent ?? '25'),
    })),
    known: { customer: customers.get(customer.id as string) ?? null, articles },
    createCustomer: await customerToCreate(trx, connection.kind, customer.id as string),
  };
}

// ---- delivering ----

/**
 * Claims up to `limit` due deliveries of a delivery table (the sales invoices' `erp_deliveries`, the
 * supplier invoices' `supplier_invoice_deliveries`: the same columns) with a lease, skipping rows
 * another worker holds.
 */
export async function claimDueDeliveries<R>(
  tenant: Tenant,
  table: 'erp_deliveries' | 'supplier_invoice_deliveries',
  now: Date,
  limit: number,
): Promise<R[]> {
  return withTenant(tenant, async (trx) => {
    const result = await trx.raw(
      `with due as (
         select id from ??
          where status in ('pending', 'sending') and next_attempt_at <= ?
            and (lease_until is null or lease_until <= ?)
          order by next_attempt_at, id
          limit ?
          for update skip locked
       )
       update ?? d
          set status = 'sending', attempts = d.attempts + 1, lease_until = ?, updated_at = ?
         from due where d.id = due.id
       returning d.*`,
      [table, now, now, limit, table, new Date(now.getTime() + DELIVERY_LEASE_MS), now],
    );
    return result.rows as R[];
  });
}

const claimDue = (tenant: Tenant, now: Date, limit: number) =>
  claimDueDeliveries<Row>(tenant, 'erp_deliveries', now, limit);

/** Records a delivery's end in one transaction: only while this worker still holds the row's lease. */
async function record(
  tenant: Tenant,
  claimed: Row,
  now: Date,
  change: Row,
  invoiceChange: Row | null,
  history: Row,
  also?: (trx: Trx) => Promise<void>,
) {
  await withTenant(tenant, async (trx) => {
    const n = await trx('erp_deliveries')
      .where({ id: claimed.id, status: 'sending', attempts: claimed.attempts })
      .update({ ...change, lease_until: null, updated_at: now });
    if (!Number(n)) return; // another worker took over after our lease ran out; its answer counts
    if (invoiceChange) await trx('invoices').where({ id: claimed.invoice_id }).update(invoiceChange);
    if (also) await also(trx);
    await trx('history').insert({
      entity: INVOICE_ENTITY,
      entity_id: claimed.invoice_id,
      action: history.action,
      user_id: null,
      at: now,
      data: JSON.stringify(history.data ?? null),
    });
  });
}

type Outcome = 'delivered' | 'retry' | 'failed' | 'checking';

/** Delivers one claimed row. Never throws: the outcome is recorded on the row. */
async function deliverOne(tenant: Tenant, claimed: Row, now: Date, log: Logger): Promise<Outcome> {
  const attempts = Number(claimed.attempts);
  let stoppedAt: { kind: string; customerId: string } | null = null;
  try {
    const { connection, input } = await withTenant(tenant, async (trx) => {
      const connection = await readErpConnection(trx);
      return { connection, input: await buildDelivery(trx, claimed.invoice_id as string, connection) };
    });
    const { invoice, known } = input;
    if (connection.kind !== claimed.kind) throw new ErpError('ERP_NOT_CONNECTED', { vendorMessage: connection.kind });
    stoppedAt = { kind: connection.kind, customerId: invoice.customer.id };
    const { provider } = erpProvider(connection.kind);
    const session = erpSession(tenant, connection);
    // the customer and the articles: asked of the vendor only when new or changed since it last got
    // them (found or created there), remembered for next time
    const { externalId: _known, ...customerFields } = invoice.customer;
    const customerPrint = fingerprintOf(customerFields);
    let customerExt = known.customer?.externalId ?? null;
    const customerWrite = input.createCustomer || !customerExt || known.customer?.fingerprint !== customerPrint;
    // the first delivery of a customer may stop with ErpCustomerConflict: the catch keeps it for the office
    if (customerWrite)
      customerExt = input.createCustomer
        ? await provider.ensureCustomer(session, invoice.customer, null, { createNew: true })
        : await provider.ensureCustomer(session, invoice.customer, customerExt);
    const mapped: { localId: string; externalId: string; fingerprint: string }[] = [];
    const byArticle = new Map<string, string>();
    for (const article of input.articles) {
      const print = fingerprintOf(article);
      const mapping = known.articles.get(article.id);
      if (mapping && mapping.fingerprint === print) {
        byArticle.set(article.id, mapping.externalId);
        continue;
      }
      const ext = await provider.ensureArticle(session, article, mapping?.externalId ?? null);
      byArticle.set(article.id, ext);
      mapped.push({ localId: article.id, externalId: ext, fingerprint: print });
    }
    if (customerWrite || mapped.length)
      await withTenant(tenant, async (trx) => {
        if (customerWrite) {
          await writeMappings(trx, connection.kind, 'customer', [
            { localId: invoice.customer.id, externalId: customerExt!, fingerprint: customerPrint },
          ]);
          // the ERP has the customer now (matched, made, or the ERP's cards were put right there)
          await clearCustomerConflict(trx, connection.kind, invoice.customer.id);
        }
        await writeMappings(trx, connection.kind, 'article', mapped);
      });
    const ready: ErpInvoice = {
      ...invoice,
      customer: { ...invoice.customer, externalId: customerExt! },
      rows: invoice.rows.map((r) =>
        r.articleId ? { ...r, externalArticleId: byArticle.get(r.articleId) ?? null } : r,
      ),
    };
    // the first try of a row never tried before: a row retried by hand keeps its last error, so
    // even with its count back at 1 it looks for the invoice first (an earlier try may have made it)
    const sent = await provider.sendInvoice(session, ready, claimed.idempotency_key as string, {
      firstAttempt: attempts === 1 && !claimed.error_code,
      // every try of this row came after it was queued (a vendor's key window counts from here)
      queuedAt: new Date(claimed.created_at as string).toISOString(),
    });
    await record(
      tenant,
      claimed,
      now,
      {
        status: 'delivered',
        external_id: sent.externalId,
        external_invoice_nr: sent.externalInvoiceNr,
        error_code: null,
        error_text: null,
        delivered_at: now,
      },
      {
        erp_reference_id: sent.externalId,
        external_invoice_nr: sent.externalInvoiceNr,
        erp_state: sent.state,
      },
      {
        action: 'erp.created',
        data: { kind: claimed.kind, externalId: sent.externalId, externalInvoiceNr: sent.externalInvoiceNr, attempts },
      },
    );
    return 'delivered';
  } catch (err) {
    if (isErpCustomerConflict(err) && stoppedAt) {
      // nothing was sent: the office chooses in Settings → ERP, which queues this delivery again
      const at = stoppedAt;
      log.warn({ tenant: tenant.slug, invoiceId: claimed.invoice_id, reason: err.reason }, 'ERP customer conflict');
      await record(
        tenant,
        claimed,
        now,
        { status: 'failed', error_code: err.code, error_text: err.vendorMessage, next_attempt_at: now },
        null,
        { action: 'erp.failed', data: { kind: claimed.kind, code: err.code, message: err.vendorMessage, attempts } },
        (trx) => recordCustomerConflict(trx, at.kind, at.customerId, err, now),
      );
      return 'failed';
    }
    const e = isErpError(err)
      ? err
      : new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', { retryable: true, vendorMessage: (err as Error).message });
    // a plugin's reason is more precise than the code (ERP_INVOICE_TOTAL_DIFFERS, ERP_NEEDS_CHECKING)
    const stop = erpStopOf(err);
    const code = stop?.reason ?? e.code;
    if (stop?.needsChecking) {
      log.warn({ err, tenant: tenant.slug, invoiceId: claimed.invoice_id, attempts }, 'ERP delivery needs checking');
      await record(
        tenant,
        claimed,
        now,
        {
          status: 'needs_checking',
          error_code: code,
          error_text: e.vendorMessage,
          external_id: stop.references[0] ?? null,
        },
        null,
        {
          action: 'erp.check',
          data: { kind: claimed.kind, code, message: e.vendorMessage, references: stop.references, attempts },
        },
      );
      return 'checking';
    }
    const giveUp = !e.retryable || attempts >= MAX_DELIVERY_ATTEMPTS;
    log.warn({ err, tenant: tenant.slug, invoiceId: claimed.invoice_id, attempts, giveUp }, 'ERP delivery failed');
    await record(
      tenant,
      claimed,
      now,
      {
        status: giveUp ? 'failed' : 'pending',
        error_code: code,
        error_text: e.vendorMessage,
        next_attempt_at: new Date(now.getTime() + deliveryBackoffMs(attempts, e.retryAfterMs)),
      },
      null,
      giveUp
        ? { action: 'erp.failed', data: { kind: claimed.kind, code, message: e.vendorMessage, attempts } }
        : { action: 'erp.retry', data: { kind: claimed.kind, code, message: e.vendorMessage, attempts } },
    );
    return giveUp ? 'failed' : 'retry';
  }
}

/** Delivers what a tenant has due, one invoice after the other (the vendor's rate limit is per tenant). */
export async function deliverDue(
  tenant: Tenant,
  options: { now?: () => Date; log?: Logger; maxBatches?: number } = {},
): Promise<Record<Outcome, number>> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? logger;
  const done: Record<Outcome, number> = { delivered: 0, retry: 0, failed: 0, checking: 0 };
  for (let batch = 0; batch < (options.maxBatches ?? 100); batch++) {
    const claimed = await claimDue(tenant, now(), DELIVERY_BATCH);
    for (const c of claimed) done[await deliverOne(tenant, c, now(), log)]++;
    if (claimed.length < DELIVERY_BATCH) break;
  }
  return done;
}

/** A run for one tenant, queued right after an invoice's delivery was written (the kick). */
export const deliverTenantJob = defineJob({
  id: 'invoicing.erp-deliver-tenant',
  schema: z.object({ tenantId: z.string() }),
  attempts: 1,
  async handler(data, ctx) {
    const tenant = (await listTenants({ status: 'active' })).find((t) => t.id === data.tenantId);
    if (!tenant) return;
    const done = await deliverDue(tenant, { log: ctx.log });
    if (done.delivered || done.failed || done.checking)
      ctx.log.info({ tenant: tenant.slug, ...done }, 'ERP deliveries');
  },
});

/** Every DELIVERY_SWEEP_EVERY_MS: every active tenant's due deliveries (retries, taken-over leases). */
export const deliverDueJob = defineJob({
  id: 'invoicing.erp-deliver-due',
  lane: 'sweep',
  schema: z.object({}),
  attempts: 1,
  async handler(_data, ctx) {
    const tenants = await listTenants({ status: 'active' });
    const failed: string[] = [];
    for (const tenant of tenants) {
      try {
        await deliverDue(tenant, { log: ctx.log });
      } catch (err) {
        failed.push(tenant.slug);
        ctx.log.error({ err, tenant: tenant.slug }, 'ERP deliveries failed for a tenant');
      }
    }
    if (failed.length) throw new Error(`ERP deliveries failed for: ${failed.join(', ')}`);
  },
});
