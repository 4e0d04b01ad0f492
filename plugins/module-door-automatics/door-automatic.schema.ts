import { z } from 'zod';
import { isPlainDate } from '~/core/calendar/dates';
import { zOptionalText } from '~/core/registers/fields';
import { zIdentifier, ZListQuery } from '~/core/registers/list-query';

/** A calendar date as YYYY-MM-DD that exists (no 31 June). */
const zDate = () => zOptionalText(10).refine((v) => v === null || isPlainDate(v), 'ERROR_INVALID_VALUE');

/** A picture of the installation, linked: an https address (pages only load pictures over https). */
const zImageUrl = () =>
  zOptionalText(2000).refine((v) => {
    if (v === null) return true;
    try {
      return new URL(v).protocol === 'https:';
    } catch {
      return false;
    }
  }, 'ERROR_INVALID_VALUE');

const fields = {
  /** The door automatic ID (spec section 5: unique, no spaces). */
  number: zIdentifier(50),
  title: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD').max(200, 'ERROR_MAX_LENGTH'),
  businessObjectId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD'),
  serialCode: zOptionalText(100),
  brand: zOptionalText(100),
  model: zOptionalText(100),
  location: zOptionalText(200),
  warrantyUntil: zDate(),
  sensor: zOptionalText(200),
  notes: zOptionalText(4000),
  image: zImageUrl(),
};

/**
 * POST /doorautomatics {title, businessObjectId, …}: the catalogue's two fields are required; the
 * door automatic ID is proposed from the object when left out.
 */
export const ZCreateDoorAutomatic = z.object({ ...fields, number: fields.number.optional() });
export type TCreateDoorAutomatic = z.infer<typeof ZCreateDoorAutomatic>;

/** PUT /doorautomatics {id, …fields to change}. */
export const ZUpdateDoorAutomatic = z
  .object(fields)
  .partial()
  .extend({ id: z.string({ error: 'ERROR_REQUIRED_FIELD' }) });

/** GET /doorautomatics?businessObjectId&q&offset&limit. */
export const ZDoorAutomaticFilter = ZListQuery.extend({
  businessObjectId: z.string().trim().optional(),
});

/** GET /doorautomatics/id/propose?length&relationId: relationId is the object. */
export const ZProposeDoorAutomaticId = z.object({
  length: z.coerce.number({ error: 'ERROR_INVALID_VALUE' }).int().min(1).max(12).optional(),
  relationId: z.string().trim().optional(),
});

/** GET /doorautomatics/{id}/history?from&size. */
export const ZHistoryPage = z.object({
  from: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(200).default(20),
});
