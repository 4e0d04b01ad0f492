import { z } from 'zod';
import { ZONE } from '~/core/auth/principal';
import { confirmMfaEnrollment, disableMfa, isMfaEnabled, startMfaEnrollment } from '~/core/auth/mfa.service';
import { discardReceived, type Received } from '~/core/files/receive';
import { ZONE_ACCESS, type Access } from '~/core/permissions/access';
import {
  getZoneCompany,
  inviteZoneCompanyUser,
  listZoneCompanyUsers,
  removeZoneCompanyUser,
  resendZoneCompanyUser,
  updateZoneCompany,
  ZZoneCompany,
} from '~/core/zone/zone-company.service';
import {
  createZoneRequest,
  listZoneRequests,
  receiveRequestPhotos,
  zoneRequestObjects,
  ZZoneRequest,
} from '~/core/zone/zone-requests.service';
import { requireZone, ZZonePage } from '~/core/zone/zone-view.service';
import { asSent, defineCall, shownOnly, type ApiCall, type ReceiveBody } from '../define-call';

/**
 * What a customer does in its zone (decision 064): asks for service, sets up its own second
 * factor, and — where the office allows it for that customer — keeps its contact details and its
 * zone users. Zone sessions only; every query is scoped by the session's customer.
 */

/** Asking for service needs the "customer work orders" module as well as the customer zone. */
const REQUESTS_ACCESS: Access = { permission: 'zone', module: 'customer_workorders' };

const byId = z.object({ id: z.string() });

/** A request's photos: into the file store before the unit of work, removed again if it fails. */
const photos: ReceiveBody<Received | null> = {
  read: (body, headers, { tenant }) => receiveRequestPhotos(body, headers, tenant),
  discard: async (received) => {
    if (received) await discardReceived(received);
  },
};

export const zoneRequestCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/zone/requests',
    access: REQUESTS_ACCESS,
    input: ZZonePage,
    summary:
      "The customer's service requests, newest first {items: [{id, number, title, description, status, closed, requestedAt, requestedBy, plannedStart, closedAt, objectId, objectSerialCode, photos}], page, hasMore}",
    handler: (ctx, input) => listZoneRequests(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/requests/objects',
    access: REQUESTS_ACCESS,
    input: z.object({}).passthrough(),
    summary: "The installations a request may name: the customer's own {objects: [{id, label}]}",
    handler: async (ctx) => ({ objects: await zoneRequestObjects(ctx) }),
  }),
  defineCall({
    method: 'POST',
    path: '/zone/requests',
    access: REQUESTS_ACCESS,
    // the service checks the fields: a multipart body is read only after the router's check
    input: shownOnly(ZZoneRequest),
    receive: photos,
    summary:
      'Asks for service {objectId, description}: JSON, or multipart/form-data with those fields and up to 10 images as `photos` parts. A new unplanned work order for the customer and installation → {request}; 400 {fields}; 404 for an installation not the customer’s; 403 without the "customer work orders" module',
    handler: (ctx, input: Record<string, unknown>) => {
      const received = (input.received as Received | null | undefined) ?? null;
      return createZoneRequest(ctx, received ? received.fields : input, received);
    },
  }),
  defineCall({
    method: 'GET',
    path: '/zone/mfa',
    access: ZONE_ACCESS,
    input: z.object({}).passthrough(),
    summary: 'Whether the zone user signs in with a TOTP code {enabled}, and whether the company offers it {available}',
    handler: async (ctx) => {
      const zone = requireZone(ctx);
      return { enabled: await isMfaEnabled(ctx.trx, zone.user.id, ZONE), available: zone.modules.has('mfa') };
    },
  }),
  defineCall({
    method: 'POST',
    path: '/zone/mfa/start',
    access: ZONE_ACCESS,
    input: z.object({}).passthrough(),
    summary:
      'Starts TOTP set-up: a new secret {secret, uri, qrSvg} to scan; nothing changes until confirmed; 409 MFA_ALREADY_ENABLED',
    handler: (ctx) => startMfaEnrollment(ctx, ZONE),
  }),
  defineCall({
    method: 'POST',
    path: '/zone/mfa/confirm',
    access: ZONE_ACCESS,
    input: z.object({ code: z.string().optional() }).passthrough(),
    summary:
      'Confirms TOTP set-up with a code from the app {code} → {recoveryCodes} (shown once); 400 TWO_FACTOR_CODE_INCORRECT',
    handler: (ctx, input) => confirmMfaEnrollment(ctx, input, ZONE),
  }),
  defineCall({
    method: 'POST',
    path: '/zone/mfa/disable',
    access: ZONE_ACCESS,
    input: z.object({ password: z.string().optional() }).passthrough(),
    summary: 'Turns TOTP off, with the current password {password}; 400 ERROR_WRONG_CURRENT_PASSWORD',
    handler: async (ctx, input) => {
      await disableMfa(ctx, input, ZONE);
      return {};
    },
  }),
  defineCall({
    method: 'GET',
    path: '/zone/company',
    access: ZONE_ACCESS,
    input: z.object({}).passthrough(),
    summary:
      "The customer's contact details {company: {name, phone, email, invoiceEmail, broadcastEmail, selfService}}; selfService: whether the office lets its zone users change them and its zone users",
    handler: (ctx) => getZoneCompany(ctx),
  }),
  defineCall({
    method: 'PUT',
    path: '/zone/company',
    access: ZONE_ACCESS,
    input: asSent(ZZoneCompany),
    summary:
      'Changes the customer’s contact details {phone, email, invoiceEmail, broadcastEmail} (those given; empty clears) → {company}; 403 unless the office allows it',
    handler: (ctx, input) => updateZoneCompany(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/users',
    access: ZONE_ACCESS,
    input: z.object({}).passthrough(),
    summary:
      "The company's zone users {users: [{id, name, email, status, lastSignInAt, self}]}; 403 unless the office allows it",
    handler: (ctx) => listZoneCompanyUsers(ctx),
  }),
  defineCall({
    method: 'POST',
    path: '/zone/users',
    access: ZONE_ACCESS,
    input: z.object({ name: z.string().optional(), email: z.string().optional() }).passthrough(),
    summary:
      'Invites a person of the company to the zone {name, email} (mailed a link, 7 days) → {user}; 409 ZONE_USER_EMAIL_TAKEN; 403 unless the office allows it',
    handler: (ctx, input) => inviteZoneCompanyUser(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/zone/users/:id/resend',
    access: ZONE_ACCESS,
    input: byId,
    summary:
      'Sends one of the company’s zone users a new invitation (the earlier link stops working); 409 ZONE_USER_CANNOT_REMOVE_SELF for oneself',
    handler: async (ctx, input) => {
      await resendZoneCompanyUser(ctx, input.id);
      return {};
    },
  }),
  defineCall({
    method: 'DELETE',
    path: '/zone/users/:id',
    access: ZONE_ACCESS,
    input: byId,
    summary:
      'Removes one of the company’s zone users (signed out at once); 409 ZONE_USER_CANNOT_REMOVE_SELF for oneself',
    handler: async (ctx, input) => {
      await removeZoneCompanyUser(ctx, input.id);
      return {};
    },
  }),
];
