import type { Ctx } from '~/core/context';
import { priceArticles } from '~/core/articles/price-lookup.service';
import { divide, formatDecimal, type Money } from '~/core/pricing';
import type { Lang } from '~/core/i18n/languages';
import { VAT_RATES, type VatRate } from './invoice-math';

/*
 * What an invoice bills, before it is stored (issue 14 item 1): a work order's article rows, its
 * labour from the time rows and its mileage from their distance as the tenant's invoice rules say
 * (an article per work type or per person, minutes rounded up), and the invoice fee; or a sales
 * order's rows. Every figure is priced once for the customer and object (core/pricing) and carries
 * its VAT rate and whether it is labour (ROT/RUT) or material.
 */

export { INVOICE_ROW_KINDS, invoiceRowType, type InvoiceRowKind, type InvoiceRowType } from './invoice-math';
import type { InvoiceRowKind } from './invoice-math';

export interface InvoiceLine {
  kind: InvoiceRowKind;
  articleId: string | null;
  articleNumber: string | null;
  title: string;
  description: string | null;
  unit: string | null;
  amount: string;
  price: string;
  discountType: 'PERCENTAGE' | 'REGULAR' | null;
  discountValue: string | null;
  vatPercent: VatRate;
  work: 'labour' | 'material';
  green: 'solar' | 'storage' | 'charger' | null;
  userId: string | null;
}

export interface InvoiceRules {
  billTime: boolean;
  labourArticleId: string | null;
  billTravelTime: boolean;
  travelArticleId: string | null;
  timeRoundingMinutes: number;
  mileageArticleId: string | null;
  reviewBeforeSending: boolean;
  bankAccount: string | null;
  ocr: boolean;
}

type Row = Record<string, unknown>;

export async function readInvoiceRules(ctx: Ctx): Promise<InvoiceRules> {
  const r: Row | undefined = await ctx.trx('invoice_settings').first();
  return {
    billTime: r ? Boolean(r.bill_time) : true,
    labourArticleId: (r?.labour_article_id as string) ?? null,
    billTravelTime: Boolean(r?.bill_travel_time),
    travelArticleId: (r?.travel_article_id as string) ?? null,
    timeRoundingMinutes: Number(r?.time_rounding_minutes ?? 0),
    mileageArticleId: (r?.mileage_article_id as string) ?? null,
    reviewBeforeSending: Boolean(r?.review_before_sending),
    bankAccount: (r?.bank_account as string) ?? null,
    ocr: r ? Boolean(r.ocr) : true,
  };
}

/** A percentage the tenant typed (work-order settings allow any 0–100) as one of the invoice's rates. */
export function vatRateOf(value: unknown, fallback: VatRate = '25'): VatRate {
  if (value === null || value === undefined || value === '') return fallback;
  const n = Number(value);
  const hit = VAT_RATES.find((r) => Number(r) === n);
  return hit ?? fallback;
}

/** Minutes rounded up to the rule's step (0: exact). */
export function roundMinutes(minutes: number, step: number): number {
  if (!step || minutes <= 0) return Math.max(0, minutes);
  return Math.ceil(minutes / step) * step;
}

/** Minutes as hours with two decimals (15 min → 0.25). */
export const hoursOf = (minutes: number): Money => formatDecimal(divide(minutes, 60, 2));

interface ArticleFacts {
  id: string;
  articleNumber: string;
  title: string;
  unit: string | null;
  vatPercent: VatRate;
  isService: boolean;
}

async function articleFacts(ctx: Ctx, ids: string[], defaultVat: VatRate): Promise<Map<string, ArticleFacts>> {
  const facts = new Map<string, ArticleFacts>();
  if (!ids.length) return facts;
  const rows: Row[] = await ctx
    .trx('articles')
    .whereIn('id', [...new Set(ids)])
    .select('id', 'article_id', 'title', 'unit', 'vat_percent', 'product_type', 'house_work');
  for (const r of rows)
    facts.set(r.id as string, {
      id: r.id as string,
      articleNumber: r.article_id as string,
      title: r.title as string,
      unit: (r.unit as string) ?? null,
      vatPercent: vatRateOf(r.vat_percent, defaultVat),
      isService: r.product_type === 'service' || Boolean(r.house_work),
    });
  return facts;
}

export interface WorkOrderLinesInput {
  workOrderId: string;
  workTypeId: string;
  customerId: string;
  businessObjectId: string | null;
  fee: Money | null;
  feeTitle: string;
  defaultVat: VatRate;
  rules: InvoiceRules;
  lang: Lang;
}

/** Labels of the labour rows, in the invoice's language. */
const LABOUR_TEXT: Record<Lang, { travel: string; km: string }> = {
  sv: { travel: 'Restid', km: 'Körsträcka' },
  en: { travel: 'Travel time', km: 'Mileage' },
  et: { travel: 'Sõiduaeg', km: 'Läbisõit' },
  lv: { travel: 'Ceļā pavadītais laiks', km: 'Nobraukums' },
  ru: { travel: 'Время в пути', km: 'Пробег' },
};

/**
 * The lines of a work order's invoice: its article rows as they are; then, when the rules say so,
 * one labour line per person (their minutes, each time row rounded up, at the labour article of
 * the person, else of the order's work type, else the tenant's), travel time likewise, one mileage
 * line for the order's kilometres; then the fee. Three statements for the order's data and one to
 * price every article involved, whatever the number of rows.
 */
export async function workOrderLines(ctx: Ctx, input: WorkOrderLinesInput): Promise<InvoiceLine[]> {
  const { rules } = input;
  const articleRows: Row[] = await ctx
    .trx('work_order_articles')
    .where({ work_order_id: input.workOrderId })
    .orderBy([{ column: 'sort_order' }, { column: 'created_at' }, { column: 'id' }])
    .select('article_id', 'title', 'description', 'amount', 'price', 'discount_type', 'discount_value');
  const time: Row[] =
    rules.billTime || rules.billTravelTime || rules.mileageArticleId
      ? await ctx
          .trx('work_order_time as t')
          .join('users as u', 'u.id', 't.user_id')
          .where('t.work_order_id', input.workOrderId)
          .orderBy([{ column: 'u.name' }, { column: 't.date' }, { column: 't.id' }])
          .select('t.user_id', 'u.name', 't.work_minutes', 't.travel_minutes', 't.distance_km')
      : [];
  const overrides: Row[] = time.length
    ? await ctx
        .trx('invoice_labour_articles')
        .where('work_type_id', input.workTypeId)
        .orWhereIn('user_id', [...new Set(time.map((t) => t.user_id as string))])
        .select('work_type_id', 'user_id', 'article_id')
    : [];
  const typeArticle = overrides.find((o) => o.work_type_id)?.article_id as string | undefined;
  const labourArticleOf = (userId: string) =>
    (overrides.find((o) => o.user_id === userId)?.article_id as string | undefined) ??
    typeArticle ??
    rules.labourArticleId;

  // each person's minutes, in order of name
  const people = new Map<string, { name: string; work: number; travel: number }>();
  let tenthsKm = 0;
  for (const t of time) {
    const id = t.user_id as string;
    const p = people.get(id) ?? { name: t.name as string, work: 0, travel: 0 };
    p.work += roundMinutes(Number(t.work_minutes), rules.timeRoundingMinutes);
    p.travel += roundMinutes(Number(t.travel_minutes), rules.timeRoundingMinutes);
    people.set(id, p);
    tenthsKm += Math.round(Number(t.distance_km) * 10);
  }

  const wanted: string[] = articleRows.map((r) => r.article_id as string).filter(Boolean);
  if (rules.billTime) for (const id of people.keys()) wanted.push(labourArticleOf(id) ?? '');
  const travelArticle = rules.travelArticleId ?? null;
  if (rules.billTravelTime) for (const id of people.keys()) wanted.push(travelArticle ?? labourArticleOf(id) ?? '');
  if (rules.mileageArticleId && tenthsKm > 0) wanted.push(rules.mileageArticleId);
  const ids = wanted.filter(Boolean);
  const [facts, priced] = [
    await articleFacts(ctx, ids, input.defaultVat),
    await priceArticles(ctx, [...new Set(ids)], {
      customerId: input.customerId,
      businessObjectId: input.businessObjectId,
    }),
  ];

  const lines: InvoiceLine[] = articleRows.map((r) => {
    const f = r.article_id ? facts.get(r.article_id as string) : undefined;
    const discountType = r.discount_type === 'PERCENTAGE' || r.discount_type === 'REGULAR' ? r.discount_type : null;
    return {
      kind: 'article',
      articleId: (r.article_id as string) ?? null,
      articleNumber: f?.articleNumber ?? null,
      title: r.title as string,
      description: (r.description as string) ?? null,
      unit: f?.unit ?? null,
      amount: String(r.amount),
      price: String(r.price),
      discountType,
      discountValue: discountType ? String(r.discount_value ?? '0') : null,
      vatPercent: f?.vatPercent ?? input.defaultVat,
      work: f?.isService ? 'labour' : 'material',
      green: null,
      userId: null,
    };
  });

  const timeLine = (kind: 'labour' | 'travel' | 'mileage', articleId: string, amount: string, who: string | null) => {
    const f = facts.get(articleId);
    const p = priced.articles.get(articleId);
    if (!f || !p) return null;
    const discount = p.lookup.discountType === 'PERCENTAGE' || p.lookup.discountType === 'REGULAR';
    const line: InvoiceLine = {
      kind,
      articleId,
      articleNumber: f.articleNumber,
      title: f.title,
      description: who,
      unit: f.unit ?? (kind === 'mileage' ? 'km' : 'h'),
      amount,
      price: p.lookup.salesPrice,
      discountType: discount ? (p.lookup.discountType as 'PERCENTAGE' | 'REGULAR') : null,
      discountValue: discount ? p.lookup.discountValue : null,
      vatPercent: f.vatPercent,
      work: kind === 'mileage' ? 'material' : 'labour',
      green: null,
      userId: null,
    };
    return line;
  };
  const text = LABOUR_TEXT[input.lang];
  if (rules.billTime)
    for (const [userId, p] of people) {
      const article = labourArticleOf(userId);
      if (!article || p.work <= 0) continue;
      const line = timeLine('labour', article, hoursOf(p.work), p.name);
      if (line) lines.push({ ...line, userId });
    }
  if (rules.billTravelTime)
    for (const [userId, p] of people) {
      const article = travelArticle ?? labourArticleOf(userId);
      if (!article || p.travel <= 0) continue;
      const line = timeLine('travel', article, hoursOf(p.travel), `${text.travel}, ${p.name}`);
      if (line) lines.push({ ...line, userId });
    }
  if (rules.mileageArticleId && tenthsKm > 0) {
    // a Swedish mil is 10 km: an article priced per mil bills the kilometres / 10
    const perMil = facts.get(rules.mileageArticleId)?.unit?.trim().toLowerCase() === 'mil';
    const amount = perMil ? formatDecimal(divide(tenthsKm, 100, 2), 2) : formatDecimal(divide(tenthsKm, 10, 1), 1);
    const line = timeLine('mileage', rules.mileageArticleId, amount, text.km);
    if (line) lines.push(line);
  }
  if (input.fee !== null)
    lines.push({
      kind: 'fee',
      articleId: null,
      articleNumber: null,
      title: input.feeTitle,
      description: null,
      unit: null,
      amount: '1',
      price: input.fee,
      discountType: null,
      discountValue: null,
      vatPercent: input.defaultVat,
      work: 'material',
      green: null,
      userId: null,
    });
  return lines;
}
