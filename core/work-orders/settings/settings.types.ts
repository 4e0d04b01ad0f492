/** The work-order settings' shapes and constants (pure: the browser and the rules import them). */

/** The fields a tenant may make required on a work order (spec section 5). */
export const REQUIRED_FIELDS = [
  'tag',
  'contact',
  'email',
  'phone',
  'description',
  'invoiceMarking',
  'customerOrderNumber',
  'onSiteContact',
] as const;
export type RequiredField = (typeof REQUIRED_FIELDS)[number];

export const WORK_ORDER_MODES = ['default', 'advanced'] as const;
export type WorkOrderMode = (typeof WORK_ORDER_MODES)[number];

export interface WorkOrderStatus {
  id: string;
  name: string;
  isDefault: boolean;
  isClosing: boolean;
  sortOrder: number;
}
export interface WorkType {
  id: string;
  name: string;
  isDefault: boolean;
  sortOrder: number;
}
export interface Tag {
  id: string;
  name: string;
  color: string;
}

/** The tenant's work-order configuration (spec sections 3, 5 and 9). */
export interface WorkOrderSettings {
  statuses: WorkOrderStatus[];
  workTypes: WorkType[];
  tags: Tag[];
  requiredFields: RequiredField[];
  mode: WorkOrderMode;
  numberPrefix: string;
  /** The number the next work order gets. */
  nextNumber: number;
  /** Time reports lock on this day (1–28) of the next month; null: never by date. */
  timeLockDay: number | null;
}
