import { z } from 'zod';
import { blankToNull, zOptionalEmail, zOptionalUuid } from '~/core/registers/fields';
import { isPlainDate } from '~/core/calendar/dates';
import { UUID_PATTERN } from '~/core/errors/validation';
import { MAX_PAGE_SIZE, zQueryFlag } from '~/core/registers/list-query';

import { PRIORITIES, SCHEDULE_STATUSES, WORK_ORDER_LISTS, WORK_ORDER_SORTS } from './work-order.constants';

export {
  PRIORITIES,
  SCHEDULE_STATUSES,
  WORK_ORDER_LISTS,
  WORK_ORDER_SORTS,
  type Priority,
  type WorkOrderList,
  type WorkOrderSort,
} from './work-order.constants';

/** Optional text: trimmed, empty becomes null. */
const text = (max: number) =>
  z.preprocess(blankToNull, z.string().trim().max(max, 'ERROR_MAX_LENGTH').nullish()).transform((v) => v ?? null);

const email = zOptionalEmail;

const uuid = () => z.string().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE');
const optionalUuid = zOptionalUuid;

/** A timestamp as ISO text or a Date; blank is null. */
const timestamp = () =>
  z
    .preprocess(
      (v) => {
        const b = blankToNull(v);
        if (b === null || b === undefined) return b;
        const d = b instanceof Date ? b : typeof b === 'string' || typeof b === 'number' ? new Date(b) : null;
        return d && !Number.isNaN(d.getTime()) ? d : 'invalid';
      },
      z.date({ error: 'ERROR_INVALID_VALUE' }).nullish(),
    )
    .transform((v) => v ?? null);

/** Every field a create or an edit may carry, in the API's names (spec section 3). */
const fields = {
  title: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD').max(200, 'ERROR_MAX_LENGTH'),
  description: text(20000),
  internalInfo: text(20000),
  summary: text(20000),
  customerId: optionalUuid(),
  businessObjectId: optionalUuid(),
  statusId: optionalUuid(),
  workTypeId: optionalUuid(),
  priority: z.enum(PRIORITIES, { error: 'ERROR_INVALID_VALUE' }),
  contactName: text(200),
  contactEmail: email(),
  contactPhone: text(50),
  onSiteContactName: text(200),
  onSiteContactPhone: text(50),
  street: text(200),
  postIndex: text(20),
  city: text(100),
  customerAddressId: optionalUuid(),
  plannedStart: timestamp(),
  plannedEnd: timestamp(),
  customerOrderNumber: text(100),
  invoiceMarking: text(200),
  id06Code: text(100),
  /** The project the order belongs to (null: none). */
  projectId: optionalUuid(),
  /** Created as the project's extra work (ATA, pending): needs workorders:create_project_extra_work. */
  projectExtra: z.boolean({ error: 'ERROR_INVALID_VALUE' }),
  /** User ids; at least one, nobody twice (checked by the service for its messages). */
  assignees: z.array(uuid(), { error: 'ERROR_INVALID_VALUE' }).max(100),
  tags: z.array(uuid(), { error: 'ERROR_INVALID_VALUE' }).max(50),
};

export const ZWorkOrderFields = z.object(fields).partial();
export type TWorkOrderFields = z.infer<typeof ZWorkOrderFields>;

const plannedOrder = (wo: { plannedStart?: Date | null; plannedEnd?: Date | null }) =>
  !wo.plannedStart || !wo.plannedEnd || wo.plannedEnd >= wo.plannedStart;
const plannedIssue = { message: 'ERROR_INVALID_VALUE', path: ['plannedEnd'] };

/** POST /wo {workOrder}: a title is needed; defaults come from the settings. */
export const ZCreateWorkOrder = ZWorkOrderFields.extend({ title: fields.title }).refine(plannedOrder, plannedIssue);

/** PATCH /wo {workOrder: {id, …}}: the fields given change, the others stay. */
export const ZEditWorkOrder = ZWorkOrderFields.extend({ id: z.string() }).refine(plannedOrder, plannedIssue);

/** The entity inside a body `{workOrder: {…}}`, so field errors name the entity's fields. */
export function unwrapWorkOrder(raw: unknown): unknown {
  const inner = raw && typeof raw === 'object' ? (raw as { workOrder?: unknown }).workOrder : undefined;
  return inner && typeof inner === 'object' ? inner : {};
}

/** A list of ids from a query string: repeated (`a=1&a=2`) or comma-separated (`a=1,2`). */
export const zIdList = () =>
  z
    .preprocess((v) => {
      if (v === undefined || v === null || v === '') return [];
      const items = (Array.isArray(v) ? v : [v]).flatMap((x) => String(x).split(','));
      return items.map((x) => x.trim()).filter(Boolean);
    }, z.array(uuid()).max(200))
    .default([]);

const date = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'ERROR_INVALID_VALUE')
    .refine((v) => isPlainDate(v), 'ERROR_INVALID_VALUE')
    .optional();

/** GET /wo: which list, the filters of spec section 2, the sort and the page. */
export const ZWorkOrderListQuery = z.object({
  list: z.enum(WORK_ORDER_LISTS, { error: 'ERROR_INVALID_VALUE' }).default('open'),
  sort: z.enum(WORK_ORDER_SORTS, { error: 'ERROR_INVALID_VALUE' }).default('intake'),
  from: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
  search: z.string().trim().max(200, 'ERROR_MAX_LENGTH').optional(),
  workTypes: zIdList(),
  /** The catalogue's singular name for the same filter. */
  workType: zIdList(),
  tags: zIdList(),
  status: zIdList(),
  departments: zIdList(),
  ignoredUsers: zIdList(),
  assignees: zIdList(),
  assignee: zIdList(),
  createUserId: z.preprocess(blankToNull, uuid().nullish()),
  unassigned: zQueryFlag(false),
  onlyMine: zQueryFlag(false),
  customerType: z.preprocess(blankToNull, z.enum(['private', 'company']).nullish()),
  scheduleStatus: z.preprocess(blankToNull, z.enum(SCHEDULE_STATUSES).nullish()).transform((v) => v ?? 'both'),
  /** false hides orders already planned in the calendar. */
  includeScheduled: zQueryFlag(true),
  /** Orders of regular (not potential) customers, and of potential ones. */
  showRegular: zQueryFlag(true),
  showPotential: zQueryFlag(true),
  /** Orders of one project. */
  project: z.preprocess(blankToNull, uuid().nullish()),
  /**
   * Orders whose object is in this region (the regions module, decision 067); `all` for every
   * region; left out, the session's region.
   */
  region: z.preprocess(blankToNull, z.string().trim().max(100, 'ERROR_MAX_LENGTH').nullish()),
  /** The closed list's period (closing dates, inclusive); this ISO week when not given. */
  closedFrom: date(),
  closedTo: date(),
});
export type WorkOrderListQuery = z.infer<typeof ZWorkOrderListQuery>;

/** GET /wo/q?q=: a quick search, at most `size` orders. */
export const ZWorkOrderSearch = z.object({
  q: z.string().trim().max(200, 'ERROR_MAX_LENGTH').default(''),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20),
});

export const ZPage = z.object({
  from: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(100),
});
