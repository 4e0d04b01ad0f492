import { z } from 'zod';
import { getConfig } from '~/core/config/env';
import type { Ctx } from '~/core/context';
import { open, seal, type SealContext } from '~/core/crypto/secret-box';
import { tenantIdOf, type Trx } from '~/core/db/with-tenant';
import { AppError } from '~/core/errors/app-error';
import { UUID_PATTERN, parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { isModuleEnabled } from '~/core/modules/app-module.service';

/**
 * Per-tenant Microsoft and Google sign-in (table oidc_clients) and the tenant's "password login
 * disabled" switch (auth_settings). The client secret is sealed at rest with SECRET_KEY and is never
 * returned by any read: the view says only whether one is stored.
 */

export const OIDC_PROVIDERS = ['microsoft', 'google'] as const;
export type OidcProvider = (typeof OIDC_PROVIDERS)[number];

export function isOidcProvider(value: unknown): value is OidcProvider {
  return typeof value === 'string' && (OIDC_PROVIDERS as readonly string[]).includes(value);
}

export const GOOGLE_ISSUER = 'https://accounts.google.com';
/** Microsoft Entra ID v2 issuer of one directory; `common` cannot be used (its issuer is a template). */
export const microsoftIssuer = (directoryTenantId: string) =>
  `https://login.microsoftonline.com/${directoryTenantId}/v2.0`;

/** What the settings screen sees: never the secret. */
export interface OidcClientView {
  provider: OidcProvider;
  enabled: boolean;
  issuer: string;
  clientId: string;
  hasSecret: boolean;
  allowedDomains: string[];
}

export interface OidcSettingsView {
  passwordLoginDisabled: boolean;
  clients: OidcClientView[];
}

/** The server-side client, secret opened: for the sign-in flow only, never for an answer. */
export interface OidcClientConfig extends Omit<OidcClientView, 'hasSecret'> {
  clientSecret: string;
}

interface ClientRow {
  provider: OidcProvider;
  enabled: boolean;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  allowed_domains: string[] | null;
}

const toView = (r: ClientRow): OidcClientView => ({
  provider: r.provider,
  enabled: r.enabled,
  issuer: r.issuer,
  clientId: r.client_id,
  hasSecret: Boolean(r.client_secret_sealed),
  allowedDomains: r.allowed_domains ?? [],
});

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** An issuer must be https; plain http only outside production (the local test provider). */
const zIssuer = z
  .string()
  .trim()
  .max(500, 'ERROR_MAX_LENGTH')
  .refine((v) => {
    try {
      const u = new URL(v);
      if (u.search || u.hash || u.username || u.password) return false;
      return u.protocol === 'https:' || (u.protocol === 'http:' && !getConfig().httpsOnly);
    } catch {
      return false;
    }
  }, 'ERROR_INVALID_VALUE')
  .transform((v) => v.replace(/\/+$/, ''));

const ZClientInput = z.object({
  enabled: z.boolean({ error: 'ERROR_INVALID_VALUE' }),
  /** Full issuer URL; for Microsoft it may be left out when directoryTenantId is given. */
  issuer: zIssuer.optional(),
  /** Microsoft only: the Entra ID directory (tenant) id, giving the default issuer. */
  directoryTenantId: z.string().trim().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE').optional(),
  clientId: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(500, 'ERROR_MAX_LENGTH'),
  /** Left out to keep the stored secret. */
  clientSecret: z.string().min(1, 'ERROR_REQUIRED_FIELD').max(2000, 'ERROR_MAX_LENGTH').optional(),
  /** E-mail domains allowed to sign in; empty means any (the user must still exist). */
  allowedDomains: z
    .array(
      z
        .string()
        .trim()
        .transform((d) => d.replace(/^@/, '').toLowerCase())
        .pipe(z.string().regex(DOMAIN, 'ERROR_INVALID_VALUE')),
    )
    .max(50, 'ERROR_MAX_LENGTH')
    .default([]),
});

export const ZOidcSettings = z.object({
  passwordLoginDisabled: z.boolean({ error: 'ERROR_INVALID_VALUE' }).optional(),
  microsoft: ZClientInput.optional(),
  google: ZClientInput.optional(),
});
export type TOidcSettings = z.input<typeof ZOidcSettings>;

async function clientRows(trx: Trx): Promise<ClientRow[]> {
  return trx('oidc_clients').select<ClientRow[]>('*').orderBy('provider');
}

async function passwordLoginDisabled(trx: Trx): Promise<boolean> {
  const row = await trx('auth_settings').first('password_login_disabled');
  return Boolean(row?.password_login_disabled);
}

/** GET /instance/oidc: needs settings:read. */
export async function getOidcSettings(ctx: Ctx): Promise<OidcSettingsView> {
  requireAccess(ctx.auth, { permission: 'settings:read', module: 'microsoft_auth' });
  return {
    passwordLoginDisabled: await passwordLoginDisabled(ctx.trx),
    clients: (await clientRows(ctx.trx)).map(toView),
  };
}

/**
 * PUT /instance/oidc: needs instance:edit. Saves either provider's client and/or the password
 * switch. Password login can only be switched off while a sign-in provider is enabled, and a
 * provider cannot be switched off if that would leave nobody able to sign in.
 */
export async function saveOidcSettings(ctx: Ctx, raw: unknown): Promise<OidcSettingsView> {
  requireAccess(ctx.auth, { permission: 'instance:edit', module: 'microsoft_auth' });
  const input = parseInput(ZOidcSettings, raw);
  const existing = new Map((await clientRows(ctx.trx)).map((r) => [r.provider, r]));
  for (const provider of OIDC_PROVIDERS) {
    const c = input[provider];
    if (!c) continue;
    const before = existing.get(provider);
    const issuer =
      c.issuer ??
      (provider === 'google'
        ? GOOGLE_ISSUER
        : c.directoryTenantId
          ? microsoftIssuer(c.directoryTenantId)
          : before?.issuer);
    const fields: Record<string, string[]> = {};
    if (!issuer) fields[`${provider}.directoryTenantId`] = ['ERROR_REQUIRED_FIELD'];
    if (!c.clientSecret && !before) fields[`${provider}.clientSecret`] = ['ERROR_REQUIRED_FIELD'];
    if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
    const row = {
      provider,
      enabled: c.enabled,
      issuer: issuer!,
      client_id: c.clientId,
      client_secret_sealed: c.clientSecret
        ? seal(c.clientSecret, oidcSecretContext(ctx.tenant.id, provider))
        : before!.client_secret_sealed,
      allowed_domains: [...new Set(c.allowedDomains)],
    };
    await ctx.trx('oidc_clients').insert(row).onConflict('provider').merge();
  }
  if (input.passwordLoginDisabled !== undefined)
    await ctx.trx('auth_settings').update({ password_login_disabled: input.passwordLoginDisabled });

  const view = {
    passwordLoginDisabled: await passwordLoginDisabled(ctx.trx),
    clients: (await clientRows(ctx.trx)).map(toView),
  };
  if (view.passwordLoginDisabled && !view.clients.some((c) => c.enabled))
    throw new AppError('PASSWORD_LOGIN_NEEDS_SSO', 409, {
      message: 'Password login can only be disabled while Microsoft or Google sign-in is enabled',
    });
  return view;
}

/** A sign-in provider's client secret belongs to its tenant and provider (decision 040). */
export const oidcSecretContext = (tenantId: string, provider: string): SealContext => ({
  tenant: tenantId,
  purpose: `oidc_clients.client_secret_sealed:${provider}`,
});

/** The flow's view of one provider, secret opened; null when not configured. */
export async function loadOidcClient(trx: Trx, provider: OidcProvider): Promise<OidcClientConfig | null> {
  // Spec section 1: single sign-on is available when the instance enables it (app module).
  if (!(await isModuleEnabled(trx, 'microsoft_auth'))) return null;
  const row = await trx('oidc_clients').where({ provider }).first<ClientRow | undefined>('*');
  if (!row) return null;
  const { hasSecret: _unused, ...view } = toView(row);
  return { ...view, clientSecret: open(row.client_secret_sealed, oidcSecretContext(await tenantIdOf(trx), provider)) };
}

/** GET /authenticate/{provider}: what the login screen needs (public). */
export async function loginOptions(
  trx: Trx,
  provider: OidcProvider,
): Promise<{ oauthEnabled: boolean; passwordDisabled: boolean }> {
  if (!(await isModuleEnabled(trx, 'microsoft_auth'))) return { oauthEnabled: false, passwordDisabled: false };
  const row = await trx('oidc_clients').where({ provider }).first('enabled');
  return { oauthEnabled: Boolean(row?.enabled), passwordDisabled: await passwordLoginDisabled(trx) };
}

/**
 * Call first in POST /authenticate (before the password is looked at): when the tenant signs in
 * only through Microsoft or Google, a password sign-in is refused with 403 PASSWORD_LOGIN_DISABLED.
 */
export async function assertPasswordLoginAllowed(trx: Trx): Promise<void> {
  if ((await isModuleEnabled(trx, 'microsoft_auth')) && (await passwordLoginDisabled(trx)))
    throw new AppError('PASSWORD_LOGIN_DISABLED', 403);
}

/**
 * The spec's "redirect" sign-in outcome: on a tenant that signs in only through Microsoft or
 * Google, a password sign-in is answered with where to go instead (302 with a url).
 */
export async function passwordLoginRedirect(trx: Trx): Promise<string | null> {
  if (!(await isModuleEnabled(trx, 'microsoft_auth')) || !(await passwordLoginDisabled(trx))) return null;
  const row = await trx('oidc_clients').where({ enabled: true }).orderBy('provider', 'desc').first('provider');
  return row ? `/auth/${row.provider}/start` : null;
}
