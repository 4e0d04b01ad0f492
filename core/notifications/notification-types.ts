/**
 * The spec's notification types (product.md §9), and whether each reaches a person by mail when
 * neither they nor their company chose otherwise (decision 066). Listed apart from the service so
 * the browser can show them without server code.
 *
 * The built-in defaults: what concerns the person themselves or money is on (their sign-in
 * security, invoices, proposals, revisits, the access-code log of objects they answer for); what
 * every closed order or history entry would repeat is off, so nobody's inbox fills by default.
 */
export const NOTIFICATION_TYPES = [
  'INVOICE',
  'WORK_ORDER_HISTORY',
  'WORK_ORDER_REVISIT',
  'INVOICE_HISTORY',
  'PROPOSAL',
  'MFA_REGISTERED',
  'WORKORDER_ORDER_FINISH_BROADCAST',
  'WORKORDER_CLOSE',
  'MESSAGE',
  'BUSINESS_OBJECT_CODE_LOG',
] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const BUILT_IN_MAIL_DEFAULTS: Record<NotificationType, boolean> = {
  INVOICE: true,
  WORK_ORDER_HISTORY: false,
  WORK_ORDER_REVISIT: true,
  INVOICE_HISTORY: false,
  PROPOSAL: true,
  MFA_REGISTERED: true,
  WORKORDER_ORDER_FINISH_BROADCAST: false,
  WORKORDER_CLOSE: false,
  MESSAGE: false,
  BUSINESS_OBJECT_CODE_LOG: true,
};

export const isNotificationType = (v: unknown): v is NotificationType =>
  typeof v === 'string' && (NOTIFICATION_TYPES as readonly string[]).includes(v);

/**
 * The types Ordo mails staff for today (decision 066). The rest are offered and kept, so a choice
 * made now holds when their mail comes; the page says they are not sent yet.
 */
export const MAILED_NOTIFICATION_TYPES: readonly NotificationType[] = [
  'WORK_ORDER_REVISIT',
  'MFA_REGISTERED',
  'WORKORDER_ORDER_FINISH_BROADCAST',
  'WORKORDER_CLOSE',
  'MESSAGE',
];
