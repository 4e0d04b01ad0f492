import type { Trx } from '~/core/db/with-tenant';
import type { AgreementInterval } from '~/core/agreements/agreement-constants';

/*
 * Agreement fixtures written straight to a tenant's tables, for tests of generation that need many
 * agreements quickly (the register's own tests go through the API).
 */

export interface TypeFixture {
  code: string;
  title?: string;
  invoiceInterval?: AgreementInterval | null;
  invoiceDay?: number;
  woInterval?: AgreementInterval | null;
  woDay?: number;
  priceModel?: 'fixed' | 'articles';
  price?: string;
  workTypeId?: string | null;
  priceArticleId?: string | null;
}

export async function insertAgreementType(trx: Trx, t: TypeFixture): Promise<string> {
  const [row] = await trx('agreements')
    .insert({
      code: t.code,
      title: t.title ?? `Agreement ${t.code}`,
      valid_from: '2020-01-01',
      invoice_interval: t.invoiceInterval === undefined ? 'quarter' : t.invoiceInterval,
      invoice_day: t.invoiceDay ?? 1,
      wo_interval: t.woInterval === undefined ? 'year_1' : t.woInterval,
      wo_day: t.woDay ?? 1,
      price_model: t.priceModel ?? 'fixed',
      price: t.price ?? '0',
      work_type_id: t.workTypeId ?? null,
      price_article_id: t.priceArticleId ?? null,
    })
    .returning('id');
  return (row as { id: string }).id;
}

/**
 * `count` customers, each with one object carrying an agreement of `agreementId` whose invoices and
 * work orders start on `start`. Set-based, so 50,000 take seconds.
 */
export async function insertObjectsWithAgreements(
  trx: Trx,
  options: { agreementId: string; count: number; start: string; prefix: string; totalPrice?: string },
): Promise<void> {
  await trx.raw(
    `with c as (
       insert into customers (customer_id, name)
       select ? || g, 'Customer ' || ? || g from generate_series(1, ?) g
       returning id, customer_id
     ), b as (
       insert into business_objects (serial_code, customer_id)
       select 'OBJ-' || c.customer_id, c.id from c
       returning id
     )
     insert into object_agreements (business_object_id, agreement_id, valid_from, wo_scheduled_to,
                                    invoice_scheduled_to, invoice_period_from, total_price)
     select b.id, ?, ?, ?, ?, ?, ? from b`,
    [
      options.prefix,
      options.prefix,
      options.count,
      options.agreementId,
      options.start,
      options.start,
      options.start,
      options.start,
      options.totalPrice ?? '1200.00',
    ],
  );
}
