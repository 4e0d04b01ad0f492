import { z } from 'zod';
import { addDays } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { tenantLink } from '~/core/mail/templates/links';
import { renderMail } from '~/core/mail/templates/render';
import { promiseNotificationMails } from '~/core/notifications/notifications.service';
import { requireAccess } from '~/core/permissions/access';
import { zOptionalPlainDate } from '~/core/agreements/agreement-schema';
import { messagePostMail } from './message-board.mail';

/*
 * The message board (issue 36 item 3; decision 066), the broadcast module's posts on the
 * dashboard: written by people with message_board_post:edit, read by everyone who may open the
 * dashboard. The close dialog's order-finish broadcast adds a post of kind `order_finish`.
 */

const ENTITY = 'message_board_post';
/** How long an order-finish post stays on the board: two weeks of "this one is done". */
export const ORDER_FINISH_DAYS = 14;

export const READ_BOARD = { permission: 'dashboard:read', module: 'dashboard' } as const;
export const EDIT_BOARD = { permission: 'message_board_post:edit', module: 'broadcast' } as const;

export const ZMessagePost = z.object({
  title: z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD').max(200, 'ERROR_MAX_LENGTH'),
  text: z.string({ error: 'ERROR_INVALID_VALUE' }).trim().max(5000, 'ERROR_MAX_LENGTH').default(''),
  /** The last day the post shows (YYYY-MM-DD); empty or left out: until deleted. */
  expiresOn: zOptionalPlainDate().optional(),
});
export type TMessagePost = z.infer<typeof ZMessagePost>;

export interface MessagePost {
  id: string;
  kind: 'post' | 'order_finish';
  title: string;
  text: string;
  expiresOn: string | null;
  /** For an order-finish post: the order. */
  workOrder: { id: string; number: string } | null;
  author: string | null;
  createdAt: string;
  updatedAt: string;
}

type Row = Record<string, unknown>;

function requireReader(ctx: Ctx) {
  requireAccess(ctx.auth, READ_BOARD);
  requireAccess(ctx.auth, { permission: 'signed-in', module: 'broadcast' });
}

const SELECT = `select p.id, p.kind, p.title, p.body, to_char(p.expires_on, 'YYYY-MM-DD') as expires_on,
                       p.work_order_id, w.number, u.name as author, p.created_at, p.updated_at
                  from message_board_posts p
                  left join work_orders w on w.id = p.work_order_id
                  left join users u on u.id = p.created_by`;

function toPost(r: Row): MessagePost {
  return {
    id: r.id as string,
    kind: r.kind as MessagePost['kind'],
    title: r.title as string,
    text: r.body as string,
    expiresOn: (r.expires_on as string | null) ?? null,
    workOrder: r.work_order_id ? { id: r.work_order_id as string, number: String(r.number) } : null,
    author: (r.author as string | null) ?? null,
    createdAt: new Date(r.created_at as Date).toISOString(),
    updatedAt: new Date(r.updated_at as Date).toISOString(),
  };
}

/** GET /messageboard: the posts still showing (not past their last day), newest first, at most 50. */
export async function listMessagePosts(ctx: Ctx): Promise<{ posts: MessagePost[] }> {
  requireReader(ctx);
  const { rows } = (await ctx.trx.raw(
    `${SELECT} where p.expires_on is null or p.expires_on >= ?::date order by p.created_at desc, p.id limit 50`,
    [tenantToday(ctx)],
  )) as { rows: Row[] };
  return { posts: rows.map(toPost) };
}

async function loadPost(ctx: Ctx, id: unknown): Promise<MessagePost> {
  if (!isUuid(id)) throw notFound();
  const { rows } = (await ctx.trx.raw(`${SELECT} where p.id = ?`, [id])) as { rows: Row[] };
  if (!rows[0]) throw notFound();
  return toPost(rows[0]);
}

function refusePast(ctx: Ctx, expiresOn: string | null | undefined) {
  if (expiresOn && expiresOn < tenantToday(ctx))
    throw new AppError('VALIDATION_FAILED', 400, { fields: { expiresOn: ['MESSAGE_EXPIRY_IN_PAST'] } });
}

/** The people who read the board: active, with dashboard:read through an access level, or super. */
async function boardReaders(ctx: Ctx): Promise<string[]> {
  const { rows } = (await ctx.trx.raw(
    `select u.id from users u
      where u.status = 'active'
        and (u.user_type = 'super' or exists (
              select 1 from user_access_levels ual join access_levels al on al.id = ual.access_level_id
               where ual.user_id = u.id and 'dashboard:read' = any(al.permissions)))`,
  )) as { rows: { id: string }[] };
  return rows.map((r) => r.id);
}

/**
 * POST /messageboard: a new post. The board's readers who take MESSAGE by mail (Settings →
 * notifications; off unless chosen) are mailed after commit, the author not.
 */
export async function createMessagePost(ctx: Ctx, raw: unknown): Promise<MessagePost> {
  requireAccess(ctx.auth, EDIT_BOARD);
  const input = parseInput(ZMessagePost, raw);
  refusePast(ctx, input.expiresOn);
  const [row] = (await ctx
    .trx('message_board_posts')
    .insert({
      kind: 'post',
      title: input.title,
      body: input.text,
      expires_on: input.expiresOn ?? null,
      created_by: ctx.auth.user.id,
      updated_by: ctx.auth.user.id,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning('id')) as Row[];
  const id = row!.id as string;
  await recordHistory(ctx, { entity: ENTITY, entityId: id, action: 'create', data: input });
  const author = ctx.auth.user.fullName;
  const readers = (await boardReaders(ctx)).filter((u) => u !== ctx.auth!.user.id);
  if (readers.length) {
    const link = await tenantLink(ctx.trx, ctx.tenant, null, '/dashboard');
    await promiseNotificationMails(ctx, 'MESSAGE', readers, (u) =>
      renderMail(
        messagePostMail,
        u.lang,
        { title: input.title, text: input.text, author, company: ctx.tenant.displayName },
        link,
      ),
    );
  }
  return loadPost(ctx, id);
}

/** PUT /messageboard/:id: a post's words and last day (an order-finish post too: its words are the order's). */
export async function updateMessagePost(ctx: Ctx, id: unknown, raw: unknown): Promise<MessagePost> {
  requireAccess(ctx.auth, EDIT_BOARD);
  const before = await loadPost(ctx, id);
  const input = parseInput(ZMessagePost, raw);
  refusePast(ctx, input.expiresOn);
  await ctx
    .trx('message_board_posts')
    .where({ id: before.id })
    .update({
      title: input.title,
      body: input.text,
      expires_on: input.expiresOn ?? null,
      updated_by: ctx.auth.user.id,
      updated_at: ctx.now,
    });
  await recordHistory(ctx, { entity: ENTITY, entityId: before.id, action: 'edit', data: input });
  return loadPost(ctx, before.id);
}

/** DELETE /messageboard/:id (the page asks first). */
export async function deleteMessagePost(ctx: Ctx, id: unknown): Promise<Record<string, never>> {
  requireAccess(ctx.auth, EDIT_BOARD);
  const before = await loadPost(ctx, id);
  await ctx.trx('message_board_posts').where({ id: before.id }).delete();
  await recordHistory(ctx, {
    entity: ENTITY,
    entityId: before.id,
    action: 'delete',
    data: { title: before.title, kind: before.kind },
  });
  return {};
}

/**
 * The close dialog's order-finish broadcast, on the board: called by `broadcastWorkOrder` in its
 * unit of work once the mail to the customer is promised. Shows for ORDER_FINISH_DAYS.
 */
export async function postOrderFinish(
  ctx: Ctx,
  wo: { id: string; title: string; summary: string | null },
): Promise<void> {
  await ctx.trx('message_board_posts').insert({
    kind: 'order_finish',
    title: wo.title.slice(0, 200) || '-',
    body: (wo.summary ?? '').slice(0, 5000),
    work_order_id: wo.id,
    expires_on: addDays(tenantToday(ctx), ORDER_FINISH_DAYS),
    created_by: ctx.auth?.user.id ?? null,
    updated_by: ctx.auth?.user.id ?? null,
    created_at: ctx.now,
    updated_at: ctx.now,
  });
}
