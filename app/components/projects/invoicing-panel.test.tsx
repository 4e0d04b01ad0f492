import { describe, expect, it } from 'vitest';
import type { ProjectInvoicingRowView, ProjectInvoicingView } from '~/core/projects/project-invoice.service';
import { englishRenderer } from '~/tests/helpers/render-ui';
import { InvoicingContent, partPreview, typedPercent } from './invoicing-panel';

/** Server-render tests of the project's invoicing tab, in English, every key present; the dialog's preview. */
const render = await englishRenderer(['projects', 'invoices']);

const row = (over: Partial<ProjectInvoicingRowView>): ProjectInvoicingRowView => ({
  kind: 'workOrder',
  id: 'w1',
  projectId: 'p1',
  workOrderId: 'w1',
  workOrderNumber: 12,
  workOrderTitle: 'Kortläsare',
  workOrderClosed: false,
  title: '#12 Kortläsare',
  description: null,
  articleId: null,
  articleNumber: null,
  quantity: '1.50',
  unit: 'h',
  price: '500.00',
  discountType: null,
  discountValue: null,
  total: '750.00',
  status: 'open',
  ownStatus: null,
  extraWork: null,
  invoiceId: null,
  invoiceNr: null,
  invoiceStatus: null,
  canMarkIncluded: true,
  invoiceable: true,
  ...over,
});

const view: ProjectInvoicingView = {
  project: { id: 'p1', number: 1001, title: 'Passersystem', status: 'ongoing' },
  totals: {
    contractSum: '100000.00',
    invoiced: '30000.00',
    leftToInvoice: '71350.00',
    backlog: '1350.00',
    contractLeft: '70000.00',
    contractUnplanned: '70000.00',
    pendingExtraWork: '1000.00',
    draftCount: 0,
  },
  rows: [
    row({}),
    row({
      kind: 'article',
      id: 'a1',
      title: 'Kortläsare KL-1',
      articleNumber: 'KL-1',
      quantity: '2',
      unit: 'st',
      price: '300.00',
      total: '600.00',
    }),
    row({ id: 'w2', title: '#13 ÄTA kamera', extraWork: 'pending', invoiceable: false, total: '1000.00' }),
    row({
      id: 'w3',
      title: '#14 Montage',
      status: 'invoiced',
      invoiceId: 'i1',
      invoiceNr: '1042',
      canMarkIncluded: false,
      invoiceable: false,
    }),
  ],
  invoices: [
    {
      id: 'i1',
      status: 'finalized',
      invoiceNr: '1042',
      invoiceDate: '2026-03-10',
      marking: null,
      customerName: 'Fastighets AB Eken',
      percent: '30',
      rest: false,
      withBacklog: true,
      contractAmount: '30000.00',
      backlogAmount: '750.00',
      totalPrice: '30750.00',
      totalPriceVat: '38438.00',
      erp: 'queued',
      externalInvoiceNr: null,
      errorCode: null,
      version: 2,
    },
  ],
  customer: { id: 'c1', name: 'Fastighets AB Eken', customerNumber: '30001' },
  canEdit: true,
  canCloseNegative: false,
  erpName: 'Fortnox',
};

describe('[projects] invoicing tab', () => {
  it('shows the totals, the rows with their status and extra work, and the invoices with their ERP state', () => {
    const html = render(<InvoicingContent projectId="p1" canEdit data={view} />);
    expect(html).toContain('Contract sum');
    expect(html).toContain('100 000,00');
    expect(html).toContain('Left to invoice');
    expect(html).toContain('71 350,00');
    expect(html).toContain('Invoiced customer: Fastighets AB Eken (30001)');
    expect(html).toContain('#12 Kortläsare');
    expect(html).toContain('Extra work: pending');
    expect(html).toContain('On invoice 1042');
    expect(html).toContain('aria-label="Included: #12 Kortläsare"');
    // an invoiced row offers no marking
    expect(html).not.toContain('aria-label="Included: #14 Montage"');
    expect(html).toContain('href="/invoices/i1"');
    expect(html).toContain('30 %');
    expect(html).toContain('aria-label="Reopen invoice 1042"');
    expect(html).toContain('New part invoice');
  });

  it('says pending extra work awaits approval, not that it is uninvoiced, and shows its amount apart', () => {
    const html = render(<InvoicingContent projectId="p1" canEdit data={view} />);
    expect(html).toContain('Extra work awaiting approval');
    expect(html).toContain('Awaiting approval – not invoiced yet');
    // the pending row is the only one awaiting approval; the open rows are uninvoiced (backlog)
    expect(html.match(/Awaiting approval – not invoiced yet/g)).toHaveLength(1);
  });

  it('without projects:edit shows no buttons', () => {
    const html = render(<InvoicingContent projectId="p1" canEdit={false} data={view} />);
    expect(html).not.toContain('New part invoice');
    expect(html).not.toContain('aria-label="Included:');
    expect(html).not.toContain('Reopen');
  });
});

describe('[projects] the new part invoice preview', () => {
  it('takes a percentage of the contract sum, or the rest, plus the invoiceable backlog', () => {
    expect(partPreview(view, { percent: '33,33', rest: false, withBacklog: false })).toMatchObject({
      contract: '33330.00',
      total: '33330.00',
      exceeds: false,
      valid: true,
    });
    expect(partPreview(view, { percent: '', rest: true, withBacklog: true })).toMatchObject({
      contract: '70000.00',
      backlog: '1350.00',
      total: '71350.00',
      valid: true,
    });
    expect(partPreview(view, { percent: '80', rest: false, withBacklog: false })).toMatchObject({ exceeds: true });
    expect(partPreview(view, { percent: '', rest: false, withBacklog: false }).valid).toBe(false);
    expect(partPreview(view, { percent: 'x', rest: false, withBacklog: true }).valid).toBe(false);
  });

  it('reads a typed percentage with a comma, two decimals at most', () => {
    expect(typedPercent('33,33')).toBe(33.33);
    expect(typedPercent('100')).toBe(100);
    expect(typedPercent('0')).toBeNull();
    expect(typedPercent('101')).toBeNull();
    expect(typedPercent('33,333')).toBeNull();
  });
});
