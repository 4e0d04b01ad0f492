import { z } from 'zod';
import type { Ctx } from '~/core/context';
import type { Trx } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { langFromKey, type Lang } from '~/core/i18n/languages';
import type { MailMessage } from '~/core/mail/mailer';
import { sendAfterCommit } from '~/core/mail/templates/deliver';
import { requireAccess } from '~/core/permissions/access';
import { BUILT_IN_MAIL_DEFAULTS, NOTIFICATION_TYPES, type NotificationType } from './notification-types';

/*
 * Settings → notifications (issue 36 item 5; decision 066). A person's mail choice for a type is
 * their own row in user_notifications, else the tenant's default (notification_defaults, set by
 * admins), else the built-in default. A person's row is kept only while it differs from the
 * tenant's default, so "as the company decides" stays that until they change it. Every mail Ordo
 * sends a staff user for one of these types goes through `promiseNotificationMails`.
 */

type Row = Record<string, unknown>;

/** A choice as forms and JSON send it: true/false, "on"/"off", "true"/"false". */
const zChoice = z.preprocess(
  (v) => (v === 'on' || v === 'true' ? true : v === 'off' || v === 'false' || v === '' ? false : v),
  z.boolean({ error: 'ERROR_INVALID_VALUE' }),
);

/** {INVOICE?: boolean, …}: the types given are saved, the rest keep what they were; unknown keys are refused. */
export const ZNotificationChoices = z.strictObject(
  Object.fromEntries(NOTIFICATION_TYPES.map((t) => [t, zChoice.optional()])) as Record<
    NotificationType,
    z.ZodOptional<typeof zChoice>
  >,
);
export type TNotificationChoices = z.infer<typeof ZNotificationChoices>;

export interface NotificationChoice {
  type: NotificationType;
  /** Whether this person is mailed. */
  mail: boolean;
  /** The tenant's default (what they get while they chose nothing). */
  default: boolean;
  /** They chose otherwise than the default. */
  own: boolean;
}

async function tenantDefaults(trx: Trx): Promise<Record<NotificationType, boolean>> {
  const rows: Row[] = await trx('notification_defaults').select('type', 'mail');
  const out = { ...BUILT_IN_MAIL_DEFAULTS };
  for (const r of rows) if ((r.type as string) in out) out[r.type as NotificationType] = Boolean(r.mail);
  return out;
}

/** The signed-in person's choices, one per spec type. */
export async function readMyNotifications(ctx: Ctx): Promise<{ types: NotificationChoice[] }> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const defaults = await tenantDefaults(ctx.trx);
  const rows: Row[] = await ctx.trx('user_notifications').where({ user_id: ctx.auth.user.id }).select('type', 'mail');
  const own = new Map(rows.map((r) => [r.type as string, Boolean(r.mail)]));
  return {
    types: NOTIFICATION_TYPES.map((type) => ({
      type,
      mail: own.get(type) ?? defaults[type],
      default: defaults[type],
      own: own.has(type) && own.get(type) !== defaults[type],
    })),
  };
}

/** PUT /user/notifications: the person's own choices (any signed-in user, for themselves only). */
export async function saveMyNotifications(ctx: Ctx, raw: unknown): Promise<{ types: NotificationChoice[] }> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const input = parseInput(ZNotificationChoices, raw);
  const defaults = await tenantDefaults(ctx.trx);
  const userId = ctx.auth.user.id;
  for (const type of NOTIFICATION_TYPES) {
    const mail = input[type];
    if (mail === undefined) continue;
    if (mail === defaults[type]) await ctx.trx('user_notifications').where({ user_id: userId, type }).delete();
    else
      await ctx
        .trx('user_notifications')
        .insert({ user_id: userId, type, mail })
        .onConflict(['user_id', 'type'])
        .merge();
  }
  await recordHistory(ctx, { entity: 'user', entityId: userId, action: 'edit.notifications', data: input });
  return readMyNotifications(ctx);
}

/** The tenant's defaults (admins: instance:read to see, instance:edit to change). */
export async function readNotificationDefaults(
  ctx: Ctx,
): Promise<{ types: { type: NotificationType; mail: boolean; builtIn: boolean }[] }> {
  requireAccess(ctx.auth, { permission: 'instance:read' });
  const defaults = await tenantDefaults(ctx.trx);
  return {
    types: NOTIFICATION_TYPES.map((type) => ({ type, mail: defaults[type], builtIn: BUILT_IN_MAIL_DEFAULTS[type] })),
  };
}

/**
 * PUT /instance/notifications: the tenant's defaults. Everyone who has not chosen otherwise follows
 * them at once; a person whose own choice now equals the new default loses nothing (their row says
 * the same) and keeps it.
 */
export async function saveNotificationDefaults(ctx: Ctx, raw: unknown) {
  requireAccess(ctx.auth, { permission: 'instance:edit' });
  const input = parseInput(ZNotificationChoices, raw);
  for (const type of NOTIFICATION_TYPES) {
    const mail = input[type];
    if (mail === undefined) continue;
    await ctx.trx('notification_defaults').insert({ type, mail }).onConflict('type').merge();
  }
  await recordHistory(ctx, { entity: 'instance', entityId: ctx.tenant.id, action: 'edit.notifications', data: input });
  return readNotificationDefaults(ctx);
}

export interface NotifiedUser {
  id: string;
  email: string;
  name: string;
  lang: Lang;
}

/**
 * Of `userIds`, the active people who take `type` by mail, each with the language to write to
 * them in. One statement: their own row, else the tenant's default, else the built-in default.
 */
export async function usersWantingMail(
  trx: Trx,
  tenant: Pick<Tenant, 'config'>,
  type: NotificationType,
  userIds: readonly string[],
): Promise<NotifiedUser[]> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return [];
  const { rows } = (await trx.raw(
    `select u.id, u.email, u.name, u.language
       from users u
       left join user_notifications n on n.user_id = u.id and n.type = ?
       left join notification_defaults d on d.type = ?
      where u.id = any(?::uuid[]) and u.status = 'active'
        and coalesce(n.mail, d.mail, ?::boolean)
      order by u.email`,
    [type, type, ids, BUILT_IN_MAIL_DEFAULTS[type]],
  )) as { rows: Row[] };
  return rows.map((r) => ({
    id: r.id as string,
    email: r.email as string,
    name: r.name as string,
    lang: langFromKey(r.language as string | null, langFromKey(tenant.config.languageKey)),
  }));
}

/**
 * Promises one mail of `type` to each of `userIds` who takes it by mail (see usersWantingMail), in
 * the caller's transaction (sent after commit, never after a rollback). Answers how many.
 */
export async function promiseNotificationMails(
  ctx: Pick<Ctx, 'trx' | 'tenant'>,
  type: NotificationType,
  userIds: readonly string[],
  render: (user: NotifiedUser) => Omit<MailMessage, 'to' | 'tenantId'>,
): Promise<number> {
  const users = await usersWantingMail(ctx.trx, ctx.tenant, type, userIds);
  for (const u of users) await sendAfterCommit(ctx, { to: [u.email], ...render(u), tenantId: ctx.tenant.id });
  return users.length;
}
