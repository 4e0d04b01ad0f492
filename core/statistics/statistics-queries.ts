/*
 * The statistics page's queries (issue 36 item 2; decision 065), one statement a table. Every sum,
 * count and share is reckoned in SQL; Node only names the rows. Each statement starts from the
 * period's constants in a `not materialized` CTE (as the dashboard's cards do, decision 062) and
 * reads through an index on the period's column: work orders by intake (`work_orders_intake_idx`)
 * or closing (`work_orders_closed_idx`), invoices by status and date (`invoices_status_date_idx`),
 * time by day (`work_order_time_date_idx`). Each answer is bounded: by a register (types, statuses,
 * the months of at most a year), or by a `limit`.
 *
 * Kept apart from the service so the bench (tests/bench/statistics-bench.ts) runs the very same text
 * beside the service call.
 */

import {
  MAX_TECHNICIANS,
  REVISIT_DAYS,
  TOP_CUSTOMERS,
  type ColumnKind,
  type RowKind,
  type StatisticsTableId,
} from './statistics-labels';

export {
  MAX_TECHNICIANS,
  REVISIT_DAYS,
  STATISTICS_TABLES,
  TOP_CUSTOMERS,
  type ColumnKind,
  type RowKind,
  type StatisticsTableId,
} from './statistics-labels';

export interface TableShape {
  rowKind: RowKind;
  /** The value columns in order (their titles: `statistics:col.<key>`). */
  columns: readonly { key: string; kind: ColumnKind }[];
  /** Whether the statement also returns the whole period's row (key null). */
  totals: boolean;
}

export const TABLE_SHAPES: Record<StatisticsTableId, TableShape> = {
  byType: { rowKind: 'name', columns: cols('orders:count', 'closed:count', 'open:count'), totals: true },
  byStatus: { rowKind: 'name', columns: cols('orders:count'), totals: true },
  // an order with two technicians counts for both: no total row (it would count it twice)
  byTechnician: { rowKind: 'name', columns: cols('orders:count', 'closed:count', 'open:count'), totals: false },
  byCustomer: { rowKind: 'name', columns: cols('orders:count', 'closed:count', 'open:count'), totals: false },
  revenueByMonth: {
    rowKind: 'month',
    columns: cols(
      'workOrders:money',
      'agreements:money',
      'projects:money',
      'salesOrders:money',
      'other:money',
      'total:money',
    ),
    totals: true,
  },
  revenueBySource: { rowKind: 'term', columns: cols('invoices:count', 'amount:money', 'share:percent'), totals: true },
  hours: {
    rowKind: 'name',
    columns: cols('reportedHours:hours', 'billedHours:hours', 'billedShare:percent'),
    totals: true,
  },
  firstTimeFix: {
    rowKind: 'month',
    columns: cols('closed:count', 'revisits:count', 'firstTimeFixRate:percent'),
    totals: true,
  },
  agreementRevenue: {
    rowKind: 'name',
    columns: cols('invoices:count', 'objects:count', 'amount:money'),
    totals: true,
  },
};

function cols(...specs: string[]): { key: string; kind: ColumnKind }[] {
  return specs.map((s) => {
    const [key, kind] = s.split(':') as [string, ColumnKind];
    return { key, kind };
  });
}

/**
 * The period's constants. `from_ts`/`end_ts`: the first local midnight of the period and the local
 * midnight after today, so timestamps are cut in the tenant's calendar.
 */
const PARAMS = `with p as not materialized (
    select ?::date as from_d, ?::date as to_d, ?::uuid as dept, ?::text as region,
           (?::date)::timestamp at time zone ? as from_ts,
           ((?::date) + 1)::timestamp at time zone ? as end_ts, ?::text as zone)`;

/** An order in the chosen region: its object's (decision 067; an order without one is in none). */
const ORDER_IN_REGION = (w: string) => `(p.region is null or exists (
    select 1 from business_objects ro where ro.id = ${w}.business_object_id and ro.region = p.region))`;

/** The orders of the period (taken in), in the department and region when chosen. */
const ORDERS = `from p, work_orders w
  where w.intake_ts >= p.from_ts and w.intake_ts < p.end_ts and w.deleted_at is null
    and (p.dept is null or w.assignee_departments @> array[p.dept]) and ${ORDER_IN_REGION('w')}`;

const ORDER_COUNTS = `count(*)::int as orders, count(*) filter (where w.closed_at is not null)::int as closed,
  count(*) filter (where w.closed_at is null)::int as open`;

/**
 * An invoice's source: a project's, an agreement's, a sales order's, a work order's, else other
 * (an invoice made by hand). Revenue is finalized invoices excl. VAT, by invoice date.
 */
const SOURCE = `case when i.project_id is not null then 'projects'
    when i.object_agreement_id is not null then 'agreements'
    when i.sales_order_id is not null then 'salesOrders'
    when i.work_order_id is not null then 'workOrders' else 'other' end`;

/**
 * An invoice in the chosen department: a work order's when one of its technicians is in it, a
 * sales order's by the order's department, a project's by its responsible person's. Agreement and
 * hand-made invoices belong to no department.
 */
const INVOICE_IN_DEPT = `(p.dept is null or case
    when i.project_id is not null then exists (select 1 from projects pr join users u on u.id = pr.responsible_user_id
                                               where pr.id = i.project_id and u.department_id = p.dept)
    when i.object_agreement_id is not null then false
    when i.sales_order_id is not null then exists (select 1 from sales_orders s
                                                   where s.id = i.sales_order_id and s.department_id = p.dept)
    when i.work_order_id is not null then exists (select 1 from work_orders iw
                                                  where iw.id = i.work_order_id and iw.assignee_departments @> array[p.dept])
    else false end)`;

/**
 * An invoice in the chosen region: a work order's or an agreement's by its object's region, a
 * project's by the project's. Sales-order and hand-made invoices belong to no region.
 */
const INVOICE_IN_REGION = `(p.region is null or case
    when i.project_id is not null then exists (select 1 from projects rp where rp.id = i.project_id and rp.region = p.region)
    when i.object_agreement_id is not null then exists (select 1 from object_agreements roa
                                                          join business_objects rb on rb.id = roa.business_object_id
                                                         where roa.id = i.object_agreement_id and rb.region = p.region)
    when i.sales_order_id is not null then false
    when i.work_order_id is not null then exists (select 1 from work_orders rw join business_objects rb on rb.id = rw.business_object_id
                                                  where rw.id = i.work_order_id and rb.region = p.region)
    else false end)`;

const INVOICES = `from p, invoices i
  where i.status = 'finalized' and i.invoice_date between p.from_d and p.to_d and ${INVOICE_IN_DEPT}
    and ${INVOICE_IN_REGION}`;

/**
 * Each statement returns `key` (an id, a month or a word; `-` for none: no technician, no customer;
 * null for the whole period), `name`, and the columns.
 */
const SQL: Record<StatisticsTableId, string> = {
  byType: `${PARAMS}
    select c.key, t.name, c.orders, c.closed, c.open from (
      select w.work_type_id::text as key, ${ORDER_COUNTS} ${ORDERS}
      group by grouping sets ((w.work_type_id), ())) c
    left join work_types t on t.id::text = c.key
    order by c.key is null, c.orders desc, t.name`,

  byStatus: `${PARAMS}
    select c.key, s.name, c.orders from (
      select w.status_id::text as key, count(*)::int as orders ${ORDERS}
      group by grouping sets ((w.status_id), ())) c
    left join work_order_statuses s on s.id::text = c.key
    order by c.key is null, s.sort_order, s.name`,

  byTechnician: `${PARAMS}
    select coalesce(a.user_id::text, '-') as key, u.name, ${ORDER_COUNTS}
    ${ORDERS.replace('from p, work_orders w', 'from p, work_orders w left join work_order_assignees a on a.work_order_id = w.id left join users u on u.id = a.user_id')}
    group by a.user_id, u.name
    order by count(*) desc, u.name nulls last
    limit ${MAX_TECHNICIANS}`,

  byCustomer: `${PARAMS}
    select coalesce(w.customer_id::text, '-') as key, c.name, ${ORDER_COUNTS}
    ${ORDERS.replace('from p, work_orders w', 'from p, work_orders w left join customers c on c.id = w.customer_id')}
    group by w.customer_id, c.name
    order by count(*) desc, c.name nulls last
    limit ${TOP_CUSTOMERS}`,

  revenueByMonth: `${PARAMS}
    select to_char(i.invoice_date, 'YYYY-MM') as key, null as name,
      coalesce(sum(i.total_price) filter (where ${SOURCE} = 'workOrders'), 0) as "workOrders",
      coalesce(sum(i.total_price) filter (where ${SOURCE} = 'agreements'), 0) as agreements,
      coalesce(sum(i.total_price) filter (where ${SOURCE} = 'projects'), 0) as projects,
      coalesce(sum(i.total_price) filter (where ${SOURCE} = 'salesOrders'), 0) as "salesOrders",
      coalesce(sum(i.total_price) filter (where ${SOURCE} = 'other'), 0) as other,
      coalesce(sum(i.total_price), 0) as total
    ${INVOICES}
    group by grouping sets ((to_char(i.invoice_date, 'YYYY-MM')), ())
    order by key nulls last`,

  revenueBySource: `${PARAMS}
    select s.key, null as name, s.invoices, s.amount,
      round(100 * s.amount / nullif(sum(s.amount) filter (where s.key is not null) over (), 0), 1) as share
    from (select ${SOURCE} as key, count(*)::int as invoices, coalesce(sum(i.total_price), 0) as amount
          ${INVOICES}
          group by grouping sets ((${SOURCE}), ())) s
    order by s.key is null, s.amount desc, s.key`,

  hours: `${PARAMS},
    reported as (
      select t.user_id, sum(t.work_minutes) as minutes
      from p, work_order_time t join work_orders w on w.id = t.work_order_id and w.deleted_at is null
      where t.date between p.from_d and p.to_d group by t.user_id),
    billed as (
      select r.user_id, sum(r.amount) as hours
      from p, invoices i join invoice_rows r on r.invoice_id = i.id and r.kind = 'labour' and r.user_id is not null
      where i.status = 'finalized' and i.invoice_date between p.from_d and p.to_d group by r.user_id),
    people as (
      select u.id, u.name, round(coalesce(rp.minutes, 0) / 60.0, 2) as reported, coalesce(b.hours, 0) as billed
      from p, reported rp full join billed b on b.user_id = rp.user_id
      join users u on u.id = coalesce(rp.user_id, b.user_id)
      where (p.dept is null or u.department_id = p.dept) and (p.region is null or u.region = p.region))
    select x.* from (
      (select id::text as key, name, reported as "reportedHours", billed as "billedHours",
         round(100 * billed / nullif(reported, 0), 1) as "billedShare", 0 as part
       from people order by reported desc, name limit ${MAX_TECHNICIANS})
      union all
      select null, null, coalesce(sum(reported), 0), coalesce(sum(billed), 0),
        round(100 * sum(billed) / nullif(sum(reported), 0), 1), 1
      from people) x
    order by x.part, x."reportedHours" desc, x.name`,

  firstTimeFix: `${PARAMS}
    select c.key, null as name, c.closed, c.revisits,
      round(100.0 * (c.closed - c.revisits) / nullif(c.closed, 0), 1) as "firstTimeFixRate"
    from (
      select to_char(w.closed_at at time zone p.zone, 'YYYY-MM') as key, count(*)::int as closed,
        count(*) filter (where exists (
          select 1 from work_orders n
          where n.business_object_id = w.business_object_id and n.deleted_at is null and n.id <> w.id
            and n.object_agreement_id is null
            and n.intake_ts > w.closed_at and n.intake_ts <= w.closed_at + interval '${REVISIT_DAYS} days'))::int as revisits
      from p, work_orders w
      where w.closed_at >= p.from_ts and w.closed_at < p.end_ts and w.deleted_at is null
        and w.business_object_id is not null
        and (p.dept is null or w.assignee_departments @> array[p.dept]) and ${ORDER_IN_REGION('w')}
      group by grouping sets ((to_char(w.closed_at at time zone p.zone, 'YYYY-MM')), ())) c
    order by c.key nulls last`,

  agreementRevenue: `${PARAMS}
    select c.key, a.code || ' ' || a.title as name, c.invoices, c.objects, c.amount from (
      select oa.agreement_id::text as key, count(*)::int as invoices,
        count(distinct oa.business_object_id)::int as objects, coalesce(sum(i.total_price), 0) as amount
      ${INVOICES.replace('from p, invoices i', 'from p, invoices i join object_agreements oa on oa.id = i.object_agreement_id')}
      group by grouping sets ((oa.agreement_id), ())) c
    left join agreements a on a.id::text = c.key
    order by c.key is null, c.amount desc, a.code`,
};

export interface QueryParams {
  from: string;
  to: string;
  zone: string;
  departmentId: string | null;
  /** A name of the regions register, or null for every region. */
  region: string | null;
}

/** A table's statement and its bindings, as the service and the bench run it. */
export function statisticsQuery(
  table: StatisticsTableId,
  p: QueryParams,
): { sql: string; bindings: (string | null)[] } {
  return {
    sql: SQL[table],
    bindings: [p.from, p.to, p.departmentId, p.region, p.from, p.zone, p.to, p.zone, p.zone],
  };
}
