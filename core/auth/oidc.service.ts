import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { getConfig } from '~/core/config/env';
import { open, seal, type SealContext } from '~/core/crypto/secret-box';
import { langFromKey } from '~/core/i18n/languages';
import { logger } from '~/core/log/logger';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant, sessionPolicy } from '~/core/unit-of-work';
import { recordAuthEvent } from './audit';
import { startSession } from './authenticate.service';
import { createMfaChallenge, isMfaEnabled } from './mfa.service';
import { isOidcProvider, loadOidcClient, type OidcClientConfig, type OidcProvider } from './oidc-settings.service';
import { validateSession } from './session.service';

/**
 * Sign-in with Microsoft or Google (OpenID Connect authorization code flow with PKCE, state and
 * nonce, through openid-client 6). The routes /auth/:provider/start, /auth/:provider/callback and
 * /:provider/success are thin wrappers over the three steps here, so the whole flow can be tested
 * without React Router:
 *
 *   startOidc      → the provider's authorization URL and the sealed state cookie's value
 *   finishOidc     → validates the answer, links an existing active user by e-mail, and starts a
 *                    session (or an MFA challenge); never throws, refusals are audited
 *   completeOidcSuccess → the /:provider/success page: accepts the token only in the browser
 *                    that ran the flow (a "handoff" cookie carries the token's hash), so nobody
 *                    can sign a victim into the attacker's account with a crafted link
 *
 * All state between the steps travels in one short-lived sealed (AES-GCM) HttpOnly cookie; no
 * database transaction is held open while talking to the provider.
 */

/** How long a started sign-in and the success hand-off may take. */
export const OIDC_STATE_MINUTES = 10;
export const OIDC_COOKIE = '__Host-ordo_oidc';
const SCOPE = 'openid email profile';
/** Seconds for each request to the provider. */
const PROVIDER_TIMEOUT = 10;

export type OidcRefusal =
  | 'unknown_provider'
  | 'not_configured'
  | 'disabled'
  | 'discovery_failed'
  | 'state_missing'
  | 'state_invalid'
  | 'state_mismatch'
  | 'provider_error'
  | 'exchange_failed'
  | 'no_email'
  | 'email_not_verified'
  | 'domain_not_allowed'
  | 'unknown_user';

export class OidcRefused extends Error {
  constructor(readonly reason: OidcRefusal) {
    super(`OIDC sign-in refused: ${reason}`);
    this.name = 'OidcRefused';
  }
}

export type OidcOutcome =
  | { status: 'success'; token: string; expiresAt: Date; userId: string }
  | { status: 'mfa'; token: string; userId: string }
  | { status: 'rejected'; reason: OidcRefusal };

// ---------------------------------------------------------------- sealed cookie

interface StatePayload {
  k: 'state';
  tenant: string;
  provider: OidcProvider;
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  exp: number;
}
interface HandoffPayload {
  k: 'handoff';
  tenant: string;
  provider: OidcProvider;
  tokenHash: string;
  sessionExpiresAt: number;
  exp: number;
}

/** The flow's cookie is sealed for its tenant and this purpose only (decision 040). */
const cookieContext = (tenant: Tenant): SealContext => ({ tenant: tenant.id, purpose: 'oidc-cookie' });
const sha = (v: string) => createHash('sha256').update(v).digest('base64url');

function sealPayload(tenant: Tenant, p: StatePayload | HandoffPayload): string {
  return seal(JSON.stringify(p), cookieContext(tenant));
}

function openPayload<K extends 'state' | 'handoff'>(
  value: string | null | undefined,
  kind: K,
  tenant: Tenant,
  provider: OidcProvider,
  now: Date,
): (K extends 'state' ? StatePayload : HandoffPayload) | null {
  if (!value) return null;
  try {
    const p = JSON.parse(open(value, cookieContext(tenant))) as StatePayload | HandoffPayload;
    if (p.k !== kind || p.tenant !== tenant.slug || p.provider !== provider || p.exp <= now.getTime()) return null;
    return p as K extends 'state' ? StatePayload : HandoffPayload;
  } catch {
    return null;
  }
}

/** Set-Cookie for the flow's cookie (SameSite=Lax: it must come back on the provider's redirect). */
export function oidcCookie(value: string): string {
  return `${OIDC_COOKIE}=${value}; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=${OIDC_STATE_MINUTES * 60}`;
}
export function clearOidcCookie(): string {
  return `${OIDC_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`;
}

// ---------------------------------------------------------------- discovery

interface Discovered {
  at: number;
  metadata: Promise<oidc.ServerMetadata>;
  jwks?: oidc.ExportedJWKSCache;
}
/** Discovery documents per issuer, kept an hour; a failed discovery is forgotten at once. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const discoveries = new Map<string, Discovered>();

/** Plain http issuers (the local test provider) are allowed only off a public deployment. */
function insecureAllowed(issuer: string): boolean {
  return issuer.startsWith('http:') && !getConfig().httpsOnly;
}

function discover(issuer: string): Discovered {
  const hit = discoveries.get(issuer);
  if (hit && Date.now() - hit.at < DISCOVERY_TTL_MS) return hit;
  const entry: Discovered = {
    at: Date.now(),
    metadata: oidc
      .discovery(new URL(issuer), 'discovery', undefined, undefined, {
        timeout: PROVIDER_TIMEOUT,
        execute: insecureAllowed(issuer) ? [oidc.allowInsecureRequests] : [],
      })
      .then((c) => ({ ...c.serverMetadata() })),
  };
  entry.metadata.catch(() => {
    if (discoveries.get(issuer) === entry) discoveries.delete(issuer);
  });
  discoveries.set(issuer, entry);
  return entry;
}

/** For tests: forget every cached discovery document. */
export function clearDiscoveryCache(): void {
  discoveries.clear();
}

async function configurationFor(client: OidcClientConfig): Promise<{ config: oidc.Configuration; entry: Discovered }> {
  const entry = discover(client.issuer);
  const metadata = await entry.metadata;
  const config = new oidc.Configuration(
    metadata,
    client.clientId,
    client.clientSecret,
    oidc.ClientSecretPost(client.clientSecret),
  );
  config.timeout = PROVIDER_TIMEOUT;
  if (insecureAllowed(client.issuer)) oidc.allowInsecureRequests(config);
  if (entry.jwks) oidc.setJwksCache(config, entry.jwks);
  return { config, entry };
}

// ---------------------------------------------------------------- the flow

export function failurePath(provider: string): string {
  return provider === 'microsoft' ? '/login?error=MS_AUTH' : '/login?error=GOOGLE_AUTH';
}

const scope = (tenant: Tenant, now: Date) => ({
  tenant,
  auth: null,
  lang: langFromKey(tenant.config.languageKey),
  now,
});

async function enabledClient(tenant: Tenant, provider: string, now: Date) {
  if (!isOidcProvider(provider)) throw new OidcRefused('unknown_provider');
  const client = await inTenant(scope(tenant, now), (ctx) => loadOidcClient(ctx.trx, provider));
  if (!client) throw new OidcRefused('not_configured');
  if (!client.enabled) throw new OidcRefused('disabled');
  return { provider, client };
}

/**
 * GET /auth/:provider/start. `origin` is the app's origin as the browser sees it; the redirect URI
 * is `<origin>/auth/<provider>/callback`. Throws OidcRefused when the provider is not enabled.
 */
export async function startOidc(input: {
  tenant: Tenant;
  provider: string;
  origin: string;
  now?: Date;
}): Promise<{ url: string; cookie: string }> {
  const now = input.now ?? new Date();
  const { provider, client } = await enabledClient(input.tenant, input.provider, now);
  const { config } = await configurationFor(client).catch((err: unknown) => {
    logger.warn({ err, issuer: client.issuer }, 'OIDC discovery failed');
    throw new OidcRefused('discovery_failed');
  });
  const redirectUri = `${new URL(input.origin).origin}/auth/${provider}/callback`;
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const cookie = sealPayload(input.tenant, {
    k: 'state',
    tenant: input.tenant.slug,
    provider,
    state,
    nonce,
    codeVerifier,
    redirectUri,
    exp: now.getTime() + OIDC_STATE_MINUTES * 60_000,
  });
  return { url: url.href, cookie };
}

type Claims = Record<string, unknown>;

/** Spec rule: a verified e-mail, from an allowed domain (empty list = any). */
export function verifiedEmail(provider: OidcProvider, client: OidcClientConfig, claims: Claims): string {
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (!email || !email.includes('@')) throw new OidcRefused('no_email');
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const allowed = client.allowedDomains.map((d) => d.toLowerCase());
  const inList = allowed.includes(domain);
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  // Microsoft (Entra ID) sends no email_verified: trust its e-mail only for a domain the tenant named.
  const microsoftWithoutClaim = provider === 'microsoft' && claims.email_verified === undefined && inList;
  if (!verified && !microsoftWithoutClaim) throw new OidcRefused('email_not_verified');
  if (allowed.length > 0 && !inList) throw new OidcRefused('domain_not_allowed');
  return email;
}

/**
 * GET /auth/:provider/callback. `currentUrl` is the URL the provider redirected to (its query is
 * what matters), `stateCookie` the value of OIDC_COOKIE. Never throws: every refusal is audited as
 * signin.failure with the reason and answered as `rejected`.
 */
export async function finishOidc(input: {
  tenant: Tenant;
  provider: string;
  currentUrl: string | URL;
  stateCookie: string | null | undefined;
  ip?: string | null;
  userAgent?: string | null;
  previousToken?: string | null;
  now?: Date;
}): Promise<OidcOutcome> {
  const now = input.now ?? new Date();
  const who = { at: now, ip: input.ip ?? null, userAgent: input.userAgent ?? null };
  let email: string | null = null;
  try {
    const { provider, client } = await enabledClient(input.tenant, input.provider, now);
    if (!input.stateCookie) throw new OidcRefused('state_missing');
    const saved = openPayload(input.stateCookie, 'state', input.tenant, provider, now);
    if (!saved) throw new OidcRefused('state_invalid');
    const answer = new URL(input.currentUrl);
    if (answer.searchParams.get('state') !== saved.state) throw new OidcRefused('state_mismatch');
    if (answer.searchParams.has('error')) {
      logger.info(
        {
          provider,
          error: answer.searchParams.get('error')?.slice(0, 100),
          description: answer.searchParams.get('error_description')?.slice(0, 300),
        },
        'OIDC provider refused the sign-in',
      );
      throw new OidcRefused('provider_error');
    }
    // The redirect URI sent at the start, whatever proxy rewrote the request's own URL.
    const callbackUrl = new URL(saved.redirectUri);
    callbackUrl.search = answer.search;

    const { config, entry } = await configurationFor(client).catch((err: unknown) => {
      logger.warn({ err, issuer: client.issuer }, 'OIDC discovery failed');
      throw new OidcRefused('discovery_failed');
    });
    let claims: Claims;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: saved.codeVerifier,
        expectedState: saved.state,
        expectedNonce: saved.nonce,
        idTokenExpected: true,
      });
      entry.jwks = oidc.getJwksCache(config) ?? entry.jwks;
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('no ID token');
      claims = { ...idClaims };
      // Some providers (and oidc-provider by default) put e-mail only in userinfo.
      if (typeof claims.email !== 'string' && config.serverMetadata().userinfo_endpoint) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = { ...info, ...idClaims, email: info.email, email_verified: info.email_verified };
      }
    } catch (err) {
      logger.warn({ err, provider }, 'OIDC code exchange failed');
      throw new OidcRefused('exchange_failed');
    }

    email = verifiedEmail(provider, client, claims);
    const signedIn = email;
    return await inTenant(scope(input.tenant, now), async (ctx): Promise<OidcOutcome> => {
      const user = await ctx
        .trx('users')
        .whereRaw('lower(email) = lower(?)', [signedIn])
        .where({ status: 'active' })
        .first('id');
      if (!user) {
        await recordAuthEvent(ctx.trx, {
          ...who,
          event: 'signin.failure',
          email: signedIn,
          data: { provider, reason: 'unknown_user' },
        });
        return { status: 'rejected', reason: 'unknown_user' };
      }
      if (await isMfaEnabled(ctx.trx, user.id)) {
        await recordAuthEvent(ctx.trx, {
          ...who,
          event: 'mfa.challenge',
          email: signedIn,
          userId: user.id,
          data: { provider },
        });
        return { status: 'mfa', token: await createMfaChallenge(ctx.trx, user.id, now), userId: user.id };
      }
      const session = await startSession(
        {
          trx: ctx.trx,
          now,
          policy: sessionPolicy(),
          ip: who.ip,
          userAgent: who.userAgent,
          previousToken: input.previousToken,
        },
        user.id,
        { ...who, email: signedIn },
      );
      return { status: 'success', token: session.token, expiresAt: session.expiresAt, userId: user.id };
    });
  } catch (err) {
    const reason: OidcRefusal = err instanceof OidcRefused ? err.reason : 'exchange_failed';
    if (!(err instanceof OidcRefused)) logger.error({ err }, 'OIDC callback failed');
    await inTenant(scope(input.tenant, now), (ctx) =>
      recordAuthEvent(ctx.trx, {
        ...who,
        event: 'signin.failure',
        email,
        data: { provider: input.provider.slice(0, 20), reason },
      }),
    ).catch((e: unknown) => logger.error({ err: e }, 'could not audit an OIDC refusal'));
    return { status: 'rejected', reason };
  }
}

/**
 * Where the callback sends the browser, and the cookie it sets: the success page with the token
 * (spec §2) plus the hand-off cookie, the login page's MFA step, or the login page with the error.
 */
export function callbackRedirect(
  tenant: Tenant,
  provider: string,
  outcome: OidcOutcome,
  now = new Date(),
): { location: string; setCookie: string } {
  if (outcome.status === 'success' && isOidcProvider(provider)) {
    const handoff = sealPayload(tenant, {
      k: 'handoff',
      tenant: tenant.slug,
      provider,
      tokenHash: sha(outcome.token),
      sessionExpiresAt: outcome.expiresAt.getTime(),
      exp: now.getTime() + OIDC_STATE_MINUTES * 60_000,
    });
    return {
      location: `/${provider}/success?token=${encodeURIComponent(outcome.token)}`,
      setCookie: oidcCookie(handoff),
    };
  }
  if (outcome.status === 'mfa')
    return { location: `/login?mfa=${encodeURIComponent(outcome.token)}`, setCookie: clearOidcCookie() };
  return { location: failurePath(provider), setCookie: clearOidcCookie() };
}

/**
 * /microsoft/success and /google/success: the token becomes the session cookie only when this
 * browser ran the flow (hand-off cookie holds its hash) and the session is live. Null otherwise.
 */
export async function completeOidcSuccess(input: {
  tenant: Tenant;
  provider: string;
  token: string | null | undefined;
  handoffCookie: string | null | undefined;
  now?: Date;
}): Promise<{ token: string; expiresAt: Date } | null> {
  const now = input.now ?? new Date();
  if (!isOidcProvider(input.provider) || !input.token) return null;
  const handoff = openPayload(input.handoffCookie, 'handoff', input.tenant, input.provider, now);
  if (!handoff || handoff.tokenHash !== sha(input.token)) return null;
  const token = input.token;
  const auth = await inTenant(scope(input.tenant, now), (ctx) => validateSession(ctx.trx, token, now, sessionPolicy()));
  return auth ? { token, expiresAt: new Date(handoff.sessionExpiresAt) } : null;
}
