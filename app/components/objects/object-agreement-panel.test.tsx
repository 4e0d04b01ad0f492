import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import type { AgreementPanelData } from '~/app/routes/inventory.objects.$id.agreement';
import type { AgreementRow, ObjectAgreement } from '~/core/agreements/object-agreement.service';
import { AgreementPanelContent } from './object-agreement-panel';
import { yearChoices } from './object-agreement-invoices';

/** Server-render tests of the object page's Agreement tab, in English, every key present. */
const render = await englishRenderer(['objectagreement', 'agreements', 'invoices', 'customers', 'articles']);

const object = { id: 'bo1', customerId: 'c1', customerLabel: '10001 – Brf Solrosen' };

const agreement: ObjectAgreement = {
  id: 'oa1',
  businessObjectId: 'bo1',
  agreementId: 't1',
  agreement: {
    code: 'SERV-Q',
    title: 'Serviceavtal',
    status: 'active',
    woInterval: 'year_1',
    woDay: 15,
    invoiceInterval: 'quarter',
    invoiceDay: 0,
    priceModel: 'fixed',
  },
  woScheduledTo: '2026-03-01',
  invoiceScheduledTo: '2026-07-01',
  invoicePeriodFrom: '2026-04-01',
  validFrom: '2026-02-10',
  validTo: '2026-12-31',
  totalPrice: '1950.00',
  articles: [],
  fieldText1: 'Larmklass 2',
  fieldText2: null,
  fieldText3: null,
  fieldTextArea1: null,
  fieldTextArea2: null,
  fieldDate1: null,
  invoiceAddressId: null,
  invoiceCustomerId: null,
  invoiceExtra: 'Avtal 2026/17',
  version: 3,
  nextWorkOrder: { from: '2026-03-01', to: '2027-02-28', generateOn: '2026-03-15' },
  nextInvoice: { from: '2026-07-01', to: '2026-09-30', generateOn: '2026-07-31' },
  lastInvoiced: { from: '2026-04-01', to: '2026-06-30' },
  warnings: ['AGREEMENT_HAS_TO_DATE'],
};

const row = (over: Partial<AgreementRow>): AgreementRow => ({
  id: 'r1',
  articleId: 'a1',
  articleNumber: 'LARMC',
  title: 'Larmcentral',
  description: null,
  amount: '3.000',
  price: '120.00',
  discountType: 'REGULAR',
  discountValue: '20.00',
  total: '300.00',
  sortOrder: 1,
  ...over,
});

const flags = {
  canEdit: true,
  canCreateWorkOrder: true,
  canReadInvoices: true,
  canReadCustomers: true,
  canReadArticles: true,
};

const data = (over: Partial<AgreementPanelData> = {}): AgreementPanelData => ({
  agreement,
  woRows: [],
  invoiceRows: [row({})],
  included: [],
  year: {
    year: 2026,
    periods: [
      {
        from: '2026-04-01',
        to: '2026-06-30',
        generateOn: '2026-04-30',
        invoice: {
          id: 'i1',
          invoiceNr: '10023',
          status: 'finalized',
          invoiceDate: '2026-04-30',
          periodFrom: '2026-04-01',
          periodTo: '2026-06-30',
          serialCode: '50001',
          businessObjectId: 'bo1',
          customerName: 'Brf Solrosen',
          agreementTitle: 'Serviceavtal',
          totalPrice: '2250.00',
          totalPriceVat: '2812.50',
          erpState: null,
        },
      },
      { from: '2026-07-01', to: '2026-09-30', generateOn: '2026-07-31', invoice: null },
    ],
  },
  today: '2026-06-15',
  addresses: [{ id: 'ad1', label: 'Storgatan 12, 72211 Västerås', isPrimary: true }],
  invoiceCustomer: null,
  flags,
  ...over,
});

describe('[objects] agreement tab', () => {
  it('without an agreement explains what one does and offers the form, the more fields folded away', () => {
    const html = render(<AgreementPanelContent object={object} data={data({ agreement: null })} onReload={() => {}} />);
    expect(html).toContain('No agreement on this object');
    expect(html).toContain('An agreement makes the object');
    for (const label of [
      'Agreement type',
      'Valid from',
      'Valid to',
      'Price per invoice period',
      'Invoicing starts',
      'Invoice customer',
      'Invoice address',
      'Invoice reference',
      'More fields',
      'Text field 1',
      'Date field 1',
      'Put agreement on object',
    ])
      expect(html, label).toContain(label);
    expect(html).toContain('first invoice period after the valid-from date');
    // the object's customer is the invoice customer unless another is chosen
    expect(html).toContain('10001 – Brf Solrosen');
    // nothing of an agreement yet
    expect(html).not.toContain('On every invoice');
    expect(html).not.toContain('Remove agreement');
    expect(html).not.toContain('Next invoice for the period starting');
  });

  it('with an agreement shows its facts in words, the warning, the rows, the year of invoices and the actions', () => {
    const html = render(<AgreementPanelContent object={object} data={data()} onReload={() => {}} />);
    expect(html).toContain('SERV-Q – Serviceavtal');
    expect(html).toContain('Yearly, day 15');
    expect(html).toContain('Quarterly, last day of the month');
    expect(html).toContain('Q3 2026 (2026-07-01 – 2026-09-30), made on 2026-07-31');
    expect(html).toContain('2026-03-01 – 2027-02-28');
    expect(html).toContain('Q2 2026 (2026-04-01 – 2026-06-30)');
    expect(html).toContain('No invoices are created for inactive objects or agreements past their to-date.');
    expect(html).toContain('The agreement ends on 2026-12-31.');
    expect(html).toContain('Next work order for the period starting');
    expect(html).toContain('Next invoice for the period starting');
    expect(html).toContain('Create next work order now');
    expect(html).toContain('On every work order');
    expect(html).toContain('No rows yet.');
    expect(html).toContain('On every invoice');
    expect(html).toContain('Larmcentral');
    expect(html).toContain('300,00');
    expect(html).toContain('Edit Larmcentral');
    expect(html).toContain('Remove Larmcentral');
    expect(html).toContain('Invoice 10023');
    expect(html).toContain('href="/invoices/i1"');
    expect(html).toContain('2 250,00');
    expect(html).toContain('Not yet invoiced');
    expect(html).toContain('Save agreement');
    expect(html).toContain('Remove agreement');
    expect(html).toContain('Storgatan 12, 72211 Västerås (primary)');
  });

  it('offers no changes to someone who may only read, and no invoices without invoices:read', () => {
    const html = render(
      <AgreementPanelContent
        object={object}
        data={data({
          year: null,
          flags: { ...flags, canEdit: false, canReadInvoices: false, canReadCustomers: false },
        })}
        onReload={() => {}}
      />,
    );
    expect(html).toContain('SERV-Q – Serviceavtal');
    expect(html).toContain('Larmcentral');
    for (const text of [
      'Save agreement',
      'Create next work order now',
      'Add invoice row',
      'Edit Larmcentral',
      'Remove agreement',
      'Not yet invoiced',
    ])
      expect(html, text).not.toContain(text);
    const none = render(
      <AgreementPanelContent
        object={object}
        data={data({ agreement: null, flags: { ...flags, canEdit: false } })}
        onReload={() => {}}
      />,
    );
    expect(none).toContain('Ask someone who may edit agreements on objects');
    expect(none).not.toContain('Put agreement on object');
  });

  it('lists the articles included at a discount: the object’s own to change, the type’s for what they are', () => {
    const html = render(
      <AgreementPanelContent
        object={object}
        data={data({
          included: [
            {
              articleId: 'a1',
              articleNumber: '90001',
              title: 'Arbetstid tekniker',
              discountType: 'PERCENTAGE',
              discountValue: '100.00',
              source: 'object',
            },
            {
              articleId: 'a3',
              articleNumber: '90003',
              title: 'Restid',
              discountType: 'REGULAR',
              discountValue: '50.00',
              source: 'type',
            },
          ],
        })}
        onReload={() => {}}
      />,
    );
    expect(html).toContain('Articles included at a discount');
    expect(html).toContain('90001 Arbetstid tekniker · 100 %');
    expect(html).toContain('90003 Restid · 50,00 kr · from the agreement type');
    expect(html).toContain('aria-label="Remove: 90001 Arbetstid tekniker"');
    expect(html).not.toContain('aria-label="Remove: 90003 Restid"');
    // only the object's own travel with the form: the type's apply without being copied
    expect(html).toContain(
      `name="articles" value="${JSON.stringify([{ articleId: 'a1', discountType: 'PERCENTAGE', discountValue: '100.00' }]).replaceAll('"', '&quot;')}"`,
    );
    expect(html).toContain('Add article');
  });

  it('offers the years from the agreement’s first to the one after this', () => {
    expect(yearChoices('2024-05-01', '2026-06-15', 2026)).toEqual([2027, 2026, 2025, 2024]);
    expect(yearChoices('2026-05-01', '2026-06-15', 2026)).toEqual([2027, 2026]);
  });
});
