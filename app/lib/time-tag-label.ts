import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/** The i18n namespace of the time-report tags' labels (`code.SEM`, …) and their settings page. */
export const TIME_TAGS_NS = 'timetags';

/**
 * What a time-report tag is called on screen: the name typed in the settings, else the translated
 * meaning of its code (the seeded Swedish payroll codes have no name), else the code itself.
 * Any `t` works (the key names its namespace), but the page must load the namespace: use
 * `useTagLabel()`, or name `timetags` in one of its `useTranslation` calls.
 */
export function tagLabel(t: TFunction, tag: { code: string; name: string | null }): string {
  return tag.name ?? t(`${TIME_TAGS_NS}:code.${tag.code}`, { defaultValue: tag.code });
}

/** `tagLabel` bound to the tags' namespace, which it loads (server render and browser alike). */
export function useTagLabel(): (tag: { code: string; name: string | null }) => string {
  const { t } = useTranslation(TIME_TAGS_NS);
  return (tag) => tagLabel(t, tag);
}
