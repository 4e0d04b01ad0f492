import type { Ctx } from '~/core/context';
import { requireAccess } from '~/core/permissions/access';
import { compare, divide, formatDecimal, isZero, mul, sub } from '~/core/pricing';
import { PROJECT_ACCESS } from './project-access';
import { loadCostBase } from './project-costs.service';
import { projectFiguresOf } from './project-figures';

/*
 * A project's statistics (issue 18; spec section 2, the project's "statistics" menu): how the hours
 * and the cost stand against the estimate, what the work is worth (work hours at the hourly price
 * and the article rows' totals; travel is not billed, pending or declined extra work is not income)
 * against what it cost, what has been invoiced, and how far the work orders, the extra work and the
 * activities have come. The hours, cost, income and invoiced are the project's figures
 * (project-figures.ts), the same the header and the other tabs show.
 */

type Row = Record<string, unknown>;

export interface Progress {
  actual: string;
  estimated: string | null;
  /** actual / estimated in percent, 1 decimal; null without an estimate (or an estimate of 0). */
  percent: string | null;
}

export interface ProjectStatistics {
  projectId: string;
  /** Work and travel; `travel` says how much of it was travel. */
  hours: Progress & { travel: string };
  cost: Progress;
  /** Work hours at the hourly price (the project's, else the settings') and the articles' totals. */
  revenue: { labour: string; articles: string; total: string; hourlyPrice: string };
  /** What final invoices of the project carry (drafts and voided ones left out), without VAT. */
  invoiced: string;
  leftToInvoice: string;
  contractSum: string;
  /** Revenue minus cost, and that in percent of the revenue (null when there is none). */
  margin: { amount: string; percent: string | null };
  workOrders: { open: number; closed: number; total: number };
  extraWork: { pending: number; accepted: number; declined: number };
  activities: { done: number; total: number };
}

/** `part / whole` in percent with 1 decimal, or null when there is no whole. */
export function percentOf(part: string, whole: string | null): string | null {
  if (whole === null || isZero(whole)) return null;
  return formatDecimal(divide(mul(part, 100), whole, 1), 1);
}

/** GET /projects/{id}/statistics. */
export async function projectStatistics(ctx: Ctx, projectId: unknown): Promise<{ statistics: ProjectStatistics }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const base = await loadCostBase(ctx, projectId);
  const figures = await projectFiguresOf(ctx, base.id);
  const counts = (await ctx.trx.raw(
    `select wo.*, act.*
         from projects p
         left join lateral (
           select count(*) filter (where w.closed_at is null)::int as open_orders,
                  count(*) filter (where w.closed_at is not null)::int as closed_orders,
                  count(*) filter (where w.project_extra_status = 'pending')::int as extra_pending,
                  count(*) filter (where w.project_extra_status = 'accepted')::int as extra_accepted,
                  count(*) filter (where w.project_extra_status = 'declined')::int as extra_declined
             from work_orders w where w.project_id = p.id and w.deleted_at is null) wo on true
         left join lateral (
           select count(*)::int as activities,
                  count(*) filter (where a.completed_at is not null)::int as activities_done
             from project_activities a where a.project_id = p.id) act on true
        where p.id = ?`,
    [base.id],
  )) as { rows: Row[] };
  const c = counts.rows[0] ?? {};
  const n = (k: string) => Number(c[k] ?? 0);
  const revenue = figures.income.total;
  const cost = figures.cost.total;
  const margin = formatDecimal(sub(revenue, cost));
  return {
    statistics: {
      projectId: base.id,
      hours: {
        actual: figures.hours.total,
        estimated: base.estimatedHours,
        percent: percentOf(figures.hours.total, base.estimatedHours),
        travel: figures.hours.travel,
      },
      cost: { actual: cost, estimated: base.estimatedCost, percent: percentOf(cost, base.estimatedCost) },
      revenue: {
        labour: figures.income.labour,
        articles: figures.income.articles,
        total: revenue,
        hourlyPrice: figures.income.hourlyPrice,
      },
      invoiced: figures.invoicing.invoiced,
      leftToInvoice: figures.invoicing.leftToInvoice,
      contractSum: figures.invoicing.contractSum,
      margin: { amount: margin, percent: compare(revenue, 0) > 0 ? percentOf(margin, revenue) : null },
      workOrders: { open: n('open_orders'), closed: n('closed_orders'), total: n('open_orders') + n('closed_orders') },
      extraWork: { pending: n('extra_pending'), accepted: n('extra_accepted'), declined: n('extra_declined') },
      activities: { done: n('activities_done'), total: n('activities') },
    },
  };
}
