import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Route } from './+types/deviations';
import { DeviationTable } from '~/app/components/deviations/deviation-table';
import { DeviationsNav } from '~/app/components/deviations/deviations-nav';
import { ColumnChart, HorizontalBarChart } from '~/app/components/reports/bar-chart';
import { monthName } from '~/app/components/projects/costs-panel';
import { LinkButton } from '~/app/components/ui';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import { hasAccess } from '~/core/permissions/access';
import { DEVIATION_ACCESS, deviationStats } from '~/core/deviations/deviation.service';

/**
 * The deviation dashboard (spec section 2: /deviations; issue 34 item 4): what is open by category
 * and by what it is about, the latest, the overdue, and twelve months of opened against closed —
 * each chart with its numbers beside it, each number a link to the list filtered to it.
 */
export const middleware = guard(DEVIATION_ACCESS.read);

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const stats = await run(context, (ctx) => deviationStats(ctx));
  return { ...stats, canCreate: hasAccess(auth, DEVIATION_ACCESS.create) };
}

export const handle = pageTitle('nav.deviations');

const CARD = 'min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200';

/** A chart's numbers: one row per bar, its count a link to the list it stands for. */
function Counts({ caption, rows }: { caption: string; rows: { id: string; label: string; count: number; to: string }[] }) {
  const { t } = useTranslation('deviations');
  if (!rows.length) return <p className="mt-2 text-sm text-slate-600">{t('dashboard.nothing')}</p>;
  return (
    <table className="mt-3 w-full text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="text-left text-slate-600">
          <th scope="col" className="py-1 font-medium">
            {caption}
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            {t('dashboard.count')}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id} className="border-t border-slate-100">
            <th scope="row" className="py-2 text-left font-normal">
              {r.label}
            </th>
            <td className="py-2 text-right">
              <Link to={r.to} className="inline-block min-w-11 py-1 text-right text-brand-700 underline">
                {r.count}
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function DeviationDashboard({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('deviations');
  const s = loaderData;
  const category = s.byCategory.map((c) => ({
    id: c.categoryId ?? 'none',
    label: c.name ?? t('dashboard.noCategory'),
    count: c.count,
    to: `/deviations/list?categoryId=${c.categoryId ?? 'none'}`,
  }));
  const relation = s.byRelation.map((r) => ({
    id: r.kind ?? 'none',
    label: r.kind ? t(`relation.${r.kind}`) : t('dashboard.noRelation'),
    count: r.count,
    to: `/deviations/list?relationKind=${r.kind ?? 'none'}`,
  }));
  const bars = (rows: typeof category) => rows.map((r) => ({ id: r.id, label: r.label, value: r.count, valueText: String(r.count) }));
  const monthEnd = (month: string) => {
    const [y, m] = month.split('-').map(Number) as [number, number];
    return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  };
  const empty = s.openCount === 0 && s.latest.length === 0;
  return (
    <section className="grid min-w-0 gap-4">
      <div className={CARD}>
        <DeviationsNav />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h1 className="text-2xl font-semibold">{t('title')}</h1>
          {s.canCreate ? <LinkButton href="/deviations/new">{t('new')}</LinkButton> : null}
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-3 sm:max-w-md">
          <div className="rounded-lg bg-slate-50 p-3">
            <dt className="text-sm text-slate-600">{t('dashboard.open')}</dt>
            <dd className="text-2xl font-semibold">
              <Link to="/deviations/list?status=open" className="text-brand-700 underline" data-testid="open-count">
                {s.openCount}
              </Link>
            </dd>
          </div>
          <div className="rounded-lg bg-slate-50 p-3">
            <dt className="text-sm text-slate-600">{t('dashboard.overdue')}</dt>
            <dd className="text-2xl font-semibold">
              <Link to="/deviations/list?overdue=true" className="text-brand-700 underline" data-testid="overdue-count">
                {s.overdueCount}
              </Link>
            </dd>
          </div>
        </dl>
        {empty ? <p className="mt-4 text-sm text-slate-700">{t('dashboard.empty')}</p> : null}
      </div>
      <div className="grid min-w-0 gap-4 lg:grid-cols-2">
        <div className={CARD}>
          <h2 className="text-lg font-semibold">{t('dashboard.byCategory')}</h2>
          {category.length ? <HorizontalBarChart className="mt-3" title={t('dashboard.byCategory')} bars={bars(category)} /> : null}
          <Counts caption={t('field.category')} rows={category} />
        </div>
        <div className={CARD}>
          <h2 className="text-lg font-semibold">{t('dashboard.byRelation')}</h2>
          {relation.length ? <HorizontalBarChart className="mt-3" title={t('dashboard.byRelation')} bars={bars(relation)} /> : null}
          <Counts caption={t('field.relations')} rows={relation} />
        </div>
      </div>
      <div className={CARD}>
        <h2 className="text-lg font-semibold">{t('dashboard.trend')}</h2>
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          {(['opened', 'closed'] as const).map((kind) => (
            <ColumnChart
              key={kind}
              title={`${t('dashboard.trend')}: ${t(`dashboard.${kind}`)}`}
              bars={s.trend.map((m) => ({
                id: m.month,
                label: monthName(m.month, i18n.language, m.month.endsWith('-01')),
                value: m[kind],
                valueText: String(m[kind]),
              }))}
            />
          ))}
        </div>
        <div className="mt-3 overflow-x-auto">
          <table className="w-full min-w-max text-sm">
            <thead>
              <tr className="text-left text-slate-600">
                <th scope="col" className="py-1 pr-4 font-medium">
                  {t('dashboard.month')}
                </th>
                <th scope="col" className="py-1 pr-4 text-right font-medium">
                  {t('dashboard.opened')}
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  {t('dashboard.closed')}
                </th>
              </tr>
            </thead>
            <tbody>
              {s.trend.map((m) => {
                const start = `${m.month}-01`;
                const end = monthEnd(m.month);
                return (
                  <tr key={m.month} className="border-t border-slate-100">
                    <th scope="row" className="py-1 pr-4 text-left font-normal">
                      {monthName(m.month, i18n.language, true)}
                    </th>
                    <td className="py-1 pr-4 text-right">
                      <Link
                        to={`/deviations/list?status=all&from=${start}&to=${end}`}
                        className="inline-block min-w-11 py-1 text-brand-700 underline"
                        data-testid={`opened-${m.month}`}
                      >
                        {m.opened}
                      </Link>
                    </td>
                    <td className="py-1 text-right">
                      {/* closed in the month and still closed: what the list's closed period finds */}
                      <Link
                        to={`/deviations/list?status=closed&closedFrom=${start}&closedTo=${end}`}
                        className="inline-block min-w-11 py-1 text-brand-700 underline"
                        data-testid={`closed-${m.month}`}
                      >
                        {m.closed}
                      </Link>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </div>
      <div className="grid min-w-0 gap-4 lg:grid-cols-2">
        <div className={CARD}>
          <h2 className="text-lg font-semibold">
            <Link to="/deviations/list?status=all" className="text-slate-900 underline">
              {t('dashboard.latest')}
            </Link>
          </h2>
          <div className="mt-2">
            <DeviationTable compact rows={s.latest} label={t('dashboard.latest')} empty={t('dashboard.nothing')} />
          </div>
        </div>
        <div className={CARD}>
          <h2 className="text-lg font-semibold">
            <Link to="/deviations/list?overdue=true" className="text-slate-900 underline">
              {t('dashboard.overdueList')}
            </Link>
          </h2>
          <div className="mt-2">
            <DeviationTable compact rows={s.overdue} label={t('dashboard.overdueList')} empty={t('dashboard.nothing')} />
          </div>
        </div>
      </div>
    </section>
  );
}
