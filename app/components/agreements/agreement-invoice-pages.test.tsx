import { describe, expect, it } from 'vitest';
import AgreementInvoices from '~/app/routes/agreements.invoices';
import PriceAdjustment from '~/app/routes/agreements.price-adjustment';
import { englishRenderer } from '~/tests/helpers/render-ui';

/*
 * The agreement invoice page's three tabs and the price adjustment page, server-rendered in English
 * from loader data: the words, the chips, the empty states and the links a person would follow.
 */

const render = await englishRenderer(['agreementinvoices', 'invoices']);

const presets = {
  thisMonth: { from: '2026-11-01', to: '2026-11-30' },
  nextMonth: { from: '2026-12-01', to: '2026-12-31' },
  thisQuarter: { from: '2026-10-01', to: '2026-12-31' },
};
const base = { canHistory: true, canRun: true, presets, offset: 0, limit: 50, q: '', run: null };
const page = (loaderData: object) =>
  render(<AgreementInvoices {...({ loaderData } as unknown as Parameters<typeof AgreementInvoices>[0])} />);

describe('[agreements] the agreement invoice pages', () => {
  it('lists what is due with a chip for each, the period buttons and the run button', () => {
    const html = page({
      ...base,
      tab: 'upcoming',
      scheduled: null,
      history: null,
      upcoming: {
        from: '2026-11-01',
        to: '2026-11-30',
        totalCount: 2,
        invoices: [
          {
            objectAgreementId: 'oa1',
            businessObjectId: 'bo1',
            serialCode: 'LARM-1',
            customerName: 'Brf Linden',
            agreementCode: 'LARM-M',
            agreementTitle: 'Larmövervakning',
            periodFrom: '2026-11-01',
            periodTo: '2026-11-30',
            generateOn: '2026-11-01',
            amount: '395.00',
            skipReason: null,
          },
          {
            objectAgreementId: 'oa2',
            businessObjectId: 'bo2',
            serialCode: 'LARM-2',
            customerName: 'Brf Linden',
            agreementCode: 'LARM-M',
            agreementTitle: 'Larmövervakning',
            periodFrom: '2026-11-01',
            periodTo: '2026-11-30',
            generateOn: '2026-11-01',
            amount: '395.00',
            skipReason: 'OBJECT_INACTIVE',
          },
        ],
      },
    });
    expect(html).toContain('Agreement invoices');
    expect(html).toContain('Will be invoiced');
    expect(html).toContain('The object is inactive');
    expect(html).toContain('href="/inventory/objects/bo1?tab=agreement"');
    expect(html).toContain('Invoice this period');
    expect(html).toContain('href="?from=2026-12-01&amp;to=2026-12-31"');
    expect(html).toContain('Agreements with an invoice due by 2026-11-30: 2');
  });

  it('says so when nothing is due, and hides the run button from those who may not run it', () => {
    const html = page({
      ...base,
      canRun: false,
      tab: 'upcoming',
      scheduled: null,
      history: null,
      upcoming: { from: '2026-11-01', to: '2026-11-30', totalCount: 0, invoices: [] },
    });
    expect(html).toContain('No agreement invoices are due in this period.');
    expect(html).not.toContain('Invoice this period');
  });

  it('draws the coming months with a table beside the bars', () => {
    const months = Array.from({ length: 12 }, (_, i) => ({
      month: `2027-${String(i + 1).padStart(2, '0')}`,
      count: i === 0 ? 3 : 1,
      amount: i === 0 ? '1185.00' : '395.00',
    }));
    const html = page({
      ...base,
      tab: 'scheduled',
      upcoming: null,
      history: null,
      scheduled: { from: '2027-01-01', to: '2027-12-31', months },
    });
    expect(html).toContain('aria-label="Scheduled agreement invoices by month"');
    expect(html).toContain('Jan 2027');
    expect(html).toMatch(/>Total<\/th><td[^>]*>14<\/td><td[^>]*>5 530,00<\/td>/);
  });

  it('lists the invoices made with a totals row', () => {
    const html = page({
      ...base,
      tab: 'history',
      upcoming: null,
      scheduled: null,
      history: {
        startTime: '2026-11-01',
        endTime: '2026-11-30',
        totalCount: 1,
        totalPrice: '395.00',
        totalPriceVat: '493.75',
        invoices: [
          {
            id: 'inv1',
            invoiceNr: '1001',
            status: 'finalized',
            invoiceDate: '2026-11-01',
            periodFrom: '2026-11-01',
            periodTo: '2026-11-30',
            serialCode: 'LARM-1',
            businessObjectId: 'bo1',
            customerName: 'Brf Linden',
            agreementTitle: 'Larmövervakning',
            totalPrice: '395.00',
            totalPriceVat: '493.75',
            erpState: null,
          },
        ],
      },
    });
    expect(html).toContain('href="/invoices/inv1"');
    expect(html).toContain('Total, 1 invoices');
    expect(html).toContain('Not sent');
  });

  it('offers the agreement types to adjust and lists the adjustments made', () => {
    const html = render(
      <PriceAdjustment
        {...({
          loaderData: {
            types: [{ id: 't1', code: 'LARM-M', title: 'Larmövervakning', status: 'active', objectCount: 3 }],
            typesTotal: 1,
            today: '2026-11-25',
            defaultDate: '2027-01-01',
            adjustments: [
              {
                id: 'a1',
                percent: '2.50',
                effectiveFrom: '2027-01-01',
                appliedAt: null,
                agreements: 3,
                createdBy: 'Anna Admin',
                createdAt: '2026-11-25T10:00:00.000Z',
              },
            ],
          },
        } as unknown as Parameters<typeof PriceAdjustment>[0])}
      />,
    );
    expect(html).toContain('LARM-M – Larmövervakning');
    expect(html).toContain('value="2027-01-01"');
    expect(html).toContain('Waiting');
    expect(html).toContain('Preview');
  });
});
