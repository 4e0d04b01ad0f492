import { z } from 'zod';
import {
  createMessagePost,
  deleteMessagePost,
  EDIT_BOARD,
  listMessagePosts,
  READ_BOARD,
  updateMessagePost,
  ZMessagePost,
} from '~/core/message-board/message-board.service';
import {
  readMyNotifications,
  readNotificationDefaults,
  saveMyNotifications,
  saveNotificationDefaults,
  ZNotificationChoices,
} from '~/core/notifications/notifications.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

const byId = z.object({ id: z.string() });

/**
 * The message board (broadcast module) and the notification choices (issue 36 items 3 and 5;
 * decision 066). Not in the catalogue: the spec names the screens and types, not their calls.
 */
export const messageBoardCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/messageboard',
    access: READ_BOARD,
    input: z.object({}),
    summary:
      'The posts still showing, newest first (broadcast module too) → {posts: [{id, kind (post | order_finish), title, text, expiresOn, workOrder {id, number} | null, author, createdAt, updatedAt}]}',
    handler: (ctx) => listMessagePosts(ctx),
  }),
  defineCall({
    method: 'POST',
    path: '/messageboard',
    access: EDIT_BOARD,
    input: asSent(ZMessagePost),
    summary:
      'A new post {title (1–200), text (≤ 5000), expiresOn (YYYY-MM-DD, the last day it shows; not in the past) ?}; mails the readers who take MESSAGE by mail → the post',
    handler: (ctx, input) => createMessagePost(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/messageboard/:id',
    access: EDIT_BOARD,
    input: asSent(ZMessagePost.extend({ id: z.string() })),
    summary: 'A post changed {title, text, expiresOn} → the post; 404 for a post not here',
    handler: (ctx, { id, ...input }) => updateMessagePost(ctx, id, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/messageboard/:id',
    access: EDIT_BOARD,
    input: byId,
    summary: 'Removes a post → {}; 404 for a post not here',
    handler: (ctx, input) => deleteMessagePost(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/users/conf/notifications',
    access: { permission: 'signed-in' },
    input: z.object({}),
    summary:
      "The signed-in person's mail choice per spec notification type → {types: [{type, mail, default (the company's), own (differs from it)}]}",
    handler: (ctx) => readMyNotifications(ctx),
  }),
  defineCall({
    method: 'PUT',
    path: '/users/conf/notifications',
    access: { permission: 'signed-in' },
    input: asSent(ZNotificationChoices),
    summary: "The person's own choices {INVOICE?: boolean, MESSAGE?: boolean, …}; types left out keep theirs → {types}",
    handler: (ctx, input) => saveMyNotifications(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/instance/notifications',
    access: { permission: 'instance:read' },
    input: z.object({}),
    summary: "The company's default per type → {types: [{type, mail, builtIn}]}",
    handler: (ctx) => readNotificationDefaults(ctx),
  }),
  defineCall({
    method: 'PUT',
    path: '/instance/notifications',
    access: { permission: 'instance:edit' },
    input: asSent(ZNotificationChoices),
    summary: "The company's defaults {INVOICE?: boolean, …}; everyone who chose nothing follows them → {types}",
    handler: (ctx, input) => saveNotificationDefaults(ctx, input),
  }),
];
