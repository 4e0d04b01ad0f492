/** This language's namespace files, each its own chunk (app/locales/load.ts loads them). */
export const files = import.meta.glob<Record<string, string>>('./*.json', { import: 'default' });
