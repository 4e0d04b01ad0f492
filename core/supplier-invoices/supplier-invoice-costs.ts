import { articleForSupplierNumber, firstFreeTextArticle } from '~/core/articles/article-suppliers.service';
import type { Ctx } from '~/core/context';
import { compare, decimalPlaces, formatDecimal, isNegative, markup, mul, rowTotal } from '~/core/pricing';

/*
 * What an approved supplier invoice costs, and where it goes (issue 33 item 4; decision 054).
 *
 * Every approved row is a cost of its work order or project exactly once:
 * - re-invoiced (the tenant's rule is on, the invoice is on an open work order, the row is a
 *   positive purchase and an article fits it): the row becomes an article row of the order with the
 *   supplier's price as its purchase price and the tenant's markup on top as its sales price. That
 *   row is a cost of the order and its project like any article row (and reaches the customer's
 *   invoice when the order is closed); the supplier-invoice row points to it.
 * - otherwise: the row stays a supplier-invoice cost, counted by the project's costs from
 *   supplier_invoice_rows (those without an article row), never also as an article row.
 */

type Row = Record<string, unknown>;

/**
 * Makes the approved invoice's rows billable rows of its work order where the tenant's rule says so;
 * answers how many. Runs in the approving transaction.
 */
export async function rebillApprovedRows(ctx: Ctx, invoiceId: string): Promise<number> {
  const settings: Row | undefined = await ctx.trx('supplier_invoice_settings').first('rebill', 'rebill_markup');
  if (!settings?.rebill) return 0;
  const si: Row | undefined = await ctx
    .trx('supplier_invoices as si')
    .leftJoin('suppliers as s', 's.id', 'si.supplier_id')
    .join('work_orders as w', 'w.id', 'si.work_order_id')
    .where('si.id', invoiceId)
    .whereNull('w.closed_at')
    .whereNull('w.deleted_at')
    .where('w.is_locked', false)
    .first(
      'si.id',
      'si.invoice_type',
      'si.invoice_number',
      'si.supplier_id',
      'si.work_order_id',
      's.title as supplier_title',
    );
  // a credit note reduces the cost, never the customer's invoice: it stays a supplier-invoice cost
  if (!si || si.invoice_type !== 'invoice') return 0;
  const rows: Row[] = await ctx
    .trx('supplier_invoice_rows')
    .where({ supplier_invoice_id: invoiceId })
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
    workOrderId: si.work_order_id as string,
    supplierId: (si.supplier_id as string) ?? null,
    reference: `${String(si.supplier_title ?? '')} ${String(si.invoice_number)}`.trim(),
    markupPercent: String(settings.rebill_markup),
    rows: rows.map((r) => ({
      description: String(r.description),
      articleNumber: (r.article_number as string) ?? null,
      amount: String(r.amount),
      price: String(r.price),
      total: String(r.total),
    })),
  });
  return linkAddedRows(ctx, 'supplier_invoice_rows', rows, added);
}

/**
 * Points a supplier's rows (invoice or order-confirmation rows) at the work-order rows made of them,
 * in one statement; answers how many were added.
 */
export async function linkAddedRows(
  ctx: Ctx,
  table: 'supplier_invoice_rows' | 'supplier_order_rows',
  rows: readonly Row[],
  added: readonly (string | null)[],
): Promise<number> {
  const pairs = added.flatMap((articleRowId, i) => (articleRowId ? [[rows[i]!.id as string, articleRowId]] : []));
  if (pairs.length)
    await ctx.trx.raw(
      `update ${table} t set work_order_article_id = p.article_row_id
         from unnest(?::uuid[], ?::uuid[]) as p (id, article_row_id) where t.id = p.id`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
  return pairs.length;
}

export interface SupplierRow {
  description: string;
  /** Ours, or the supplier's number for one of ours. */
  articleNumber: string | null;
  amount: string;
  /** The supplier's net price of one unit: the purchase price. */
  price: string;
  /** What the supplier charges for the row (amount × price as it stated it). */
  total: string;
}

/**
 * A supplier's rows as article rows of an open work order (supplier-invoice re-invoicing, and the
 * rows of a supplier's order confirmation, decision 055): the article by our number or the
 * supplier's number for one of ours, else the first active free-text article; the supplier's price
 * as purchase price and price × (1 + markup) as sales price. Kept exact: the row as stated when its
 * figures fit an article row (price in öre, quantity in thousandths, and together its total), else
 * one unit at the row's total. A row of no positive total, or with no article to carry it, is not
 * added. Answers the new work-order row's id for each row given (null where none was added). The
 * caller has made sure the order is open; runs in its transaction.
 */
export async function addSupplierRowsToWorkOrder(
  ctx: Ctx,
  input: {
    workOrderId: string;
    supplierId: string | null;
    reference: string;
    markupPercent: string;
    rows: readonly SupplierRow[];
  },
): Promise<(string | null)[]> {
  const freetext = await firstFreeTextArticle(ctx);
  const maxSort: Row | undefined = await ctx
    .trx('work_order_articles')
    .where({ work_order_id: input.workOrderId })
    .max({ m: 'sort_order' })
    .first();
  let sort = Number(maxSort?.m ?? -1) + 1;
  const out: (string | null)[] = [];
  for (const r of input.rows) {
    const total = r.total;
    if (isNegative(total) || compare(total, '0') === 0) {
      out.push(null);
      continue;
    }
    const article = (await articleForSupplierNumber(ctx, r.articleNumber, input.supplierId)) ?? freetext;
    if (!article) {
      out.push(null);
      continue;
    }
    const exact =
      decimalPlaces(r.price) <= 2 &&
      decimalPlaces(r.amount) <= 3 &&
      compare(formatDecimal(mul(r.amount, r.price)), total) === 0;
    const amount = exact ? formatDecimal(r.amount, 3) : '1';
    const purchase = exact ? formatDecimal(r.price) : total;
    const price = markup(purchase, input.markupPercent);
    const [inserted] = (await ctx
      .trx('work_order_articles')
      .insert({
        work_order_id: input.workOrderId,
        article_id: article.id,
        title: r.description.slice(0, 200),
        description: input.reference,
        amount,
        price,
        purchase_price: purchase,
        total: rowTotal({ amount, price }),
        sort_order: sort++,
        user_id: ctx.auth?.user.id ?? null,
        created_at: ctx.now,
      })
      .returning('id')) as Row[];
    out.push(inserted!.id as string);
  }
  return out;
}
