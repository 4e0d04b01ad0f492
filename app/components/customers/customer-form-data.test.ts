import { describe, expect, it } from 'vitest';
import { customerFromForm, rowErrorsToForm } from './customer-form-data';

const form = (entries: [string, string][]) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};

describe('[customers] the customer form', () => {
  it('reads fields, checkbox pairs and the rows left after removals, with the primary address', () => {
    const { customer, fieldErrors } = customerFromForm(
      form([
        ['name', 'Brf Solrosen'],
        ['customerId', '10001'],
        ['potential', 'false'],
        ['reverseVat', 'false'],
        ['reverseVat', 'true'],
        ['sendToErp', 'false'],
        ['contacts.present', '1'],
        ['contacts.2.name', 'Eva Ek'],
        ['contacts.2.role', 'Ordförande'],
        ['addresses.present', '1'],
        ['addresses.0.id', ''],
        ['addresses.0.street', 'Solrosvägen 1'],
        ['addresses.3.id', 'a1'],
        ['addresses.3.street', 'Solrosvägen 3'],
        ['primaryAddress', '3'],
        ['configuration', '{"ui": {"color": "red"}}'],
      ]),
    );
    expect(fieldErrors).toBeUndefined();
    expect(customer).toMatchObject({
      name: 'Brf Solrosen',
      customerId: '10001',
      potential: false,
      reverseVat: true,
      sendToErp: false,
      contacts: [{ name: 'Eva Ek', role: 'Ordförande', phone: '', email: '' }],
      configuration: { ui: { color: 'red' } },
    });
    expect(
      (customer.addresses as { street: string; isPrimary: boolean }[]).map((a) => [a.street, a.isPrimary]),
    ).toEqual([
      ['Solrosvägen 1', false],
      ['Solrosvägen 3', true],
    ]);
  });

  it('leaves lists alone when the form has no editor for them, and refuses bad configuration JSON', () => {
    expect(customerFromForm(form([['name', 'X']])).customer).toEqual({ name: 'X' });
    expect(customerFromForm(form([['configuration', '[1]']])).fieldErrors).toEqual({
      configuration: ['ERROR_INVALID_VALUE'],
    });
    expect(customerFromForm(form([['configuration', '{']])).fieldErrors).toEqual({
      configuration: ['ERROR_INVALID_VALUE'],
    });
  });

  it('maps the service’s row positions back to the form’s row names', () => {
    const f = form([
      ['contacts.present', '1'],
      ['contacts.4.name', 'A'],
      ['contacts.7.name', ''],
      ['addresses.2.street', ''],
    ]);
    expect(
      rowErrorsToForm({ 'contacts.1.name': ['ERROR_REQUIRED_FIELD'], 'addresses.0.street': ['X'], name: ['Y'] }, f),
    ).toEqual({ 'contacts.7.name': ['ERROR_REQUIRED_FIELD'], 'addresses.2.street': ['X'], name: ['Y'] });
  });
});
