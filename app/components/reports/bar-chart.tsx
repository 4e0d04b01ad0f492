import { cx } from '~/app/components/ui/class-names';

/*
 * Small self-made bar charts for the reports (no chart library): the bars are SVG, the words around
 * them HTML, so they stay readable on a 360 px phone. Each chart is one image to assistive
 * technology — role="img" with a label that reads out every bar — and the page's table beside it
 * holds the same numbers.
 */

export interface Bar {
  id: string;
  /** What the bar stands for (a month, a person), already translated. */
  label: string;
  value: number;
  /** The value as the page writes it ("1 250,00", "7:30"). */
  valueText: string;
}

interface ChartProps {
  /** What the chart shows ("Amount per month"), already translated; starts the accessible label. */
  title: string;
  bars: readonly Bar[];
  className?: string;
}

/** "Title: label value, label value…", the words a screen reader says for the chart. */
export function chartLabel(title: string, bars: readonly Bar[]): string {
  return `${title}: ${bars.map((b) => `${b.label} ${b.valueText}`).join(', ')}`;
}

/** A bar's share of the largest, in percent; a bar above zero is never thinner than 1 %. */
export function barPercent(value: number, max: number): number {
  if (max <= 0 || value <= 0) return 0;
  return Math.max(1, (value / max) * 100);
}

/** Columns side by side (months): the value above each, the label under it. */
export function ColumnChart({ title, bars, className, compact }: ChartProps & { compact?: boolean }) {
  const max = Math.max(0, ...bars.map((b) => b.value));
  const width = Math.max(1, bars.length) * 10;
  return (
    <figure className={cx(compact ? undefined : 'rounded-lg border border-slate-200 bg-white p-3', className)}>
      <div role="img" aria-label={chartLabel(title, bars)}>
        <svg
          aria-hidden="true"
          viewBox={`0 0 ${width} 100`}
          preserveAspectRatio="none"
          className={cx('block w-full', compact ? 'h-12' : 'h-40')}
          data-testid="column-chart"
        >
          <line x1="0" y1="100" x2={width} y2="100" className="stroke-slate-300" strokeWidth="0.5" />
          {bars.map((b, i) => {
            const h = barPercent(b.value, max);
            return <rect key={b.id} x={i * 10 + 1.5} y={100 - h} width="7" height={h} className="fill-blue-700" />;
          })}
        </svg>
        {compact ? null : (
          <div aria-hidden="true" className="mt-1 flex">
            {bars.map((b) => (
              <span key={b.id} className="min-w-0 flex-1 truncate text-center text-[10px] text-slate-600 sm:text-xs">
                {b.label}
              </span>
            ))}
          </div>
        )}
      </div>
      {compact ? null : <figcaption className="mt-2 text-sm text-slate-700">{title}</figcaption>}
    </figure>
  );
}

/** Bars lying down (people, projects, work types): the label left, the value right. */
export function HorizontalBarChart({ title, bars, className }: ChartProps) {
  const max = Math.max(0, ...bars.map((b) => b.value));
  return (
    <figure className={cx('rounded-lg border border-slate-200 bg-white p-3', className)}>
      <div role="img" aria-label={chartLabel(title, bars)}>
        <ul aria-hidden="true" className="space-y-1.5">
          {bars.map((b) => (
            <li
              key={b.id}
              className="grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)_auto] items-center gap-2 text-xs sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)_auto] sm:text-sm"
            >
              <span className="truncate text-slate-700" title={b.label}>
                {b.label}
              </span>
              <svg viewBox="0 0 100 10" preserveAspectRatio="none" className="block h-4 w-full">
                <rect x="0" y="0" width="100" height="10" className="fill-slate-100" />
                <rect x="0" y="0" width={barPercent(b.value, max)} height="10" className="fill-blue-700" />
              </svg>
              <span className="text-end text-slate-800 tabular-nums">{b.valueText}</span>
            </li>
          ))}
        </ul>
      </div>
      <figcaption className="mt-2 text-sm text-slate-700">{title}</figcaption>
    </figure>
  );
}
