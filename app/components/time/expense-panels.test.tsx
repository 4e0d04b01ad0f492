import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import type { CompensationTag } from '~/core/time-reports/compensation-tags.service';
import type { CompensationReport } from '~/core/time-reports/compensation.service';
import type { DistanceReport } from '~/core/time-reports/distance.service';
import { CompensationPanel } from './compensation-panel';
import { DistancePanel } from './distance-panel';

/** Server-render tests of the week page's mileage and compensation panels, in English, every key present. */
const render = await englishRenderer(['expenses']);

const days = ['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29'];
const tag = (id: string, code: string, type: CompensationTag['type'], unitPrice: number | null): CompensationTag => ({
  id,
  code,
  name: null,
  type,
  unitPrice,
  payrollCode: null,
  active: true,
  sortOrder: 0,
});
const tags = [
  tag('t821', '821', 'distance', 2.5),
  tag('t811', '811', 'travel', 290),
  tag('t892', '892', 'expense', null),
];

const trip = (patch: Partial<DistanceReport>): DistanceReport => ({
  id: 'd1',
  userId: 'u1',
  date: '2026-11-24',
  vehicle: '',
  readingKm: null,
  reportedDistanceKm: 0,
  previousReadingKm: null,
  tagId: null,
  tagCode: null,
  comment: null,
  locked: false,
  ...patch,
});

const compensation = (patch: Partial<CompensationReport>): CompensationReport => ({
  id: 'c1',
  userId: 'u1',
  tagId: 't892',
  tagCode: '892',
  tagName: null,
  tagType: 'expense',
  date: '2026-11-25',
  comment: null,
  quantity: 1,
  amount: 0,
  data: { quantity: 1, amount: 0, receiptFileIds: [] },
  receipts: [],
  locked: false,
  ...patch,
});

describe('[time] mileage panel', () => {
  it('lists the week’s trips with their readings, allowance and total; a locked trip cannot change', () => {
    const html = render(
      <DistancePanel
        year={2026}
        week={48}
        userId="u1"
        days={days}
        tags={tags}
        lastReading={{ readingKm: 10050.5, date: '2026-11-24', vehicle: '' }}
        canEdit
        rows={[
          trip({
            id: 'd1',
            readingKm: 10050.5,
            previousReadingKm: 10000,
            reportedDistanceKm: 50.5,
            tagId: 't821',
            comment: 'Kund i Solna',
          }),
          trip({ id: 'd2', date: '2026-11-26', vehicle: 'ABC 123', reportedDistanceKm: 18, locked: true }),
        ]}
      />,
    );
    expect(html).toContain('Mileage');
    expect(html).toContain('Add trip');
    expect(html).toContain('Tue 2026-11-24');
    expect(html).toContain('50,5 km');
    expect(html).toContain('Odometer 10 000 → 10 050,5');
    expect(html).toContain('821 · Mileage allowance, own car, tax-free');
    expect(html).toContain('Kund i Solna');
    expect(html).toContain('ABC 123');
    expect(html).toContain('Locked period');
    expect(html).toContain('Total this week');
    expect(html).toContain('68,5 km');
    expect(html).toContain('Change the trip of Tue 2026-11-24');
    expect(html).not.toContain('Change the trip of Thu 2026-11-26');
  });

  it('says when there are no trips, and offers nothing to change without the right', () => {
    const html = render(
      <DistancePanel year={2026} week={48} userId="u1" days={days} tags={tags} rows={[]} canEdit={false} />,
    );
    expect(html).toContain('No trips this week.');
    expect(html).not.toContain('Add trip');
    expect(html).toContain('0 km');
  });
});

describe('[time] compensation panel', () => {
  it('lists compensations with their type, quantity, amount and receipts, and the week’s total', () => {
    const html = render(
      <CompensationPanel
        year={2026}
        week={48}
        userId="u1"
        days={days}
        tags={tags}
        canEdit
        rows={[
          compensation({ id: 'c1', tagId: 't811', tagCode: '811', tagType: 'travel', quantity: 2, amount: 580 }),
          compensation({
            id: 'c2',
            amount: 123.45,
            comment: 'Parkering',
            receipts: [{ id: 'f1', name: 'kvitto.pdf', contentType: 'application/pdf', size: 10 }],
          }),
        ]}
      />,
    );
    expect(html).toContain('Compensation and expenses');
    expect(html).toContain('811 · Subsistence allowance, full day, tax-free');
    expect(html).toContain('Days: 2');
    expect(html).toContain('580,00');
    expect(html).toContain('892 · Expense (outlay)');
    expect(html).toContain('Parkering');
    expect(html).toContain('href="/api/timereports/compensation/receipt/f1"');
    expect(html).toContain('kvitto.pdf');
    expect(html).toContain('703,45');
    expect(html).toContain('Delete 892 · Expense (outlay) of Wed 2026-11-25');
  });

  it('says when there is nothing this week', () => {
    const html = render(
      <CompensationPanel year={2026} week={48} userId="u1" days={days} tags={tags} rows={[]} canEdit />,
    );
    expect(html).toContain('No compensation this week.');
    expect(html).toContain('Add compensation');
  });
});
