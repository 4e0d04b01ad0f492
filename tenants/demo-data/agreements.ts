import type { Trx } from '~/core/db/with-tenant';
import type { AgreementInterval, AgreementType, DiscountType } from '~/core/agreements/agreement-constants';

/**
 * The demo's agreement types (issue 16): a service agreement invoiced each quarter with a yearly
 * service visit, and alarm monitoring invoiced each month; and agreements on six of the demo's
 * objects (seedDemoObjectAgreements), dated from today so the screens have something due.
 */
interface DemoAgreementType {
  code: string;
  title: string;
  description: string;
  type: AgreementType;
  woInterval: AgreementInterval | null;
  woDay: number;
  invoiceInterval: AgreementInterval;
  invoiceDay: number;
  price: string;
  /** Included articles by article number, with the discount agreement customers get. */
  articles: { articleId: string; discountType: DiscountType; discountValue: string }[];
}

export const DEMO_AGREEMENT_TYPES: DemoAgreementType[] = [
  {
    code: 'SERV-Q',
    title: 'Serviceavtal, kvartalsfakturering',
    description: 'Ett förebyggande servicebesök per år. Fakturering i förskott per kvartal. 10 % rabatt på arbetstid.',
    type: 'service',
    woInterval: 'year_1',
    woDay: 1,
    invoiceInterval: 'quarter',
    invoiceDay: 1,
    price: '1950.00',
    articles: [
      { articleId: '90001', discountType: 'PERCENTAGE', discountValue: '10.00' },
      { articleId: '90003', discountType: 'PERCENTAGE', discountValue: '100.00' },
    ],
  },
  {
    code: 'LARM-M',
    title: 'Larmövervakning, månadsfakturering',
    description: 'Larmcentralens övervakning dygnet runt med åtgärd enligt instruktion. Fakturering per månad.',
    type: 'monitoring',
    woInterval: null,
    woDay: 1,
    invoiceInterval: 'month_1',
    // the last day of the month: this month's monitoring shows as upcoming until then
    invoiceDay: 0,
    price: '395.00',
    articles: [{ articleId: '90002', discountType: 'PERCENTAGE', discountValue: '15.00' }],
  },
];

export async function seedDemoAgreementTypes(trx: Trx, today: string): Promise<void> {
  const workType = (await trx('work_types')
    .orderBy([{ column: 'is_default', order: 'desc' }, 'sort_order'])
    .first('id')) as { id: string } | undefined;
  const validFrom = `${Number(today.slice(0, 4)) - 1}-01-01`;
  for (const t of DEMO_AGREEMENT_TYPES) {
    if (await trx('agreements').whereRaw('lower(code) = lower(?)', [t.code]).first('id')) continue;
    const [row] = (await trx('agreements')
      .insert({
        code: t.code,
        title: t.title,
        description: t.description,
        type: t.type,
        valid_from: validFrom,
        wo_day: t.woDay,
        wo_interval: t.woInterval,
        work_type_id: t.woInterval ? (workType?.id ?? null) : null,
        invoice_day: t.invoiceDay,
        invoice_interval: t.invoiceInterval,
        price_model: 'fixed',
        price: t.price,
      })
      .returning('id')) as { id: string }[];
    const articles = (await trx('articles')
      .whereIn(
        'article_id',
        t.articles.map((a) => a.articleId),
      )
      .select('id', 'article_id')) as { id: string; article_id: string }[];
    const idOf = new Map(articles.map((a) => [a.article_id, a.id]));
    const included = t.articles
      .filter((a) => idOf.has(a.articleId))
      .map((a) => ({
        agreement_id: row!.id,
        article_id: idOf.get(a.articleId)!,
        discount_type: a.discountType,
        discount_value: a.discountValue,
      }));
    if (included.length) await trx('agreement_articles').insert(included);
  }
}

/** Which demo objects have which agreement (by serial and type code). */
const DEMO_OBJECT_AGREEMENTS: { serial: string; code: string; totalPrice: string }[] = [
  { serial: '50001', code: 'SERV-Q', totalPrice: '1950.00' },
  { serial: '50002', code: 'SERV-Q', totalPrice: '2450.00' },
  { serial: '50004', code: 'SERV-Q', totalPrice: '1950.00' },
  { serial: '50003', code: 'LARM-M', totalPrice: '395.00' },
  { serial: '50005', code: 'LARM-M', totalPrice: '395.00' },
  { serial: '50006', code: 'LARM-M', totalPrice: '495.00' },
];

/**
 * Agreements on demo objects: valid since last year; this quarter's invoice due now (the first
 * generation run at start makes it, so the history has something), this month's monitoring due on
 * its last day (the upcoming list has something), the next service visit on 1 January (this year's
 * is among the demo's work orders: a visit made at start would be the newest open order).
 */
export async function seedDemoObjectAgreements(trx: Trx, today: string): Promise<void> {
  // `today` is the company's day (YYYY-MM-DD in its time zone), the day generation reads: the
  // server's own date is a day behind it from 23:00 UTC, which on 31 December is last year
  const y = Number(today.slice(0, 4));
  const m = Number(today.slice(5, 7));
  const pad = (n: number) => String(n).padStart(2, '0');
  const quarterStart = `${y}-${pad(Math.floor((m - 1) / 3) * 3 + 1)}-01`;
  const monthStart = `${y}-${pad(m)}-01`;
  const objects = (await trx('business_objects')
    .whereIn(
      'serial_code',
      DEMO_OBJECT_AGREEMENTS.map((o) => o.serial),
    )
    .select('id', 'serial_code')) as { id: string; serial_code: string }[];
  const types = (await trx('agreements').select('id', 'code')) as { id: string; code: string }[];
  const objectId = new Map(objects.map((o) => [o.serial_code, o.id]));
  const typeId = new Map(types.map((t) => [t.code, t.id]));
  const rows = DEMO_OBJECT_AGREEMENTS.filter((o) => objectId.has(o.serial) && typeId.has(o.code)).map((o) => ({
    business_object_id: objectId.get(o.serial)!,
    agreement_id: typeId.get(o.code)!,
    valid_from: `${y - 1}-01-01`,
    total_price: o.totalPrice,
    invoice_period_from: `${y - 1}-01-01`,
    invoice_scheduled_to: o.code === 'SERV-Q' ? quarterStart : monthStart,
    // this year's visit is among the demo's history; the next one is made on 1 January
    wo_scheduled_to: o.code === 'SERV-Q' ? `${y + 1}-01-01` : null,
  }));
  if (rows.length) await trx('object_agreements').insert(rows).onConflict('business_object_id').ignore();
}
