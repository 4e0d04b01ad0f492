import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { z } from 'zod';
import { getConfig, type Config } from '~/core/config/env';
import { assertOutsideTransaction } from '~/core/db/transaction-guard';
import { open } from '~/core/crypto/secret-box';
import { withControl, withTenant } from '~/core/db/with-tenant';
import { PermanentJobError, defineJob } from '~/core/jobs/define-job';
import { logger } from '~/core/log/logger';

/**
 * One message. The schema doubles as the payload of `sendMailJob`, so mail queued from anywhere is
 * checked where it is created. CR/LF in the subject is refused: it is the classic header injection.
 */
export const ZMailMessage = z.object({
  to: z.array(z.email()).min(1).max(100),
  subject: z
    .string()
    .min(1)
    .max(500)
    .refine((s) => !/[\r\n]/.test(s), 'must be one line'),
  text: z.string().max(1_000_000),
  html: z.string().max(2_000_000).optional(),
  /** Files sent along (a document as PDF); the content is base64, so a queued job's payload stays JSON. */
  attachments: z
    .array(
      z.object({
        filename: z
          .string()
          .min(1)
          .max(200)
          .refine((s) => !/[\r\n"\\/]/.test(s), 'plain file name'),
        contentType: z.string().regex(/^[\w.+-]+\/[\w.+-]+$/),
        contentBase64: z.string().max(14_000_000),
      }),
    )
    .max(10)
    .optional(),
  /** Which tenant the mail is for: lets operators filter the outbox; not used for delivery. */
  tenantId: z.uuid().optional(),
});

export type MailMessage = z.infer<typeof ZMailMessage>;

export interface MailReceipt {
  /** The SMTP message id, or the outbox row id. */
  id: string;
}

/** Sends mail; callers do not know whether it leaves by SMTP or waits in the operators' outbox. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<MailReceipt>;
  close(): Promise<void>;
}

/** nodemailer over SMTP_URL. Timeouts are short so a dead relay fails the job (and it retries) instead of hanging it. */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly transport: Transporter;

  /** `server`: an SMTP URL (SMTP_URL), or the options of a tenant's own account (host, port, auth, TLS). */
  constructor(
    server: string | SMTPTransport.Options,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport({
      ...(typeof server === 'string' ? { url: server } : server),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  }

  async send(message: MailMessage): Promise<MailReceipt> {
    assertOutsideTransaction('sending mail by SMTP');
    const m = ZMailMessage.parse(message);
    const info = await this.transport.sendMail({
      from: this.from,
      to: m.to,
      subject: m.subject,
      text: m.text,
      ...(m.html !== undefined ? { html: m.html } : {}),
      ...(m.attachments?.length
        ? {
            attachments: m.attachments.map((a) => ({
              filename: a.filename,
              contentType: a.contentType,
              content: Buffer.from(a.contentBase64, 'base64'),
            })),
          }
        : {}),
    });
    logger.info({ to: m.to.length, messageId: info.messageId, tenantId: m.tenantId }, 'mail sent');
    return { id: String(info.messageId) };
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/**
 * Without SMTP_URL mail is kept in control.mail_outbox, so a fresh install (or a demo) loses no
 * sign-in link: operators read it with `npm run tenant -- outbox`.
 */
export class OutboxMailer implements Mailer {
  readonly kind = 'outbox' as const;

  constructor(private readonly from: string) {}

  async send(message: MailMessage): Promise<MailReceipt> {
    const m = ZMailMessage.parse(message);
    const [row] = await withControl((trx) =>
      trx('mail_outbox')
        .insert({
          tenant_id: m.tenantId ?? null,
          sender: this.from,
          recipients: m.to,
          subject: m.subject,
          // The outbox keeps no files: it names what was attached, for the operator reading it.
          text_body: m.attachments?.length
            ? `${m.text}\n\n[${m.attachments.map((a) => `${a.filename} (${a.contentType})`).join(', ')}]`
            : m.text,
          html_body: m.html ?? null,
        })
        .returning(['id']),
    );
    logger.info({ to: m.to.length, outboxId: row.id, tenantId: m.tenantId }, 'mail kept in the outbox (no SMTP_URL)');
    return { id: String(row.id) };
  }

  async close(): Promise<void> {}
}

export interface OutboxMail {
  id: string;
  tenantId: string | null;
  from: string;
  to: string[];
  subject: string;
  text: string | null;
  html: string | null;
  createdAt: Date;
}

/** The newest outbox mail first, for operators. */
export async function readOutbox(options: { limit: number; tenantId?: string }): Promise<OutboxMail[]> {
  const limit = Math.min(Math.max(Math.trunc(options.limit) || 1, 1), 500);
  const rows = await withControl((trx) => {
    const q = trx('mail_outbox').orderBy('id', 'desc').limit(limit);
    if (options.tenantId) q.where({ tenant_id: options.tenantId });
    return q.select<
      {
        id: string;
        tenant_id: string | null;
        sender: string;
        recipients: string[];
        subject: string;
        text_body: string | null;
        html_body: string | null;
        created_at: Date;
      }[]
    >('*');
  });
  return rows.map((r) => ({
    id: String(r.id),
    tenantId: r.tenant_id,
    from: r.sender,
    to: r.recipients,
    subject: r.subject,
    text: r.text_body,
    html: r.html_body,
    createdAt: new Date(r.created_at),
  }));
}

export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>): Mailer {
  return config.SMTP_URL ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM) : new OutboxMailer(config.MAIL_FROM);
}

let shared: Mailer | undefined;

/** The process's mailer, made on first use so one SMTP transport serves every job. */
export function getMailer(): Mailer {
  shared ??= createMailer(getConfig());
  return shared;
}

/** For tests and boot: replace the process's mailer (undefined: make a new one from the config on next use). */
export function setMailer(mailer: Mailer | undefined): void {
  shared = mailer;
}

/** What a tenant's own sending account (decision 066) needs to send: never the password in clear at rest. */
export interface MailAccountSettings {
  host: string;
  port: number;
  /** `tls`: TLS from the first byte (465); `starttls`: upgrade required (587); `none`: plain (a local relay). */
  security: 'tls' | 'starttls' | 'none';
  user: string;
  password: string;
  from: string;
}

/** The nodemailer options of an account: STARTTLS is required, not hoped for, when asked for. */
export function mailAccountTransport(a: MailAccountSettings): SMTPTransport.Options {
  return {
    host: a.host,
    port: a.port,
    secure: a.security === 'tls',
    requireTLS: a.security === 'starttls',
    ignoreTLS: a.security === 'none',
    auth: { user: a.user, pass: a.password },
  };
}

/** Where a tenant's sealed account password belongs (decision 040's associated data). */
export const mailAccountSealContext = (tenantId: string) => ({
  tenant: tenantId,
  purpose: 'mail_account.password_sealed',
});

const accountMailers = new Map<string, { version: string; mailer: SmtpMailer }>();

/**
 * The mailer for a tenant's mail: its own verified sending account (Settings → e-mail), else the
 * platform's. One small query a mail; the transport is kept until the account changes. An account
 * whose password no key opens any more (a key retired too early) falls back to the platform's
 * mailer with an error in the log, rather than losing the mail.
 */
export async function mailerFor(tenantId: string | undefined): Promise<Mailer> {
  if (!tenantId) return getMailer();
  const tenant = await withControl((trx) =>
    trx('tenants').where({ id: tenantId }).first<{ id: string; schema_name: string; cluster: string } | undefined>(),
  );
  if (!tenant) return getMailer();
  const row = await withTenant({ id: tenant.id, schemaName: tenant.schema_name, cluster: tenant.cluster }, (trx) =>
    trx('mail_account')
      .whereNotNull('verified_at')
      .first<Record<string, unknown> | undefined>(
        'host',
        'port',
        'security',
        'username',
        'password_sealed',
        'from_address',
        'updated_at',
      ),
  );
  if (!row) return getMailer();
  const version = `${String(row.password_sealed)}|${new Date(row.updated_at as Date).toISOString()}`;
  const cached = accountMailers.get(tenantId);
  if (cached?.version === version) return cached.mailer;
  let password: string;
  try {
    password = open(row.password_sealed as string, mailAccountSealContext(tenantId));
  } catch (err) {
    logger.error({ err, tenantId }, "the tenant's mail account password does not open: sending through the platform");
    return getMailer();
  }
  const settings: MailAccountSettings = {
    host: row.host as string,
    port: Number(row.port),
    security: row.security as MailAccountSettings['security'],
    user: row.username as string,
    password,
    from: row.from_address as string,
  };
  const mailer = new SmtpMailer(mailAccountTransport(settings), settings.from);
  await cached?.mailer.close();
  accountMailers.set(tenantId, { version, mailer });
  return mailer;
}

/** SMTP 5xx: the server refuses for good (unknown mailbox, policy); retrying would only repeat it. */
export function isPermanentSmtpError(e: unknown): boolean {
  const code = (e as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * Sends mail from a job, so a request never waits on (or fails with) the SMTP relay, and a relay
 * outage is retried with backoff. Delivery is at least once: a crash after the relay accepted the
 * message but before the run was recorded sends it again.
 */
export const sendMailJob = defineJob({
  id: 'mail.send',
  schema: ZMailMessage,
  attempts: 5,
  async handler(data, ctx) {
    try {
      const receipt = await (await mailerFor(data.tenantId)).send(data);
      ctx.log.debug({ receipt }, 'mail job done');
    } catch (e) {
      if (isPermanentSmtpError(e))
        throw new PermanentJobError(`The SMTP server refused the mail: ${(e as Error).message}`, { cause: e });
      throw e;
    }
  },
});
