import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { evenWithOtherErrors, isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { zDiscount, zMoney } from '~/core/pricing';
import { blankToNull, zOptionalText, zOptionalUuid } from '~/core/registers/fields';
import {
  containsPattern,
  duplicate,
  inUse,
  uniqueViolation,
  zIdentifier,
  ZListQuery,
} from '~/core/registers/list-query';
import { dateIn } from '~/core/work-orders/time-rules';
import {
  AGREEMENT_INTERVALS,
  AGREEMENT_STATUSES,
  AGREEMENT_TYPES,
  DISCOUNT_TYPES,
  PRICE_MODELS,
  type AgreementInterval,
  type AgreementStatus,
  type AgreementType,
  type DiscountType,
  type PriceModel,
} from './agreement-constants';
import { zOptionalPlainDate } from './agreement-schema';

/*
 * Agreement types (issue 16 item 1; spec sections 3, 5 and 6; api-calls "Agreements"): what an
 * agreement on an object is an instance of — a unique code, title, type, validity, when its work
 * orders and invoices are generated (day of month, 0 = the last day, and interval), its default
 * pricing and the articles it includes with their discounts. A type object agreements still use
 * cannot be deleted (409 IN_USE; the page suggests setting it inactive instead).
 */

const READ = { permission: 'agreements:read' } as const;
const EDIT = { permission: 'agreements:edit' } as const;
const DELETE = { permission: 'agreements:delete' } as const;
const ENTITY = 'agreement';

/** An agreement type as the API and the pages see it (spec section 3 "Agreement"). */
export interface Agreement {
  id: string;
  code: string;
  title: string;
  description: string | null;
  status: AgreementStatus;
  type: AgreementType;
  /** `YYYY-MM-DD`; always set on a saved type (spec section 5), null only on old rows. */
  validFrom: string | null;
  validTo: string | null;
  /** Day of the period's first month the work order is made on; 0 is the month's last day. */
  woDay: number;
  /** Null: the type makes no work orders. */
  woInterval: AgreementInterval | null;
  workTypeId: string | null;
  invoiceDay: number;
  /** Null: the type makes no invoices. */
  invoiceInterval: AgreementInterval | null;
  priceModel: PriceModel;
  /** Money as decimal text, "1250.00". */
  price: string;
  priceArticleId: string | null;
  configuration: Record<string, unknown>;
  /** How many object agreements use the type. */
  objectCount: number;
  updatedAt: string;
}

/** GET /agreements/{id}/pricing: what a period costs by default. */
export interface AgreementPricing {
  priceModel: PriceModel;
  price: string;
  priceArticleId: string | null;
  /** The price article, for showing it ("90001 – Arbetstid tekniker"). */
  priceArticle: { id: string; articleNumber: string; title: string } | null;
}

/** One included article of a type, with the article's number, title and list price. */
export interface AgreementArticle {
  agreementId: string;
  articleId: string;
  articleNumber: string;
  title: string;
  unit: string | null;
  listPrice: string;
  status: 'active' | 'inactive';
  discountType: DiscountType;
  discountValue: string;
}

// ---------------------------------------------------------------------------------------------
// Schemas

const zDay = () =>
  z.preprocess(
    (v) => (v === '' || v == null ? undefined : v),
    z.coerce
      .number({ error: 'ERROR_INVALID_VALUE' })
      .int('ERROR_INVALID_VALUE')
      .min(0, 'ERROR_INVALID_VALUE')
      .max(31, 'ERROR_INVALID_VALUE')
      .default(1),
  );
const zInterval = () =>
  z
    .preprocess(blankToNull, z.enum(AGREEMENT_INTERVALS, { error: 'ERROR_INVALID_VALUE' }).nullish())
    .transform((v) => v ?? null);
const zStatus = z.enum(AGREEMENT_STATUSES, { error: 'ERROR_INVALID_VALUE' });
const zType = z.enum(AGREEMENT_TYPES, { error: 'ERROR_INVALID_VALUE' });
/** Free settings of the type (spec "configuration"); left out, an update keeps what is there. */
const zConfiguration = z.record(z.string(), z.unknown(), { error: 'ERROR_INVALID_VALUE' }).optional();

const agreementFields = {
  code: zIdentifier(50),
  title: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD').max(200, 'ERROR_MAX_LENGTH'),
  description: zOptionalText(4000),
  status: zStatus.default('active'),
  type: zType.default('service'),
  validFrom: zOptionalPlainDate(),
  validTo: zOptionalPlainDate(),
  woDay: zDay(),
  woInterval: zInterval(),
  workTypeId: zOptionalUuid(),
  invoiceDay: zDay(),
  invoiceInterval: zInterval(),
  configuration: zConfiguration,
};

/**
 * Spec section 5: the valid-from date must be set and not after the valid-to date. Checked even
 * when other fields are wrong (`when`), so the form shows every mistake at once.
 */
function withValidity<T extends z.ZodType<{ validFrom: string | null; validTo: string | null }>>(schema: T) {
  return schema
    .refine((v) => v.validFrom != null, {
      message: 'ERROR_REQUIRED_FIELD',
      path: ['validFrom'],
      when: evenWithOtherErrors,
    })
    .refine((v) => !(typeof v.validFrom === 'string' && typeof v.validTo === 'string' && v.validTo < v.validFrom), {
      message: 'ERROR_VALID_TO_BEFORE_VALID_FROM',
      path: ['validTo'],
      when: evenWithOtherErrors,
    });
}

const pricingFields = {
  priceModel: z.enum(PRICE_MODELS, { error: 'ERROR_INVALID_VALUE' }).default('fixed'),
  price: z.preprocess((v) => (v === '' || v == null ? '0' : v), zMoney()),
  priceArticleId: zOptionalUuid(),
};

/** POST /agreements: {title} is enough; the code is made from the title when left out. */
export const ZCreateAgreementFields = z.object({
  ...agreementFields,
  code: z.preprocess(blankToNull, zIdentifier(50).nullish()),
  priceModel: pricingFields.priceModel.optional(),
  price: pricingFields.price.optional(),
  priceArticleId: pricingFields.priceArticleId.optional(),
});
/** With validFrom required: createAgreementType fills in today first when it is left out. */
export const ZCreateAgreement = withValidity(ZCreateAgreementFields);
export type TCreateAgreement = z.infer<typeof ZCreateAgreement>;

/** PUT /agreements {agreement}: every field of the type but its pricing (PUT …/pricing). */
export const ZUpdateAgreement = withValidity(z.object({ ...agreementFields, id: z.string() }));
export type TUpdateAgreement = z.infer<typeof ZUpdateAgreement>;

export const ZAgreementPricing = z.object({ id: z.string(), ...pricingFields });
export type TAgreementPricing = z.infer<typeof ZAgreementPricing>;

export const ZAgreementList = ZListQuery.extend({
  status: z.preprocess(blankToNull, zStatus.nullish()),
  type: z.preprocess(blankToNull, zType.nullish()),
});
export type TAgreementList = z.infer<typeof ZAgreementList>;

/** POST and PUT /agreements/articles: a discount of PERCENTAGE (0–100), REGULAR (an amount) or NONE. */
export const ZAgreementArticle = z
  .object({
    agreementId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
    articleId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD'),
    discountType: z
      .preprocess((v) => (v === '' || v == null ? 'NONE' : v), z.enum(DISCOUNT_TYPES, { error: 'ERROR_INVALID_VALUE' }))
      .optional(),
    discountValue: z.preprocess((v) => (v === '' || v == null ? '0' : v), z.union([z.string(), z.number()])).optional(),
  })
  .transform((v, ctx) => {
    const d = zDiscount().safeParse({ discountType: v.discountType ?? 'NONE', discountValue: v.discountValue ?? '0' });
    if (!d.success) {
      for (const issue of d.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      return z.NEVER;
    }
    return { agreementId: v.agreementId, articleId: v.articleId, discount: d.data };
  });

// ---------------------------------------------------------------------------------------------
// Reading

const COLUMNS = [
  'id',
  'code',
  'title',
  'description',
  'status',
  'type',
  'wo_day',
  'wo_interval',
  'work_type_id',
  'invoice_day',
  'invoice_interval',
  'price_model',
  'price_article_id',
  'configuration',
] as const;

/** The select list of an agreement type: dates and money as text, so no time zone or float touches them. */
function selectAgreement(ctx: Ctx) {
  return [
    ...COLUMNS,
    ctx.trx.raw(`to_char(valid_from, 'YYYY-MM-DD') as valid_from`),
    ctx.trx.raw(`to_char(valid_to, 'YYYY-MM-DD') as valid_to`),
    ctx.trx.raw('price::text as price'),
    'updated_at',
  ];
}

type Row = Record<string, unknown>;

const toAgreement = (r: Row, objectCount: number): Agreement => ({
  id: r.id as string,
  code: r.code as string,
  title: r.title as string,
  description: (r.description as string | null) ?? null,
  status: r.status as AgreementStatus,
  type: r.type as AgreementType,
  validFrom: (r.valid_from as string | null) ?? null,
  validTo: (r.valid_to as string | null) ?? null,
  woDay: Number(r.wo_day),
  woInterval: (r.wo_interval as AgreementInterval | null) ?? null,
  workTypeId: (r.work_type_id as string | null) ?? null,
  invoiceDay: Number(r.invoice_day),
  invoiceInterval: (r.invoice_interval as AgreementInterval | null) ?? null,
  priceModel: r.price_model as PriceModel,
  price: r.price as string,
  priceArticleId: (r.price_article_id as string | null) ?? null,
  configuration: (typeof r.configuration === 'string'
    ? JSON.parse(r.configuration)
    : (r.configuration ?? {})) as Record<string, unknown>,
  objectCount,
  updatedAt: new Date(r.updated_at as string).toISOString(),
});

/** How many object agreements use each of `ids`: one grouped, indexed query. */
export async function agreementObjectCounts(ctx: Ctx, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = (await ctx
    .trx('object_agreements')
    .whereIn('agreement_id', ids)
    .groupBy('agreement_id')
    .select('agreement_id', ctx.trx.raw('count(*)::int as n'))) as { agreement_id: string; n: number }[];
  return new Map(rows.map((r) => [r.agreement_id, Number(r.n)]));
}

/**
 * An agreement type by id without an access check, for other agreement services (object
 * agreements, generation) that have checked their own permission: null when there is none.
 */
export async function findAgreementType(ctx: Ctx, id: unknown): Promise<Agreement | null> {
  if (!isUuid(id)) return null;
  const row = (await ctx.trx('agreements').where({ id }).first(selectAgreement(ctx))) as Row | undefined;
  if (!row) return null;
  const counts = await agreementObjectCounts(ctx, [id]);
  return toAgreement(row, counts.get(id) ?? 0);
}

async function requireAgreementRow(ctx: Ctx, id: unknown, forUpdate = false): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const q = ctx.trx('agreements').where({ id }).first(selectAgreement(ctx));
  const row = (await (forUpdate ? q.forUpdate() : q)) as Row | undefined;
  if (!row) throw notFound();
  return row;
}

/**
 * GET /agreements: a page of agreement types by title, searched (code, title, description) and
 * filtered by status and type in SQL, each with how many object agreements use it.
 */
export async function listAgreementTypes(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ agreements: Agreement[]; totalCount: number }> {
  requireAccess(ctx.auth, READ);
  const f = parseInput(ZAgreementList, raw);
  const base = ctx.trx('agreements');
  if (f.q) base.whereRaw('search_text like ?', [containsPattern(f.q)]);
  if (f.status) base.where({ status: f.status });
  if (f.type) base.where({ type: f.type });
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .select(selectAgreement(ctx))
    .orderByRaw('lower(title), lower(code), id')
    .limit(f.limit)
    .offset(f.offset)) as Row[];
  const counts = await agreementObjectCounts(
    ctx,
    rows.map((r) => r.id as string),
  );
  return {
    totalCount: Number(n),
    agreements: rows.map((r) => toAgreement(r, counts.get(r.id as string) ?? 0)),
  };
}

/** GET /agreements/{id}. */
export async function getAgreementType(ctx: Ctx, id: unknown): Promise<{ agreement: Agreement }> {
  requireAccess(ctx.auth, READ);
  const row = await requireAgreementRow(ctx, id);
  const counts = await agreementObjectCounts(ctx, [row.id as string]);
  return { agreement: toAgreement(row, counts.get(row.id as string) ?? 0) };
}

/**
 * Active agreement types for a picker ("SERV-Q – Serviceavtal"), cut to `limit`, with how many
 * matched. Whoever may put an agreement on an object (bo:agreements:edit) may pick one.
 */
export async function agreementTypeOptions(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ options: { id: string; label: string }[]; total: number }> {
  if (!hasAccess(ctx.auth, READ)) requireAccess(ctx.auth, { permission: 'bo:agreements:edit' });
  const f = parseInput(ZListQuery, raw);
  const base = ctx.trx('agreements').where({ status: 'active' });
  if (f.q) base.whereRaw('search_text like ?', [containsPattern(f.q)]);
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .select('id', 'code', 'title')
    .orderByRaw('lower(title), lower(code), id')
    .limit(f.limit)
    .offset(f.offset)) as { id: string; code: string; title: string }[];
  return { total: Number(n), options: rows.map((r) => ({ id: r.id, label: `${r.code} – ${r.title}` })) };
}

// ---------------------------------------------------------------------------------------------
// Writing

function rethrowDuplicate(e: unknown): never {
  if (uniqueViolation(e) === 'agreements_code_idx') throw duplicate('DUPLICATE_AGREEMENT_TYPE', 'code');
  throw e;
}

const fieldError = (field: string, code = 'ERROR_INVALID_VALUE') =>
  new AppError('VALIDATION_FAILED', 400, { fields: { [field]: [code] } });

/** A work type of this tenant, or a field error. */
async function checkWorkType(ctx: Ctx, id: string | null): Promise<void> {
  if (id && !(await ctx.trx('work_types').where({ id }).first('id'))) throw fieldError('workTypeId');
}

/** An article of this tenant (when one is given), or a field error on `field`. */
async function checkArticle(ctx: Ctx, id: string | null, field: string): Promise<void> {
  if (id === null) return;
  if (!isUuid(id) || !(await ctx.trx('articles').where({ id }).first('id'))) throw fieldError(field);
}

/** The body as the catalogue sends it: `{agreement}`, or the fields at the top level. */
function unwrap(raw: unknown): Record<string, unknown> {
  const body = raw as { agreement?: unknown } | null;
  const inner = body && typeof body === 'object' && body.agreement && typeof body.agreement === 'object';
  return ((inner ? body.agreement : raw) ?? {}) as Record<string, unknown>;
}

/**
 * A code made from a title when none is given: its letters and digits in capitals, words joined
 * by hyphens ("Service kvartal" → "SERVICE-KVARTAL"), at most 20 characters, with "-2", "-3", …
 * when that is taken (case-insensitively). The unique index still decides a race (409).
 */
export async function proposeAgreementCode(ctx: Ctx, title: string): Promise<string> {
  const base =
    title
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 20)
      .replace(/-+$/, '') || 'AGR';
  const taken = new Set(
    (
      (await ctx
        .trx('agreements')
        .whereRaw('lower(code) = lower(?)', [base])
        .orWhereRaw(`lower(code) like ? escape '\\'`, [`${base.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}-%`])
        .select('code')) as { code: string }[]
    ).map((r) => r.code.toLowerCase()),
  );
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** Today in the tenant's time zone (a new type is valid from today unless told). */
const today = (ctx: Ctx) => dateIn(ctx.now, tenantTimeZone(ctx.tenant.config?.country));

/** The columns create and update both write from the form's fields (not code, pricing or configuration). */
function typeColumns(input: TCreateAgreement | TUpdateAgreement) {
  return {
    title: input.title,
    description: input.description,
    status: input.status,
    type: input.type,
    valid_from: input.validFrom,
    valid_to: input.validTo,
    wo_day: input.woDay,
    wo_interval: input.woInterval,
    work_type_id: input.workTypeId,
    invoice_day: input.invoiceDay,
    invoice_interval: input.invoiceInterval,
  };
}

/**
 * POST /agreements {title} or {agreement}: a new agreement type. The code is made from the title
 * when left out, the validity starts today when left out (spec section 5: it must be set), and
 * it is active unless told. Returns its id.
 */
export async function createAgreementType(ctx: Ctx, raw: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, EDIT);
  const body = unwrap(raw);
  const input = parseInput(ZCreateAgreement, 'validFrom' in body ? body : { ...body, validFrom: today(ctx) });
  await checkWorkType(ctx, input.workTypeId);
  await checkArticle(ctx, input.priceArticleId ?? null, 'priceArticleId');
  const code = input.code ?? (await proposeAgreementCode(ctx, input.title));
  const [row] = (await ctx
    .trx('agreements')
    .insert({
      code,
      ...typeColumns(input),
      price_model: input.priceModel ?? 'fixed',
      price: input.price ?? '0',
      price_article_id: input.priceArticleId ?? null,
      configuration: JSON.stringify(input.configuration ?? {}),
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning('id')
    .catch(rethrowDuplicate)) as { id: string }[];
  const id = row!.id;
  await recordHistory(ctx, { entity: ENTITY, entityId: id, action: 'create', data: { ...input, code } });
  return { id };
}

/** PUT /agreements {agreement}: every field but the pricing, which PUT …/pricing sets. */
export async function updateAgreementType(ctx: Ctx, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZUpdateAgreement, unwrap(raw));
  await requireAgreementRow(ctx, input.id, true);
  await checkWorkType(ctx, input.workTypeId);
  await ctx
    .trx('agreements')
    .where({ id: input.id })
    .update({
      code: input.code,
      ...typeColumns(input),
      ...(input.configuration ? { configuration: JSON.stringify(input.configuration) } : {}),
      updated_at: ctx.now,
    })
    .catch(rethrowDuplicate);
  await recordHistory(ctx, { entity: ENTITY, entityId: input.id, action: 'edit', data: input });
}

/**
 * Sets a type active or inactive and nothing else: what the page offers when a type still in use
 * cannot be deleted (spec section 8: "delete not possible", set it inactive instead).
 */
export async function setAgreementTypeStatus(ctx: Ctx, id: unknown, status: AgreementStatus): Promise<void> {
  requireAccess(ctx.auth, EDIT);
  const row = await requireAgreementRow(ctx, id, true);
  const next = parseInput(zStatus, status);
  await ctx.trx('agreements').where({ id: row.id }).update({ status: next, updated_at: ctx.now });
  await recordHistory(ctx, { entity: ENTITY, entityId: row.id as string, action: 'edit', data: { status: next } });
}

/** DELETE /agreements/{id}: refused with 409 IN_USE while object agreements use the type. */
export async function deleteAgreementType(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, DELETE);
  const row = await requireAgreementRow(ctx, id, true);
  const objects = (await agreementObjectCounts(ctx, [row.id as string])).get(row.id as string) ?? 0;
  if (objects > 0) throw inUse({ objects });
  await ctx.trx('agreements').where({ id: row.id }).delete();
  await recordHistory(ctx, {
    entity: ENTITY,
    entityId: row.id as string,
    action: 'delete',
    data: { code: row.code, title: row.title },
  });
}

// ---------------------------------------------------------------------------------------------
// Pricing

/** GET /agreements/{id}/pricing. */
export async function getAgreementPricing(ctx: Ctx, id: unknown): Promise<AgreementPricing> {
  requireAccess(ctx.auth, READ);
  const row = await requireAgreementRow(ctx, id);
  const article = row.price_article_id
    ? ((await ctx.trx('articles').where({ id: row.price_article_id }).first('id', 'article_id', 'title')) as
        { id: string; article_id: string; title: string } | undefined)
    : undefined;
  return {
    priceModel: row.price_model as PriceModel,
    price: row.price as string,
    priceArticleId: (row.price_article_id as string | null) ?? null,
    priceArticle: article ? { id: article.id, articleNumber: article.article_id, title: article.title } : null,
  };
}

/**
 * PUT /agreements/{id}/pricing {priceModel, price, priceArticleId}: fixed bills the object's
 * price on the price article; articles bills the object's invoice rows.
 */
export async function updateAgreementPricing(ctx: Ctx, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZAgreementPricing, raw);
  await requireAgreementRow(ctx, input.id, true);
  await checkArticle(ctx, input.priceArticleId, 'priceArticleId');
  await ctx.trx('agreements').where({ id: input.id }).update({
    price_model: input.priceModel,
    price: input.price,
    price_article_id: input.priceArticleId,
    updated_at: ctx.now,
  });
  await recordHistory(ctx, { entity: ENTITY, entityId: input.id, action: 'edit.pricing', data: input });
}

// ---------------------------------------------------------------------------------------------
// Included articles

/** GET /agreements/{id}/articles: the included articles by article number. */
export async function listAgreementArticles(ctx: Ctx, id: unknown): Promise<{ articles: AgreementArticle[] }> {
  requireAccess(ctx.auth, READ);
  const row = await requireAgreementRow(ctx, id);
  const rows = (await ctx
    .trx('agreement_articles as aa')
    .join('articles as a', 'a.id', 'aa.article_id')
    .where('aa.agreement_id', row.id as string)
    .orderByRaw('lower(a.article_id), a.id')
    .select(
      'aa.agreement_id',
      'aa.article_id',
      'a.article_id as article_number',
      'a.title',
      'a.unit',
      'a.status',
      ctx.trx.raw('a.price::text as list_price'),
      'aa.discount_type',
      ctx.trx.raw('aa.discount_value::text as discount_value'),
    )) as Row[];
  return {
    articles: rows.map((r) => ({
      agreementId: r.agreement_id as string,
      articleId: r.article_id as string,
      articleNumber: r.article_number as string,
      title: r.title as string,
      unit: (r.unit as string | null) ?? null,
      listPrice: r.list_price as string,
      status: r.status as 'active' | 'inactive',
      discountType: r.discount_type as DiscountType,
      discountValue: r.discount_value as string,
    })),
  };
}

/**
 * POST /agreements/articles {agreementId, articleId, discountType, discountValue}: includes an
 * article; one already included is 409 DUPLICATE_AGREEMENT_ARTICLE.
 */
export async function addAgreementArticle(ctx: Ctx, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZAgreementArticle, raw);
  await requireAgreementRow(ctx, input.agreementId, true);
  await checkArticle(ctx, input.articleId, 'articleId');
  const inserted = (await ctx
    .trx('agreement_articles')
    .insert({
      agreement_id: input.agreementId,
      article_id: input.articleId,
      discount_type: input.discount.type,
      discount_value: input.discount.value,
    })
    .onConflict(['agreement_id', 'article_id'])
    .ignore()
    .returning('article_id')) as unknown[];
  if (!inserted.length) throw duplicate('DUPLICATE_AGREEMENT_ARTICLE', 'articleId');
  await recordHistory(ctx, { entity: ENTITY, entityId: input.agreementId, action: 'add.article', data: input });
}

/** PUT /agreements/articles {agreementId, articleId, discountType, discountValue}: its discount. */
export async function updateAgreementArticle(ctx: Ctx, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZAgreementArticle, raw);
  await requireAgreementRow(ctx, input.agreementId, true);
  if (!isUuid(input.articleId)) throw notFound();
  const n = await ctx
    .trx('agreement_articles')
    .where({ agreement_id: input.agreementId, article_id: input.articleId })
    .update({ discount_type: input.discount.type, discount_value: input.discount.value });
  if (!n) throw notFound();
  await recordHistory(ctx, { entity: ENTITY, entityId: input.agreementId, action: 'edit.article', data: input });
}

/** DELETE /agreements/{id}/articles?articleId: no longer included (404 when it was not). */
export async function removeAgreementArticle(ctx: Ctx, id: unknown, articleId: unknown): Promise<void> {
  requireAccess(ctx.auth, EDIT);
  const row = await requireAgreementRow(ctx, id, true);
  if (!isUuid(articleId)) throw notFound();
  const n = await ctx.trx('agreement_articles').where({ agreement_id: row.id, article_id: articleId }).delete();
  if (!n) throw notFound();
  await recordHistory(ctx, {
    entity: ENTITY,
    entityId: row.id as string,
    action: 'delete.article',
    data: { articleId },
  });
}
