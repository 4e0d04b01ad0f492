/**
 * The proposal list's helpers beside proposal.service.ts (issue 13 item 1): the filter choices
 * (creators and tags) in one statement, moving a proposal to another place in the list (drag to
 * reorder, two statements whatever the list's length), and the history of a proposal or a sales
 * order, a page at a time.
 */
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { ACTIVE_USERS_WHERE, namedOptionsSql } from '~/core/db/json-options';
import { notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { requireAccess, type Access } from '~/core/permissions/access';
import { PROPOSAL_ENTITY } from './proposal.service';
import { SALES_ORDER_ENTITY } from './sales-order.service';

const PROPOSAL_READ: Access = { permission: 'proposal:read', module: 'crm' };
const PROPOSAL_EDIT: Access = { permission: 'proposal:edit', module: 'crm' };
const SALES_ORDER_READ: Access = { permission: 'salesorder:read', module: 'crm' };

export interface ProposalListOptions {
  users: { id: string; name: string }[];
  tags: { id: string; name: string }[];
}

/** Who can have created a proposal (active users) and the tenant's tags, for the list's filters. */
export async function proposalListOptions(ctx: Ctx): Promise<ProposalListOptions> {
  requireAccess(ctx.auth, PROPOSAL_READ);
  const { rows } = (await ctx.trx.raw(
    `select ${namedOptionsSql('users', ACTIVE_USERS_WHERE)} as users, ${namedOptionsSql('tags')} as tags`,
  )) as { rows: ProposalListOptions[] };
  return { users: rows[0]!.users, tags: rows[0]!.tags };
}

const ZMove = z.object({
  id: z.string().uuid('ERROR_INVALID_VALUE'),
  overId: z.string().uuid('ERROR_INVALID_VALUE'),
  position: z.enum(['before', 'after']),
});

/**
 * Puts a proposal just before or after another in the list's order (sortOrder, then newest first):
 * it takes the other's place (or the next) and every proposal from there on moves down one, so the
 * order stays whole. The same as the API's PATCH sortOrder, with the arithmetic done here.
 */
export async function moveProposal(ctx: Ctx, raw: unknown): Promise<{ id: string; sortOrder: number }> {
  requireAccess(ctx.auth, PROPOSAL_EDIT);
  const f = parseInput(ZMove, raw);
  if (f.id === f.overId) throw notFound();
  const both = (await ctx.trx('proposals').whereIn('id', [f.id, f.overId]).select('id', 'sort_order')) as {
    id: string;
    sort_order: number;
  }[];
  const over = both.find((p) => p.id === f.overId);
  if (both.length !== 2 || !over) throw notFound();
  const target = Number(over.sort_order) + (f.position === 'after' ? 1 : 0);
  await ctx.trx.raw(
    `update proposals set sort_order = case when id = ? then ? else sort_order + 1 end
      where id = ? or (sort_order >= ? and id <> ?)`,
    [f.id, target, f.id, target, f.id],
  );
  return { id: f.id, sortOrder: target };
}

export interface HistoryEntryRow {
  userName: string | null;
  action: string;
  timestamp: string;
  data: unknown;
}

const ZHistory = z.object({
  from: z.coerce.number({ error: 'ERROR_INVALID_VALUE' }).int().min(0).default(0),
  size: z.coerce.number({ error: 'ERROR_INVALID_VALUE' }).int().min(1).max(100).default(20),
});

async function historyOf(
  ctx: Ctx,
  table: 'proposals' | 'sales_orders',
  entity: string,
  id: unknown,
  raw: unknown,
): Promise<{ rows: HistoryEntryRow[]; totalCount: number }> {
  const { from, size } = parseInput(ZHistory, raw);
  if (!isUuid(id)) throw notFound();
  // the record is looked up in the same statement: another tenant's id finds nothing
  const rows = (await ctx.trx.raw(
    `select u.name as user_name, h.action, h.at, h.data, count(*) over () as total
       from ${table} r
       join history h on h.entity = ? and h.entity_id = r.id::text
       left join users u on u.id = h.user_id
      where r.id = ?
      order by h.at desc, h.id desc
      limit ? offset ?`,
    [entity, id, size, from],
  )) as { rows: Record<string, unknown>[] };
  if (!rows.rows.length) {
    const exists = await ctx.trx(table).where({ id }).first('id');
    if (!exists) throw notFound();
  }
  return {
    totalCount: Number(rows.rows[0]?.total ?? 0),
    rows: rows.rows.map((r) => ({
      userName: (r.user_name as string | null) ?? null,
      action: r.action as string,
      timestamp: new Date(r.at as string).toISOString(),
      data: r.data ?? null,
    })),
  };
}

/** A proposal's history, newest first (every change is recorded: create, each save, accept, …). */
export function getProposalHistory(ctx: Ctx, id: unknown, raw: unknown = {}) {
  requireAccess(ctx.auth, PROPOSAL_READ);
  return historyOf(ctx, 'proposals', PROPOSAL_ENTITY, id, raw);
}

/** A sales order's history, newest first. */
export function getSalesOrderHistory(ctx: Ctx, id: unknown, raw: unknown = {}) {
  requireAccess(ctx.auth, SALES_ORDER_READ);
  return historyOf(ctx, 'sales_orders', SALES_ORDER_ENTITY, id, raw);
}
