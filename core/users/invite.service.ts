import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { issueOneTimeToken } from '~/core/auth/one-time-token.service';
import { REGISTRATION_VALID_HOURS } from '~/core/auth/registration.service';
import { mailLang } from '~/core/auth/recovery.service';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, UUID_PATTERN, parseInput, zEmail, zRequiredString } from '~/core/errors/validation';
import { keyFromLang } from '~/core/i18n/languages';
import { LANGUAGE_KEYS } from '~/core/instance/instance-config';
import { invitationMail } from '~/core/mail/templates/invitation';
import { sendAfterCommit } from '~/core/mail/templates/deliver';
import { getMailer } from '~/core/mail/mailer';
import { tenantLink } from '~/core/mail/templates/links';
import { renderMail } from '~/core/mail/templates/render';
import { requireAccess } from '~/core/permissions/access';

export const ZInviteUser = z.object({
  email: zEmail(),
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  accessLevelIds: z.array(z.string().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE')).max(100).default([]),
  /** Spec language key (se, en, ee, lv, ru); without it mail and UI follow the tenant's language. */
  language: z.enum(LANGUAGE_KEYS, { error: 'ERROR_INVALID_VALUE' }).optional(),
  /** The host the admin works on, for the link; only one of the tenant's own hosts is used. */
  hostname: z.string().max(255).optional(),
});
export type TInviteUser = z.infer<typeof ZInviteUser>;

/**
 * Invites a user: creates them with status 'registered' and no password, and mails a registration
 * link (valid 7 days) in their language. Inviting an address that is still only invited sends a
 * new link (older ones stop working) and leaves the user as they are; an active or inactive user's
 * address is refused with 409 USER_EMAIL_TAKEN. The mail leaves after commit (see sendAfterCommit).
 */
export async function inviteUser(
  ctx: Ctx,
  raw: unknown,
): Promise<{ id: string; created: boolean; delivery: MailDelivery }> {
  requireAccess(ctx.auth, { permission: 'users:edit' });
  const input = parseInput(ZInviteUser, raw);
  const existing = await ctx
    .trx('users')
    .whereRaw('lower(email) = lower(?)', [input.email])
    .first<{ id: string; email: string; name: string; language: string | null; status: string } | undefined>(
      'id',
      'email',
      'name',
      'language',
      'status',
    );
  if (existing && existing.status !== 'registered')
    throw new AppError('USER_EMAIL_TAKEN', 409, { fields: { email: ['USER_EMAIL_TAKEN'] } });

  let user = existing;
  if (!user) {
    const ids = [...new Set(input.accessLevelIds)];
    const found = ids.length ? await ctx.trx('access_levels').whereIn('id', ids).select('id') : [];
    if (found.length !== ids.length)
      throw new AppError('VALIDATION_FAILED', 400, { fields: { accessLevelIds: ['ERROR_INVALID_VALUE'] } });
    const [row] = await ctx
      .trx('users')
      .insert({
        email: input.email,
        name: input.name,
        language: input.language ?? null,
        status: 'registered',
        password_hash: null,
        configuration: JSON.stringify({}),
        created_at: ctx.now,
        updated_at: ctx.now,
      })
      .returning(['id', 'email', 'name', 'language', 'status']);
    user = row as NonNullable<typeof existing>;
    if (ids.length)
      await ctx.trx('user_access_levels').insert(ids.map((id) => ({ user_id: user!.id, access_level_id: id })));
  } else {
    await ctx
      .trx('user_tokens')
      .where({ user_id: user.id, purpose: 'registration' })
      .whereNull('used_at')
      .update({ used_at: ctx.now });
  }

  const { link, lang } = await registrationLink(ctx, user, input.hostname);
  const mail = renderMail(
    invitationMail,
    lang,
    { name: user.name, email: user.email, company: ctx.tenant.displayName, inviter: ctx.auth.user.fullName },
    link,
  );
  await sendAfterCommit(ctx, { to: [user.email], ...mail, tenantId: ctx.tenant.id });
  return { id: user.id, created: !existing, delivery: getMailer().kind };
}

/**
 * How mail leaves: by a relay ('smtp'), or kept in the operators' outbox ('outbox', no SMTP_URL),
 * where nobody receives it: the screens say which, and offer the link to pass on by hand.
 */
export type MailDelivery = 'smtp' | 'outbox';

/** A new registration link for an invited user; the older ones stop working. */
async function registrationLink(ctx: Ctx, user: { id: string; language: string | null }, hostname: string | undefined) {
  const token = await issueOneTimeToken(ctx.trx, {
    userId: user.id,
    purpose: 'registration',
    now: ctx.now,
    validHours: REGISTRATION_VALID_HOURS,
  });
  const lang = mailLang(ctx, user.language);
  const link = await tenantLink(
    ctx.trx,
    ctx.tenant,
    hostname,
    `/login?rt=${encodeURIComponent(token)}&lang=${keyFromLang(lang)}`,
  );
  return { link, lang };
}

/**
 * The invitation link of a user who has not registered yet, for an administrator to pass on by
 * hand (no mail relay, or a mail that never arrived): a new link, valid 7 days; the mailed one
 * stops working. 409 INVITATION_NOT_PENDING for a user who has registered.
 */
export async function invitationLink(ctx: Ctx, id: unknown, hostname?: string): Promise<{ link: string }> {
  requireAccess(ctx.auth, { permission: 'users:edit' });
  if (!isUuid(id)) throw notFound();
  const user = await ctx
    .trx('users')
    .where({ id })
    .first<{ id: string; language: string | null; status: string } | undefined>('id', 'language', 'status');
  if (!user) throw notFound();
  if (user.status !== 'registered') throw new AppError('INVITATION_NOT_PENDING', 409);
  await ctx
    .trx('user_tokens')
    .where({ user_id: user.id, purpose: 'registration' })
    .whereNull('used_at')
    .update({ used_at: ctx.now });
  return { link: (await registrationLink(ctx, user, hostname)).link };
}
