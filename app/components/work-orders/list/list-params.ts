import {
  WORK_ORDER_LISTS,
  WORK_ORDER_SORTS,
  type WorkOrderList,
  type WorkOrderSort,
} from '~/core/work-orders/work-order.constants';

/** Spec section 9: the work-order list searches 300 ms after the last key. */
export const WO_LIST_DEBOUNCE_MS = 300;
/** Orders per load; "show more" appends the next offset. */
export const WO_PAGE_SIZE = 50;

/** The multi-value filters, comma-separated in the address (the list call reads them so). */
export const ID_LIST_FILTERS = ['workTypes', 'tags', 'status', 'assignees', 'departments', 'ignoredUsers'] as const;
export type IdListFilter = (typeof ID_LIST_FILTERS)[number];

/** The boolean filters and what they are when absent. */
export const FLAG_FILTERS = {
  onlyMine: false,
  unassigned: false,
  includeScheduled: true,
  showRegular: true,
  showPotential: true,
} as const;
export type FlagFilter = keyof typeof FLAG_FILTERS;

const flag = (v: string | null, fallback: boolean) => (v === null ? fallback : v === 'true' || v === '1');

/** The list tab's state, read from its query string. */
export function listParams(params: URLSearchParams) {
  const list = (WORK_ORDER_LISTS as readonly string[]).includes(params.get('list') ?? '')
    ? (params.get('list') as WorkOrderList)
    : 'open';
  const sort = (WORK_ORDER_SORTS as readonly string[]).includes(params.get('sort') ?? '')
    ? (params.get('sort') as WorkOrderSort)
    : 'intake';
  const ids = Object.fromEntries(
    ID_LIST_FILTERS.map((k) => [k, (params.get(k) ?? '').split(',').filter(Boolean)]),
  ) as Record<IdListFilter, string[]>;
  const flags = Object.fromEntries(
    Object.entries(FLAG_FILTERS).map(([k, fallback]) => [k, flag(params.get(k), fallback)]),
  ) as Record<FlagFilter, boolean>;
  const scheduleStatus = params.get('scheduleStatus') ?? 'both';
  const customerType = params.get('customerType') ?? '';
  const createUserId = params.get('createUserId') ?? '';
  /** The region asked for ('all' for every one); empty: the session's (decision 067). */
  const region = params.get('region') ?? '';
  const search = params.get('search') ?? '';
  const filtered =
    Boolean(search || customerType || createUserId || region) ||
    scheduleStatus !== 'both' ||
    ID_LIST_FILTERS.some((k) => ids[k].length > 0) ||
    Object.entries(FLAG_FILTERS).some(([k, fallback]) => flags[k as FlagFilter] !== fallback);
  return {
    list,
    sort,
    search,
    ids,
    flags,
    scheduleStatus,
    customerType,
    createUserId,
    region,
    closedFrom: params.get('closedFrom') ?? '',
    closedTo: params.get('closedTo') ?? '',
    filtered,
    /** How many filters are set (the filter button's badge). */
    count:
      ID_LIST_FILTERS.filter((k) => ids[k].length > 0).length +
      Object.entries(FLAG_FILTERS).filter(([k, fallback]) => flags[k as FlagFilter] !== fallback).length +
      [customerType, createUserId, region].filter(Boolean).length +
      (scheduleStatus !== 'both' ? 1 : 0),
  };
}
