import type { Trx } from '~/core/db/with-tenant';

/** The work orders' benchmark volume (issue 5: 100,000 orders with articles, time and history). */
export const WORK_ORDER_VOLUME = { workOrders: 100_000, tags: 12 };

/**
 * Fills the bench tenant with work orders in a few set-based statements (generate_series), after
 * seedRegisters (orders point at its objects and their customers, and at its articles). Order n
 * is number n; every fifth is closed, every 97th in the recycle bin, every 50th ATA extra work,
 * every third planned; one or two assignees from the tenant's active users, a tag on every third,
 * two article rows each, a time row on every second (locked when closed over 60 days ago), and a
 * create history row each (an edit row on every second). Idempotent: skipped when orders exist.
 */
export async function seedWorkOrders(trx: Trx, volume: number = WORK_ORDER_VOLUME.workOrders): Promise<void> {
  const count = async (table: string) => Number((await trx(table).count({ n: '*' }))[0]!.n);
  if ((await count('work_orders')) > 0) return;
  if ((await count('tags')) === 0)
    await trx.raw(
      `insert into tags (name, color, sort_order)
       select (array['Brådskande','Garanti','Avtal','Offert','Besiktning','Nyckel','Kväll','Helg',
                     'Larmcentral','Kamera','Passage','Brand'])[t], '#64748b', t
       from generate_series(1, ?) t`,
      [WORK_ORDER_VOLUME.tags],
    );
  const words = `array['Inbrottslarm','Kameraservice','Passagesystem','Brandlarm','Dörrautomatik','Kortläsare',
    'Larmöverföring','Batteribyte','Felanmälan','Besiktning','Installation','Uppgradering']`;
  const places = `array['entré','källare','trapphus','garage','kontor','lager','skola','butik']`;
  const cities = `array['Stockholm','Uppsala','Västerås','Göteborg','Malmö','Örebro','Linköping','Norrköping','Gävle','Umeå']`;

  await trx.raw(
    `with bo as (select array_agg(id order by serial_code) as ids, array_agg(customer_id order by serial_code) as cust
                   from business_objects),
          st as (select array_agg(id order by sort_order) filter (where not is_closing) as open,
                        (array_agg(id order by sort_order) filter (where is_closing))[1] as closing
                   from work_order_statuses),
          wt as (select array_agg(id order by sort_order) as ids from work_types),
          us as (select array_agg(id order by email) as ids from users where status = 'active')
     insert into work_orders (number, title, description, customer_id, business_object_id, status_id, work_type_id,
                              priority, contact_name, contact_phone, street, post_index, city, planned_start, planned_end,
                              intake_ts, update_ts, closed_at, deleted_at, project_extra_status, create_user_id)
     select n::text,
            (${words})[1 + n % 12] || ' ' || (${places})[1 + n % 8] || ' ' || n,
            case when n % 2 = 0 then 'Kunden rapporterar fel på ' || (${places})[1 + n % 8] end,
            case when cardinality(bo.ids) > 0 then bo.cust[1 + n % cardinality(bo.ids)] end,
            case when cardinality(bo.ids) > 0 then bo.ids[1 + n % cardinality(bo.ids)] end,
            case when n % 5 = 0 then st.closing else st.open[1 + n % cardinality(st.open)] end,
            wt.ids[1 + n % cardinality(wt.ids)],
            (array['high','medium','medium','low'])[1 + n % 4],
            'Kontakt ' || n % 1000,
            '070-' || lpad((n % 10000000)::text, 7, '0'),
            'Storgatan ' || n % 200,
            lpad((10000 + n % 89999)::text, 5, '0'),
            (${cities})[1 + n % 10],
            case when n % 3 = 0 then now() - (n * interval '7 minutes') + interval '2 days' end,
            case when n % 3 = 0 then now() - (n * interval '7 minutes') + interval '2 days 4 hours' end,
            now() - (n * interval '7 minutes'),
            now() - (n * interval '7 minutes') + interval '1 hour',
            case when n % 5 = 0 then now() - (n * interval '7 minutes') + interval '3 days' end,
            case when n % 97 = 0 then now() - (n * interval '3 minutes') end,
            case when n % 50 = 0 then (array['pending','accepted','declined'])[1 + n % 3] end,
            us.ids[1 + n % cardinality(us.ids)]
     from generate_series(1, ?) n, bo, st, wt, us`,
    [volume],
  );
  await trx.raw(`update work_order_settings set next_number = greatest(next_number, ?)`, [volume + 1]);
  // Statistics for the rows just written (here and after the assignees): without them the planner
  // took these tables for empty and looked rows up by walking a two-column index on its second
  // column (`id = $1` over (intake_ts, id)), once per row of the next insert, for minutes.
  await trx.raw('analyze work_orders');
  // The assignee rows' trigger (migration 0010) would update an order's row once per assignee:
  // 125,000 non-HOT updates of a table with trigram indexes took over a quarter of an hour on 2 cores.
  // Off for the bulk insert, then the counts in one statement, as the migration's backfill does.
  await trx.raw(`alter table work_order_assignees disable trigger work_order_assignees_count`);
  await trx.raw(
    `with us as (select array_agg(id order by email) as ids from users where status = 'active')
     insert into work_order_assignees (work_order_id, user_id)
     select w.id, us.ids[1 + (w.number::int * k) % cardinality(us.ids)]
     from work_orders w, us, generate_series(1, 2) k
     where k = 1 or w.number::int % 4 = 0
     on conflict do nothing`,
  );
  await trx.raw(`alter table work_order_assignees enable trigger work_order_assignees_count`);
  await trx.raw(
    `update work_orders w set assignee_count = a.n
       from (select work_order_id, count(*)::int as n from work_order_assignees group by work_order_id) a
      where a.work_order_id = w.id`,
  );
  await trx.raw('analyze work_order_assignees');
  await trx.raw(
    `with tg as (select array_agg(id order by sort_order) as ids from tags)
     insert into work_order_tags (work_order_id, tag_id)
     select w.id, tg.ids[1 + w.number::int % cardinality(tg.ids)]
     from work_orders w, tg where w.number::int % 3 = 0`,
  );
  await trx.raw(
    `with ar as (select array_agg(id order by article_id) as ids, array_agg(title order by article_id) as titles,
                        array_agg(price order by article_id) as prices from articles where status = 'active')
     insert into work_order_articles (work_order_id, article_id, title, amount, price, total, sort_order)
     select w.id, ar.ids[i], ar.titles[i], k, ar.prices[i], ar.prices[i] * k, k
     from work_orders w, ar, generate_series(1, 2) k,
          lateral (select 1 + (w.number::int * 7 + k) % cardinality(ar.ids) as i) pick
     where cardinality(ar.ids) > 0`,
  );
  await trx.raw(
    `insert into work_order_time (work_order_id, user_id, date, start_ts, end_ts, work_minutes, travel_minutes,
                                  distance_km, locked)
     select w.id, a.user_id, w.intake_ts::date, w.intake_ts + interval '1 hour', w.intake_ts + interval '3 hours',
            120, 20, w.number::int % 40, w.closed_at is not null and w.closed_at < now() - interval '60 days'
     from work_orders w
     join lateral (select user_id from work_order_assignees where work_order_id = w.id limit 1) a on true
     where w.number::int % 2 = 0`,
  );
  await trx.raw(
    `insert into history (entity, entity_id, action, user_id, at, data)
     select 'work_order', w.id::text, 'create', w.create_user_id, w.intake_ts,
            jsonb_build_object('number', w.number, 'title', w.title)
     from work_orders w
     union all
     select 'work_order', w.id::text, 'edit', w.create_user_id, w.update_ts,
            jsonb_build_object('changes', jsonb_build_array(jsonb_build_object('field', 'priority', 'old', 'medium', 'new', w.priority)))
     from work_orders w where w.number::int % 2 = 0`,
  );
  await trx.raw('analyze');
}

/**
 * What the list filters need beyond the orders themselves: five departments with the technicians
 * spread over them, and every 41st order without assignees (the "unassigned" filter then finds
 * about 1,900 open ones). Idempotent: skipped when departments exist.
 */
export async function seedWorkOrderExtras(trx: Trx): Promise<void> {
  if (Number((await trx('departments').count({ n: '*' }))[0]!.n) > 0) return;
  await trx.raw(`insert into departments (name) values ('Syd'), ('Nord'), ('Väst'), ('Öst'), ('Mitt')`);
  await trx.raw(
    `with d as (select array_agg(id order by name) as ids from departments),
          u as (select id, row_number() over (order by email) as r from users where email like 'tech%')
     update users set department_id = d.ids[1 + u.r % cardinality(d.ids)] from d, u where users.id = u.id`,
  );
  await trx.raw(
    `delete from work_order_assignees a using work_orders w
     where w.id = a.work_order_id and w.number ~ '^[0-9]+$' and w.number::int % 41 = 0`,
  );
  await trx.raw('analyze');
}

/** The seed's cities (seedWorkOrders' `cities`, in order) and where they are. */
const CITY_POSITIONS: [number, number][] = [
  [59.3293, 18.0686], // Stockholm
  [59.8586, 17.6389], // Uppsala
  [59.6099, 16.5448], // Västerås
  [57.7089, 11.9746], // Göteborg
  [55.605, 13.0038], // Malmö
  [59.2753, 15.2134], // Örebro
  [58.4108, 15.6214], // Linköping
  [58.5877, 16.1924], // Norrköping
  [60.6749, 17.1413], // Gävle
  [63.8258, 20.263], // Umeå
];

/**
 * Positions for the map tab (issue 6): 70% of the orders get one, around their city (about ±10 km,
 * as a geocoder would place different streets), the rest none (an address it could not find).
 * Which orders are placed does not follow the city (n / 10, not n % 10). Idempotent: skipped when
 * any order has a position, so an existing bench database gets them once.
 */
export async function seedWorkOrderPositions(trx: Trx): Promise<void> {
  if (await trx('work_orders').whereNotNull('location_lat').first('id')) return;
  const lat = `array[${CITY_POSITIONS.map(([a]) => a).join(',')}]::numeric[]`;
  const lng = `array[${CITY_POSITIONS.map(([, b]) => b).join(',')}]::numeric[]`;
  await trx.raw(
    `update work_orders set
       location_lat = round((${lat})[1 + number::int % 10] + ((number::bigint * 7919) % 1000 - 500) / 5000.0, 6),
       location_lng = round((${lng})[1 + number::int % 10] + ((number::bigint * 104729) % 1000 - 500) / 2500.0, 6)
     where number ~ '^[0-9]+$' and (number::int / 10) % 10 < 7`,
  );
  await trx.raw('analyze work_orders');
}
