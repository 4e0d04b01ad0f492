import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, UUID_PATTERN } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { discountOf, formatDecimal, rowTotal, zDiscount, zMoney, zQuantity } from '~/core/pricing';
import { requireBo } from '~/core/business-objects/require-bo';
import type { AgreementInterval, DiscountType, PriceModel } from './agreement-constants';
import { zOptionalPlainDate, zPlainDate } from './agreement-schema';
import { generateWorkOrderBatch, tenantToday, type Skipped } from './generation.service';
import { firstPeriodStart, isPeriodStart, periodAt, type Period } from './periods';

/*
 * An agreement on an installed object (issue 16 item 2; spec section 3 "Agreement on object" and the
 * object-agreement calls of api-calls.md): which agreement type, from and to when, the dates the next
 * work order and invoice are made for (woScheduledTo, invoiceScheduledTo: the first day of the next
 * period not yet made), the price, the work-order and invoice rows, the spec's field texts and where
 * the invoice goes. One per object. Saving it is version-checked, because the generation run moves
 * the dates on: a form opened before a run cannot put them back unnoticed. Putting the invoice date
 * back into a period already invoiced is the spec's double-invoicing warning: refused until
 * confirmed.
 */

export const OA_ENTITY = 'object_agreement';
const READ = { permission: 'bo:read' } as const;
const EDIT = { permission: 'bo:agreements:edit' } as const;

type Row = Record<string, unknown>;

export interface IncludedArticle {
  articleId: string;
  discountType: DiscountType;
  discountValue: string;
}

export interface ObjectAgreement {
  id: string;
  businessObjectId: string;
  agreementId: string;
  agreement: {
    code: string;
    title: string;
    status: string;
    woInterval: AgreementInterval | null;
    woDay: number;
    invoiceInterval: AgreementInterval | null;
    invoiceDay: number;
    priceModel: PriceModel;
  };
  woScheduledTo: string | null;
  invoiceScheduledTo: string | null;
  invoicePeriodFrom: string | null;
  validFrom: string;
  validTo: string | null;
  totalPrice: string;
  articles: IncludedArticle[];
  fieldText1: string | null;
  fieldText2: string | null;
  fieldText3: string | null;
  fieldTextArea1: string | null;
  fieldTextArea2: string | null;
  fieldDate1: string | null;
  invoiceAddressId: string | null;
  invoiceCustomerId: string | null;
  invoiceExtra: string | null;
  version: number;
  /** The next work order's and invoice's period (null: the type makes none). */
  nextWorkOrder: Period | null;
  nextInvoice: Period | null;
  /** The last period invoiced (not void). */
  lastInvoiced: { from: string; to: string } | null;
  /** What the spec warns about: nothing is made for an inactive object or past the to-date. */
  warnings: ('AGREEMENT_OBJECT_INACTIVE' | 'AGREEMENT_HAS_TO_DATE' | 'AGREEMENT_TYPE_INACTIVE')[];
}

const text = (max: number) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z.string().trim().max(max, 'ERROR_MAX_LENGTH').nullable(),
  );
const optionalId = () =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z.string().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE').nullable(),
  );

const ZIncluded = z
  .object({ articleId: z.string().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE') })
  .and(zDiscount())
  .transform((v) => ({ articleId: v.articleId, discountType: v.type, discountValue: v.value }));

export const ZObjectAgreementFields = z.object({
  agreementId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).regex(UUID_PATTERN, 'ERROR_REQUIRED_FIELD'),
  validFrom: z.preprocess((v) => (v === '' || v === null ? undefined : v), zPlainDate().optional()),
  validTo: zOptionalPlainDate(),
  woScheduledTo: zOptionalPlainDate().optional(),
  invoiceScheduledTo: zOptionalPlainDate().optional(),
  invoicePeriodFrom: zOptionalPlainDate().optional(),
  totalPrice: zMoney().default('0'),
  articles: z.array(ZIncluded).max(200).default([]),
  fieldText1: text(500).default(null),
  fieldText2: text(500).default(null),
  fieldText3: text(500).default(null),
  fieldTextArea1: text(5000).default(null),
  fieldTextArea2: text(5000).default(null),
  fieldDate1: zOptionalPlainDate().default(null),
  invoiceAddressId: optionalId().default(null),
  invoiceCustomerId: optionalId().default(null),
  invoiceExtra: text(500).default(null),
  version: z.coerce.number().int().optional(),
  confirmDoubleInvoicing: z.boolean().default(false),
});

async function readType(ctx: Ctx, id: string): Promise<Row | undefined> {
  return ctx
    .trx('agreements')
    .where({ id })
    .first(
      'id',
      'code',
      'title',
      'status',
      'wo_interval',
      'wo_day',
      'invoice_interval',
      'invoice_day',
      'price_model',
      'price',
    );
}

const dateText = (trx: Ctx['trx'], col: string) => trx.raw(`oa.${col}::text as ${col}`);

async function readOne(ctx: Ctx, boId: string): Promise<ObjectAgreement | null> {
  const r: Row | undefined = await ctx
    .trx('object_agreements as oa')
    .join('agreements as a', 'a.id', 'oa.agreement_id')
    .join('business_objects as bo', 'bo.id', 'oa.business_object_id')
    .where('oa.business_object_id', boId)
    .first(
      'oa.*',
      ...[
        'wo_scheduled_to',
        'invoice_scheduled_to',
        'invoice_period_from',
        'valid_from',
        'valid_to',
        'field_date1',
      ].map((c) => dateText(ctx.trx, c)),
      'a.code',
      'a.title',
      'a.status as agreement_status',
      'a.wo_interval',
      'a.wo_day',
      'a.invoice_interval',
      'a.invoice_day',
      'a.price_model',
      'bo.status as object_status',
      ctx.trx.raw(
        `(select json_build_object('from', i.period_from::text, 'to', i.period_to::text) from invoices i
           where i.object_agreement_id = oa.id and i.status <> 'void' order by i.period_from desc limit 1) as last_invoiced`,
      ),
    );
  if (!r) return null;
  const woInterval = (r.wo_interval as AgreementInterval | null) ?? null;
  const invoiceInterval = (r.invoice_interval as AgreementInterval | null) ?? null;
  const warnings: ObjectAgreement['warnings'] = [];
  if (r.object_status !== 'active') warnings.push('AGREEMENT_OBJECT_INACTIVE');
  if (r.valid_to) warnings.push('AGREEMENT_HAS_TO_DATE');
  if (r.agreement_status !== 'active') warnings.push('AGREEMENT_TYPE_INACTIVE');
  const last = (typeof r.last_invoiced === 'string' ? JSON.parse(r.last_invoiced) : r.last_invoiced) as {
    from: string;
    to: string;
  } | null;
  return {
    id: r.id as string,
    businessObjectId: r.business_object_id as string,
    agreementId: r.agreement_id as string,
    agreement: {
      code: r.code as string,
      title: r.title as string,
      status: r.agreement_status as string,
      woInterval,
      woDay: Number(r.wo_day),
      invoiceInterval,
      invoiceDay: Number(r.invoice_day),
      priceModel: r.price_model as PriceModel,
    },
    woScheduledTo: (r.wo_scheduled_to as string | null) ?? null,
    invoiceScheduledTo: (r.invoice_scheduled_to as string | null) ?? null,
    invoicePeriodFrom: (r.invoice_period_from as string | null) ?? null,
    validFrom: r.valid_from as string,
    validTo: (r.valid_to as string | null) ?? null,
    totalPrice: formatDecimal(String(r.total_price)),
    articles: ((typeof r.articles === 'string' ? JSON.parse(r.articles) : r.articles) ?? []) as IncludedArticle[],
    fieldText1: (r.field_text1 as string | null) ?? null,
    fieldText2: (r.field_text2 as string | null) ?? null,
    fieldText3: (r.field_text3 as string | null) ?? null,
    fieldTextArea1: (r.field_text_area1 as string | null) ?? null,
    fieldTextArea2: (r.field_text_area2 as string | null) ?? null,
    fieldDate1: (r.field_date1 as string | null) ?? null,
    invoiceAddressId: (r.invoice_address_id as string | null) ?? null,
    invoiceCustomerId: (r.invoice_customer_id as string | null) ?? null,
    invoiceExtra: (r.invoice_extra as string | null) ?? null,
    version: Number(r.version),
    nextWorkOrder:
      woInterval && r.wo_scheduled_to ? periodAt(woInterval, Number(r.wo_day), r.wo_scheduled_to as string) : null,
    nextInvoice:
      invoiceInterval && r.invoice_scheduled_to
        ? periodAt(invoiceInterval, Number(r.invoice_day), r.invoice_scheduled_to as string)
        : null,
    lastInvoiced: last && last.from ? last : null,
    warnings,
  };
}

/** GET /bo/{id}/agreement: the object's agreement, or null (bo:read; 404 for an unknown object). */
export async function getObjectAgreement(ctx: Ctx, boId: unknown): Promise<{ agreement: ObjectAgreement | null }> {
  requireAccess(ctx.auth, READ);
  const bo = await requireBo(ctx, boId);
  return { agreement: await readOne(ctx, bo.id) };
}

type Fields = Record<string, string[]>;
const addError = (errors: Fields, field: string, key: string) => (errors[field] ??= []).push(key);

/**
 * PUT /bo/{id}/agreement {agreement}: puts an agreement on the object or changes it (bo:agreements:edit).
 * New: the next work order and invoice start at the first period on or after the from-date (or
 * the invoice period start given); total price 0 and no articles unless sent (spec defaults).
 */
export async function putObjectAgreement(
  ctx: Ctx,
  boId: unknown,
  raw: unknown,
): Promise<{ agreement: ObjectAgreement }> {
  requireAccess(ctx.auth, EDIT);
  const bo = await requireBo(ctx, boId);
  // the fields are checked as the body's `agreement`, so field errors name them plainly (validFrom)
  const input = parseInput(ZObjectAgreementFields, (raw as { agreement?: unknown } | null)?.agreement ?? {});
  const existing: Row | undefined = await ctx
    .trx('object_agreements')
    .where({ business_object_id: bo.id })
    .forUpdate()
    .first(
      'id',
      'version',
      ctx.trx.raw('invoice_scheduled_to::text as invoice_scheduled_to'),
      ctx.trx.raw('wo_scheduled_to::text as wo_scheduled_to'),
      ctx.trx.raw('invoice_period_from::text as invoice_period_from'),
    );
  if (existing && input.version !== undefined && input.version !== Number(existing.version))
    throw new AppError('AGREEMENT_CHANGED', 409);
  const errors: Fields = {};
  const type = await readType(ctx, input.agreementId);
  if (!type) addError(errors, 'agreementId', 'ERROR_INVALID_VALUE');
  if (!input.validFrom) addError(errors, 'validFrom', 'ERROR_REQUIRED_FIELD');
  if (input.validFrom && input.validTo && input.validTo < input.validFrom)
    addError(errors, 'validTo', 'AGREEMENT_VALID_TO_BEFORE_FROM');
  const woInterval = (type?.wo_interval as AgreementInterval | null) ?? null;
  const invoiceInterval = (type?.invoice_interval as AgreementInterval | null) ?? null;
  const checkStart = (field: string, interval: AgreementInterval | null, value: string | null | undefined) => {
    if (interval && value && !isPeriodStart(interval, value)) addError(errors, field, 'AGREEMENT_NOT_A_PERIOD_START');
  };
  checkStart('invoicePeriodFrom', invoiceInterval, input.invoicePeriodFrom);
  checkStart('invoiceScheduledTo', invoiceInterval, input.invoiceScheduledTo);
  checkStart('woScheduledTo', woInterval, input.woScheduledTo);
  if (input.invoiceCustomerId && !(await ctx.trx('customers').where({ id: input.invoiceCustomerId }).first('id')))
    addError(errors, 'invoiceCustomerId', 'ERROR_INVALID_VALUE');
  if (input.invoiceAddressId) {
    const object: Row | undefined = await ctx.trx('business_objects').where({ id: bo.id }).first('customer_id');
    const address: Row | undefined = await ctx
      .trx('customer_addresses')
      .where({ id: input.invoiceAddressId })
      .first('customer_id');
    if (!address || address.customer_id !== (input.invoiceCustomerId ?? object?.customer_id))
      addError(errors, 'invoiceAddressId', 'ERROR_INVALID_VALUE');
  }
  const articleIds = [...new Set(input.articles.map((a) => a.articleId))];
  if (articleIds.length) {
    const found = await ctx.trx('articles').whereIn('id', articleIds).count({ n: '*' });
    if (Number(found[0]?.n) !== articleIds.length || articleIds.length !== input.articles.length)
      addError(errors, 'articles', 'ERROR_INVALID_VALUE');
  }
  if (Object.keys(errors).length) throw new AppError('VALIDATION_FAILED', 400, { fields: errors });
  const validFrom = input.validFrom!;

  // where the next invoice and work order start: what was sent, else what was, else the first period
  const invoicePeriodFrom = invoiceInterval
    ? (input.invoicePeriodFrom ??
      (existing?.invoice_period_from as string | undefined) ??
      firstPeriodStart(invoiceInterval, validFrom))
    : null;
  const invoiceScheduledTo = invoiceInterval
    ? input.invoiceScheduledTo !== undefined && input.invoiceScheduledTo !== null
      ? input.invoiceScheduledTo
      : existing?.invoice_scheduled_to && isPeriodStart(invoiceInterval, existing.invoice_scheduled_to as string)
        ? (existing.invoice_scheduled_to as string)
        : invoicePeriodFrom
    : null;
  const woScheduledTo = woInterval
    ? input.woScheduledTo !== undefined && input.woScheduledTo !== null
      ? input.woScheduledTo
      : existing?.wo_scheduled_to && isPeriodStart(woInterval, existing.wo_scheduled_to as string)
        ? (existing.wo_scheduled_to as string)
        : firstPeriodStart(woInterval, validFrom)
    : null;

  // the spec's double-invoicing warning: the next invoice would cover days already invoiced
  if (existing && invoiceScheduledTo && !input.confirmDoubleInvoicing) {
    const overlap: Row | undefined = await ctx
      .trx('invoices')
      .where({ object_agreement_id: existing.id })
      .whereNot('status', 'void')
      .where('period_to', '>=', invoiceScheduledTo)
      .orderBy('period_from')
      .first(ctx.trx.raw('period_from::text as period_from'), ctx.trx.raw('period_to::text as period_to'));
    if (overlap)
      throw new AppError('AGREEMENT_DOUBLE_INVOICING', 409, {
        periodFrom: overlap.period_from,
        periodTo: overlap.period_to,
      });
  }

  const values = {
    agreement_id: input.agreementId,
    valid_from: validFrom,
    valid_to: input.validTo ?? null,
    wo_scheduled_to: woScheduledTo,
    invoice_scheduled_to: invoiceScheduledTo,
    invoice_period_from: invoicePeriodFrom,
    total_price: input.totalPrice,
    articles: JSON.stringify(input.articles),
    field_text1: input.fieldText1,
    field_text2: input.fieldText2,
    field_text3: input.fieldText3,
    field_text_area1: input.fieldTextArea1,
    field_text_area2: input.fieldTextArea2,
    field_date1: input.fieldDate1,
    invoice_address_id: input.invoiceAddressId,
    invoice_customer_id: input.invoiceCustomerId,
    invoice_extra: input.invoiceExtra,
    updated_at: ctx.now,
  };
  if (existing)
    await ctx
      .trx('object_agreements')
      .where({ id: existing.id })
      .update({ ...values, version: Number(existing.version) + 1 });
  else await ctx.trx('object_agreements').insert({ ...values, business_object_id: bo.id, created_at: ctx.now });
  const saved = (await readOne(ctx, bo.id))!;
  await recordHistory(ctx, {
    entity: OA_ENTITY,
    entityId: saved.id,
    action: existing ? 'edit' : 'create',
    data: { serialCode: bo.serialCode, agreement: type!.code, validFrom, validTo: input.validTo ?? null },
  });
  return { agreement: saved };
}

/**
 * DELETE /bo/{id}/agreement: takes the agreement off the object (bo:agreements:edit). Refused while
 * invoices were made from it (409 AGREEMENT_HAS_INVOICES): end it with a to-date instead.
 */
export async function deleteObjectAgreement(ctx: Ctx, boId: unknown): Promise<void> {
  requireAccess(ctx.auth, EDIT);
  const bo = await requireBo(ctx, boId);
  const oa: Row | undefined = await ctx.trx('object_agreements').where({ business_object_id: bo.id }).first('id');
  if (!oa) throw notFound();
  const invoiced = await ctx
    .trx('invoices')
    .where({ object_agreement_id: oa.id })
    .whereNot('status', 'void')
    .first('id');
  if (invoiced) throw new AppError('AGREEMENT_HAS_INVOICES', 409);
  await ctx.trx('object_agreements').where({ id: oa.id }).delete();
  await recordHistory(ctx, {
    entity: OA_ENTITY,
    entityId: oa.id as string,
    action: 'delete',
    data: { serialCode: bo.serialCode },
  });
}

export interface IncludedArticleView extends IncludedArticle {
  articleNumber: string;
  title: string;
  /** object: the object's own discount; type: its agreement type's (applies unless the object has its own). */
  source: 'object' | 'type';
}

/**
 * The articles the object's agreement includes, as pricing sees them (decision 007, source 3): the
 * object's own discounts, then its type's for articles the object does not name. One statement.
 */
export async function includedArticlesOf(ctx: Ctx, agreement: ObjectAgreement): Promise<IncludedArticleView[]> {
  requireAccess(ctx.auth, READ);
  const own = agreement.articles;
  const rows = (await ctx.trx.raw(
    `select a.id, a.article_id as number, a.title, i.discount_type, i.discount_value::text as discount_value
       from articles a left join agreement_articles i on i.article_id = a.id and i.agreement_id = ?
      where a.id in (select cast(jsonb_array_elements_text(cast(? as jsonb)) as uuid))
         or i.agreement_id is not null
      order by a.article_id, a.id`,
    [agreement.agreementId, JSON.stringify(own.map((x) => x.articleId))],
  )) as { rows: Row[] };
  const byId = new Map(rows.rows.map((r) => [r.id as string, r]));
  const mine = new Set(own.map((x) => x.articleId));
  const views: IncludedArticleView[] = own
    .filter((x) => byId.has(x.articleId))
    .map((x) => ({
      ...x,
      articleNumber: byId.get(x.articleId)!.number as string,
      title: byId.get(x.articleId)!.title as string,
      source: 'object',
    }));
  for (const r of rows.rows)
    if (r.discount_type && !mine.has(r.id as string))
      views.push({
        articleId: r.id as string,
        articleNumber: r.number as string,
        title: r.title as string,
        discountType: r.discount_type as DiscountType,
        discountValue: formatDecimal(String(r.discount_value)),
        source: 'type',
      });
  return views;
}

// ---- work-order and invoice rows ----

export type RowKind = 'wo' | 'invoice';

export interface AgreementRow {
  id: string;
  articleId: string | null;
  articleNumber: string | null;
  title: string;
  description: string | null;
  amount: string;
  price: string;
  discountType: DiscountType;
  discountValue: string;
  total: string;
  sortOrder: number;
}

export const ZAgreementRowFields = z
  .object({
    articleId: optionalId().default(null),
    title: text(500).default(null),
    description: text(2000).default(null),
    amount: zQuantity().default('1'),
    price: z.preprocess((v) => (v === '' || v === null ? undefined : v), zMoney().optional()),
    discountType: z.string().default('NONE'),
    discountValue: z.union([z.string(), z.number()]).default('0'),
    sortOrder: z.coerce.number().int().min(0).max(100_000).optional(),
  })
  .superRefine((v, c) => {
    if (!v.articleId && !v.title) c.addIssue({ code: 'custom', message: 'ERROR_REQUIRED_FIELD', path: ['title'] });
  });

const toRow = (r: Row): AgreementRow => {
  const discountType = r.discount_type as DiscountType;
  return {
    id: r.id as string,
    articleId: (r.article_id as string | null) ?? null,
    articleNumber: (r.article_number as string | null) ?? null,
    title: r.title as string,
    description: (r.description as string | null) ?? null,
    amount: formatDecimal(String(r.amount), 3),
    price: formatDecimal(String(r.price)),
    discountType,
    discountValue: formatDecimal(String(r.discount_value)),
    total: rowTotal({
      amount: String(r.amount),
      price: String(r.price),
      discount: discountType === 'NONE' ? null : discountOf(discountType, String(r.discount_value)),
    }),
    sortOrder: Number(r.sort_order),
  };
};

async function requireOa(ctx: Ctx, boId: unknown): Promise<{ id: string; serialCode: string }> {
  const bo = await requireBo(ctx, boId);
  const oa: Row | undefined = await ctx.trx('object_agreements').where({ business_object_id: bo.id }).first('id');
  if (!oa) throw notFound();
  return { id: oa.id as string, serialCode: bo.serialCode };
}

function rowsQuery(ctx: Ctx, oaId: string, kind: RowKind) {
  return ctx
    .trx('object_agreement_rows as r')
    .leftJoin('articles as ar', 'ar.id', 'r.article_id')
    .where({ 'r.object_agreement_id': oaId, 'r.kind': kind })
    .select('r.*', 'ar.article_id as article_number');
}

const checkKind = (kind: unknown): RowKind => {
  if (kind !== 'wo' && kind !== 'invoice') throw notFound();
  return kind;
};

/** GET /bo/{id}/agreement/wo and /agreement/invoice: the rows each work order or invoice carries. */
export async function listAgreementRows(ctx: Ctx, boId: unknown, kind: unknown): Promise<{ rows: AgreementRow[] }> {
  requireAccess(ctx.auth, READ);
  const k = checkKind(kind);
  const oa = await requireOa(ctx, boId);
  const rows = (await rowsQuery(ctx, oa.id, k).orderBy([{ column: 'r.sort_order' }, { column: 'r.id' }])) as Row[];
  return { rows: rows.map(toRow) };
}

/** GET /bo/{id}/agreement/{kind}/{rowId}. */
export async function getAgreementRow(
  ctx: Ctx,
  boId: unknown,
  kind: unknown,
  rowId: unknown,
): Promise<{ row: AgreementRow }> {
  requireAccess(ctx.auth, READ);
  const k = checkKind(kind);
  const oa = await requireOa(ctx, boId);
  if (!isUuid(rowId)) throw notFound();
  const r: Row | undefined = await rowsQuery(ctx, oa.id, k).where('r.id', rowId).first();
  if (!r) throw notFound();
  return { row: toRow(r) };
}

/**
 * POST (no id) and PUT (with id) /bo/{id}/agreement/{kind} {row}: an article row (title and price
 * default to the article's) or a text row.
 */
export async function saveAgreementRow(
  ctx: Ctx,
  boId: unknown,
  kind: unknown,
  raw: unknown,
): Promise<{ row: AgreementRow }> {
  requireAccess(ctx.auth, EDIT);
  const k = checkKind(kind);
  const oa = await requireOa(ctx, boId);
  const body = (raw as { row?: unknown } | null)?.row ?? raw;
  const id = (body as { id?: unknown } | null)?.id;
  const input = parseInput(ZAgreementRowFields, body);
  const discount = parseInput(zDiscount(), { discountType: input.discountType, discountValue: input.discountValue });
  let article: Row | undefined;
  if (input.articleId) {
    article = await ctx.trx('articles').where({ id: input.articleId }).first('id', 'title', 'price');
    if (!article) throw new AppError('VALIDATION_FAILED', 400, { fields: { articleId: ['ERROR_INVALID_VALUE'] } });
  }
  const values = {
    article_id: input.articleId,
    title: input.title ?? (article?.title as string),
    description: input.description,
    amount: input.amount,
    price: input.price ?? (article ? String(article.price) : '0'),
    discount_type: discount.type,
    discount_value: discount.value,
  };
  let rowId: string;
  if (id !== undefined && id !== null) {
    if (!isUuid(id)) throw notFound();
    const n = await ctx
      .trx('object_agreement_rows')
      .where({ id, object_agreement_id: oa.id, kind: k })
      .update({ ...values, ...(input.sortOrder !== undefined ? { sort_order: input.sortOrder } : {}) });
    if (!n) throw notFound();
    rowId = id;
  } else {
    const max: Row | undefined = await ctx
      .trx('object_agreement_rows')
      .where({ object_agreement_id: oa.id, kind: k })
      .max({ m: 'sort_order' })
      .first();
    const [row] = await ctx
      .trx('object_agreement_rows')
      .insert({
        ...values,
        object_agreement_id: oa.id,
        kind: k,
        sort_order: input.sortOrder ?? Number(max?.m ?? 0) + 1,
      })
      .returning('id');
    rowId = (row as Row).id as string;
  }
  await recordHistory(ctx, {
    entity: OA_ENTITY,
    entityId: oa.id,
    action: id ? 'row.edit' : 'row.create',
    data: { kind: k, title: values.title, amount: values.amount, price: values.price },
  });
  return getAgreementRow(ctx, boId, k, rowId);
}

/** DELETE /bo/{id}/agreement/{kind}/{rowId}. */
export async function deleteAgreementRow(ctx: Ctx, boId: unknown, kind: unknown, rowId: unknown): Promise<void> {
  requireAccess(ctx.auth, EDIT);
  const k = checkKind(kind);
  const oa = await requireOa(ctx, boId);
  if (!isUuid(rowId)) throw notFound();
  const n = await ctx.trx('object_agreement_rows').where({ id: rowId, object_agreement_id: oa.id, kind: k }).delete();
  if (!n) throw notFound();
  await recordHistory(ctx, { entity: OA_ENTITY, entityId: oa.id, action: 'row.delete', data: { kind: k } });
}

export const ZScheduleAgreementWorkOrders = z.object({
  objectAgreementIds: z
    .array(z.string().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE'))
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(500),
});

/**
 * POST /bo/agreement/wo/schedule {objectAgreementIds}: makes each agreement's next service work order
 * now, whatever its day (bo:agreements:edit and workorders:create). Answers what was made and what
 * was skipped and why.
 */
export async function scheduleWorkOrders(
  ctx: Ctx,
  raw: unknown,
): Promise<{
  created: { objectAgreementId: string; workOrderId: string; number: string; periodFrom: string }[];
  skipped: Skipped[];
}> {
  requireAccess(ctx.auth, EDIT);
  requireAccess(ctx.auth, { permission: 'workorders:create' });
  const { objectAgreementIds } = parseInput(ZScheduleAgreementWorkOrders, raw);
  const ids = [...new Set(objectAgreementIds)];
  const known = await ctx.trx('object_agreements').whereIn('id', ids).count({ n: '*' });
  if (Number(known[0]?.n) !== ids.length) throw notFound();
  const batch = await generateWorkOrderBatch(ctx, { until: tenantToday(ctx), ids, force: true, limit: ids.length });
  const numbers = new Map(
    (
      (await ctx
        .trx('work_orders')
        .whereIn(
          'id',
          batch.created.map((c) => c.id),
        )
        .select('id', 'number')) as Row[]
    ).map((r) => [r.id as string, r.number as string]),
  );
  return {
    created: batch.created.map((c) => ({
      objectAgreementId: c.objectAgreementId,
      workOrderId: c.id,
      number: numbers.get(c.id)!,
      periodFrom: c.periodFrom,
    })),
    skipped: batch.skipped,
  };
}
