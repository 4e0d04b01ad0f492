import type { Ctx } from '~/core/context';
import type { Trx } from '~/core/db/with-tenant';
import { formatDecimal, round, toDecimal } from '~/core/pricing';
import type { BacklogRow, ExtraWorkStatus, RowStatus } from './project-invoicing';

/*
 * A project's invoicing rows (issue 18; spec section 3 "article row (rowId, status, invoiceId)",
 * section 4 "Project article and work-order invoicing status"). A project's rows are its work
 * orders, each valued by its labour (the time rows' work minutes as hours, two decimals, at the
 * project's hourly price, else the tenant's), and the article rows on those orders at their stored
 * totals. A work order's status is its own (null: open); an article row's is its own, or its
 * order's while it has none. Extra work invoices only once accepted, its articles likewise.
 *
 * One statement for any number of projects; project-figures.ts sums the same rows.
 */

export type ProjectRowKind = 'workOrder' | 'article';

export interface ProjectInvoicingRow {
  kind: ProjectRowKind;
  /** The work order's id, or the article row's (work_order_articles.id). */
  id: string;
  projectId: string;
  workOrderId: string;
  workOrderNumber: number;
  workOrderTitle: string;
  workOrderClosed: boolean;
  /** "#number title" for a work order, the article's title for an article row. */
  title: string;
  description: string | null;
  articleId: string | null;
  articleNumber: string | null;
  /** Hours for a work order, the row's amount for an article row. */
  quantity: string;
  unit: string | null;
  /** The hourly price, or the article row's price. */
  price: string;
  discountType: 'PERCENTAGE' | 'REGULAR' | null;
  discountValue: string | null;
  /** What the row is worth, decimal text. */
  total: string;
  /** Its status as invoicing sees it (an article row without its own follows its order). */
  status: RowStatus;
  /** An article row's own status (null: follows the order); a work order's stored status. */
  ownStatus: RowStatus | null;
  extraWork: ExtraWorkStatus | null;
  /** The project invoice that carries it (a draft, or the finalized invoice that invoiced it). */
  invoiceId: string | null;
  invoiceNr: string | null;
  invoiceStatus: 'draft' | 'finalized' | 'void' | null;
}

type Raw = Record<string, unknown>;

/**
 * The project's work orders with their labour, as a common table expression over `?` (an array of
 * project ids). Hours are rounded to two decimals first, so a labour row's total is exactly what an
 * invoice row of those hours at that price comes to.
 */
export const ORDERS_CTE = `
  wo as (
    select w.id, w.project_id, w.number, w.title, w.closed_at, w.project_extra_status as extra,
           coalesce(w.project_invoice_status, 'open') as status, w.project_invoice_status as own_status,
           w.project_invoice_id,
           coalesce(p.hourly_price, (select hourly_price from project_settings limit 1), 0) as hourly_price,
           round(coalesce(t.minutes, 0) / 60.0, 2) as hours,
           coalesce(t.minutes, 0) as work_minutes, coalesce(t.travel, 0) as travel_minutes
      from work_orders w
      join projects p on p.id = w.project_id
      left join lateral (select sum(x.work_minutes) as minutes, sum(x.travel_minutes) as travel
                           from work_order_time x where x.work_order_id = w.id) t
        on true
     where w.project_id = any(?::uuid[]) and w.deleted_at is null
  )`;

/** The rows of the given projects, each project's orders by number, an order's articles after it. */
export async function readProjectRows(ctx: Pick<Ctx, 'trx'>, projectIds: readonly string[]) {
  if (!projectIds.length) return [];
  return mapRows(await projectRowsQuery(ctx.trx, projectIds));
}

/** The raw statement behind readProjectRows (snake-case columns), for helpers that aggregate further. */
export async function projectRowsQuery(trx: Trx, projectIds: readonly string[]): Promise<Raw[]> {
  const { rows } = (await trx.raw(
    `with ${ORDERS_CTE}
     select r.*, i.invoice_nr, i.status as invoice_status from (
       select 'workOrder' as kind, wo.id, wo.project_id, wo.id as work_order_id, wo.number, wo.title as wo_title,
              wo.closed_at, wo.extra, wo.status, wo.own_status, wo.project_invoice_id,
              null::uuid as article_id, null::text as article_number, null::text as title, null::text as description,
              wo.hours::text as quantity, 'h' as unit, wo.hourly_price::text as price,
              null::text as discount_type, null::text as discount_value,
              round(wo.hours * wo.hourly_price, 2)::text as total, -1 as sort_order, null::timestamptz as created_at
         from wo
       union all
       select 'article', a.id, wo.project_id, wo.id, wo.number, wo.title,
              wo.closed_at, wo.extra, coalesce(a.project_status, wo.status), a.project_status, a.project_invoice_id,
              a.article_id, ar.article_id, a.title, a.description,
              a.amount::text, ar.unit, a.price::text, a.discount_type, a.discount_value::text,
              a.total::text, a.sort_order, a.created_at
         from work_order_articles a
         join wo on wo.id = a.work_order_id
         left join articles ar on ar.id = a.article_id
     ) r
     left join invoices i on i.id = r.project_invoice_id
     order by r.project_id, r.number, r.sort_order, r.created_at, r.id`,
    [[...projectIds]],
  )) as { rows: Raw[] };
  return rows;
}

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

function mapRows(rows: Raw[]): ProjectInvoicingRow[] {
  return rows.map((r) => {
    const kind = r.kind as ProjectRowKind;
    const number = Number(r.number);
    return {
      kind,
      id: r.id as string,
      projectId: r.project_id as string,
      workOrderId: r.work_order_id as string,
      workOrderNumber: number,
      workOrderTitle: r.wo_title as string,
      workOrderClosed: Boolean(r.closed_at),
      title: kind === 'workOrder' ? `#${number} ${r.wo_title as string}` : (r.title as string),
      description: str(r.description),
      articleId: str(r.article_id),
      articleNumber: str(r.article_number),
      quantity: formatDecimal(String(r.quantity), kind === 'workOrder' ? 2 : Math.min(3, scaleOf(String(r.quantity)))),
      unit: str(r.unit),
      price: formatDecimal(String(r.price)),
      discountType: (r.discount_type as 'PERCENTAGE' | 'REGULAR' | null) ?? null,
      discountValue: str(r.discount_value),
      total: formatDecimal(String(r.total)),
      status: r.status as RowStatus,
      ownStatus: (r.own_status as RowStatus | null) ?? null,
      extraWork: (r.extra as ExtraWorkStatus | null) ?? null,
      invoiceId: str(r.project_invoice_id),
      invoiceNr: str(r.invoice_nr),
      invoiceStatus: (r.invoice_status as ProjectInvoicingRow['invoiceStatus']) ?? null,
    };
  });
}

/** Decimals worth showing of a quantity: 2 at least ("1.50"), 3 when it has them ("0.125"). */
function scaleOf(text: string): number {
  const d = toDecimal(text);
  return round(d, 2).units * 10n === round(d, 3).units ? 2 : 3;
}

// ---- öre: the arithmetic of core/projects/project-invoicing.ts counts whole öre ----

/** Decimal text (two decimals at most) as whole öre. */
export function toOre(value: string): number {
  return Number(round(value, 2).units);
}

/** Whole öre as decimal text with two decimals. */
export function fromOre(ore: number): string {
  return formatDecimal({ units: BigInt(ore), scale: 2 });
}

/** A row as the pure arithmetic sees it. */
export function backlogRowOf(row: ProjectInvoicingRow): BacklogRow {
  return { id: `${row.kind}:${row.id}`, amount: toOre(row.total), status: row.status, extraWork: row.extraWork };
}
