import { useTranslation } from 'react-i18next';
import { Form, Link } from 'react-router';
import type { Route } from './+types/statistics';
import { StatisticsSection } from '~/app/components/statistics/statistics-section';
import { Button } from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { NATIVE_INPUT_CLASS, NativeField } from '~/app/components/ui/native-field';
import { guard, run } from '~/app/lib/guard.server';
import { pageTitle } from '~/app/lib/page-title';
import { DASHBOARD_PERIODS, parsePeriod } from '~/core/dashboard/dashboard-period';
import { getStatistics } from '~/core/statistics/statistics.service';

/**
 * Statistics (spec section 2; issue 36 item 2; decision 065): the company's work orders, revenue
 * and hours over the period in the address (`?period=12m|year|2m`, the dashboard's periods), for
 * one department or all (`?departmentId=`). Each table has its chart and downloads as CSV or XLSX
 * (./statistics.export.tsx) with the same query. With the regions module, one region or all
 * (`?region=`, a name of the register; decision 067).
 */
export const middleware = guard({ permission: 'dashboard:read', module: 'statistics' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const input = {
    period: parsePeriod(params.get('period')),
    departmentId: params.get('departmentId') ?? '',
    region: params.get('region') ?? '',
  };
  return run(context, (ctx) => getStatistics(ctx, input));
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('statistics.title');

export default function Statistics({ loaderData: s }: Route.ComponentProps) {
  const { t } = useTranslation('statistics');
  const { t: tr } = useTranslation('regions');
  const period = s.period.period;
  const query = (p: string) => {
    const q = new URLSearchParams({ period: p });
    if (s.departmentId) q.set('departmentId', s.departmentId);
    if (s.region) q.set('region', s.region);
    return q.toString();
  };
  return (
    <section aria-labelledby="statistics-title" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="statistics-title" className="text-2xl font-semibold">
          {t('title')}
        </h1>
        <nav aria-label={t('period')}>
          <ul className="flex rounded-lg bg-slate-100 p-1 text-sm">
            {DASHBOARD_PERIODS.map((p) => (
              <li key={p}>
                <Link
                  to={`/statistics?${query(p)}`}
                  aria-current={p === period ? 'page' : undefined}
                  className={
                    p === period
                      ? 'block rounded-md bg-white px-3 py-1.5 font-medium text-slate-900 shadow-sm'
                      : 'block rounded-md px-3 py-1.5 text-slate-700 hover:bg-white/70'
                  }
                >
                  {t(`period.${p}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <p className="text-sm text-slate-600">
        {t('intro')} {t('periodRange', { from: s.period.from, to: s.period.to })}
      </p>
      {s.departments.length > 0 || s.regions.length > 0 ? (
        <Form method="get" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="period" value={period} />
          {s.departments.length > 0 ? (
          <NativeField label={t('department')} className="w-full sm:w-64">
            {(id) => (
              <select
                id={id}
                name="departmentId"
                defaultValue={s.departmentId ?? ''}
                className={cx(NATIVE_INPUT_CLASS, 'cursor-default')}
              >
                <option value="">{t('allDepartments')}</option>
                {s.departments.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
              </select>
            )}
          </NativeField>
          ) : null}
          {s.regions.length > 0 ? (
            <NativeField label={tr('regions:filter')} className="w-full sm:w-64">
              {(id) => (
                <select
                  id={id}
                  name="region"
                  defaultValue={s.region ?? ''}
                  className={cx(NATIVE_INPUT_CLASS, 'cursor-default')}
                >
                  <option value="">{tr('regions:all')}</option>
                  {s.regions.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              )}
            </NativeField>
          ) : null}
          <Button type="submit" variant="secondary">
            {t('show')}
          </Button>
        </Form>
      ) : null}
      {s.departmentId ? <p className="text-sm text-slate-600">{t('departmentNote')}</p> : null}
      {s.region ? <p className="text-sm text-slate-600">{t('regionNote')}</p> : null}
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        {s.tables.map((table) => (
          <StatisticsSection key={table.id} table={table} months={s.period.months} query={query(period)} />
        ))}
      </div>
    </section>
  );
}
