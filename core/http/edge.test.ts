import { describe, expect, it } from 'vitest';
import { crossOrigin, nulInUrl, nulPath } from './edge';

const base = {
  host: 'nordlarm.ordo.se',
  origin: undefined,
  secFetchSite: undefined,
  cookieAuthenticated: true,
  page: false,
};

describe('[security] edge checks', () => {
  it('finds the path of the first text holding NUL, in keys and nested values', () => {
    expect(nulPath({ a: 'ok', rows: [{ t: 'x' }, { t: 'y\u0000' }] })).toBe('rows.1.t');
    expect(nulPath({ ['k\u0000']: 1 })).toBe('k\\0');
    expect(nulPath('\u0000')).toBe('_');
    expect(nulPath({ a: 'ok', n: 1, b: null })).toBeNull();
    expect(nulInUrl(new URL('http://x/a/%00'))).toBe('path');
    expect(nulInUrl(new URL('http://x/a?q=1&title=a%00'))).toBe('title');
    expect(nulInUrl(new URL('http://x/a?q=%2500'))).toBeNull();
  });

  it('refuses cookie-authenticated writes from another host or site, and lets the own origin and programs pass', () => {
    const post = { ...base, method: 'POST' };
    expect(crossOrigin({ ...post, origin: 'https://evil.ordo.se' })).toBe(true);
    expect(crossOrigin({ ...post, origin: 'https://nordlarm.ordo.se:8443' })).toBe(true);
    expect(crossOrigin({ ...post, origin: 'null' })).toBe(true);
    expect(crossOrigin({ ...post, secFetchSite: 'same-site' })).toBe(true);
    expect(crossOrigin({ ...post, origin: 'https://NORDLARM.ordo.se', secFetchSite: 'same-origin' })).toBe(false);
    expect(crossOrigin({ ...post })).toBe(false);
    // A bearer token (no cookie) is not ambient authority; a page's form post is checked regardless.
    expect(crossOrigin({ ...post, cookieAuthenticated: false, origin: 'https://evil.ordo.se' })).toBe(false);
    expect(crossOrigin({ ...post, cookieAuthenticated: false, page: true, origin: 'https://evil.ordo.se' })).toBe(true);
    // Reading: a page link from anywhere is fine; an API call another site starts with the cookie is not.
    expect(crossOrigin({ ...base, method: 'GET', page: true, secFetchSite: 'cross-site' })).toBe(false);
    expect(crossOrigin({ ...base, method: 'GET', secFetchSite: 'cross-site' })).toBe(true);
    expect(crossOrigin({ ...base, method: 'GET', secFetchSite: 'same-origin' })).toBe(false);
  });
});
