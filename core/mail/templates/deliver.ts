import type { Trx } from '~/core/db/with-tenant';
import { logger } from '~/core/log/logger';
import { getMailer, type MailMessage } from '~/core/mail/mailer';

const pending = new Set<Promise<void>>();

/**
 * Sends a mail once the transaction that produced it has committed, without holding the request.
 *
 * Why not inside the transaction: the link would name a token that a rollback then erases. Why
 * not `sendMailJob`: a request's unit of work has no queue to hand (the API router and route
 * actions get only the transaction). Why not await it: `POST /pw` must take the same time whether
 * or not the address exists, and a slow relay must not slow the page. The price is at most once:
 * a relay failure or a crash right after commit loses the mail; it is logged, and the person can
 * ask again (recovery) or be re-invited (registration). A rollback sends nothing.
 */
export function sendAfterCommit(trx: Trx, message: MailMessage): void {
  const delivery: Promise<void> = trx.executionPromise
    .then(
      async () => {
        try {
          await getMailer().send(message);
        } catch (err) {
          logger.error({ err, tenantId: message.tenantId }, 'mail after commit failed');
        }
      },
      () => undefined, // rolled back: nothing was promised
    )
    .finally(() => pending.delete(delivery));
  pending.add(delivery);
}

/** Resolves when every mail handed to `sendAfterCommit` so far has been sent or given up (tests, shutdown). */
export async function mailSettled(): Promise<void> {
  while (pending.size) await Promise.all([...pending]);
}
