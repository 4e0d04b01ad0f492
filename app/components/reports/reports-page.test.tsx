import { describe, expect, it } from 'vitest';
import Reports from '~/app/routes/reports';
import { englishRenderer } from '~/tests/helpers/render-ui';

/*
 * The reports page as a person reads it (server-rendered in English): each tab's filters, table,
 * chart and downloads, and the empty states. Every key the page asks for must exist.
 */

const render = await englishRenderer(['reports', 'customers', 'timetags']);

const week = { from: '2026-03-02', to: '2026-03-08' };
const base = {
  presets: [{ id: 'thisWeek', period: week }],
  closed: null,
  agreements: null,
  time: null,
  options: null,
  errors: null,
  exportError: null,
  offset: 0,
  limit: 50,
};
type PageProps = Parameters<typeof Reports>[0];
const page = (data: Record<string, unknown>) =>
  render(<Reports {...({ loaderData: { ...base, ...data }, params: {}, matches: [] } as unknown as PageProps)} />);

const options = {
  users: [{ id: 'u1', name: 'Erik Tekniker' }],
  workTypes: [{ id: 'w1', name: 'Service' }],
  customer: null,
};
const totals = { totalPrice: '0.00', workMinutes: 0, travelMinutes: 0 };

describe('[reports] the page', () => {
  it('lists closed work orders with links, sums and downloads', () => {
    const html = page({
      tab: 'closed',
      query: { startTime: '', endTime: '' },
      options,
      closed: {
        startTime: week.from,
        endTime: week.to,
        totalCount: 1,
        totals: { totalPrice: '1250.50', workMinutes: 90, travelMinutes: 30 },
        workOrders: [
          {
            id: 'wo-1',
            number: 'AO-1001',
            title: 'Service brandlarm',
            customerId: 'c1',
            customerName: 'Brf Solrosen',
            workTypeId: 'w1',
            workType: 'Service',
            closedAt: '2026-03-03T10:00:00.000Z',
            createUserName: 'Admin',
            assignees: [{ id: 'u1', name: 'Erik Tekniker' }],
            totalPrice: '1250.50',
            workMinutes: 90,
            travelMinutes: 30,
          },
        ],
      },
    });
    expect(html).toContain('href="/work-orders/wo-1"');
    expect(html).toContain('AO-1001');
    expect(html).toContain('Work orders: 1 · Work: 1:30 · Travel: 0:30 · Articles excl. VAT: 1 250,50');
    expect(html).toContain(
      'href="/reports/export?report=closed-work-orders&amp;tab=closed&amp;startTime=2026-03-02&amp;endTime=2026-03-08&amp;format=xlsx"',
    );
    expect(html).toContain('name="startTime"');
    expect(html).toContain('value="2026-03-02"');
    expect(html).toContain('>Erik Tekniker</option>');
  });

  it('says so when nothing was closed, and offers no download', () => {
    const html = page({
      tab: 'closed',
      query: { title: 'zzz' },
      options,
      closed: { startTime: week.from, endTime: week.to, totalCount: 0, totals, workOrders: [] },
    });
    expect(html).toContain('No closed work orders in this period match the filter.');
    expect(html).not.toContain('/reports/export');
  });

  it('shows a refused period as a message', () => {
    const html = page({
      tab: 'time',
      query: { startTime: '2024-01-01', endTime: '2025-06-01', groupBy: 'person' },
      errors: { endTime: ['ERROR_REPORT_PERIOD_TOO_LONG'] },
    });
    expect(html).toContain('role="alert"');
    expect(html).toContain('A report covers at most 366 days. Choose a shorter period.');
    expect(html).toContain('aria-invalid="true"');
  });

  it('draws the agreement invoices per month with the same numbers in the table', () => {
    const sum = { count: 2, totalPrice: '1500.00', totalPriceVat: '1875.00' };
    const html = page({
      tab: 'agreements',
      query: {},
      agreements: {
        startTime: '2026-03-01',
        endTime: '2026-03-31',
        ...sum,
        months: [{ month: '2026-03', ...sum }],
        types: [{ agreementId: 'a1', code: 'LARM', title: 'Larmavtal', ...sum }],
        rows: [{ agreementId: 'a1', code: 'LARM', title: 'Larmavtal', month: '2026-03', ...sum }],
      },
    });
    expect(html).toMatch(/role="img" aria-label="Agreement invoices per month[^"]*: Mar[^"]* 1 500,00"/);
    expect(html).toContain('LARM – Larmavtal');
    expect(html).toContain('>1 875,00<');
  });

  it('draws time per group and says when there is none', () => {
    const row = {
      workMinutes: 60,
      travelMinutes: 0,
      ownMinutes: 0,
      absenceMinutes: 480,
      totalMinutes: 540,
    };
    const html = page({
      tab: 'time',
      query: { groupBy: 'project' },
      time: {
        startTime: '2026-03-01',
        endTime: '2026-03-31',
        groupBy: 'project',
        totals: row,
        rows: [
          {
            id: 'noProject:',
            kind: 'noProject',
            key: null,
            label: null,
            tagType: null,
            tagCode: null,
            ...row,
            absenceMinutes: 0,
            totalMinutes: 60,
          },
          {
            id: 'tag:s',
            kind: 'tag',
            key: 's',
            label: null,
            tagCode: 'SEM',
            tagType: 'absence',
            ...row,
            workMinutes: 0,
            totalMinutes: 480,
          },
        ],
      },
    });
    expect(html).toContain(
      'role="img" aria-label="Total time per group (hours:minutes): Absence: Vacation 8:00, No project 1:00"',
    );
    expect(html).toContain('Total reported: 9:00 (hours:minutes)');
    const empty = page({
      tab: 'time',
      query: {},
      time: { startTime: '2026-03-01', endTime: '2026-03-31', groupBy: 'person', totals: row, rows: [] },
    });
    expect(empty).toContain('No time was reported in this period.');
  });
});
