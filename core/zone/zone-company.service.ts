import { z } from 'zod';
import type { Ctx, ZoneAuth } from '~/core/context';
import { CUSTOMER_ENTITY } from '~/core/customers/customer.service';
import {
  addZoneUser,
  reinvite,
  removeZoneUser,
  requireZoneUser,
  ZCreateZoneUser,
  type ZoneActor,
} from '~/core/customers/zone-user.service';
import { AppError, notFound } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { zOptionalEmail, zOptionalText } from '~/core/registers/fields';
import { requireZone } from './zone-view.service';

/**
 * The customer's own details and people, from its zone (issue 35 item 3, decision 064). Every zone
 * user sees the company's contact details; editing them and inviting, resending and removing the
 * company's zone users needs the office's leave for that customer (`customers.zone_self_service`,
 * the customer page's zone users panel). The office's own rules for zone users apply unchanged
 * (core/customers/zone-user.service.ts); a zone user cannot remove itself.
 */

type Row = Record<string, unknown>;

export interface ZoneCompany {
  name: string;
  phone: string | null;
  email: string | null;
  invoiceEmail: string | null;
  broadcastEmail: string | null;
  /** Whether the office lets this customer's zone users change these details and its zone users. */
  selfService: boolean;
}

export interface ZoneCompanyUser {
  id: string;
  name: string;
  email: string;
  status: string;
  lastSignInAt: string | null;
  /** The zone user asking (who cannot remove itself). */
  self: boolean;
}

/** The customer row of the zone session, read by its own id (never an id from the request). */
async function customerOf(ctx: Ctx, zone: ZoneAuth): Promise<Row> {
  const row = (await ctx.trx('customers').where({ id: zone.customerId }).first()) as Row | undefined;
  if (!row) throw notFound();
  return row;
}

/** 403 unless the office lets this customer manage itself in the zone. */
async function requireSelfService(ctx: Ctx): Promise<{ zone: ZoneAuth; customer: Row; actor: ZoneActor }> {
  const zone = requireZone(ctx);
  const customer = await customerOf(ctx, zone);
  if (!customer.zone_self_service) throw new AppError('WARNING_PERMISSION_DENIED', 403);
  return { zone, customer, actor: { zoneUserId: zone.user.id, name: zone.user.name } };
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

function companyOut(r: Row): ZoneCompany {
  return {
    name: r.name as string,
    phone: str(r.phone),
    email: str(r.email),
    invoiceEmail: str(r.invoice_email),
    broadcastEmail: str(r.broadcast_email),
    selfService: Boolean(r.zone_self_service),
  };
}

/** `GET /zone/company`: the customer's contact details, and whether its people may change them. */
export async function getZoneCompany(ctx: Ctx): Promise<{ company: ZoneCompany }> {
  const zone = requireZone(ctx);
  return { company: companyOut(await customerOf(ctx, zone)) };
}

/** The contact details a zone user may change: the spec's Customer fields, as the office's form checks them. */
export const ZZoneCompany = z.object({
  phone: zOptionalText(40).optional(),
  email: zOptionalEmail().optional(),
  invoiceEmail: zOptionalEmail().optional(),
  broadcastEmail: zOptionalEmail().optional(),
});

const COLUMNS = { phone: 'phone', email: 'email', invoiceEmail: 'invoice_email', broadcastEmail: 'broadcast_email' };

/**
 * `PUT /zone/company {phone, email, invoiceEmail, broadcastEmail}`: changes the fields given (an
 * empty one clears it); the customer's history says which, and which zone user changed them.
 */
export async function updateZoneCompany(ctx: Ctx, raw: unknown): Promise<{ company: ZoneCompany }> {
  const { customer, actor } = await requireSelfService(ctx);
  const input = parseInput(ZZoneCompany, raw);
  const update: Record<string, string | null> = {};
  for (const [key, column] of Object.entries(COLUMNS)) {
    const value = (input as Record<string, string | null | undefined>)[key];
    if (value !== undefined && (value ?? null) !== (str(customer[column]) ?? null)) update[column] = value ?? null;
  }
  if (Object.keys(update).length) {
    await ctx
      .trx('customers')
      .where({ id: customer.id as string })
      .update({ ...update, updated_at: ctx.now });
    await recordHistory(ctx, {
      entity: CUSTOMER_ENTITY,
      entityId: customer.id as string,
      action: 'edit',
      data: {
        changes: Object.fromEntries(
          Object.keys(update).map((c) => [c, { from: str(customer[c]), to: update[c] ?? null }]),
        ),
        byZoneUser: actor,
      },
    });
  }
  return getZoneCompany(ctx);
}

const iso = (v: unknown) => (v == null ? null : v instanceof Date ? v.toISOString() : String(v));

/** `GET /zone/users`: the company's zone users, by name (needs the office's leave). */
export async function listZoneCompanyUsers(ctx: Ctx): Promise<{ users: ZoneCompanyUser[] }> {
  const { zone, customer } = await requireSelfService(ctx);
  const rows = (await ctx
    .trx('customer_zone_users')
    .where({ customer_id: customer.id as string })
    .orderByRaw('lower(name), id')
    .select('id', 'name', 'email', 'status', 'last_sign_in_at')) as Row[];
  return {
    users: rows.map((r) => ({
      id: r.id as string,
      name: r.name as string,
      email: r.email as string,
      status: r.status as string,
      lastSignInAt: iso(r.last_sign_in_at),
      self: r.id === zone.user.id,
    })),
  };
}

/**
 * `POST /zone/users {name, email}`: invites a person of the company to the zone, by the office's
 * rules (an address no zone user has, 409 ZONE_USER_EMAIL_TAKEN; a single-use link for 7 days).
 */
export async function inviteZoneCompanyUser(
  ctx: Ctx,
  raw: unknown,
  hostname?: string,
): Promise<{ user: ZoneCompanyUser }> {
  const { customer, actor } = await requireSelfService(ctx);
  const input = parseInput(ZCreateZoneUser.pick({ name: true, email: true }), raw);
  const { user } = await addZoneUser(ctx, customer, { ...input, hostname }, actor);
  return {
    user: { id: user.id, name: user.name, email: user.email, status: user.status, lastSignInAt: null, self: false },
  };
}

/**
 * `POST /zone/users/{id}/resend`: a new invitation to one of the company's zone users (who is
 * STATUS_REGISTERED again until it is used, as when the office resends). Not to the one asking,
 * whom it would sign out.
 */
export async function resendZoneCompanyUser(ctx: Ctx, userId: unknown, hostname?: string): Promise<void> {
  const { zone, customer, actor } = await requireSelfService(ctx);
  const row = await requireZoneUser(ctx, customer, userId);
  if (row.id === zone.user.id) throw new AppError('ZONE_USER_CANNOT_REMOVE_SELF', 409);
  await reinvite(ctx, customer, row, hostname, actor);
}

/** `DELETE /zone/users/{id}`: removes one of the company's zone users; never the one asking (409). */
export async function removeZoneCompanyUser(ctx: Ctx, userId: unknown): Promise<void> {
  const { zone, customer, actor } = await requireSelfService(ctx);
  const row = await requireZoneUser(ctx, customer, userId);
  if (row.id === zone.user.id) throw new AppError('ZONE_USER_CANNOT_REMOVE_SELF', 409);
  await removeZoneUser(ctx, customer, row, actor);
}
