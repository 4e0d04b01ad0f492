import type { Trx } from '~/core/db/with-tenant';
import { rowTotal } from '~/core/pricing';

/**
 * The demo company's projects (issue 18): a new building's alarm and access system running from
 * two months ago to four months ahead, with a fixed contract sum, two contract work orders with
 * time and material, an extra work (ÄTA) waiting for the customer, activities and people planned
 * on it the coming weeks; and a small finished camera project, closed. Dates are relative to today.
 * Idempotent: a tenant that has projects is left alone.
 */
const DAY = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Erik's hours on the project's two contract orders (the first closed ten days ago). */
const PROJECT_HOURS: { closedDaysAgo?: number; hours: number[] }[] = [
  { closedDaysAgo: 10, hours: [7.5, 8, 8, 6] },
  { hours: [8, 7] },
];
const PROJECT_TRAVEL_MINUTES = 30;

/**
 * The working days (YYYY-MM-DD) of an order's hours: one per hour entry, counting back over
 * Monday to Friday from two days before its close (or before today).
 */
function projectDays(now: Date, closedDaysAgo: number | undefined, count: number): string[] {
  const days: string[] = [];
  for (let back = 2 + (closedDaysAgo ?? 0); days.length < count; back++) {
    const day = new Date(now.getTime() - back * DAY);
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) days.push(isoDay(day));
  }
  return days;
}

/**
 * Erik's days on the project and his order time on each (issue 28: the history keeps them free of
 * other visits, so no day of his runs beyond a working day).
 */
export function demoProjectDays(now: Date): { date: string; minutes: number }[] {
  return PROJECT_HOURS.flatMap(({ closedDaysAgo, hours }) =>
    projectDays(now, closedDaysAgo, hours.length).map((date, d) => ({
      date,
      minutes: Math.round(hours[d]! * 60) + PROJECT_TRAVEL_MINUTES,
    })),
  );
}

interface DemoOrder {
  title: string;
  description: string;
  extra?: 'pending' | 'accepted';
  closedDaysAgo?: number;
  /** Erik's hours on the order, one row per working day counting back (`projectDays`). */
  hours: number[];
  /** A percentage off, as the row's discount (the extra work's offer shows it). */
  articles: { articleId: string; amount: number; discountPercent?: number }[];
}

export async function seedDemoProjects(trx: Trx, now = new Date()): Promise<void> {
  if (await trx('projects').first('id')) return;
  const customer = (await trx('customers').where({ customer_id: '10002' }).first('id')) as { id: string } | undefined;
  const solrosen = (await trx('customers').where({ customer_id: '10001' }).first('id')) as { id: string } | undefined;
  if (!customer || !solrosen) return;
  const users = new Map(
    ((await trx('users').select('id', 'email')) as { id: string; email: string }[]).map((u) => [u.email, u.id]),
  );
  const anna = users.get('anna.kontor@nordlarm.se') ?? null;
  const admin = users.get('admin@nordlarm.se') ?? null;
  const erik = users.get('erik.tekniker@nordlarm.se') ?? null;
  const sara = users.get('sara.tekniker@nordlarm.se') ?? null;
  const supplier = (await trx('suppliers').orderBy('number').first('id')) as { id: string } | undefined;
  const articles = (await trx('articles')
    .where('price', '>', 0)
    .orderBy('article_id')
    .limit(3)
    .select('id', 'title', 'price', 'purchase_price')) as {
    id: string;
    title: string;
    price: string;
    purchase_price: string | null;
  }[];
  await trx('project_settings').update({ hourly_price: 695, hourly_cost: 420 });

  const bump = async () =>
    Number(
      (
        (await trx.raw(`update project_settings set next_number = next_number + 1 returning next_number - 1 as n`)) as {
          rows: { n: number }[];
        }
      ).rows[0]!.n,
    );
  // a project's region is a name of the regions register (migration 0070)
  await trx('regions').insert({ name: 'Uppsala' }).onConflict('name').ignore();
  const [kvarnen] = (await trx('projects')
    .insert({
      number: await bump(),
      title: 'Nybygge Kvarnen – larm och passage',
      name: 'KV-7',
      description: 'Inbrottslarm, passagesystem och porttelefoni i det nya huset, tre trapphus och garage.',
      start_date: isoDay(new Date(now.getTime() - 60 * DAY)),
      end_date: isoDay(new Date(now.getTime() + 120 * DAY)),
      responsible_user_id: anna,
      sales_user_id: admin,
      region: 'Uppsala',
      estimated_hours: 320,
      estimated_cost: 210000,
      contract_sum: 480000,
      external_url: 'https://example.com/kvarnen/byggplats',
      create_user_id: admin,
    })
    .returning('id')) as { id: string }[];
  const projectId = kvarnen!.id;
  await trx('project_customers').insert({ project_id: projectId, customer_id: customer.id, sort_order: 0 });
  if (supplier) await trx('project_suppliers').insert({ project_id: projectId, supplier_id: supplier.id });

  const status = (closing: boolean) =>
    trx('work_order_statuses')
      .where(closing ? { is_closing: true } : { is_default: true })
      .first('id') as Promise<{ id: string }>;
  const open = await status(false);
  const closed = await status(true);
  const workType = (await trx('work_types').where({ is_default: true }).first('id')) as { id: string };
  const orders: DemoOrder[] = [
    {
      title: 'Inbrottslarm trapphus A–C',
      description: 'Centralutrustning, detektorer och manöverpaneler enligt ritning E-201.',
      closedDaysAgo: PROJECT_HOURS[0]!.closedDaysAgo,
      hours: PROJECT_HOURS[0]!.hours,
      articles: articles.slice(0, 2).map((a) => ({ articleId: a.id, amount: 6 })),
    },
    {
      title: 'Passagesystem entréer och garage',
      description: 'Kortläsare vid tre entréer och garageporten, driftsättning med förvaltaren.',
      hours: PROJECT_HOURS[1]!.hours,
      articles: articles.slice(1, 3).map((a) => ({ articleId: a.id, amount: 4 })),
    },
    {
      title: 'ÄTA: extra kortläsare cykelrum',
      description: 'Beställaren vill ha en kortläsare även vid cykelrummet. Kabeldragning 25 m.',
      extra: 'pending',
      hours: [],
      articles: articles.slice(0, 1).map((a) => ({ articleId: a.id, amount: 1, discountPercent: 10 })),
    },
  ];
  for (const [i, o] of orders.entries()) {
    const { rows } = (await trx.raw(
      `update work_order_settings set next_number = next_number + 1 returning number_prefix, next_number - 1 as taken`,
    )) as { rows: { number_prefix: string; taken: number }[] };
    const [wo] = (await trx('work_orders')
      .insert({
        number: `${rows[0]!.number_prefix}${rows[0]!.taken}`,
        title: o.title,
        description: o.description,
        customer_id: customer.id,
        status_id: o.closedDaysAgo === undefined ? open.id : closed.id,
        work_type_id: workType.id,
        priority: 'medium',
        intake_ts: new Date(now.getTime() - (40 - i) * DAY),
        closed_at: o.closedDaysAgo === undefined ? null : new Date(now.getTime() - o.closedDaysAgo * DAY),
        create_user_id: anna,
        project_id: projectId,
        project_extra_status: o.extra ?? null,
        project_invoice_status: o.extra ? 'open' : 'included',
      })
      .returning('id')) as { id: string }[];
    const people = [erik, sara].filter((u): u is string => Boolean(u));
    if (people.length)
      await trx('work_order_assignees').insert(people.map((user_id) => ({ work_order_id: wo!.id, user_id })));
    if (erik && o.hours.length) {
      const days = projectDays(now, o.closedDaysAgo, o.hours.length);
      await trx('work_order_time').insert(
        o.hours.map((h, d) => ({
          work_order_id: wo!.id,
          user_id: erik,
          date: days[d],
          work_minutes: Math.round(h * 60),
          travel_minutes: PROJECT_TRAVEL_MINUTES,
        })),
      );
    }
    if (o.articles.length)
      await trx('work_order_articles').insert(
        o.articles.map((row, n) => {
          const article = articles.find((a) => a.id === row.articleId)!;
          return {
            work_order_id: wo!.id,
            article_id: article.id,
            title: article.title,
            amount: row.amount,
            price: article.price,
            purchase_price: article.purchase_price,
            discount_type: row.discountPercent ? 'PERCENTAGE' : null,
            discount_value: row.discountPercent ?? null,
            // whole öre: price × amount less the discount, rounded as core/pricing rowTotal rounds
            total: rowTotal({
              amount: String(row.amount),
              price: String(article.price),
              discount: row.discountPercent ? { type: 'PERCENTAGE', value: String(row.discountPercent) } : null,
            }),
            sort_order: n + 1,
            user_id: erik,
          };
        }),
      );
  }

  const activities = [
    { title: 'Startmöte med byggledningen', done: true, due: -55 },
    { title: 'Kabeldragning trapphus', done: true, due: -20 },
    { title: 'Driftsättning passagesystem', done: false, due: 14 },
    { title: 'Slutbesiktning och överlämning', done: false, due: 110 },
  ];
  await trx('project_activities').insert(
    activities.map((a, i) => ({
      project_id: projectId,
      title: a.title,
      due_date: isoDay(new Date(now.getTime() + a.due * DAY)),
      responsible_user_id: anna,
      sort_order: i + 1,
      completed_at: a.done ? new Date(now.getTime() + a.due * DAY) : null,
      completed_user_id: a.done ? anna : null,
    })),
  );
  // Erik and Sara on the project the coming weeks, Monday to Friday
  const monday = new Date(now.getTime() - ((now.getUTCDay() + 6) % 7) * DAY);
  const plans = [
    { user: erik, from: 0, to: 18 },
    { user: sara, from: 7, to: 11 },
    { user: sara, from: 21, to: 32 },
  ];
  for (const p of plans)
    if (p.user)
      await trx('project_resources').insert({
        project_id: projectId,
        user_id: p.user,
        start_date: isoDay(new Date(monday.getTime() + p.from * DAY)),
        end_date: isoDay(new Date(monday.getTime() + p.to * DAY)),
        hours_per_day: 8,
        create_user_id: anna,
      });

  // a small camera project, finished and closed last month
  const [cam] = (await trx('projects')
    .insert({
      number: await bump(),
      title: 'Kameror Solrosen gård',
      start_date: isoDay(new Date(now.getTime() - 120 * DAY)),
      end_date: isoDay(new Date(now.getTime() - 35 * DAY)),
      responsible_user_id: admin,
      region: 'Uppsala',
      contract_sum: 0,
      status: 'closed',
      closed_at: new Date(now.getTime() - 30 * DAY),
      close_user_id: admin,
      create_user_id: admin,
    })
    .returning('id')) as { id: string }[];
  await trx('project_customers').insert({ project_id: cam!.id, customer_id: solrosen.id, sort_order: 0 });
}
