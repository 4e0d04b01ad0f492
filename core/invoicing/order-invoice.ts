import { mailLang } from '~/core/auth/recovery.service';
import type { Ctx } from '~/core/context';
import { recordHistory } from '~/core/history/history';
import { compare, formatDecimal } from '~/core/pricing';
import { addDays } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import { FEE_ROW_TITLE } from '~/core/work-orders/close.rules';
import type { WorkOrder } from '~/core/work-orders/work-order-read';
import { erpProvider, readErpConnection } from './erp-connection';
import { queueDelivery } from './erp-delivery';
import { readInvoiceRules, vatRateOf, workOrderLines, type InvoiceLine } from './invoice-lines';
import { finalizeInvoice, INVOICE_ENTITY, insertInvoice, type InvoiceHeader } from './invoice-store';

/*
 * The invoice an order's close makes (issue 14 item 1; spec section 4: closing sends the invoice to
 * the ERP unless the customer is set not to send): built from the order, final at once unless the
 * tenant reviews invoices first, and queued for the ERP in the same transaction as the close.
 */

type Row = Record<string, unknown>;

export interface MadeInvoice {
  invoiceId: string;
  status: 'draft' | 'finalized';
  invoiceNr: string | null;
  totalPrice: string;
  totalPriceVat: string;
  queued: boolean;
}

/** Final unless reviewed; then to the ERP when it takes invoices, the customer wants it and there is something to pay. */
async function finishInvoice(ctx: Ctx, invoiceId: string, customer: Row): Promise<MadeInvoice> {
  const rules = await readInvoiceRules(ctx);
  let invoiceNr: string | null = null;
  let queued = false;
  if (!rules.reviewBeforeSending) {
    invoiceNr = (
      await finalizeInvoice(ctx, invoiceId).catch((e: unknown) => {
        // an invoice with nothing on it stays a draft: there is nothing to number or send
        if ((e as { code?: string }).code === 'INVOICE_HAS_NO_ROWS') return { invoiceNr: null };
        throw e;
      })
    ).invoiceNr;
  }
  const totals: Row = await ctx.trx('invoices').where({ id: invoiceId }).first('total_price', 'total_price_vat');
  if (invoiceNr && customer.send_to_erp !== false) {
    const { provider } = erpProvider((await readErpConnection(ctx.trx)).kind);
    if (provider.capabilities.sendInvoices) {
      if (compare(String(totals.total_price_vat), 0) === 0)
        await ctx.trx('invoices').where({ id: invoiceId }).update({ erp_state: 'not_sent.zero_price' });
      else {
        await queueDelivery(ctx, invoiceId);
        queued = true;
      }
    }
  }
  return {
    invoiceId,
    status: invoiceNr ? 'finalized' : 'draft',
    invoiceNr,
    totalPrice: formatDecimal(String(totals.total_price)),
    totalPriceVat: formatDecimal(String(totals.total_price_vat)),
    queued,
  };
}

/** The company part of the invoice's data (spec: instance part), as it was when the invoice was made. */
export function companyParts(ctx: Ctx) {
  const { company } = ctx.tenant.config;
  return {
    instance: {
      companyName: company.companyName ?? ctx.tenant.displayName,
      companyNr: company.companyNr,
      address: company.address,
      postIndex: company.postIndex,
      city: company.city,
      email: company.email,
      phone: company.phone,
      bgAccount: company.bgAccount,
      vatRegistrationNr: company.vatRegistrationNr,
    },
    bgAccount: company.bgAccount,
  };
}

export function customerPart(customer: Row, ignoreReverseVat: boolean) {
  return {
    id: customer.id,
    customerId: customer.customer_id,
    displayName: customer.name,
    contactEmail: customer.invoice_email ?? customer.email ?? null,
    contactTel: customer.phone ?? null,
    organizationalNumber: customer.organizational_number ?? null,
    sendToErp: customer.send_to_erp !== false,
    configuration: {
      ...((customer.configuration ?? {}) as Row),
      invoice: { reverseVat: Boolean(customer.reverse_vat), customerVatNumber: customer.vat_number ?? null },
    },
    ignoreReverseVAT: ignoreReverseVat,
  };
}

export interface WorkOrderInvoiceInput {
  wo: WorkOrder;
  customer: Row;
  invoiceDate: string;
  deliveryDate: string;
  fee: string | null;
  vat: string;
  reverseVat: boolean;
  ignoreReverseVat: boolean;
  termDays: number;
}

/** A row worth an invoice: anything priced but the invoice fee and text (issue 28 item 6). */
const billable = (l: InvoiceLine) => l.kind !== 'fee' && l.kind !== 'text' && Number(l.amount) !== 0;

/**
 * The work order's invoice: articles, labour, travel and mileage by the rules, the fee. Null when
 * the order bills nothing (no time, no articles): a fee alone is never invoiced.
 */
export async function createWorkOrderInvoice(ctx: Ctx, input: WorkOrderInvoiceInput): Promise<MadeInvoice | null> {
  const { wo, customer } = input;
  const rules = await readInvoiceRules(ctx);
  const lang = mailLang(ctx, customer.invoice_language as string | null);
  const defaultVat = vatRateOf(input.vat);
  const lines = await workOrderLines(ctx, {
    workOrderId: wo.id,
    workTypeId: wo.workTypeId,
    customerId: customer.id as string,
    businessObjectId: wo.businessObjectId,
    fee: input.fee,
    feeTitle: FEE_ROW_TITLE[lang],
    defaultVat,
    rules,
    lang,
  });
  if (!lines.some(billable)) return null;
  const bo = wo.businessObjectId
    ? await ctx.trx('business_objects').where({ id: wo.businessObjectId }).first('id', 'serial_code')
    : null;
  const company = companyParts(ctx);
  const header: InvoiceHeader = {
    workOrderId: wo.id,
    customerId: customer.id as string,
    invoiceDate: input.invoiceDate,
    deliveryDate: input.deliveryDate,
    paymentTermDays: input.termDays,
    paymentDueDate: addDays(input.invoiceDate, input.termDays),
    marking: wo.invoiceMarking,
    description: wo.title,
    customerOrderNumber: wo.customerOrderNumber,
    ourReference: ctx.auth?.user.fullName ?? null,
    yourReference: wo.contactName ?? null,
    invoiceFee: input.fee,
    vatPercentage: input.reverseVat ? '0' : input.vat,
    reverseVat: input.reverseVat,
    bgAccount: company.bgAccount,
    bankAccount: rules.bankAccount,
    taxReduction: 'none',
    propertyDesignation: null,
    housingOrgNr: null,
    taxReductionPersons:
      customer.type === 'private' && customer.person_id ? [{ personId: String(customer.person_id) }] : [],
    data: {
      instance: company.instance,
      customer: customerPart(customer, input.ignoreReverseVat),
      workOrder: {
        id: wo.id,
        number: wo.number,
        title: wo.title,
        customerOrderNumber: wo.customerOrderNumber,
        invoiceMarking: wo.invoiceMarking,
        address: { street: wo.street, postIndex: wo.postIndex, city: wo.city },
        ignoreReverseVAT: input.ignoreReverseVat,
      },
      businessObject: bo ? { id: bo.id, serialCode: bo.serial_code } : null,
    },
  };
  const invoiceId = await insertInvoice(ctx, header, lines);
  await recordHistory(ctx, {
    entity: INVOICE_ENTITY,
    entityId: invoiceId,
    action: 'create',
    data: { workOrder: { id: wo.id, number: wo.number }, rows: lines.length },
  });
  return finishInvoice(ctx, invoiceId, customer);
}

/** A sales order's invoice on its close: its article rows (comment rows as text), no fee. */
export async function createSalesOrderInvoice(ctx: Ctx, salesOrderId: string): Promise<MadeInvoice> {
  const so: Row = await ctx.trx('sales_orders').where({ id: salesOrderId }).first();
  const customer: Row = await ctx.trx('customers').where({ id: so.customer_id }).first();
  const rows: Row[] = await ctx
    .trx('proposal_rows as r')
    .leftJoin('articles as a', 'a.id', 'r.article_id')
    .where('r.sales_order_id', salesOrderId)
    .orderBy([{ column: 'r.sort_order' }, { column: 'r.id' }])
    .select(
      'r.*',
      'a.article_id as article_number',
      'a.vat_percent',
      'a.product_type',
      'a.house_work',
      'a.unit as a_unit',
    );
  const settings: Row | undefined = await ctx.trx('work_order_settings').first('vat_percentage');
  const defaultVat = vatRateOf(settings?.vat_percentage);
  const lines: InvoiceLine[] = rows
    .filter((r) => !r.is_summary_row)
    .map((r) => {
      const isText = !r.article_id;
      const discountType = r.discount_type === 'PERCENTAGE' || r.discount_type === 'REGULAR' ? r.discount_type : null;
      return {
        kind: isText ? 'text' : 'article',
        articleId: (r.article_id as string) ?? null,
        articleNumber: (r.article_number as string) ?? null,
        title: String((isText ? r.comment : r.article_title) ?? ''),
        description: (r.article_description as string) ?? null,
        unit: ((r.article_unit ?? r.a_unit) as string) ?? null,
        amount: String(r.amount ?? '1'),
        price: String(r.price ?? '0'),
        discountType,
        discountValue: discountType ? String(r.discount_value ?? '0') : null,
        vatPercent: vatRateOf(r.vat_percent, defaultVat),
        work: r.product_type === 'service' || r.house_work ? 'labour' : 'material',
        green: null,
        userId: null,
      } satisfies InvoiceLine;
    })
    .filter((l) => l.kind !== 'text' || l.title);
  const rules = await readInvoiceRules(ctx);
  const company = companyParts(ctx);
  const today = tenantToday(ctx);
  const termDays = typeof customer.payment_term_days === 'number' ? customer.payment_term_days : 30;
  const reverseVat = Boolean(customer.reverse_vat);
  const referenceUser: Row | undefined = so.reference_user_id
    ? await ctx.trx('users').where({ id: so.reference_user_id }).first('name')
    : undefined;
  const invoiceId = await insertInvoice(
    ctx,
    {
      salesOrderId,
      customerId: customer.id as string,
      invoiceDate: today,
      deliveryDate: today,
      paymentTermDays: termDays,
      paymentDueDate: addDays(today, termDays),
      marking: null,
      description: so.title as string,
      customerOrderNumber: null,
      ourReference: (referenceUser?.name as string) ?? null,
      yourReference: null,
      invoiceFee: null,
      vatPercentage: reverseVat ? '0' : defaultVat,
      reverseVat,
      bgAccount: company.bgAccount,
      bankAccount: rules.bankAccount,
      taxReduction: 'none',
      propertyDesignation: null,
      housingOrgNr: null,
      taxReductionPersons:
        customer.type === 'private' && customer.person_id ? [{ personId: String(customer.person_id) }] : [],
      data: {
        instance: company.instance,
        customer: customerPart(customer, false),
        salesOrder: { id: so.id, number: so.number, title: so.title },
      },
    },
    lines,
  );
  await recordHistory(ctx, {
    entity: INVOICE_ENTITY,
    entityId: invoiceId,
    action: 'create',
    data: { salesOrder: { id: so.id, number: so.number }, rows: lines.length },
  });
  return finishInvoice(ctx, invoiceId, customer);
}
