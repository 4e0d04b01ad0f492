import { useTranslation } from 'react-i18next';
import { ColumnChart, HorizontalBarChart, StackedColumnChart, type Bar } from '~/app/components/reports/bar-chart';
import { monthName } from '~/app/components/projects/costs-panel';
import { buttonClass, formatNumber } from '~/app/components/ui';
import {
  COLUMN_DECIMALS,
  REVISIT_DAYS,
  statisticsRowLabel,
  TOP_CUSTOMERS,
  type ColumnKind,
  type StatisticsRow,
} from '~/core/statistics/statistics-labels';
import type { StatisticsTable } from '~/core/statistics/statistics.service';

/** The bars a lying chart shows at most (the table below lists every row). */
const CHART_ROWS = 10;

/** Which column a table's chart draws; the month tables draw every month of the period. */
const CHART_COLUMN: Record<StatisticsTable['id'], string> = {
  byType: 'orders',
  byStatus: 'orders',
  byTechnician: 'orders',
  byCustomer: 'orders',
  revenueByMonth: 'total',
  revenueBySource: 'amount',
  hours: 'reportedHours',
  firstTimeFix: 'firstTimeFixRate',
  agreementRevenue: 'amount',
};

/**
 * One statistics table (decision 065): its title and what it counts, a chart that reads at a
 * glance (an image whose label reads out its figures), the table with the same figures, and the
 * table's CSV and XLSX downloads with the page's query.
 */
export function StatisticsSection({
  table,
  months,
  query,
}: {
  table: StatisticsTable;
  months: readonly string[];
  query: string;
}) {
  const { t, i18n } = useTranslation('statistics');
  const headingId = `statistics-${table.id}`;
  const write = (v: number | null, kind: ColumnKind) =>
    v === null ? '—' : `${formatNumber(v, { decimals: COLUMN_DECIMALS[kind] })}${kind === 'percent' ? ' %' : ''}`;
  const label = (r: StatisticsRow) =>
    table.rowKind === 'month' ? monthName(r.key, i18n.language, true) : statisticsRowLabel(table.rowKind, r, t);
  return (
    <section
      aria-labelledby={headingId}
      className="min-w-0 space-y-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      data-table={table.id}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id={headingId} className="text-lg font-semibold">
            {t(`table.${table.id}`)}
          </h2>
          <p className="text-sm text-slate-600">
            {t(`help.${table.id}`, { count: TOP_CUSTOMERS, days: REVISIT_DAYS })}
          </p>
        </div>
        <div className="flex gap-2" role="group" aria-label={`${t('export')}: ${t(`table.${table.id}`)}`}>
          {(['csv', 'xlsx'] as const).map((format) => (
            <a
              key={format}
              href={`/statistics/export?${query}&table=${table.id}&format=${format}`}
              download
              data-export={format}
              className={buttonClass({ variant: 'secondary', size: 'sm', className: 'no-underline' })}
            >
              {t(format === 'csv' ? 'exportCsv' : 'exportXlsx')}
            </a>
          ))}
        </div>
      </div>
      {table.rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t('empty')}</p>
      ) : (
        <>
          <Chart table={table} months={months} write={write} label={label} />
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">{t(`table.${table.id}`)}</caption>
              <thead>
                <tr className="border-b border-slate-200 text-left text-slate-600">
                  <th scope="col" className="py-1.5 pe-3 font-medium">
                    {t(`rowHead.${table.id}`)}
                  </th>
                  {table.columns.map((c) => (
                    <th key={c.key} scope="col" className="py-1.5 ps-3 text-end font-medium">
                      {t(`col.${c.key}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((r) => (
                  <tr key={r.key} className="border-b border-slate-100">
                    <th scope="row" className="py-1.5 pe-3 text-left font-normal">
                      {label(r)}
                    </th>
                    {r.values.map((v, i) => (
                      <td key={table.columns[i]!.key} className="py-1.5 ps-3 text-end tabular-nums">
                        {write(v, table.columns[i]!.kind)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
              {table.total ? (
                <tfoot>
                  <tr className="font-semibold">
                    <th scope="row" className="py-1.5 pe-3 text-left">
                      {t('total')}
                    </th>
                    {table.total.values.map((v, i) => (
                      <td key={table.columns[i]!.key} className="py-1.5 ps-3 text-end tabular-nums">
                        {write(v, table.columns[i]!.kind)}
                      </td>
                    ))}
                  </tr>
                </tfoot>
              ) : null}
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function Chart({
  table,
  months,
  write,
  label,
}: {
  table: StatisticsTable;
  months: readonly string[];
  write: (v: number | null, kind: ColumnKind) => string;
  label: (r: StatisticsRow) => string;
}) {
  const { t, i18n } = useTranslation('statistics');
  const title = t('chart', { table: t(`table.${table.id}`) });
  const index = table.columns.findIndex((c) => c.key === CHART_COLUMN[table.id]);
  const kind = table.columns[index]!.kind;
  const monthLabel = (m: string) => monthName(m, i18n.language, months.length > 12 || m.endsWith('-01'));
  if (table.id === 'revenueByMonth') {
    // every source but the total, a column for every month of the period
    const parts = table.columns.filter((c) => c.key !== 'total');
    return (
      <StackedColumnChart
        title={title}
        series={parts.map((c) => t(`col.${c.key}`))}
        columns={months.map((m) => {
          const r = table.rows.find((x) => x.key === m);
          const values = parts.map((_, i) => r?.values[i] ?? 0);
          return { id: m, label: monthLabel(m), values, valueTexts: values.map((v) => write(v, 'money')) };
        })}
      />
    );
  }
  if (table.rowKind === 'month') {
    const bars: Bar[] = months.map((m) => {
      const v = table.rows.find((x) => x.key === m)?.values[index] ?? null;
      return { id: m, label: monthLabel(m), value: v ?? 0, valueText: write(v, kind) };
    });
    return <ColumnChart title={title} bars={bars} />;
  }
  const bars: Bar[] = table.rows.slice(0, CHART_ROWS).map((r) => {
    const v = r.values[index] ?? null;
    return { id: r.key, label: label(r), value: v ?? 0, valueText: write(v, kind) };
  });
  return <HorizontalBarChart title={title} bars={bars} />;
}
