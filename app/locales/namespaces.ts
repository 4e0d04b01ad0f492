/**
 * The translation namespaces, one JSON file per language each (app/locales/<lang>/<ns>.json).
 * Apart from the resources so that the browser can know them without loading every language.
 */
/** Beside the browser build (build/): which chunk holds each language's namespace (vite.config.ts). */
export const LOCALE_CHUNKS_FILE = 'locale-chunks.json';

export const NAMESPACES = [
  'common',
  'ui',
  'access',
  'auth',
  'users',
  'inventory',
  'customers',
  'objects',
  'articles',
  'suppliers',
  'doorautomatics',
  'importexport',
  'workorders',
  'workorderrows',
  'workorderclose',
  'documents',
  'calendar',
  'reminders',
  'checklists',
  'dispatch',
  'objectworkorders',
  'map',
  'files',
  'proposals',
  'sales',
  'proposalsettings',
  'invoicesettings',
  'proposaldocuments',
  'invoices',
  'agreementinvoices',
  'agreements',
  'contracts',
  'projects',
  'expenses',
  'oncall',
  'timetags',
  'objectagreement',
  'payroll',
  'time',
  'reports',
] as const;
