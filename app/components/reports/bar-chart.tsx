import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar as BarShape, BarStack } from '@visx/shape';
import { cx } from '~/app/components/ui/class-names';

/*
 * The bar charts of the reports, the dashboard and the statistics page, drawn with visx
 * (decision 065: SVG rendered on the server and in the browser alike, no network, no measuring
 * of the page): the bars are SVG, the words around them HTML, so they stay readable on a 360 px
 * phone. Each chart is one image to assistive technology — role="img" with a label that reads out
 * every bar — and the page's table beside it holds the same numbers.
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
  const scale = scaleLinear<number>({ domain: [0, max], range: [0, 100], clamp: true });
  return Math.max(1, scale(value));
}

/** Columns side by side (months): the value above each, the label under it. */
export function ColumnChart({ title, bars, className, compact }: ChartProps & { compact?: boolean }) {
  const max = Math.max(0, ...bars.map((b) => b.value));
  const width = Math.max(1, bars.length) * 10;
  const x = scaleBand<string>({
    domain: bars.map((b) => b.id),
    range: [0, width],
    paddingInner: 0.3,
    paddingOuter: 0.15,
  });
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
          {bars.map((b) => {
            const h = barPercent(b.value, max);
            return (
              <BarShape
                key={b.id}
                x={x(b.id) ?? 0}
                y={100 - h}
                width={x.bandwidth()}
                height={h}
                className="fill-blue-700"
              />
            );
          })}
        </svg>
        {compact ? null : <AxisLabels labels={bars.map((b) => ({ id: b.id, label: b.label }))} />}
      </div>
      {compact ? null : <figcaption className="mt-2 text-sm text-slate-700">{title}</figcaption>}
    </figure>
  );
}

function AxisLabels({ labels }: { labels: readonly { id: string; label: string }[] }) {
  return (
    <div aria-hidden="true" className="mt-1 flex">
      {labels.map((b) => (
        <span key={b.id} className="min-w-0 flex-1 truncate text-center text-[10px] text-slate-600 sm:text-xs">
          {b.label}
        </span>
      ))}
    </div>
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
                <BarShape x={0} y={0} width={100} height={10} className="fill-slate-100" />
                <BarShape x={0} y={0} width={barPercent(b.value, max)} height={10} className="fill-blue-700" />
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

/** The fills of a stacked chart's series, in order (Tailwind classes, so the theme owns them). */
const SERIES_FILLS = ['fill-blue-700', 'fill-emerald-600', 'fill-amber-500', 'fill-violet-600', 'fill-slate-400'];
const SERIES_SWATCHES = ['bg-blue-700', 'bg-emerald-600', 'bg-amber-500', 'bg-violet-600', 'bg-slate-400'];

export interface StackedColumn {
  id: string;
  label: string;
  /** One value a series, in the order of `series`. */
  values: readonly number[];
  /** The values as the page writes them. */
  valueTexts: readonly string[];
}

/**
 * Columns made of their parts (revenue a month by source), with a legend. The accessible label
 * reads each column's parts: "Title: Jan: Work orders 100,00, Agreements 50,00; Feb: …".
 */
export function StackedColumnChart({
  title,
  series,
  columns,
  className,
}: {
  title: string;
  /** The parts' names, already translated (at most five). */
  series: readonly string[];
  columns: readonly StackedColumn[];
  className?: string;
}) {
  const keys = series.map((_, i) => String(i));
  const data = columns.map((c) => ({
    id: c.id,
    ...Object.fromEntries(c.values.map((v, i) => [String(i), Math.max(0, v)])),
  }));
  const max = Math.max(0, ...columns.map((c) => c.values.reduce((a, v) => a + Math.max(0, v), 0)));
  const width = Math.max(1, columns.length) * 10;
  const x = scaleBand<string>({
    domain: columns.map((c) => c.id),
    range: [0, width],
    paddingInner: 0.3,
    paddingOuter: 0.15,
  });
  const y = scaleLinear<number>({ domain: [0, max > 0 ? max : 1], range: [100, 0] });
  const label = `${title}: ${columns
    .map((c) => `${c.label}: ${series.map((s, i) => `${s} ${c.valueTexts[i] ?? ''}`).join(', ')}`)
    .join('; ')}`;
  return (
    <figure className={cx('rounded-lg border border-slate-200 bg-white p-3', className)}>
      <div role="img" aria-label={label}>
        <svg
          aria-hidden="true"
          viewBox={`0 0 ${width} 100`}
          preserveAspectRatio="none"
          className="block h-40 w-full"
          data-testid="stacked-column-chart"
        >
          <line x1="0" y1="100" x2={width} y2="100" className="stroke-slate-300" strokeWidth="0.5" />
          <Group>
            <BarStack data={data} keys={keys} x={(d) => d.id} xScale={x} yScale={y} color={(k) => k}>
              {(stacks) =>
                stacks.map((stack) =>
                  stack.bars.map((bar) =>
                    bar.height > 0 ? (
                      <rect
                        key={`${stack.index}-${bar.index}`}
                        x={bar.x}
                        y={bar.y}
                        width={bar.width}
                        height={bar.height}
                        className={SERIES_FILLS[stack.index % SERIES_FILLS.length]}
                      />
                    ) : null,
                  ),
                )
              }
            </BarStack>
          </Group>
        </svg>
        <AxisLabels labels={columns.map((c) => ({ id: c.id, label: c.label }))} />
        <ul aria-hidden="true" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
          {series.map((s, i) => (
            <li key={s} className="flex items-center gap-1.5">
              <span className={cx('inline-block size-3 rounded-sm', SERIES_SWATCHES[i % SERIES_SWATCHES.length])} />
              {s}
            </li>
          ))}
        </ul>
      </div>
      <figcaption className="mt-2 text-sm text-slate-700">{title}</figcaption>
    </figure>
  );
}
