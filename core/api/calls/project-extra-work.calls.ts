import {
  EXTRA_WORK_LINK_ACCESS,
  EXTRA_WORK_LINKS_READ,
  listExtraWorkLinks,
  sendExtraWorkLink,
  ZExtraWorkLinksQuery,
  ZSendExtraWorkLink,
} from '~/core/projects/extra-work-link.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

/*
 * Extra work (ATA) approved by the customer through an e-mailed link (issue 18). Registered before
 * work-order-close.calls.ts and work-orders.calls.ts, so the fixed /wo/projectextra/link is matched
 * before any /wo/:id-style path. The customer's answer is a page on the tenant's host
 * (/extra-work/{token}), not an API call. Services check access and validate.
 */
export const projectExtraWorkCalls: ApiCall[] = [
  defineCall({
    method: 'POST',
    path: '/wo/projectextra/link',
    access: EXTRA_WORK_LINK_ACCESS,
    input: asSent(ZSendExtraWorkLink),
    summary:
      "Mails the customer a link to approve or decline a work order's extra work {workOrderId, email, message?} → {link: {id, email, sentAt, expiresAt, state}}; " +
      "the link is valid for the project settings' extra-work link days and supersedes earlier ones; " +
      '409 WORK_ORDER_NOT_IN_PROJECT, PROJECT_CLOSED, WORK_ORDER_NOT_PENDING_EXTRA_WORK',
    handler: (ctx, input) => sendExtraWorkLink(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/projectextra/link',
    access: EXTRA_WORK_LINKS_READ,
    input: asSent(ZExtraWorkLinksQuery),
    summary:
      'The approval links sent for a work order ?workOrderId → {links: [{id, email, sentAt, sentByName, expiresAt, state: open | answered | expired | superseded, ' +
      'answer, answeredAt, answeredName}], projectExtraStatus}, newest first; never the token',
    handler: (ctx, input) => listExtraWorkLinks(ctx, input),
  }),
];
