/**
 * The app modules of spec section 6, listed once. A tenant enables a subset; user type `super`
 * bypasses module gating. App-module plugins may add more ids at boot.
 */
export const APP_MODULES = [
  'copy',
  'security',
  'files',
  'maps',
  'erp',
  'broadcast',
  'deviations',
  'doorautomatics',
  'customer_workorders',
  'customerzone',
  'checklists',
  'servicereports',
  'gps_tracker',
  'crm',
  'contracts',
  'projects',
  'drive',
  'workorder_signature',
  'invoice_rules',
  'reminders',
  'dispatch_rules',
  'dashboard',
  'distance_reports',
  'mfa',
  'microsoft_auth',
  'oncall',
  'regions',
  'id06',
  'importer_exporter',
  'supplier_inventory',
  'supplier_invoices',
  'supplier_tags',
  'article_groups',
  'workorder_invoice_details',
  'ui_settings',
  'statistics',
] as const;

export type AppModuleId = (typeof APP_MODULES)[number];

/**
 * The core modules whose screens or calls exist in this build (the rest of spec section 6 is
 * still to come): the settings page lists only these and the app-module plugins' modules, so a
 * switch always changes something. core/modules/app-modules.test.ts keeps it true against the
 * code's access declarations.
 */
export const BUILT_APP_MODULES: readonly AppModuleId[] = [
  'article_groups',
  'broadcast',
  'checklists',
  'contracts',
  'copy',
  'crm',
  'customer_workorders',
  'customerzone',
  'dashboard',
  'deviations',
  'dispatch_rules',
  'distance_reports',
  'drive',
  'erp',
  'files',
  'id06',
  'invoice_rules',
  'maps',
  'mfa',
  'microsoft_auth',
  'oncall',
  'projects',
  'regions',
  'reminders',
  'security',
  'servicereports',
  'statistics',
  'supplier_inventory',
  'supplier_invoices',
  'supplier_tags',
  'workorder_signature',
];

/** Modules a new tenant starts with. */
export const DEFAULT_APP_MODULES: readonly AppModuleId[] = APP_MODULES.filter(
  (m) => !['gps_tracker', 'microsoft_auth', 'mfa', 'id06', 'regions'].includes(m),
);
