import type { ComponentProps } from 'react';
import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import type { DashboardKpis } from '~/core/dashboard/kpi.service';
import Dashboard from './dashboard';

/** Server-render test of the dashboard's agreement card (issue 28 item 19: "made this month: 7, 9 585,00"). */
const render = await englishRenderer([]);

const kpis: DashboardKpis = {
  openWorkOrders: 12,
  toInvoice: { count: 3, total: '4500.00' },
  leadTimeDays: 4.5,
  newObjects: 2,
  agreementInvoicing: { due: { count: 5, amount: '12000.00' }, invoiced: { count: 7, amount: '9585.00' } },
};

describe('[dashboard] agreement invoicing card', () => {
  it('says what the amount made this month is, not a bare number beside the count', () => {
    const html = render(
      <Dashboard {...({ loaderData: kpis, params: {}, matches: [] } as unknown as ComponentProps<typeof Dashboard>)} />,
    );
    expect(html).toMatch(/made this month: 7, totalling 9\s585,00 excl\. VAT/);
    expect(html).toMatch(/To make this month, 12\s000,00 excl\. VAT/);
  });
});
