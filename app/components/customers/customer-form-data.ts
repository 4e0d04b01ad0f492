/**
 * Reads the customer form (app/components/customers/customer-form.tsx) into the shape the API
 * takes (`{customer}` of POST/PUT /customers): the same field names, so the service's field
 * errors (`name`, `contacts.0.email`, `addresses.1.street`) land on the inputs that caused them.
 */

const TEXT_FIELDS = [
  'customerId',
  'name',
  'type',
  'status',
  'organizationalNumber',
  'vatNumber',
  'country',
  'peppolId',
  'personId',
  'phone',
  'email',
  'paymentTermDays',
  'bgAccount',
  'iban',
  'bic',
  'defaultDiscount',
  'priceListId',
  'invoiceLanguage',
  'invoiceEmail',
  'broadcastEmail',
  'notes',
] as const;

const CONTACT_FIELDS = ['name', 'role', 'phone', 'email'] as const;
const ADDRESS_FIELDS = [
  'id',
  'street',
  'postIndex',
  'city',
  'notes',
  'costCenter',
  'contactName',
  'contactEmail',
  'contactPhone',
] as const;

/** Indexes of rows posted as `prefix.N.field`, in the order they were posted. */
function rowIndexes(form: FormData, prefix: string): string[] {
  const seen: string[] = [];
  for (const key of form.keys()) {
    const m = new RegExp(`^${prefix}\\.(\\d+)\\.`).exec(key);
    if (m && !seen.includes(m[1]!)) seen.push(m[1]!);
  }
  return seen;
}

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v : undefined;
};

export interface CustomerFormResult {
  customer: Record<string, unknown>;
  /** A field the form itself could not read (the configuration's JSON). */
  fieldErrors?: Record<string, string[]>;
}

/**
 * The posted form as an API customer. Rows are renumbered 0…n-1 in posted order (a removed row
 * leaves a gap in the names); `primaryAddress` names the primary row by its posted index.
 */
export function customerFromForm(form: FormData): CustomerFormResult {
  const customer: Record<string, unknown> = {};
  for (const field of TEXT_FIELDS) {
    const v = text(form, field);
    if (v !== undefined) customer[field] = v;
  }
  // Checkboxes post a hidden "false" before the box, which adds "true" when ticked.
  for (const flag of ['potential', 'reverseVat', 'sendToErp'] as const)
    if (form.has(flag)) customer[flag] = form.getAll(flag).includes('true');
  if (form.has('contacts.present'))
    customer.contacts = rowIndexes(form, 'contacts').map((i) =>
      Object.fromEntries(CONTACT_FIELDS.map((f) => [f, text(form, `contacts.${i}.${f}`) ?? ''])),
    );
  if (form.has('addresses.present')) {
    const primary = text(form, 'primaryAddress');
    customer.addresses = rowIndexes(form, 'addresses').map((i) => ({
      ...Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, text(form, `addresses.${i}.${f}`) ?? ''])),
      isPrimary: primary === i,
    }));
  }
  const configuration = text(form, 'configuration');
  if (configuration !== undefined) {
    try {
      const parsed: unknown = configuration.trim() === '' ? {} : JSON.parse(configuration);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      customer.configuration = parsed;
    } catch {
      return { customer, fieldErrors: { configuration: ['ERROR_INVALID_VALUE'] } };
    }
  }
  return { customer };
}

/**
 * Field errors of rows are keyed by the position the service saw (`contacts.1.name`); the form's
 * rows are named by their own index, which differs once a row was removed. Maps them back.
 */
export function rowErrorsToForm(
  fields: Record<string, string[]> | undefined,
  form: FormData,
): Record<string, string[]> | undefined {
  if (!fields) return fields;
  const maps = { contacts: rowIndexes(form, 'contacts'), addresses: rowIndexes(form, 'addresses') };
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => {
      const m = /^(contacts|addresses)\.(\d+)\.(.+)$/.exec(key);
      if (!m) return [key, value];
      const posted = maps[m[1] as 'contacts' | 'addresses'][Number(m[2])];
      return [posted === undefined ? key : `${m[1]}.${posted}.${m[3]}`, value];
    }),
  );
}
