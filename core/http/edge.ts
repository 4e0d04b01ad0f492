import { AppError } from '~/core/errors/app-error';

/**
 * What every request is checked for before anything reads it (issue 11, found by probing).
 *
 * - A NUL character: PostgreSQL refuses it in text, so any text that carries one would fail deep
 *   in a statement as a server error. It is refused at the edge as bad input, the field named.
 * - Cross-origin writes: tenants live on sibling subdomains of one site, so SameSite=Lax lets a
 *   sibling's page post with a person's session cookie. A state-changing request a cookie
 *   authenticates must come from the tenant's own origin.
 */

export const NUL = '\u0000';
export const INVALID_CHARACTER = 'ERROR_INVALID_CHARACTER';

/** The dotted path of the first string (or key) holding a NUL character, or null. */
export function nulPath(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path.join('.') || '_' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], [...path, String(i)]);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes(NUL)) return [...path, k.replaceAll(NUL, '\\0')].join('.');
      const found = nulPath(v, [...path, k]);
      if (found !== null) return found;
    }
  }
  return null;
}

/** Throws 400 VALIDATION_FAILED `{fields: {<path>: [ERROR_INVALID_CHARACTER]}}` for input holding NUL. */
export function refuseNul(value: unknown): void {
  const field = nulPath(value);
  if (field !== null) throw new AppError('VALIDATION_FAILED', 400, { fields: { [field]: [INVALID_CHARACTER] } });
}

/** The field of a URL (`path`, or a query parameter's name) holding NUL, or null. */
export function nulInUrl(url: URL): string | null {
  if (url.pathname.includes('%00') || url.pathname.includes(NUL)) return 'path';
  for (const [k, v] of url.searchParams) if (k.includes(NUL) || v.includes(NUL)) return k.replaceAll(NUL, '\\0');
  return null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface OriginCheck {
  method: string;
  /** The host the request was addressed to (the tenant's host, as resolved). */
  host: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** Whether only a cookie could authenticate it (no Authorization header). */
  cookieAuthenticated: boolean;
  /** Whether it is a page (form posts of pages are from browsers, signed in or not). */
  page: boolean;
}

/**
 * Whether a request must be refused as cross-origin:
 * - a state-changing request a cookie authenticates, or any page's form post (the sign-in form
 *   too), whose `Sec-Fetch-Site` is cross-site or same-site (a sibling subdomain), or whose
 *   `Origin` names another host;
 * - an API call a cookie authenticates, whatever its method, that the browser says another site
 *   started: the API has state-changing GETs (`GET /logout`, spec), and only our own pages call
 *   it with the cookie.
 * A client that sends neither header is not a browser and carries no ambient cookie of a person.
 */
export function crossOrigin(r: OriginCheck): boolean {
  const site = r.secFetchSite?.toLowerCase();
  const foreignSite = site === 'cross-site' || site === 'same-site';
  if (SAFE_METHODS.has(r.method.toUpperCase())) return !r.page && r.cookieAuthenticated && foreignSite;
  if (!r.cookieAuthenticated && !r.page) return false;
  if (foreignSite) return true;
  if (r.origin === undefined) return false;
  if (r.origin === 'null') return true;
  try {
    return new URL(r.origin).host.toLowerCase() !== r.host.toLowerCase();
  } catch {
    return true;
  }
}
