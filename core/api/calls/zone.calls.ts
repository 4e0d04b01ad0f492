import { z } from 'zod';
import { recoveryCalls } from './recovery.calls';
import { fileReply } from './work-order-documents.calls';
import { ZAuthenticate, ZAuthenticateMfa } from '~/core/auth/authenticate.service';
import { ZONE } from '~/core/auth/principal';
import {
  checkRecoveryLink,
  completeRecovery,
  requestRecovery,
  ZLinkToken,
  ZPasswordByLink,
  ZRequestRecovery,
} from '~/core/auth/recovery.service';
import { downloadReply } from '~/core/files/download';
import { PUBLIC, ZONE_ACCESS } from '~/core/permissions/access';
import { sessionPolicy } from '~/core/unit-of-work';
import {
  authenticateZone,
  authenticateZoneMfa,
  checkZoneInvitation,
  completeZoneInvitation,
  signOutZone,
} from '~/core/zone/zone-auth.service';
import { zoneSessionData } from '~/core/zone/zone-session.service';
import {
  getZoneObject,
  listZoneAgreements,
  listZoneDeviations,
  listZoneFiles,
  listZoneInvoices,
  listZoneObjects,
  listZoneWorkOrders,
  requireZone,
  zoneFileForDownload,
  zoneInvoicePdf,
  ZZonePage,
  ZZoneWorkOrders,
} from '~/core/zone/zone-view.service';
import { asSent, defineCall, Reply, shownOnly, type ApiCall, type CallMeta } from '../define-call';
import type { Ctx } from '~/core/context';

/**
 * The customer zone's calls (decision 061), under /api/zone/: signing in (public), and what a
 * signed-in zone user sees (access `zone`: a zone session only, never a staff one). Every read is
 * scoped by the session's customer in its query (core/zone/zone-view.service.ts).
 */

const signIn = (ctx: Ctx, meta: CallMeta) => ({
  trx: ctx.trx,
  now: ctx.now,
  policy: sessionPolicy(),
  ip: meta.ip,
  userAgent: meta.userAgent,
  previousToken: meta.token,
  tenantId: ctx.tenant.id,
});

const byId = z.object({ id: z.string() });

/** The staff recovery calls' summaries, said once (recovery.calls.ts): the zone's are the same calls for zone users. */
const staffSummary = (path: string) => recoveryCalls.find((c) => c.path === path)!.summary;

export const zoneCalls: ApiCall[] = [
  defineCall({
    method: 'POST',
    path: '/zone/authenticate',
    access: PUBLIC,
    input: shownOnly(ZAuthenticate),
    summary:
      'A customer-zone user signs in with e-mail and password: {status: success, token, data} (a zone session), ' +
      'or {status: action, action: MFA, token}; 401 INVALID_EMAIL_OR_PASSWORD, 429 when blocked',
    async handler(ctx, input, meta) {
      const outcome = await authenticateZone(signIn(ctx, meta), input);
      if (outcome.status === 'rejected')
        return new Reply(outcome.code === 'IP_BLOCKED_TRY_AGAIN_LATER' ? 429 : 401, { code: outcome.code });
      if (outcome.status === 'mfa')
        return { status: 'action', action: 'MFA', data: { provider: 'totp' }, token: outcome.token };
      return { status: 'success', action: null, token: outcome.token, data: zoneSessionData(ctx, outcome.zone) };
    },
  }),
  defineCall({
    method: 'POST',
    path: '/zone/authenticate/mfa',
    access: PUBLIC,
    input: asSent(ZAuthenticateMfa),
    summary: "The zone sign-in's second step {mfaCode, token}; 400 for a wrong code, 409 when the challenge is over",
    async handler(ctx, input, meta) {
      const outcome = await authenticateZoneMfa(signIn(ctx, meta), input);
      if (outcome.status === 'wrong-code') return new Reply(400, { code: 'TWO_FACTOR_CODE_INCORRECT' });
      if (outcome.status === 'failed') return new Reply(409, { code: 'MFA_AUTHENTICATION_FAILED' });
      return { status: 'success', action: null, token: outcome.token, data: zoneSessionData(ctx, outcome.zone) };
    },
  }),
  defineCall({
    method: 'POST',
    path: '/zone/registration/rt',
    access: PUBLIC,
    input: asSent(ZLinkToken),
    summary: 'Whether a zone invitation link still works: {valid, name, email}, or 400 TOKEN_EXPIRED',
    handler: (ctx, input) => checkZoneInvitation(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/zone/registration/comp',
    access: PUBLIC,
    input: asSent(ZPasswordByLink),
    summary: 'The invited zone user sets a password {token, password} and becomes STATUS_ACTIVE',
    async handler(ctx, input, meta) {
      await completeZoneInvitation(ctx, input, meta);
      return { status: 'success' };
    },
  }),
  defineCall({
    method: 'POST',
    path: '/zone/pw',
    access: PUBLIC,
    input: asSent(ZRequestRecovery),
    summary: `${staffSummary('/pw')} (a zone user)`,
    async handler(ctx, input, meta) {
      await requestRecovery(ctx, input, meta, ZONE);
      return {};
    },
  }),
  defineCall({
    method: 'POST',
    path: '/zone/pw/rt',
    access: PUBLIC,
    input: asSent(ZLinkToken),
    summary: `${staffSummary('/pw/rt')} (a zone user's)`,
    async handler(ctx, input) {
      await checkRecoveryLink(ctx, input, ZONE);
      return { valid: true };
    },
  }),
  defineCall({
    method: 'POST',
    path: '/zone/pw/comp',
    access: PUBLIC,
    input: asSent(ZPasswordByLink),
    summary: "Sets a zone user's new password with a recovery token and ends their sessions; they sign in afterwards",
    async handler(ctx, input, meta) {
      await completeRecovery(ctx, input, { ...meta, signIn: false, policy: sessionPolicy() }, ZONE);
      return { status: 'success', signedIn: false };
    },
  }),
  defineCall({
    method: 'GET',
    path: '/zone/keepalive',
    access: ZONE_ACCESS,
    input: z.object({}).passthrough(),
    summary: 'Keeps the zone session alive; answers the zone user, its customer and the company',
    unitOfWork: false,
    handler: async (ctx) => zoneSessionData(ctx, requireZone(ctx)),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/logout',
    access: ZONE_ACCESS,
    input: z.object({}).passthrough(),
    summary: 'Ends the zone session: the token stops working at once',
    async handler(ctx) {
      await signOutZone(ctx);
      return {};
    },
  }),
  defineCall({
    method: 'GET',
    path: '/zone/objects',
    access: ZONE_ACCESS,
    input: ZZonePage,
    summary: "The customer's installations {items, page, hasMore}: serial code, model, agreement, next visit, open deviations",
    handler: (ctx, input) => listZoneObjects(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/objects/:id',
    access: ZONE_ACCESS,
    input: ZZonePage.extend(byId.shape),
    summary: 'One installation {object, deviations, history}: its open deviations and a page of its service history',
    handler: (ctx, input) => getZoneObject(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/workorders',
    access: ZONE_ACCESS,
    input: ZZoneWorkOrders,
    summary: "The customer's work orders, open or closed {items, page, hasMore}: number, title, status, planned date",
    handler: (ctx, input) => listZoneWorkOrders(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/files',
    access: ZONE_ACCESS,
    input: ZZonePage,
    summary: 'What the company published to the customer (service reports among them), newest first',
    handler: (ctx, input) => listZoneFiles(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/files/:id',
    access: ZONE_ACCESS,
    input: byId.extend({ download: z.string().optional() }),
    summary: 'A published file itself (inline for images, video and PDF unless ?download=1); 404 FILE_NOT_FOUND otherwise',
    handler: async (ctx, input, meta) =>
      downloadReply(await zoneFileForDownload(ctx, input.id), {
        range: meta.range,
        attachment: input.download === '1',
      }),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/agreements',
    access: ZONE_ACCESS,
    input: ZZonePage,
    summary: "The agreements on the customer's installations with their next visit",
    handler: (ctx, input) => listZoneAgreements(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/invoices',
    access: ZONE_ACCESS,
    input: ZZonePage,
    summary: "The customer's finalized invoices, newest first",
    handler: (ctx, input) => listZoneInvoices(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/invoices/:id/pdf',
    access: ZONE_ACCESS,
    input: byId,
    summary: "One of the customer's finalized invoices as PDF",
    handler: async (ctx, input) => (await zoneInvoicePdf(ctx, input.id)).map(fileReply),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/deviations',
    access: ZONE_ACCESS,
    input: z.object({}).passthrough(),
    summary: "The open deviations on the customer's installations",
    handler: (ctx) => listZoneDeviations(ctx),
  }),
];
