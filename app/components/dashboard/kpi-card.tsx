import { Link } from 'react-router';
import { ColumnChart, type Bar } from '~/app/components/reports/bar-chart';

/**
 * One of the dashboard's key figures (spec section 2, dashboard KPI cards; decision 062): the
 * number, what it counts, a small column chart of its months, and a link to the list behind it
 * when the person may open that list.
 */
export function KpiCard({
  label,
  value,
  help,
  to,
  trend,
  trendTitle,
}: {
  label: string;
  value: string;
  help: string;
  to?: string;
  trend?: readonly Bar[];
  /** What the chart's columns are ("Amount per month"); the chart's accessible name starts with it. */
  trendTitle?: string;
}) {
  const body = (
    <>
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="mt-1 text-3xl font-semibold text-slate-900">{value}</p>
      <p className="mt-1 text-xs text-slate-500">{help}</p>
    </>
  );
  return (
    <li className="flex flex-col rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      {to ? (
        <Link to={to} className="block rounded focus-visible:outline-2 focus-visible:outline-brand-700">
          {body}
        </Link>
      ) : (
        body
      )}
      {trend && trend.length > 0 ? (
        <ColumnChart compact title={trendTitle ?? label} bars={trend} className="mt-auto pt-3" />
      ) : null}
    </li>
  );
}
