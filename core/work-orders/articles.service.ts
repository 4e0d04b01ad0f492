import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import {
  compare,
  decimalPlaces,
  discountOf,
  formatDecimal,
  formatDiscount,
  isNegative,
  NO_DISCOUNT,
  parseDecimal,
  rowPurchaseTotal,
  rowTotal,
  sub,
  totals,
  zDiscountText,
  zOptionalMoney,
  type Discount,
  type DiscountType,
  type PriceLookup,
} from '~/core/pricing';
import { articleRowChanges, hasChanges, type ArticleRowSnapshot } from './article-rules';
import { priceArticles } from '~/core/articles/price-lookup.service';
import type { CatalogueRef } from '~/core/supplier-catalogues/catalogue.service';
import { pickedRow, supplierPicks } from '~/core/supplier-catalogues/catalogue-picks';
import { loadChangeable, loadWorkOrder, WO_ENTITY, type WorkOrder } from './work-order-read';

/** One article row on a work order as the panel and the API show it (money as decimal text). */
export interface WorkOrderArticleRow {
  id: string;
  articleId: string;
  /** The article's number (its "article ID"). */
  articleNumber: string;
  title: string;
  description: string | null;
  unit: string | null;
  /** A free-text article's row carries its own description (spec section 5). */
  lineType: 'regular' | 'freetext';
  /** Quantity, 3 decimals ("2.500"). */
  amount: string;
  /** Sales price per unit. */
  price: string;
  discountType: DiscountType;
  discountValue: string;
  /** The discount as it is typed: "10%", "150" or "". */
  discount: string;
  /** The row's total with its discount. */
  total: string;
  /** Purchase price per unit, its total and the row's margin: null without workorders:read_cost. */
  purchasePrice: string | null;
  purchaseTotal: string | null;
  margin: string | null;
  /** Where a row picked from a supplier's catalogue came from (spec: ref, type supplier-inventory). */
  ref: CatalogueRef | null;
}

export interface ArticlesPanelData {
  rows: WorkOrderArticleRow[];
  totals: {
    /** Sum of the rows' totals (without VAT). */
    net: string;
    /** Purchase cost, margin amount and margin percent: null without workorders:read_cost. */
    purchase: string | null;
    margin: string | null;
    marginPercent: string | null;
  };
  /** The user may change the rows now: workorders:report_articles on an open, unlocked order. */
  canReport: boolean;
  canReadCost: boolean;
}

type Fields = Record<string, string[]>;
type Row = Record<string, unknown>;

/** What a stored row holds, purchase price included (only the answer hides it). */
interface StoredRow {
  id: string;
  articleId: string;
  articleNumber: string;
  title: string;
  description: string | null;
  unit: string | null;
  lineType: 'regular' | 'freetext';
  amount: string;
  price: string;
  purchasePrice: string;
  discount: Discount;
  ref: CatalogueRef | null;
}

const changeable = (wo: WorkOrder) => !wo.isClosed && !wo.isLocked && !wo.deletedAt;

async function readRows(ctx: Ctx, workOrderId: string): Promise<StoredRow[]> {
  const rows: Row[] = await ctx
    .trx('work_order_articles as r')
    .join('articles as a', 'a.id', 'r.article_id')
    .where('r.work_order_id', workOrderId)
    .orderBy([{ column: 'r.sort_order' }, { column: 'r.created_at' }, { column: 'r.id' }])
    .select(
      'r.id',
      'r.article_id',
      'a.article_id as article_number',
      'r.title',
      'r.description',
      'a.unit',
      'a.line_type',
      ctx.trx.raw('r.amount::text as amount'),
      ctx.trx.raw('r.price::text as price'),
      ctx.trx.raw('coalesce(r.purchase_price, 0)::text as purchase_price'),
      'r.discount_type',
      ctx.trx.raw('r.discount_value::text as discount_value'),
      'r.ref',
    );
  return rows.map((r) => ({
    id: r.id as string,
    articleId: r.article_id as string,
    articleNumber: r.article_number as string,
    title: r.title as string,
    description: (r.description as string | null) ?? null,
    unit: (r.unit as string | null) ?? null,
    lineType: r.line_type === 'freetext' ? 'freetext' : 'regular',
    amount: formatDecimal(r.amount as string, 3),
    price: formatDecimal(r.price as string),
    purchasePrice: formatDecimal(r.purchase_price as string),
    discount: discountOf(r.discount_type as string | null, r.discount_value as string | null),
    ref: (r.ref as CatalogueRef | null) ?? null,
  }));
}

/** The panel's answer from stored rows: totals by core/pricing, cost only with workorders:read_cost. */
function panelOf(ctx: Ctx, wo: WorkOrder, stored: StoredRow[]): ArticlesPanelData {
  const canReadCost = hasAccess(ctx.auth, { permission: 'workorders:read_cost' });
  const sums = totals(stored);
  const rows = stored.map((r, i): WorkOrderArticleRow => {
    const total = sums.rowTotals[i]!;
    const purchaseTotal = canReadCost ? rowPurchaseTotal(r) : null;
    return {
      id: r.id,
      articleId: r.articleId,
      articleNumber: r.articleNumber,
      title: r.title,
      description: r.description,
      unit: r.unit,
      lineType: r.lineType,
      amount: r.amount,
      price: r.price,
      discountType: r.discount.type,
      discountValue: r.discount.value,
      discount: formatDiscount(r.discount),
      total,
      purchasePrice: canReadCost ? r.purchasePrice : null,
      purchaseTotal,
      margin: purchaseTotal === null ? null : formatDecimal(sub(total, purchaseTotal)),
      ref: r.ref,
    };
  });
  return {
    rows,
    totals: {
      net: sums.salesTotal,
      purchase: canReadCost ? sums.purchaseTotal : null,
      margin: canReadCost ? sums.margin.amount : null,
      marginPercent: canReadCost ? sums.margin.percent : null,
    },
    canReport: hasAccess(ctx.auth, { permission: 'workorders:report_articles' }) && changeable(wo),
    canReadCost,
  };
}

/**
 * GET /wo/{id}/articles: the articles reported on the order with totals (workorders:read; 404
 * outside the user's limit). Purchase prices, purchase total and margin only with
 * workorders:read_cost. Two statements: the order and its rows.
 */
export async function listWorkOrderArticles(ctx: Ctx, workOrderId: unknown): Promise<ArticlesPanelData> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const wo = await loadWorkOrder(ctx, workOrderId);
  return panelOf(ctx, wo, await readRows(ctx, wo.id));
}

const MAX_AMOUNT = '99999999999.999';

/** A quantity: at most 3 decimals; negative is AMOUNT_CANT_BE_NEGATIVE (spec section 5). */
const zAmount = () =>
  z.union([z.string(), z.number()], { error: 'ERROR_INVALID_VALUE' }).transform((raw, c) => {
    const d = parseDecimal(String(raw));
    if (!d || decimalPlaces(d) > 3 || compare(d, MAX_AMOUNT) > 0) {
      c.addIssue({ code: 'custom', message: 'ERROR_INVALID_VALUE' });
      return z.NEVER;
    }
    if (isNegative(d)) {
      c.addIssue({ code: 'custom', message: 'AMOUNT_CANT_BE_NEGATIVE' });
      return z.NEVER;
    }
    return formatDecimal(d, 3);
  });

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const ZArticleRow = z.object({
  id: z.string().nullish(),
  articleId: z.string().nullish(),
  /** A supplier catalogue's article (its id in /sbsc/products): the row is made from it. */
  supplierArticleId: z.string().max(20, 'ERROR_INVALID_VALUE').nullish(),
  amount: zAmount().optional(),
  price: zOptionalMoney().optional(),
  discount: zDiscountText().optional(),
  /** The discount was sent empty (see ZSaveArticles). */
  discountCleared: z.boolean().optional(),
  description: z
    .string()
    .trim()
    .max(2000, 'ERROR_MAX_LENGTH')
    .nullish()
    .transform((v) => (v === '' ? null : v)),
});

/** PUT /wo/{id}/articles: the order and its rows (the call names the order in its path). */
export const ZSaveArticles = z.object({
  workOrderId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  rows: z
    .array(
      // a new row without an article (an empty row the user added) is dropped, keeping the indexes
      z.preprocess((v) => {
        if (!v || typeof v !== 'object') return v;
        const r = v as Record<string, unknown>;
        if (blank(r.id) && blank(r.articleId) && blank(r.supplierArticleId)) return null;
        // An empty discount is "none typed": a row whose article is new gets the price lookup's
        // (a customer's discount must reach the invoice); a kept row's discount is cleared.
        if ('discount' in r && blank(r.discount)) {
          const { discount: _typed, ...rest } = r;
          return { ...rest, discountCleared: true };
        }
        return v;
      }, ZArticleRow.nullable()),
      { error: 'ERROR_INVALID_VALUE' },
    )
    .max(1000, 'ERROR_INVALID_VALUE'),
});

interface ArticleFacts {
  title: string;
  lineType: 'regular' | 'freetext';
  active: boolean;
  purchasePrice: string;
  lookup: PriceLookup;
}

/**
 * The articles a save brings onto the order, each priced for the order's customer and object
 * (docs/decisions/007-price-precedence; the rule is core/pricing resolvePrice). The same sources as
 * the single-article lookup of core/articles, for many articles in one statement.
 */
/** The columns of an article row that its content is (what a save merges and a copy takes). */
export const ARTICLE_ROW_COLUMNS = [
  'article_id',
  'title',
  'description',
  'amount',
  'price',
  'purchase_price',
  'discount_type',
  'discount_value',
  'total',
  'sort_order',
] as const;

async function articleFacts(ctx: Ctx, wo: WorkOrder, ids: string[]): Promise<Map<string, ArticleFacts>> {
  const { articles } = await priceArticles(ctx, ids, {
    customerId: wo.customerId,
    businessObjectId: wo.businessObjectId,
  });
  return new Map(
    [...articles].map(([id, a]) => [
      id,
      {
        title: a.title,
        lineType: a.lineType === 'freetext' ? 'freetext' : 'regular',
        active: a.status === 'active',
        purchasePrice: formatDecimal(a.purchasePrice as string),
        lookup: a.lookup,
      },
    ]),
  );
}

const snapshotOf = (r: {
  id: string;
  articleId: string;
  title: string;
  amount: string;
  price: string;
  discount: Discount;
  description: string | null;
}): ArticleRowSnapshot => ({
  id: r.id,
  articleId: r.articleId,
  title: r.title,
  amount: r.amount,
  price: r.price,
  discount: formatDiscount(r.discount),
  description: r.description,
});

/**
 * PUT /wo/{id}/articles {rows: [{id?, articleId?, amount, price?, discount?, description?}]}
 * (a description only on a free-text article's row; elsewhere it is ignored):
 * replaces the order's article rows with these, in this order. New rows without an article are
 * dropped (spec section 5). A row whose article is new to it is priced by the price lookup for the
 * order's customer and object unless a price is given; its discount is the lookup's unless one is
 * typed ("10%", "50"): an empty discount on such a row is none typed, not "no discount" (an empty
 * discount on a kept row clears it). A kept row keeps what is not sent. Only active articles can be added; an
 * amount cannot be negative (AMOUNT_CANT_BE_NEGATIVE). Needs workorders:report_articles and an
 * open, unlocked order (409 otherwise). History: `add_articles` with what was added, removed
 * and changed. Answers the panel's data.
 */
export async function saveWorkOrderArticles(ctx: Ctx, raw: unknown): Promise<ArticlesPanelData> {
  requireAccess(ctx.auth, { permission: 'workorders:report_articles' });
  const userId = ctx.auth.user.id;
  const input = parseInput(ZSaveArticles, raw);
  const wo = await loadChangeable(ctx, input.workOrderId);
  const before = await readRows(ctx, wo.id);
  const byId = new Map(before.map((r) => [r.id, r]));

  const errors: Fields = {};
  const add = (field: string, key: string) => {
    const list = (errors[field] ??= []);
    if (!list.includes(key)) list.push(key);
  };
  const seen = new Set<string>();
  const wanted = input.rows.flatMap((row, index) => (row ? [{ ...row, index }] : []));
  // rows picked from a supplier's catalogue become rows of the article they name (or free text)
  const picks = await supplierPicks(
    ctx,
    wanted.flatMap((r) =>
      !r.id && r.supplierArticleId ? [{ index: r.index, supplierArticleId: r.supplierArticleId }] : [],
    ),
    add,
  );
  for (const row of wanted) {
    const pick = picks.get(row.index);
    if (pick) row.articleId = pick.articleId;
  }
  const resolved = wanted.map((row) => {
    const prev = row.id ? byId.get(row.id) : undefined;
    const badId = Boolean(row.id) && (!prev || seen.has(row.id!));
    if (badId) add(`rows.${row.index}.id`, 'ERROR_INVALID_VALUE');
    if (row.id) seen.add(row.id);
    const articleId = row.articleId || prev?.articleId || '';
    // a catalogue pick that failed has its own error already
    if (!badId && !isUuid(articleId) && !row.supplierArticleId)
      add(`rows.${row.index}.articleId`, 'ERROR_INVALID_VALUE');
    return { row, prev, articleId, isNewArticle: !prev || prev.articleId !== articleId };
  });
  const newIds = [...new Set(resolved.filter((r) => r.isNewArticle && isUuid(r.articleId)).map((r) => r.articleId))];
  const facts = await articleFacts(ctx, wo, newIds);
  for (const r of resolved) {
    if (!r.isNewArticle || !isUuid(r.articleId)) continue;
    const f = facts.get(r.articleId);
    if (!f) add(`rows.${r.row.index}.articleId`, 'ERROR_INVALID_VALUE');
    else if (!f.active) add(`rows.${r.row.index}.articleId`, 'ERROR_ARTICLE_INACTIVE');
  }
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', 400, { fields: errors });

  const after = resolved.map(({ row, prev, articleId, isNewArticle }, sortOrder) => {
    const fact = isNewArticle ? facts.get(articleId)! : undefined;
    const found = picks.get(row.index);
    const pick = found && pickedRow(found.item);
    const lookupDiscount = fact ? discountOf(fact.lookup.discountType, fact.lookup.discountValue) : undefined;
    const amount = row.amount ?? prev?.amount ?? formatDecimal(1, 3);
    const price = row.price ?? pick?.price ?? (fact ? fact.lookup.salesPrice : prev!.price);
    // a catalogue's price is the supplier's recommendation: the customer's discount is not on top
    const discount =
      row.discount ??
      (pick ? NO_DISCOUNT : fact ? lookupDiscount! : row.discountCleared ? NO_DISCOUNT : prev!.discount);
    // only a free-text article's row has its own description (spec section 5); others keep none
    const freeText = (fact?.lineType ?? prev?.lineType) === 'freetext';
    const kept = fact ? null : (prev?.description ?? null);
    const description = freeText && row.description !== undefined ? row.description : kept;
    return {
      id: prev?.id ?? crypto.randomUUID(),
      isNew: !prev,
      articleId,
      title: pick ? pick.title : fact ? fact.title : prev!.title,
      description,
      amount,
      price,
      purchasePrice: pick ? (pick.purchasePrice ?? '0.00') : fact ? fact.purchasePrice : prev!.purchasePrice,
      ref: pick ? pick.ref : (prev?.ref ?? null),
      discount,
      total: rowTotal({ amount, price, discount }),
      sortOrder,
    };
  });

  const keep = after.filter((r) => !r.isNew).map((r) => r.id);
  await ctx
    .trx('work_order_articles')
    .where({ work_order_id: wo.id })
    .modify((qb) => {
      if (keep.length) qb.whereNotIn('id', keep);
    })
    .delete();
  if (after.length)
    await ctx
      .trx('work_order_articles')
      .insert(
        after.map((r) => ({
          id: r.id,
          work_order_id: wo.id,
          article_id: r.articleId,
          title: r.title,
          description: r.description,
          amount: r.amount,
          price: r.price,
          purchase_price: r.purchasePrice,
          discount_type: r.discount.type === 'NONE' ? null : r.discount.type,
          discount_value: r.discount.type === 'NONE' ? null : r.discount.value,
          total: r.total,
          sort_order: r.sortOrder,
          user_id: userId,
          created_at: ctx.now,
          ref: r.ref ? JSON.stringify(r.ref) : null,
        })),
      )
      .onConflict('id')
      .merge([...ARTICLE_ROW_COLUMNS]);

  const changes = articleRowChanges(before.map(snapshotOf), after.map(snapshotOf));
  if (hasChanges(changes)) {
    await ctx.trx('work_orders').where({ id: wo.id }).update({ update_ts: ctx.now });
    await recordHistory(ctx, { entity: WO_ENTITY, entityId: wo.id, action: 'add_articles', data: changes });
  }
  return panelOf(ctx, wo, await readRows(ctx, wo.id));
}
