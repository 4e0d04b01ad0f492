import { describe, expect, it } from 'vitest';
import { englishRenderer } from '~/tests/helpers/render-ui';
import { BANK_ACCOUNT_MAX as SERVICE_BANK_MAX, TIME_ROUNDING_MINUTES } from '~/core/invoicing/invoice-rules.service';
import type { InvoiceRulesView } from '~/core/invoicing/invoice-rules.service';
import { BANK_ACCOUNT_MAX, InvoiceRulesForm, ROUNDING_MINUTES } from './invoice-rules-form';

/** Server-render tests of Settings → invoicing, in English, every key present. */
const render = await englishRenderer(['invoicesettings']);

const rules: InvoiceRulesView = {
  reviewBeforeSending: true,
  applyTypesOff: ['peppol'],
  billTime: true,
  labourArticle: { id: 'a1', articleId: 'ARB', title: 'Arbete' },
  billTravelTime: false,
  travelArticle: null,
  timeRoundingMinutes: 15,
  mileageArticle: { id: 'a3', articleId: 'MIL', title: 'Milersättning' },
  bankAccount: 'SE45 5000 0000 0583 9825 7466',
  ocr: true,
  nextInvoiceNr: 1042,
  lowestNextInvoiceNr: 1042,
  overrides: {
    workTypes: [
      {
        id: 'o1',
        workType: { id: 'w1', name: 'Installation' },
        article: { id: 'a2', articleId: 'ARB-S', title: 'Arbete senior' },
      },
    ],
    users: [
      // a person made inactive since: still shown by name
      {
        id: 'o2',
        user: { id: 'u9', name: 'Gunnar Gammal' },
        article: { id: 'a2', articleId: 'ARB-S', title: 'Arbete senior' },
      },
    ],
  },
};
const workTypes = [
  { id: 'w1', name: 'Installation' },
  { id: 'w2', name: 'Service' },
];
const users = [{ id: 'u1', name: 'Tess Tekniker' }];

const form = (canEdit: boolean, r: InvoiceRulesView = rules) =>
  render(<InvoiceRulesForm rules={r} workTypes={workTypes} users={users} canEdit={canEdit} />);

const inputOf = (html: string, label: string) => {
  const id = new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${label}`).exec(html)?.[1];
  expect(id, `a label "${label}"`).toBeTruthy();
  return new RegExp(`<input[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? '';
};

describe('[invoicing] Settings → invoicing', () => {
  it('shows the rules: switches, articles as "number – title", the rounding, the bank account, OCR and the next number', () => {
    const html = form(true);
    for (const text of [
      'Review invoices before they are sent',
      'Bill working time',
      'Bill travel time',
      'OCR reference',
      'Labour article per work type and per person',
      'The next final invoice gets this number. Numbers already given cannot be used again: at least 1042.',
    ])
      expect(html).toContain(text);
    // each switch says its state in words, and is a labelled switch
    // four rules and the five apply types
    expect(html.match(/role="switch"/g)).toHaveLength(9);
    expect(html).toMatch(/Review invoices before they are sent[\s\S]*?>On</);
    expect(html).toContain('Offered on the invoice');
    expect(html).toMatch(/Download as PDF[\s\S]*?>On</);
    expect(html).toMatch(/Peppol e-invoice \(XML\)[\s\S]*?>Off</);
    expect(html).toMatch(/Bill travel time[\s\S]*?>Off</);
    expect(inputOf(html, 'Labour article')).toContain('value="ARB – Arbete"');
    expect(inputOf(html, 'Mileage article')).toContain('value="MIL – Milersättning"');
    expect(inputOf(html, 'Travel time article')).toContain('value=""');
    expect(html).toContain('15 minutes');
    expect(inputOf(html, 'Bank account')).toContain('value="SE45 5000 0000 0583 9825 7466"');
    expect(inputOf(html, 'Bank account')).toContain(`maxLength="${BANK_ACCOUNT_MAX}"`);
    expect(inputOf(html, 'Next invoice number')).toContain('value="1042"');
    expect(inputOf(html, 'Next invoice number')).toContain('inputMode="numeric"');
    expect(html).toContain('>Save<');
  });

  it('lists the overrides with their work type or person and article, each removable, and offers to add more', () => {
    const html = form(true);
    expect(html.match(/data-testid="override-workTypes"/g)).toHaveLength(1);
    expect(html.match(/data-testid="override-users"/g)).toHaveLength(1);
    expect(html).toContain('Installation');
    expect(html).toContain('Gunnar Gammal');
    expect(html.match(/value="ARB-S – Arbete senior"/g)).toHaveLength(2);
    expect(html).toContain('aria-label="Remove Installation"');
    expect(html).toContain('aria-label="Remove Gunnar Gammal"');
    expect(html).toContain('Add work type');
    expect(html).toContain('Add person');

    const none = form(true, { ...rules, overrides: { workTypes: [], users: [] } });
    expect(none).toContain('No work type has an article of its own.');
    expect(none).toContain('No person has an article of their own.');
  });

  it('is read-only without instance:edit: everything disabled, no save, add or remove', () => {
    const html = form(false);
    expect(html).not.toContain('>Save<');
    expect(html).not.toContain('Add work type');
    expect(html).not.toContain('aria-label="Remove');
    expect(inputOf(html, 'Bank account')).toContain('disabled');
    expect(inputOf(html, 'Next invoice number')).toContain('disabled');
    expect(html.match(/<input[^>]*disabled=""[^>]*role="switch"/g)).toHaveLength(9);
  });

  it('offers the roundings the rules allow, and the same limits', () => {
    expect([...ROUNDING_MINUTES]).toEqual([...TIME_ROUNDING_MINUTES]);
    expect(BANK_ACCOUNT_MAX).toBe(SERVICE_BANK_MAX);
  });
});
