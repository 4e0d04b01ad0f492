import { afterCommitSettled, type TenantScope, type Trx } from '~/core/db/with-tenant';
import { enqueueInTransaction } from '~/core/jobs/outbox';
import { sendMailJob, type MailMessage } from '~/core/mail/mailer';

/**
 * Promises a mail in the caller's transaction: a `mail.send` job written to the tenant's job
 * outbox in that same transaction (decision 041), handed to the queue once it committed, and sent
 * by the worker with its retries (a relay outage is retried with backoff; an SMTP 5xx is given up).
 * A rollback leaves no row, so no mail: a link never names a token that was rolled back. Nothing
 * waits on the relay: `POST /pw` takes the same time whether or not the address exists, and a
 * slow relay does not slow the page. A process that dies right after commit leaves the row, and
 * the outbox sweep hands it over later: the mail is sent at least once.
 */
export async function sendAfterCommit(ctx: { trx: Trx; tenant: TenantScope }, message: MailMessage): Promise<void> {
  await enqueueInTransaction(ctx.trx, ctx.tenant, sendMailJob, message);
}

/** Resolves when every mail promised so far has been handed over (and, without a queue, sent or given up). */
export async function mailSettled(): Promise<void> {
  await afterCommitSettled();
}
