/**
 * This language's namespace files (core/i18n/locales/lv/<ns>.json) by namespace, each its own chunk
 * (app/locales/load.ts loads them).
 */
const byPath = import.meta.glob<Record<string, string>>('/core/i18n/locales/lv/*.json', { import: 'default' });

export const files = Object.fromEntries(
  Object.entries(byPath).map(([file, load]) => [file.slice(file.lastIndexOf('/') + 1, -'.json'.length), load]),
);
