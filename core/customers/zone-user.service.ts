import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { hashToken, newToken } from '~/core/auth/session.service';
import { mailLang } from '~/core/auth/recovery.service';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, zEmail, zRequiredString } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { keyFromLang } from '~/core/i18n/languages';
import { sendAfterCommit } from '~/core/mail/templates/deliver';
import { tenantLink } from '~/core/mail/templates/links';
import { renderMail } from '~/core/mail/templates/render';
import { requireAccess, type Access } from '~/core/permissions/access';
import { uniqueViolation } from '~/core/registers/list-query';
import { CUSTOMER_ENTITY, requireCustomerRow } from './customer.service';
import { zoneInvitationMail } from './zone-invitation.mail';

/** Customer-zone users are managed with this right, in tenants that have the customer zone. */
export const ZONE_USERS_ACCESS: Access = { permission: 'customerzone:edit_users', module: 'customerzone' };

/** Spec section 4: a zone user is STATUS_REGISTERED on create and on resend until they register. */
export const ZONE_USER_STATUSES = ['STATUS_REGISTERED', 'STATUS_ACTIVE', 'STATUS_INACTIVE'] as const;

/** How long an invitation link works (as a staff user's registration link). */
export const ZONE_INVITE_VALID_HOURS = 7 * 24;

export interface ZoneUser {
  id: string;
  /** The customer's id (uuid). */
  customerId: string;
  email: string;
  name: string;
  status: (typeof ZONE_USER_STATUSES)[number];
  invitedAt: string | null;
  inviteExpiresAt: string | null;
  /** When they last signed in to the zone (the office sees whether the invitation was used). */
  lastSignInAt: string | null;
}

type Row = Record<string, unknown>;

const isoOrNull = (v: unknown) => (v == null ? null : v instanceof Date ? v.toISOString() : String(v));

export function zoneUserOut(r: Row): ZoneUser {
  return {
    id: r.id as string,
    customerId: r.customer_id as string,
    email: r.email as string,
    name: r.name as string,
    status: r.status as ZoneUser['status'],
    invitedAt: isoOrNull(r.invited_at),
    inviteExpiresAt: isoOrNull(r.invite_expires_at),
    lastSignInAt: isoOrNull(r.last_sign_in_at),
  };
}

const emailTaken = () => new AppError('ZONE_USER_EMAIL_TAKEN', 409, { fields: { email: ['ZONE_USER_EMAIL_TAKEN'] } });

async function guardEmail<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (uniqueViolation(e) === 'customer_zone_users_email_idx') throw emailTaken();
    throw e;
  }
}

async function emailInUse(ctx: Ctx, email: string, exceptId?: string): Promise<boolean> {
  const q = ctx.trx('customer_zone_users').whereRaw('lower(email) = lower(?)', [email]);
  if (exceptId) q.whereNot('id', exceptId);
  return Boolean(await q.first('id'));
}

/** `GET /customers/{id}/zone/auth`: the customer's zone users, by name. */
export async function listZoneUsers(ctx: Ctx, customerId: unknown): Promise<{ users: ZoneUser[] }> {
  requireAccess(ctx.auth, ZONE_USERS_ACCESS);
  const customer = await requireCustomerRow(ctx, customerId);
  const rows = (await ctx
    .trx('customer_zone_users')
    .where({ customer_id: customer.id as string })
    .orderByRaw('lower(name), id')) as Row[];
  return { users: rows.map(zoneUserOut) };
}

/**
 * A fresh single-use invitation: only its hash is kept, an earlier link stops working. The mail
 * leaves after commit in the customer's invoice language, else the tenant's.
 */
async function invite(ctx: Ctx, customer: Row, user: Row, hostname: string | undefined): Promise<ZoneUser> {
  const token = newToken();
  const expires = new Date(ctx.now.getTime() + ZONE_INVITE_VALID_HOURS * 3_600_000);
  const [row] = (await ctx
    .trx('customer_zone_users')
    .where({ id: user.id as string })
    .update({
      status: 'STATUS_REGISTERED',
      invite_token_hash: hashToken(token),
      invite_expires_at: expires,
      invited_at: ctx.now,
    })
    .returning('*')) as Row[];
  const lang = mailLang(ctx, customer.invoice_language as string | null);
  const link = await tenantLink(
    ctx.trx,
    ctx.tenant,
    hostname,
    `/zone/register?t=${encodeURIComponent(token)}&lang=${keyFromLang(lang)}`,
  );
  const mail = renderMail(
    zoneInvitationMail,
    lang,
    {
      name: String(user.name),
      email: String(user.email),
      company: ctx.tenant.displayName,
      customer: String(customer.name),
    },
    link,
  );
  await sendAfterCommit(ctx, { to: [String(user.email)], ...mail, tenantId: ctx.tenant.id });
  return zoneUserOut(row!);
}

export const ZCreateZoneUser = z.object({
  email: zEmail(),
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  /** Accepted for the catalogue's shape; a new zone user is always STATUS_REGISTERED. */
  status: z.string().optional(),
  /** The customer's id (uuid); the path names it already. */
  customerId: z.string().optional(),
  /** The host the staff member works on, for the link; only one of the tenant's own hosts is used. */
  hostname: z.string().max(255).optional(),
});

export const ZResendZoneUser = z
  .object({
    id: z.string().optional(),
    userId: z.string().optional(),
    email: z.string().optional(),
    hostname: z.string().max(255).optional(),
  })
  .refine((v) => v.id || v.userId || v.email, { message: 'ERROR_REQUIRED_FIELD', path: ['email'] });

/**
 * `POST /customers/{id}/zone/auth {email, name}`: creates a zone user (STATUS_REGISTERED) and
 * mails them an invitation. 409 ZONE_USER_EMAIL_TAKEN when any zone user has the address.
 */
export async function createZoneUser(
  ctx: Ctx,
  customerId: unknown,
  raw: unknown,
): Promise<{ id: string; user: ZoneUser }> {
  requireAccess(ctx.auth, ZONE_USERS_ACCESS);
  const input = parseInput(ZCreateZoneUser, raw);
  const customer = await requireCustomerRow(ctx, customerId);
  return addZoneUser(ctx, customer, input);
}

/**
 * Who changed the customer's zone users when it was not the office: a zone user of the customer
 * (decision 064). History keeps it beside the (then empty) staff user.
 */
export interface ZoneActor {
  zoneUserId: string;
  name: string;
}

const byZone = (actor?: ZoneActor) => (actor ? { byZoneUser: actor } : {});

/**
 * The rules of a new zone user, whoever adds one (the office for any customer, a zone user for
 * its own, decision 064): the address unused by any zone user, STATUS_REGISTERED, an invitation.
 */
export async function addZoneUser(
  ctx: Ctx,
  customer: Row,
  input: { email: string; name: string; hostname?: string },
  actor?: ZoneActor,
): Promise<{ id: string; user: ZoneUser }> {
  if (await emailInUse(ctx, input.email)) throw emailTaken();
  const [row] = (await guardEmail(() =>
    ctx
      .trx('customer_zone_users')
      .insert({
        customer_id: customer.id as string,
        email: input.email,
        name: input.name,
        status: 'STATUS_REGISTERED',
        created_at: ctx.now,
      })
      .returning('*'),
  )) as Row[];
  const user = await invite(ctx, customer, row!, input.hostname);
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: customer.id as string,
    action: 'zone.invite',
    data: { name: user.name, email: user.email, recipients: [user.email], ...byZone(actor) },
  });
  return { id: user.id, user };
}

/**
 * `POST /customers/{id}/zone/auth` with `resend=1`: a new invitation (the earlier link stops
 * working) and the status back to STATUS_REGISTERED. The user is named by `id` or `email`.
 */
export async function resendZoneInvitation(
  ctx: Ctx,
  customerId: unknown,
  raw: unknown,
): Promise<{ id: string; user: ZoneUser }> {
  requireAccess(ctx.auth, ZONE_USERS_ACCESS);
  const input = parseInput(ZResendZoneUser, raw);
  const customer = await requireCustomerRow(ctx, customerId);
  const id = input.id ?? input.userId;
  const q = ctx.trx('customer_zone_users').where({ customer_id: customer.id as string });
  if (id) {
    if (!isUuid(id)) throw notFound();
    q.where({ id });
  } else q.whereRaw('lower(email) = lower(?)', [input.email!.trim()]);
  const row = (await q.first()) as Row | undefined;
  if (!row) throw notFound();
  return reinvite(ctx, customer, row, input.hostname);
}

/** A new invitation for one of the customer's zone users (the earlier link stops working). */
export async function reinvite(
  ctx: Ctx,
  customer: Row,
  row: Row,
  hostname?: string,
  actor?: ZoneActor,
): Promise<{ id: string; user: ZoneUser }> {
  const user = await invite(ctx, customer, row, hostname);
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: customer.id as string,
    action: 'zone.resend',
    data: { name: user.name, email: user.email, recipients: [user.email], ...byZone(actor) },
  });
  return { id: user.id, user };
}

/** One of the customer's zone users; another customer's, or none, is 404. */
export async function requireZoneUser(ctx: Ctx, customer: Row, userId: unknown): Promise<Row> {
  if (!isUuid(userId)) throw notFound();
  const row = (await ctx
    .trx('customer_zone_users')
    .where({ id: userId, customer_id: customer.id as string })
    .first()) as Row | undefined;
  if (!row) throw notFound();
  return row;
}

export const ZUpdateZoneUser = z.object({
  email: zEmail().optional(),
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH').optional(),
});

/**
 * `PUT /customers/{id}/zone/auth/{userId} {name, email}`. A new address voids a pending
 * invitation (its link went to the old address): send it again to reach the new one.
 */
export async function updateZoneUser(
  ctx: Ctx,
  customerId: unknown,
  userId: unknown,
  raw: unknown,
): Promise<{ user: ZoneUser }> {
  requireAccess(ctx.auth, ZONE_USERS_ACCESS);
  const input = parseInput(ZUpdateZoneUser, raw);
  const customer = await requireCustomerRow(ctx, customerId);
  const before = await requireZoneUser(ctx, customer, userId);
  const emailChanged = input.email !== undefined && input.email.toLowerCase() !== String(before.email).toLowerCase();
  if (emailChanged && (await emailInUse(ctx, input.email!, before.id as string))) throw emailTaken();
  const [row] = (await guardEmail(() =>
    ctx
      .trx('customer_zone_users')
      .where({ id: before.id as string })
      .update({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(emailChanged && before.status === 'STATUS_REGISTERED'
          ? { invite_token_hash: null, invite_expires_at: null }
          : {}),
      })
      .returning('*'),
  )) as Row[];
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: customer.id as string,
    action: 'zone.edit',
    data: { name: row!.name, email: row!.email, from: { name: before.name, email: before.email } },
  });
  return { user: zoneUserOut(row!) };
}

/** `DELETE /customers/{id}/zone/auth/{userId}`: the person can no longer sign in to the zone. */
export async function deleteZoneUser(ctx: Ctx, customerId: unknown, userId: unknown): Promise<void> {
  requireAccess(ctx.auth, ZONE_USERS_ACCESS);
  const customer = await requireCustomerRow(ctx, customerId);
  const row = await requireZoneUser(ctx, customer, userId);
  await removeZoneUser(ctx, customer, row);
}

/** Removes a zone user: their sessions go with them (cascade), so they are signed out at once. */
export async function removeZoneUser(ctx: Ctx, customer: Row, row: Row, actor?: ZoneActor): Promise<void> {
  await ctx
    .trx('customer_zone_users')
    .where({ id: row.id as string })
    .delete();
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: customer.id as string,
    action: 'zone.delete',
    data: { name: row.name, email: row.email, ...byZone(actor) },
  });
}

export const ZZoneSelfService = z.object({
  selfService: z.preprocess(
    (v) => (v === 'true' || v === 'on' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? false : v),
    z.boolean({ error: 'ERROR_INVALID_VALUE' }),
  ),
});

/** Whether the customer's zone users may edit its contact details and its zone users (decision 064). */
export async function getZoneSelfService(ctx: Ctx, customerId: unknown): Promise<{ selfService: boolean }> {
  requireAccess(ctx.auth, ZONE_USERS_ACCESS);
  const customer = await requireCustomerRow(ctx, customerId);
  return { selfService: Boolean(customer.zone_self_service) };
}

/**
 * `PUT /customers/{id}/zone/config {selfService}`: the office lets the customer's zone users edit
 * the company's contact details and invite, resend and remove its zone users, or stops it.
 */
export async function setZoneSelfService(
  ctx: Ctx,
  customerId: unknown,
  raw: unknown,
): Promise<{ selfService: boolean }> {
  requireAccess(ctx.auth, ZONE_USERS_ACCESS);
  const { selfService } = parseInput(ZZoneSelfService, raw);
  const customer = await requireCustomerRow(ctx, customerId);
  if (Boolean(customer.zone_self_service) !== selfService) {
    await ctx
      .trx('customers')
      .where({ id: customer.id as string })
      .update({ zone_self_service: selfService, updated_at: ctx.now });
    await recordHistory(ctx, {
      entity: CUSTOMER_ENTITY,
      entityId: customer.id as string,
      action: 'edit',
      data: { changes: { zone_self_service: { from: Boolean(customer.zone_self_service), to: selfService } } },
    });
  }
  return { selfService };
}
