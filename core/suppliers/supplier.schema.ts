import { z } from 'zod';
import { EMAIL_PATTERN } from '~/core/errors/validation';
import { zOptionalText } from '~/core/registers/fields';
import { zIdentifier, ZListQuery, zQueryFlag } from '~/core/registers/list-query';
import { isValidBic, isValidIban, normalizeBic, normalizeIban } from './bank';

/** Spec section 3: IBAN checked by country length and check digits; stored without spaces. */
export const zIban = () =>
  zOptionalText(50)
    .refine((v) => v === null || isValidIban(v), 'ERROR_INVALID_IBAN')
    .transform((v) => (v === null ? null : normalizeIban(v)));

export const zBic = () =>
  zOptionalText(20)
    .refine((v) => v === null || isValidBic(v), 'ERROR_INVALID_BIC')
    .transform((v) => (v === null ? null : normalizeBic(v)));

/** Spec section 5: a tag has at least 2 characters, letters and digits only; tags are unique. */
export const TAG_PATTERN = /^[\p{L}\p{N}]{2,50}$/u;
export const zTags = () =>
  z
    .array(z.string({ error: 'ERROR_TAG_INVALID' }).trim().regex(TAG_PATTERN, 'ERROR_TAG_INVALID'), {
      error: 'ERROR_INVALID_VALUE',
    })
    .max(50, 'ERROR_INVALID_VALUE')
    .transform((tags) => {
      // Unique regardless of case: "Larm" and "larm" are one tag, the first spelling wins.
      const seen = new Set<string>();
      return tags.filter((t) => !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()));
    });

const supplierFields = {
  number: zIdentifier(50),
  title: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD').max(200, 'ERROR_MAX_LENGTH'),
  name: zOptionalText(200),
  iban: zIban(),
  bic: zBic(),
  /** The default ERP (bookkeeping) account supplier invoices are booked on: digits. */
  erpAccount: zOptionalText(20).refine((v) => v === null || /^\d+$/.test(v), 'ERROR_DIGITS_ONLY'),
  tags: zTags(),
  status: z.enum(['active', 'inactive'], { error: 'ERROR_INVALID_VALUE' }),
  /** What an e-invoice names its seller by (issue 33): PartyLegalEntity/CompanyID. */
  organizationNumber: zOptionalText(40),
  /** The Peppol participant id, "scheme:value" (e.g. 0007:5567321707): the e-invoice's EndpointID. */
  peppolId: zOptionalText(100).refine((v) => v === null || /^\d{4}:\S+$/.test(v), 'ERROR_INVALID_VALUE'),
};

/**
 * A new supplier. The catalogue's POST sends only {title, name}: the number is then proposed (the
 * next free 4-digit one), tags default to none and the status to active.
 */
export const ZCreateSupplier = z.object({
  ...supplierFields,
  number: supplierFields.number.optional(),
  tags: supplierFields.tags.default([]),
  status: supplierFields.status.default('active'),
  organizationNumber: supplierFields.organizationNumber.optional(),
  peppolId: supplierFields.peppolId.optional(),
});
export type TCreateSupplier = z.infer<typeof ZCreateSupplier>;

/** A change: the id and the fields to change; fields left out keep their value. */
export const ZUpdateSupplier = z.object({
  id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  number: supplierFields.number.optional(),
  title: supplierFields.title.optional(),
  name: supplierFields.name.optional(),
  iban: supplierFields.iban.optional(),
  bic: supplierFields.bic.optional(),
  erpAccount: supplierFields.erpAccount.optional(),
  tags: supplierFields.tags.optional(),
  status: supplierFields.status.optional(),
  organizationNumber: supplierFields.organizationNumber.optional(),
  peppolId: supplierFields.peppolId.optional(),
});
export type TUpdateSupplier = z.infer<typeof ZUpdateSupplier>;

export const ZSupplierContact = z.object({
  name: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD').max(200, 'ERROR_MAX_LENGTH'),
  role: zOptionalText(100),
  phone: zOptionalText(40),
  email: zOptionalText(254).refine((v) => v === null || EMAIL_PATTERN.test(v), 'ERROR_INVALID_EMAIL'),
});
export type TSupplierContact = z.infer<typeof ZSupplierContact>;

/** PUT /suppliers/{id}/contacts {contacts}: the whole list, in order, replaces the old one. */
export const ZSupplierContacts = z.object({
  id: z.string(),
  contacts: z.array(ZSupplierContact, { error: 'ERROR_INVALID_VALUE' }).max(100, 'ERROR_INVALID_VALUE'),
});

export const SUPPLIER_SORTS = ['number', 'title'] as const;

/** GET /suppliers: text, status and tag filters, sort and page, all in SQL. */
export const ZSupplierFilter = ZListQuery.extend({
  status: z.enum(['active', 'inactive', 'all'], { error: 'ERROR_INVALID_VALUE' }).default('active'),
  tag: z.string().trim().max(50, 'ERROR_MAX_LENGTH').optional(),
  sort: z.enum(SUPPLIER_SORTS, { error: 'ERROR_INVALID_VALUE' }).default('title'),
  desc: zQueryFlag(false),
});
export type TSupplierFilter = z.infer<typeof ZSupplierFilter>;

/** The supplier's articles on its page: text filter and page. */
export const ZSupplierArticleFilter = ZListQuery;
