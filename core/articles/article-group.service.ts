import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess, type Access } from '~/core/permissions/access';
import { isForeignKeyViolation, uniqueViolation, zIdentifier } from '~/core/registers/list-query';

/** Spec section 6: article groups only with articles:read and the article-groups app module. */
export const GROUPS_READ: Access = { permission: 'articles:read', module: 'article_groups' };
export const GROUPS_EDIT: Access = { permission: 'articles:settings', module: 'article_groups' };
export const ARTICLE_GROUP_ENTITY = 'article_group';

/** An article group (spec section 3): its ID as people type it (`title`), a name, its articles. */
export interface TArticleGroup {
  id: string;
  title: string;
  displayName: string;
  articleCount: number;
  /** Price lists that price this group; a group on one cannot be deleted either. */
  priceListCount: number;
}

const zDisplayName = () =>
  z
    .string({ error: 'ERROR_INVALID_VALUE' })
    .trim()
    .max(100, 'ERROR_MAX_LENGTH')
    .nullish()
    .transform((v) => (v ? v : null));

export const ZCreateArticleGroup = z.object({ title: zIdentifier(30), displayName: zDisplayName() });
export const ZUpdateArticleGroup = z.object({
  id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  title: zIdentifier(30).optional(),
  displayName: zDisplayName(),
});

/** Spec section 8: 409 'Article group with same ID already exists!'. */
export const groupExists = () =>
  new AppError('ARTICLE_GROUP_EXISTS', 409, {
    fields: { title: ['ARTICLE_GROUP_EXISTS'] },
    message: 'Article group with same ID already exists!',
  });
/** Spec section 8: 409 'Unable to delete article group. Group has articles in it or is enabled on some price list.' */
export const groupInUse = (usedBy: { articles: number; priceLists: number }) =>
  new AppError('ARTICLE_GROUP_IN_USE', 409, {
    usedBy: Object.fromEntries(Object.entries(usedBy).filter(([, n]) => n > 0)),
    message: 'Unable to delete article group. Group has articles in it or is enabled on some price list.',
  });

type Row = {
  id: string;
  title: string;
  display_name: string;
  article_count: string | number;
  price_list_count: string | number;
};

function selectGroups(ctx: Ctx) {
  return ctx
    .trx('article_groups as g')
    .select(
      'g.id',
      'g.title',
      'g.display_name',
      ctx.trx.raw('(select count(*) from articles a where a.article_group_id = g.id) as article_count'),
      ctx.trx.raw('(select count(*) from price_list_groups p where p.article_group_id = g.id) as price_list_count'),
    );
}

const toGroup = (r: Row): TArticleGroup => ({
  id: r.id,
  title: r.title,
  displayName: r.display_name,
  articleCount: Number(r.article_count),
  priceListCount: Number(r.price_list_count),
});

async function findGroup(ctx: Ctx, id: unknown): Promise<TArticleGroup> {
  if (!isUuid(id)) throw notFound();
  const row = (await selectGroups(ctx).where('g.id', id).first()) as Row | undefined;
  if (!row) throw notFound();
  return toGroup(row);
}

/** `GET /articles/groups`: every group by ID, with how many articles each has (one query). */
export async function listArticleGroups(ctx: Ctx): Promise<TArticleGroup[]> {
  requireAccess(ctx.auth, GROUPS_READ);
  return ((await selectGroups(ctx).orderByRaw('lower(g.title), g.id')) as Row[]).map(toGroup);
}

export async function getArticleGroup(ctx: Ctx, id: unknown): Promise<TArticleGroup> {
  requireAccess(ctx.auth, GROUPS_READ);
  return findGroup(ctx, id);
}

async function assertTitleFree(ctx: Ctx, title: string, exceptId?: string) {
  const q = ctx.trx('article_groups').whereRaw('lower(title) = lower(?)', [title]);
  if (exceptId) q.whereNot('id', exceptId);
  if (await q.first('id')) throw groupExists();
}

/** `POST /articles/groups {title, displayName}`: the ID is unique regardless of case. */
export async function createArticleGroup(ctx: Ctx, raw: unknown): Promise<TArticleGroup> {
  requireAccess(ctx.auth, GROUPS_EDIT);
  const input = parseInput(ZCreateArticleGroup, raw);
  await assertTitleFree(ctx, input.title);
  let id: string;
  try {
    const [row] = (await ctx
      .trx('article_groups')
      .insert({ title: input.title, display_name: input.displayName ?? input.title })
      .returning('id')) as { id: string }[];
    id = row!.id;
  } catch (e) {
    if (uniqueViolation(e) === 'article_groups_title_idx') throw groupExists();
    throw e;
  }
  await recordHistory(ctx, { entity: ARTICLE_GROUP_ENTITY, entityId: id, action: 'create', data: input });
  return findGroup(ctx, id);
}

/** `PUT /articles/groups {id, title, displayName}`. */
export async function updateArticleGroup(ctx: Ctx, raw: unknown): Promise<TArticleGroup> {
  requireAccess(ctx.auth, GROUPS_EDIT);
  const input = parseInput(ZUpdateArticleGroup, raw);
  const before = await findGroup(ctx, input.id);
  const title = input.title ?? before.title;
  const displayName = input.displayName ?? title;
  if (title.toLowerCase() !== before.title.toLowerCase()) await assertTitleFree(ctx, title, before.id);
  try {
    await ctx.trx('article_groups').where({ id: before.id }).update({ title, display_name: displayName });
  } catch (e) {
    if (uniqueViolation(e) === 'article_groups_title_idx') throw groupExists();
    throw e;
  }
  await recordHistory(ctx, {
    entity: ARTICLE_GROUP_ENTITY,
    entityId: before.id,
    action: 'edit',
    data: { before: { title: before.title, displayName: before.displayName }, after: { title, displayName } },
  });
  return findGroup(ctx, before.id);
}

/**
 * `DELETE /articles/groups/{id}`: refused with 409 ARTICLE_GROUP_IN_USE while articles are in it
 * or a price list prices it (spec section 8). Customers' discounts for the group go with it.
 */
export async function deleteArticleGroup(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, GROUPS_EDIT);
  const group = await findGroup(ctx, id);
  if (group.articleCount > 0 || group.priceListCount > 0)
    throw groupInUse({ articles: group.articleCount, priceLists: group.priceListCount });
  try {
    await ctx.trx('article_groups').where({ id: group.id }).delete();
  } catch (e) {
    // An article or price list took the group up since the count (the foreign keys restrict).
    if (isForeignKeyViolation(e)) throw groupInUse({ articles: group.articleCount, priceLists: group.priceListCount });
    throw e;
  }
  await recordHistory(ctx, {
    entity: ARTICLE_GROUP_ENTITY,
    entityId: group.id,
    action: 'delete',
    data: { title: group.title, displayName: group.displayName },
  });
}
