/**
 * The session token travels as the `__Host-ordo_session` cookie for the web (Secure, HttpOnly,
 * SameSite=Lax, Path=/, no Domain: bound to exactly this host) and as `Authorization: Bearer`
 * for the API. It is the same opaque token either way.
 */
export const SESSION_COOKIE = '__Host-ordo_session';
/**
 * A customer-zone session's cookie (decision 061): another name for another kind of session, so a
 * browser signed in to both keeps them apart and neither is ever read as the other.
 */
export const ZONE_SESSION_COOKIE = '__Host-ordo_zone';

export function readToken(
  headers: { cookie?: string | null; authorization?: string | null },
  cookieName: string = SESSION_COOKIE,
): string | null {
  const auth = headers.authorization;
  if (auth && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '').trim() || null;
  const cookie = headers.cookie;
  if (!cookie) return null;
  for (const part of cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === cookieName) return decodeURIComponent(rest.join('=')) || null;
  }
  return null;
}

export function sessionCookie(token: string, expiresAt: Date, name: string = SESSION_COOKIE): string {
  return `${name}=${token}; Path=/; Secure; HttpOnly; SameSite=Lax; Expires=${expiresAt.toUTCString()}`;
}

export function clearSessionCookie(name: string = SESSION_COOKIE): string {
  return `${name}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/** The UI language chosen before sign-in (and by the language switch), readable by the page. */
export const LANG_COOKIE = 'ordo_lang';
export function langCookie(lang: string): string {
  return `${LANG_COOKIE}=${lang}; Path=/; SameSite=Lax; Max-Age=${365 * 86_400}`;
}
export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const [k, ...rest] = part.trim().split('=');
    if (k === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** A sign-in waiting for its second factor: the challenge token, for five minutes. */
export const MFA_COOKIE = 'ordo_mfa';
export function mfaCookie(token: string): string {
  return `${MFA_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=300`;
}
