import type { UIMatch } from 'react-router';

/**
 * A page's `<title>` (WCAG 2.4.2), declared by the route as `handle = pageTitle(...)` and read by
 * the root Layout: "<page> · <company> · Ordo". `key` is an i18n key in the common namespace; on a
 * record, `name` reads the record's number or name from the loader's data, as `{{name}}` of the key.
 * A record that has none yet (a new one), or no data (an error), takes the next title up the routes.
 */
export interface PageTitle {
  key: string;
  name?: (data: never) => string | number | null | undefined;
  /** The key used when `name` finds none (a new record): "New proposal". */
  orElse?: string;
  /** A section the page sits in, added after it: "Users – Settings". */
  within?: string;
}

export interface PageTitleHandle {
  title: PageTitle;
}

export function pageTitle<D = never>(
  key: string,
  name?: ((data: D) => string | number | null | undefined) | null,
  options: { orElse?: string; within?: string } = {},
): PageTitleHandle {
  return { title: { key, ...(name ? { name: name as PageTitle['name'] } : {}), ...options } };
}

export function isPageTitleHandle(handle: unknown): handle is PageTitleHandle {
  return typeof handle === 'object' && handle !== null && 'title' in handle && typeof handle.title === 'object';
}

/** The deepest route's title as a key and its values, or null where no route names one. */
export function titleOfMatches(
  matches: readonly Pick<UIMatch, 'handle' | 'loaderData'>[],
): { key: string; values: Record<string, string | number>; within?: string } | null {
  for (const match of [...matches].reverse()) {
    if (!isPageTitleHandle(match.handle)) continue;
    const { key, name, orElse, within } = match.handle.title;
    const section = within ? { within } : {};
    if (!name) return { key, values: {}, ...section };
    let value: string | number | null | undefined = null;
    try {
      if (match.loaderData != null)
        value = (name as (data: unknown) => string | number | null | undefined)(match.loaderData);
    } catch {
      value = null;
    }
    if (value != null && value !== '') return { key, values: { name: value }, ...section };
    if (orElse && match.loaderData != null) return { key: orElse, values: {}, ...section };
  }
  return null;
}

/** "<page> · <company> · Ordo", leaving out what is unknown. */
export function documentTitle(page: string | null, company: string | null | undefined): string {
  return [page, company, 'Ordo'].filter(Boolean).join(' · ');
}
