import { describe, expect, it } from 'vitest';
import type { InvoiceView } from '~/core/invoicing/invoice.service';
import { englishRenderer } from '~/tests/helpers/render-ui';
import { draftErrors, draftFigures, toDraft, toPayload } from './invoice-draft';
import { erpStatusOf, orderInvoiceSummary, type InvoiceListRow } from './invoice-format';
import { InvoiceHistoryList } from './invoice-history';
import { InvoiceListPage, type InvoiceListData } from './invoice-list';
import { InvoiceScreen } from './invoice-screen';
import { OrderInvoiceLink } from './order-invoice-link';

/** Server-render tests of the invoice list, the invoice screen and the order screens' invoice link. */
const render = await englishRenderer(['invoices']);

const listRow = (over: Partial<InvoiceListRow>): InvoiceListRow => ({
  id: '00000000-0000-4000-8000-000000000001',
  status: 'finalized',
  invoiceNr: '1001',
  invoiceDate: '2026-11-10',
  paymentDueDate: '2026-11-30',
  customerName: 'Brf Eken',
  customerNumber: '30001',
  source: '#42',
  totalPrice: '1000.00',
  totalPriceVat: '1250.00',
  toPay: '1250.00',
  erp: 'none',
  externalInvoiceNr: null,
  errorCode: null,
  sourceHref: '/work-orders/00000000-0000-4000-8000-0000000000aa',
  ...over,
});

const listData = (over: Partial<InvoiceListData> = {}): InvoiceListData => ({
  invoices: [
    listRow({ erp: 'delivered', externalInvoiceNr: 'FX-9001' }),
    listRow({
      id: '00000000-0000-4000-8000-000000000002',
      status: 'draft',
      invoiceNr: null,
      customerName: 'Anna Privat',
      source: 'S7',
      sourceHref: null,
      totalPriceVat: '3503.00',
      toPay: '3077.00',
      erp: 'failed',
      errorCode: 'ERP_UNREACHABLE',
    }),
  ],
  hasMore: true,
  erpName: 'Fortnox',
  filters: { status: 'all', erp: 'all', q: '', from: '', to: '' },
  offset: 0,
  ...over,
});

const invoice = (over: Partial<InvoiceView> = {}): InvoiceView => ({
  id: '00000000-0000-4000-8000-000000000010',
  status: 'finalized',
  invoiceNr: '1001',
  invoiceSequence: 1001,
  invoiceDate: '2026-11-10',
  deliveryDate: '2026-11-09',
  paymentDueDate: '2026-11-30',
  paymentTermDays: 20,
  marking: 'Hus B',
  description: null,
  footerText: 'Tack för uppdraget',
  ourReference: 'Olga Kontor',
  yourReference: 'Per Styrelse',
  customerOrderNumber: 'PO-77',
  ocr: '100134',
  bgAccount: '123-4567',
  bankAccount: null,
  currency: 'SEK',
  reverseVat: false,
  vatPercentage: '25.00',
  taxReduction: { kind: 'ROT', propertyDesignation: 'Stockholm Eken 1:2', housingOrgNr: null, persons: [] },
  figures: {
    net: '2817.50',
    vat: [
      { percent: '25', base: '2717.50', vat: '679.38' },
      { percent: '6', base: '100.00', vat: '6.00' },
    ],
    vatTotal: '685.38',
    rounding: '0.12',
    total: '3503.00',
    taxReduction: { kind: 'ROT', base: '1421.88', computed: '426.00', amount: '426.00', capped: false },
    toPay: '3077.00',
  },
  totalPrice: '2817.50',
  totalPriceVat: '3503.00',
  erpReferenceId: null,
  erpReference: { externalId: null },
  erpState: null,
  externalInvoiceNr: null,
  delivery: null,
  source: { type: 'workOrder', id: '00000000-0000-4000-8000-0000000000aa', number: '42', title: 'Service av larm' },
  customer: {
    id: '00000000-0000-4000-8000-0000000000cc',
    customerId: '30001',
    name: 'Brf Eken',
    sendToErp: true,
    invoiceEmail: 'faktura@eken.se',
  },
  articles: [
    {
      id: 'r1',
      kind: 'article',
      articleId: null,
      articleNumber: 'DET-1',
      articleTitle: 'Rörelsedetektor',
      articleDescription: null,
      unit: 'st',
      amount: '3.00',
      price: '200.00',
      discountType: 'PERCENTAGE',
      discountValue: '10.00',
      totalPrice: '540.00',
      vatPercent: '25',
      work: 'material',
      type: 'material',
      green: null,
      isText: false,
      comment: null,
      userId: null,
    },
    {
      id: 'r2',
      kind: 'labour',
      articleId: null,
      articleNumber: 'ARB',
      articleTitle: 'Arbete',
      articleDescription: 'Tess Tekniker',
      unit: 'h',
      amount: '1.75',
      price: '650.00',
      discountType: null,
      discountValue: null,
      totalPrice: '1137.50',
      vatPercent: '25',
      work: 'labour',
      type: 'labour',
      green: null,
      isText: false,
      comment: null,
      userId: null,
    },
    {
      id: 'r3',
      kind: 'text',
      articleId: null,
      articleNumber: null,
      articleTitle: 'Utfört enligt avtal',
      articleDescription: null,
      unit: null,
      amount: '0.00',
      price: '0.00',
      discountType: null,
      discountValue: null,
      totalPrice: '0.00',
      vatPercent: '25',
      work: 'material',
      type: 'material',
      green: null,
      isText: true,
      comment: 'Utfört enligt avtal',
      userId: null,
    },
  ],
  data: {},
  createTs: '2026-11-10T08:00:00.000Z',
  version: 3,
  unlinked: false,
  canEdit: false,
  canApply: true,
  applyTypes: ['pdf', 'email'],
  erpName: 'Fortnox',
  ...over,
});

const draft = (over: Partial<InvoiceView> = {}) =>
  invoice({ status: 'draft', invoiceNr: null, invoiceSequence: null, ocr: null, canEdit: true, ...over });

describe('[invoicing] the invoice list', () => {
  it('renders its filters and a row per invoice with its number, order, totals and ERP state', () => {
    const html = render(<InvoiceListPage data={listData()} />);
    for (const label of ['Status', 'ERP', 'Search']) expect(html).toContain(`>${label}</label>`);
    // The dates are the kit's date field: a labelled group that posts the ISO date under its name.
    for (const [label, name] of [
      ['Invoice date from', 'from'],
      ['Invoice date to', 'to'],
    ]) {
      expect(html).toContain(`>${label}</span>`);
      expect(html).toContain(`name="${name}" value=""`);
    }
    for (const option of ['All', 'Draft', 'Final', 'Void', 'Not sent', 'Queued', 'In the ERP', 'Failed'])
      expect(html).toContain(`>${option}</option>`);
    expect(html).toContain('href="/invoices/00000000-0000-4000-8000-000000000001"');
    expect(html).toContain('>1001</a>');
    expect(html).toContain('href="/work-orders/00000000-0000-4000-8000-0000000000aa"');
    expect(html).toContain('Brf Eken');
    expect(html).toContain('1 250,00');
    expect(html).toContain('In the ERP · no. FX-9001');
    // the draft: no number, its order not a link (the viewer may not open it), the error's message
    expect(html).toContain('>Draft</a>');
    expect(html).toContain('S7');
    expect(html).toContain('Failed: The ERP is not answering right now. It is tried again automatically.');
    expect(html).toContain('3 077,00');
    expect(html).toContain('Show more');
    // a card per invoice for a phone, a table for larger screens
    expect(html.match(/data-testid="invoice-row"/g)).toHaveLength(2);
    expect(html).toMatch(/<ul class="space-y-2 sm:hidden"/);
  });

  it('lets a failed ERP badge wrap inside its cell instead of being clipped (issue 28 item 18)', () => {
    const html = render(<InvoiceListPage data={listData()} />);
    const badges = [...html.matchAll(/<span class="([^"]*)" data-testid="erp-badge">/g)].map((m) => m[1]!.split(' '));
    expect(badges.length).toBeGreaterThan(0);
    for (const classes of badges) {
      expect(classes).toContain('whitespace-normal');
      expect(classes).not.toContain('whitespace-nowrap');
    }
  });

  it('says so when nothing matches, and offers to clear the filters', () => {
    const html = render(
      <InvoiceListPage
        data={listData({
          invoices: [],
          hasMore: false,
          filters: { status: 'draft', erp: 'failed', q: '1001', from: '2026-01-01', to: '' },
        })}
      />,
    );
    expect(html).toContain('No invoices match the filters.');
    expect(html).toContain('Clear filters');
    expect(html).not.toContain('Show more');
    expect(html).toContain('value="1001"');
    expect(html).toContain('value="2026-01-01"');
  });
});

describe('[invoicing] the invoice screen', () => {
  it('shows the header, the rows with VAT and labour/material, and the figures', () => {
    const html = render(<InvoiceScreen invoice={invoice()} />);
    expect(html).toContain('Invoice 1001');
    expect(html).toContain('>Final<');
    expect(html).toContain('30001 · Brf Eken');
    expect(html).toContain('Work order 42 – Service av larm');
    expect(html).toContain('href="/work-orders/00000000-0000-4000-8000-0000000000aa"');
    expect(html).toContain('100134');
    expect(html).toContain('PO-77');
    expect(html).toContain('Rörelsedetektor');
    // the one printed form of a discount (issue 28 item 8): the unit is always there
    expect(html).toContain('>10 %<');
    expect(html).not.toContain('10%');
    expect(html).toContain('>Labour<');
    expect(html).toContain('>Material<');
    expect(html).toContain('Utfört enligt avtal');
    expect(html).toContain('Net amount');
    expect(html).toContain('2 817,50');
    expect(html).toContain('VAT 25 % of 2 717,50');
    expect(html).toContain('679,38');
    expect(html).toContain('VAT 6 % of 100,00');
    expect(html).toContain('Öre rounding');
    expect(html).toContain('0,12');
    expect(html).toContain('Total (SEK)');
    expect(html).toContain('3 503,00');
    expect(html).toContain('ROT deduction');
    expect(html).toContain('−426,00');
    expect(html).toContain('To pay (SEK)');
    expect(html).toContain('3 077,00');
    expect(html).toContain('History');
  });

  it('offers exactly the apply types the invoice allows', () => {
    const basic = render(<InvoiceScreen invoice={invoice()} />);
    expect(basic).toContain('Download PDF');
    expect(basic).toContain('href="/invoices/00000000-0000-4000-8000-000000000010/document?format=pdf"');
    expect(basic).toContain('>E-mail<');
    expect(basic).not.toContain('Download the ERP file');
    expect(basic).not.toContain('Send to');
    // no ERP that takes invoices: no ERP block either
    expect(basic).not.toContain('data-testid="erp-panel"');

    const all = render(<InvoiceScreen invoice={invoice({ applyTypes: ['pdf', 'email', 'visma-xml', 'erp'] })} />);
    expect(all).toContain('Download the ERP file');
    expect(all).toContain('name="type" value="visma-xml"');
    expect(basic).not.toContain('Peppol');

    // a final invoice offers its Peppol e-invoice, to a reader too (a download changes nothing)
    const peppol = render(<InvoiceScreen invoice={invoice({ canApply: false, applyTypes: ['pdf', 'peppol'] })} />);
    expect(peppol).toContain('name="type" value="peppol"');
    expect(peppol).toContain('Download Peppol e-invoice (XML)');
    expect(all).toContain('Send to Fortnox');
    expect(all).toContain('data-testid="erp-panel"');
    expect(all).toContain('Not sent');

    // a reader who may not apply it only downloads the PDF
    const reader = render(
      <InvoiceScreen invoice={invoice({ canApply: false, applyTypes: ['pdf', 'email', 'erp'], status: 'draft' })} />,
    );
    expect(reader).toContain('Download PDF');
    expect(reader).not.toContain('>E-mail<');
    expect(reader).not.toContain('Send to');
  });

  it('shows the ERP number once delivered, and the last error with the vendor text and Retry when failed', () => {
    const delivered = render(
      <InvoiceScreen
        invoice={invoice({
          applyTypes: ['pdf', 'email', 'erp'],
          erpReferenceId: 'ext-1',
          externalInvoiceNr: 'FX-9001',
          delivery: {
            id: 'd1',
            kind: 'fortnox',
            status: 'delivered',
            attempts: 1,
            nextAttemptAt: null,
            errorCode: null,
            errorText: null,
            externalId: 'ext-1',
            externalInvoiceNr: 'FX-9001',
            createdAt: '2026-11-10T08:00:00.000Z',
            deliveredAt: '2026-11-10T08:00:05.000Z',
          },
        })}
      />,
    );
    expect(delivered).toContain('In the ERP · no. FX-9001');
    expect(delivered).toContain('Number in Fortnox');
    expect(delivered).not.toContain('Send to Fortnox');
    expect(delivered).not.toContain('Retry');

    const failed = render(
      <InvoiceScreen
        invoice={invoice({
          applyTypes: ['pdf', 'email', 'erp'],
          delivery: {
            id: 'd1',
            kind: 'fortnox',
            status: 'failed',
            attempts: 8,
            nextAttemptAt: null,
            errorCode: 'INVOICE_WAS_NOT_CREATED_IN_ERP',
            errorText: 'Kund 30001 saknas',
            externalId: null,
            externalInvoiceNr: null,
            createdAt: '2026-11-10T08:00:00.000Z',
            deliveredAt: null,
          },
        })}
      />,
    );
    expect(failed).toContain('Last error: Invoice was not created in Fortnox');
    expect(failed).toContain('Fortnox said');
    expect(failed).toContain('Kund 30001 saknas');
    expect(failed).toContain('>Retry<');
    expect(failed).not.toContain('Send to Fortnox');

    // stopped for a person to look at the vendor first (issue 31 item 8): the reason, the reference, retry
    const checking = render(
      <InvoiceScreen
        invoice={invoice({
          applyTypes: ['pdf', 'email', 'erp'],
          delivery: {
            id: 'd1',
            kind: 'fortnox',
            status: 'needs_checking',
            attempts: 2,
            nextAttemptAt: null,
            errorCode: 'ERP_NEEDS_CHECKING',
            errorText: 'Visma eEkonomi holds 2 with SubscriptionNumber ordo-1',
            externalId: '5f0c1a2e-0000-4000-8000-000000000001',
            externalInvoiceNr: null,
            createdAt: '2026-11-10T08:00:00.000Z',
            deliveredAt: null,
          },
        })}
      />,
    );
    expect(checking).toContain('Fortnox may already have this invoice. Look there (the reference is shown)');
    expect(checking).toContain('Reference in Fortnox');
    expect(checking).toContain('5f0c1a2e-0000-4000-8000-000000000001');
    // the office's two answers once it has looked (no plain Retry, which would only look again)
    expect(checking).toContain('data-testid="erp-check"');
    expect(checking).toContain('Booked in Fortnox');
    expect(checking).toContain('Send again');
    expect(checking).not.toContain('>Retry<');

    const queued = render(
      <InvoiceScreen
        invoice={invoice({
          applyTypes: ['pdf', 'email', 'erp'],
          delivery: {
            id: 'd1',
            kind: 'fortnox',
            status: 'pending',
            attempts: 0,
            nextAttemptAt: '2026-11-10T08:00:00.000Z',
            errorCode: null,
            errorText: null,
            externalId: null,
            externalInvoiceNr: null,
            createdAt: '2026-11-10T08:00:00.000Z',
            deliveredAt: null,
          },
        })}
      />,
    );
    expect(queued).toContain('>Queued<');
    expect(queued).toContain('Waiting to be sent to Fortnox. This page updates by itself.');
  });

  it('a draft the viewer may edit is a form: dates, terms, references, tax reduction and rows, Save and Finalize', () => {
    const html = render(<InvoiceScreen invoice={draft({ applyTypes: ['pdf', 'email', 'erp'] })} />);
    expect(html).toContain('Draft invoice');
    expect(html).toContain('>Draft<');
    for (const label of [
      'Invoice date',
      'Delivery date',
      'Payment terms (days)',
      'Marking',
      'Our reference',
      'Your reference',
      'order number',
      'Footer text',
      'Reverse VAT',
      'Tax reduction',
      'Property designation',
      'association&#x27;s org. no.',
      'Title',
      'Quantity',
      'Unit price',
      'Discount',
      'VAT',
      'Labour or material',
      'Text',
    ])
      expect(html, label).toContain(label);
    expect(html).toContain('value="Hus B"');
    expect(html).toContain('value="Rörelsedetektor"');
    // the discount field shows its unit: the number, and the switch on percent
    expect(html).toMatch(
      /value="10"\/><select aria-label="[^"]*Discount[^"]*: percent or amount"[^>]*><option value="percent" selected=""/,
    );
    expect(html).toContain('Due on 2026-11-30');
    expect(html).toContain('>25 %</option>');
    expect(html).toContain('>0 %</option>');
    expect(html).toContain('aria-label="Remove row 1"');
    expect(html).toContain('Add row');
    expect(html).toContain('Add text row');
    expect(html).toContain('Add person');
    expect(html).toContain('>Save<');
    expect(html).toContain('>Finalize<');
    expect(html).toContain('Send to Fortnox');
    // every text input a person reaches has its label (the date pickers' own hidden inputs aside)
    const inputs = (html.match(/<input(?![^>]*type="(hidden|checkbox)")[^>]*>/g) ?? []).filter(
      (i) => !/ hidden=""|tabindex="-1"/.test(i),
    );
    expect(inputs.length).toBeGreaterThan(10);
    for (const input of inputs) expect(input, input).toMatch(/aria-labelledby=|id="/);
  });

  it('a final invoice, or a draft the viewer may not edit, is not editable', () => {
    for (const inv of [invoice(), draft({ canEdit: false, canApply: false })]) {
      const html = render(<InvoiceScreen invoice={inv} />);
      expect(html).not.toContain('>Save<');
      expect(html).not.toContain('>Finalize<');
      expect(html).not.toContain('Add row');
      expect(html).not.toContain('<textarea');
      expect(html).not.toContain('value="Rörelsedetektor"');
      expect(html).toContain('Rörelsedetektor');
    }
  });
});

describe('[invoicing] the draft as edited', () => {
  it('reads back as PUT /invoice takes it and computes the same figures', () => {
    const d = toDraft(draft());
    const body = toPayload({ ...d, paymentTermDays: ' 10 ', rows: d.rows.map((r) => ({ ...r, price: r.price })) });
    expect(body).toMatchObject({ invoiceDate: '2026-11-10', paymentTermDays: '10', taxReduction: 'ROT' });
    expect(body.rows[0]).toMatchObject({
      articleTitle: 'Rörelsedetektor',
      amount: '3.00',
      discountType: 'PERCENTAGE',
      discountValue: '10.00',
      vatPercent: '25',
      work: 'material',
    });
    expect(body.rows[2]).toMatchObject({ kind: 'text', articleTitle: 'Utfört enligt avtal', amount: '0' });
    const figures = draftFigures({ ...d, rows: d.rows.map((r) => (r.kind === 'labour' ? { ...r, amount: '2' } : r)) });
    // 540 + 1300 = 1840 net, 460 VAT, ROT 30 % of the labour with VAT (1625) → 487
    expect(figures).toMatchObject({ net: '1840.00', total: '2300.00' });
    expect(figures?.taxReduction?.amount).toBe('487.00');
    expect(draftErrors({ ...d, rows: d.rows.map((r, i) => (i === 0 ? { ...r, discount: 'lots' } : r)) })).toEqual({
      'rows.0.discountValue': ['ERROR_DISCOUNT_PATTERN'],
    });
  });
});

describe('[invoicing] the invoice on the order screens and its history', () => {
  it('links a closed order to its invoice with its number, status and ERP state', () => {
    const summary = orderInvoiceSummary(
      invoice({
        delivery: {
          id: 'd1',
          kind: 'fortnox',
          status: 'sending',
          attempts: 1,
          nextAttemptAt: null,
          errorCode: null,
          errorText: null,
          externalId: null,
          externalInvoiceNr: null,
          createdAt: '2026-11-10T08:00:00.000Z',
          deliveredAt: null,
        },
      }),
    );
    expect(summary).toMatchObject({ invoiceNr: '1001', status: 'finalized', erp: 'queued' });
    const html = render(<OrderInvoiceLink invoice={summary} />);
    expect(html).toContain('href="/invoices/00000000-0000-4000-8000-000000000010"');
    expect(html).toContain('Invoice 1001');
    expect(html).toContain('>Final<');
    expect(html).toContain('>Queued<');
    const draftLink = render(<OrderInvoiceLink invoice={orderInvoiceSummary(draft())} />);
    expect(draftLink).toContain('Draft invoice');
    expect(erpStatusOf({ delivery: null, erpReferenceId: 'x' })).toBe('delivered');
  });

  it('names every history action and its details', () => {
    const entry = (action: string, data: unknown = null) => ({
      action,
      data,
      userName: 'Olga Kontor',
      timestamp: '2026-11-10T08:00:00.000Z',
      when: '2026-11-10 09:00',
    });
    const html = render(
      <InvoiceHistoryList
        erpName="Fortnox"
        entries={[
          entry('create'),
          entry('edit', { changed: ['invoiceDate', 'rows'] }),
          entry('finalize'),
          entry('email', { recipients: ['a@eken.se', 'b@eken.se'] }),
          entry('erp.queued'),
          entry('erp.retry', { code: 'ERP_RATE_LIMITED', message: '429', attempts: 2 }),
          entry('erp.failed', { code: 'INVOICE_WAS_NOT_CREATED_IN_ERP', message: 'Kund saknas', attempts: 8 }),
          entry('erp.check', {
            code: 'ERP_NEEDS_CHECKING',
            message: 'two drafts',
            references: ['d-1', 'd-2'],
            attempts: 3,
          }),
          entry('erp.created', { externalInvoiceNr: 'FX-9001' }),
          entry('void'),
          entry('visma-xml', { fileName: 'FAKT_1001.SI' }),
        ]}
      />,
    );
    for (const text of [
      'Created',
      'Edited',
      'Changed: invoice date, rows',
      'Finalized',
      'E-mailed',
      'To a@eken.se, b@eken.se',
      'Queued for the ERP',
      'ERP attempt failed, trying again',
      'attempt 2',
      'Sending to the ERP failed',
      'Invoice was not created in Fortnox · Kund saknas · attempt 8',
      'Stopped: check in the ERP before sending again',
      'two drafts · d-1, d-2 · attempt 3',
      'Created in the ERP',
      'ERP number FX-9001',
      'Voided',
      'ERP file downloaded',
      'FAKT_1001.SI',
      'Olga Kontor',
    ])
      expect(html, text).toContain(text);
  });
});
