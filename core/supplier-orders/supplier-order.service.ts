import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { OrderCsvRefusal, parseOrderCsv } from './order-csv';
import { requireAccess } from '~/core/permissions/access';
import { formatDecimal, mul, round, sum } from '~/core/pricing';
import { containsPattern, uniqueViolation } from '~/core/registers/list-query';
import { matchSupplier, openWorkOrderFor, supplierKey, type Seller } from '~/core/supplier-invoices/matching';
import { addSupplierRowsToWorkOrder, linkAddedRows } from '~/core/supplier-invoices/supplier-invoice-costs';
import { checkInboundSecret } from '~/core/supplier-invoices/supplier-invoice.service';
import { UblRefusal } from '~/core/xml/ubl-reader';
import type { SupplierOrderDocument } from './supplier-order-document';
import {
  SUPPLIER_ORDER_MONTHS,
  ZSupplierOrderFilter,
  ZSupplierOrderHandle,
  ZSupplierOrderUpload,
} from './supplier-order.schema';
import { parseOrderResponse } from './ubl-order-response';

/*
 * Supplier orders (issue 33 item 5; api-calls.md "GET /suppliers/order; POST
 * /suppliers/order/{id}/discard; POST /suppliers/order/{id}/handle {workOrderTitle}"; decision 055).
 * A wholesaler's order confirmation (a Peppol Order Response, or its CSV) carrying a work-order
 * reference adds its rows to that open work order, each once; one whose reference names no open
 * order is "in error": listed for the past two months to be re-handled with a work order's number
 * or title, or discarded. The dashboard counts them.
 *
 * Who: supplier_orders:edit (the spec's one permission for them) uploads, lists, handles and
 * discards; the module is supplier_invoices (issue 33's area).
 */

type Row = Record<string, unknown>;

export const SUPPLIER_ORDER_ENTITY = 'supplier_order';
export const SUPPLIER_ORDER_ACCESS = {
  edit: { permission: 'supplier_orders:edit', module: 'supplier_invoices' },
} as const;

const money = (v: unknown) => formatDecimal(String(v ?? '0'));
const trimmedAmount = (v: unknown) =>
  String(v)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '') || '0';
/** A unit price: two decimals, four when the supplier gave them ("12.37", "0.0825"). */
const priceText = (v: unknown) => {
  const s = String(v);
  return /\.\d\d[1-9]|\.\d\d\d[1-9]/.test(s) ? formatDecimal(s, 4) : formatDecimal(s, 2);
};

/** The start of the spec's window: SUPPLIER_ORDER_MONTHS calendar months before now. */
export function supplierOrderWindowStart(now: Date): Date {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - SUPPLIER_ORDER_MONTHS);
  return d;
}

// ---- arrival ----

/** A refusal of either reader as the API's 400: the field `document`, the refusal's key, the rule in `message`. */
function refused(e: UblRefusal | OrderCsvRefusal): AppError {
  return new AppError('SUPPLIER_ORDER_INVALID', 400, {
    fields: { document: [`SUPPLIER_ORDER_${e.code}`] },
    message: `${e.rule}: ${e.message}`,
  });
}

function read(format: 'peppol' | 'csv', text: string): SupplierOrderDocument[] {
  try {
    return format === 'peppol' ? [parseOrderResponse(text)] : parseOrderCsv(text);
  } catch (e) {
    if (e instanceof UblRefusal || e instanceof OrderCsvRefusal) throw refused(e);
    throw e;
  }
}

export interface ArrivedOrder {
  id: string | null;
  orderNumber: string;
  status: 'added' | 'error' | 'nothing';
  workOrderId: string | null;
  workOrderNumber: string | null;
  rowsAdded: number;
  skippedLines: SupplierOrderDocument['skipped'];
}

/** The rows a confirmation has not yet put on its order, as work-order rows of `workOrderId`; answers how many. */
async function addRows(ctx: Ctx, order: Row, workOrderId: string): Promise<number> {
  const settings: Row | undefined = await ctx.trx('supplier_invoice_settings').first('rebill_markup');
  const supplier: Row | undefined = order.supplier_id
    ? await ctx.trx('suppliers').where({ id: order.supplier_id }).first('title')
    : undefined;
  const rows: Row[] = await ctx
    .trx('supplier_order_rows')
    .where({ supplier_order_id: order.id })
    .whereNull('work_order_article_id')
    .orderBy(['sort_order', 'id'])
    .select(
      'id',
      'description',
      'article_number',
      ctx.trx.raw('amount::text as amount'),
      ctx.trx.raw('price::text as price'),
      ctx.trx.raw('total::text as total'),
    );
  const added = await addSupplierRowsToWorkOrder(ctx, {
    workOrderId,
    supplierId: (order.supplier_id as string) ?? null,
    reference: `${String(supplier?.title ?? order.seller_name ?? '')} ${String(order.order_number)}`.trim(),
    markupPercent: String(settings?.rebill_markup ?? '0'),
    rows: rows.map((r) => ({
      description: String(r.description),
      articleNumber: (r.article_number as string) ?? null,
      amount: String(r.amount),
      price: String(r.price),
      total: String(r.total),
    })),
  });
  return linkAddedRows(ctx, 'supplier_order_rows', rows, added);
}

function duplicateOf(first: Row): AppError {
  return new AppError('SUPPLIER_ORDER_DUPLICATE', 409, {
    message: `${String(first.order_number)}: ${String(first.id)}`,
    duplicateOf: first.id,
  });
}

/** Stores one confirmation and, when its reference names an open work order, adds its rows there. */
async function arrive(
  ctx: Ctx,
  doc: SupplierOrderDocument,
  given: { supplierId: string | null; seller: Seller | null; document: string | null },
): Promise<ArrivedOrder> {
  const arrived = { orderNumber: doc.orderNumber, skippedLines: doc.skipped };
  // an acknowledgement (AB), an acceptance without lines (AP) or a rejection (RE) carries no rows
  if (!doc.lines.length)
    return { ...arrived, id: null, status: 'nothing', workOrderId: null, workOrderNumber: null, rowsAdded: 0 };
  const seller: Seller = doc.seller ??
    given.seller ?? { name: null, organizationNumber: null, peppolId: null, vatNumber: null };
  const supplierId = given.supplierId ?? (await matchSupplier(ctx.trx, seller));
  const key = supplierKey(supplierId, seller);
  const first: Row | undefined = await ctx
    .trx('supplier_orders')
    .whereRaw('lower(order_number) = lower(?)', [doc.orderNumber])
    .where((q) => {
      q.where('supplier_key', key);
      if (supplierId) q.orWhere('supplier_id', supplierId);
    })
    .orderBy('created_at')
    .first('id', 'order_number');
  if (first) throw duplicateOf(first);
  const workOrder =
    (doc.workOrderReference ? await openWorkOrderFor(ctx.trx, doc.workOrderReference) : null) ??
    (doc.otherReference ? await openWorkOrderFor(ctx.trx, doc.otherReference) : null);
  let inserted: Row[];
  try {
    inserted = await ctx
      .trx('supplier_orders')
      .insert({
        source: doc.source,
        supplier_id: supplierId,
        supplier_key: key,
        seller_name: seller.name,
        seller_org_number: seller.organizationNumber,
        seller_peppol_id: seller.peppolId,
        order_number: doc.orderNumber,
        response_id: doc.responseId,
        response_code: doc.responseCode,
        order_date: doc.orderDate,
        currency: doc.currency,
        work_order_reference: doc.workOrderReference,
        other_reference: doc.otherReference,
        status: workOrder ? 'added' : 'error',
        work_order_id: workOrder?.id ?? null,
        document: given.document,
        create_user_id: ctx.auth?.user.id ?? null,
        created_at: ctx.now,
        updated_at: ctx.now,
      })
      .returning('*');
  } catch (e) {
    // another arrival of the same confirmation committed between the look and the insert
    if (uniqueViolation(e) === 'supplier_orders_number_idx')
      throw new AppError('SUPPLIER_ORDER_DUPLICATE', 409, { message: doc.orderNumber });
    throw e;
  }
  const order = inserted[0]!;
  await ctx.trx('supplier_order_rows').insert(
    doc.lines.map((l, i) => ({
      supplier_order_id: order.id,
      sort_order: i,
      line_id: l.lineId,
      description: l.description.slice(0, 500),
      article_number: l.articleNumber,
      amount: l.amount,
      unit: l.unit,
      price: l.price,
      total: formatDecimal(round(mul(l.amount, l.price), 2)),
    })),
  );
  const rowsAdded = workOrder ? await addRows(ctx, order, workOrder.id) : 0;
  await recordHistory(ctx, {
    entity: SUPPLIER_ORDER_ENTITY,
    entityId: order.id as string,
    action: 'create',
    data: { source: doc.source, orderNumber: doc.orderNumber, workOrderId: workOrder?.id ?? null, rowsAdded },
  });
  return {
    ...arrived,
    id: order.id as string,
    status: workOrder ? 'added' : 'error',
    workOrderId: workOrder?.id ?? null,
    workOrderNumber: workOrder?.number ?? null,
    rowsAdded,
  };
}

/**
 * POST /suppliers/order: a confirmation uploaded by a person (supplier_orders:edit) — a Peppol Order
 * Response, or a wholesaler's CSV with the supplier it came from (`supplierId`; a CSV names none).
 * A CSV may hold several orders; the whole upload is one unit of work: a refusal or a duplicate
 * (409 naming the first) leaves nothing behind.
 */
export async function uploadSupplierOrder(ctx: Ctx, raw: unknown): Promise<{ orders: ArrivedOrder[] }> {
  requireAccess(ctx.auth, SUPPLIER_ORDER_ACCESS.edit);
  const input = parseInput(ZSupplierOrderUpload, raw);
  const format =
    input.format ??
    (input.document
      .replace(/^\uFEFF/, '')
      .trimStart()
      .startsWith('<')
      ? 'peppol'
      : 'csv');
  let supplierId: string | null = null;
  let seller: Seller | null = null;
  if (format === 'csv') {
    const supplier: Row | undefined = input.supplierId
      ? await ctx
          .trx('suppliers')
          .where({ id: input.supplierId })
          .first('id', 'name', 'title', 'organization_number', 'peppol_id')
      : undefined;
    if (!supplier)
      throw new AppError('VALIDATION_FAILED', 400, {
        fields: { supplierId: [input.supplierId ? 'ERROR_INVALID_VALUE' : 'ERROR_REQUIRED_FIELD'] },
      });
    supplierId = supplier.id as string;
    seller = {
      name: String(supplier.name ?? supplier.title),
      organizationNumber: (supplier.organization_number as string) ?? null,
      peppolId: (supplier.peppol_id as string) ?? null,
      vatNumber: null,
    };
  }
  const docs = read(format, input.document);
  const orders: ArrivedOrder[] = [];
  for (const doc of docs)
    orders.push(await arrive(ctx, doc, { supplierId, seller, document: format === 'peppol' ? input.document : null }));
  return { orders };
}

/**
 * POST /suppliers/order/inbound: an access point posts a Peppol Order Response to the tenant's
 * inbound address with the same secret as supplier invoices (`Authorization: Bearer <secret>`).
 */
export async function receiveInboundOrder(
  ctx: Ctx,
  secret: string | null,
  xml: unknown,
): Promise<{ orders: ArrivedOrder[] }> {
  await checkInboundSecret(ctx.trx, secret);
  if (typeof xml !== 'string' || !xml.trim())
    throw new AppError('SUPPLIER_ORDER_INVALID', 400, { fields: { document: ['ERROR_REQUIRED_FIELD'] } });
  const [doc] = read('peppol', xml);
  return { orders: [await arrive(ctx, doc!, { supplierId: null, seller: null, document: xml })] };
}

// ---- orders in error ----

export interface SupplierOrderInError {
  id: string;
  source: 'peppol' | 'csv';
  orderNumber: string;
  orderDate: string | null;
  supplierId: string | null;
  supplierName: string | null;
  workOrderReference: string | null;
  currency: string;
  total: string;
  rows: {
    id: string;
    description: string;
    articleNumber: string | null;
    amount: string;
    unit: string | null;
    price: string;
    total: string;
  }[];
  createdAt: string;
}

/**
 * GET /suppliers/order: the confirmations in error of the past two months, newest first, with their
 * rows; `q` narrows to an order number, reference or supplier. Three statements (page, count, rows).
 */
export async function listSupplierOrdersInError(
  ctx: Ctx,
  raw: unknown,
): Promise<{ orders: SupplierOrderInError[]; totalCount: number }> {
  requireAccess(ctx.auth, SUPPLIER_ORDER_ACCESS.edit);
  const f = parseInput(ZSupplierOrderFilter, raw);
  const filtered = () => {
    const q = ctx
      .trx('supplier_orders as so')
      .leftJoin('suppliers as s', 's.id', 'so.supplier_id')
      .where('so.status', 'error')
      .where('so.created_at', '>=', supplierOrderWindowStart(ctx.now));
    if (f.q) {
      const like = containsPattern(f.q);
      q.where((w) =>
        w
          .whereRaw('lower(so.order_number) like ?', [like])
          .orWhereRaw('lower(so.work_order_reference) like ?', [like])
          .orWhereRaw('lower(coalesce(s.title, so.seller_name)) like ?', [like]),
      );
    }
    return q;
  };
  const page: Row[] = await filtered()
    .orderBy([
      { column: 'so.created_at', order: 'desc' },
      { column: 'so.id', order: 'desc' },
    ])
    .offset(f.offset)
    .limit(f.limit)
    .select(
      'so.id',
      'so.source',
      'so.order_number',
      ctx.trx.raw(`to_char(so.order_date, 'YYYY-MM-DD') as order_date`),
      'so.supplier_id',
      ctx.trx.raw('coalesce(s.title, so.seller_name) as supplier_name'),
      'so.work_order_reference',
      'so.currency',
      'so.created_at',
    );
  const [{ n }] = (await filtered().count({ n: '*' })) as { n: string }[];
  const rows: Row[] = page.length
    ? await ctx
        .trx('supplier_order_rows')
        .whereIn(
          'supplier_order_id',
          page.map((p) => p.id as string),
        )
        .orderBy(['supplier_order_id', 'sort_order', 'id'])
        .select(
          'id',
          'supplier_order_id',
          'description',
          'article_number',
          ctx.trx.raw('amount::text as amount'),
          'unit',
          ctx.trx.raw('price::text as price'),
          ctx.trx.raw('total::text as total'),
        )
    : [];
  return {
    orders: page.map((p) => {
      const own = rows.filter((r) => r.supplier_order_id === p.id);
      return {
        id: p.id as string,
        source: p.source as 'peppol' | 'csv',
        orderNumber: p.order_number as string,
        orderDate: (p.order_date as string) ?? null,
        supplierId: (p.supplier_id as string) ?? null,
        supplierName: (p.supplier_name as string) ?? null,
        workOrderReference: (p.work_order_reference as string) ?? null,
        currency: p.currency as string,
        total: formatDecimal(sum(own.map((r) => String(r.total)))),
        rows: own.map((r) => ({
          id: r.id as string,
          description: r.description as string,
          articleNumber: (r.article_number as string) ?? null,
          amount: trimmedAmount(r.amount),
          unit: (r.unit as string) ?? null,
          price: priceText(r.price),
          total: money(r.total),
        })),
        createdAt: new Date(p.created_at as string).toISOString(),
      };
    }),
    totalCount: Number(n),
  };
}

async function findInError(ctx: Ctx, id: unknown): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const order: Row | undefined = await ctx.trx('supplier_orders').where({ id }).forUpdate().first();
  if (!order) throw notFound();
  if (order.status !== 'error') throw new AppError('SUPPLIER_ORDER_NOT_IN_ERROR', 409);
  return order;
}

/**
 * POST /suppliers/order/{id}/handle {workOrderTitle}: re-handles an order in error against the open
 * work order the person names — its number, or its exact title when one open order has it — adding
 * the rows there (each once: a handled order is no longer in error, so a second try is 409).
 */
export async function handleSupplierOrder(
  ctx: Ctx,
  raw: unknown,
): Promise<{ ok: true; workOrderId: string; workOrderNumber: string; rowsAdded: number }> {
  requireAccess(ctx.auth, SUPPLIER_ORDER_ACCESS.edit);
  const input = parseInput(ZSupplierOrderHandle, raw);
  const order = await findInError(ctx, input.id);
  const workOrder = await openWorkOrderFor(ctx.trx, input.workOrderTitle, { byTitle: true });
  if (!workOrder)
    throw new AppError('VALIDATION_FAILED', 400, {
      fields: { workOrderTitle: ['SUPPLIER_ORDER_WORK_ORDER_NOT_FOUND'] },
    });
  await ctx.trx('supplier_orders').where({ id: order.id }).update({
    status: 'added',
    work_order_id: workOrder.id,
    handled_title: input.workOrderTitle,
    handled_at: ctx.now,
    handled_by: ctx.auth!.user.id,
    updated_at: ctx.now,
  });
  const rowsAdded = await addRows(ctx, order, workOrder.id);
  await recordHistory(ctx, {
    entity: SUPPLIER_ORDER_ENTITY,
    entityId: order.id as string,
    action: 'handle',
    data: { workOrderTitle: input.workOrderTitle, workOrderId: workOrder.id, rowsAdded },
  });
  return { ok: true, workOrderId: workOrder.id, workOrderNumber: workOrder.number, rowsAdded };
}

/** POST /suppliers/order/{id}/discard: an order in error is let go; nothing reaches a work order. */
export async function discardSupplierOrder(ctx: Ctx, id: unknown): Promise<{ ok: true }> {
  requireAccess(ctx.auth, SUPPLIER_ORDER_ACCESS.edit);
  const order = await findInError(ctx, id);
  await ctx
    .trx('supplier_orders')
    .where({ id: order.id })
    .update({ status: 'discarded', discarded_at: ctx.now, discarded_by: ctx.auth!.user.id, updated_at: ctx.now });
  await recordHistory(ctx, { entity: SUPPLIER_ORDER_ENTITY, entityId: order.id as string, action: 'discard' });
  return { ok: true };
}

/** The suppliers a CSV upload offers (active, by name; the spec's select lists stop at 200). */
export async function supplierChoices(ctx: Ctx): Promise<{ id: string; number: string; title: string }[]> {
  requireAccess(ctx.auth, SUPPLIER_ORDER_ACCESS.edit);
  return (await ctx
    .trx('suppliers')
    .where('status', 'active')
    .orderByRaw('lower(title), id')
    .limit(200)
    .select('id', 'number', 'title')) as { id: string; number: string; title: string }[];
}

/**
 * The open work orders the handle field suggests (a datalist: the newest 50 by intake; typing any
 * other number or title still works). One statement for the whole page.
 */
export async function openWorkOrderChoices(ctx: Ctx): Promise<{ number: string; title: string }[]> {
  requireAccess(ctx.auth, SUPPLIER_ORDER_ACCESS.edit);
  return (await ctx
    .trx('work_orders')
    .whereNull('deleted_at')
    .whereNull('closed_at')
    .where('is_locked', false)
    .orderBy([
      { column: 'intake_ts', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(50)
    .select('number', 'title')) as { number: string; title: string }[];
}
