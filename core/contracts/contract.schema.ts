import { z } from 'zod';
import { zOptionalPlainDate } from '~/core/agreements/agreement-schema';
import { evenWithOtherErrors, zRequiredString, UUID_PATTERN } from '~/core/errors/validation';
import { zMoney } from '~/core/pricing/schemas';
import { blankToNull, zOptionalEmail, zOptionalIdOrUnset, zOptionalText, zOptionalUuid } from '~/core/registers/fields';
import { zIdentifier, ZListQuery, zQueryFlag } from '~/core/registers/list-query';
import { CONTRACT_LIST_STATUSES, CONTRACT_SCOPES, CONTRACT_SORTS, MAX_CONTRACT_SERVICES } from './contract-constants';

/**
 * The contract's shapes (spec section 3 "Contract: id, contact, sales user, total cost and value,
 * services (name, value, cost), invoice reference, stop date"), one schema for the form, the
 * action and the REST API. Messages are spec message keys.
 */

/** An empty money field is zero. */
const zAmount = () => z.preprocess((v) => (v === '' || v == null ? '0' : v), zMoney());

export const ZContractService = z.object({
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  value: zAmount(),
  cost: zAmount(),
});
export type TContractService = z.infer<typeof ZContractService>;

const contractFields = {
  title: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  customerId: z.preprocess(
    blankToNull,
    z.string({ error: 'ERROR_REQUIRED_FIELD' }).regex(UUID_PATTERN, 'ERROR_INVALID_VALUE'),
  ),
  contactName: zOptionalText(200),
  contactEmail: zOptionalEmail(),
  contactPhone: zOptionalText(50),
  salesUserId: zOptionalUuid(),
  startDate: zOptionalPlainDate(),
  stopDate: zOptionalPlainDate(),
  invoiceReference: zOptionalText(200),
  note: zOptionalText(4000),
  services: z
    .array(ZContractService, { error: 'ERROR_INVALID_VALUE' })
    .max(MAX_CONTRACT_SERVICES, 'ERROR_MAX_LENGTH')
    .default([]),
};

/**
 * The stop date is not before the start date. Checked even when other fields are wrong (`when`),
 * so the form shows every mistake at once.
 */
function withDates<T extends z.ZodType<{ startDate: unknown; stopDate: unknown }>>(schema: T) {
  return schema.refine(
    (v) => !(typeof v.startDate === 'string' && typeof v.stopDate === 'string' && v.stopDate < v.startDate),
    { message: 'ERROR_STOP_DATE_BEFORE_START_DATE', path: ['stopDate'], when: evenWithOtherErrors },
  );
}

/** POST /contracts {contract}: the contract ID is proposed when left out. */
export const ZCreateContract = z.object({
  contract: withDates(
    z.object({
      ...contractFields,
      number: z.preprocess(blankToNull, zIdentifier(50).nullish()),
      // left out: the asker; empty or null: nobody
      salesUserId: zOptionalIdOrUnset(),
    }),
  ),
});
export type TCreateContract = z.infer<typeof ZCreateContract>['contract'];

/** PUT /contracts {contract}: every field, the services replaced, naming the version it edited. */
export const ZUpdateContract = z.object({
  contract: withDates(
    z.object({
      ...contractFields,
      id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
      version: z.coerce
        .number({ error: 'ERROR_INVALID_VALUE' })
        .int('ERROR_INVALID_VALUE')
        .min(1, 'ERROR_INVALID_VALUE'),
      number: zIdentifier(50),
    }),
  ),
});
export type TUpdateContract = z.infer<typeof ZUpdateContract>['contract'];

/** GET /contracts: the list's filters, paging and order. */
export const ZContractList = ZListQuery.extend({
  status: z.enum(CONTRACT_LIST_STATUSES, { error: 'ERROR_INVALID_VALUE' }).default('open'),
  /** Left out: all for those who may read all, else their own. */
  scope: z.enum(CONTRACT_SCOPES, { error: 'ERROR_INVALID_VALUE' }).optional(),
  customerId: zOptionalUuid(),
  salesUserId: zOptionalUuid(),
  sort: z.enum(CONTRACT_SORTS, { error: 'ERROR_INVALID_VALUE' }).default('stopDate'),
  desc: zQueryFlag(false),
});
export type TContractList = z.infer<typeof ZContractList>;
