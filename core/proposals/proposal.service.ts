/**
 * Proposals (issue 13; spec sections 2–5, api-calls.md "Proposals"): the list, one proposal with
 * its rows, create, save (the screen's autosave: the whole proposal with the version it edited),
 * the list's state and order, delete, and the life cycle — accept into a sales order or a work
 * order, decline, reopen, copy. Everything is the CRM module's; each call's permission is checked
 * here, and every change is written to the history.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess, type Access } from '~/core/permissions/access';
import {
  checkDiscount,
  discountOf,
  formatDecimal,
  NO_DISCOUNT,
  parseDecimal,
  rowTotal,
  type Discount,
} from '~/core/pricing';
import { createWorkOrder } from '~/core/work-orders/work-order.service';
import { loadWorkOrder } from '~/core/work-orders/work-order-read';
import { proposalFigures, rowProblems, type ProposalRowValues, type RowRules } from './proposal-rows';

export const PROPOSAL_ENTITY = 'proposal';
import { PROPOSAL_STATUSES, type ProposalStatus } from './proposal-constants';
import { checkCustomData } from './proposal-configuration.service';
import { priceArticles, type PricedArticle } from '~/core/articles/price-lookup.service';
import type { CatalogueRef } from '~/core/supplier-catalogues/catalogue.service';
import { pickedRow, supplierPicks } from '~/core/supplier-catalogues/catalogue-picks';

export { PROPOSAL_STATUSES, type ProposalStatus };
/** Rows a proposal may hold. */
export const MAX_PROPOSAL_ROWS = 500;

const READ: Access = { permission: 'proposal:read', module: 'crm' };
const EDIT: Access = { permission: 'proposal:edit', module: 'crm' };

type Row = Record<string, unknown>;

export interface ProposalSettings extends RowRules {
  files: boolean;
  purchasePriceEdit: boolean;
  stockPoint: boolean;
  costCenter: boolean;
  projectScope: boolean;
  validTo: boolean;
  generalTerms: string;
  paymentTerms: string;
}

export async function proposalSettings(ctx: Ctx): Promise<ProposalSettings> {
  const s = (await ctx.trx('proposal_settings').first()) as Row;
  return {
    summaryRows: Boolean(s.summary_rows),
    monthlyPrice: Boolean(s.monthly_price),
    negativePrices: Boolean(s.negative_prices),
    files: Boolean(s.files),
    purchasePriceEdit: Boolean(s.purchase_price_edit),
    stockPoint: Boolean(s.stock_point),
    costCenter: Boolean(s.cost_center),
    projectScope: Boolean(s.project_scope),
    validTo: Boolean(s.valid_to),
    generalTerms: s.general_terms as string,
    paymentTerms: s.payment_terms as string,
  };
}

// ---- reading ----

export interface ProposalRow {
  id: string;
  /** The screen's own key for a row, kept while its id changes on save; never stored. */
  key?: string;
  sortOrder: number;
  comment: string | null;
  isSummaryRow: boolean;
  articleId: string | null;
  articleTitle: string | null;
  articleDescription: string | null;
  articleUnit: string | null;
  articleAmount: string | null;
  articlePrice: string | null;
  articlePurchasePrice: string | null;
  articleMonthlyPrice: string | null;
  articleDiscountType: 'percentage' | 'amount' | null;
  articleDiscountValue: string | null;
  articleMonthlyDiscountType: 'percentage' | 'amount' | null;
  articleMonthlyDiscountValue: string | null;
  articlePriceTag: string | null;
  articleTotalPrice: string;
  articleMonthlyTotalPrice: string;
  isInProjectScope: 0 | 1 | null;
  erpRef: { costCenter: { value: string | null }; stockPoint: { value: string | null } };
  /** Where a row picked from a supplier's catalogue came from (spec: ref, type supplier-inventory). */
  ref: CatalogueRef | null;
  /**
   * A row picked from a supplier's catalogue and not saved yet (the picker's `si:` option without
   * its prefix): the save makes the row of it. Never read back.
   */
  supplierArticleId?: string | null;
  summarySalesPrice?: string;
  summaryPurchasePrice?: string;
  summaryMonthlyPrice?: string;
}

export interface Proposal {
  id: string;
  title: string;
  sortOrder: number;
  sequenceNumber: number;
  status: ProposalStatus;
  state: string | null;
  tags: string[];
  customerId: string | null;
  customerName: string | null;
  customerNumber: string | null;
  contactName: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
  deliveryLocationDescription: string | null;
  deliveryLocationText2: string | null;
  deliveryLocationText3: string | null;
  businessObjectId: string | null;
  businessObjectSerialCode: string | null;
  businessObjectModelName: string | null;
  descriptionIntro: string | null;
  description: string | null;
  description2: string | null;
  descriptionOfExceptions: string | null;
  generalTerms: string | null;
  paymentTerms: string | null;
  validTo: string | null;
  nextActionDate: string | null;
  customData: Record<string, unknown>;
  totalPrice: string;
  totalPurchasePrice: string;
  totalMonthlyPrice: string;
  workOrderId: string | null;
  salesOrderId: string | null;
  /** The object agreement made from the proposal to bill its monthly rows (issue 28 item 3). */
  objectAgreementId: string | null;
  version: number;
  createTs: string;
  createUserId: string | null;
  closeTs: string | null;
  closeUserId: string | null;
  rows?: ProposalRow[];
}

const money = (v: unknown) => (v == null ? null : formatDecimal(String(v)));
const day = (v: unknown) =>
  v == null ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10);
const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());
const apiType = (t: unknown) => (t === 'PERCENTAGE' ? 'percentage' : t === 'REGULAR' ? 'amount' : null);

function toProposal(r: Row): Proposal {
  return {
    id: r.id as string,
    title: r.title as string,
    sortOrder: Number(r.sort_order),
    sequenceNumber: Number(r.sequence_number),
    status: r.status as ProposalStatus,
    state: (r.state as string | null) ?? null,
    tags: (r.tags as string[] | null) ?? [],
    customerId: (r.customer_id as string | null) ?? null,
    customerName: (r.customer_name as string | null) ?? null,
    customerNumber: (r.customer_number as string | null) ?? null,
    contactName: (r.contact_name as string | null) ?? null,
    contactEmail: (r.contact_email as string | null) ?? null,
    contactPhone: (r.contact_phone as string | null) ?? null,
    deliveryLocationDescription: (r.delivery_location_description as string | null) ?? null,
    deliveryLocationText2: (r.delivery_location_text2 as string | null) ?? null,
    deliveryLocationText3: (r.delivery_location_text3 as string | null) ?? null,
    businessObjectId: (r.business_object_id as string | null) ?? null,
    businessObjectSerialCode: (r.bo_serial as string | null) ?? null,
    businessObjectModelName: (r.bo_model as string | null) ?? null,
    descriptionIntro: (r.description_intro as string | null) ?? null,
    description: (r.description as string | null) ?? null,
    description2: (r.description2 as string | null) ?? null,
    descriptionOfExceptions: (r.description_of_exceptions as string | null) ?? null,
    generalTerms: (r.general_terms as string | null) ?? null,
    paymentTerms: (r.payment_terms as string | null) ?? null,
    validTo: day(r.valid_to),
    nextActionDate: day(r.next_action_date),
    customData: (r.custom_data as Record<string, unknown>) ?? {},
    totalPrice: money(r.total_price)!,
    totalPurchasePrice: money(r.total_purchase_price)!,
    totalMonthlyPrice: money(r.total_monthly_price)!,
    workOrderId: (r.work_order_id as string | null) ?? null,
    salesOrderId: (r.sales_order_id as string | null) ?? null,
    objectAgreementId: (r.object_agreement_id as string | null) ?? null,
    version: Number(r.version),
    createTs: iso(r.create_ts)!,
    createUserId: (r.create_user_id as string | null) ?? null,
    closeTs: iso(r.close_ts),
    closeUserId: (r.close_user_id as string | null) ?? null,
  };
}

function proposalQuery(ctx: Ctx) {
  return ctx
    .trx('proposals as p')
    .leftJoin('customers as c', 'c.id', 'p.customer_id')
    .leftJoin('business_objects as b', 'b.id', 'p.business_object_id')
    .leftJoin('models as m', 'm.id', 'b.model_id')
    .select(
      'p.*',
      'c.name as customer_name',
      'c.customer_id as customer_number',
      'b.serial_code as bo_serial',
      'm.name as bo_model',
    )
    .select(
      ctx.trx.raw(
        `coalesce((select array_agg(t.name order by lower(t.name)) from proposal_tags pt join tags t on t.id = pt.tag_id where pt.proposal_id = p.id), '{}') as tags`,
      ),
    );
}

function toRow(r: Row): ProposalRow {
  return {
    id: r.id as string,
    sortOrder: Number(r.sort_order),
    comment: (r.comment as string | null) ?? null,
    isSummaryRow: Boolean(r.is_summary_row),
    articleId: (r.article_id as string | null) ?? null,
    articleTitle: (r.article_title as string | null) ?? null,
    articleDescription: (r.article_description as string | null) ?? null,
    articleUnit: (r.article_unit as string | null) ?? null,
    articleAmount: r.amount == null ? null : formatDecimal(String(r.amount), 3).replace(/\.?0+$/, ''),
    articlePrice: money(r.price),
    articlePurchasePrice: money(r.purchase_price),
    articleMonthlyPrice: money(r.monthly_price),
    articleDiscountType: apiType(r.discount_type),
    articleDiscountValue: money(r.discount_value),
    articleMonthlyDiscountType: apiType(r.monthly_discount_type),
    articleMonthlyDiscountValue: money(r.monthly_discount_value),
    articlePriceTag: (r.price_tag as string | null) ?? null,
    articleTotalPrice: money(r.total_price)!,
    articleMonthlyTotalPrice: money(r.monthly_total_price)!,
    isInProjectScope: r.is_in_project_scope == null ? null : r.is_in_project_scope ? 1 : 0,
    erpRef: {
      costCenter: { value: (r.cost_center as string | null) ?? null },
      stockPoint: { value: (r.stock_point as string | null) ?? null },
    },
    ref: (r.ref as CatalogueRef | null) ?? null,
  };
}

/** The rows in their order, with the summary rows' subtotals. */
export async function readRows(
  ctx: Ctx,
  where: { proposal_id: string } | { sales_order_id: string },
): Promise<ProposalRow[]> {
  const rows = (
    (await ctx
      .trx('proposal_rows')
      .where(where)
      .orderBy([{ column: 'sort_order' }, { column: 'id' }])) as Row[]
  ).map(toRow);
  const figures = proposalFigures(rows.map(valuesOf));
  return rows.map((r, i) => {
    if (!r.isSummaryRow) return r;
    const f = figures.rows[i]!;
    return {
      ...r,
      summarySalesPrice: f.summarySalesPrice,
      summaryPurchasePrice: f.summaryPurchasePrice,
      summaryMonthlyPrice: f.summaryMonthlyPrice,
    };
  });
}

const discountFromApi = (type: string | null, value: string | null): Discount =>
  discountOf(type === 'percentage' ? 'PERCENTAGE' : type === 'amount' ? 'REGULAR' : null, value);

function valuesOf(r: ProposalRow): ProposalRowValues {
  return {
    articleId: r.articleId,
    isSummaryRow: r.isSummaryRow,
    comment: r.comment,
    amount: r.articleAmount,
    price: r.articlePrice,
    purchasePrice: r.articlePurchasePrice,
    monthlyPrice: r.articleMonthlyPrice,
    discount: discountFromApi(r.articleDiscountType, r.articleDiscountValue),
    monthlyDiscount: discountFromApi(r.articleMonthlyDiscountType, r.articleMonthlyDiscountValue),
  };
}

async function findProposal(ctx: Ctx, id: unknown): Promise<Proposal> {
  if (!isUuid(id)) throw notFound();
  const row = (await proposalQuery(ctx).where('p.id', id).first()) as Row | undefined;
  if (!row) throw notFound();
  return toProposal(row);
}

/** GET /proposals/{id}: the proposal with its rows. */
export async function getProposal(ctx: Ctx, id: unknown): Promise<Proposal> {
  requireAccess(ctx.auth, READ);
  const p = await findProposal(ctx, id);
  return { ...p, rows: await readRows(ctx, { proposal_id: p.id }) };
}

const zDate = () =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}/, 'ERROR_INVALID_DATE')
      .optional(),
  );

export const ZProposalList = z.object({
  status: z.enum([...PROPOSAL_STATUSES, 'all']).default('active'),
  startTime: zDate(),
  endTime: zDate(),
  tags: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : v),
    z.array(z.string().uuid()).max(50).optional(),
  ),
  createUserId: z.string().uuid().optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * GET /proposals: status (active unless told; `all`), created between startTime and endTime,
 * having every tag named, by creator; in the list's order (sortOrder, then newest first).
 */
export async function listProposals(ctx: Ctx, raw: unknown): Promise<{ proposals: Proposal[]; totalCount: number }> {
  requireAccess(ctx.auth, READ);
  const f = parseInput(ZProposalList, raw);
  const base = ctx.trx('proposals as p');
  if (f.status !== 'all') base.where('p.status', f.status);
  if (f.startTime) base.where('p.create_ts', '>=', f.startTime);
  if (f.endTime) base.where('p.create_ts', '<', ctx.trx.raw(`?::date + 1`, [f.endTime.slice(0, 10)]));
  if (f.createUserId) base.where('p.create_user_id', f.createUserId);
  for (const tag of f.tags ?? [])
    base.whereExists(ctx.trx('proposal_tags as pt').whereRaw('pt.proposal_id = p.id').andWhere('pt.tag_id', tag));
  const [{ n }] = await base.clone().count({ n: '*' });
  const ids = await base
    .clone()
    .orderBy([{ column: 'p.sort_order' }, { column: 'p.sequence_number', order: 'desc' }])
    .limit(f.limit)
    .offset(f.offset)
    .pluck('p.id');
  const rows = ids.length ? ((await proposalQuery(ctx).whereIn('p.id', ids)) as Row[]) : [];
  const byId = new Map(rows.map((r) => [r.id as string, toProposal(r)]));
  return { proposals: ids.map((id: string) => byId.get(id)!), totalCount: Number(n) };
}

// ---- writing ----

/** Takes the next number of a settings row's counter (locked for the rest of the transaction). */
async function nextNumber(
  ctx: Ctx,
  table: 'proposal_settings' | 'sales_order_settings',
  column: string,
): Promise<number> {
  const [row] = (await ctx
    .trx(table)
    .update({ [column]: ctx.trx.raw(`${column} + 1`) })
    .returning(column)) as Row[];
  return Number(row![column]) - 1;
}

export const ZCreateProposal = z.object({ customerId: z.string().uuid().nullish() });

/** POST /proposals {customerId}: a new active proposal with the tenant's terms, at the top of the list. */
export async function createProposal(
  ctx: Ctx,
  raw: unknown,
): Promise<{ id: string; title: string; sortOrder: number; sequenceNumber: number }> {
  requireAccess(ctx.auth, EDIT);
  const { customerId } = parseInput(ZCreateProposal, raw);
  let contact: Row | undefined;
  if (customerId) {
    const customer = await ctx.trx('customers').where({ id: customerId }).first('id');
    if (!customer) throw notFound();
    contact = await ctx
      .trx('customer_contacts')
      .where({ customer_id: customerId })
      .orderBy('sort_order')
      .first('name', 'email', 'phone');
  }
  const settings = await proposalSettings(ctx);
  const sequenceNumber = await nextNumber(ctx, 'proposal_settings', 'next_sequence');
  const [{ m }] = (await ctx.trx('proposals').min({ m: 'sort_order' })) as { m: number | null }[];
  const sortOrder = m == null ? 0 : Number(m) - 1;
  const [row] = (await ctx
    .trx('proposals')
    .insert({
      sequence_number: sequenceNumber,
      sort_order: sortOrder,
      customer_id: customerId ?? null,
      contact_name: (contact?.name as string | undefined) ?? null,
      contact_email: (contact?.email as string | undefined) ?? null,
      contact_phone: (contact?.phone as string | undefined) ?? null,
      general_terms: settings.generalTerms || null,
      payment_terms: settings.paymentTerms || null,
      create_user_id: ctx.auth.user.id,
      create_ts: ctx.now,
      update_ts: ctx.now,
    })
    .returning(['id', 'title'])) as Row[];
  await recordHistory(ctx, {
    entity: PROPOSAL_ENTITY,
    entityId: row!.id as string,
    action: 'create',
    data: { sequenceNumber, customerId },
  });
  return { id: row!.id as string, title: row!.title as string, sortOrder, sequenceNumber };
}

/**
 * The screen of a proposal not yet created (`/proposals/new`): the tenant's terms on an empty
 * active proposal without an id. Nothing is written until its first save (saveNewProposal), so a
 * new proposal left without a change leaves nothing behind in the list (issue 28 item 19).
 */
export async function draftProposal(ctx: Ctx): Promise<Proposal> {
  requireAccess(ctx.auth, EDIT);
  const settings = await proposalSettings(ctx);
  return {
    id: '',
    title: '',
    sortOrder: 0,
    sequenceNumber: 0,
    status: 'active',
    state: null,
    tags: [],
    customerId: null,
    customerName: null,
    customerNumber: null,
    contactName: null,
    contactEmail: null,
    contactPhone: null,
    deliveryLocationDescription: null,
    deliveryLocationText2: null,
    deliveryLocationText3: null,
    businessObjectId: null,
    businessObjectSerialCode: null,
    businessObjectModelName: null,
    descriptionIntro: null,
    description: null,
    description2: null,
    descriptionOfExceptions: null,
    generalTerms: settings.generalTerms || null,
    paymentTerms: settings.paymentTerms || null,
    validTo: null,
    nextActionDate: null,
    customData: {},
    totalPrice: '0.00',
    totalPurchasePrice: '0.00',
    totalMonthlyPrice: '0.00',
    workOrderId: null,
    salesOrderId: null,
    objectAgreementId: null,
    version: 1,
    createTs: ctx.now.toISOString(),
    createUserId: ctx.auth.user.id,
    closeTs: null,
    closeUserId: null,
    rows: [],
  };
}

/**
 * The first save of a new proposal: creates it (number, place at the top of the list, terms) and
 * saves what the screen holds onto it, in the caller's one transaction. Answers the saved proposal
 * with its id, so the screen's next saves are ordinary ones.
 */
export async function saveNewProposal(ctx: Ctx, raw: unknown): Promise<Proposal> {
  const body = ((raw as { proposal?: unknown })?.proposal ?? raw ?? {}) as Record<string, unknown>;
  const customerId = typeof body.customerId === 'string' && body.customerId ? body.customerId : null;
  const made = await createProposal(ctx, { customerId: isUuid(customerId) ? customerId : null });
  const version = Number(((await ctx.trx('proposals').where({ id: made.id }).first('version')) as Row).version);
  return saveProposal(ctx, { ...body, id: made.id, version });
}

const text = (max: number) =>
  z.preprocess((v) => (v === '' ? null : v), z.string().trim().max(max, 'ERROR_MAX_LENGTH').nullable().optional());
const decimalText = () =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : typeof v === 'number' ? String(v) : v),
    z
      .string()
      .refine((s) => parseDecimal(s) !== null, 'ERROR_NOT_A_NUMBER')
      .nullable(),
  );
const discountType = () =>
  z.preprocess((v) => (v === '' ? null : v), z.enum(['percentage', 'amount']).nullable().optional());

export const ZRow = z.object({
  id: z.string().optional(),
  comment: text(2000),
  isSummaryRow: z.boolean().optional().default(false),
  articleId: z.string().uuid().nullish(),
  /** A supplier catalogue's article (its id in /sbsc/products): the row is made from it (decision 056). */
  supplierArticleId: z.string().max(20, 'ERROR_INVALID_VALUE').nullish(),
  articleDescription: text(2000),
  articleAmount: decimalText().optional(),
  articlePrice: decimalText().optional(),
  articlePurchasePrice: decimalText().optional(),
  articleMonthlyPrice: decimalText().optional(),
  articleDiscountType: discountType(),
  articleDiscountValue: decimalText().optional(),
  articleMonthlyDiscountType: discountType(),
  articleMonthlyDiscountValue: decimalText().optional(),
  articlePriceTag: text(50),
  isInProjectScope: z.union([z.literal(0), z.literal(1), z.boolean()]).nullish(),
  erpRef: z
    .object({
      costCenter: z
        .object({ value: text(50) })
        .partial()
        .optional(),
      stockPoint: z
        .object({ value: text(50) })
        .partial()
        .optional(),
    })
    .partial()
    .nullish(),
});

export type RowInput = z.infer<typeof ZRow>;

/**
 * Replaces the rows of a proposal or a sales order with these, in this order (renumbered from 1),
 * by the rules of spec section 5: a row whose article is new to it takes the article's title,
 * unit and (unless given) prices, and must be active; discounts, amounts and prices are checked
 * (400 with the field of each row). A row picked from a supplier's catalogue (`supplierArticleId`)
 * is made as a work order's is (core/supplier-catalogues/catalogue-picks): the catalogue's name,
 * purchase price and recommended price, and its `ref`, which the row keeps (with its title) on
 * later saves while its article stays. Two statements write the rows, whatever their number (and
 * a bounded few per catalogue pick). Answers the figures of the rows as stored.
 */
export async function replaceRows(
  ctx: Ctx,
  owner: { proposal_id: string } | { sales_order_id: string },
  given: readonly RowInput[],
  settings: RowRules,
  /** Whom the rows are priced for: a new article row without a price takes the customer's and object's price. */
  pricedFor: { customerId: string | null; businessObjectId: string | null } = {
    customerId: null,
    businessObjectId: null,
  },
): Promise<ReturnType<typeof proposalFigures>> {
  const before = new Map(
    (
      (await ctx
        .trx('proposal_rows')
        .where(owner)
        .select('id', 'article_id', 'article_title', 'article_unit', 'ref')) as Row[]
    ).map((r) => [r.id as string, r]),
  );
  const fields: Record<string, string[]> = {};
  const refuse = (field: string, code: string) => (fields[field] ??= []).push(code);
  // rows picked from a supplier's catalogue become rows of the article they name (or free text)
  const picks = await supplierPicks(
    ctx,
    given.flatMap((r, index) => (r.supplierArticleId ? [{ index, supplierArticleId: r.supplierArticleId }] : [])),
    refuse,
  );
  const rows = given.map((r, index) => {
    const pick = picks.get(index);
    return pick ? { ...r, articleId: pick.articleId } : r;
  });
  const isNew = (r: RowInput, index: number) =>
    Boolean(r.articleId) && (picks.has(index) || !r.id || before.get(r.id)?.article_id !== r.articleId);
  const articleIds = [...new Set(rows.map((r) => r.articleId).filter((id): id is string => Boolean(id)))];
  const articles = new Map(
    (articleIds.length
      ? ((await ctx
          .trx('articles')
          .whereIn('id', articleIds)
          .select('id', 'title', 'unit', 'status', 'line_type', 'price', 'purchase_price')) as Row[])
      : []
    ).map((a) => [a.id as string, a]),
  );
  // new article rows without a price are priced by core/pricing in one statement (none when every row has one)
  const unpriced = [
    ...new Set(
      rows
        .filter((r, i) => r.articlePrice == null && isNew(r, i) && !picks.get(i)?.item.recommendedSalesPrice)
        .map((r) => r.articleId!),
    ),
  ];
  const priced =
    unpriced.length && (pricedFor.customerId || pricedFor.businessObjectId)
      ? (await priceArticles(ctx, unpriced, pricedFor)).articles
      : new Map<string, PricedArticle>();
  const stored = rows.map((r, index) => {
    const article = r.articleId ? articles.get(r.articleId) : undefined;
    const isNewArticle = isNew(r, index);
    const found = picks.get(index);
    const pick = found && pickedRow(found.item);
    // a kept row picked from a catalogue keeps the catalogue's name and where it came from
    const prev = r.id ? before.get(r.id) : undefined;
    const kept = r.articleId && !isNewArticle && prev?.ref ? prev : undefined;
    if (r.articleId && !article) refuse(`rows.${index}.articleId`, 'ERROR_INVALID_VALUE');
    else if (article && isNewArticle && article.status !== 'active')
      refuse(`rows.${index}.articleId`, 'ERROR_ARTICLE_INACTIVE');
    const lookup = r.articleId && r.articlePrice == null && isNewArticle ? priced.get(r.articleId)?.lookup : undefined;
    // a catalogue's price is the supplier's recommendation: the customer's discount is not on top
    const discount =
      lookup && !pick && r.articleDiscountType == null && lookup.discountType !== 'NONE'
        ? discountOf(lookup.discountType, lookup.discountValue)
        : discountFromApi(r.articleDiscountType ?? null, r.articleDiscountValue ?? null);
    const monthlyDiscount = discountFromApi(
      r.articleMonthlyDiscountType ?? null,
      r.articleMonthlyDiscountValue ?? null,
    );
    for (const [field, d] of [
      ['articleDiscountValue', discount],
      ['articleMonthlyDiscountValue', monthlyDiscount],
    ] as const) {
      const problem = d.type === 'NONE' ? null : checkDiscount(d);
      if (problem) refuse(`rows.${index}.${field}`, problem);
    }
    const values: ProposalRowValues = {
      articleId: r.articleId ?? null,
      isSummaryRow: Boolean(r.isSummaryRow),
      comment: r.comment ?? null,
      amount: r.articleId ? (r.articleAmount ?? '1') : null,
      price: r.articleId
        ? (r.articlePrice ??
          pick?.price ??
          (isNewArticle ? (lookup?.salesPrice ?? money(article?.price)) : null) ??
          '0')
        : null,
      purchasePrice: r.articleId
        ? (r.articlePurchasePrice ?? pick?.purchasePrice ?? (isNewArticle ? money(article?.purchase_price) : null))
        : null,
      monthlyPrice: r.articleId ? (r.articleMonthlyPrice ?? null) : null,
      discount: r.articleId ? discount : NO_DISCOUNT,
      monthlyDiscount: r.articleId ? monthlyDiscount : NO_DISCOUNT,
    };
    for (const [field, code] of Object.entries(rowProblems(values, settings))) refuse(`rows.${index}.${field}`, code);
    const freeText = article?.line_type === 'freetext';
    return {
      id: r.id && isUuid(r.id) && before.has(r.id) ? r.id : randomUUID(),
      values,
      title: pick
        ? pick.title
        : kept
          ? (kept.article_title as string | null)
          : ((article?.title as string | undefined) ?? null),
      unit: pick
        ? (pick.unit ?? (article?.unit as string | null) ?? null)
        : kept
          ? (kept.article_unit as string | null)
          : ((article?.unit as string | undefined) ?? null),
      ref: pick ? pick.ref : ((kept?.ref as CatalogueRef | undefined) ?? null),
      description: freeText ? (r.articleDescription ?? null) : null,
      priceTag: r.articlePriceTag ?? null,
      scope: r.isInProjectScope == null ? null : Boolean(r.isInProjectScope),
      costCenter: r.erpRef?.costCenter?.value ?? null,
      stockPoint: r.erpRef?.stockPoint?.value ?? null,
    };
  });
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });

  const figures = proposalFigures(stored.map((s) => s.values));
  await ctx.trx('proposal_rows').where(owner).delete();
  if (stored.length)
    await ctx.trx('proposal_rows').insert(
      stored.map((s, i) => ({
        id: s.id,
        ...owner,
        sort_order: i + 1,
        comment: s.values.comment,
        is_summary_row: Boolean(s.values.isSummaryRow),
        article_id: s.values.articleId,
        article_title: s.title,
        article_description: s.description,
        article_unit: s.unit,
        amount: s.values.amount,
        price: s.values.price,
        purchase_price: s.values.purchasePrice,
        monthly_price: s.values.monthlyPrice,
        discount_type: s.values.discount?.type === 'NONE' ? null : s.values.discount?.type,
        discount_value: s.values.discount?.type === 'NONE' ? null : s.values.discount?.value,
        monthly_discount_type: s.values.monthlyDiscount?.type === 'NONE' ? null : s.values.monthlyDiscount?.type,
        monthly_discount_value: s.values.monthlyDiscount?.type === 'NONE' ? null : s.values.monthlyDiscount?.value,
        price_tag: s.priceTag,
        total_price: figures.rows[i]!.totalPrice,
        monthly_total_price: figures.rows[i]!.monthlyTotalPrice,
        is_in_project_scope: s.scope,
        cost_center: s.costCenter,
        stock_point: s.stockPoint,
        ref: s.ref ? JSON.stringify(s.ref) : null,
      })),
    );
  return figures;
}

export const ZSaveProposal = z.object({
  id: z.string().uuid({ error: 'ERROR_REQUIRED_FIELD' }),
  version: z.coerce.number().int().min(1),
  title: text(200),
  /** Tag names (spec: "tags (names)"). */
  tags: z.array(z.string().trim().min(1).max(50)).max(50).optional(),
  customerId: z.string().uuid().nullish(),
  contactName: text(200),
  contactEmail: text(200),
  contactPhone: text(50),
  deliveryLocationDescription: text(200),
  deliveryLocationText2: text(200),
  deliveryLocationText3: text(200),
  businessObjectId: z.string().uuid().nullish(),
  descriptionIntro: text(10000),
  description: text(20000),
  description2: text(10000),
  descriptionOfExceptions: text(10000),
  generalTerms: text(10000),
  paymentTerms: text(2000),
  validTo: z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'ERROR_INVALID_DATE')
      .nullish(),
  ),
  nextActionDate: z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'ERROR_INVALID_DATE')
      .nullish(),
  ),
  customData: z.record(z.string(), z.unknown()).optional(),
  rows: z.array(ZRow).max(MAX_PROPOSAL_ROWS, 'ERROR_MAX_LENGTH').optional(),
});

/** 409 unless the proposal is still active: an accepted or declined one is read-only. */
function requireActive(p: Proposal) {
  if (p.status !== 'active') throw new AppError('PROPOSAL_NOT_ACTIVE', 409);
}

/**
 * PUT /proposals {proposal}: saves the whole proposal as the screen holds it, naming the `version`
 * it was loaded at. A save of an older version answers 409 PROPOSAL_CHANGED with the current
 * proposal, so the screen can show what changed instead of overwriting it. Rows replace the
 * stored ones in their order (renumbered from 1); a row whose article is new to it takes the
 * article's title, unit and (unless given) price. Two statements write the rows, whatever their
 * number. Answers the saved proposal.
 */
export async function saveProposal(ctx: Ctx, raw: unknown): Promise<Proposal> {
  requireAccess(ctx.auth, EDIT);
  const body = (raw as { proposal?: unknown })?.proposal ?? raw;
  const input = parseInput(ZSaveProposal, body);
  // the row is locked for the rest of the transaction: two saves of one version cannot both pass
  const locked = (await ctx.trx('proposals').where({ id: input.id }).forUpdate().first('id', 'version')) as
    Row | undefined;
  if (!locked) throw notFound();
  const current = await findProposal(ctx, input.id);
  requireActive(current);
  if (Number(locked.version) !== input.version)
    throw new AppError('PROPOSAL_CHANGED', 409, {
      message: 'PROPOSAL_CHANGED',
      current: await getProposal(ctx, input.id),
    });
  const settings = await proposalSettings(ctx);
  if (input.customerId && !(await ctx.trx('customers').where({ id: input.customerId }).first('id'))) throw notFound();
  if (input.businessObjectId && !(await ctx.trx('business_objects').where({ id: input.businessObjectId }).first('id')))
    throw notFound();

  const rows = input.rows ?? (await readRows(ctx, { proposal_id: current.id }));
  const figures = await replaceRows(ctx, { proposal_id: current.id }, rows, settings, {
    customerId: input.customerId !== undefined ? input.customerId : current.customerId,
    businessObjectId: input.businessObjectId !== undefined ? input.businessObjectId : current.businessObjectId,
  });
  const pick = <K extends keyof typeof input>(k: K, column: string, out: Row) => {
    if (input[k] !== undefined) out[column] = input[k];
  };
  const update: Row = {};
  pick('title', 'title', update);
  if (input.title === null) update.title = '';
  pick('customerId', 'customer_id', update);
  pick('contactName', 'contact_name', update);
  pick('contactEmail', 'contact_email', update);
  pick('contactPhone', 'contact_phone', update);
  pick('deliveryLocationDescription', 'delivery_location_description', update);
  pick('deliveryLocationText2', 'delivery_location_text2', update);
  pick('deliveryLocationText3', 'delivery_location_text3', update);
  pick('businessObjectId', 'business_object_id', update);
  pick('descriptionIntro', 'description_intro', update);
  pick('description', 'description', update);
  pick('description2', 'description2', update);
  pick('descriptionOfExceptions', 'description_of_exceptions', update);
  pick('generalTerms', 'general_terms', update);
  pick('paymentTerms', 'payment_terms', update);
  pick('validTo', 'valid_to', update);
  pick('nextActionDate', 'next_action_date', update);
  if (input.customData !== undefined) update.custom_data = JSON.stringify(await checkCustomData(ctx, input.customData));
  await ctx
    .trx('proposals')
    .where({ id: current.id })
    .update({
      ...update,
      total_price: figures.totalPrice,
      total_purchase_price: figures.totalPurchasePrice,
      total_monthly_price: figures.totalMonthlyPrice,
      version: current.version + 1,
      update_ts: ctx.now,
    });
  if (input.tags) {
    const names = [...new Set(input.tags.map((n) => n.toLowerCase()))];
    const known: string[] = names.length
      ? await ctx
          .trx('tags')
          .whereRaw(`lower(name) in (${names.map(() => '?').join(', ')})`, names)
          .pluck('id')
      : [];
    if (known.length !== names.length)
      throw new AppError('VALIDATION_FAILED', 400, { fields: { tags: ['ERROR_INVALID_VALUE'] } });
    await ctx.trx('proposal_tags').where({ proposal_id: current.id }).delete();
    if (known.length)
      await ctx.trx('proposal_tags').insert(known.map((tag_id) => ({ proposal_id: current.id, tag_id })));
  }
  await recordHistory(ctx, {
    entity: PROPOSAL_ENTITY,
    entityId: current.id,
    action: 'edit',
    data: {
      fields: changedFields(current, input, figures),
      rows: rows.length,
      totalPrice: figures.totalPrice,
    },
  });
  return getProposal(ctx, current.id);
}

/**
 * What a save changed, for the history: the fields whose value differs from the stored proposal
 * (the screen sends the whole proposal on every autosave) and `rows` when the totals moved.
 */
function changedFields(
  current: Proposal,
  input: Partial<Record<keyof Proposal, unknown>>,
  figures: { totalPrice: string; totalMonthlyPrice: string; totalPurchasePrice: string },
): string[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const fields = (Object.keys(input) as (keyof Proposal)[]).filter((k) => {
    if (k === 'id' || k === 'version' || k === 'rows' || !(k in current)) return false;
    if (k === 'tags')
      return !same(
        [...((input.tags as string[] | undefined) ?? [])].map((t) => t.toLowerCase()).sort(),
        [...current.tags].map((t) => t.toLowerCase()).sort(),
      );
    if (k === 'title') return (input.title ?? '') !== current.title;
    return input[k] !== undefined && !same(input[k], current[k]);
  });
  const totals =
    figures.totalPrice !== current.totalPrice ||
    figures.totalMonthlyPrice !== current.totalMonthlyPrice ||
    figures.totalPurchasePrice !== current.totalPurchasePrice;
  return totals ? [...fields, 'rows'] : fields;
}

export const ZPatchProposal = z.object({
  state: z.preprocess((v) => (v === '' ? null : v), z.string().trim().max(50, 'ERROR_MAX_LENGTH').nullish()),
  sortOrder: z.coerce.number().int().min(-1_000_000).max(1_000_000).optional(),
});

/** PATCH /proposals/{id} {state, sortOrder}: the list's grouping and order (drag to reorder). */
export async function patchProposal(ctx: Ctx, id: unknown, raw: unknown): Promise<Proposal> {
  requireAccess(ctx.auth, EDIT);
  const p = await findProposal(ctx, id);
  const f = parseInput(ZPatchProposal, raw);
  const update: Row = {};
  if (f.state !== undefined) update.state = f.state;
  if (f.sortOrder !== undefined) update.sort_order = f.sortOrder;
  if (Object.keys(update).length) await ctx.trx('proposals').where({ id: p.id }).update(update);
  return findProposal(ctx, p.id);
}

/** DELETE /proposals/{id} (proposal:delete): the proposal and its rows; orders it created stay. */
export async function deleteProposal(ctx: Ctx, id: unknown): Promise<{ message: 'PROPOSAL_SUCCESSFULLY_DELETED' }> {
  requireAccess(ctx.auth, { permission: 'proposal:delete', module: 'crm' });
  const p = await findProposal(ctx, id);
  await ctx.trx('proposals').where({ id: p.id }).delete();
  await recordHistory(ctx, {
    entity: PROPOSAL_ENTITY,
    entityId: p.id,
    action: 'delete',
    data: { sequenceNumber: p.sequenceNumber },
  });
  return { message: 'PROPOSAL_SUCCESSFULLY_DELETED' };
}

export const ZCloseProposal = z.object({
  proposalId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).uuid({ error: 'ERROR_REQUIRED_FIELD' }),
  status: z.enum(['accepted', 'accepted-wo', 'declined'], { error: 'ERROR_INVALID_VALUE' }),
  ignoreArticlesForWorkOrder: z.boolean().optional().default(false),
});

/**
 * POST /proposals/close {proposalId, status, ignoreArticlesForWorkOrder}:
 * - `accepted` (salesorder:edit): a sales order for the proposal's customer with its rows; the
 *   customer needs a customer number (CANNOT_CLOSE_PROPOSAL_SALES_ORDER_CUSTOMER_NUMBER_MISSING);
 * - `accepted-wo` (workorders:create): a work order for its customer and object with its article
 *   rows (none with ignoreArticlesForWorkOrder); the object is required
 *   (CANNOT_CLOSE_PROPOSAL_WORKORDER_OBJECT_IS_MISSING);
 * - `declined`.
 * Accepting needs a customer (PROPOSAL_PLEASE_SELECT_CUSTOMER_BEFORE_ACCEPTING). Sets the close
 * time and user. Answers the proposal and the spec's message.
 */
export async function closeProposal(
  ctx: Ctx,
  raw: unknown,
): Promise<{ proposal: Proposal; message: string; salesOrderId?: string; workOrderId?: string }> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZCloseProposal, raw);
  await ctx.trx('proposals').where({ id: input.proposalId }).forUpdate().first('id');
  const p = await getProposal(ctx, input.proposalId);
  requireActive(p);
  const close = {
    status: input.status,
    close_ts: ctx.now,
    close_user_id: ctx.auth.user.id,
    update_ts: ctx.now,
    version: p.version + 1,
  };
  if (input.status === 'declined') {
    await ctx.trx('proposals').where({ id: p.id }).update(close);
    await recordHistory(ctx, { entity: PROPOSAL_ENTITY, entityId: p.id, action: 'decline' });
    return { proposal: await getProposal(ctx, p.id), message: 'SUCCESSFULLY_SAVED' };
  }
  if (!p.customerId) throw new AppError('PROPOSAL_PLEASE_SELECT_CUSTOMER_BEFORE_ACCEPTING', 409);
  const required = (await ctx.trx('proposal_custom_fields').where({ required: true }).select('id', 'label')) as {
    id: string;
    label: string;
  }[];
  const missing = required.filter((f) => !String(p.customData[f.id] ?? '').trim()).map((f) => f.label);
  if (missing.length) throw new AppError('PROPOSAL_REQUIRED_FIELDS_MISSING', 409, { missing });
  const rows = p.rows ?? [];
  if (input.status === 'accepted') {
    requireAccess(ctx.auth, { permission: 'salesorder:edit', module: 'crm' });
    if (!p.customerNumber) throw new AppError('CANNOT_CLOSE_PROPOSAL_SALES_ORDER_CUSTOMER_NUMBER_MISSING', 409);
    const existing = await existingOrders(ctx, p);
    // a work order made straight from the proposal bills these rows: a sales order would bill them again
    if (existing.workOrderId && !existing.salesOrderId) throw new AppError('PROPOSAL_ALREADY_HAS_WORK_ORDER', 409);
    if (existing.salesOrderId)
      return acceptAgain(ctx, p.id, close, 'PROPOSAL_SUCCESSFULLY_ACCEPTED', { salesOrderId: existing.salesOrderId });
    const number = await nextNumber(ctx, 'sales_order_settings', 'next_number');
    const [so] = (await ctx
      .trx('sales_orders')
      .insert({
        number,
        title: p.title,
        customer_id: p.customerId,
        proposal_id: p.id,
        total_price: p.totalPrice,
        total_purchase_price: p.totalPurchasePrice,
        reference_user_id: ctx.auth.user.id,
        create_user_id: ctx.auth.user.id,
        create_ts: ctx.now,
        update_ts: ctx.now,
      })
      .returning('id')) as Row[];
    const salesOrderId = so!.id as string;
    await ctx.trx.raw(
      `insert into proposal_rows (sales_order_id, sort_order, comment, is_summary_row, article_id, article_title, article_description,
         article_unit, amount, price, purchase_price, monthly_price, discount_type, discount_value, monthly_discount_type,
         monthly_discount_value, price_tag, total_price, monthly_total_price, is_in_project_scope, cost_center, stock_point, ref)
       select ?, sort_order, comment, is_summary_row, article_id, article_title, article_description, article_unit, amount, price,
         purchase_price, monthly_price, discount_type, discount_value, monthly_discount_type, monthly_discount_value, price_tag,
         total_price, monthly_total_price, is_in_project_scope, cost_center, stock_point, ref
       from proposal_rows where proposal_id = ?`,
      [salesOrderId, p.id],
    );
    await ctx
      .trx('proposals')
      .where({ id: p.id })
      .update({ ...close, sales_order_id: salesOrderId });
    await recordHistory(ctx, {
      entity: PROPOSAL_ENTITY,
      entityId: p.id,
      action: 'accept',
      data: { salesOrderNumber: number },
    });
    return { proposal: await getProposal(ctx, p.id), message: 'PROPOSAL_SUCCESSFULLY_ACCEPTED', salesOrderId };
  }
  requireAccess(ctx.auth, { permission: 'workorders:create' });
  if (!p.businessObjectId) throw new AppError('CANNOT_CLOSE_PROPOSAL_WORKORDER_OBJECT_IS_MISSING', 409);
  const existing = await existingOrders(ctx, p);
  // accepted before and reopened: the work order made then still bills the rows
  if (existing.workOrderId)
    return acceptAgain(ctx, p.id, close, 'PROPOSAL_SUCCESSFULLY_ACCEPTED_WORKORDER_CREATED', {
      workOrderId: existing.workOrderId,
    });
  const source = existing.salesOrderId
    ? await openSalesOrderForWorkOrder(ctx, existing.salesOrderId)
    : { rows, salesOrderId: null };
  const { workOrder } = await createWorkOrder(ctx, {
    workOrder: {
      title: p.title || `#${p.sequenceNumber}`,
      customerId: p.customerId,
      businessObjectId: p.businessObjectId,
      description: [p.descriptionIntro, p.description].filter(Boolean).join('\n\n') || undefined,
      contactName: p.contactName ?? undefined,
      contactEmail: p.contactEmail ?? undefined,
      contactPhone: p.contactPhone ?? undefined,
    },
  });
  // the sales order made earlier is billed through this work order from now on (decision 031)
  if (source.salesOrderId)
    await ctx.trx('work_orders').where({ id: workOrder.id }).update({ sales_order_id: source.salesOrderId });
  if (!input.ignoreArticlesForWorkOrder) await copyRowsToWorkOrder(ctx, workOrder.id, source.rows);
  await ctx
    .trx('proposals')
    .where({ id: p.id })
    .update({ ...close, work_order_id: workOrder.id });
  await recordHistory(ctx, {
    entity: PROPOSAL_ENTITY,
    entityId: p.id,
    action: 'accept',
    data: { workOrderNumber: workOrder.number },
  });
  return {
    proposal: await getProposal(ctx, p.id),
    message: 'PROPOSAL_SUCCESSFULLY_ACCEPTED_WORKORDER_CREATED',
    workOrderId: workOrder.id,
  };
}

/**
 * Accepting a reopened proposal again: the order an earlier acceptance made still bills its rows,
 * so the proposal is closed and pointed at it instead of a second billable order being made.
 */
async function acceptAgain(
  ctx: Ctx,
  proposalId: string,
  close: Record<string, unknown>,
  message: 'PROPOSAL_SUCCESSFULLY_ACCEPTED' | 'PROPOSAL_SUCCESSFULLY_ACCEPTED_WORKORDER_CREATED',
  order: { salesOrderId: string } | { workOrderId: string },
): Promise<{ proposal: Proposal; message: string; salesOrderId?: string; workOrderId?: string }> {
  await ctx.trx('proposals').where({ id: proposalId }).update(close);
  await recordHistory(ctx, {
    entity: PROPOSAL_ENTITY,
    entityId: proposalId,
    action: 'accept',
    data: { ...order, reused: true },
  });
  return { proposal: await getProposal(ctx, proposalId), message, ...order };
}

/**
 * The orders an earlier acceptance of this proposal made that still stand (a reopened proposal
 * keeps them, spec section 4): re-accepting uses them instead of making a second billable order.
 */
async function existingOrders(
  ctx: Ctx,
  p: Proposal,
): Promise<{ salesOrderId: string | null; workOrderId: string | null }> {
  const wo: Row | undefined = p.workOrderId
    ? await ctx.trx('work_orders').where({ id: p.workOrderId }).whereNull('deleted_at').first('id')
    : undefined;
  const so: Row | undefined = p.salesOrderId
    ? await ctx.trx('sales_orders').where({ id: p.salesOrderId }).first('id')
    : undefined;
  const soWorkOrder: Row | undefined = so
    ? await ctx.trx('work_orders').where({ sales_order_id: so.id }).whereNull('deleted_at').first('id')
    : undefined;
  return {
    salesOrderId: (so?.id as string) ?? null,
    workOrderId: ((wo?.id ?? soWorkOrder?.id) as string) ?? null,
  };
}

/**
 * A sales order that may still get its work order: open (SALES_ORDER_CLOSED once invoiced) and
 * without one (SALES_ORDER_HAS_WORK_ORDER); its rows are what the work order takes over.
 */
export async function openSalesOrderForWorkOrder(
  ctx: Ctx,
  salesOrderId: string,
): Promise<{ rows: ProposalRow[]; salesOrderId: string }> {
  const so: Row | undefined = await ctx.trx('sales_orders').where({ id: salesOrderId }).forUpdate().first('status');
  if (!so) throw notFound();
  if (so.status !== 'open') throw new AppError('SALES_ORDER_CLOSED', 409);
  if (await ctx.trx('work_orders').where({ sales_order_id: salesOrderId }).whereNull('deleted_at').first('id'))
    throw new AppError('SALES_ORDER_HAS_WORK_ORDER', 409);
  return { rows: await readRows(ctx, { sales_order_id: salesOrderId }), salesOrderId };
}

/** The article rows of a proposal or sales order as the work order's article rows (summary and comment rows stay behind). */
export async function copyRowsToWorkOrder(ctx: Ctx, workOrderId: string, rows: readonly ProposalRow[]): Promise<void> {
  const articleRows = rows.filter((r) => r.articleId && !r.isSummaryRow);
  if (!articleRows.length) return;
  await ctx.trx('work_order_articles').insert(
    articleRows.map((r, i) => {
      const discount = discountFromApi(r.articleDiscountType, r.articleDiscountValue);
      return {
        work_order_id: workOrderId,
        article_id: r.articleId,
        title: r.articleTitle ?? '',
        description: r.articleDescription,
        amount: r.articleAmount ?? '1',
        price: r.articlePrice ?? '0',
        purchase_price: r.articlePurchasePrice,
        discount_type: discount.type === 'NONE' ? null : discount.type,
        discount_value: discount.type === 'NONE' ? null : discount.value,
        total: rowTotal({ amount: r.articleAmount ?? '1', price: r.articlePrice ?? '0', discount }),
        sort_order: i,
        user_id: ctx.auth!.user.id,
        created_at: ctx.now,
        ref: r.ref ? JSON.stringify(r.ref) : null,
      };
    }),
  );
}

/** POST /proposals/{id}/reopen (proposal:reopen): active again; the orders it created stay. */
export async function reopenProposal(ctx: Ctx, id: unknown): Promise<Proposal> {
  requireAccess(ctx.auth, { permission: 'proposal:reopen', module: 'crm' });
  const p = await findProposal(ctx, id);
  if (p.status === 'active') throw new AppError('PROPOSAL_NOT_CLOSED', 409);
  await ctx
    .trx('proposals')
    .where({ id: p.id })
    .update({ status: 'active', close_ts: null, close_user_id: null, update_ts: ctx.now, version: p.version + 1 });
  await recordHistory(ctx, { entity: PROPOSAL_ENTITY, entityId: p.id, action: 'reopen' });
  return getProposal(ctx, p.id);
}

/** Copy (spec section 4): a new proposal for the same customer with the full content, then opened. */
export async function copyProposal(ctx: Ctx, id: unknown): Promise<Proposal> {
  requireAccess(ctx.auth, EDIT);
  const source = await getProposal(ctx, id);
  const made = await createProposal(ctx, { customerId: source.customerId });
  const { id: _id, version: _v, sequenceNumber: _s, sortOrder: _o, status: _st, rows, ...content } = source;
  const fresh = await findProposal(ctx, made.id);
  const copy = await saveProposal(ctx, {
    ...content,
    id: made.id,
    version: fresh.version,
    tags: source.tags,
    rows: (rows ?? []).map(({ id: _rowId, ref: _ref, ...r }) => r),
  });
  if (!(rows ?? []).some((r) => r.ref)) return copy;
  // rows picked from a supplier's catalogue keep its name and where they came from (one statement)
  await ctx.trx.raw(
    `update proposal_rows n set article_title = o.article_title, article_unit = o.article_unit, ref = o.ref
       from proposal_rows o
      where n.proposal_id = ? and o.proposal_id = ? and o.sort_order = n.sort_order
        and o.ref is not null and o.article_id = n.article_id`,
    [copy.id, source.id],
  );
  return getProposal(ctx, copy.id);
}

/** Who may do what on the proposal screen (the UI hides what the server would refuse). */
export function proposalAbilities(ctx: Ctx) {
  return {
    edit: hasAccess(ctx.auth, EDIT),
    delete: hasAccess(ctx.auth, { permission: 'proposal:delete', module: 'crm' }),
    reopen: hasAccess(ctx.auth, { permission: 'proposal:reopen', module: 'crm' }),
    accept: hasAccess(ctx.auth, { permission: 'salesorder:edit', module: 'crm' }),
    acceptWorkOrder: hasAccess(ctx.auth, { permission: 'workorders:create' }),
    createAgreement: hasAccess(ctx.auth, { permission: 'bo:agreements:edit' }),
  };
}

/** GET /wo/proposal/{id}: the work order a proposal was accepted into (within the asker's limit). */
export async function workOrderOfProposal(ctx: Ctx, proposalId: unknown) {
  requireAccess(ctx.auth, READ);
  if (!isUuid(proposalId)) throw notFound();
  const row = (await ctx.trx('proposals').where({ id: proposalId }).first('work_order_id')) as Row | undefined;
  if (!row?.work_order_id) throw notFound();
  return { workOrder: await loadWorkOrder(ctx, row.work_order_id) };
}

/** The tags a proposal may carry (the work-order tags), by name, for the proposal screen's picker. */
export async function proposalTagOptions(ctx: Ctx): Promise<{ id: string; name: string }[]> {
  return (await ctx.trx('tags').orderByRaw('lower(name)').select('id', 'name')) as { id: string; name: string }[];
}
