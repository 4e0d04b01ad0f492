import { z } from 'zod';
import { purgeExpiredSessions } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import { sendMailJob } from '~/core/mail/mailer';
import { documentMailJob } from '~/core/documents/mail';
import { DELIVERY_SWEEP_EVERY_MS, deliverDueJob, deliverTenantJob } from '~/core/invoicing/erp-delivery';
import { REMINDER_SWEEP_EVERY_MS, sendDueRemindersJob } from '~/core/work-orders/reminders.job';
import {
  AGREEMENT_SWEEP_EVERY_MS,
  agreementInvoiceRunJob,
  generateDueAgreementsJob,
} from '~/core/agreements/agreement-runs';
import { listTenants } from '~/tenants/registry';
import { defineJob, type JobDefinition } from './define-job';
import { OUTBOX_SWEEP_EVERY_MS, dispatchOutbox } from './outbox';
import type { JobQueue } from './queue';

export const PURGE_SESSIONS_EVERY_MS = 15 * 60_000;

/**
 * Deletes dead sessions in every active tenant. Not tenant scoped on purpose: one run walks all
 * tenants, so the schedule stays a single entry however many tenants exist. Each tenant is its own
 * transaction, and one tenant's failure does not stop the others; the run still fails at the end so
 * it is retried (purging again is harmless).
 */
export const purgeExpiredSessionsJob = defineJob({
  id: 'auth.purge-expired-sessions',
  lane: 'sweep',
  schema: z.object({}),
  attempts: 3,
  async handler(_data, ctx) {
    const tenants = await listTenants({ status: 'active' });
    const failed: string[] = [];
    let purged = 0;
    for (const tenant of tenants) {
      try {
        purged += await withTenant(tenant, (trx) => purgeExpiredSessions(trx, ctx.now));
      } catch (err) {
        failed.push(tenant.slug);
        ctx.log.error({ err, tenant: tenant.slug }, 'purging expired sessions failed for a tenant');
      }
    }
    ctx.log.info({ tenants: tenants.length, purged, failed: failed.length }, 'expired sessions purged');
    if (failed.length) throw new Error(`Purging expired sessions failed for: ${failed.join(', ')}`);
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
    const tenants = await listTenants({ status: 'active' });
    const failed: string[] = [];
    for (const tenant of tenants) {
      try {
        const handed = await dispatchOutbox(tenant, coreJobs, { log: ctx.log });
        if (handed) ctx.log.info({ tenant: tenant.slug, handed }, 'outbox jobs handed to the queue');
      } catch (err) {
        failed.push(tenant.slug);
        ctx.log.error({ err, tenant: tenant.slug }, 'handing outbox jobs over failed for a tenant');
      }
    }
    if (failed.length) throw new Error(`Handing outbox jobs over failed for: ${failed.join(', ')}`);
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
  generateDueAgreementsJob,
  agreementInvoiceRunJob,
  dispatchOutboxJob,
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
  await queue.schedule(dispatchOutboxJob, { key: 'dispatch-outbox', everyMs: OUTBOX_SWEEP_EVERY_MS, data: {} });
  await queue.schedule(generateDueAgreementsJob, {
    key: 'agreements-generate-due',
    everyMs: AGREEMENT_SWEEP_EVERY_MS,
    data: {},
  });
}
