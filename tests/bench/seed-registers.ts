import type { Trx } from '~/core/db/with-tenant';

/** The registers' benchmark volume (issue: 20,000 customers, 50,000 objects, 10,000 articles). */
export const REGISTER_VOLUME = { customers: 20_000, objects: 50_000, articles: 10_000, groups: 40, models: 200 };

/**
 * Fills the bench tenant's registers in a few set-based statements (generate_series), so seeding
 * takes seconds. Idempotent: a register that already has rows is left alone. Names mix a few
 * Swedish words so searches hit realistic, partly overlapping text.
 */
export async function seedRegisters(trx: Trx): Promise<void> {
  const count = async (table: string) => Number((await trx(table).count({ n: '*' }))[0]!.n);
  const words = `array['Brf','Solrosen','Nordic','Larm','Fastighets','Skola','Vård','Bygg','Hotell','Handel',
    'Kontor','Lager','Centrum','Park','Hamn','Teknik','Säkerhet','Energi','Invest','Service']`;
  const cities = `array['Stockholm','Uppsala','Västerås','Göteborg','Malmö','Örebro','Linköping','Norrköping','Gävle','Umeå']`;

  if ((await count('article_groups')) === 0) {
    await trx.raw(
      `insert into article_groups (title, display_name)
       select 'G' || lpad(g::text, 3, '0'), 'Grupp ' || g from generate_series(1, ?) g`,
      [REGISTER_VOLUME.groups],
    );
    await trx.raw(`insert into price_lists (title) values ('Avtalskund'), ('Bostadsrätt'), ('Offentlig')`);
    await trx.raw(
      `insert into price_list_groups (price_list_id, article_group_id, pricing_type, value)
       select pl.id, ag.id, (array['discount','markup_purchase','markup_sales'])[1 + (row_number() over ()) % 3], 10
       from price_lists pl cross join article_groups ag`,
    );
  }
  if ((await count('articles')) === 0) {
    await trx.raw(
      `insert into articles (article_id, title, status, unit, e_number, article_group_id, price, purchase_price,
                             product_type)
       select lpad(a::text, 6, '0'),
              (${words})[1 + a % 20] || ' ' || (array['detektor','sirén','kortläsare','kamera','kabel','batteri',
                'manöverpanel','dörrstängare','magnetkontakt','arbetstid'])[1 + a % 10] || ' ' || a,
              case when a % 25 = 0 then 'inactive' else 'active' end,
              (array['st','m','tim'])[1 + a % 3],
              case when a % 2 = 0 then 'E' || (1000000 + a)::text end,
              ids.g[1 + a % ?],
              (100 + a % 900)::numeric, (60 + a % 500)::numeric,
              (array['service','stock','non_stock'])[1 + a % 3]
       from generate_series(1, ?) a, (select array_agg(id order by title) as g from article_groups) ids`,
      [REGISTER_VOLUME.groups, REGISTER_VOLUME.articles],
    );
  }
  if ((await count('customers')) === 0) {
    await trx.raw(
      `insert into customers (customer_id, name, type, organizational_number, price_list_id, payment_term_days)
       select (10000 + c)::text,
              (${words})[1 + c % 20] || ' ' || (${words})[1 + (c / 20) % 20] || ' ' || (${cities})[1 + c % 10] || ' ' || c,
              case when c % 7 = 0 then 'private' else 'company' end,
              case when c % 7 <> 0 then '55' || lpad(c::text, 8, '0') end,
              case when c % 5 = 0 then (select id from price_lists order by title limit 1) end,
              30
       from generate_series(1, ?) c`,
      [REGISTER_VOLUME.customers],
    );
    await trx.raw(
      `insert into customer_addresses (customer_id, street, city, post_index, is_primary)
       select id, 'Storgatan ' || (row_number() over ()) % 90, 'Stockholm', '11' || lpad(((row_number() over ()) % 999)::text, 3, '0'), true
       from customers`,
    );
  }
  if ((await count('models')) === 0) {
    await trx.raw(
      `insert into models (code, name) select 'M' || m, (array['Galaxy Flex','Axis M','SW','Vanderbilt SPC','Bosch AMC'])[1 + m % 5] || ' ' || m
       from generate_series(1, ?) m`,
      [REGISTER_VOLUME.models],
    );
  }
  if ((await count('business_objects')) === 0) {
    await trx.raw(
      `with ids as (select (select array_agg(id order by customer_id) from customers) as c,
                          (select array_agg(id order by code) from models) as m)
       insert into business_objects (serial_code, customer_id, model_id, location, description)
       select 'SN' || lpad(o::text, 7, '0'),
              ids.c[1 + o % ?],
              ids.m[1 + o % ?],
              (${cities})[1 + o % 10] || ', ' || (array['Entré','Källare','Trapphus','Garage','Kontor'])[1 + o % 5],
              (array['Inbrottslarm','Passersystem','Kamera','Brandlarm','Dörrautomatik'])[1 + o % 5]
       from generate_series(1, ?) o, ids`,
      [REGISTER_VOLUME.customers, REGISTER_VOLUME.models, REGISTER_VOLUME.objects],
    );
  }
  await trx.raw('analyze');
}
