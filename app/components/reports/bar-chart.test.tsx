import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import { barPercent, chartLabel, ColumnChart, HorizontalBarChart, StackedColumnChart } from './bar-chart';

const render = await englishRenderer([]);

const bars = [
  { id: 'a', label: 'Jan', value: 1500, valueText: '1 500,00' },
  { id: 'b', label: 'Feb', value: 0, valueText: '0,00' },
  { id: 'c', label: 'Mar', value: 750, valueText: '750,00' },
];

describe('[reports] bar charts', () => {
  it('scales bars to the largest, a small one still visible and zero empty', () => {
    expect(barPercent(1500, 1500)).toBe(100);
    expect(barPercent(750, 1500)).toBe(50);
    expect(barPercent(1, 100_000)).toBe(1);
    expect(barPercent(0, 1500)).toBe(0);
    expect(barPercent(5, 0)).toBe(0);
  });

  it('reads out every bar in its accessible label', () => {
    expect(chartLabel('Per month', bars)).toBe('Per month: Jan 1 500,00, Feb 0,00, Mar 750,00');
  });

  it('draws columns as one image with the label, the bars hidden from assistive technology', () => {
    const html = render(<ColumnChart title="Per month" bars={bars} />);
    expect(html).toContain('role="img" aria-label="Per month: Jan 1 500,00, Feb 0,00, Mar 750,00"');
    expect(html.match(/<rect /g)).toHaveLength(3);
    expect(html).toContain('<svg aria-hidden="true"');
    expect(html).toContain('<figcaption');
  });

  it('draws lying bars with their labels and values', () => {
    const html = render(<HorizontalBarChart title="Time" bars={bars.slice(0, 1)} />);
    expect(html).toContain('role="img" aria-label="Time: Jan 1 500,00"');
    expect(html).toContain('<ul aria-hidden="true"');
    expect(html).toContain('>Jan<');
    expect(html).toContain('>1 500,00<');
    // the one bar is the largest: it fills its track
    expect(html).toMatch(/<rect class="visx-bar fill-blue-700" x="0" y="0" width="100" height="10"/);
  });

  it("stacks a column's parts, each part's words in the label, a legend beside", () => {
    const html = render(
      <StackedColumnChart
        title="Revenue"
        series={['Work orders', 'Agreements']}
        columns={[
          { id: '2026-01', label: 'Jan', values: [100, 50], valueTexts: ['100,00', '50,00'] },
          { id: '2026-02', label: 'Feb', values: [0, 0], valueTexts: ['0,00', '0,00'] },
        ]}
      />,
    );
    expect(html).toContain(
      'aria-label="Revenue: Jan: Work orders 100,00, Agreements 50,00; Feb: Work orders 0,00, Agreements 0,00"',
    );
    // two parts in January, nothing drawn for an empty February
    const rects = [...html.matchAll(/<rect [^>]*height="([\d.]+)"[^>]*class="(fill-[a-z]+-\d+)"/g)];
    expect(rects.map((r) => [Number(r[1]).toFixed(1), r[2]])).toEqual([
      ['66.7', 'fill-blue-700'],
      ['33.3', 'fill-emerald-600'],
    ]);
    expect(html).toContain('>Agreements</li>');
  });
});
