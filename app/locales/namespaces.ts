/**
 * The translation namespaces, one JSON file per language each (app/locales/<lang>/<ns>.json).
 * Apart from the resources so that the browser can know them without loading every language.
 */
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
] as const;
