import type { Knex } from 'knex';
import { addMonthsToFirst, startOfMonth, tenantTimeZone } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { deleteFilesOf } from '~/core/files/files.service';
import { recordHistory } from '~/core/history/history';
import { requireAccess, type Access } from '~/core/permissions/access';
import { containsPattern, uniqueViolation } from '~/core/registers/list-query';
import { applyLimit } from '~/core/work-orders/work-order-read';
import { assertClosable, assertEditable, assertReopenable, nextChange, type ChangeState } from './deviation-rules';
import {
  ZCloseDeviation,
  ZCreateDeviation,
  ZDeviationCategory,
  ZDeviationFilter,
  ZDeviationRelations,
  ZPatchDeviation,
  NONE,
  type RelationKind,
  type TDeviationFilter,
  type TDeviationRelation,
} from './deviation.schema';
import { promiseAssignmentMail, promiseRaisedMail } from './deviation-mail';

const MODULE = 'deviations' as const;

/** Spec section 6: the deviation permissions, each within the DEVIATIONS module. */
export const DEVIATION_ACCESS = {
  create: { permission: 'deviations:create', module: MODULE },
  read: { permission: 'deviations:read', module: MODULE },
  edit: { permission: 'deviations:edit', module: MODULE },
  close: { permission: 'deviations:close', module: MODULE },
  delete: { permission: 'deviations:delete', module: MODULE },
  settingsRead: { permission: 'settings:read', module: MODULE },
  settingsEdit: { permission: 'instance:edit', module: MODULE },
} as const satisfies Record<string, Access>;

/** History rows of deviations are entity 'deviation'. */
export const DEVIATION_ENTITY = 'deviation';
/** The file-owner kind of a deviation's photos and files (core/files/owners.ts). */
export const DEVIATION_FILES = 'deviation';

type Row = Record<string, unknown>;

/** Where each relation kind points, and how it is named on the deviation. */
const TARGETS: Record<RelationKind, { table: string; label: string }> = {
  work_order: { table: 'work_orders', label: `t.number || ' ' || t.title` },
  object: { table: 'business_objects', label: `t.serial_code || coalesce(' · ' || t.location, '')` },
  customer: { table: 'customers', label: 't.name' },
  project: { table: 'projects', label: `'P-' || t.number || ' ' || t.title` },
  supplier: { table: 'suppliers', label: 't.title' },
  supplier_invoice: { table: 'supplier_invoices', label: 't.invoice_number' },
  supplier_order: { table: 'supplier_orders', label: 't.order_number' },
  service_report: {
    table: 'service_reports',
    label: `(select w.number || ' ' || w.title from work_orders w where w.id = t.work_order_id)
      || coalesce(' · ' || (select tp.title from service_report_templates tp where tp.id = t.template_id), '')`,
  },
};

export interface DeviationRelation {
  kind: RelationKind;
  targetId: string;
  field: string | null;
  label: string;
  /** A service-report field's label in its template (the field itself is "pageId.fieldId"). */
  fieldLabel: string | null;
  /** The work order a service report is on (its page opens there). */
  workOrderId: string | null;
}

export interface DeviationListRow {
  id: string;
  number: number;
  title: string;
  status: 'open' | 'closed';
  categoryId: string | null;
  categoryName: string | null;
  responsibleUserId: string | null;
  responsibleName: string | null;
  dueDate: string | null;
  occurredOn: string;
  createdAt: string;
  closedAt: string | null;
  changeState: ChangeState | null;
  relationKinds: RelationKind[];
  overdue: boolean;
}

export interface Deviation extends DeviationListRow {
  description: string | null;
  shortTermSolution: string | null;
  longTermSolution: string | null;
  changeNeeded: boolean;
  approvedByName: string | null;
  approvedAt: string | null;
  closeComment: string | null;
  closedByName: string | null;
  createdByName: string | null;
  updatedAt: string;
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v == null ? null : String(v));
const day = (v: unknown) => (v == null ? null : String(v).slice(0, 10));

/** The list's columns: one statement, names joined, relation kinds from the relations' index. */
function listColumns(trx: Knex.Transaction) {
  return [
    'd.id',
    'd.number',
    'd.title',
    'd.status',
    'd.category_id',
    'c.name as category_name',
    'd.responsible_user_id',
    'ru.name as responsible_name',
    trx.raw(`to_char(d.due_date, 'YYYY-MM-DD') as due_date`),
    trx.raw(`to_char(d.occurred_on, 'YYYY-MM-DD') as occurred_on`),
    'd.created_at',
    'd.closed_at',
    'd.change_state',
    'd.relation_kinds',
  ];
}

/** Deviations (or a page of them, `from`) with their category's and responsible person's names. */
function baseQuery(trx: Knex.Transaction, from?: Knex.QueryBuilder) {
  const q: Knex.QueryBuilder = from ? trx.from(from.as('d')) : trx('deviations as d');
  return q
    .leftJoin('deviation_categories as c', 'c.id', 'd.category_id')
    .leftJoin('users as ru', 'ru.id', 'd.responsible_user_id');
}

function toListRow(r: Row, today: string): DeviationListRow {
  const dueDate = day(r.due_date);
  return {
    id: r.id as string,
    number: Number(r.number),
    title: r.title as string,
    status: r.status as 'open' | 'closed',
    categoryId: (r.category_id as string | null) ?? null,
    categoryName: (r.category_name as string | null) ?? null,
    responsibleUserId: (r.responsible_user_id as string | null) ?? null,
    responsibleName: (r.responsible_name as string | null) ?? null,
    dueDate,
    occurredOn: day(r.occurred_on)!,
    createdAt: iso(r.created_at)!,
    closedAt: iso(r.closed_at),
    changeState: (r.change_state as ChangeState | null) ?? null,
    relationKinds: (r.relation_kinds as RelationKind[] | null) ?? [],
    overdue: r.status === 'open' && dueDate !== null && dueDate < today,
  };
}

/** The filters as SQL (every one an indexed column or the relations' index). */
function applyFilter(ctx: Ctx, qb: Knex.QueryBuilder, f: TDeviationFilter, today: string): Knex.QueryBuilder {
  if (f.status !== 'all') qb.where('d.status', f.status);
  if (f.categoryId === NONE) qb.whereNull('d.category_id');
  else if (f.categoryId) qb.where('d.category_id', f.categoryId);
  if (f.responsibleUserId) qb.where('d.responsible_user_id', f.responsibleUserId);
  // the kinds are kept on the deviation (migration 0055, GIN); one record's needs the relations' index
  if (f.relationKind === NONE) qb.whereRaw(`d.relation_kinds = '{}'`);
  else if (f.relationKind && !f.relationId) qb.whereRaw('d.relation_kinds @> array[?]::text[]', [f.relationKind]);
  else if (f.relationKind)
    qb.whereExists(function () {
      this.select(ctx.trx.raw('1'))
        .from('deviation_relations as fr')
        .whereRaw('fr.deviation_id = d.id')
        .andWhere('fr.kind', f.relationKind!);
      if (f.relationId) this.andWhere('fr.target_id', f.relationId);
    });
  const zone = tenantTimeZone(ctx.tenant.config?.country);
  if (f.from) qb.whereRaw(`d.created_at >= (?::date)::timestamp at time zone ?`, [f.from, zone]);
  if (f.to) qb.whereRaw(`d.created_at < (?::date + 1)::timestamp at time zone ?`, [f.to, zone]);
  if (f.closedFrom) qb.whereRaw(`d.closed_at >= (?::date)::timestamp at time zone ?`, [f.closedFrom, zone]);
  if (f.closedTo) qb.whereRaw(`d.closed_at < (?::date + 1)::timestamp at time zone ?`, [f.closedTo, zone]);
  if (f.overdue) qb.where('d.status', 'open').where('d.due_date', '<', today);
  if (f.q) qb.whereRaw('d.search_text like ?', [containsPattern(f.q)]);
  return qb;
}

/** GET /deviations: the filtered list, newest first, a page at a time, with the total. */
export async function listDeviations(
  ctx: Ctx,
  input: unknown,
  { count = true }: { count?: boolean } = {},
): Promise<{ deviations: DeviationListRow[]; totalCount: number }> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.read);
  const f = parseInput(ZDeviationFilter, input ?? {});
  const today = tenantToday(ctx);
  // The page first, on the deviations alone (an index in created order stops at the page), then its
  // names and relation kinds for those rows only; the count on its own, only when the page is full
  // or past the end (measured at 100,000: a count over the window had to join and sort every match).
  const page = applyFilter(ctx, ctx.trx('deviations as d'), f, today)
    .select('d.*')
    .orderBy([
      { column: 'd.created_at', order: 'desc' },
      { column: 'd.id', order: 'desc' },
    ])
    .offset(f.offset)
    .limit(f.limit);
  const rows: Row[] = await baseQuery(ctx.trx, page)
    .select(listColumns(ctx.trx))
    .orderBy([
      { column: 'd.created_at', order: 'desc' },
      { column: 'd.id', order: 'desc' },
    ]);
  let totalCount = f.offset + rows.length;
  if (count && (rows.length === f.limit || (!rows.length && f.offset > 0))) {
    const c = await applyFilter(ctx, ctx.trx('deviations as d'), f, today).count<{ n: string }[]>('* as n');
    totalCount = Number(c[0]?.n ?? 0);
  }
  return { deviations: rows.map((r) => toListRow(r, today)), totalCount };
}

/** Every deviation the filter finds (the CSV and XLSX export), at most `max`. */
export async function exportableDeviations(ctx: Ctx, input: unknown, max = 10_000): Promise<DeviationListRow[]> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.read);
  const f = parseInput(ZDeviationFilter, { ...(input as object), offset: 0, limit: 1 });
  const today = tenantToday(ctx);
  const rows: Row[] = await applyFilter(ctx, baseQuery(ctx.trx), f, today)
    .select(listColumns(ctx.trx))
    .orderBy([
      { column: 'd.created_at', order: 'desc' },
      { column: 'd.id', order: 'desc' },
    ])
    .limit(max);
  return rows.map((r) => toListRow(r, today));
}

async function findDeviation(ctx: Ctx, id: unknown, forUpdate = false): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const q = ctx.trx('deviations').where({ id });
  const row: Row | undefined = await (forUpdate ? q.forUpdate() : q).first();
  if (!row) throw notFound();
  return row;
}

async function relationsOf(ctx: Ctx, deviationId: string): Promise<DeviationRelation[]> {
  const rows: Row[] = await ctx
    .trx('deviation_relations')
    .where({ deviation_id: deviationId })
    .orderBy(['kind', 'id'])
    .select('kind', 'target_id', 'field');
  return labelRelations(
    ctx,
    rows.map((r) => ({
      kind: r.kind as RelationKind,
      targetId: r.target_id as string,
      field: (r.field as string) ?? null,
    })),
  );
}

/** Names the relations' targets: one statement per kind present (at most eight). */
async function labelRelations(ctx: Ctx, rels: TDeviationRelation[]): Promise<DeviationRelation[]> {
  const kinds = [...new Set(rels.map((r) => r.kind))];
  const labels = new Map<string, { label: string; workOrderId: string | null }>();
  for (const kind of kinds) {
    const t = TARGETS[kind];
    const ids = [...new Set(rels.filter((r) => r.kind === kind).map((r) => r.targetId))];
    const rows: Row[] = await ctx.trx
      .from(`${t.table} as t`)
      .whereIn('t.id', ids)
      .select(
        't.id',
        ctx.trx.raw(`${t.label} as label`),
        ctx.trx.raw(kind === 'service_report' ? 't.work_order_id as wo' : 'null::uuid as wo'),
      );
    for (const r of rows)
      labels.set(`${kind}:${r.id}`, { label: String(r.label ?? ''), workOrderId: (r.wo as string) ?? null });
  }
  const fieldLabels = await reportFieldLabels(ctx, rels);
  return rels.map((r) => ({
    kind: r.kind,
    targetId: r.targetId,
    field: r.field ?? null,
    label: labels.get(`${r.kind}:${r.targetId}`)?.label ?? '',
    fieldLabel: r.field ? (fieldLabels.get(`${r.targetId}:${r.field}`) ?? null) : null,
    workOrderId: labels.get(`${r.kind}:${r.targetId}`)?.workOrderId ?? null,
  }));
}

/**
 * The labels of failed service-report fields ("pageId.fieldId"), read from the report's template in
 * one statement; a field the template no longer has keeps no label (the id is shown instead).
 */
async function reportFieldLabels(ctx: Ctx, rels: TDeviationRelation[]): Promise<Map<string, string>> {
  const fields = rels.filter((r) => r.kind === 'service_report' && r.field);
  if (!fields.length) return new Map();
  const { rows } = await ctx.trx.raw(
    `select x.report_id, x.field, fl->>'label' as label
       from unnest(?::uuid[], ?::text[]) as x(report_id, field)
       join service_reports s on s.id = x.report_id
       join service_report_templates tp on tp.id = s.template_id
       cross join lateral jsonb_array_elements(tp.pages) pg
       cross join lateral jsonb_array_elements(pg->'fields') fl
      where pg->>'id' = split_part(x.field, '.', 1) and fl->>'id' = split_part(x.field, '.', 2)`,
    [fields.map((r) => r.targetId), fields.map((r) => r.field!)],
  );
  return new Map((rows as Row[]).map((r) => [`${r.report_id}:${r.field}`, String(r.label ?? '')]));
}

/** GET /deviations/{id}: the deviation and its relations. */
export async function getDeviation(
  ctx: Ctx,
  id: unknown,
): Promise<{ deviation: Deviation; relations: DeviationRelation[] }> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.read);
  if (!isUuid(id)) throw notFound();
  const row: Row | undefined = await baseQuery(ctx.trx)
    .leftJoin('users as ab', 'ab.id', 'd.approved_by')
    .leftJoin('users as cb', 'cb.id', 'd.closed_by')
    .leftJoin('users as cr', 'cr.id', 'd.created_by')
    .where('d.id', id)
    .first([
      ...listColumns(ctx.trx),
      'd.description',
      'd.short_term_solution',
      'd.long_term_solution',
      'd.change_needed',
      'ab.name as approved_by_name',
      'd.approved_at',
      'd.close_comment',
      'cb.name as closed_by_name',
      'cr.name as created_by_name',
      'd.updated_at',
    ]);
  if (!row) throw notFound();
  const deviation: Deviation = {
    ...toListRow(row, tenantToday(ctx)),
    description: (row.description as string | null) ?? null,
    shortTermSolution: (row.short_term_solution as string | null) ?? null,
    longTermSolution: (row.long_term_solution as string | null) ?? null,
    changeNeeded: Boolean(row.change_needed),
    approvedByName: (row.approved_by_name as string | null) ?? null,
    approvedAt: iso(row.approved_at),
    closeComment: (row.close_comment as string | null) ?? null,
    closedByName: (row.closed_by_name as string | null) ?? null,
    createdByName: (row.created_by_name as string | null) ?? null,
    updatedAt: iso(row.updated_at)!,
  };
  return { deviation, relations: await relationsOf(ctx, id) };
}

/**
 * Relations as asked, each target checked to exist here (another tenant's id, or a work order
 * outside the asker's limit, is 404), duplicates dropped. A field only goes with a service report.
 */
async function checkedRelations(ctx: Ctx, rels: TDeviationRelation[]): Promise<TDeviationRelation[]> {
  const seen = new Set<string>();
  const out: TDeviationRelation[] = [];
  for (const r of rels) {
    const field = r.kind === 'service_report' ? (r.field ?? null) : null;
    const key = `${r.kind}:${r.targetId}:${field ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ kind: r.kind, targetId: r.targetId, field });
  }
  for (const kind of new Set(out.map((r) => r.kind))) {
    const ids = [...new Set(out.filter((r) => r.kind === kind).map((r) => r.targetId))];
    const q =
      kind === 'work_order'
        ? applyLimit(ctx, ctx.trx('work_orders as w').whereIn('w.id', ids)).select('w.id')
        : ctx.trx(TARGETS[kind].table).whereIn('id', ids).select('id');
    const found: Row[] = await q;
    if (found.length !== ids.length) throw notFound();
  }
  return out;
}

/** The only writer of a deviation's relations: they, and their kinds kept on the deviation (migration 0055). */
async function writeRelations(ctx: Ctx, deviationId: string, rels: TDeviationRelation[]): Promise<void> {
  await ctx.trx('deviation_relations').where({ deviation_id: deviationId }).delete();
  if (rels.length)
    await ctx
      .trx('deviation_relations')
      .insert(
        rels.map((r) => ({ deviation_id: deviationId, kind: r.kind, target_id: r.targetId, field: r.field ?? null })),
      );
  const kinds = [...new Set(rels.map((r) => r.kind))].sort();
  await ctx.trx('deviations').where({ id: deviationId }).update({ relation_kinds: kinds });
}

async function checkCategory(ctx: Ctx, id: string | null | undefined): Promise<void> {
  if (!id) return;
  if (!(await ctx.trx('deviation_categories').where({ id }).first('id')))
    throw new AppError('VALIDATION_FAILED', 400, { fields: { categoryId: ['ERROR_INVALID_VALUE'] } });
}

async function checkUser(ctx: Ctx, id: string | null | undefined, field: string): Promise<void> {
  if (!id) return;
  if (!(await ctx.trx('users').where({ id }).whereNot('status', 'inactive').first('id')))
    throw new AppError('VALIDATION_FAILED', 400, { fields: { [field]: ['ERROR_INVALID_VALUE'] } });
}

/** What the search finds: the number, title and description, lower-cased (a trigram index serves it). */
const searchText = (d: { number?: unknown; title: unknown; description: unknown }) =>
  `${d.number ?? ''} ${d.title ?? ''} ${d.description ?? ''}`.toLowerCase();

/** POST /deviations: raised from the list or from a record, with the relations it was raised from. */
export async function createDeviation(ctx: Ctx, input: unknown): Promise<{ id: string; number: number }> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.create);
  const d = parseInput(ZCreateDeviation, input);
  await checkCategory(ctx, d.categoryId);
  await checkUser(ctx, d.responsibleUserId, 'responsibleUserId');
  const relations = await checkedRelations(ctx, d.relations);
  const [row] = await ctx
    .trx('deviations')
    .insert({
      title: d.title,
      description: d.description,
      category_id: d.categoryId,
      occurred_on: d.occurredOn ?? tenantToday(ctx),
      responsible_user_id: d.responsibleUserId,
      due_date: d.dueDate,
      created_by: ctx.auth?.user.id ?? null,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning(['id', 'number']);
  const id = row.id as string;
  await ctx
    .trx('deviations')
    .where({ id })
    .update({ search_text: searchText({ ...d, number: row.number }) });
  await writeRelations(ctx, id, relations);
  await recordHistory(ctx, {
    entity: DEVIATION_ENTITY,
    entityId: id,
    action: 'create',
    data: {
      title: d.title,
      categoryId: d.categoryId,
      responsibleUserId: d.responsibleUserId,
      dueDate: d.dueDate,
      relations,
    },
  });
  if (d.responsibleUserId) await promiseAssignmentMail(ctx, id);
  await promiseRaisedMail(ctx, id, d.categoryId);
  return { id, number: Number(row.number) };
}

const PATCH_COLUMNS = {
  title: 'title',
  description: 'description',
  categoryId: 'category_id',
  occurredOn: 'occurred_on',
  responsibleUserId: 'responsible_user_id',
  dueDate: 'due_date',
  shortTermSolution: 'short_term_solution',
  longTermSolution: 'long_term_solution',
} as const;

/**
 * PATCH /deviations: the fields sent (left out: unchanged), the change and its state (approving
 * names who and when). History keeps each changed field's before and after.
 */
export async function patchDeviation(ctx: Ctx, input: unknown): Promise<{ ok: true }> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.edit);
  const existing = await findDeviation(ctx, (input as { id?: unknown } | null)?.id, true);
  const p = parseInput(ZPatchDeviation, input);
  assertEditable(existing.status as 'open' | 'closed');
  await checkCategory(ctx, p.categoryId);
  await checkUser(ctx, p.responsibleUserId, 'responsibleUserId');
  const update: Row = {};
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const [key, column] of Object.entries(PATCH_COLUMNS)) {
    const value = p[key as keyof typeof PATCH_COLUMNS];
    if (value === undefined) continue;
    const before = column === 'occurred_on' || column === 'due_date' ? day(existing[column]) : existing[column];
    if ((before ?? null) === (value ?? null)) continue;
    update[column] = value;
    changes[key] = { from: before ?? null, to: value ?? null };
  }
  const change = nextChange(
    {
      changeNeeded: Boolean(existing.change_needed),
      changeState: (existing.change_state as ChangeState | null) ?? null,
    },
    p.changeNeeded,
    p.changeState,
  );
  if (change.changeNeeded !== Boolean(existing.change_needed)) {
    update.change_needed = change.changeNeeded;
    changes.changeNeeded = { from: Boolean(existing.change_needed), to: change.changeNeeded };
  }
  if (change.changeState !== (existing.change_state ?? null)) {
    update.change_state = change.changeState;
    changes.changeState = { from: existing.change_state ?? null, to: change.changeState };
    if (change.changeState === 'approved') {
      update.approved_by = ctx.auth?.user.id ?? null;
      update.approved_at = ctx.now;
    }
  }
  if (!Object.keys(update).length) return { ok: true };
  if (update.title !== undefined || update.description !== undefined)
    update.search_text = searchText({
      number: existing.number,
      title: update.title ?? existing.title,
      description: update.description !== undefined ? update.description : existing.description,
    });
  // a new due date may pass again: its overdue mail is owed anew
  if (update.due_date !== undefined) update.overdue_mailed_at = null;
  update.updated_at = ctx.now;
  await ctx.trx('deviations').where({ id: existing.id }).update(update);
  await recordHistory(ctx, {
    entity: DEVIATION_ENTITY,
    entityId: existing.id as string,
    action: 'update',
    data: changes,
  });
  if (changes.responsibleUserId && update.responsible_user_id) await promiseAssignmentMail(ctx, existing.id as string);
  return { ok: true };
}

/** PUT /deviations/{id}/relations: the whole set, replacing what was there. */
export async function setDeviationRelations(ctx: Ctx, input: unknown): Promise<{ relations: DeviationRelation[] }> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.edit);
  const existing = await findDeviation(ctx, (input as { id?: unknown } | null)?.id, true);
  const p = parseInput(ZDeviationRelations, input);
  assertEditable(existing.status as 'open' | 'closed');
  const before = await ctx
    .trx('deviation_relations')
    .where({ deviation_id: existing.id })
    .select('kind', 'target_id', 'field');
  const relations = await checkedRelations(ctx, p.relations);
  await writeRelations(ctx, existing.id as string, relations);
  await ctx.trx('deviations').where({ id: existing.id }).update({ updated_at: ctx.now });
  await recordHistory(ctx, {
    entity: DEVIATION_ENTITY,
    entityId: existing.id as string,
    action: 'relations',
    data: {
      from: before.map((r: Row) => ({ kind: r.kind, targetId: r.target_id, field: r.field })),
      to: relations,
    },
  });
  return { relations: await relationsOf(ctx, existing.id as string) };
}

/** POST /deviations/{id}/close {comment}. */
export async function closeDeviation(ctx: Ctx, input: unknown): Promise<{ ok: true }> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.close);
  const existing = await findDeviation(ctx, (input as { id?: unknown } | null)?.id, true);
  const p = parseInput(ZCloseDeviation, input);
  assertClosable(
    {
      status: existing.status as 'open' | 'closed',
      changeNeeded: Boolean(existing.change_needed),
      changeState: (existing.change_state as ChangeState | null) ?? null,
    },
    p.comment,
  );
  await ctx
    .trx('deviations')
    .where({ id: existing.id })
    .update({
      status: 'closed',
      close_comment: p.comment,
      closed_at: ctx.now,
      closed_by: ctx.auth?.user.id ?? null,
      updated_at: ctx.now,
    });
  await recordHistory(ctx, {
    entity: DEVIATION_ENTITY,
    entityId: existing.id as string,
    action: 'close',
    data: { comment: p.comment },
  });
  return { ok: true };
}

/** POST /deviations/{id}/reopen: open again; the closing comment stays in the history. */
export async function reopenDeviation(ctx: Ctx, id: unknown): Promise<{ ok: true }> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.close);
  const existing = await findDeviation(ctx, id, true);
  assertReopenable(existing.status as 'open' | 'closed');
  await ctx.trx('deviations').where({ id: existing.id }).update({
    status: 'open',
    close_comment: null,
    closed_at: null,
    closed_by: null,
    updated_at: ctx.now,
  });
  await recordHistory(ctx, { entity: DEVIATION_ENTITY, entityId: existing.id as string, action: 'reopen' });
  return { ok: true };
}

/** DELETE /deviations/{id}: only with deviations:delete; its files go with it. */
export async function deleteDeviation(ctx: Ctx, id: unknown): Promise<{ ok: true }> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.delete);
  const existing = await findDeviation(ctx, id, true);
  await ctx.trx('deviations').where({ id: existing.id }).delete();
  await deleteFilesOf(ctx, DEVIATION_FILES, [existing.id as string]);
  await recordHistory(ctx, {
    entity: DEVIATION_ENTITY,
    entityId: existing.id as string,
    action: 'delete',
    data: { number: existing.number, title: existing.title },
  });
  return { ok: true };
}

export interface DeviationHistoryRow {
  action: string;
  at: string;
  userName: string | null;
  data: unknown;
}

/** The deviation's history, newest first (every change above wrote one row). */
export async function deviationHistory(ctx: Ctx, id: unknown): Promise<DeviationHistoryRow[]> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.read);
  await findDeviation(ctx, id);
  const rows: Row[] = await ctx
    .trx('history as h')
    .leftJoin('users as u', 'u.id', 'h.user_id')
    .where({ 'h.entity': DEVIATION_ENTITY, 'h.entity_id': id as string })
    .orderBy([
      { column: 'h.at', order: 'desc' },
      { column: 'h.id', order: 'desc' },
    ])
    .limit(200)
    .select('h.action', 'h.at', 'u.name as user_name', 'h.data');
  return rows.map((r) => ({
    action: r.action as string,
    at: iso(r.at)!,
    userName: (r.user_name as string) ?? null,
    data: r.data,
  }));
}

// ---- where it was raised from ----

/**
 * The relations a deviation raised from a record starts with: the record and what it belongs to
 * (a work order's customer, object and project; an object's customer; a supplier invoice's or
 * order's supplier; a failed service-report field's order, object and customer). Another tenant's
 * id is not found.
 */
export async function relationsFrom(
  ctx: Ctx,
  from: { kind: RelationKind; id: string; field?: string | null },
): Promise<DeviationRelation[]> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.create);
  if (!isUuid(from.id)) throw notFound();
  const rels: TDeviationRelation[] = [{ kind: from.kind, targetId: from.id, field: from.field ?? null }];
  const add = (kind: RelationKind, id: unknown) => {
    if (typeof id === 'string') rels.push({ kind, targetId: id, field: null });
  };
  const one = async (table: string, columns: string[]) => {
    const row: Row | undefined = await ctx.trx(table).where({ id: from.id }).first(columns);
    if (!row) throw notFound();
    return row;
  };
  if (from.kind === 'work_order' || from.kind === 'service_report') {
    // the order's object (the report's own, for a per-door report) and its customer: the order's,
    // else the report's, else the object's (an order at an object need not name the customer)
    const q =
      from.kind === 'work_order'
        ? ctx
            .trx('work_orders as w')
            .where('w.id', from.id)
            .select(ctx.trx.raw('null::uuid as report_object, null::uuid as report_customer'))
        : ctx
            .trx('service_reports as s')
            .join('work_orders as w', 'w.id', 's.work_order_id')
            .where('s.id', from.id)
            .select('s.business_object_id as report_object', 's.customer_id as report_customer');
    const wo: Row | undefined = await q
      .leftJoin(
        'business_objects as bo',
        'bo.id',
        ctx.trx.raw('coalesce(??, w.business_object_id)', [
          from.kind === 'work_order' ? 'w.business_object_id' : 's.business_object_id',
        ]),
      )
      .first('w.id', 'w.customer_id', 'w.project_id', 'bo.id as object_id', 'bo.customer_id as object_customer');
    if (!wo) throw notFound();
    if (from.kind === 'service_report') add('work_order', wo.id);
    add('object', wo.object_id);
    add('customer', wo.customer_id ?? wo.report_customer ?? wo.object_customer);
    add('project', wo.project_id);
  } else if (from.kind === 'object') add('customer', (await one('business_objects', ['customer_id'])).customer_id);
  else if (from.kind === 'project') add('customer', (await one('projects', ['customer_id'])).customer_id);
  else if (from.kind === 'supplier_invoice') {
    const si = await one('supplier_invoices', ['supplier_id', 'work_order_id', 'project_id']);
    add('supplier', si.supplier_id);
    add('work_order', si.work_order_id);
    add('project', si.project_id);
  } else if (from.kind === 'supplier_order') {
    const so = await one('supplier_orders', ['supplier_id', 'work_order_id']);
    add('supplier', so.supplier_id);
    add('work_order', so.work_order_id);
  } else await one(TARGETS[from.kind].table, ['id']);
  return labelRelations(ctx, await checkedRelations(ctx, rels));
}

/** A record page's open deviations (object, customer, work order, project): newest first, at most 20. */
export async function openDeviationsOf(
  ctx: Ctx,
  kind: RelationKind,
  id: string,
): Promise<{ deviations: DeviationListRow[]; totalCount: number }> {
  return listDeviations(ctx, { status: 'open', relationKind: kind, relationId: id, limit: 20 });
}

// ---- the dashboard ----

export interface DeviationStats {
  openCount: number;
  overdueCount: number;
  byCategory: { categoryId: string | null; name: string | null; count: number }[];
  byRelation: { kind: RelationKind | null; count: number }[];
  latest: DeviationListRow[];
  overdue: DeviationListRow[];
  /** The last 12 months, oldest first: deviations raised and closed in each (tenant's calendar). */
  trend: { month: string; opened: number; closed: number }[];
}

/** GET /deviations/stats/category: open deviations by category (none: categoryId null). */
export async function statsByCategory(ctx: Ctx): Promise<DeviationStats['byCategory']> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.read);
  const rows: Row[] = await ctx
    .trx('deviations as d')
    .leftJoin('deviation_categories as c', 'c.id', 'd.category_id')
    .where('d.status', 'open')
    .groupBy('d.category_id', 'c.name')
    .orderByRaw('count(*) desc, c.name nulls last')
    .select('d.category_id', 'c.name', ctx.trx.raw('count(*)::int as n'));
  return rows.map((r) => ({
    categoryId: (r.category_id as string) ?? null,
    name: (r.name as string) ?? null,
    count: Number(r.n),
  }));
}

/** GET /deviations/stats/relation: open deviations by what they are about (none: kind null). */
export async function statsByRelation(ctx: Ctx): Promise<DeviationStats['byRelation']> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.read);
  // the open ones grouped by their kinds first (a few combinations, read from deviations_open_due_idx),
  // then each combination counted under each of its kinds
  const { rows } = await ctx.trx.raw(`
    select k.kind, sum(g.n)::int as n
      from (select relation_kinds, count(*) as n from deviations where status = 'open' group by relation_kinds) g
      cross join lateral unnest(case when g.relation_kinds = '{}' then array[null]::text[] else g.relation_kinds end) k(kind)
     group by k.kind
     order by n desc, k.kind nulls last`);
  return (rows as Row[]).map((r) => ({ kind: (r.kind as RelationKind) ?? null, count: Number(r.n) }));
}

/** GET /deviations/stats/latest: the ten raised last. */
export async function statsLatest(ctx: Ctx): Promise<DeviationListRow[]> {
  return (await listDeviations(ctx, { status: 'all', limit: 10 }, { count: false })).deviations;
}

/** The dashboard: counts, charts and the two short lists, in a bounded number of statements. */
export async function deviationStats(ctx: Ctx): Promise<DeviationStats> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.read);
  const today = tenantToday(ctx);
  const zone = tenantTimeZone(ctx.tenant.config?.country);
  const first = addMonthsToFirst(startOfMonth(today), -11);
  const [counts] = (
    await ctx.trx.raw(
      `select count(*) filter (where status = 'open')::int as open,
              count(*) filter (where status = 'open' and due_date < ?::date)::int as overdue
         from deviations where status = 'open'`,
      [today],
    )
  ).rows as Row[];
  // each month's raised and closed as two counts over a range of their indexes (index-only): cheaper
  // than truncating every row's time to its month in the tenant's zone and grouping them
  const trendRows = (
    await ctx.trx.raw(
      `select to_char(m, 'YYYY-MM') as month,
              (select count(*) from deviations
                where created_at >= m at time zone ? and created_at < (m + interval '1 month') at time zone ?)::int as opened,
              (select count(*) from deviations
                where closed_at >= m at time zone ? and closed_at < (m + interval '1 month') at time zone ?)::int as closed
         from generate_series(?::timestamp, ?::timestamp + interval '11 months', interval '1 month') m`,
      [zone, zone, zone, zone, first, first],
    )
  ).rows as Row[];
  const byMonth = new Map(trendRows.map((r) => [r.month as string, r]));
  const months = Array.from({ length: 12 }, (_, i) => addMonthsToFirst(first, i).slice(0, 7));
  return {
    openCount: Number(counts?.open ?? 0),
    overdueCount: Number(counts?.overdue ?? 0),
    byCategory: await statsByCategory(ctx),
    byRelation: await statsByRelation(ctx),
    latest: await statsLatest(ctx),
    // the short lists need no count (the counts above are the figures): counting every deviation
    // for the latest ten was most of the dashboard's time at 100,000
    overdue: (await listDeviations(ctx, { status: 'open', overdue: true, limit: 10 }, { count: false })).deviations,
    trend: months.map((month) => ({
      month,
      opened: Number(byMonth.get(month)?.opened ?? 0),
      closed: Number(byMonth.get(month)?.closed ?? 0),
    })),
  };
}

// ---- settings: categories ----

export interface DeviationCategory {
  id: string;
  name: string;
  notifyUserIds: string[];
}

/** The tenant's categories, by name (for the forms, to whoever may read deviations). */
export async function listDeviationCategories(ctx: Ctx): Promise<DeviationCategory[]> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.read);
  const rows: Row[] = await ctx
    .trx('deviation_categories')
    .orderByRaw('lower(name)')
    .select('id', 'name', 'notify_user_ids');
  return rows.map((r) => ({
    id: r.id as string,
    name: r.name as string,
    notifyUserIds: (r.notify_user_ids as string[]) ?? [],
  }));
}

/** Settings → deviations: a new category, or one renamed; its name is unique regardless of case. */
export async function saveDeviationCategory(ctx: Ctx, input: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.settingsEdit);
  const c = parseInput(ZDeviationCategory, input);
  const users = [...new Set(c.notifyUserIds)];
  if (users.length) {
    const found = await ctx.trx('users').whereIn('id', users).select('id');
    if (found.length !== users.length)
      throw new AppError('VALIDATION_FAILED', 400, { fields: { notifyUserIds: ['ERROR_INVALID_VALUE'] } });
  }
  try {
    if (c.id) {
      const n = await ctx
        .trx('deviation_categories')
        .where({ id: c.id })
        .update({ name: c.name, notify_user_ids: users });
      if (!n) throw notFound();
      await recordHistory(ctx, {
        entity: 'deviation_category',
        entityId: c.id,
        action: 'update',
        data: { name: c.name, notifyUserIds: users },
      });
      return { id: c.id };
    }
    const [row] = await ctx
      .trx('deviation_categories')
      .insert({ name: c.name, notify_user_ids: users })
      .returning('id');
    await recordHistory(ctx, {
      entity: 'deviation_category',
      entityId: row.id,
      action: 'create',
      data: { name: c.name, notifyUserIds: users },
    });
    return { id: row.id as string };
  } catch (e) {
    if (uniqueViolation(e) === 'deviation_categories_name_idx')
      throw new AppError('DEVIATION_CATEGORY_DUPLICATE', 409, { fields: { name: ['DEVIATION_CATEGORY_DUPLICATE'] } });
    throw e;
  }
}

/** Removes a category no deviation uses (one in use is 409 DEVIATION_CATEGORY_IN_USE). */
export async function deleteDeviationCategory(ctx: Ctx, id: unknown): Promise<{ ok: true }> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.settingsEdit);
  if (!isUuid(id)) throw notFound();
  const row = await ctx.trx('deviation_categories').where({ id }).first('id', 'name');
  if (!row) throw notFound();
  if (await ctx.trx('deviations').where({ category_id: id }).first('id'))
    throw new AppError('DEVIATION_CATEGORY_IN_USE', 409);
  await ctx.trx('deviation_categories').where({ id }).delete();
  await recordHistory(ctx, { entity: 'deviation_category', entityId: id, action: 'delete', data: { name: row.name } });
  return { ok: true };
}

/** The people a deviation can be given to (active users, by name). */
export async function deviationAssignees(ctx: Ctx): Promise<{ id: string; name: string }[]> {
  requireAccess(ctx.auth, DEVIATION_ACCESS.read);
  const rows: Row[] = await ctx
    .trx('users')
    .where('status', 'active')
    .orderByRaw('lower(name)')
    .limit(500)
    .select('id', 'name');
  return rows.map((r) => ({ id: r.id as string, name: r.name as string }));
}
