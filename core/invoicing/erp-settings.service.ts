import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { thenAfterCommit, withTenant, type AfterCommitWork } from '~/core/db/with-tenant';
import { AppError } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { isErpError } from '~/core/extension-points/erp-http';
import type {
  ErpArticleListing,
  ErpAuth,
  ErpCapabilities,
  ErpCustomerCandidate,
} from '~/core/extension-points/erp-provider';
import { recordHistory } from '~/core/history/history';
import { requireAccess, type Access } from '~/core/permissions/access';
import {
  erpKinds,
  erpProvider,
  erpSession,
  isErpConnected,
  newOAuthState,
  readErpConnection,
  saveErpCredentials,
  takeOAuthState,
  tenantErp,
  writeMappings,
} from './erp-connection';
import {
  clearCustomerConflict,
  ERP_CUSTOMER_CONFLICT,
  listCustomerConflicts,
  type ErpCustomerConflictView,
} from './erp-customer-conflicts';
import { retryStoppedDeliveries, toDelivery, type Delivery } from './erp-delivery';

/*
 * Settings → ERP (issue 14 item 6; api-calls.md POST /instance/erp/auth, GET /instance/erp/data/{id},
 * GET /articles/erp): choose the kind, connect (OAuth round trip or API key), test, choose the
 * accounts, see the last deliveries. instance:edit with the ERP module.
 */

const EDIT: Access = { permission: 'instance:edit', module: 'erp' };
const READ: Access = { permission: 'instance:read', module: 'erp' };
export const ERP_SETTINGS_ENTITY = 'erp';

type Row = Record<string, unknown>;

export interface ErpKindView {
  id: string;
  displayName: string;
  auth: ErpAuth['type'];
  /** The inputs an API-key plugin asks for. */
  fields: string[];
  /**
   * What the operator must set before anyone can connect, as PLUGIN_OPTIONS paths
   * (`fortnox.clientId`); empty when the plugin is ready.
   */
  missingOptions: string[];
  capabilities: ErpCapabilities;
  /** An ERP whose invoices name its own VAT code: the defaults per rate, and whether they are guesses. */
  vatCodes: { defaults: Record<string, string>; guessed: boolean } | null;
  /** What of the plugin was checked against the vendor's documentation, as message keys (issue 31). */
  verification: { verified: string[]; unverified: string[] } | null;
}

export interface ErpSettingsView {
  kind: string;
  displayName: string;
  kinds: ErpKindView[];
  connected: boolean;
  companyName: string | null;
  connectedAt: string | null;
  lastTestAt: string | null;
  lastTestError: string | null;
  accounts: {
    sales: Record<string, string>;
    fee: string | null;
    rounding: string | null;
    /** The tenant's own VAT codes per rate (an ERP with ErpKindView.vatCodes); empty takes the defaults. */
    vatCodes: Record<string, string>;
  };
  deliveries: (Delivery & { invoiceId: string; invoiceNr: string | null; customerName: string | null })[];
  /** Customers whose first delivery met the ERP's own customers and waits for the office (issue 31 item 10). */
  customerConflicts: ErpCustomerConflictView[];
}

function kindView(id: string): ErpKindView {
  const { displayName, provider, verification } = erpProvider(id);
  return {
    id,
    displayName,
    auth: provider.auth.type,
    fields: provider.auth.type === 'api-key' ? [...provider.auth.fields] : [],
    missingOptions: missingOptionsOf(id),
    capabilities: provider.capabilities,
    vatCodes: provider.vatCodes ? { defaults: { ...provider.vatCodes.defaults }, guessed: provider.vatCodes.guessed } : null,
    verification: verification
      ? { verified: [...verification.verified], unverified: [...verification.unverified] }
      : null,
  };
}

/** The PLUGIN_OPTIONS paths an OAuth2 plugin lacks (`fortnox.clientId`). */
function missingOptionsOf(id: string): string[] {
  const { provider } = erpProvider(id);
  return provider.auth.type === 'oauth2' ? (provider.auth.missingOptions ?? []).map((o) => `${id}.${o}`) : [];
}

/** GET /instance/erp: the settings page. */
export async function getErpSettings(ctx: Ctx): Promise<ErpSettingsView> {
  requireAccess(ctx.auth, READ);
  const c = await readErpConnection(ctx.trx);
  const deliveries: Row[] = await ctx
    .trx('erp_deliveries as d')
    .join('invoices as i', 'i.id', 'd.invoice_id')
    .leftJoin('customers as c', 'c.id', 'i.customer_id')
    .orderBy('d.updated_at', 'desc')
    .limit(20)
    .select('d.*', 'i.invoice_nr', 'c.name as customer_name');
  const kind = erpProvider(c.kind);
  return {
    kind: kind.id,
    displayName: kind.displayName,
    kinds: erpKinds().map((k) => kindView(k.id)),
    connected: isErpConnected(c, kind.provider),
    companyName: c.companyName,
    connectedAt: c.connectedAt,
    lastTestAt: c.lastTestAt,
    lastTestError: c.lastTestError,
    accounts: {
      sales: Object.fromEntries(Object.entries(c.accounts.sales).filter(([, v]) => typeof v === 'string')) as Record<
        string,
        string
      >,
      fee: c.accounts.fee ?? null,
      rounding: c.accounts.rounding ?? null,
      vatCodes: Object.fromEntries(
        Object.entries(c.accounts.vatCodes ?? {}).filter(([, v]) => typeof v === 'string'),
      ) as Record<string, string>,
    },
    deliveries: deliveries.map((d) => ({
      ...toDelivery(d),
      invoiceId: d.invoice_id as string,
      invoiceNr: (d.invoice_nr as string) ?? null,
      customerName: (d.customer_name as string) ?? null,
    })),
    customerConflicts: await listCustomerConflicts(ctx.trx, kind.id),
  };
}

export const ZResolveErpCustomerConflict = z.discriminatedUnion(
  'choice',
  [
    z.object({
      customerId: z.uuid('ERROR_INVALID_VALUE'),
      choice: z.literal('link'),
      externalId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD').max(200),
    }),
    z.object({ customerId: z.uuid('ERROR_INVALID_VALUE'), choice: z.literal('create') }),
  ],
  { error: 'ERROR_INVALID_VALUE' },
);
export type TResolveErpCustomerConflict = z.infer<typeof ZResolveErpCustomerConflict>;

/**
 * The office's answer (Settings → ERP): `link` to one of the ERP's candidates (the mapping names it;
 * never a fingerprint, so the next delivery brings the card up to date with what Ordo owns), or
 * `create` a new customer in the ERP (its next delivery makes one). A customer without an open
 * conflict, or of another tenant, is 404; a card that was not a candidate is 400. The deliveries the
 * conflict stopped are queued again.
 */
export async function resolveErpCustomerConflict(ctx: Ctx, raw: unknown): Promise<{ retried: number }> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZResolveErpCustomerConflict, raw);
  const { kind } = await readErpConnection(ctx.trx);
  const row: Row | undefined = await ctx
    .trx('erp_customer_conflicts')
    .where({ kind, customer_id: input.customerId })
    .forUpdate()
    .first();
  if (!row) throw new AppError('NOT_FOUND', 404);
  if (input.choice === 'link') {
    const candidates = row.candidates as ErpCustomerCandidate[];
    if (!candidates.some((c) => c.externalId === input.externalId))
      throw new AppError('VALIDATION_FAILED', 400, { fields: { externalId: ['ERROR_INVALID_VALUE'] } });
    await writeMappings(ctx.trx, kind, 'customer', [
      { localId: input.customerId, externalId: input.externalId, fingerprint: '' },
    ]);
    await clearCustomerConflict(ctx.trx, kind, input.customerId);
  } else {
    await ctx
      .trx('erp_customer_conflicts')
      .where({ kind, customer_id: input.customerId })
      .update({ resolution: JSON.stringify({ createNew: true }), updated_at: ctx.now });
  }
  await recordHistory(ctx, {
    entity: ERP_SETTINGS_ENTITY,
    entityId: ctx.tenant.id,
    action: 'customer_conflict',
    data: {
      kind,
      customerId: input.customerId,
      choice: input.choice,
      externalId: input.choice === 'link' ? input.externalId : null,
    },
  });
  const retried = await retryStoppedDeliveries(ctx, kind, input.customerId, ERP_CUSTOMER_CONFLICT);
  return { retried };
}

/** GET /instance/erp/data/{id}: one ERP kind as the settings page offers it (auth, fields, capabilities). */
export function getErpKind(ctx: Ctx, id: unknown): ErpKindView {
  requireAccess(ctx.auth, READ);
  if (typeof id !== 'string' || !erpKinds().some((k) => k.id === id)) throw new AppError('NOT_FOUND', 404);
  return kindView(id);
}

const account = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
  z
    .string()
    .regex(/^\d{4,6}$/, 'ERROR_ACCOUNT_PATTERN')
    .nullable()
    .optional(),
);

/** An ERP's own VAT code (Magenta's Momskod): a whole number, or empty for the plugin's default. */
const vatCode = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
  z
    .string()
    .regex(/^\d{1,4}$/, 'ERROR_INVALID_VALUE')
    .nullable()
    .optional(),
);

export const ZSaveErpSettings = z.object({
  kind: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  accounts: z
    .object({
      sales: z
        .object({ '25': account, '12': account, '6': account, '0': account, reverse: account })
        .partial()
        .default({}),
      fee: account,
      rounding: account,
      /** Left out: the VAT codes stay as they are (a form without them, for an ERP that takes none). */
      vatCodes: z
        .object({ '25': vatCode, '12': vatCode, '6': vatCode, '0': vatCode, reverse: vatCode })
        .partial()
        .optional(),
    })
    .optional(),
  /** For an API-key plugin: the fields its form shows. */
  credentials: z.record(z.string(), z.string().max(500)).optional(),
});

/**
 * PUT /instance/erp {kind, accounts?, credentials?}: chooses the ERP (another kind forgets the
 * previous one's credentials: its tokens are for another vendor) and the accounts; an API-key
 * plugin's key is stored sealed. History on the instance: erp with what changed (never the secrets).
 */
export async function saveErpSettings(ctx: Ctx, raw: unknown): Promise<ErpSettingsView> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZSaveErpSettings, raw);
  if (!erpKinds().some((k) => k.id === input.kind))
    throw new AppError('VALIDATION_FAILED', 400, { fields: { kind: ['ERROR_INVALID_VALUE'] } });
  const before = await readErpConnection(ctx.trx);
  const update: Row = { kind: input.kind, updated_at: ctx.now };
  if (before.kind !== input.kind)
    Object.assign(update, {
      credentials: null,
      company_name: null,
      connected_at: null,
      last_test_at: null,
      last_test_error: null,
    });
  if (input.accounts) {
    const clean = (v: string | null | undefined) => v ?? undefined;
    update.accounts = JSON.stringify({
      sales: Object.fromEntries(
        Object.entries(input.accounts.sales)
          .map(([k, v]) => [k, clean(v)])
          .filter(([, v]) => v),
      ),
      fee: clean(input.accounts.fee),
      rounding: clean(input.accounts.rounding),
      vatCodes: input.accounts.vatCodes
        ? Object.fromEntries(
            Object.entries(input.accounts.vatCodes)
              .map(([k, v]) => [k, clean(v)])
              .filter(([, v]) => v),
          )
        : before.accounts.vatCodes,
    });
  }
  await ctx.trx('erp_connection').update(update);
  const { provider } = erpProvider(input.kind);
  if (input.credentials && provider.auth.type === 'api-key') {
    const fields = provider.auth.fields;
    const missing = fields.filter((f) => !input.credentials![f]?.trim());
    if (missing.length)
      throw new AppError('VALIDATION_FAILED', 400, {
        fields: Object.fromEntries(missing.map((f) => [f, ['ERROR_REQUIRED_FIELD']])),
      });
    await saveErpCredentials(ctx.trx, Object.fromEntries(fields.map((f) => [f, input.credentials![f]!.trim()])));
    await ctx.trx('erp_connection').update({ connected_at: ctx.now });
  }
  await recordHistory(ctx, {
    entity: ERP_SETTINGS_ENTITY,
    entityId: ctx.tenant.id,
    action: 'edit',
    data: {
      kind: { old: before.kind, new: input.kind },
      accounts: Boolean(input.accounts),
      credentials: Boolean(input.credentials),
    },
  });
  return getErpSettings(ctx);
}

/** Where the vendor sends the browser back: the tenant's own host, so the session cookie comes along. */
export const erpCallbackUrl = (origin: string) => `${origin.replace(/\/$/, '')}/settings/erp/callback`;

/** Where the browser is: the vendor sends it back to this origin's callback page. */
export const ZErpAuthStart = z.object({ origin: z.string().url('ERROR_INVALID_VALUE') });

/** POST /instance/erp/auth {origin}: the vendor's authorization URL for an OAuth2 ERP, with a fresh state. */
export async function startErpAuth(ctx: Ctx, raw: unknown): Promise<{ url: string }> {
  requireAccess(ctx.auth, EDIT);
  const { origin } = parseInput(ZErpAuthStart, raw);
  const erp = await tenantErp(ctx);
  if (erp.provider.auth.type !== 'oauth2') throw new AppError('ERP_NO_OAUTH', 409);
  // a sign-in without the app's client id ends on the vendor's error page: say what to configure
  const missing = missingOptionsOf(erp.id);
  if (missing.length)
    throw new AppError('ERP_NOT_CONFIGURED', 409, { name: erp.displayName, options: missing.join(', ') });
  const state = await newOAuthState(ctx.trx, ctx.now);
  return { url: erp.provider.auth.authorizeUrl({ redirectUri: erpCallbackUrl(origin), state }) };
}

/** The spec's message for an ERP failure, with the vendor's words. */
export function erpFailure(err: unknown): AppError {
  if (isErpError(err))
    return new AppError(
      err.code === 'ERP_UNREACHABLE' || err.code === 'ERP_RATE_LIMITED' ? 'ERP_UNREACHABLE' : err.code,
      502,
      {
        vendorMessage: err.vendorMessage,
      },
    );
  throw err;
}

export const ZErpAuthCallback = z.object({
  code: z.string().min(1, 'ERROR_REQUIRED_FIELD'),
  state: z.string().min(1, 'ERROR_REQUIRED_FIELD'),
  origin: z.string().url(),
  /** The callback's other query parameters (QuickBooks sends the company's realmId). */
  params: z.record(z.string().max(64), z.string().max(500)).optional(),
});

type TenantErp = Awaited<ReturnType<typeof tenantErp>>;

/** A unit of work of its own for `ctx`'s tenant: what follows a vendor call made outside any transaction. */
function anew<T>(ctx: Ctx, fn: (ctx: Ctx) => Promise<T>) {
  return withTenant(ctx.tenant, (trx) => fn({ ...ctx, trx }));
}

/** A plugin session outside the request's transaction: refreshed tokens are saved in one of their own. */
function sessionOutside(ctx: Ctx, erp: TenantErp) {
  return erpSession(ctx.tenant, erp.connection);
}

/**
 * The callback's half (GET /settings/erp/callback?code&state): the state must be the one we issued
 * to this tenant within ten minutes (409 ERP_OAUTH_STATE_INVALID otherwise; it is used up either
 * way), the code is exchanged for tokens, stored sealed, and the connection tested. The vendor is
 * called between units of work, never inside one (decision 049).
 */
export async function completeErpAuth(
  ctx: Ctx,
  raw: unknown,
): Promise<AfterCommitWork<{ companyName: string | null }>> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZErpAuthCallback, raw);
  if (!(await takeOAuthState(ctx.trx, input.state, ctx.now))) throw new AppError('ERP_OAUTH_STATE_INVALID', 409);
  const erp = await tenantErp(ctx);
  const auth = erp.provider.auth;
  if (auth.type !== 'oauth2') throw new AppError('ERP_NO_OAUTH', 409);
  return thenAfterCommit(async () => {
    let credentials;
    try {
      credentials = await auth.exchangeCode({
        code: input.code,
        redirectUri: erpCallbackUrl(input.origin),
        tenantId: ctx.tenant.id,
        params: input.params ?? {},
      });
    } catch (err) {
      throw erpFailure(err);
    }
    const connected = await anew(ctx, async (c) => {
      await saveErpCredentials(c.trx, credentials);
      await c.trx('erp_connection').update({ connected_at: c.now });
      await recordHistory(c, {
        entity: ERP_SETTINGS_ENTITY,
        entityId: c.tenant.id,
        action: 'connect',
        data: { kind: erp.id },
      });
      return tenantErp(c);
    });
    const tested = await testOutside(ctx, connected);
    return { companyName: tested.companyName };
  });
}

type TestResult = { ok: boolean; companyName: string | null; error: string | null; vendorMessage: string | null };

/** Asks the ERP who it is, outside any transaction, and stores the answer in a unit of work of its own. */
async function testOutside(ctx: Ctx, erp: TenantErp): Promise<TestResult> {
  let result: TestResult;
  try {
    const { companyName } = await erp.provider.testConnection(sessionOutside(ctx, erp));
    result = { ok: true, companyName, error: null, vendorMessage: null };
  } catch (err) {
    if (!isErpError(err)) throw err;
    result = { ok: false, companyName: null, error: err.code, vendorMessage: err.vendorMessage };
  }
  await anew(ctx, (c) =>
    c
      .trx('erp_connection')
      .update(
        result.ok
          ? { company_name: result.companyName, last_test_at: c.now, last_test_error: null }
          : { last_test_at: c.now, last_test_error: [result.error, result.vendorMessage].filter(Boolean).join(': ') },
      ),
  );
  return result;
}

/**
 * POST /instance/erp/test: asks the ERP who it is. The answer (or the vendor's refusal) is stored
 * for the settings page, so the result is kept even when the test fails.
 */
export async function testErpConnection(ctx: Ctx): Promise<AfterCommitWork<TestResult>> {
  requireAccess(ctx.auth, EDIT);
  const erp = await tenantErp(ctx);
  return thenAfterCommit(() => testOutside(ctx, erp));
}

/** POST /instance/erp/disconnect: forgets the credentials (the vendor's side is revoked there). */
export async function disconnectErp(ctx: Ctx): Promise<ErpSettingsView> {
  requireAccess(ctx.auth, EDIT);
  await saveErpCredentials(ctx.trx, null);
  await ctx.trx('erp_connection').update({ connected_at: null, company_name: null, last_test_error: null });
  await recordHistory(ctx, { entity: ERP_SETTINGS_ENTITY, entityId: ctx.tenant.id, action: 'disconnect' });
  return getErpSettings(ctx);
}

export const ZErpArticleQuery = z
  .object({ articlenumber: z.string().trim().optional(), title: z.string().trim().optional() })
  .passthrough();

/**
 * GET /articles/erp?articlenumber&title: the ERP's articles (articles:read_from_erp), filtered by
 * number or title when given. 409 ERP_CANNOT_LIST_ARTICLES for an ERP that has no such list.
 */
export async function listErpArticles(
  ctx: Ctx,
  raw: unknown,
): Promise<AfterCommitWork<{ articles: ErpArticleListing[] }>> {
  requireAccess(ctx.auth, { permission: 'articles:read_from_erp' });
  const f = parseInput(ZErpArticleQuery, raw);
  const erp = await tenantErp(ctx);
  if (!erp.provider.capabilities.listArticles) throw new AppError('ERP_CANNOT_LIST_ARTICLES', 409);
  // the vendor is asked once this unit of work has ended (decision 049)
  return thenAfterCommit(async () => {
    let articles: ErpArticleListing[];
    try {
      articles = await erp.provider.listArticles(sessionOutside(ctx, erp));
    } catch (err) {
      throw erpFailure(err);
    }
    const number = f.articlenumber?.toLowerCase();
    const title = f.title?.toLowerCase();
    return {
      articles: articles.filter(
        (a) =>
          (!number || a.articleNumber.toLowerCase() === number) && (!title || a.title.toLowerCase().includes(title)),
      ),
    };
  });
}
