import type { ComponentProps } from 'react';
import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import type { DashboardCards } from '~/core/dashboard/kpi.service';
import { periodRange } from '~/core/dashboard/dashboard-period';
import Dashboard from './dashboard';

/** Server-render tests of the dashboard's cards (issue 36 item 1; decision 062). */
const render = await englishRenderer([]);

const months = ['2026-10', '2026-11'];
const trend = (values: number[]) => months.map((month, i) => ({ month, value: values[i] ?? 0 }));
const cards: DashboardCards = {
  period: periodRange('2m', '2026-11-20'),
  settings: { pricePerHour: '800.00', debitFactor: '1.250' },
  openToInvoice: { value: '2000.00', minutes: 120, openOrders: 2, trend: trend([0, 2000]) },
  agreementInvoicing: {
    amount: '9585.00',
    count: 7,
    due: { count: 5, amount: '12000.00' },
    trend: trend([100, 9485]),
  },
  openProjects: { count: 2, leftToInvoice: '11000.00', invoiced: '4000.00', trend: trend([4000, 0]) },
  leadTime: { days: 4.5, closed: 3, trend: trend([4, 5]) },
  accruedIncome: { value: '1500.00', orders: 1, trend: trend([1500, 0]) },
  invoicedVsNot: { invoiced: 3, notInvoiced: 1, trend: trend([100, 50]) },
  objects: { added: 2, lost: 1, trend: trend([1, 1]), lostTrend: trend([0, 1]) },
  supplierOrdersInError: { count: 4, trend: trend([1, 3]) },
};

const html = () =>
  render(
    <Dashboard {...({ loaderData: cards, params: {}, matches: [] } as unknown as ComponentProps<typeof Dashboard>)} />,
  );

describe('[dashboard] cards', () => {
  it('shows every card of the spec with its figure', () => {
    const page = html();
    for (const label of [
      'Open work orders to invoice',
      'Agreement invoicing',
      'Open projects, left to invoice',
      'Lead time',
      'Accrued income',
      'Invoiced vs not invoiced',
      'New and lost objects',
      'Supplier orders with wrong work-order reference',
    ])
      expect(page).toContain(label);
    expect(page).toMatch(/Open work orders to invoice<\/p><p[^>]*>2\s000,00<\/p>/);
    expect(page).toMatch(/Open orders: 2\. 2,0 h reported in the period × 800,00 an hour × debit factor 1,25/);
    expect(page).toMatch(/Supplier orders with wrong work-order reference<\/p><p[^>]*>4<\/p>/);
    expect(page).toMatch(/\+2 \/ −1/);
    expect(page).toMatch(/4,5 days/);
  });

  it('says what the agreement amounts are, not bare numbers', () => {
    expect(html()).toMatch(/made in the period: 7, excl\. VAT\. Due this month: 5, 12\s000,00 excl\. VAT/);
  });

  it('draws each trend as a chart whose name reads out its months, and marks the chosen period', () => {
    const page = html();
    expect(page.match(/data-testid="column-chart"/g)).toHaveLength(8);
    expect(page).toMatch(/aria-label="Value per month: [^"]*2\s000,00"/);
    expect(page).toMatch(/aria-current="page"[^>]*>Last 2 months</);
    expect(page).toContain('href="/dashboard?period=year"');
  });
});
