import { deleteFilesOf } from '~/core/files/files.service';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, zRequiredString } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import {
  containsPattern,
  duplicate,
  inUse,
  uniqueViolation,
  zIdentifier,
  ZListQuery,
} from '~/core/registers/list-query';

/**
 * Models (spec section 3: id, code, name, status, objectCount): the product types installed
 * objects are instances of ("Galaxy Flex 50"). The code is unique (DUPLICATE_MODEL_CODE); a model
 * objects still use cannot be deleted (IN_USE).
 */

export const MODEL_STATUSES = ['active', 'inactive'] as const;
export type ModelStatus = (typeof MODEL_STATUSES)[number];

export interface Model {
  id: string;
  code: string;
  name: string;
  status: ModelStatus;
  objectCount: number;
}

const zStatus = z.enum(MODEL_STATUSES, { error: 'ERROR_INVALID_VALUE' });

export const ZModelFields = z.object({
  code: zIdentifier(50),
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
});
export const ZCreateModel = z.object({ model: ZModelFields.extend({ status: zStatus.optional() }) });
export const ZUpdateModel = z.object({ model: ZModelFields.extend({ id: z.string(), status: zStatus }) });
export const ZModelList = ZListQuery.extend({
  status: zStatus.optional(),
});
export type TModelList = z.infer<typeof ZModelList>;

interface ModelRow {
  id: string;
  code: string;
  name: string;
  status: ModelStatus;
}

const toModel = (r: ModelRow, objectCount: number): Model => ({
  id: r.id,
  code: r.code,
  name: r.name,
  status: r.status,
  objectCount,
});

/** How many objects use each of `ids`: one grouped, indexed query. */
async function objectCounts(ctx: Ctx, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await ctx
    .trx('business_objects')
    .whereIn('model_id', ids)
    .groupBy('model_id')
    .select('model_id', ctx.trx.raw('count(*)::int as n'));
  return new Map(rows.map((r: { model_id: string; n: number }) => [r.model_id, Number(r.n)]));
}

/**
 * GET /models and GET /models?q: a page by name, filtered in SQL (the trigram index on code and
 * name), with how many objects use each model.
 */
export async function listModels(ctx: Ctx, raw: unknown = {}): Promise<{ models: Model[]; totalCount: number }> {
  requireAccess(ctx.auth, { permission: 'models:read' });
  const f = parseInput(ZModelList, raw);
  const base = ctx.trx('models');
  if (f.q) base.whereRaw(`search_text like ?`, [containsPattern(f.q)]);
  if (f.status) base.where({ status: f.status });
  const [{ n }] = await base.clone().count({ n: '*' });
  const rows: ModelRow[] = await base
    .clone()
    .select('id', 'code', 'name', 'status')
    .orderByRaw('lower(name), id')
    .limit(f.limit)
    .offset(f.offset);
  const counts = await objectCounts(
    ctx,
    rows.map((r) => r.id),
  );
  return { totalCount: Number(n), models: rows.map((r) => toModel(r, counts.get(r.id) ?? 0)) };
}

async function requireModel(ctx: Ctx, id: unknown): Promise<ModelRow> {
  if (!isUuid(id)) throw notFound();
  const row = await ctx.trx('models').where({ id }).first('id', 'code', 'name', 'status');
  if (!row) throw notFound();
  return row as ModelRow;
}

/** GET /models/{id}. */
export async function getModel(ctx: Ctx, id: unknown): Promise<{ model: Model }> {
  requireAccess(ctx.auth, { permission: 'models:read' });
  const row = await requireModel(ctx, id);
  const counts = await objectCounts(ctx, [row.id]);
  return { model: toModel(row, counts.get(row.id) ?? 0) };
}

function rethrowDuplicate(e: unknown): never {
  if (uniqueViolation(e) === 'models_code_idx') throw duplicate('DUPLICATE_MODEL_CODE', 'code');
  throw e;
}

/** POST /models {model}: a new model is always active (api-calls section 5). */
export async function createModel(ctx: Ctx, raw: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, { permission: 'models:edit' });
  const { model } = parseInput(ZCreateModel, raw);
  const [row] = await ctx
    .trx('models')
    .insert({ code: model.code, name: model.name, status: 'active' })
    .returning('id')
    .catch(rethrowDuplicate);
  const id = (row as { id: string }).id;
  await recordHistory(ctx, { entity: 'model', entityId: id, action: 'create', data: { ...model, status: 'active' } });
  return { id };
}

/** PUT /models {model}: code, name and status. */
export async function updateModel(ctx: Ctx, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'models:edit' });
  const { model } = parseInput(ZUpdateModel, raw);
  await requireModel(ctx, model.id);
  await ctx
    .trx('models')
    .where({ id: model.id })
    .update({ code: model.code, name: model.name, status: model.status })
    .catch(rethrowDuplicate);
  await recordHistory(ctx, { entity: 'model', entityId: model.id, action: 'edit', data: model });
}

/** DELETE /models/{id}: refused with IN_USE while objects use the model. */
export async function deleteModel(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'models:delete' });
  const row = await requireModel(ctx, id);
  const objects = (await objectCounts(ctx, [row.id])).get(row.id) ?? 0;
  if (objects > 0) throw inUse({ objects });
  await ctx.trx('models').where({ id: row.id }).delete();
  await deleteFilesOf(ctx, 'model', [row.id]);
  await recordHistory(ctx, { entity: 'model', entityId: row.id, action: 'delete', data: { code: row.code } });
}

/** Models for a picker: "code – name", active ones, cut to `limit`, with how many matched. */
export async function modelOptions(
  ctx: Ctx,
  raw: unknown,
): Promise<{ options: { id: string; label: string }[]; total: number }> {
  const { models, totalCount } = await listModels(ctx, { ...(raw as object), status: 'active' });
  return {
    total: totalCount,
    options: models.map((m) => ({ id: m.id, label: m.code === m.name ? m.name : `${m.code} – ${m.name}` })),
  };
}
