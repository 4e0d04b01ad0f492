import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, zRequiredString } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { requireBo } from './require-bo';

/**
 * The service log of an object (spec section 3: logs, totalCount, entry text): what was done on
 * site, newest first, 20 to a page. Anyone who reads the object reads it; writing needs
 * bo:service_log.
 */

export const SERVICE_LOG_PAGE_SIZE = 20;

export interface ServiceLogEntry {
  id: string;
  entry: string;
  userId: string | null;
  userName: string | null;
  createdAt: string;
  updatedAt: string | null;
  updatedByName: string | null;
}

export const ZServiceLogPage = z.object({ from: z.coerce.number().int().min(0).default(0) });
export const ZServiceLogEntry = z.object({ entry: zRequiredString().max(5000, 'ERROR_MAX_LENGTH') });

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v == null ? null : String(v));

/** GET /bo/{id}/servicelog?from: a page of 20 entries and how many there are. */
export async function listServiceLog(
  ctx: Ctx,
  id: unknown,
  raw: unknown = {},
): Promise<{ logs: ServiceLogEntry[]; totalCount: number }> {
  requireAccess(ctx.auth, { permission: 'bo:read' });
  const bo = await requireBo(ctx, id);
  const { from } = parseInput(ZServiceLogPage, raw);
  const base = ctx.trx('service_log as s').where('s.business_object_id', bo.id);
  const [{ n }] = await base.clone().count({ n: '*' });
  const rows = await base
    .clone()
    .leftJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('users as e', 'e.id', 's.updated_by')
    .select(
      's.id',
      's.entry',
      's.user_id',
      'u.name as user_name',
      's.created_at',
      's.updated_at',
      'e.name as updated_by_name',
    )
    .orderBy([
      { column: 's.created_at', order: 'desc' },
      { column: 's.id', order: 'desc' },
    ])
    .limit(SERVICE_LOG_PAGE_SIZE)
    .offset(from);
  return {
    totalCount: Number(n),
    logs: rows.map((r: Record<string, unknown>) => ({
      id: r.id as string,
      entry: r.entry as string,
      userId: (r.user_id as string) ?? null,
      userName: (r.user_name as string) ?? null,
      createdAt: iso(r.created_at)!,
      updatedAt: iso(r.updated_at),
      updatedByName: (r.updated_by_name as string) ?? null,
    })),
  };
}

/** POST /bo/{id}/servicelog {entry}. */
export async function addServiceLogEntry(ctx: Ctx, id: unknown, raw: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, { permission: 'bo:service_log' });
  const bo = await requireBo(ctx, id);
  const { entry } = parseInput(ZServiceLogEntry, raw);
  const [row] = await ctx
    .trx('service_log')
    .insert({ business_object_id: bo.id, entry, user_id: ctx.auth.user.id, created_at: ctx.now })
    .returning('id');
  const logId = (row as { id: string }).id;
  await recordHistory(ctx, { entity: 'business_object', entityId: bo.id, action: 'servicelog.add', data: { logId } });
  return { id: logId };
}

/** PUT /bo/{id}/servicelog/{logId} {entry}: corrects an entry (who and when is kept). */
export async function updateServiceLogEntry(ctx: Ctx, id: unknown, logId: unknown, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:service_log' });
  const bo = await requireBo(ctx, id);
  if (!isUuid(logId)) throw notFound();
  const { entry } = parseInput(ZServiceLogEntry, raw);
  const before = await ctx.trx('service_log').where({ id: logId, business_object_id: bo.id }).first('entry');
  if (!before) throw notFound();
  await ctx
    .trx('service_log')
    .where({ id: logId })
    .update({ entry, updated_at: ctx.now, updated_by: ctx.auth.user.id });
  await recordHistory(ctx, {
    entity: 'business_object',
    entityId: bo.id,
    action: 'servicelog.edit',
    data: { logId, from: before.entry, to: entry },
  });
}
