import { z } from 'zod';
import { parsePlainDate } from '~/core/calendar/dates';
import { UUID_PATTERN, zRequiredString } from '~/core/errors/validation';
import {
  blankToNull,
  zFormBool,
  zOptionalIdOrUnset,
  zOptionalText,
  zOptionalTextOrUnset,
  zOptionalUuid,
} from '~/core/registers/fields';
import { ZListQuery, zQueryFlag } from '~/core/registers/list-query';
import { CHANGE_STATES } from './deviation-rules';

/** What a deviation can be about (issue 34 item 1), as the relations name them. */
export const RELATION_KINDS = [
  'work_order',
  'object',
  'customer',
  'project',
  'supplier',
  'supplier_invoice',
  'supplier_order',
  'service_report',
] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

/** The list's status filter (spec section 4: open, closed, all). */
export const DEVIATION_FILTER_STATUSES = ['open', 'closed', 'all'] as const;

const isDate = (v: string) => parsePlainDate(v) !== null;
/** An optional YYYY-MM-DD: blank → null. */
const zOptionalDate = () =>
  z
    .preprocess(blankToNull, z.string().refine(isDate, 'ERROR_INVALID_DATE').nullish())
    .transform((v) => v ?? null);
/** An optional date for a partial save: left out stays undefined, blank clears. */
const zOptionalDateOrUnset = () =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (typeof v === 'string' ? v.trim() || null : v))
    .refine((v) => v == null || isDate(v), 'ERROR_INVALID_DATE');

export const ZDeviationRelation = z.object({
  kind: z.enum(RELATION_KINDS, { error: 'ERROR_INVALID_VALUE' }),
  targetId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).regex(UUID_PATTERN, 'ERROR_INVALID_VALUE'),
  /** A service-report field, as "pageId.fieldId" (only with kind service_report). */
  field: zOptionalText(200),
});
export type TDeviationRelation = z.infer<typeof ZDeviationRelation>;

const zRelations = () => z.array(ZDeviationRelation, { error: 'ERROR_INVALID_VALUE' }).max(50, 'ERROR_INVALID_VALUE');

export const ZCreateDeviation = z.object({
  title: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  description: zOptionalText(4000),
  categoryId: zOptionalUuid(),
  /** The day it happened; today when left out. */
  occurredOn: zOptionalDate(),
  responsibleUserId: zOptionalUuid(),
  dueDate: zOptionalDate(),
  relations: zRelations().default([]),
});
export type TCreateDeviation = z.infer<typeof ZCreateDeviation>;

/** PATCH /deviations: left out is unchanged, null or '' clears. */
export const ZPatchDeviation = z.object({
  id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  title: zRequiredString().max(200, 'ERROR_MAX_LENGTH').optional(),
  description: zOptionalTextOrUnset(4000),
  categoryId: zOptionalIdOrUnset(),
  occurredOn: zOptionalDateOrUnset().refine((v) => v !== null, 'ERROR_REQUIRED_FIELD'),
  responsibleUserId: zOptionalIdOrUnset(),
  dueDate: zOptionalDateOrUnset(),
  shortTermSolution: zOptionalTextOrUnset(4000),
  longTermSolution: zOptionalTextOrUnset(4000),
  changeNeeded: zFormBool().optional(),
  changeState: z.preprocess(blankToNull, z.enum(CHANGE_STATES, { error: 'ERROR_INVALID_VALUE' }).nullish()).transform(
    (v) => v ?? undefined,
  ),
});
export type TPatchDeviation = z.infer<typeof ZPatchDeviation>;

export const ZDeviationRelations = z.object({ id: z.string(), relations: zRelations() });

export const ZCloseDeviation = z.object({
  id: z.string(),
  comment: zRequiredString().max(4000, 'ERROR_MAX_LENGTH'),
});

/** The list filter's value for "without a category" / "related to nothing". */
export const NONE = 'none';

/** The list's filters (issue 34 item 5), as the URL and GET /deviations carry them. */
export const ZDeviationFilter = ZListQuery.extend({
  status: z.enum(DEVIATION_FILTER_STATUSES, { error: 'ERROR_INVALID_VALUE' }).default('open'),
  /** A category, or `none`: those without one (the dashboard's "no category" bar). */
  categoryId: z
    .preprocess(
      blankToNull,
      z.union([z.literal(NONE), z.string().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE')], { error: 'ERROR_INVALID_VALUE' }).nullish(),
    )
    .transform((v) => v ?? null),
  /** What it is about, or `none`: those related to nothing (the dashboard's "no relation" bar). */
  relationKind: z.preprocess(blankToNull, z.enum([...RELATION_KINDS, NONE], { error: 'ERROR_INVALID_VALUE' }).nullish()),
  /** With relationKind: one record's deviations (an object's, a work order's). */
  relationId: zOptionalUuid(),
  responsibleUserId: zOptionalUuid(),
  /** Raised from … to (inclusive). */
  from: zOptionalDate(),
  to: zOptionalDate(),
  /** Closed from … to (inclusive): the dashboard's closed-per-month numbers land here. */
  closedFrom: zOptionalDate(),
  closedTo: zOptionalDate(),
  overdue: zQueryFlag(false),
});
export type TDeviationFilter = z.infer<typeof ZDeviationFilter>;

/** Settings → deviations: a category (name 2–50) and who is told when one is raised. */
export const ZDeviationCategory = z.object({
  id: zOptionalUuid(),
  name: zRequiredString().min(2, 'ERROR_MIN_LENGTH_2').max(50, 'ERROR_MAX_LENGTH'),
  notifyUserIds: z
    .array(z.string().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE'), { error: 'ERROR_INVALID_VALUE' })
    .max(50)
    .default([]),
});
export type TDeviationCategory = z.infer<typeof ZDeviationCategory>;
