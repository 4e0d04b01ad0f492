import type { ComponentProps } from 'react';
import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import type { PayrollPreview } from '~/core/time-reports/payroll/payroll.service';
import PayrollPage from './time.payroll';

/** Server-render test of the payroll page (issue 17 part 5): the preview, the lock notice, the downloads. */
const render = await englishRenderer(['payroll']);

const preview = (over: Partial<PayrollPreview> = {}): PayrollPreview => ({
  month: '2026-03',
  from: '2026-03-01',
  to: '2026-03-31',
  locked: true,
  people: [
    {
      userId: 'u1',
      name: 'Tess Tekniker',
      employeeNumber: '1001',
      employeeNumberMissing: false,
      work: [
        { code: 'ARB', hours: 18 },
        { code: 'RE1', hours: 0.5 },
      ],
      absence: [{ code: 'SEM', hours: 16 }],
      compensation: [{ code: '811', kind: 'compensation', unit: 'day', quantity: 2, amount: 580 }],
      totals: { workHours: 18.5, absenceHours: 16, amount: 580, distanceKm: 0 },
    },
    {
      userId: 'u2',
      name: 'Anna Admin',
      employeeNumber: 'u2',
      employeeNumberMissing: true,
      work: [{ code: 'ARB', hours: 5 }],
      absence: [],
      compensation: [{ code: '821', kind: 'distance', unit: 'km', quantity: 52.4, amount: 131 }],
      totals: { workHours: 5, absenceHours: 0, amount: 131, distanceKm: 52.4 },
    },
  ],
  totals: { people: 2, workHours: 23.5, absenceHours: 16, amount: 711, distanceKm: 52.4 },
  missingEmployeeNumbers: 1,
  ...over,
});

const page = (d: PayrollPreview) =>
  render(
    <PayrollPage {...({ loaderData: d, params: {}, matches: [] } as unknown as ComponentProps<typeof PayrollPage>)} />,
  );

describe('[payroll] payroll page', () => {
  it('shows a locked month per person with its totals and both downloads', () => {
    const html = page(preview());
    expect(html).toContain('Payroll export');
    expect(html).toContain('March 2026 is locked');
    expect(html).toContain('href="/time/payroll/export?month=2026-03&amp;format=paxml"');
    expect(html).toContain('href="/time/payroll/export?month=2026-03&amp;format=csv"');
    expect(html).toContain('Employee no. 1001');
    expect(html).toContain('No employee number');
    expect(html).toContain('People without an employee number: 1.');
    expect(html).toContain('18,50 h');
    expect(html).toContain('52,40 km · 131,00');
    expect(html).toContain('711,00');
    expect(html).not.toMatch(/<button[^>]*\sdisabled=""/);
  });

  it('says why an open month cannot be exported, with the downloads off', () => {
    const html = page(preview({ locked: false }));
    expect(html).toContain('The month is not locked');
    expect(html).toContain('March 2026 is not locked');
    expect(html).not.toContain('/time/payroll/export');
    expect(html.match(/<button[^>]*\sdisabled=""[^>]*>/g)?.length).toBe(2);
    // the reason is tied to the buttons
    expect(html.match(/<button[^>]*aria-describedby="[^"]+"[^>]*>/g)?.length).toBe(2);
  });

  it('has an empty state', () => {
    const html = page(
      preview({
        people: [],
        missingEmployeeNumbers: 0,
        totals: { people: 0, workHours: 0, absenceHours: 0, amount: 0, distanceKm: 0 },
      }),
    );
    expect(html).toContain('No time, absence or compensation was reported in March 2026.');
    expect(html).not.toContain('<table');
  });
});
