import { z } from 'zod';
import { zRequiredString } from '~/core/errors/validation';
import { LANGUAGE_KEYS } from '~/core/instance/instance-config';
import { blankToNull, zOptionalEmail, zOptionalText, zOptionalUuid } from '~/core/registers/fields';
import { zIdentifier, ZListQuery } from '~/core/registers/list-query';
import { isValidBic, isValidIban, normalizeBic, normalizeIban } from '~/core/suppliers/bank';
import { formatBankgiro, isValidBankgiro } from './bank';

/** Spec section 9: customer types private and company. */
export const CUSTOMER_TYPES = ['private', 'company'] as const;
export const CUSTOMER_STATUSES = ['active', 'inactive'] as const;

/** An optional e-mail address in the spec's format (section 5). */
/** A whole number from JSON or a form field; blank is null. */
const zOptionalInt = (min: number, max: number) =>
  z
    .preprocess(
      (v) => {
        const b = blankToNull(v);
        return typeof b === 'string' && /^\s*-?\d+\s*$/.test(b) ? Number(b) : b;
      },
      z
        .number({ error: 'ERROR_INVALID_VALUE' })
        .int('ERROR_INVALID_VALUE')
        .min(min, 'ERROR_INVALID_VALUE')
        .max(max, 'ERROR_INVALID_VALUE')
        .nullish(),
    )
    .transform((v) => v ?? null);

/**
 * A decimal as the user types it ("12,5", "12.50", 12.5) → its canonical text ("12.5"), never a
 * binary float: money and percentages are stored as numeric.
 */
export function decimalText(value: unknown, decimals = 2): string | null {
  if (typeof value === 'number') value = Number.isFinite(value) ? String(value) : '';
  if (typeof value !== 'string') return null;
  const text = value.trim().replace(/\s+/g, '').replace(',', '.');
  const re = new RegExp(`^\\d{1,12}(\\.\\d{1,${decimals}})?$`);
  return re.test(text) ? text.replace(/^0+(?=\d)/, '') : null;
}

/** Spec: percent 0 to 100 (default discount). */
export const zOptionalPercent = () =>
  z.preprocess(blankToNull, z.union([z.string(), z.number()]).nullish()).transform((v, ctx) => {
    if (v === null || v === undefined) return null;
    const text = decimalText(v);
    if (text === null) {
      ctx.addIssue({ code: 'custom', message: 'ERROR_INVALID_VALUE' });
      return z.NEVER;
    }
    if (Number(text) > 100) {
      ctx.addIssue({ code: 'custom', message: 'ERROR_PERCENT_RANGE' });
      return z.NEVER;
    }
    return text;
  });

/** Spec: price digits only (numeric), at most two decimals, never negative → "1234.5". */
export const zPrice = () =>
  z.union([z.string(), z.number()], { error: 'ERROR_REQUIRED_FIELD' }).transform((v, ctx) => {
    if (typeof v === 'number' && v < 0) {
      ctx.addIssue({ code: 'custom', message: 'ERROR_NEGATIVE_AMOUNT' });
      return z.NEVER;
    }
    if (typeof v === 'string' && v.trim() === '') {
      ctx.addIssue({ code: 'custom', message: 'ERROR_REQUIRED_FIELD' });
      return z.NEVER;
    }
    if (typeof v === 'string' && v.trim().startsWith('-')) {
      ctx.addIssue({ code: 'custom', message: 'ERROR_NEGATIVE_AMOUNT' });
      return z.NEVER;
    }
    const text = decimalText(v);
    if (text === null) {
      ctx.addIssue({ code: 'custom', message: 'ERROR_PRICE_PATTERN' });
      return z.NEVER;
    }
    return text;
  });

const zOptionalIban = () =>
  zOptionalText(42)
    .refine((v) => v === null || isValidIban(v), 'ERROR_INVALID_IBAN')
    .transform((v) => v && normalizeIban(v));
const zOptionalBic = () =>
  zOptionalText(11)
    .refine((v) => v === null || isValidBic(v), 'ERROR_INVALID_BIC')
    .transform((v) => v && normalizeBic(v));
const zOptionalBankgiro = () =>
  zOptionalText(20)
    .refine((v) => v === null || isValidBankgiro(v), 'ERROR_INVALID_BG_ACCOUNT')
    .transform((v) => v && formatBankgiro(v));

/** An optional customer number: no spaces (spec section 5); potential customers may have none yet. */
const zOptionalCustomerNumber = () => z.preprocess(blankToNull, zIdentifier(30).nullish()).transform((v) => v ?? null);

/** A contact person of the customer (spec section 3: name, role, phone, email). */
export const ZContact = z.object({
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  role: zOptionalText(100),
  phone: zOptionalText(40),
  email: zOptionalEmail(),
});
export type TContact = z.infer<typeof ZContact>;

/** An address (spec section 3); `id` keeps an existing address's identity (invoices point at it). */
export const ZAddress = z.object({
  id: zOptionalUuid(),
  street: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  postIndex: zOptionalText(20),
  city: zOptionalText(100),
  notes: zOptionalText(1000),
  costCenter: zOptionalText(50),
  contactName: zOptionalText(200),
  contactEmail: zOptionalEmail(),
  contactPhone: zOptionalText(40),
  isPrimary: z.boolean({ error: 'ERROR_INVALID_VALUE' }).default(false),
});
export type TAddress = z.infer<typeof ZAddress>;

export const MAX_CONTACTS = 200;
export const MAX_ADDRESSES = 200;

/** The customer's own fields (spec section 3), as the API names them. */
const customerFields = {
  customerId: zOptionalCustomerNumber(),
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  type: z.enum(CUSTOMER_TYPES, { error: 'ERROR_INVALID_VALUE' }),
  status: z.enum(CUSTOMER_STATUSES, { error: 'ERROR_INVALID_VALUE' }),
  potential: z.boolean({ error: 'ERROR_INVALID_VALUE' }),
  organizationalNumber: zOptionalText(30),
  vatNumber: zOptionalText(30),
  /** ISO 3166-1 alpha-2; empty: the company's own country (or the VAT number's prefix). */
  country: z
    .preprocess(
      (v) => (typeof v === 'string' ? blankToNull(v.trim().toUpperCase()) : v),
      z
        .string({ error: 'ERROR_INVALID_VALUE' })
        .regex(/^[A-Z]{2}$/, 'ERROR_INVALID_VALUE')
        .nullish(),
    )
    .transform((v) => v ?? null),
  /** The Peppol participant id `<EAS scheme>:<id>` when it is not the one the org. number gives. */
  peppolId: z
    .preprocess(
      (v) => (typeof v === 'string' ? blankToNull(v.trim()) : v),
      z
        .string({ error: 'ERROR_INVALID_VALUE' })
        .regex(/^[0-9]{4}:[^\s:]{1,80}$/, 'ERROR_PEPPOL_ID')
        .nullish(),
    )
    .transform((v) => v ?? null),
  personId: zOptionalText(30),
  phone: zOptionalText(40),
  email: zOptionalEmail(),
  paymentTermDays: zOptionalInt(0, 365),
  reverseVat: z.boolean({ error: 'ERROR_INVALID_VALUE' }),
  bgAccount: zOptionalBankgiro(),
  iban: zOptionalIban(),
  bic: zOptionalBic(),
  defaultDiscount: zOptionalPercent(),
  priceListId: zOptionalUuid(),
  invoiceLanguage: z
    .preprocess(blankToNull, z.enum(LANGUAGE_KEYS, { error: 'ERROR_INVALID_VALUE' }).nullish())
    .transform((v) => v ?? null),
  invoiceEmail: zOptionalEmail(),
  broadcastEmail: zOptionalEmail(),
  /** Whether invoices go to the ERP; `ignoreErpInvoices` is the same flag the other way round. */
  sendToErp: z.boolean({ error: 'ERROR_INVALID_VALUE' }),
  ignoreErpInvoices: z.boolean({ error: 'ERROR_INVALID_VALUE' }),
  notes: zOptionalText(5000),
  configuration: z.record(z.string(), z.unknown(), { error: 'ERROR_INVALID_VALUE' }),
  contacts: z.array(ZContact).max(MAX_CONTACTS, 'ERROR_INVALID_VALUE'),
  addresses: z.array(ZAddress).max(MAX_ADDRESSES, 'ERROR_INVALID_VALUE'),
};

/** POST /customers {customer}: `name` is required, everything else has a default. */
export const ZCreateCustomer = z.object({
  ...customerFields,
  type: customerFields.type.default('company'),
  status: customerFields.status.default('active'),
  potential: customerFields.potential.default(false),
  reverseVat: customerFields.reverseVat.default(false),
  sendToErp: customerFields.sendToErp.optional(),
  ignoreErpInvoices: customerFields.ignoreErpInvoices.optional(),
  configuration: customerFields.configuration.default({}),
  contacts: customerFields.contacts.default([]),
  addresses: customerFields.addresses.default([]),
});
export type TCreateCustomer = z.infer<typeof ZCreateCustomer>;

/** PUT /customers {customer}: `id` and the fields to change; absent fields stay as they are. */
export const ZUpdateCustomer = z.object(customerFields).partial().extend({ id: z.string() });
export type TUpdateCustomer = z.infer<typeof ZUpdateCustomer>;

export const CUSTOMER_SORTS = ['name', 'customerId'] as const;

/** GET /customers: search, filters, sort and page. */
export const ZCustomerListQuery = ZListQuery.extend({
  status: z.enum([...CUSTOMER_STATUSES, 'all'], { error: 'ERROR_INVALID_VALUE' }).default('all'),
  type: z.enum([...CUSTOMER_TYPES, 'all'], { error: 'ERROR_INVALID_VALUE' }).default('all'),
  /** true: only potential customers; false: only real ones; absent: both. */
  potential: z.preprocess(
    (v) =>
      v === '' || v === 'all'
        ? undefined
        : v === 'true' || v === '1' || v === 'on'
          ? true
          : v === 'false' || v === '0'
            ? false
            : v,
    z.boolean({ error: 'ERROR_INVALID_VALUE' }).optional(),
  ),
  sort: z.enum(CUSTOMER_SORTS, { error: 'ERROR_INVALID_VALUE' }).default('name'),
  dir: z.enum(['asc', 'desc'], { error: 'ERROR_INVALID_VALUE' }).default('asc'),
});
export type TCustomerListQuery = z.infer<typeof ZCustomerListQuery>;
