import { wallClockToIso } from '~/core/work-orders/time-rules';

const TEXT_FIELDS = [
  'title',
  'description',
  'internalInfo',
  'summary',
  'statusId',
  'workTypeId',
  'priority',
  'customerId',
  'businessObjectId',
  'customerAddressId',
  'street',
  'postIndex',
  'city',
  'contactName',
  'contactEmail',
  'contactPhone',
  'onSiteContactName',
  'onSiteContactPhone',
  'customerOrderNumber',
  'invoiceMarking',
  'id06Code',
] as const;

/**
 * The order form's fields as the work-order API's `workOrder`: only what the form carried (a field
 * the person may not see, like internal info, is left out and so left alone), planned times from
 * the tenant's wall clock to instants, assignees and tags as id lists.
 */
export function workOrderFromForm(form: FormData, fallbackTimeZone: string): Record<string, unknown> {
  const wo: Record<string, unknown> = {};
  for (const name of TEXT_FIELDS) if (form.has(name)) wo[name] = String(form.get(name) ?? '');
  const timeZone = String(form.get('timeZone') || fallbackTimeZone);
  for (const name of ['plannedStart', 'plannedEnd'] as const)
    if (form.has(name)) wo[name] = wallClockToIso(String(form.get(name) ?? ''), timeZone);
  for (const name of ['assignees', 'tags'] as const)
    if (form.has(`${name}.sent`)) wo[name] = [...new Set(form.getAll(name).map(String))];
  // the project picker (empty: none), or a new order made from a project's screen; extra work (ATA)
  if (form.has('projectId')) wo.projectId = String(form.get('projectId') ?? '');
  if (form.get('projectExtra') === '1') wo.projectExtra = true;
  return wo;
}
