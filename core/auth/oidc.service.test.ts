import { describe, expect, it } from 'vitest';
import { failurePath, OidcRefused, verifiedEmail } from './oidc.service';
import type { OidcClientConfig } from './oidc-settings.service';

const client = (allowedDomains: string[]): OidcClientConfig => ({
  provider: 'microsoft',
  enabled: true,
  issuer: 'https://login.microsoftonline.com/x/v2.0',
  clientId: 'c',
  clientSecret: 's',
  allowedDomains,
});
const reason = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof OidcRefused ? e.reason : e;
  }
  return 'accepted';
};

describe('[oidc] e-mail rules', () => {
  it('accepts a verified e-mail from any domain when the list is empty', () => {
    expect(verifiedEmail('google', client([]), { email: 'A@X.se', email_verified: true })).toBe('A@X.se');
  });
  it('refuses an unverified or missing e-mail', () => {
    expect(reason(() => verifiedEmail('google', client([]), { email: 'a@x.se', email_verified: false }))).toBe(
      'email_not_verified',
    );
    expect(reason(() => verifiedEmail('google', client(['x.se']), { email: 'a@x.se' }))).toBe('email_not_verified');
    expect(reason(() => verifiedEmail('google', client([]), { email_verified: true }))).toBe('no_email');
  });
  it('trusts Microsoft without email_verified only for an allowed domain', () => {
    expect(reason(() => verifiedEmail('microsoft', client([]), { email: 'a@x.se' }))).toBe('email_not_verified');
    expect(reason(() => verifiedEmail('microsoft', client(['y.se']), { email: 'a@x.se' }))).toBe('email_not_verified');
    expect(reason(() => verifiedEmail('microsoft', client(['X.se']), { email: 'a@x.SE' }))).toBe('accepted');
    expect(reason(() => verifiedEmail('microsoft', client(['x.se']), { email: 'a@x.se', email_verified: false }))).toBe(
      'email_not_verified',
    );
  });
  it('checks the domain exactly (no suffix tricks)', () => {
    const c = client(['x.se']);
    expect(reason(() => verifiedEmail('google', c, { email: 'a@evilx.se', email_verified: true }))).toBe(
      'domain_not_allowed',
    );
    expect(reason(() => verifiedEmail('google', c, { email: 'a@sub.x.se', email_verified: true }))).toBe(
      'domain_not_allowed',
    );
  });
  it('maps failures to the login page codes', () => {
    expect(failurePath('microsoft')).toBe('/login?error=MS_AUTH');
    expect(failurePath('google')).toBe('/login?error=GOOGLE_AUTH');
  });
});
