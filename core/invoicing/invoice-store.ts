import type { Ctx } from '~/core/context';
import type { Trx } from '~/core/db/with-tenant';
import { AppError, notFound } from '~/core/errors/app-error';
import { recordHistory } from '~/core/history/history';
import { discountOf, formatDecimal } from '~/core/pricing';
import { MAYBE_AT_VENDOR } from './erp-delivery-status';
import { invoiceFigures, type InvoiceFigures, type VatRate } from './invoice-math';
import type { InvoiceLine } from './invoice-lines';
import { ocrReference } from './ocr';
import type { TaxReductionKind } from './tax-reduction';

/*
 * Storing an invoice and keeping its figures true (issue 14): one insert for the invoice and one
 * for its rows; every change to a draft recomputes row totals, VAT, öre rounding and the tax
 * reduction from the stored rows in two statements; finalizing takes the next number from the
 * tenant's counter under its row lock, so numbers have no gaps even when transactions roll back.
 */

export const INVOICE_ENTITY = 'invoice';

type Row = Record<string, unknown>;

export interface InvoiceHeader {
  workOrderId?: string | null;
  salesOrderId?: string | null;
  /** A project's part invoice (core/projects/project-invoice.service.ts). */
  projectId?: string | null;
  customerId: string;
  invoiceDate: string;
  deliveryDate: string | null;
  paymentTermDays: number;
  paymentDueDate: string;
  marking: string | null;
  description: string | null;
  customerOrderNumber: string | null;
  ourReference: string | null;
  yourReference: string | null;
  invoiceFee: string | null;
  vatPercentage: string;
  reverseVat: boolean;
  bgAccount: string | null;
  bankAccount: string | null;
  taxReduction: TaxReductionKind;
  propertyDesignation: string | null;
  housingOrgNr: string | null;
  taxReductionPersons: { personId: string }[];
  data: unknown;
}

export function lineRecord(invoiceId: string, l: InvoiceLine, i: number): Row {
  return {
    invoice_id: invoiceId,
    kind: l.kind,
    article_id: l.articleId,
    article_number: l.articleNumber,
    title: l.title,
    description: l.description,
    unit: l.unit,
    amount: l.kind === 'text' ? 0 : l.amount,
    price: l.kind === 'text' ? 0 : l.price,
    discount_type: l.discountType,
    discount_value: l.discountType ? (l.discountValue ?? '0') : null,
    vat_percent: l.vatPercent,
    work: l.work,
    green: l.green,
    user_id: l.userId,
    is_text: l.kind === 'text',
    sort_order: i + 1,
    total: 0,
  };
}

/** Inserts an invoice (a draft) and its rows and computes its figures. */
export async function insertInvoice(ctx: Ctx, header: InvoiceHeader, lines: InvoiceLine[]): Promise<string> {
  const [row] = await ctx
    .trx('invoices')
    .insert({
      status: 'draft',
      work_order_id: header.workOrderId ?? null,
      sales_order_id: header.salesOrderId ?? null,
      project_id: header.projectId ?? null,
      customer_id: header.customerId,
      invoice_date: header.invoiceDate,
      delivery_date: header.deliveryDate,
      payment_term_days: header.paymentTermDays,
      payment_due_date: header.paymentDueDate,
      marking: header.marking,
      description: header.description,
      customer_order_number: header.customerOrderNumber,
      our_reference: header.ourReference,
      your_reference: header.yourReference,
      invoice_fee: header.invoiceFee,
      vat_percentage: header.vatPercentage,
      reverse_vat: header.reverseVat,
      bg_account: header.bgAccount,
      bank_account: header.bankAccount,
      tax_reduction: header.taxReduction,
      property_designation: header.propertyDesignation,
      housing_org_nr: header.housingOrgNr,
      tax_reduction_persons: JSON.stringify(header.taxReductionPersons),
      data: JSON.stringify(header.data),
      create_user_id: ctx.auth?.user.id ?? null,
      create_ts: ctx.now,
      update_ts: ctx.now,
    })
    .returning('id');
  const id = row.id as string;
  if (lines.length) await ctx.trx('invoice_rows').insert(lines.map((l, i) => lineRecord(id, l, i)));
  await recomputeInvoice(ctx, id);
  return id;
}

/** Reads the stored rows and invoice fields into the arithmetic's input. */
export function figuresOf(invoice: Row, rows: Row[]): InvoiceFigures {
  const persons = Array.isArray(invoice.tax_reduction_persons) ? invoice.tax_reduction_persons.length : 0;
  return invoiceFigures({
    lines: rows.map((r) => ({
      amount: String(r.amount),
      price: String(r.price),
      discount: r.discount_type ? discountOf(r.discount_type as string, String(r.discount_value ?? '0')) : null,
      vatPercent: String(Number(r.vat_percent)) as VatRate,
      isText: Boolean(r.is_text),
      work: r.work as 'labour' | 'material',
      green: (r.green as 'solar' | 'storage' | 'charger' | null) ?? null,
    })),
    reverseVat: Boolean(invoice.reverse_vat),
    taxReduction: invoice.tax_reduction as TaxReductionKind,
    reductionDay: (invoice.due_text as string | null) ?? (invoice.date_text as string),
    persons: Math.max(1, persons),
  });
}

/** The invoice's columns with its dates as text (`YYYY-MM-DD`), whatever the driver makes of a date. */
export const invoiceColumns = (trx: Trx) => [
  'invoices.*',
  trx.raw('invoices.invoice_date::text as date_text'),
  trx.raw('invoices.payment_due_date::text as due_text'),
  trx.raw('invoices.delivery_date::text as delivery_text'),
];

/** Recomputes a draft's row totals and its figures from what is stored: two statements after the read. */
export async function recomputeInvoice(ctx: Ctx, invoiceId: string): Promise<InvoiceFigures> {
  const invoice: Row | undefined = await ctx
    .trx('invoices')
    .where({ id: invoiceId })
    .first(...invoiceColumns(ctx.trx));
  if (!invoice) throw notFound();
  const rows: Row[] = await ctx
    .trx('invoice_rows')
    .where({ invoice_id: invoiceId })
    .orderBy([{ column: 'sort_order' }, { column: 'id' }]);
  const f = figuresOf(invoice, rows);
  if (rows.length)
    await ctx.trx.raw(
      `update invoice_rows r set total = cast(x->>'total' as numeric)
         from jsonb_array_elements(cast(? as jsonb)) x
        where r.id = cast(x->>'id' as uuid) and r.total <> cast(x->>'total' as numeric)`,
      [JSON.stringify(rows.map((r, i) => ({ id: r.id, total: f.lines[i]!.total })))],
    );
  await ctx
    .trx('invoices')
    .where({ id: invoiceId })
    .update({
      total_price: f.net,
      vat_total: f.vatTotal,
      rounding: f.rounding,
      total_price_vat: f.total,
      tax_reduction_amount: f.taxReduction?.amount ?? formatDecimal(0),
      to_pay: f.toPay,
    });
  return f;
}

/**
 * Gives a draft its number (the tenant's next, under the counter's row lock: a rollback gives the
 * number back, so finalized invoices have no gaps), its OCR reference, and makes it final. History:
 * finalize.
 */
export async function finalizeInvoice(ctx: Ctx, invoiceId: string): Promise<{ invoiceNr: string }> {
  const invoice: Row | undefined = await ctx.trx('invoices').where({ id: invoiceId }).forUpdate().first();
  if (!invoice) throw notFound();
  if (invoice.status !== 'draft') throw new AppError('INVOICE_NOT_DRAFT', 409);
  const rows = await ctx.trx('invoice_rows').where({ invoice_id: invoiceId, is_text: false }).count({ n: '*' });
  if (Number(rows[0]?.n ?? 0) === 0) throw new AppError('INVOICE_HAS_NO_ROWS', 409);
  const counter = await ctx.trx.raw(
    `update invoice_settings set next_invoice_nr = next_invoice_nr + 1 returning next_invoice_nr - 1 as nr, ocr`,
  );
  const taken = counter.rows[0] as { nr: string | number; ocr: boolean };
  const invoiceNr = String(taken.nr);
  await ctx
    .trx('invoices')
    .where({ id: invoiceId })
    .update({
      status: 'finalized',
      invoice_nr: invoiceNr,
      invoice_sequence: taken.nr,
      ocr: taken.ocr ? ocrReference(invoiceNr) : null,
      finalized_at: ctx.now,
      finalized_user_id: ctx.auth?.user.id ?? null,
      version: Number(invoice.version) + 1,
      update_ts: ctx.now,
    });
  await recordHistory(ctx, { entity: INVOICE_ENTITY, entityId: invoiceId, action: 'finalize', data: { invoiceNr } });
  return { invoiceNr };
}

/**
 * Takes an order's current invoice off it when the order is reopened (spec section 4: reopening
 * deletes the invoice in the product but keeps the ERP invoice). A draft is deleted with its rows.
 * A final invoice keeps its number (numbers have no gaps): one already in the ERP, or on its way, is
 * kept and unlinked; one that never left is voided and unlinked, and its waiting delivery dropped.
 */
export async function detachOrderInvoices(
  ctx: Ctx,
  where: { work_order_id: string } | { sales_order_id: string },
): Promise<{ deleted: number; kept: number; voided: number }> {
  const current = () => ctx.trx('invoices').where(where).whereNull('unlinked_at');
  const deleted = Number(await current().where({ status: 'draft' }).delete());
  const finals: Row[] = await current()
    .leftJoin('erp_deliveries as d', function () {
      this.on('d.invoice_id', '=', 'invoices.id').andOnIn('d.status', MAYBE_AT_VENDOR);
    })
    .select('invoices.id', 'invoices.erp_reference_id', 'd.id as delivery_id');
  const kept = finals.filter((f) => f.erp_reference_id || f.delivery_id).map((f) => f.id as string);
  const voided = finals.filter((f) => !f.erp_reference_id && !f.delivery_id).map((f) => f.id as string);
  if (kept.length) await ctx.trx('invoices').whereIn('id', kept).update({ unlinked_at: ctx.now, update_ts: ctx.now });
  if (voided.length) {
    await ctx
      .trx('invoices')
      .whereIn('id', voided)
      .update({ status: 'void', unlinked_at: ctx.now, update_ts: ctx.now });
    await ctx
      .trx('erp_deliveries')
      .whereIn('invoice_id', voided)
      .whereIn('status', ['pending', 'failed'])
      .update({ status: 'skipped', error_code: 'INVOICE_VOID', updated_at: ctx.now });
    await ctx.trx('history').insert(
      voided.map((id) => ({
        entity: INVOICE_ENTITY,
        entity_id: id,
        action: 'void',
        user_id: ctx.auth?.user.id ?? null,
        at: ctx.now,
        data: null,
      })),
    );
  }
  return { deleted, kept: kept.length, voided: voided.length };
}
