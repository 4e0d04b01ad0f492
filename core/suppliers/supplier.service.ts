import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import {
  containsPattern,
  duplicate,
  inUse,
  isForeignKeyViolation,
  MAX_PAGE_SIZE,
  uniqueViolation,
  ZListQuery,
} from '~/core/registers/list-query';
import { proposeNumber } from '~/core/registers/propose-id';
import {
  ZCreateSupplier,
  ZSupplierArticleFilter,
  ZSupplierContacts,
  ZSupplierFilter,
  ZUpdateSupplier,
  type TSupplierContact,
} from './supplier.schema';

const READ = { permission: 'suppliers:read' } as const;
const EDIT = { permission: 'suppliers:edit' } as const;
const DELETE = { permission: 'suppliers:delete' } as const;

/** Supplier numbers proposed when none is given are this many digits (the demo's 2001, 2002, …). */
export const DEFAULT_NUMBER_LENGTH = 4;

/** The indexed search expression of `suppliers_search_idx`: number, title and name. */
const SEARCH = `s.search_text`;

export interface SupplierListItem {
  id: string;
  number: string;
  title: string;
  name: string | null;
  erpAccount: string | null;
  tags: string[];
  status: 'active' | 'inactive';
}

export interface SupplierContact extends TSupplierContact {
  id: string;
}

export interface Supplier extends SupplierListItem {
  iban: string | null;
  bic: string | null;
  organizationNumber: string | null;
  peppolId: string | null;
  contacts: SupplierContact[];
  createdAt: string;
  updatedAt: string;
}

export interface SupplierArticle {
  articleId: string;
  /** The article's own number (spec: article ID). */
  articleNumber: string;
  title: string;
  unit: string | null;
  status: string;
  supplierArticleNumber: string | null;
  /** numeric as text: money is never a float here. */
  purchasePrice: string | null;
  isPrimary: boolean;
}

type Row = Record<string, unknown>;

function toListItem(r: Row): SupplierListItem {
  return {
    id: r.id as string,
    number: r.number as string,
    title: r.title as string,
    name: (r.name as string | null) ?? null,
    erpAccount: (r.erp_account as string | null) ?? null,
    tags: (r.tags as string[] | null) ?? [],
    status: r.status as SupplierListItem['status'],
  };
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));

/**
 * GET /suppliers: filtered by text (the trigram index), status and tag, sorted by number or
 * title, one page. Two statements: the page and the count.
 */
export async function listSuppliers(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ suppliers: SupplierListItem[]; totalCount: number }> {
  requireAccess(ctx.auth, READ);
  const f = parseInput(ZSupplierFilter, raw);
  const base = ctx.trx('suppliers as s');
  if (f.q) base.whereRaw(`${SEARCH} like ?`, [containsPattern(f.q)]);
  if (f.status !== 'all') base.where('s.status', f.status);
  if (f.tag) base.whereRaw('? = any(s.tags)', [f.tag]);
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const dir = f.desc ? 'desc' : 'asc';
  const rows = (await base
    .clone()
    .select('s.id', 's.number', 's.title', 's.name', 's.erp_account', 's.tags', 's.status')
    .orderByRaw(f.sort === 'number' ? `lower(s.number) ${dir}` : `lower(s.title) ${dir}, s.id ${dir}`)
    .limit(f.limit)
    .offset(f.offset)) as Row[];
  return { suppliers: rows.map(toListItem), totalCount: Number(n) };
}

/**
 * GET /suppliers/q?q: suppliers for a picker, at most 200, active first then by title, with how
 * many matched (the picker says when the list is cut).
 */
/** GET /suppliers/q's query: the text and a page of at most 200. */
export const ZSupplierSearch = ZListQuery.extend({ limit: ZListQuery.shape.limit.default(MAX_PAGE_SIZE) });

export async function searchSuppliers(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ suppliers: Pick<SupplierListItem, 'id' | 'number' | 'title' | 'name' | 'status'>[]; total: number }> {
  requireAccess(ctx.auth, READ);
  const f = parseInput(ZSupplierSearch, raw);
  const base = ctx.trx('suppliers as s');
  if (f.q) base.whereRaw(`${SEARCH} like ?`, [containsPattern(f.q)]);
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .select('s.id', 's.number', 's.title', 's.name', 's.status')
    .orderByRaw(`s.status = 'active' desc, lower(s.title), s.id`)
    .limit(f.limit)
    .offset(f.offset)) as Row[];
  return {
    total: Number(n),
    suppliers: rows.map((r) => ({
      id: r.id as string,
      number: r.number as string,
      title: r.title as string,
      name: (r.name as string | null) ?? null,
      status: r.status as SupplierListItem['status'],
    })),
  };
}

async function findSupplierRow(ctx: Ctx, id: unknown): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const row = (await ctx.trx('suppliers').where({ id }).first()) as Row | undefined;
  if (!row) throw notFound();
  return row;
}

/** GET /suppliers/{id}: the supplier with its contacts (two statements). */
export async function getSupplier(ctx: Ctx, id: unknown): Promise<Supplier> {
  requireAccess(ctx.auth, READ);
  const row = await findSupplierRow(ctx, id);
  const contacts = (await ctx
    .trx('supplier_contacts')
    .where({ supplier_id: row.id })
    .orderBy(['sort_order', 'id'])
    .select('id', 'name', 'role', 'phone', 'email')) as SupplierContact[];
  return {
    ...toListItem(row),
    iban: (row.iban as string | null) ?? null,
    bic: (row.bic as string | null) ?? null,
    organizationNumber: (row.organization_number as string | null) ?? null,
    peppolId: (row.peppol_id as string | null) ?? null,
    contacts: contacts.map((c) => ({
      id: c.id,
      name: c.name,
      role: c.role ?? null,
      phone: c.phone ?? null,
      email: c.email ?? null,
    })),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/**
 * The articles bought from a supplier (article_suppliers): what the supplier calls each one and
 * what it charges. Read-only here; the article's page edits them. One page, filtered in SQL.
 */
export async function listSupplierArticles(
  ctx: Ctx,
  id: unknown,
  raw: unknown = {},
): Promise<{ articles: SupplierArticle[]; totalCount: number }> {
  requireAccess(ctx.auth, READ);
  if (!isUuid(id)) throw notFound();
  const f = parseInput(ZSupplierArticleFilter, raw);
  const base = ctx
    .trx('article_suppliers as x')
    .join('articles as a', 'a.id', 'x.article_id')
    .where('x.supplier_id', id);
  if (f.q)
    base.where((w) =>
      w
        .whereRaw(`a.search_text like ?`, [containsPattern(f.q!)])
        .orWhereRaw(`lower(coalesce(x.supplier_article_number, '')) like ?`, [containsPattern(f.q!)]),
    );
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .select(
      'a.id',
      'a.article_id',
      'a.title',
      'a.unit',
      'a.status',
      'x.supplier_article_number',
      'x.purchase_price',
      'x.is_primary',
    )
    .orderByRaw('lower(a.article_id), a.id')
    .limit(f.limit)
    .offset(f.offset)) as Row[];
  return {
    totalCount: Number(n),
    articles: rows.map((r) => ({
      articleId: r.id as string,
      articleNumber: r.article_id as string,
      title: r.title as string,
      unit: (r.unit as string | null) ?? null,
      status: r.status as string,
      supplierArticleNumber: (r.supplier_article_number as string | null) ?? null,
      purchasePrice: r.purchase_price === null || r.purchase_price === undefined ? null : String(r.purchase_price),
      isPrimary: Boolean(r.is_primary),
    })),
  };
}

/** Turns the unique index's refusal into the spec's duplicate message. */
function rethrow(e: unknown): never {
  if (uniqueViolation(e) === 'suppliers_number_idx') throw duplicate('DUPLICATE_SUPPLIER_NUMBER', 'number');
  throw e;
}

/**
 * Inserts or updates inside a savepoint, so a duplicate number can be answered with 409 while
 * the request's transaction stays usable.
 */
async function guarded<T>(ctx: Ctx, fn: (trx: Ctx['trx']) => Promise<T>): Promise<T> {
  try {
    return await ctx.trx.transaction((sp) => fn(sp));
  } catch (e) {
    rethrow(e);
  }
}

/** The body as the catalogue sends it: `{supplier}`, or the supplier's fields at the top level. */
function unwrap(raw: unknown): unknown {
  const body = raw as { supplier?: unknown } | null;
  return body && typeof body === 'object' && body.supplier && typeof body.supplier === 'object' ? body.supplier : raw;
}

/** POST /suppliers {supplier} or {title, name}: a new supplier, its number proposed when missing. */
export async function createSupplier(ctx: Ctx, raw: unknown): Promise<Supplier> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZCreateSupplier, unwrap(raw));
  const number =
    input.number ?? (await proposeNumber(ctx, 'suppliers', 'number', { length: DEFAULT_NUMBER_LENGTH })).id;
  const [row] = (await guarded(ctx, (trx) =>
    trx('suppliers')
      .insert({
        number,
        title: input.title,
        name: input.name,
        iban: input.iban,
        bic: input.bic,
        erp_account: input.erpAccount,
        tags: input.tags,
        status: input.status,
        organization_number: input.organizationNumber ?? null,
        peppol_id: input.peppolId ?? null,
        created_at: ctx.now,
        updated_at: ctx.now,
      })
      .returning('id'),
  )) as { id: string }[];
  await recordHistory(ctx, { entity: 'supplier', entityId: row!.id, action: 'create', data: { ...input, number } });
  return getSupplier(ctx, row!.id);
}

/** PUT /suppliers {supplier}: changes the fields given; 409 DUPLICATE_SUPPLIER_NUMBER on a taken number. */
export async function updateSupplier(ctx: Ctx, raw: unknown): Promise<Supplier> {
  requireAccess(ctx.auth, EDIT);
  const { id, ...input } = parseInput(ZUpdateSupplier, unwrap(raw));
  const before = await findSupplierRow(ctx, id);
  const changes: Record<string, unknown> = {};
  if (input.number !== undefined) changes.number = input.number;
  if (input.title !== undefined) changes.title = input.title;
  if (input.name !== undefined) changes.name = input.name;
  if (input.iban !== undefined) changes.iban = input.iban;
  if (input.bic !== undefined) changes.bic = input.bic;
  if (input.erpAccount !== undefined) changes.erp_account = input.erpAccount;
  if (input.tags !== undefined) changes.tags = input.tags;
  if (input.status !== undefined) changes.status = input.status;
  if (input.organizationNumber !== undefined) changes.organization_number = input.organizationNumber;
  if (input.peppolId !== undefined) changes.peppol_id = input.peppolId;
  await guarded(ctx, (trx) =>
    trx('suppliers')
      .where({ id })
      .update({ ...changes, updated_at: ctx.now }),
  );
  const changed = Object.fromEntries(
    Object.entries(changes).filter(([k, v]) => JSON.stringify(before[k]) !== JSON.stringify(v)),
  );
  await recordHistory(ctx, { entity: 'supplier', entityId: id, action: 'edit', data: { changed } });
  return getSupplier(ctx, id);
}

/** PUT /suppliers/{id}/contacts {contacts}: replaces the supplier's contacts with the list given, in order. */
export async function setSupplierContacts(ctx: Ctx, raw: unknown): Promise<SupplierContact[]> {
  requireAccess(ctx.auth, EDIT);
  const input = parseInput(ZSupplierContacts, raw);
  await findSupplierRow(ctx, input.id);
  await ctx.trx('supplier_contacts').where({ supplier_id: input.id }).delete();
  const rows = input.contacts.length
    ? ((await ctx
        .trx('supplier_contacts')
        .insert(input.contacts.map((c, i) => ({ supplier_id: input.id, sort_order: i, ...c })))
        .returning(['id', 'name', 'role', 'phone', 'email'])) as SupplierContact[])
    : [];
  await ctx.trx('suppliers').where({ id: input.id }).update({ updated_at: ctx.now });
  await recordHistory(ctx, {
    entity: 'supplier',
    entityId: input.id,
    action: 'contacts',
    data: { contacts: input.contacts },
  });
  return rows.map((c) => ({ id: c.id, name: c.name, role: c.role, phone: c.phone, email: c.email }));
}

/**
 * DELETE /suppliers/{id}. A supplier whose articles still name it answers 409 IN_USE with the
 * count; anything else that still refers to it (supplier invoices, later) is caught by the
 * foreign keys and answered with DELETE_NOT_POSSIBLE_SET_INACTIVE.
 */
export async function deleteSupplier(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, DELETE);
  const row = await findSupplierRow(ctx, id);
  const [{ n }] = (await ctx.trx('article_suppliers').where({ supplier_id: row.id }).count({ n: '*' })) as {
    n: string | number;
  }[];
  if (Number(n) > 0) throw inUse({ articles: Number(n) });
  try {
    await ctx.trx.transaction((sp) => sp('suppliers').where({ id: row.id }).delete());
  } catch (e) {
    if (isForeignKeyViolation(e)) throw new AppError('DELETE_NOT_POSSIBLE_SET_INACTIVE', 409);
    throw e;
  }
  await recordHistory(ctx, {
    entity: 'supplier',
    entityId: row.id as string,
    action: 'delete',
    data: { number: row.number, title: row.title },
  });
}

/** GET /suppliers/id/propose?length: the next free supplier number of that many digits. */
export async function proposeSupplierNumber(ctx: Ctx, raw: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, EDIT);
  return proposeNumber(ctx, 'suppliers', 'number', raw);
}
