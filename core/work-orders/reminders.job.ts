import { z } from 'zod';
import { formatDateTime } from '~/core/i18n/number-format';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import { langFromKey } from '~/core/i18n/languages';
import { defineJob } from '~/core/jobs/define-job';
import type { Logger } from '~/core/log/logger';
import { mailerFor, type MailMessage } from '~/core/mail/mailer';
import { tenantLink } from '~/core/mail/templates/links';
import { renderReminderMail } from '~/core/mail/templates/reminder';
import type { Tenant } from '~/core/tenancy/tenant';
import { listTenants } from '~/tenants/registry';

/** How often due reminders are looked for: a reminder leaves at most this long after its due time. */
export const REMINDER_SWEEP_EVERY_MS = 60_000;
/** Reminders claimed per statement; a tenant with more due at once takes several (up to MAX_BATCHES). */
export const REMINDER_BATCH = 200;
const MAX_BATCHES = 10;

/** One claimed reminder: its mail, or null when nobody should get it (order deleted, person inactive). */
interface Claimed {
  id: string;
  mail: MailMessage | null;
}

type Row = Record<string, unknown>;

/**
 * Claims up to `limit` reminders that are due and not yet sent (`sent_at` set to `now` in the same
 * statement) and renders their mails. `for update skip locked` plus `sent_at is null` make a claim
 * exclusive: two sweeps, two workers or a sweep after a restart never claim the same reminder, so
 * a reminder is mailed at most once. A tenant with the `reminders` module off claims nothing (its
 * reminders wait until the module is on again).
 */
export async function claimDueReminders(trx: Trx, tenant: Tenant, now: Date, limit: number): Promise<Claimed[]> {
  const result = await trx.raw(
    `with due as (
       select r.id from work_order_reminders r
        where r.sent_at is null and r.due_at <= ?
          and exists (select 1 from app_modules m where m.id = 'reminders' and m.enabled)
        order by r.due_at, r.id
        limit ?
        for update of r skip locked
     )
     update work_order_reminders r set sent_at = ?
       from due, work_orders w, users u
      where r.id = due.id and w.id = r.work_order_id and u.id = r.user_id
     returning r.id, r.due_at, r.message, r.work_order_id, w.number, w.title, w.deleted_at,
               u.email, u.name, u.language, u.status`,
    [now, limit, now],
  );
  const rows = result.rows as Row[];
  if (!rows.length) return [];
  // one host lookup for the batch, not one per reminder
  const base = await tenantLink(trx, tenant, null, '');
  const claimed: Claimed[] = [];
  for (const r of rows) {
    if (r.deleted_at || r.status !== 'active') {
      claimed.push({ id: r.id as string, mail: null });
      continue;
    }
    const lang = langFromKey(r.language as string | null, langFromKey(tenant.config.languageKey));
    const rendered = renderReminderMail(
      lang,
      {
        name: r.name as string,
        number: r.number as string,
        title: r.title as string,
        due: formatDateTime(r.due_at as Date, { dateFormat: tenant.config.dateFormat, country: tenant.config.country }),
        company: tenant.displayName,
        message: (r.message as string) ?? '',
      },
      `${base}/work-orders/${r.work_order_id as string}`,
    );
    claimed.push({ id: r.id as string, mail: { to: [r.email as string], ...rendered, tenantId: tenant.id } });
  }
  return claimed;
}

/** SMTP 5xx: the server refuses for good; trying again every minute would only repeat it. */
const isPermanent = (e: unknown) => {
  const code = (e as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * Mails what one tenant has due. Claiming commits before any mail leaves, so a rollback never
 * leaves a mail sent for a reminder still pending. A mail the relay does not take (down, 4xx) is
 * released (`sent_at` cleared, if nobody changed it since) for the next sweep; a crash between the
 * claim and the send loses that mail: at most once, never twice (decision 017).
 */
async function sweepTenant(tenant: Tenant, now: Date, log: Logger): Promise<{ sent: number; skipped: number }> {
  let sent = 0;
  let skipped = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const claimed = await withTenant(tenant, (trx) => claimDueReminders(trx, tenant, now, REMINDER_BATCH));
    const released: string[] = [];
    for (const c of claimed) {
      if (!c.mail) {
        skipped++;
        continue;
      }
      try {
        await (await mailerFor(tenant.id)).send(c.mail);
        sent++;
      } catch (err) {
        log.error({ err, tenant: tenant.slug, reminderId: c.id }, 'a reminder mail failed');
        if (!isPermanent(err)) released.push(c.id);
      }
    }
    if (released.length)
      await withTenant(tenant, (trx) =>
        trx('work_order_reminders').whereIn('id', released).where({ sent_at: now }).update({ sent_at: null }),
      );
    if (claimed.length < REMINDER_BATCH || released.length) break;
  }
  return { sent, skipped };
}

/**
 * Every minute: mails each active tenant's due reminders to the person reminded, in their language.
 * Not tenant scoped, like the session purge: one schedule whatever the number of tenants. A
 * tenant's failure does not stop the others; the run then fails so it is logged as failed (the
 * next minute's run tries again, so there are no retries of its own).
 */
export const sendDueRemindersJob = defineJob({
  id: 'workorders.send-due-reminders',
  lane: 'sweep',
  schema: z.object({}),
  attempts: 1,
  async handler(_data, ctx) {
    const tenants = await listTenants({ status: 'active' });
    const failed: string[] = [];
    let sent = 0;
    let skipped = 0;
    for (const tenant of tenants) {
      try {
        const done = await sweepTenant(tenant, ctx.now, ctx.log);
        sent += done.sent;
        skipped += done.skipped;
      } catch (err) {
        failed.push(tenant.slug);
        ctx.log.error({ err, tenant: tenant.slug }, 'sending due reminders failed for a tenant');
      }
    }
    if (sent || skipped || failed.length) ctx.log.info({ sent, skipped, failed: failed.length }, 'due reminders sent');
    if (failed.length) throw new Error(`Sending due reminders failed for: ${failed.join(', ')}`);
  },
});
