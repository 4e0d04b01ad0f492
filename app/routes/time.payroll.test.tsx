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
      employeeNumber: '1002',
      work: [{ code: 'ARB', hours: 5 }],
      absence: [],
      compensation: [{ code: '821', kind: 'distance', unit: 'km', quantity: 52.4, amount: 131 }],
      totals: { workHours: 5, absenceHours: 0, amount: 131, distanceKm: 52.4 },
    },
  ],
  totals: { people: 2, workHours: 23.5, absenceHours: 16, amount: 711, distanceKm: 52.4 },
  notApproved: [],
  missingEmployeeNumbers: [],
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
    expect(html).not.toContain('Employee number missing');
    expect(html).not.toContain('Not approved');
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

  it('names who is left out as not approved, with the way to the approval', () => {
    const html = page(preview({ notApproved: [{ userId: 'u3', name: 'Olle Oattesterad' }] }));
    expect(html).toContain('Not approved (1)');
    expect(html).toContain('Olle Oattesterad');
    expect(html).toContain('Their time in March 2026 is not approved and is left out of the payroll.');
    expect(html).toContain('href="/time/office?year=2026&amp;month=3"');
    // the others can still be exported
    expect(html).toContain('href="/time/payroll/export?month=2026-03&amp;format=paxml"');
  });

  it('blocks the downloads while someone in the file has no employee number, and links to them', () => {
    const people = preview().people.map((p) => (p.userId === 'u2' ? { ...p, employeeNumber: null } : p));
    const html = page(preview({ people, missingEmployeeNumbers: [{ userId: 'u2', name: 'Anna Admin' }] }));
    expect(html).toContain('Employee number missing (1)');
    expect(html).toContain('No employee number');
    expect(html).toContain('href="/settings/users/u2"');
    expect(html).toContain('Anna Admin: set employee number');
    expect(html).not.toContain('/time/payroll/export');
    // both downloads off, and they say why
    const buttons = html.match(/<button[^>]*\sdisabled=""[^>]*>/g) ?? [];
    expect(buttons.length).toBe(2);
    const describedBy = /aria-describedby="([^"]+)"/.exec(buttons[0]!)?.[1];
    expect(describedBy).toBeTruthy();
    expect(html).toMatch(new RegExp(`id="${describedBy}"[^>]*>[^]*Employee number missing`));
  });

  it('has an empty state', () => {
    const html = page(
      preview({
        people: [],
        totals: { people: 0, workHours: 0, absenceHours: 0, amount: 0, distanceKm: 0 },
      }),
    );
    expect(html).toContain('No time, absence or compensation was reported in March 2026.');
    expect(html).not.toContain('<table');
  });
});
