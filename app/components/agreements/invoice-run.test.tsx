import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import { InvoiceRunPanel } from './invoice-run';
import { invoiceRunView, laterRun, RUN_REPORT_LINES, type InvoiceRunView } from './invoice-run-view';

/*
 * The agreement invoicing run's bar and report (issue 16 item 4), as a person reads them: the
 * progress bar while it goes, the report with each skipped agreement's reason and object once it
 * is over; and which of two answers about a run the page keeps.
 */

const render = await englishRenderer(['agreementinvoices', 'invoices']);

const run = (over: Partial<InvoiceRunView> = {}): InvoiceRunView => ({
  id: 'r1',
  status: 'running',
  untilDate: '2026-11-30',
  total: 40,
  done: 10,
  created: 9,
  workOrders: 2,
  error: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  finishedAt: null,
  startedBy: 'Anna Admin',
  skipped: [],
  skippedCount: 0,
  warnings: [],
  warningCount: 0,
  made: { invoices: [], workOrders: [] },
  ...over,
});

describe('[agreements] the invoicing run on the page', () => {
  it('links each invoice and service order the run made (issue 28 item 16)', () => {
    const html = render(
      <InvoiceRunPanel
        run={run({
          status: 'done',
          done: 40,
          created: 2,
          workOrders: 1,
          finishedAt: '2026-11-25T10:01:00.000Z',
          made: {
            invoices: [
              { id: 'inv-1', invoiceNr: '1041', customerName: 'Brf Eken' },
              { id: 'inv-2', invoiceNr: null, customerName: 'Oak Ltd' },
            ],
            workOrders: [{ id: 'wo-1', number: 'AO-77', title: 'Service larm – service visit week 48 2026' }],
          },
        })}
      />,
    );
    expect(html).toMatch(/<a[^>]*href="\/invoices\/inv-1"[^>]*>[^<]*1041 · Brf Eken/);
    expect(html).toMatch(/<a[^>]*href="\/invoices\/inv-2"[^>]*>[^<]*Draft · Oak Ltd/);
    expect(html).toMatch(
      /<a[^>]*href="\/work-orders\/wo-1"[^>]*>[^<]*AO-77 · Service larm – service visit week 48 2026/,
    );
  });

  it('shows a progress bar with done of total while it runs', () => {
    const html = render(<InvoiceRunPanel run={run()} />);
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-valuenow="10"');
    expect(html).toContain('aria-valuemax="40"');
    expect(html).toContain('10 of 40 agreements · invoices created: 9');
    expect(html).toContain('width:25%');
  });

  it('reports what was made, what was skipped and why with a link to the object, and the warnings', () => {
    const html = render(
      <InvoiceRunPanel
        run={run({
          status: 'done',
          done: 40,
          created: 38,
          finishedAt: '2026-11-25T10:01:00.000Z',
          skipped: [
            {
              objectAgreementId: 'oa1',
              serialCode: 'LARM-2',
              periodFrom: '2026-11-01',
              reason: 'OBJECT_INACTIVE',
              businessObjectId: 'bo1',
            },
          ],
          skippedCount: 1,
          warnings: [
            {
              objectAgreementId: 'oa2',
              serialCode: 'LARM-4',
              invoiceId: 'inv1',
              warning: 'CUSTOMER_SET_NOT_TO_SEND_TO_ERP',
              businessObjectId: 'bo2',
            },
          ],
          warningCount: 1,
        })}
      />,
    );
    expect(html).not.toContain('role="progressbar"');
    expect(html).toContain('Invoices created: 38');
    expect(html).toContain('Service work orders created: 2');
    expect(html).toContain('Skipped agreements: 1');
    expect(html).toContain('href="/inventory/objects/bo1?tab=agreement"');
    expect(html).toContain('the object is inactive');
    expect(html).toContain('Warnings: 1');
    expect(html).toContain('href="/invoices/inv1"');
  });

  it('cuts a long report and keeps the furthest answer about a run', () => {
    const many = Array.from({ length: RUN_REPORT_LINES + 5 }, (_, i) => ({
      objectAgreementId: `oa${i}`,
      serialCode: `S-${i}`,
      periodFrom: null,
      reason: 'CUSTOMER_MISSING' as const,
      businessObjectId: null,
    }));
    const view = invoiceRunView({ ...run(), skipped: many, warnings: [] })!;
    expect(view.skipped).toHaveLength(RUN_REPORT_LINES);
    expect(view.skippedCount).toBe(RUN_REPORT_LINES + 5);
    expect(render(<InvoiceRunPanel run={{ ...view, status: 'done' }} />)).toContain('…and 5 more');

    const ahead = run({ done: 20 });
    expect(laterRun(ahead, run({ done: 10 }))).toBe(ahead);
    const finished = run({ status: 'done', done: 40 });
    expect(laterRun(ahead, finished)).toBe(finished);
    expect(laterRun(finished, run({ status: 'running', done: 39 }))).toBe(finished);
    const newer = run({ id: 'r2', createdAt: '2026-11-25T11:00:00.000Z', status: 'queued', done: 0 });
    expect(laterRun(finished, newer)).toBe(newer);
    expect(laterRun(null, null)).toBeNull();
  });
});
