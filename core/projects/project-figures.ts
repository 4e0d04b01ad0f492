import type { Ctx } from '~/core/context';
import { isUuid } from '~/core/errors/validation';
import { add, divide, formatDecimal, mul, type DecimalInput } from '~/core/pricing';
import { projectTotals, type ProjectInvoice } from './project-invoicing';
import { fromOre, ORDERS_CTE, toOre } from './project-rows';

/*
 * A project's figures, computed once (issue 28 item 7; decision 034): the hours reported on its
 * orders, what they cost, what the work is worth, and what is invoiced and left to invoice. The
 * header, the list, the invoicing, costs and statistics tabs and the report all read them from
 * here, so a project never shows two different numbers for one thing.
 *
 * - Hours are all time reported on the project's orders in the recycle bin's absence: work and
 *   travel, each also on its own.
 * - Cost is that time at the hourly cost (the project's, else the settings') plus the article rows
 *   at their purchase price (the row's, else the article's) plus the approved supplier invoices
 *   (without VAT) whose rows were not re-invoiced as article rows (issue 33; decision 054).
 * - Income is what the work is worth as project invoicing values it (project-rows.ts): each order's
 *   work hours (two decimals) at the hourly price and the article rows' totals. Travel time is not
 *   billed on a project, so it is not income; extra work is income once accepted, never while
 *   pending or after it was declined.
 * - Invoicing: what finalized invoices carry, the backlog (open rows, extra work once accepted) and
 *   "left to invoice" — the contract sum not invoiced plus the backlog (project-invoicing.ts) — and
 *   the extra work waiting for the customer's answer, which is not invoiceable yet.
 *
 * Three statements for any number of projects: the projects, their rows grouped, their invoices
 * grouped.
 */

type Row = Record<string, unknown>;


/**
 * What an approved supplier invoice `si` costs its project: without VAT, less its rows re-invoiced
 * as article rows on an order (those are counted among the articles). One place for the figures
 * and the costs' months.
 */
export const SUPPLIER_INVOICE_COST = `si.total_price - coalesce(
  (select sum(r.total) from supplier_invoice_rows r
    where r.supplier_invoice_id = si.id and r.work_order_article_id is not null), 0)`;

/** Minutes as hours, 2 decimals, as decimal text. */
export const hoursOf = (minutes: number) => formatDecimal(divide(minutes, 60, 2));
/** Minutes valued at an hourly rate, rounded to öre. */
export const minutesCost = (minutes: number, rate: DecimalInput) => formatDecimal(divide(mul(minutes, rate), 60, 2));

export interface ProjectInvoicingTotals {
  contractSum: string;
  /** What finalized invoices carry: their contract parts and backlog parts. */
  invoiced: string;
  /** The contract sum not yet invoiced plus the backlog. */
  leftToInvoice: string;
  /** Open rows (accepted extra work only), drafts' rows included: they are not invoiced yet. */
  backlog: string;
  /** The contract sum not on a finalized invoice. */
  contractLeft: string;
  /** The contract sum on no invoice at all, drafts included: what a new part may take. */
  contractUnplanned: string;
  /** Extra work waiting for the customer's answer: not invoiceable, not in the backlog. */
  pendingExtraWork: string;
  draftCount: number;
}

export interface ProjectFigures {
  projectId: string;
  hours: { workMinutes: number; travelMinutes: number; minutes: number; work: string; travel: string; total: string };
  cost: {
    hourlyCost: string;
    time: string;
    articles: string;
    articleCount: number;
    /**
     * Approved supplier invoices of the project without VAT (issue 33 item 4), less the rows
     * re-invoiced as article rows of its orders: those are in `articles` already, never twice.
     */
    supplierInvoices: string;
    supplierInvoiceCount: number;
    total: string;
  };
  income: { hourlyPrice: string; labour: string; articles: string; total: string };
  invoicing: ProjectInvoicingTotals;
}

const money = (v: unknown) => formatDecimal(String(v ?? '0'));

/** The figures of the given projects (a missing or malformed id is left out). */
export async function readProjectFigures(
  ctx: Pick<Ctx, 'trx'>,
  projectIds: readonly string[],
): Promise<Map<string, ProjectFigures>> {
  const result = new Map<string, ProjectFigures>();
  const ids = [...new Set(projectIds.filter(isUuid))];
  if (!ids.length) return result;
  const { rows: projects } = (await ctx.trx.raw(
    `select p.id, p.contract_sum::text as contract_sum,
            coalesce(p.hourly_price, s.hourly_price, 0)::text as hourly_price,
            coalesce(p.hourly_cost, s.hourly_cost, 0)::text as hourly_cost
       from projects p left join lateral (select hourly_price, hourly_cost from project_settings limit 1) s on true
      where p.id = any(?::uuid[])`,
    [ids],
  )) as { rows: Row[] };
  const { rows: sums } = (await ctx.trx.raw(
    `with ${ORDERS_CTE},
     r as (
       select wo.project_id, true as labour, round(wo.hours * wo.hourly_price, 2) as total, 0::numeric as cost,
              wo.status, wo.extra, wo.work_minutes, wo.travel_minutes
         from wo
       union all
       select wo.project_id, false, a.total, a.amount * coalesce(a.purchase_price, ar.purchase_price, 0),
              coalesce(a.project_status, wo.status), wo.extra, 0, 0
         from work_order_articles a
         join wo on wo.id = a.work_order_id
         left join articles ar on ar.id = a.article_id)
     select project_id,
            coalesce(sum(work_minutes), 0)::bigint as work_minutes,
            coalesce(sum(travel_minutes), 0)::bigint as travel_minutes,
            coalesce(sum(total) filter (where labour and (extra is null or extra = 'accepted')), 0)::text as labour,
            coalesce(sum(total) filter (where not labour and (extra is null or extra = 'accepted')), 0)::text as articles,
            coalesce(sum(total) filter (where status = 'open' and (extra is null or extra = 'accepted')), 0)::text as backlog,
            coalesce(sum(total) filter (where extra = 'pending'), 0)::text as pending_extra,
            round(coalesce(sum(cost), 0), 2)::text as article_cost,
            count(*) filter (where not labour)::int as article_count
       from r group by project_id`,
    [ids],
  )) as { rows: Row[] };
  const { rows: invoices } = (await ctx.trx.raw(
    `select project_id, status = 'draft' as draft, count(*)::int as n,
            coalesce(sum(project_contract_amount), 0)::text as contract,
            coalesce(sum(project_backlog_amount), 0)::text as backlog
       from invoices
      where project_id = any(?::uuid[]) and status <> 'void'
      group by project_id, status = 'draft'`,
    [ids],
  )) as { rows: Row[] };
  const { rows: bought } = (await ctx.trx.raw(
    `select si.project_id, count(*)::int as n,
            round(coalesce(sum(${SUPPLIER_INVOICE_COST}), 0), 2)::text as cost
       from supplier_invoices si
      where si.project_id = any(?::uuid[]) and si.status = 'approved'
      group by si.project_id`,
    [ids],
  )) as { rows: Row[] };
  for (const p of projects) {
    const id = p.id as string;
    const s = sums.find((r) => r.project_id === id) ?? {};
    const supplier = bought.find((r) => r.project_id === id);
    const supplierCost = money(supplier?.cost);
    const mine = invoices.filter((r) => r.project_id === id);
    const workMinutes = Number(s.work_minutes ?? 0);
    const travelMinutes = Number(s.travel_minutes ?? 0);
    const minutes = workMinutes + travelMinutes;
    const hourlyCost = money(p.hourly_cost);
    const timeCost = minutesCost(minutes, hourlyCost);
    const articleCost = money(s.article_cost);
    const labour = money(s.labour);
    const articles = money(s.articles);
    const contractSum = toOre(String(p.contract_sum));
    const t = projectTotals(
      contractSum,
      mine.map((r): ProjectInvoice => ({
        status: r.draft ? 'draft' : 'finalized',
        contractAmount: toOre(String(r.contract)),
        backlogAmount: toOre(String(r.backlog)),
      })),
      [{ id: 'backlog', amount: toOre(money(s.backlog)), status: 'open' }],
    );
    result.set(id, {
      projectId: id,
      hours: {
        workMinutes,
        travelMinutes,
        minutes,
        work: hoursOf(workMinutes),
        travel: hoursOf(travelMinutes),
        total: hoursOf(minutes),
      },
      cost: {
        hourlyCost,
        time: timeCost,
        articles: articleCost,
        articleCount: Number(s.article_count ?? 0),
        supplierInvoices: supplierCost,
        supplierInvoiceCount: Number(supplier?.n ?? 0),
        total: formatDecimal(add(add(timeCost, articleCost), supplierCost)),
      },
      income: { hourlyPrice: money(p.hourly_price), labour, articles, total: formatDecimal(add(labour, articles)) },
      invoicing: {
        contractSum: fromOre(contractSum),
        invoiced: fromOre(t.invoiced),
        leftToInvoice: fromOre(t.leftToInvoice),
        backlog: fromOre(t.backlog),
        contractLeft: fromOre(t.contractLeft),
        contractUnplanned: fromOre(t.contractUnplanned),
        pendingExtraWork: money(s.pending_extra),
        draftCount: Number(mine.find((r) => r.draft)?.n ?? 0),
      },
    });
  }
  return result;
}

/** One project's figures; the project must exist (the caller found it). */
export async function projectFiguresOf(ctx: Pick<Ctx, 'trx'>, projectId: string): Promise<ProjectFigures> {
  const figures = (await readProjectFigures(ctx, [projectId])).get(projectId);
  if (!figures) throw new Error(`project ${projectId} has no figures`);
  return figures;
}
