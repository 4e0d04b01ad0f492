import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, zRequiredString } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { PRICING_TYPES, zPercent, type PricingType } from '~/core/pricing';
import { duplicate, isForeignKeyViolation, uniqueViolation } from '~/core/registers/list-query';

const READ = { permission: 'articles:read' } as const;
const EDIT = { permission: 'articles:settings' } as const;
export const PRICE_LIST_ENTITY = 'price_list';

/** A markup may exceed 100 % (a purchase price doubled is 100 %); a discount cannot. */
export const MAX_MARKUP_PERCENT = 1000;

/** A price list (spec section 3): a title and, per article group, a pricing type and a percentage. */
export interface TPriceList {
  id: string;
  title: string;
  description: string | null;
  /** How many article groups it prices. */
  groupCount: number;
  /** Customers and objects that use it; one in use cannot be deleted. */
  customerCount: number;
  objectCount: number;
}

/** One article group's line on a price list; `pricingType` null when the list leaves the group alone. */
export interface TPriceListGroup {
  articleGroupId: string;
  title: string;
  displayName: string;
  pricingType: PricingType | null;
  value: string | null;
}

const zDescription = () =>
  z
    .string({ error: 'ERROR_INVALID_VALUE' })
    .trim()
    .max(500, 'ERROR_MAX_LENGTH')
    .nullish()
    .transform((v) => (v ? v : null));

export const ZCreatePriceList = z.object({
  title: zRequiredString().max(100, 'ERROR_MAX_LENGTH'),
  description: zDescription(),
});
export const ZUpdatePriceList = z.object({
  id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  title: zRequiredString().max(100, 'ERROR_MAX_LENGTH').optional(),
  description: zDescription().optional(),
});

const ZGroupRule = z
  .object({
    articleGroupId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
    pricingType: z.enum(PRICING_TYPES, { error: 'ERROR_INVALID_VALUE' }).nullish(),
    value: z.union([z.string(), z.number()]).nullish(),
  })
  .transform((rule, ctx) => {
    if (!rule.pricingType) return { articleGroupId: rule.articleGroupId, pricingType: null, value: null };
    const max = rule.pricingType === 'discount' ? 100 : MAX_MARKUP_PERCENT;
    const value = zPercent({ max }).safeParse(rule.value ?? '0');
    if (!value.success) {
      for (const issue of value.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: ['value'] });
      return z.NEVER;
    }
    return { articleGroupId: rule.articleGroupId, pricingType: rule.pricingType, value: value.data };
  });

/** PUT /articles/pricelists/details {id, groups}: the list's rule per group; groups left out are unpriced. */
export const ZPriceListGroups = z.object({
  id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  groups: z.array(ZGroupRule, { error: 'ERROR_INVALID_VALUE' }).max(1000),
});

export const duplicatePriceList = () => duplicate('DUPLICATE_PRICE_LIST', 'title');
/** Spec section 8: a price list enabled for a customer (or an object) cannot be deleted. */
export const priceListInUse = (usedBy: { customers: number; objects: number }) =>
  new AppError('PRICE_LIST_IN_USE', 409, {
    usedBy: Object.fromEntries(Object.entries(usedBy).filter(([, n]) => n > 0)),
  });

type Row = Record<string, unknown>;

function selectLists(ctx: Ctx) {
  return ctx
    .trx('price_lists as pl')
    .select(
      'pl.id',
      'pl.title',
      'pl.description',
      ctx.trx.raw('(select count(*) from price_list_groups x where x.price_list_id = pl.id) as group_count'),
      ctx.trx.raw('(select count(*) from customers c where c.price_list_id = pl.id) as customer_count'),
      ctx.trx.raw('(select count(*) from business_objects b where b.price_list_id = pl.id) as object_count'),
    );
}

const toList = (r: Row): TPriceList => ({
  id: r.id as string,
  title: r.title as string,
  description: (r.description as string | null) ?? null,
  groupCount: Number(r.group_count),
  customerCount: Number(r.customer_count),
  objectCount: Number(r.object_count),
});

async function findList(ctx: Ctx, id: unknown): Promise<TPriceList> {
  if (!isUuid(id)) throw notFound();
  const row = (await selectLists(ctx).where('pl.id', id).first()) as Row | undefined;
  if (!row) throw notFound();
  return toList(row);
}

/** `GET /articles/pricelists`: every price list by title, with its use (one query). */
export async function listPriceLists(ctx: Ctx): Promise<TPriceList[]> {
  requireAccess(ctx.auth, READ);
  return ((await selectLists(ctx).orderByRaw('lower(pl.title), pl.id')) as Row[]).map(toList);
}

async function assertTitleFree(ctx: Ctx, title: string, exceptId?: string) {
  const q = ctx.trx('price_lists').whereRaw('lower(title) = lower(?)', [title]);
  if (exceptId) q.whereNot('id', exceptId);
  if (await q.first('id')) throw duplicatePriceList();
}

/** `POST /articles/pricelists {title, description}`: titles are unique (409 DUPLICATE_PRICE_LIST). */
export async function createPriceList(ctx: Ctx, raw: unknown): Promise<TPriceList> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZCreatePriceList, raw);
  await assertTitleFree(ctx, input.title);
  let id: string;
  try {
    const [row] = (await ctx.trx('price_lists').insert(input).returning('id')) as { id: string }[];
    id = row!.id;
  } catch (e) {
    if (uniqueViolation(e) === 'price_lists_title_idx') throw duplicatePriceList();
    throw e;
  }
  await recordHistory(ctx, { entity: PRICE_LIST_ENTITY, entityId: id, action: 'create', data: input });
  return findList(ctx, id);
}

/** `PUT /articles/pricelists {id, title, description}`. */
export async function updatePriceList(ctx: Ctx, raw: unknown): Promise<TPriceList> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZUpdatePriceList, raw);
  const before = await findList(ctx, input.id);
  const after = {
    title: input.title ?? before.title,
    description: input.description === undefined ? before.description : input.description,
  };
  if (after.title.toLowerCase() !== before.title.toLowerCase()) await assertTitleFree(ctx, after.title, before.id);
  try {
    await ctx.trx('price_lists').where({ id: before.id }).update(after);
  } catch (e) {
    if (uniqueViolation(e) === 'price_lists_title_idx') throw duplicatePriceList();
    throw e;
  }
  await recordHistory(ctx, {
    entity: PRICE_LIST_ENTITY,
    entityId: before.id,
    action: 'edit',
    data: { before: { title: before.title, description: before.description }, after },
  });
  return findList(ctx, before.id);
}

/**
 * `DELETE /articles/pricelists?id=` (or `/articles/pricelists/{id}`): refused with 409
 * PRICE_LIST_IN_USE while a customer or an object uses it; its group rules go with it.
 */
export async function deletePriceList(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, EDIT);
  const list = await findList(ctx, id);
  if (list.customerCount > 0 || list.objectCount > 0)
    throw priceListInUse({ customers: list.customerCount, objects: list.objectCount });
  try {
    await ctx.trx('price_lists').where({ id: list.id }).delete();
  } catch (e) {
    if (isForeignKeyViolation(e)) throw priceListInUse({ customers: list.customerCount, objects: list.objectCount });
    throw e;
  }
  await recordHistory(ctx, {
    entity: PRICE_LIST_ENTITY,
    entityId: list.id,
    action: 'delete',
    data: { title: list.title },
  });
}

async function groupRules(ctx: Ctx, listId: string): Promise<TPriceListGroup[]> {
  const rows = (await ctx
    .trx('article_groups as g')
    .leftJoin('price_list_groups as x', (j) => j.on('x.article_group_id', 'g.id').andOnVal('x.price_list_id', listId))
    .select('g.id', 'g.title', 'g.display_name', 'x.pricing_type', ctx.trx.raw('x.value::text as value'))
    .orderByRaw('lower(g.title), g.id')) as Row[];
  return rows.map((r) => ({
    articleGroupId: r.id as string,
    title: r.title as string,
    displayName: r.display_name as string,
    pricingType: (r.pricing_type as PricingType | null) ?? null,
    value: (r.value as string | null) ?? null,
  }));
}

/**
 * `GET /articles/pricelists/details?id=`: the list and every article group with the list's rule
 * for it (null where the list does not price the group).
 */
export async function getPriceListDetails(
  ctx: Ctx,
  id: unknown,
): Promise<{ priceList: TPriceList; groups: TPriceListGroup[] }> {
  requireAccess(ctx.auth, READ);
  const priceList = await findList(ctx, id);
  return { priceList, groups: await groupRules(ctx, priceList.id) };
}

/**
 * `PUT /articles/pricelists/details {id, groups: [{articleGroupId, pricingType, value}]}`: sets the
 * list's rules. A discount is 0–100 %, a markup 0–1000 % (ERROR_PERCENT_RANGE); a group without a
 * pricing type, or left out, is not priced by the list. Unknown groups are a 400.
 */
export async function savePriceListGroups(
  ctx: Ctx,
  raw: unknown,
): Promise<{ priceList: TPriceList; groups: TPriceListGroup[] }> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZPriceListGroups, raw);
  const list = await findList(ctx, input.id);
  const rules = input.groups.filter((g) => g.pricingType);
  const ids = rules.map((g) => g.articleGroupId);
  const badIndex = input.groups.findIndex((g) => !isUuid(g.articleGroupId));
  if (badIndex >= 0 || new Set(ids).size !== ids.length)
    throw new AppError('VALIDATION_FAILED', 400, {
      fields: { [`groups.${Math.max(badIndex, 0)}.articleGroupId`]: ['ERROR_INVALID_VALUE'] },
    });
  if (ids.length) {
    const found = (await ctx.trx('article_groups').whereIn('id', ids).pluck('id')) as string[];
    const missing = input.groups.findIndex((g) => g.pricingType && !found.includes(g.articleGroupId));
    if (missing >= 0)
      throw new AppError('VALIDATION_FAILED', 400, {
        fields: { [`groups.${missing}.articleGroupId`]: ['ERROR_INVALID_VALUE'] },
      });
  }
  const before = await groupRules(ctx, list.id);
  await ctx.trx('price_list_groups').where({ price_list_id: list.id }).delete();
  if (rules.length)
    await ctx.trx('price_list_groups').insert(
      rules.map((g) => ({
        price_list_id: list.id,
        article_group_id: g.articleGroupId,
        pricing_type: g.pricingType,
        value: g.value,
      })),
    );
  const after = await groupRules(ctx, list.id);
  const brief = (groups: TPriceListGroup[]) =>
    groups.filter((g) => g.pricingType).map((g) => ({ group: g.title, pricingType: g.pricingType, value: g.value }));
  await recordHistory(ctx, {
    entity: PRICE_LIST_ENTITY,
    entityId: list.id,
    action: 'groups',
    data: { before: brief(before), after: brief(after) },
  });
  return { priceList: await findList(ctx, list.id), groups: after };
}
