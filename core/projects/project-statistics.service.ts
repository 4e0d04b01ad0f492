import type { Ctx } from '~/core/context';
import { requireAccess } from '~/core/permissions/access';
import { add, compare, divide, formatDecimal, isZero, mul, sub } from '~/core/pricing';
import { PROJECT_ACCESS } from './project-access';
import { computeProjectCosts, loadCostBase, minutesCost } from './project-costs.service';

/*
 * A project's statistics (issue 18; spec section 2, the project's "statistics" menu): how the hours
 * and the cost stand against the estimate, what the work is worth (labour at the hourly price and
 * the article rows' totals) against what it cost, what has been invoiced, and how far the work
 * orders, the extra work and the activities have come. A fixed number of statements: the costs'
 * grouped ones and one of counts and sums.
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
  hours: Progress;
  cost: Progress;
  /** Labour at the hourly price (the project's, else the settings') and the articles' totals. */
  revenue: { labour: string; articles: string; total: string; hourlyPrice: string };
  /** Final invoices of the project (drafts and voided ones left out), without VAT. */
  invoiced: string;
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
  const costs = await computeProjectCosts(ctx, base);
  const counts = (await ctx.trx.raw(
    `select wo.*, act.*, inv.invoiced
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
         left join lateral (
           select coalesce(sum(i.total_price), 0)::text as invoiced
             from invoices i where i.project_id = p.id and i.status = 'finalized') inv on true
        where p.id = ?`,
    [base.id],
  )) as { rows: Row[] };
  const c = counts.rows[0] ?? {};
  const n = (k: string) => Number(c[k] ?? 0);
  const labour = minutesCost(costs.time.minutes, base.hourlyPrice);
  const articles = costs.articles.salesTotal;
  const revenue = formatDecimal(add(labour, articles));
  const margin = formatDecimal(sub(revenue, costs.total));
  return {
    statistics: {
      projectId: base.id,
      hours: {
        actual: costs.time.hours,
        estimated: base.estimatedHours,
        percent: percentOf(costs.time.hours, base.estimatedHours),
      },
      cost: { actual: costs.total, estimated: base.estimatedCost, percent: percentOf(costs.total, base.estimatedCost) },
      revenue: { labour, articles, total: revenue, hourlyPrice: base.hourlyPrice },
      invoiced: formatDecimal(String(c.invoiced ?? '0')),
      contractSum: base.contractSum,
      margin: { amount: margin, percent: compare(revenue, 0) > 0 ? percentOf(margin, revenue) : null },
      workOrders: { open: n('open_orders'), closed: n('closed_orders'), total: n('open_orders') + n('closed_orders') },
      extraWork: { pending: n('extra_pending'), accepted: n('extra_accepted'), declined: n('extra_declined') },
      activities: { done: n('activities_done'), total: n('activities') },
    },
  };
}
