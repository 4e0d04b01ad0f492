import { z } from 'zod';
import { fileReply } from './work-order-documents.calls';
import { publishAudience, ZPublishTo } from '~/core/files/files.service';
import { ZONE_ACCESS } from '~/core/permissions/access';
import { answerZoneExtraWork, listZoneExtraWork, ZZoneExtraWorkAnswer } from '~/core/zone/zone-extra-work.service';
import {
  acceptZoneProposal,
  declineZoneProposal,
  getZoneProposal,
  listZoneProposals,
  zoneProposalPdf,
  ZZoneAcceptProposal,
  ZZoneDeclineProposal,
} from '~/core/zone/zone-proposal.service';
import { ZZonePage } from '~/core/zone/zone-view.service';
import { asSent, defineCall, shownOnly, type ApiCall } from '../define-call';

/**
 * What a customer does in its zone (issue 35 item 3, decision 063): answer the proposals sent to
 * it and the extra work awaiting its approval. Access `zone`; every call finds its record in the
 * session's customer's scope first (404 otherwise) and only then reads the body, so the bodies are
 * checked by the services (`shownOnly`). And the office's side of item 4: who will see a file.
 */

const byId = z.object({ id: z.string() });

export const zoneActionCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/zone/proposals',
    access: ZONE_ACCESS,
    input: ZZonePage,
    summary:
      'The proposals sent to the customer {items, page, hasMore}: number, title, status (open, expired, accepted, declined), sent, valid to, total',
    handler: (ctx, input) => listZoneProposals(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/proposals/:id',
    access: ZONE_ACCESS,
    input: byId,
    summary: "One sent proposal {proposal}: its rows and totals as printed, its status and the customer's answer",
    handler: (ctx, input) => getZoneProposal(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/proposals/:id/pdf',
    access: ZONE_ACCESS,
    input: byId,
    summary: 'One sent proposal as PDF, as the office prints it',
    handler: async (ctx, input) => (await zoneProposalPdf(ctx, input.id)).map(fileReply),
  }),
  defineCall({
    method: 'POST',
    path: '/zone/proposals/:id/accept',
    access: ZONE_ACCESS,
    input: shownOnly(ZZoneAcceptProposal.extend(byId.shape)),
    summary:
      "Accepts a sent proposal {name, signature (PNG data URL)} as the office's accept does (a sales order); the seller is mailed. 409 PROPOSAL_NOT_ACTIVE when answered, PROPOSAL_EXPIRED past its valid-to date",
    handler: (ctx, input) => acceptZoneProposal(ctx, input.id, input),
  }),
  defineCall({
    method: 'POST',
    path: '/zone/proposals/:id/decline',
    access: ZONE_ACCESS,
    input: shownOnly(ZZoneDeclineProposal.extend(byId.shape)),
    summary: 'Declines a sent proposal {name, signature?, reason?}; the seller is mailed. 409 as accepting',
    handler: (ctx, input) => declineZoneProposal(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/zone/extrawork',
    access: ZONE_ACCESS,
    input: z.object({}).passthrough(),
    summary: "The customer's extra work (ÄTA) awaiting its approval {items: [{workOrderId, view}]}, as the e-mailed link shows it",
    handler: (ctx) => listZoneExtraWork(ctx),
  }),
  defineCall({
    method: 'POST',
    path: '/zone/extrawork/:id/answer',
    access: ZONE_ACCESS,
    input: shownOnly(ZZoneExtraWorkAnswer.extend(byId.shape)),
    summary:
      'Approves or declines an order’s extra work {answer: accepted|declined, name}, as by the e-mailed link; 409 EXTRA_WORK_NOT_PENDING when it awaits no answer',
    handler: (ctx, input) => answerZoneExtraWork(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/file/drive/:id/audience',
    access: { permission: 'customerzone:publish_files', module: 'customerzone' },
    input: asSent(ZPublishTo.partial().extend(byId.shape)),
    summary:
      "Who will see a file once published {customer, users: [{name, email, status}]}: the record's customer, or for a drive file ?customerId, and its zone users",
    handler: (ctx, input) => publishAudience(ctx, input.id, input),
  }),
];
