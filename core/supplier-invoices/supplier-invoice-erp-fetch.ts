import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import { AppError } from '~/core/errors/app-error';
import { isErpError } from '~/core/extension-points/erp-http';
import type { ErpFetchedSupplierInvoice, ErpProvider } from '~/core/extension-points/erp-provider';
import { langFromKey } from '~/core/i18n/languages';
import {
  erpProvider,
  erpSession,
  isErpConnected,
  readErpConnection,
  type ErpConnection,
} from '~/core/invoicing/erp-connection';
import { defineJob } from '~/core/jobs/define-job';
import { enqueueInTransaction } from '~/core/jobs/outbox';
import { logger, type Logger } from '~/core/log/logger';
import { requireAccess } from '~/core/permissions/access';
import { uniqueViolation } from '~/core/registers/list-query';
import type { Tenant } from '~/core/tenancy/tenant';
import { listTenants } from '~/tenants/registry';
import { SUPPLIER_INVOICE_ACCESS, storeArrival } from './supplier-invoice.service';

/*
 * Supplier invoices fetched from the ERP (issue 33 item 1, its last part; decision 054 "Fetched from
 * the ERP"). A person asks for a fetch (POST /supplierinvoices/erp/fetch): the settings row says
 * "queued" and a job is promised through the job outbox in that transaction. The job claims the
 * fetch (queued → running, so a job handed over twice runs once), asks the plugin with no
 * transaction open, and stores each invoice in a short transaction of its own through the same
 * arrival path as an upload (matching, duplicates, history), keeping the ERP's id: an invoice already
 * here (the same id, or the same supplier and number) is counted, never an error. Where the fetch got
 * to (the plugin's cursor) and how it ended are kept on the settings row. A sweep fetches again,
 * every FETCH_SWEEP_EVERY_MS, for tenants that fetched once and whose ERP still reads them.
 */

type Row = Record<string, unknown>;

export const FETCH_SWEEP_EVERY_MS = 30 * 60_000;
/** A fetch "running" longer than this died with its worker; the next request or sweep takes it over. */
const FETCH_STALE_MS = 15 * 60_000;

/** Whether the tenant's ERP can fetch supplier invoices (its plugin says so and it is connected). */
export function erpReadsSupplierInvoices(erp: {
  provider: ErpProvider;
  connection: Pick<ErpConnection, 'credentials'>;
}): boolean {
  return Boolean(
    erp.provider.capabilities.readSupplierInvoices &&
    erp.provider.listSupplierInvoices &&
    erp.provider.approveSupplierInvoicePayment &&
    isErpConnected(erp.connection, erp.provider),
  );
}

export interface ErpFetchStatus {
  /** The tenant's ERP can fetch them: the screen offers the button only then. */
  available: boolean;
  state: 'idle' | 'queued' | 'running';
  fetchedAt: string | null;
  added: number | null;
  existing: number | null;
  error: string | null;
}

/** The fetch as the settings call and the screen show it. */
export async function erpFetchStatus(trx: Trx): Promise<ErpFetchStatus> {
  const connection = await readErpConnection(trx);
  const { provider } = erpProvider(connection.kind);
  const row: Row = (await trx('supplier_invoice_settings').first()) ?? {};
  return {
    available: erpReadsSupplierInvoices({ provider, connection }),
    state: (row.erp_fetch_state as ErpFetchStatus['state']) ?? 'idle',
    fetchedAt: row.erp_fetched_at ? new Date(row.erp_fetched_at as string).toISOString() : null,
    added: row.erp_fetch_new === null || row.erp_fetch_new === undefined ? null : Number(row.erp_fetch_new),
    existing:
      row.erp_fetch_existing === null || row.erp_fetch_existing === undefined ? null : Number(row.erp_fetch_existing),
    error: (row.erp_fetch_error as string) ?? null,
  };
}

/** Marks a fetch queued unless one is queued or running (and alive); true when this call queued it. */
async function markQueued(trx: Trx, now: Date): Promise<boolean> {
  const n = await trx('supplier_invoice_settings')
    .where((q) =>
      q
        .where('erp_fetch_state', 'idle')
        .orWhere((s) =>
          s
            .where('erp_fetch_state', 'running')
            .where('erp_fetch_requested_at', '<', new Date(now.getTime() - FETCH_STALE_MS)),
        ),
    )
    .update({ erp_fetch_state: 'queued', erp_fetch_requested_at: now });
  return Number(n) > 0;
}

/**
 * POST /supplierinvoices/erp/fetch (supplier_invoices:edit): queues a fetch (one at a time: a second
 * request while one is queued or running queues nothing). 409 SUPPLIER_INVOICE_ERP_CANNOT_FETCH when
 * the tenant's ERP cannot read supplier invoices or is not connected.
 */
export async function requestErpFetch(ctx: Ctx): Promise<{ queued: boolean; fetch: ErpFetchStatus }> {
  requireAccess(ctx.auth, SUPPLIER_INVOICE_ACCESS.edit);
  const connection = await readErpConnection(ctx.trx);
  const { provider } = erpProvider(connection.kind);
  if (!erpReadsSupplierInvoices({ provider, connection })) throw new AppError('SUPPLIER_INVOICE_ERP_CANNOT_FETCH', 409);
  const queued = await markQueued(ctx.trx, ctx.now);
  if (queued) await enqueueInTransaction(ctx.trx, ctx.tenant, fetchErpSupplierInvoicesJob, { tenantId: ctx.tenant.id });
  return { queued, fetch: await erpFetchStatus(ctx.trx) };
}

const jobCtx = (trx: Trx, tenant: Tenant, now: Date): Ctx => ({
  trx,
  tenant,
  auth: null,
  lang: langFromKey(tenant.config.languageKey),
  now,
});

type Stored = 'added' | 'existing';

/** One fetched invoice into Ordo, in its own transaction; what is here already is counted, not refused. */
async function storeFetched(tenant: Tenant, kind: string, inv: ErpFetchedSupplierInvoice, now: Date): Promise<Stored> {
  try {
    return await withTenant(tenant, async (trx) => {
      const here = await trx('supplier_invoices')
        .where({ erp_kind: kind, erp_external_id: inv.externalId })
        .first('id');
      if (here) return 'existing';
      // the supplier: the one the ERP mapping links to the vendor's card, else matched by organisation number
      const mapped: Row | undefined = await trx('erp_mappings')
        .where({ kind, entity: 'supplier', external_id: inv.supplier.externalId })
        .first('local_id');
      await storeArrival(jobCtx(trx, tenant, now), {
        source: 'erp',
        erp: { kind, externalId: inv.externalId },
        supplierId: (mapped?.local_id as string) ?? null,
        seller: {
          name: inv.supplier.name,
          organizationNumber: inv.supplier.organizationalNumber,
          peppolId: null,
          vatNumber: inv.supplier.vatNumber,
        },
        invoiceNumber: inv.invoiceNumber,
        invoiceType: inv.invoiceType,
        invoiceDate: inv.invoiceDate,
        dueDate: inv.dueDate,
        currency: inv.currency,
        orderReference: inv.references[0] ?? null,
        buyerReference: inv.references[1] ?? null,
        projectReference: inv.references[2] ?? null,
        ocr: inv.ocr,
        target: null,
        rows: inv.rows,
        totalPrice: inv.totalPrice,
        totalVat: inv.totalVat,
        fee: null,
        rounding: inv.rounding,
        total: inv.total,
        documentXml: null,
        fileId: null,
      });
      return 'added';
    });
  } catch (e) {
    // the same supplier's number arrived another way, or another fetch stored it meanwhile
    if (e instanceof AppError && e.code === 'SUPPLIER_INVOICE_DUPLICATE') return 'existing';
    if (uniqueViolation(e) === 'supplier_invoices_erp_external_idx') return 'existing';
    throw e;
  }
}

export interface ErpFetchResult {
  added: number;
  existing: number;
  /** Invoices Ordo could not keep (their number and why); the fetch goes on past them. */
  refused: string[];
  error: string | null;
}

/**
 * Runs the tenant's queued fetch (or one a dead worker left running); null when none is. The plugin
 * is asked with no transaction open; each invoice is stored in a transaction of its own.
 */
export async function runErpFetch(
  tenant: Tenant,
  options: { now?: () => Date; log?: Logger } = {},
): Promise<ErpFetchResult | null> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? logger;
  const started = now();
  const claimed = await withTenant(tenant, async (trx) => {
    const n = await trx('supplier_invoice_settings')
      .where((q) =>
        q
          .where('erp_fetch_state', 'queued')
          .orWhere((s) =>
            s
              .where('erp_fetch_state', 'running')
              .where('erp_fetch_requested_at', '<', new Date(started.getTime() - FETCH_STALE_MS)),
          ),
      )
      .update({ erp_fetch_state: 'running', erp_fetch_requested_at: started });
    if (!Number(n)) return null;
    const row: Row = await trx('supplier_invoice_settings').first('erp_fetch_kind', 'erp_fetch_cursor');
    return { row, connection: await readErpConnection(trx) };
  });
  if (!claimed) return null;
  const { row, connection } = claimed;
  const result: ErpFetchResult = { added: 0, existing: 0, refused: [], error: null };
  let cursor = (row.erp_fetch_kind === connection.kind ? (row.erp_fetch_cursor as string) : null) ?? null;
  try {
    const { provider } = erpProvider(connection.kind);
    if (!erpReadsSupplierInvoices({ provider, connection }) || !provider.listSupplierInvoices)
      throw new AppError('SUPPLIER_INVOICE_ERP_CANNOT_FETCH', 409);
    const listed = await provider.listSupplierInvoices(erpSession(tenant, connection), { since: cursor });
    for (const inv of listed.invoices) {
      try {
        result[await storeFetched(tenant, connection.kind, inv, now())]++;
      } catch (e) {
        // an invoice Ordo cannot keep as it is (a field too long, a rule of the table): named in the
        // fetch's error for a person to type it, and passed, so one invoice never blocks the others
        log.warn({ err: e, tenant: tenant.slug, externalId: inv.externalId }, 'a fetched supplier invoice was refused');
        result.refused.push(
          `${inv.invoiceNumber} (${inv.externalId}): ${e instanceof AppError ? e.code : (e as Error).message}`,
        );
      }
    }
    cursor = listed.cursor;
    if (result.refused.length) result.error = result.refused.join('; ').slice(0, 2000);
  } catch (e) {
    result.error = isErpError(e)
      ? [e.code, e.vendorMessage].filter(Boolean).join(': ')
      : e instanceof AppError
        ? e.code
        : (e as Error).message;
    log.warn({ err: e, tenant: tenant.slug }, 'fetching supplier invoices from the ERP failed');
  }
  await withTenant(tenant, (trx) =>
    trx('supplier_invoice_settings').update({
      erp_fetch_state: 'idle',
      erp_fetch_kind: connection.kind,
      erp_fetch_cursor: cursor,
      erp_fetched_at: now(),
      erp_fetch_new: result.added,
      erp_fetch_existing: result.existing,
      erp_fetch_error: result.error,
    }),
  );
  return result;
}

const activeTenant = async (tenantId: string) =>
  (await listTenants({ status: 'active' })).find((t) => t.id === tenantId) ?? null;

/** The fetch a person asked for (promised through the job outbox); runs only a queued one. */
export const fetchErpSupplierInvoicesJob = defineJob({
  id: 'supplier-invoices.erp-fetch',
  schema: z.object({ tenantId: z.string() }),
  attempts: 1,
  async handler(data, ctx) {
    const tenant = await activeTenant(data.tenantId);
    if (!tenant) return;
    const done = await runErpFetch(tenant, { log: ctx.log });
    if (done) ctx.log.info({ tenant: tenant.slug, ...done }, 'supplier invoices fetched from the ERP');
  },
});

/**
 * The sweep: tenants that fetched once (they use the feature) and whose ERP still reads supplier
 * invoices fetch again when the last fetch is FETCH_SWEEP_EVERY_MS old.
 */
export const fetchDueErpSupplierInvoicesJob = defineJob({
  id: 'supplier-invoices.erp-fetch-due',
  lane: 'sweep',
  schema: z.object({}),
  attempts: 1,
  async handler(_data, ctx) {
    const failed: string[] = [];
    for (const tenant of await listTenants({ status: 'active' })) {
      try {
        const now = new Date();
        const due = await withTenant(tenant, async (trx) => {
          const row: Row | undefined = await trx('supplier_invoice_settings')
            .whereNotNull('erp_fetched_at')
            .where('erp_fetched_at', '<', new Date(now.getTime() - FETCH_SWEEP_EVERY_MS))
            .first('erp_fetch_state');
          if (!row) return false;
          const connection = await readErpConnection(trx);
          if (!erpReadsSupplierInvoices({ provider: erpProvider(connection.kind).provider, connection })) return false;
          return markQueued(trx, now);
        });
        if (due) await runErpFetch(tenant, { log: ctx.log });
      } catch (err) {
        failed.push(tenant.slug);
        ctx.log.error({ err, tenant: tenant.slug }, 'fetching supplier invoices failed for a tenant');
      }
    }
    if (failed.length) throw new Error(`fetching supplier invoices failed for: ${failed.join(', ')}`);
  },
});
