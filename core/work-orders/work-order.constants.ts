/** The work order's fixed vocabularies, without zod, so pages can import them cheaply. */

/** Spec section 3: a work order's priority. */
export const PRIORITIES = ['high', 'medium', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** The lists of the work-order screen (spec section 2). */
export const WORK_ORDER_LISTS = ['open', 'closed', 'recentlyClosed', 'ata', 'history', 'recycleBin'] as const;
export type WorkOrderList = (typeof WORK_ORDER_LISTS)[number];

/** Sorts of the list; intake (newest first) is the default (spec section 9). */
export const WORK_ORDER_SORTS = ['intake', 'updated', 'number', 'title', 'customer', 'plannedStart'] as const;
export type WorkOrderSort = (typeof WORK_ORDER_SORTS)[number];

export const SCHEDULE_STATUSES = ['both', 'notScheduled', 'scheduled'] as const;
