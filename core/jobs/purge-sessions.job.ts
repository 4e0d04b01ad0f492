import { z } from 'zod';
import { purgeExpiredSessions } from '~/core/auth/session.service';
import { ZONE } from '~/core/auth/principal';
import { withTenant } from '~/core/db/with-tenant';
import { sendMailJob } from '~/core/mail/mailer';
import { documentMailJob } from '~/core/documents/mail';
import { DELIVERY_SWEEP_EVERY_MS, deliverDueJob, deliverTenantJob } from '~/core/invoicing/erp-delivery';
import {
  deliverDueSupplierInvoicesJob,
  deliverSupplierInvoicesTenantJob,
} from '~/core/supplier-invoices/supplier-invoice-delivery';
import {
  FETCH_SWEEP_EVERY_MS,
  fetchDueErpSupplierInvoicesJob,
  fetchErpSupplierInvoicesJob,
} from '~/core/supplier-invoices/supplier-invoice-erp-fetch';
import { REMINDER_SWEEP_EVERY_MS, sendDueRemindersJob } from '~/core/work-orders/reminders.job';
import {
  AGREEMENT_SWEEP_EVERY_MS,
  agreementInvoiceRunJob,
  generateDueAgreementsJob,
} from '~/core/agreements/agreement-runs';
import { catalogueImportJob } from '~/core/supplier-catalogues/catalogue-import';
import { mailOverdueDeviationsJob, OVERDUE_SWEEP_EVERY_MS } from '~/core/deviations/deviation-mail';
import { sweepOrphanFiles } from '~/core/files/orphans';
import { defineJob, type JobDefinition } from './define-job';
import { forEachActiveTenant } from './each-tenant';
import { OUTBOX_SWEEP_EVERY_MS, dispatchOutbox } from './outbox';
import type { JobQueue } from './queue';

export const PURGE_SESSIONS_EVERY_MS = 15 * 60_000;

/**
 * Deletes dead sessions in every active tenant (each its own transaction; purging again is harmless).
 */
export const purgeExpiredSessionsJob = defineJob({
  id: 'auth.purge-expired-sessions',
  lane: 'sweep',
  schema: z.object({}),
  attempts: 3,
  async handler(_data, ctx) {
    let purged = 0;
    const { tenants } = await forEachActiveTenant(ctx.log, 'Purging expired sessions', async (tenant) => {
      // staff sessions and the customer zone's (decision 061), in one unit of work
      purged += await withTenant(
        tenant,
        async (trx) => (await purgeExpiredSessions(trx, ctx.now)) + (await purgeExpiredSessions(trx, ctx.now, ZONE)),
      );
    });
    ctx.log.info({ tenants, purged }, 'expired sessions purged');
  },
});

/**
 * Every OUTBOX_SWEEP_EVERY_MS: every active tenant's outbox rows no commit handed over itself (the
 * process died after commit, or the queue was down), handed to the queue now (decision 041).
 */
export const dispatchOutboxJob = defineJob({
  id: 'jobs.dispatch-outbox',
  lane: 'sweep',
  schema: z.object({}),
  attempts: 1,
  async handler(_data, ctx) {
    await forEachActiveTenant(ctx.log, 'Handing outbox jobs over', async (tenant) => {
      const handed = await dispatchOutbox(tenant, coreJobs, { log: ctx.log });
      if (handed) ctx.log.info({ tenant: tenant.slug, handed }, 'outbox jobs handed to the queue');
    });
  },
});

export const ORPHAN_SWEEP_EVERY_MS = 6 * 3600_000;

/**
 * Every ORPHAN_SWEEP_EVERY_MS: every active tenant's stored bytes that no row names, older than a
 * day, deleted (core/files/orphans.ts; issue 37 item 5), and what went reported per tenant.
 */
export const sweepOrphanFilesJob = defineJob({
  id: 'files.sweep-orphans',
  lane: 'sweep',
  schema: z.object({}),
  attempts: 2,
  async handler(_data, ctx) {
    await forEachActiveTenant(ctx.log, 'Sweeping stored files no row names', async (tenant) => {
      const swept = await sweepOrphanFiles(tenant, { now: ctx.now });
      if (swept.removed.length)
        ctx.log.warn(
          { tenant: tenant.slug, examined: swept.examined, removed: swept.removed, bytes: swept.bytes },
          'stored files no row named were removed',
        );
    });
  },
});

/** Every job the core defines; a worker must start with these (plus plugins' jobs). */
export const coreJobs: readonly JobDefinition[] = [
  purgeExpiredSessionsJob,
  sendMailJob,
  documentMailJob,
  sendDueRemindersJob,
  deliverDueJob,
  deliverTenantJob,
  deliverDueSupplierInvoicesJob,
  deliverSupplierInvoicesTenantJob,
  fetchErpSupplierInvoicesJob,
  fetchDueErpSupplierInvoicesJob,
  generateDueAgreementsJob,
  agreementInvoiceRunJob,
  catalogueImportJob,
  mailOverdueDeviationsJob,
  dispatchOutboxJob,
  sweepOrphanFilesJob,
];

/** Idempotent (schedules are upserted by key), so every process can call it at boot. */
export async function registerCoreSchedules(queue: JobQueue): Promise<void> {
  await queue.schedule(purgeExpiredSessionsJob, {
    key: 'purge-expired-sessions',
    everyMs: PURGE_SESSIONS_EVERY_MS,
    data: {},
  });
  await queue.schedule(sendDueRemindersJob, { key: 'send-due-reminders', everyMs: REMINDER_SWEEP_EVERY_MS, data: {} });
  await queue.schedule(deliverDueJob, { key: 'erp-deliver-due', everyMs: DELIVERY_SWEEP_EVERY_MS, data: {} });
  await queue.schedule(deliverDueSupplierInvoicesJob, {
    key: 'supplier-invoices-erp-deliver-due',
    everyMs: DELIVERY_SWEEP_EVERY_MS,
    data: {},
  });
  await queue.schedule(fetchDueErpSupplierInvoicesJob, {
    key: 'supplier-invoices-erp-fetch-due',
    everyMs: FETCH_SWEEP_EVERY_MS,
    data: {},
  });
  await queue.schedule(mailOverdueDeviationsJob, {
    key: 'deviations-mail-overdue',
    everyMs: OVERDUE_SWEEP_EVERY_MS,
    data: {},
  });
  await queue.schedule(dispatchOutboxJob, { key: 'dispatch-outbox', everyMs: OUTBOX_SWEEP_EVERY_MS, data: {} });
  await queue.schedule(sweepOrphanFilesJob, { key: 'files-sweep-orphans', everyMs: ORPHAN_SWEEP_EVERY_MS, data: {} });
  await queue.schedule(generateDueAgreementsJob, {
    key: 'agreements-generate-due',
    everyMs: AGREEMENT_SWEEP_EVERY_MS,
    data: {},
  });
}
