import { z } from 'zod';
import { EMAIL_PATTERN, zRequiredString } from '~/core/errors/validation';
import { zOptionalIdOrUnset, zOptionalTextOrUnset } from '~/core/registers/fields';
import { MAX_PAGE_SIZE, zIdentifier, zQueryFlag, ZListQuery } from '~/core/registers/list-query';

/** Business objects (spec section 3): the installed equipment at a customer's site. */

export const BO_STATUSES = ['active', 'inactive'] as const;
export type BoStatus = (typeof BO_STATUSES)[number];

/** A QR reference as printed in the label's URL: URL-safe, 4 to 64 characters. */
export const QR_REF_PATTERN = /^[A-Za-z0-9_-]{4,64}$/;

const zStatus = z.enum(BO_STATUSES, { error: 'ERROR_INVALID_VALUE' });

const zQrRef = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => (typeof v === 'string' ? v.trim() || null : v))
  .refine((v) => v == null || QR_REF_PATTERN.test(v), 'ERROR_INVALID_VALUE');

const boFields = {
  modelId: zOptionalIdOrUnset(),
  customerId: zOptionalIdOrUnset(),
  priceListId: zOptionalIdOrUnset(),
  location: zOptionalTextOrUnset(200),
  location2: zOptionalTextOrUnset(200),
  location3: zOptionalTextOrUnset(200),
  /** A name of the regions register (decision 067). */
  region: zOptionalTextOrUnset(100),
  description: zOptionalTextOrUnset(4000),
  invoiceMarking: zOptionalTextOrUnset(200),
  qrRef: zQrRef,
};

/** POST /bo {bo}: the serial code is required; everything else may come later. */
export const ZCreateBo = z.object({
  bo: z.object({ serialCode: zIdentifier(100), status: zStatus.optional(), ...boFields }),
});

/** PUT /bo {bo}: fields left out keep their value; null or '' clears an optional one. */
export const ZUpdateBo = z.object({
  bo: z.object({ id: z.string(), serialCode: zIdentifier(100).optional(), status: zStatus.optional(), ...boFields }),
});
export type TUpdateBo = z.infer<typeof ZUpdateBo>['bo'];

/** GET /bo: search, filters and a page; `includeSpecificationData` adds each object's spec. */
export const ZBoList = ZListQuery.extend({
  customerId: zOptionalIdOrUnset(),
  modelId: zOptionalIdOrUnset(),
  status: z.preprocess((v) => (v === '' ? undefined : v), zStatus.optional()),
  includeSpecificationData: zQueryFlag(false),
});
export type TBoList = z.infer<typeof ZBoList>;

export const ZContact = z.object({
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  role: zOptionalTextOrUnset(100),
  phone: zOptionalTextOrUnset(50),
  email: zOptionalTextOrUnset(254).refine((v) => v == null || EMAIL_PATTERN.test(v), 'ERROR_INVALID_EMAIL'),
});
export type TContact = z.infer<typeof ZContact>;

/** PUT /bo/{id}/contacts {contacts}: the object's contact people, in this order. */
export const ZContacts = z.object({ contacts: z.array(ZContact).max(50, 'ERROR_MAX_LENGTH') });

/** `?from&size` of history and log pages: an offset and a page size. */
export const ZPage = (size: number) =>
  z.object({
    from: z.coerce.number().int().min(0).default(0),
    size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(size),
  });

export const ZQrLookup = z.object({
  qrRefId: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(64, 'ERROR_MAX_LENGTH'),
});
