import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { recordHistory } from '~/core/history/history';
import { CONTROL_SCHEMA } from '~/core/db/identifiers';
import { parseInput } from '~/core/errors/validation';
import { requireAccess } from '~/core/permissions/access';
import { invalidateHostCacheAfterCommit } from '~/tenants/registry';
import { zOptionalEmail, zOptionalText } from '~/core/registers/fields';
import {
  COUNTRIES,
  DATE_FORMATS,
  LANGUAGE_KEYS,
  readInstanceConfig,
  ZInstanceConfig,
  type TCompanyDetails,
  type TInstanceConfig,
} from './instance-config';

export const ZUpdateInstance = z.object({
  displayName: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(200, 'ERROR_MAX_LENGTH'),
  country: z.enum(COUNTRIES, { error: 'ERROR_INVALID_VALUE' }),
  languageKey: z.enum(LANGUAGE_KEYS, { error: 'ERROR_INVALID_VALUE' }),
  dateFormat: z.enum(DATE_FORMATS, { error: 'ERROR_INVALID_VALUE' }),
  currencySymbol: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(5, 'ERROR_MAX_LENGTH'),
  logoUrl: z
    .string()
    .trim()
    .max(2000, 'ERROR_MAX_LENGTH')
    .transform((v) => (v === '' ? null : v))
    .pipe(z.url({ protocol: /^https?$/, error: 'ERROR_INVALID_VALUE' }).nullable()),
});

/** The company details documents print (settings → general → company details); blank clears a field. */
export const ZUpdateCompany = z.object({
  companyName: zOptionalText(200),
  companyNr: zOptionalText(50),
  address: zOptionalText(200),
  postIndex: zOptionalText(20),
  city: zOptionalText(100),
  email: zOptionalEmail(),
  phone: zOptionalText(50),
  vatRegistrationNr: zOptionalText(50),
  bgAccount: zOptionalText(50),
});

/** The stored configuration as it is now (the host cache may be a moment behind another server's save). */
export async function storedConfig(ctx: Ctx): Promise<TInstanceConfig> {
  const row = await ctx.trx.withSchema(CONTROL_SCHEMA).table('tenants').where({ id: ctx.tenant.id }).first('config');
  return readInstanceConfig(row?.config);
}

export function getInstance(ctx: Ctx) {
  return { displayName: ctx.tenant.displayName, configuration: ctx.tenant.config };
}

/**
 * Saves the instance configuration (spec section 3). The registry row and the history row are
 * written in the same transaction: the control table is addressed by its schema.
 */
export async function updateInstance(ctx: Ctx, raw: unknown): Promise<TInstanceConfig> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZUpdateInstance, raw);
  // The company details and object settings have their own saves and are kept as stored.
  const { company, objects, files } = await storedConfig(ctx);
  const config = ZInstanceConfig.parse({
    country: input.country,
    languageKey: input.languageKey,
    dateFormat: input.dateFormat,
    currency: { symbol: input.currencySymbol },
    logoUrl: input.logoUrl,
    company,
    objects,
    files,
  });
  await ctx.trx
    .withSchema(CONTROL_SCHEMA)
    .table('tenants')
    .where({ id: ctx.tenant.id })
    .update({ display_name: input.displayName, config, updated_at: ctx.now });
  await recordHistory(ctx, { entity: 'instance', entityId: ctx.tenant.id, action: 'edit', data: input });
  invalidateHostCacheAfterCommit(ctx.trx);
  return config;
}

/** Saves the company details (instance:edit) without touching the rest of the configuration. */
export async function updateCompanyDetails(ctx: Ctx, raw: unknown): Promise<TCompanyDetails> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZUpdateCompany, raw);
  const company: TCompanyDetails = {
    companyName: input.companyName ?? null,
    companyNr: input.companyNr ?? null,
    address: input.address ?? null,
    postIndex: input.postIndex ?? null,
    city: input.city ?? null,
    email: input.email ?? null,
    phone: input.phone ?? null,
    vatRegistrationNr: input.vatRegistrationNr ?? null,
    bgAccount: input.bgAccount ?? null,
  };
  const config = ZInstanceConfig.parse({ ...(await storedConfig(ctx)), company });
  await ctx.trx
    .withSchema(CONTROL_SCHEMA)
    .table('tenants')
    .where({ id: ctx.tenant.id })
    .update({ config, updated_at: ctx.now });
  await recordHistory(ctx, { entity: 'instance', entityId: ctx.tenant.id, action: 'edit', data: { company } });
  invalidateHostCacheAfterCommit(ctx.trx);
  return company;
}

/** The spec's Instance (section 3) as GET /instance answers it. */
export interface InstanceView {
  displayName: string;
  configuration: {
    country: TInstanceConfig['country'];
    languageKey: TInstanceConfig['languageKey'];
    dateFormat: TInstanceConfig['dateFormat'];
    currency: { symbol: string };
    logoUrl: string | null;
  };
  workOrderConfiguration: {
    statuses: { id: string; name: string; default: boolean }[];
    workTypes: { id: string; name: string; default: boolean }[];
  };
  /** The app modules this tenant has on. */
  appModules: string[];
}

/**
 * GET /instance: what every page words and dates itself by, so any signed-in user reads it. Three
 * statements: the registry row (not the host cache, which may be a moment behind a save), the
 * statuses and work types, the modules on.
 */
export async function readInstance(ctx: Ctx): Promise<InstanceView> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const row = (await ctx.trx
    .withSchema(CONTROL_SCHEMA)
    .table('tenants')
    .where({ id: ctx.tenant.id })
    .first('display_name', 'config')) as { display_name: string; config: unknown } | undefined;
  const config = readInstanceConfig(row?.config);
  const { rows } = (await ctx.trx.raw(
    `select 'status' as kind, id, name, is_default, sort_order from work_order_statuses
     union all select 'type', id, name, is_default, sort_order from work_types
     order by kind, sort_order, name`,
  )) as { rows: { kind: string; id: string; name: string; is_default: boolean }[] };
  const modules = (await ctx.trx('app_modules').where({ enabled: true }).orderBy('id').pluck('id')) as string[];
  const of = (kind: string) =>
    rows.filter((r) => r.kind === kind).map((r) => ({ id: r.id, name: r.name, default: r.is_default }));
  return {
    displayName: row?.display_name ?? ctx.tenant.displayName,
    configuration: {
      country: config.country,
      languageKey: config.languageKey,
      dateFormat: config.dateFormat,
      currency: { symbol: config.currency.symbol },
      logoUrl: config.logoUrl,
    },
    workOrderConfiguration: { statuses: of('status'), workTypes: of('type') },
    appModules: modules,
  };
}

/**
 * PATCH /instance/conf: any of display name, country, language, date format, currency symbol and
 * logo, in the spec's names; what is left out keeps its value. Saved through `updateInstance`, so
 * the rules, the history row and the host cache are the settings page's.
 */
export const ZPatchInstanceConf = z
  .object({
    displayName: z.string({ error: 'ERROR_INVALID_VALUE' }).optional(),
    country: z.string({ error: 'ERROR_INVALID_VALUE' }).optional(),
    languageKey: z.string({ error: 'ERROR_INVALID_VALUE' }).optional(),
    dateFormat: z.string({ error: 'ERROR_INVALID_VALUE' }).optional(),
    currency: z.object({ symbol: z.string({ error: 'ERROR_INVALID_VALUE' }) }, { error: 'ERROR_INVALID_VALUE' }).optional(),
    logoUrl: z.string({ error: 'ERROR_INVALID_VALUE' }).nullable().optional(),
  })
  .strict();

export async function patchInstanceConf(ctx: Ctx, raw: unknown): Promise<InstanceView> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const patch = parseInput(ZPatchInstanceConf, raw);
  const now = await readInstance(ctx);
  await updateInstance(ctx, {
    displayName: patch.displayName ?? now.displayName,
    country: patch.country ?? now.configuration.country,
    languageKey: patch.languageKey ?? now.configuration.languageKey,
    dateFormat: patch.dateFormat ?? now.configuration.dateFormat,
    currencySymbol: patch.currency?.symbol ?? now.configuration.currency.symbol,
    logoUrl: (patch.logoUrl === undefined ? now.configuration.logoUrl : patch.logoUrl) ?? '',
  });
  return readInstance(ctx);
}
