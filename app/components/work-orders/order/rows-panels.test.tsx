import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import type { ArticlesPanelData } from '~/core/work-orders/articles.service';
import type { TimePanelData } from '~/core/work-orders/time.service';
import { ArticlesPanel } from './articles-panel';
import { TimePanel } from './time-panel';

/** Server-render tests of the order screen's article and time panels, in English, every key present. */
const render = await englishRenderer(['articles', 'workorderrows']);

const articles = (canReadCost: boolean): ArticlesPanelData => ({
  rows: [
    {
      id: 'r1',
      articleId: 'a1',
      articleNumber: '1001',
      title: 'Rörelsedetektor',
      description: null,
      unit: 'st',
      lineType: 'regular',
      amount: '3.000',
      price: '1000.00',
      discountType: 'PERCENTAGE',
      discountValue: '10.00',
      discount: '10%',
      total: '2700.00',
      purchasePrice: canReadCost ? '600.00' : null,
      purchaseTotal: canReadCost ? '1800.00' : null,
      margin: canReadCost ? '900.00' : null,
      ref: null,
    },
  ],
  totals: {
    net: '2700.00',
    purchase: canReadCost ? '1800.00' : null,
    margin: canReadCost ? '900.00' : null,
    marginPercent: canReadCost ? '33.33' : null,
  },
  canReport: true,
  canReadCost,
});

describe('[work orders] articles panel', () => {
  it('shows rows with totals, and purchase price and margin with read_cost', () => {
    const html = render(
      <ArticlesPanel workOrderId="w1" customerId="c1" businessObjectId={null} data={articles(true)} editable />,
    );
    expect(html).toContain('1001 – Rörelsedetektor');
    expect(html).toContain('2 700,00');
    expect(html).toContain('Purchase price');
    expect(html).toContain('600,00');
    expect(html).toContain('900,00 (33,33 %)');
    expect(html).toContain('value="3"');
    // the discount shows its unit: "10" with the switch on percent, and the amount choice per the row's unit
    expect(html).toMatch(/value="10"\/><select aria-label="[^"]*Discount[^"]*: percent or amount"[^>]*><option value="percent" selected="">%<\/option><option value="amount">kr\/st</);
    expect(html).toContain('Add article');
  });

  it('hides cost without read_cost and editing on a closed order', () => {
    const html = render(
      <ArticlesPanel
        workOrderId="w1"
        customerId={null}
        businessObjectId={null}
        data={articles(false)}
        editable={false}
      />,
    );
    expect(html).toContain('2 700,00');
    expect(html).not.toContain('Purchase price');
    expect(html).not.toContain('600,00');
    expect(html).not.toContain('Add article');
    expect(html).not.toContain('Remove 1001');
  });
});

const time: TimePanelData = {
  rows: [
    {
      id: 't1',
      userId: 'u1',
      userName: 'Tess Tekniker',
      date: '2026-03-05',
      startTs: '2026-03-05T07:30:00.000Z',
      endTs: '2026-03-05T11:45:00.000Z',
      workMinutes: 255,
      travelMinutes: 30,
      distanceKm: 12.5,
      comment: 'Bytte detektor',
      locked: false,
    },
    {
      id: 't2',
      userId: 'u1',
      userName: 'Tess Tekniker',
      date: '2026-02-02',
      startTs: null,
      endTs: null,
      workMinutes: 135,
      travelMinutes: 0,
      distanceKm: 0,
      comment: null,
      locked: true,
    },
  ],
  totals: { workMinutes: 390, travelMinutes: 30, distanceKm: 12.5 },
  users: [{ id: 'u1', name: 'Tess Tekniker' }],
  canReport: true,
};

describe('[work orders] time panel', () => {
  it('shows start–end in the tenant zone, hours, travel, distance and totals; a locked row has no actions', () => {
    const html = render(
      <TimePanel workOrderId="w1" data={time} editable currentUserId="u1" timeZone="Europe/Stockholm" />,
    );
    expect(html).toContain('08:30–12:45 (4:15)');
    expect(html).toContain('2:15 h');
    expect(html).toContain('Travel 0:30');
    expect(html).toContain('12,5 km');
    expect(html).toContain('6:30');
    expect(html).toContain('Locked period');
    expect(html).toContain('Edit the time of Tess Tekniker on 2026-03-05');
    expect(html).not.toContain('Edit the time of Tess Tekniker on 2026-02-02');
    expect(html).toContain('Report time');
  });

  it('offers no reporting when the order cannot change', () => {
    const html = render(<TimePanel workOrderId="w1" data={time} editable={false} currentUserId="u1" />);
    expect(html).not.toContain('Report time');
    expect(html).not.toContain('Edit the time of');
  });
});
