import { describe, expect, it } from 'vitest';
import type { ProjectCosts } from '~/core/projects/project-costs.service';
import type { ProjectStatistics } from '~/core/projects/project-statistics.service';
import { englishRenderer } from '~/tests/helpers/render-ui';
import { CostsView, monthPeriod } from './costs-panel';
import { barWidth, StatisticsView } from './statistics-panel';

/** Server-render tests of the project's costs and statistics tabs, in English, every key present. */
const render = await englishRenderer(['projects']);

const months = [
  '2025-07',
  '2025-08',
  '2025-09',
  '2025-10',
  '2025-11',
  '2025-12',
  '2026-01',
  '2026-02',
  '2026-03',
  '2026-04',
  '2026-05',
  '2026-06',
];
const costs: ProjectCosts = {
  projectId: 'p1',
  today: '2026-06-15',
  hourlyCost: '500.00',
  hourlyCostSource: 'project',
  time: { workMinutes: 330, travelMinutes: 30, minutes: 360, hours: '6.00', cost: '3000.00' },
  articles: { count: 2, cost: '350.00', salesTotal: '750.00' },
  supplierInvoices: { count: 1, cost: '1200.00' },
  total: '4550.00',
  ongoing: {
    since: '2026-06-10',
    resetDay: 10,
    timeCost: '1000.00',
    articleCost: '200.00',
    supplierInvoiceCost: '0.00',
    cost: '1200.00',
  },
  byMonth: months.map((month) => ({
    month,
    timeCost: month === '2026-06' ? '1000.00' : '0.00',
    articleCost: '0.00',
    supplierInvoiceCost: '0.00',
    total: month === '2026-06' ? '1000.00' : '0.00',
  })),
  byUser: [{ userId: 'u1', name: 'Tess Tekniker', minutes: 240, hours: '4.00', cost: '2000.00' }],
  estimated: { hours: '5.00', cost: '10000.00' },
  difference: { hours: '-1.00', cost: '5450.00' },
};

describe('[projects] costs tab', () => {
  it('shows the totals, the ongoing cost since the reset day, the estimate and the people', () => {
    const html = render(
      <CostsView
        projectId="p1"
        canEdit
        costs={costs}
        snapshots={[
          {
            id: 's1',
            ongoingCost: '999.50',
            totalCost: '3350.00',
            periodStart: '2026-06-10',
            createdAt: '2026-06-12T08:00:00Z',
            createUserId: 'u1',
            createUserName: 'Anna Admin',
          },
        ]}
        isClosed={false}
        snapshotBusy={false}
        onTakeSnapshot={() => {}}
      />,
    );
    expect(html).toContain('Total cost');
    expect(html).toContain('4 550,00');
    expect(html).toContain('Since 2026-06-10');
    expect(html).toContain('6,00 h, of which travel 0,50 h, at 500,00 per hour');
    expect(html).toContain('5 450,00 left of the estimate');
    expect(html).toContain('1,00 h over the estimate');
    expect(html).toContain('Tess Tekniker');
    expect(html).toContain('Take snapshot');
    expect(html).toContain('999,50');
    expect(html).toContain('Anna Admin');
    // supplier invoices are part of the cost (issue 33): their own figure, named in the total's note
    expect(html).toContain('Supplier invoices');
    expect(html).toContain('supplier invoices 1 200,00');
    // the chart reads out every month
    expect(html).toMatch(/role="img" aria-label="Cost per month, last 12 months: [^"]+1 000,00"/);
    // the period picker starts on this month
    expect(html).toContain('value="2026-06-01"');
    expect(html).toContain('value="2026-06-30"');
  });

  it('a closed project or a reader takes no snapshot', () => {
    const props = { projectId: 'p1', costs, snapshots: [], snapshotBusy: false, onTakeSnapshot: () => {} };
    const closed = render(<CostsView {...props} canEdit isClosed />);
    expect(closed).not.toContain('Take snapshot');
    expect(closed).toContain('The project is closed');
    expect(render(<CostsView {...props} canEdit={false} isClosed={false} />)).not.toContain('Take snapshot');
  });

  it('this month’s period', () => {
    expect(monthPeriod('2028-02-10')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthPeriod('2026-12-31')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });
});

describe('[projects] statistics tab', () => {
  const statistics: ProjectStatistics = {
    projectId: 'p1',
    hours: { actual: '6.00', estimated: '10.00', percent: '60.0', travel: '0.50' },
    cost: { actual: '12000.00', estimated: '10000.00', percent: '120.0' },
    revenue: { labour: '4800.00', articles: '750.00', total: '5550.00', hourlyPrice: '800.00' },
    invoiced: '1000.00',
    leftToInvoice: '49000.00',
    contractSum: '50000.00',
    margin: { amount: '-6450.00', percent: '-116.2' },
    workOrders: { open: 2, closed: 1, total: 3 },
    extraWork: { pending: 1, accepted: 1, declined: 0 },
    activities: { done: 1, total: 3 },
  };

  it('shows progress against the estimate, capped at the bar’s end, and the money', () => {
    const html = render(<StatisticsView statistics={statistics} />);
    expect(html).toContain('6,00 of 10,00 (60,0 %)');
    expect(html).toMatch(/role="progressbar"[^>]*aria-valuenow="100"/);
    expect(html).toContain('12 000,00 of 10 000,00 (120,0 %)');
    expect(html).toContain('1 of 3 done');
    expect(html).toContain('5 550,00');
    expect(html).toContain('-6 450,00');
    expect(html).toContain('Contract sum 50 000,00, left to invoice 49 000,00');
    expect(html).toContain('of which travel 0,50 h');
    expect(html).toContain('2 open, 1 closed');
    expect(html).toContain('1 pending, 1 accepted, 0 declined');
  });

  it('without an estimate there is no bar', () => {
    const html = render(
      <StatisticsView
        statistics={{
          ...statistics,
          hours: { actual: '6.00', estimated: null, percent: null, travel: '0.00' },
          cost: { actual: '100.00', estimated: null, percent: null },
          activities: { done: 0, total: 0 },
        }}
      />,
    );
    expect(html).not.toContain('role="progressbar"');
    expect(html).toContain('No estimated hours set.');
    expect(html).toContain('No activities.');
  });

  it('bar widths stay within 0–100', () => {
    expect(barWidth('60.0')).toBe(60);
    expect(barWidth('250.0')).toBe(100);
    expect(barWidth('-5')).toBe(0);
    expect(barWidth(null)).toBe(0);
  });
});
