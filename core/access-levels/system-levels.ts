import { resources } from '~/core/i18n/locales';
import type { Lang } from '~/core/i18n/languages';

/**
 * The access levels every tenant is seeded with (tenants/seed.ts), by the English name and
 * description they are stored under, and their words' keys in `core/i18n/locales/<lang>/access.json`.
 */
export const SYSTEM_ACCESS_LEVELS = [
  { key: 'administrator', displayName: 'Administrator', description: 'Everything' },
  {
    key: 'office',
    displayName: 'Office',
    description: 'Office staff: everything but users, access levels and instance settings',
  },
  {
    key: 'technician',
    displayName: 'Technician',
    description: 'Own work orders, time reports and the registers they need on site',
  },
] as const;

export type SystemAccessLevelKey = (typeof SYSTEM_ACCESS_LEVELS)[number]['key'];

function systemLevel(storedName: string) {
  return SYSTEM_ACCESS_LEVELS.find((l) => l.displayName === storedName);
}

/**
 * A seeded access level's name in the reader's language (issue 28 item 19: "Office" and
 * "Technician" read in English in a Swedish tenant). A level an admin renamed is shown as named;
 * so is its description once changed.
 */
export function shownLevelName(lang: Lang, storedName: string): string {
  const level = systemLevel(storedName);
  if (!level) return storedName;
  return (resources[lang].access as Record<string, string>)[`level.${level.key}.name`] ?? storedName;
}

export function shownLevelDescription(lang: Lang, storedName: string, storedDescription: string | null): string | null {
  const level = systemLevel(storedName);
  if (!level || storedDescription !== level.description) return storedDescription;
  return (resources[lang].access as Record<string, string>)[`level.${level.key}.description`] ?? storedDescription;
}

/**
 * What a save stores for a seeded level: the editor shows its words translated, so a save that
 * sends them back unchanged keeps the stored English ones (still translated for every reader)
 * instead of fixing them in the saver's language.
 */
export function storedLevelTexts(
  lang: Lang,
  before: { displayName: string; description: string | null },
  after: { displayName: string; description: string | null },
): { displayName: string; description: string | null } {
  return {
    displayName:
      after.displayName === shownLevelName(lang, before.displayName) ? before.displayName : after.displayName,
    description:
      after.description === shownLevelDescription(lang, before.displayName, before.description)
        ? before.description
        : after.description,
  };
}
