import { z } from 'zod';
import { zPlainDate } from '~/core/agreements/agreement-schema';
import { evenWithOtherErrors, UUID_PATTERN } from '~/core/errors/validation';
import { blankToNull, zOptionalText, zOptionalTextOrUnset } from '~/core/registers/fields';

/**
 * The shapes of resource planning (spec section 2 "Resource planning calendar"; api-calls.md
 * "Resources"): a person or a supplier planned on a project over a span of days, one schema for the
 * planner's dialog, its drag and the REST API. Messages are spec message keys.
 */

const zId = () =>
  z.preprocess(blankToNull, z.string({ error: 'ERROR_REQUIRED_FIELD' }).regex(UUID_PATTERN, 'ERROR_INVALID_VALUE'));
const zOptionalId = () => z.preprocess(blankToNull, z.string().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE').nullish());

/** Hours a working day over the span: more than 0, at most 24, in hundredths ("7,5" too); blank is the whole day. */
const zHoursPerDay = () =>
  z
    .preprocess(
      (v) => (v === '' || v == null ? null : typeof v === 'string' ? Number(v.trim().replace(',', '.')) : v),
      z.number({ error: 'ERROR_INVALID_VALUE' }).gt(0, 'ERROR_INVALID_VALUE').max(24, 'ERROR_INVALID_VALUE').nullable(),
    )
    .transform((v) => (v === null ? null : Math.round(v * 100) / 100));

/** The end is not before the start (both days count); checked even when other fields are wrong. */
const endNotBeforeStart = {
  message: 'ERROR_STOP_DATE_BEFORE_START_DATE',
  path: ['endDate'],
  when: evenWithOtherErrors,
};
const datesInOrder = (v: { startDate?: unknown; endDate?: unknown }) =>
  !(typeof v.startDate === 'string' && typeof v.endDate === 'string' && v.endDate < v.startDate);

/** Exactly one of a person and a supplier. */
const oneOwner = (v: { userId?: string | null; supplierId?: string | null }) =>
  (v.userId ? 1 : 0) + (v.supplierId ? 1 : 0) === 1;

/** POST /projects/resources: a new plan. */
export const ZPlanResource = z
  .object({
    projectId: zId(),
    userId: zOptionalId(),
    supplierId: zOptionalId(),
    startDate: zPlainDate(),
    endDate: zPlainDate(),
    hoursPerDay: zHoursPerDay().optional(),
    comment: zOptionalText(1000),
  })
  .refine(oneOwner, { message: 'ERROR_REQUIRED_FIELD', path: ['userId'], when: evenWithOtherErrors })
  .refine(datesInOrder, endNotBeforeStart);
export type TPlanResource = z.infer<typeof ZPlanResource>;

/**
 * PUT /projects/resources {id, …}: what is given changes (a drag sends the dates alone); a person
 * given replaces a supplier and the other way round; null or blank hours and comment clear them.
 */
export const ZUpdateResource = z
  .object({
    id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
    projectId: zId().optional(),
    userId: zOptionalId(),
    supplierId: zOptionalId(),
    startDate: zPlainDate().optional(),
    endDate: zPlainDate().optional(),
    hoursPerDay: zHoursPerDay().optional(),
    comment: zOptionalTextOrUnset(1000),
  })
  .refine((v) => !(v.userId && v.supplierId), { message: 'ERROR_INVALID_VALUE', path: ['supplierId'] })
  .refine(datesInOrder, endNotBeforeStart);
export type TUpdateResource = z.infer<typeof ZUpdateResource>;

/** A list of ids from a query (?userIds=a,b or repeated). */
const zIdList = () =>
  z.preprocess(
    (v) =>
      v == null || v === ''
        ? undefined
        : (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(',')).filter((x) => x.trim() !== ''),
    z.array(z.string().trim().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE')).max(500, 'ERROR_INVALID_VALUE').optional(),
  );

/** GET /projects/resources/{from}/{to}?projectId&userIds: the calendar of a period (both days count). */
export const ZResourcePlanQuery = z.object({
  from: zPlainDate(),
  to: zPlainDate(),
  // any text: a malformed id is a project that does not exist (404), as everywhere
  projectId: z.preprocess(blankToNull, z.string().nullish()),
  userIds: zIdList(),
});
export type TResourcePlanQuery = z.infer<typeof ZResourcePlanQuery>;

/** GET /projects/resources/suppliers?projectId: the suppliers one can plan, linked to that project first. */
export const ZPlannableSuppliersQuery = z.object({
  // any text, as in the calendar: a malformed id is a project that does not exist (404)
  projectId: z.preprocess(blankToNull, z.string().nullish()),
});
