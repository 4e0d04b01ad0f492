/**
 * The security log's event types (spec section 3). Its own module, free of server code, so the
 * browser can list them in the log's filter.
 */
export const SECURITY_LOG_TYPES = [
  'add.group',
  'edit.group',
  'delete.group',
  'add.code',
  'edit.code',
  'edit.code.value',
  'view.code',
  'copy.code',
  'delete.code',
] as const;
export type SecurityLogType = (typeof SECURITY_LOG_TYPES)[number];
