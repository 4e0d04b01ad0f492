import { z } from 'zod';
import {
  getOidcSettings,
  loginOptions,
  saveOidcSettings,
  ZOidcSettings,
  type OidcProvider,
} from '~/core/auth/oidc-settings.service';
import { AppError } from '~/core/errors/app-error';
import { PUBLIC } from '~/core/permissions/access';
import { asSent, defineCall, type ApiCall } from '../define-call';

const ZHostname = z.object({ hostname: z.string().max(255).optional() }).passthrough();

/** GET /authenticate/{provider}: the login screen's question (the tenant comes from the Host). */
const optionsCall = (provider: OidcProvider) =>
  defineCall({
    method: 'GET',
    path: `/authenticate/${provider}`,
    access: PUBLIC,
    input: ZHostname,
    summary: `Whether ${provider === 'microsoft' ? 'Microsoft' : 'Google'} sign-in is enabled and whether password login is disabled: {oauthEnabled, passwordDisabled}`,
    handler: (ctx) => loginOptions(ctx.trx, provider),
  });

/**
 * POST /authenticate/{provider}: where the browser goes to sign in (the start route sets the flow's
 * cookie, so it must be a top-level navigation, not a fetch). The url is relative to the app.
 */
const startCall = (provider: OidcProvider) =>
  defineCall({
    method: 'POST',
    path: `/authenticate/${provider}`,
    access: PUBLIC,
    input: ZHostname,
    summary: `Starts ${provider === 'microsoft' ? 'Microsoft' : 'Google'} sign-in: {url} to send the browser to; 404 SSO_NOT_ENABLED when off`,
    async handler(ctx) {
      const { oauthEnabled } = await loginOptions(ctx.trx, provider);
      if (!oauthEnabled) throw new AppError('SSO_NOT_ENABLED', 404);
      return { url: `/auth/${provider}/start` };
    },
  });

export const getOidcSettingsCall = defineCall({
  method: 'GET',
  path: '/instance/oidc',
  access: { permission: 'settings:read', module: 'microsoft_auth' },
  // Takes nothing; other query parameters are let through.
  input: z.object({}).passthrough(),
  summary: 'Microsoft and Google sign-in settings and the password-login switch; secrets are never returned',
  handler: (ctx) => getOidcSettings(ctx),
});

export const saveOidcSettingsCall = defineCall({
  method: 'PUT',
  path: '/instance/oidc',
  access: { permission: 'instance:edit', module: 'microsoft_auth' },
  // The service's schema, checked here and again by the service; field errors carry the spec's keys.
  input: asSent(ZOidcSettings),
  summary:
    'Saves {passwordLoginDisabled?, microsoft?, google?}; a provider is {enabled, issuer? | directoryTenantId?, clientId, clientSecret?, allowedDomains?}',
  handler: (ctx, input) => saveOidcSettings(ctx, input),
});

/** Microsoft and Google sign-in: login-screen flags, start URL, and the tenant's settings. */
export const oidcCalls: ApiCall[] = [
  optionsCall('microsoft'),
  startCall('microsoft'),
  optionsCall('google'),
  startCall('google'),
  getOidcSettingsCall,
  saveOidcSettingsCall,
];
