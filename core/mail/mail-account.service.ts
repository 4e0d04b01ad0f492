import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { seal } from '~/core/crypto/secret-box';
import { thenAfterCommit, withTenant, type AfterCommitWork } from '~/core/db/with-tenant';
import { AppError } from '~/core/errors/app-error';
import { parseInput, zEmail } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import type { Lang } from '~/core/i18n/languages';
import { logger } from '~/core/log/logger';
import { requireAccess } from '~/core/permissions/access';
import { open } from '~/core/crypto/secret-box';
import { mailAccountSealContext, mailAccountTransport, SmtpMailer, type MailAccountSettings } from './mailer';

/*
 * The tenant's own sending account (issue 36 item 6: POST /instance/mail/auth; decision 066). An
 * admin gives SMTP host, port, security, user, password and the From address; Ordo tries them with
 * a real send (outside any transaction) and keeps them only when the server took the mail: the
 * password sealed (decision 040), never answered. From then on the tenant's mail leaves through its
 * account (mailerFor in mailer.ts). Microsoft 365 / Google OAuth sending is not offered: see the
 * decision.
 */

const ENTITY = 'instance';
const SECURITIES = ['tls', 'starttls', 'none'] as const;

/** A host name or an IP address as a person types it: no scheme, no path, no spaces. */
const HOST =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\[?[0-9A-Fa-f:.]+\]?$/;

/** A From address: `name@domain` or `Name <name@domain>`. */
const FROM =
  /^(?:[^<>\r\n"]{1,100} <[\w.+-]+@[\w-]+(\.[\w-]+)*\.[A-Za-z]{2,24}>|[\w.+-]+@[\w-]+(\.[\w-]+)*\.[A-Za-z]{2,24})$/;

export const ZMailAuth = z.object({
  host: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .regex(HOST, 'ERROR_INVALID_HOSTNAME'),
  port: z.coerce
    .number({ error: 'ERROR_INVALID_VALUE' })
    .int('ERROR_INVALID_VALUE')
    .min(1, 'ERROR_INVALID_VALUE')
    .max(65535, 'ERROR_INVALID_VALUE'),
  security: z.enum(SECURITIES, { error: 'ERROR_INVALID_VALUE' }).default('starttls'),
  user: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD').max(320, 'ERROR_MAX_LENGTH'),
  /** Left out or empty: the stored one (changing the host keeps the password). */
  password: z.string({ error: 'ERROR_INVALID_VALUE' }).max(1000, 'ERROR_MAX_LENGTH').optional(),
  from: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .regex(FROM, 'ERROR_INVALID_EMAIL'),
  /** Where the test mail goes; the signed-in admin's own address when left out. */
  testTo: z.preprocess((v) => (v === '' ? undefined : v), zEmail().optional()),
});
export type TMailAuth = z.input<typeof ZMailAuth>;

export const ZMailTest = z.object({
  testTo: z.preprocess((v) => (v === '' ? undefined : v), zEmail().optional()),
});

export interface MailAccountView {
  configured: boolean;
  host: string | null;
  port: number | null;
  security: (typeof SECURITIES)[number] | null;
  user: string | null;
  from: string | null;
  /** A password is stored (it is never answered). */
  hasPassword: boolean;
  verifiedAt: string | null;
}

type Row = Record<string, unknown>;

async function accountRow(ctx: Pick<Ctx, 'trx'>): Promise<Row | undefined> {
  return ctx.trx('mail_account').first();
}

function toView(r: Row | undefined): MailAccountView {
  if (!r)
    return {
      configured: false,
      host: null,
      port: null,
      security: null,
      user: null,
      from: null,
      hasPassword: false,
      verifiedAt: null,
    };
  return {
    configured: true,
    host: r.host as string,
    port: Number(r.port),
    security: r.security as MailAccountView['security'],
    user: r.username as string,
    from: r.from_address as string,
    hasPassword: Boolean(r.password_sealed),
    verifiedAt: r.verified_at ? new Date(r.verified_at as Date).toISOString() : null,
  };
}

/** GET /instance/mail: the account without its password (instance:read). */
export async function readMailAccount(ctx: Ctx): Promise<MailAccountView> {
  requireAccess(ctx.auth, { permission: 'instance:read' });
  return toView(await accountRow(ctx));
}

const TEST_MAIL: Record<Lang, { subject: string; text: string }> = {
  sv: {
    subject: 'Testmejl från Ordo',
    text: 'Det här är ett testmejl från Ordo. {{company}} skickar nu sin e-post via {{host}}.',
  },
  en: {
    subject: 'Test mail from Ordo',
    text: 'This is a test mail from Ordo. {{company}} now sends its e-mail through {{host}}.',
  },
  et: {
    subject: 'Ordo testkiri',
    text: 'See on Ordo testkiri. {{company}} saadab nüüd oma e-kirjad serveri {{host}} kaudu.',
  },
  lv: {
    subject: 'Ordo testa e-pasts',
    text: 'Šis ir Ordo testa e-pasts. {{company}} tagad sūta savus e-pastus caur {{host}}.',
  },
  ru: {
    subject: 'Тестовое письмо от Ordo',
    text: 'Это тестовое письмо от Ordo. {{company}} теперь отправляет почту через {{host}}.',
  },
};

/**
 * A nodemailer failure as the spec-style code the page translates: the server refused the login
 * (535, EAUTH), could not be reached or spoke no TLS (ESOCKET, ECONNECTION, ETIMEDOUT, EDNS, TLS),
 * or refused the mail itself (sender or recipient, 5xx).
 */
export function mailFailureCode(e: unknown): 'MAIL_LOGIN_REFUSED' | 'MAIL_SERVER_UNREACHABLE' | 'MAIL_SEND_REFUSED' {
  const err = e as { code?: unknown; responseCode?: unknown } | null;
  if (err?.code === 'EAUTH' || err?.responseCode === 535 || err?.responseCode === 534) return 'MAIL_LOGIN_REFUSED';
  if (err?.code === 'EENVELOPE' || err?.code === 'EMESSAGE') return 'MAIL_SEND_REFUSED';
  if (typeof err?.responseCode === 'number' && err.responseCode >= 500) return 'MAIL_SEND_REFUSED';
  return 'MAIL_SERVER_UNREACHABLE';
}

/** Sends the test mail through `settings`; outside any transaction. Throws AppError with the failure's code. */
async function sendTestMail(ctx: Ctx, settings: MailAccountSettings, to: string): Promise<void> {
  const mailer = new SmtpMailer(mailAccountTransport(settings), settings.from);
  const words = TEST_MAIL[ctx.lang];
  const fill = (s: string) => s.replace('{{company}}', ctx.tenant.displayName).replace('{{host}}', settings.host);
  try {
    await mailer.send({ to: [to], subject: words.subject, text: `${fill(words.text)}\n`, tenantId: ctx.tenant.id });
  } catch (e) {
    const code = mailFailureCode(e);
    logger.info({ tenantId: ctx.tenant.id, code, err: (e as Error).message }, 'mail account test refused');
    throw new AppError(code, 409);
  } finally {
    await mailer.close();
  }
}

/**
 * POST /instance/mail/auth (instance:edit): tries the account with a real send to `testTo` (the
 * admin's own address when left out) and, only if the server took it, stores it with the password
 * sealed and `verified_at` now; answers the account without its password. A refused login answers
 * 409 MAIL_LOGIN_REFUSED, an unreachable server 409 MAIL_SERVER_UNREACHABLE, a refused mail 409
 * MAIL_SEND_REFUSED, and nothing is stored.
 */
export async function authorizeMailAccount(ctx: Ctx, raw: unknown): Promise<AfterCommitWork<MailAccountView>> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZMailAuth, raw);
  const before = await accountRow(ctx);
  let password = input.password ?? '';
  if (!password) {
    if (!before) throw new AppError('VALIDATION_FAILED', 400, { fields: { password: ['ERROR_REQUIRED_FIELD'] } });
    password = open(before.password_sealed as string, mailAccountSealContext(ctx.tenant.id));
  }
  const settings: MailAccountSettings = { ...input, password };
  const to = input.testTo ?? ctx.auth.user.email;
  return thenAfterCommit(async () => {
    await sendTestMail(ctx, settings, to);
    return withTenant(ctx.tenant, async (trx) => {
      const row = {
        host: settings.host,
        port: settings.port,
        security: settings.security,
        username: settings.user,
        password_sealed: seal(password, mailAccountSealContext(ctx.tenant.id)),
        from_address: settings.from,
        verified_at: new Date(),
        updated_by: ctx.auth!.user.id,
        updated_at: new Date(),
      };
      await trx('mail_account')
        .insert({ id: true, ...row })
        .onConflict('id')
        .merge();
      await recordHistory(
        { ...ctx, trx },
        {
          entity: ENTITY,
          entityId: ctx.tenant.id,
          action: 'edit.mail',
          data: {
            host: settings.host,
            port: settings.port,
            security: settings.security,
            user: settings.user,
            from: settings.from,
            testTo: to,
          },
        },
      );
      return toView(await trx('mail_account').first());
    });
  });
}

/** POST /instance/mail/test (instance:edit): the stored account sends a test mail → {ok: true, to}. */
export async function testMailAccount(ctx: Ctx, raw: unknown): Promise<AfterCommitWork<{ ok: true; to: string }>> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZMailTest, raw);
  const row = await accountRow(ctx);
  if (!row) throw new AppError('MAIL_ACCOUNT_MISSING', 409);
  const settings: MailAccountSettings = {
    host: row.host as string,
    port: Number(row.port),
    security: row.security as MailAccountSettings['security'],
    user: row.username as string,
    password: open(row.password_sealed as string, mailAccountSealContext(ctx.tenant.id)),
    from: row.from_address as string,
  };
  const to = input.testTo ?? ctx.auth.user.email;
  return thenAfterCommit(async () => {
    await sendTestMail(ctx, settings, to);
    return { ok: true as const, to };
  });
}

/** DELETE /instance/mail (instance:edit): forgets the account; mail goes through the platform again. */
export async function forgetMailAccount(ctx: Ctx): Promise<MailAccountView> {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const deleted = await ctx.trx('mail_account').delete();
  if (deleted) await recordHistory(ctx, { entity: ENTITY, entityId: ctx.tenant.id, action: 'delete.mail' });
  return toView(undefined);
}
