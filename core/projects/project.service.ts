import type { Knex } from 'knex';
import { tenantToday } from '~/core/calendar/tenant-today';
import type { Ctx } from '~/core/context';
import { ACTIVE_USERS_WHERE, namedOptionsSql } from '~/core/db/json-options';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { formatDecimal } from '~/core/pricing/decimal';
import { containsPattern, isForeignKeyViolation } from '~/core/registers/list-query';
import {
  findProject,
  lockOngoingProject,
  lockProject,
  PROJECT_ACCESS,
  PROJECT_ENTITY,
  type ProjectStatus,
} from './project-access';
import {
  readProjectFigures,
  type ProjectFigures,
  type ProjectInvoicingTotals as ProjectInvoiceTotals,
} from './project-figures';
import { projectPeriodRange } from './project-period';
import { checkRegion, listRegion } from '~/core/regions/region.service';
import {
  ZCreateProject,
  ZProjectConf,
  ZProjectLink,
  ZProjectList,
  ZProjectSearch,
  ZProjectSettings,
  ZUpdateProject,
  type TCreateProject,
} from './project.schema';

/**
 * Projects (issue 18; spec sections 2–9): installations that run for months with many work
 * orders, a fixed contract sum invoiced in parts, extra work the customer approves, and people
 * planned weeks ahead. This file is the project itself — the list, the screen's general info,
 * its customers, suppliers and objects, its work orders, close and reopen, delete and the
 * settings; invoicing, costs, activities, extra-work links and resources have services beside it.
 */

type Row = Record<string, unknown>;

export interface ProjectListItem {
  id: string;
  number: number;
  title: string;
  name: string | null;
  status: ProjectStatus;
  startDate: string | null;
  endDate: string | null;
  responsibleUserId: string | null;
  responsibleUserName: string | null;
  region: string | null;
  customerName: string | null;
  contractSum: string;
  invoiced: string;
  leftToInvoice: string;
  openWorkOrders: number;
  workOrders: number;
  pendingExtraWork: number;
}

export interface ProjectParty {
  id: string;
  number: string | null;
  name: string;
  /** A customer's invoice e-mail, else its e-mail (the extra-work link goes there by default). */
  email?: string | null;
}

export interface Project extends ProjectListItem {
  description: string | null;
  salesUserId: string | null;
  salesUserName: string | null;
  estimatedHours: string | null;
  estimatedCost: string | null;
  externalUrl: string | null;
  hourlyPrice: string | null;
  hourlyCost: string | null;
  invoiceCustomerId: string | null;
  closedAt: string | null;
  version: number;
  createdAt: string;
  customers: ProjectParty[];
  suppliers: ProjectParty[];
  businessObjects: ProjectParty[];
  totals: ProjectInvoiceTotals;
  /** Hours reported on its work orders, work and travel (figures.hours.total). */
  hours: string;
  /** Its hours, cost, income and invoicing: the same figures every tab shows (project-figures.ts). */
  figures: ProjectFigures;
}

const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
const money = (v: unknown) => (v === null || v === undefined ? null : formatDecimal(String(v)));

const ZERO_TOTALS: ProjectInvoiceTotals = {
  contractSum: '0.00',
  invoiced: '0.00',
  leftToInvoice: '0.00',
  backlog: '0.00',
  contractLeft: '0.00',
  contractUnplanned: '0.00',
  pendingExtraWork: '0.00',
  draftCount: 0,
};

/**
 * The projects with their people, first customer and work-order counts in one statement: the
 * counts are a lateral aggregate over the orders' project index, never a query per project.
 */
function projectQuery(ctx: Ctx) {
  return ctx
    .trx('projects as p')
    .leftJoin('users as ru', 'ru.id', 'p.responsible_user_id')
    .leftJoin('users as su', 'su.id', 'p.sales_user_id')
    .joinRaw(
      `left join lateral (
         select c.name from project_customers pc join customers c on c.id = pc.customer_id
          where pc.project_id = p.id order by pc.sort_order, c.name limit 1) fc on true`,
    )
    .joinRaw(
      `left join lateral (
         select count(*)::int as work_orders,
                count(*) filter (where w.closed_at is null)::int as open_work_orders,
                count(*) filter (where w.project_extra_status = 'pending')::int as pending_extra
           from work_orders w where w.project_id = p.id and w.deleted_at is null) wc on true`,
    )
    .select(
      'p.*',
      ctx.trx.raw(`to_char(p.start_date, 'YYYY-MM-DD') as start_date_text`),
      ctx.trx.raw(`to_char(p.end_date, 'YYYY-MM-DD') as end_date_text`),
      'ru.name as responsible_user_name',
      'su.name as sales_user_name',
      'fc.name as customer_name',
      'wc.work_orders',
      'wc.open_work_orders',
      'wc.pending_extra',
    );
}

function toListItem(r: Row, totals: ProjectInvoiceTotals | undefined): ProjectListItem {
  const t = totals ?? { ...ZERO_TOTALS, contractSum: formatDecimal(String(r.contract_sum)) };
  return {
    id: r.id as string,
    number: Number(r.number),
    title: r.title as string,
    name: str(r.name),
    status: r.status as ProjectStatus,
    startDate: str(r.start_date_text),
    endDate: str(r.end_date_text),
    responsibleUserId: str(r.responsible_user_id),
    responsibleUserName: str(r.responsible_user_name),
    region: str(r.region),
    customerName: str(r.customer_name),
    contractSum: formatDecimal(String(r.contract_sum)),
    invoiced: t.invoiced,
    leftToInvoice: t.leftToInvoice,
    openWorkOrders: Number(r.open_work_orders ?? 0),
    workOrders: Number(r.work_orders ?? 0),
    pendingExtraWork: Number(r.pending_extra ?? 0),
  };
}

/**
 * GET /projects, /projects/ongoing, /projects/closed: a page of projects by the list state of
 * spec section 3 — ongoing or closed, a region, a responsible user, a search over number, title,
 * name, region and customers (trigram indexes), the period holding `date` (quarter by default;
 * a project is in it when its dates overlap it), sorted by number, time (start date) or
 * responsible user. With "invoiced" and "left to invoice" for the page in one grouped query.
 */
export async function listProjects(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{
  projects: ProjectListItem[];
  totalCount: number;
  period: { from: string; to: string } | null;
  /** The region the list is filtered by: the one asked for, or the session's (decision 067). */
  region: string | null;
}> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const f = parseInput(ZProjectList, raw);
  const region = listRegion(ctx.auth, f.activeRegion);
  const range = projectPeriodRange(f.period, f.date ?? tenantToday(ctx));
  const filter = (q: Knex.QueryBuilder) => {
    void q.where('p.status', f.activeType);
    if (region) void q.whereRaw('lower(p.region) = lower(?)', [region]);
    if (f.responsibleUserId) void q.where('p.responsible_user_id', f.responsibleUserId);
    if (range)
      void q
        .where((w) => w.whereNull('p.start_date').orWhere('p.start_date', '<=', range.to))
        .where((w) => w.whereNull('p.end_date').orWhere('p.end_date', '>=', range.from));
    if (f.searchValue) {
      const pattern = containsPattern(f.searchValue);
      void q.where((w) =>
        w
          .whereRaw('p.search_text like ?', [pattern])
          .orWhereIn(
            'p.id',
            ctx
              .trx('project_customers as pc')
              .join('customers as c', 'c.id', 'pc.customer_id')
              .whereRaw('c.search_text like ?', [pattern])
              .select('pc.project_id'),
          ),
      );
    }
    return q;
  };
  const [{ n }] = (await filter(ctx.trx('projects as p')).count({ n: '*' })) as { n: string | number }[];
  const dir = f.desc ? 'desc' : 'asc';
  const order =
    f.sort === 'time'
      ? `p.start_date ${dir} nulls last, p.number ${dir}`
      : f.sort === 'responsibleuser'
        ? `lower(ru.name) ${dir} nulls last, p.number`
        : `p.number ${dir}`;
  const rows = (await filter(projectQuery(ctx)).orderByRaw(order).limit(f.limit).offset(f.offset)) as Row[];
  const figures = await readProjectFigures(
    ctx,
    rows.map((r) => r.id as string),
  );
  return {
    projects: rows.map((r) => toListItem(r, figures.get(r.id as string)?.invoicing)),
    totalCount: Number(n),
    period: range,
    region,
  };
}

/** The regions projects use, for the list's filter (the register's names, since migration 0070). */
export async function listProjectRegions(ctx: Ctx): Promise<string[]> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const rows = (await ctx.trx('projects').whereNotNull('region').distinct(ctx.trx.raw('region')).orderBy('region')) as {
    region: string;
  }[];
  return rows.map((r) => r.region);
}

/** GET /projects/q?q: up to 20 projects whose number, title, name or region matches, ongoing first. */
export async function searchProjects(ctx: Ctx, raw: unknown): Promise<{ projects: ProjectParty[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const q = parseInput(ZProjectSearch, raw).q ?? '';
  const query = ctx.trx('projects as p').select('p.id', 'p.number', 'p.title', 'p.status');
  if (q) void query.whereRaw('p.search_text like ?', [containsPattern(q)]);
  const rows = (await query.orderByRaw(`p.status = 'ongoing' desc, p.number desc`).limit(20)) as Row[];
  return { projects: rows.map((r) => ({ id: r.id as string, number: String(r.number), name: r.title as string })) };
}

/** GET /projects/month/{year}/{month}: the projects whose dates overlap that month (the calendar). */
export async function projectsOfMonth(
  ctx: Ctx,
  year: unknown,
  month: unknown,
): Promise<{ projects: ProjectListItem[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const y = Number(year);
  const m = Number(month);
  if (!Number.isInteger(y) || y < 1900 || y > 2999 || !Number.isInteger(m) || m < 1 || m > 12)
    throw new AppError('ERROR_INVALID_VALUE', 400);
  const range = projectPeriodRange('month', `${y}-${String(m).padStart(2, '0')}-01`)!;
  const rows = (await projectQuery(ctx)
    .whereNotNull('p.start_date')
    .where('p.start_date', '<=', range.to)
    .where((w) => w.whereNull('p.end_date').orWhere('p.end_date', '>=', range.from))
    .orderBy('p.start_date')
    .limit(500)) as Row[];
  const figures = await readProjectFigures(
    ctx,
    rows.map((r) => r.id as string),
  );
  return { projects: rows.map((r) => toListItem(r, figures.get(r.id as string)?.invoicing)) };
}

async function parties(ctx: Ctx, id: string) {
  const customers = (await ctx
    .trx('project_customers as pc')
    .join('customers as c', 'c.id', 'pc.customer_id')
    .where('pc.project_id', id)
    .orderBy([{ column: 'pc.sort_order' }, { column: 'c.name' }])
    .select(
      'c.id',
      'c.customer_id as number',
      'c.name',
      ctx.trx.raw('coalesce(c.invoice_email, c.email) as email'),
    )) as Row[];
  const suppliers = (await ctx
    .trx('project_suppliers as ps')
    .join('suppliers as s', 's.id', 'ps.supplier_id')
    .where('ps.project_id', id)
    .orderBy('s.title')
    .select('s.id', 's.number', 's.title as name')) as Row[];
  const bos = (await ctx
    .trx('project_business_objects as pb')
    .join('business_objects as b', 'b.id', 'pb.business_object_id')
    .where('pb.project_id', id)
    .orderBy('b.serial_code')
    .select(
      'b.id',
      'b.serial_code as number',
      ctx.trx.raw("coalesce(b.location, b.description, '') as name"),
    )) as Row[];
  const party = (r: Row): ProjectParty => ({ id: r.id as string, number: str(r.number), name: String(r.name ?? '') });
  return {
    customers: customers.map((r) => ({ ...party(r), email: str(r.email) })),
    suppliers: suppliers.map(party),
    businessObjects: bos.map(party),
  };
}

/** The whole project as the screen shows it, or null. */
export async function readProject(ctx: Ctx, id: string): Promise<Project | null> {
  const r = (await projectQuery(ctx).where('p.id', id).first()) as Row | undefined;
  if (!r) return null;
  const figures = (await readProjectFigures(ctx, [id])).get(id)!;
  const item = toListItem(r, figures.invoicing);
  return {
    ...item,
    description: str(r.description),
    salesUserId: str(r.sales_user_id),
    salesUserName: str(r.sales_user_name),
    estimatedHours: r.estimated_hours === null ? null : formatDecimal(String(r.estimated_hours)),
    estimatedCost: money(r.estimated_cost),
    externalUrl: str(r.external_url),
    hourlyPrice: money(r.hourly_price),
    hourlyCost: money(r.hourly_cost),
    invoiceCustomerId: str(r.invoice_customer_id),
    closedAt: iso(r.closed_at),
    version: Number(r.version),
    createdAt: iso(r.created_at)!,
    ...(await parties(ctx, id)),
    totals: figures.invoicing,
    hours: figures.hours.total,
    figures,
  };
}

/** GET /projects/{id}: the project with its parties, counts and invoicing totals. */
export async function getProject(ctx: Ctx, id: unknown): Promise<{ project: Project }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  if (!isUuid(id)) throw notFound();
  const project = await readProject(ctx, id);
  if (!project) throw notFound();
  return { project };
}

/** The users, customers, suppliers and objects a project names exist here (another tenant's: 404). */
async function checkReferences(
  ctx: Ctx,
  input: { responsibleUserId?: string | null; salesUserId?: string | null },
  links: { customerIds?: string[]; supplierIds?: string[]; businessObjectIds?: string[] } = {},
) {
  const users = [input.responsibleUserId, input.salesUserId].filter((u): u is string => !!u);
  const count = async (table: string, ids: string[]) =>
    ids.length === 0
      ? 0
      : Number(
          (
            (await ctx
              .trx(table)
              .whereIn('id', [...new Set(ids)])
              .count({ n: '*' })) as { n: string }[]
          )[0]!.n,
        );
  if ((await count('users', users)) !== new Set(users).size) throw notFound();
  for (const [table, ids] of [
    ['customers', links.customerIds ?? []],
    ['suppliers', links.supplierIds ?? []],
    ['business_objects', links.businessObjectIds ?? []],
  ] as const)
    if ((await count(table, ids)) !== new Set(ids).size) throw notFound();
}

const projectColumns = (p: Omit<TCreateProject, 'customerIds' | 'supplierIds' | 'businessObjectIds'>) => ({
  title: p.title,
  name: p.name,
  description: p.description,
  start_date: p.startDate,
  end_date: p.endDate,
  responsible_user_id: p.responsibleUserId,
  sales_user_id: p.salesUserId,
  region: p.region,
  estimated_hours: p.estimatedHours,
  estimated_cost: p.estimatedCost,
  contract_sum: p.contractSum,
  external_url: p.externalUrl,
});

/**
 * POST /projects {project}: a new ongoing project with the next number (the settings' counter
 * under its row lock, so two creators never share one), its responsible user the asker when left
 * out, and its customers, suppliers and objects.
 */
export async function createProject(ctx: Ctx, raw: unknown): Promise<{ project: Project }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const { project: input } = parseInput(ZCreateProject, raw);
  // left out: the asker; sent empty ("nobody"): none
  const sent = (raw as { project?: Record<string, unknown> } | null)?.project ?? {};
  const responsibleUserId = 'responsibleUserId' in sent ? input.responsibleUserId : ctx.auth.user.id;
  await checkReferences(ctx, { ...input, responsibleUserId }, input);
  const region = (await checkRegion(ctx.trx, input.region, null, 'project.region')) ?? null;
  const counter = (await ctx.trx.raw(
    `update project_settings set next_number = next_number + 1 returning next_number - 1 as n`,
  )) as { rows: { n: number }[] };
  const number = Number(counter.rows[0]!.n);
  const [row] = (await ctx
    .trx('projects')
    .insert({
      ...projectColumns({ ...input, responsibleUserId, region }),
      number,
      create_user_id: ctx.auth.user.id,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning('id')) as { id: string }[];
  const id = row!.id;
  const unique = (ids: string[]) => [...new Set(ids)];
  if (input.customerIds.length)
    await ctx
      .trx('project_customers')
      .insert(unique(input.customerIds).map((c, i) => ({ project_id: id, customer_id: c, sort_order: i })));
  if (input.supplierIds.length)
    await ctx
      .trx('project_suppliers')
      .insert(unique(input.supplierIds).map((s) => ({ project_id: id, supplier_id: s })));
  if (input.businessObjectIds.length)
    await ctx
      .trx('project_business_objects')
      .insert(unique(input.businessObjectIds).map((b) => ({ project_id: id, business_object_id: b })));
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: id,
    action: 'create',
    data: { number, title: input.title },
  });
  return { project: (await readProject(ctx, id))! };
}

/**
 * PUT /projects {project}: the general info of an ongoing project, naming the version it edited:
 * 409 PROJECT_CHANGED when saved since, 409 PROJECT_CLOSED once closed.
 */
export async function updateProject(ctx: Ctx, raw: unknown): Promise<{ project: Project }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const { project: input } = parseInput(ZUpdateProject, raw);
  const locked = await lockOngoingProject(ctx, input.id);
  if (locked.version !== input.version) throw new AppError('PROJECT_CHANGED', 409);
  await checkReferences(ctx, input);
  const region = (await checkRegion(ctx.trx, input.region, locked.region, 'project.region')) ?? null;
  await ctx
    .trx('projects')
    .where({ id: input.id })
    .update({ ...projectColumns({ ...input, region }), version: locked.version + 1, updated_at: ctx.now });
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: input.id,
    action: 'edit',
    data: { title: input.title },
  });
  return { project: (await readProject(ctx, input.id))! };
}

/** PUT /projects/{id}/conf: the project's hourly price and cost and the customer it invoices (one of its customers). */
export async function updateProjectConf(ctx: Ctx, id: unknown, raw: unknown): Promise<{ project: Project }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const conf = parseInput(ZProjectConf, raw);
  const locked = await lockOngoingProject(ctx, id);
  if (
    conf.invoiceCustomerId &&
    !(await ctx
      .trx('project_customers')
      .where({ project_id: locked.id, customer_id: conf.invoiceCustomerId })
      .first('customer_id'))
  )
    throw notFound();
  await ctx
    .trx('projects')
    .where({ id: locked.id })
    .update({
      hourly_price: conf.hourlyPrice,
      hourly_cost: conf.hourlyCost,
      invoice_customer_id: conf.invoiceCustomerId,
      version: locked.version + 1,
      updated_at: ctx.now,
    });
  await recordHistory(ctx, { entity: PROJECT_ENTITY, entityId: locked.id, action: 'conf', data: conf });
  return { project: (await readProject(ctx, locked.id))! };
}

/**
 * POST /projects/{id}/close (projects:edit): closed from now. Refused while it has open work
 * orders (spec section 8: 409 PROJECT_HAS_OPEN_WORK_ORDERS) or when it is closed already.
 */
export async function closeProject(ctx: Ctx, id: unknown): Promise<{ project: Project }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const locked = await lockOngoingProject(ctx, id);
  const open = await ctx
    .trx('work_orders')
    .where({ project_id: locked.id })
    .whereNull('closed_at')
    .whereNull('deleted_at')
    .first('id');
  if (open) throw new AppError('PROJECT_HAS_OPEN_WORK_ORDERS', 409);
  await ctx
    .trx('projects')
    .where({ id: locked.id })
    .update({
      status: 'closed',
      closed_at: ctx.now,
      close_user_id: ctx.auth.user.id,
      version: locked.version + 1,
      updated_at: ctx.now,
    });
  await recordHistory(ctx, { entity: PROJECT_ENTITY, entityId: locked.id, action: 'close' });
  return { project: (await readProject(ctx, locked.id))! };
}

/** POST /projects/{id}/reopen (projects:reopen): ongoing again; 409 PROJECT_NOT_CLOSED if it is. */
export async function reopenProject(ctx: Ctx, id: unknown): Promise<{ project: Project }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.reopen);
  const locked = await lockProject(ctx, id);
  if (locked.status !== 'closed') throw new AppError('PROJECT_NOT_CLOSED', 409);
  await ctx
    .trx('projects')
    .where({ id: locked.id })
    .update({
      status: 'ongoing',
      closed_at: null,
      close_user_id: null,
      version: locked.version + 1,
      updated_at: ctx.now,
    });
  await recordHistory(ctx, { entity: PROJECT_ENTITY, entityId: locked.id, action: 'reopen' });
  return { project: (await readProject(ctx, locked.id))! };
}

/**
 * DELETE /projects/{id} (projects:delete): the project with its links, activities, plans and
 * snapshots. Refused while work orders or invoices belong to it (409 PROJECT_IN_USE): move or
 * delete those first, so nothing invoiced loses its project.
 */
export async function deleteProject(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, PROJECT_ACCESS.delete);
  const locked = await lockProject(ctx, id);
  const orders = await ctx.trx('work_orders').where({ project_id: locked.id }).first('id');
  const invoices = await ctx.trx('invoices').where({ project_id: locked.id }).first('id');
  if (orders || invoices) throw new AppError('PROJECT_IN_USE', 409);
  await ctx
    .trx('projects')
    .where({ id: locked.id })
    .delete()
    .catch((e: unknown) => {
      if (isForeignKeyViolation(e)) throw new AppError('PROJECT_IN_USE', 409);
      throw e;
    });
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: locked.id,
    action: 'delete',
    data: { number: locked.number, title: locked.title },
  });
}

const LINKS = {
  customers: { table: 'project_customers', column: 'customer_id', target: 'customers', field: 'customerId' },
  suppliers: { table: 'project_suppliers', column: 'supplier_id', target: 'suppliers', field: 'supplierId' },
  bos: {
    table: 'project_business_objects',
    column: 'business_object_id',
    target: 'business_objects',
    field: 'businessObjectId',
  },
} as const;
export type ProjectLinkKind = keyof typeof LINKS;

function linkTarget(kind: ProjectLinkKind, raw: unknown): string {
  const input = parseInput(ZProjectLink, raw);
  const value = kind === 'bos' ? (input.businessObjectId ?? input.boId) : input[LINKS[kind].field];
  if (!value) throw new AppError('ERROR_REQUIRED_FIELD', 400);
  return value;
}

/** POST /projects/{id}/customers|suppliers|bos: adds one (already there: unchanged). */
export async function addProjectLink(
  ctx: Ctx,
  id: unknown,
  kind: ProjectLinkKind,
  raw: unknown,
): Promise<{ project: Project }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const target = linkTarget(kind, raw);
  const locked = await lockOngoingProject(ctx, id);
  const link = LINKS[kind];
  if (!(await ctx.trx(link.target).where({ id: target }).first('id'))) throw notFound();
  const row: Row = { project_id: locked.id, [link.column]: target };
  if (kind === 'customers') {
    const [{ n }] = (await ctx.trx('project_customers').where({ project_id: locked.id }).max({ n: 'sort_order' })) as {
      n: number | null;
    }[];
    row.sort_order = (n ?? -1) + 1;
  }
  await ctx.trx(link.table).insert(row).onConflict(['project_id', link.column]).ignore();
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: locked.id,
    action: `add_${kind}`,
    data: { id: target },
  });
  return { project: (await readProject(ctx, locked.id))! };
}

/** DELETE /projects/{id}/customers|suppliers|bos: takes one off (not there: 404). */
export async function removeProjectLink(
  ctx: Ctx,
  id: unknown,
  kind: ProjectLinkKind,
  raw: unknown,
): Promise<{ project: Project }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const target = linkTarget(kind, raw);
  const locked = await lockOngoingProject(ctx, id);
  const link = LINKS[kind];
  const n = await ctx
    .trx(link.table)
    .where({ project_id: locked.id, [link.column]: target })
    .delete();
  if (!n) throw notFound();
  if (kind === 'customers')
    await ctx
      .trx('projects')
      .where({ id: locked.id, invoice_customer_id: target })
      .update({ invoice_customer_id: null });
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: locked.id,
    action: `remove_${kind}`,
    data: { id: target },
  });
  return { project: (await readProject(ctx, locked.id))! };
}

export interface ProjectWorkOrder {
  id: string;
  number: string;
  title: string;
  customerName: string | null;
  statusName: string | null;
  isClosed: boolean;
  closedAt: string | null;
  /** ATA: pending, accepted, declined, or null for the contract's own work. */
  projectExtraStatus: 'pending' | 'accepted' | 'declined' | null;
  /** Invoicing: open (backlog), included in the contract sum, or invoiced. */
  projectInvoiceStatus: 'open' | 'included' | 'invoiced';
  hours: string;
  assignees: string[];
}

/** GET /projects/{id}/workorders: its work orders with their project status, hours and people, in one statement. */
export async function projectWorkOrders(ctx: Ctx, id: unknown): Promise<{ workOrders: ProjectWorkOrder[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const project = await findProject(ctx, id);
  const rows = (await ctx
    .trx('work_orders as w')
    .leftJoin('customers as c', 'c.id', 'w.customer_id')
    .leftJoin('work_order_statuses as s', 's.id', 'w.status_id')
    .joinRaw(
      `left join lateral (select coalesce(sum(t.work_minutes), 0) as minutes
           from work_order_time t where t.work_order_id = w.id) tm on true`,
    )
    .joinRaw(
      `left join lateral (select array_agg(u.name order by u.name) as names
           from work_order_assignees a join users u on u.id = a.user_id where a.work_order_id = w.id) asg on true`,
    )
    .where('w.project_id', project.id)
    .whereNull('w.deleted_at')
    .orderByRaw('w.closed_at is not null, length(w.number), w.number')
    .limit(1000)
    .select(
      'w.id',
      'w.number',
      'w.title',
      'w.closed_at',
      'w.project_extra_status',
      'w.project_invoice_status',
      'c.name as customer_name',
      's.name as status_name',
      'tm.minutes',
      'asg.names',
    )) as Row[];
  return {
    workOrders: rows.map((r) => ({
      id: r.id as string,
      number: String(r.number),
      title: r.title as string,
      customerName: str(r.customer_name),
      statusName: str(r.status_name),
      isClosed: r.closed_at !== null,
      closedAt: iso(r.closed_at),
      projectExtraStatus: (r.project_extra_status as ProjectWorkOrder['projectExtraStatus']) ?? null,
      projectInvoiceStatus: ((r.project_invoice_status as string) ??
        'open') as ProjectWorkOrder['projectInvoiceStatus'],
      hours: formatDecimal((Number(r.minutes ?? 0) / 60).toFixed(2)),
      assignees: ((r.names as string[] | null) ?? []).filter(Boolean),
    })),
  };
}

/**
 * A work order joins (or leaves) a project: the project must be ongoing (409 PROJECT_CLOSED);
 * its invoicing status starts as included in the contract sum when the project has one and the
 * order is not extra work, else open (backlog). Leaving clears both statuses; an order already on
 * a project invoice cannot leave (409 PROJECT_ROW_INVOICED).
 */
export async function setWorkOrderProject(ctx: Ctx, workOrderId: string, projectId: string | null): Promise<void> {
  const wo = (await ctx
    .trx('work_orders')
    .where({ id: workOrderId })
    .first('project_id', 'project_extra_status', 'project_invoice_id', 'project_invoice_status')) as Row | undefined;
  if (!wo) throw notFound();
  if ((wo.project_id ?? null) === projectId) return;
  if (wo.project_invoice_id || wo.project_invoice_status === 'invoiced')
    throw new AppError('PROJECT_ROW_INVOICED', 409);
  if (projectId === null) {
    await ctx
      .trx('work_orders')
      .where({ id: workOrderId })
      .update({ project_id: null, project_extra_status: null, project_invoice_status: null });
    await ctx.trx('work_order_articles').where({ work_order_id: workOrderId }).update({ project_status: null });
    return;
  }
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const project = await lockOngoingProject(ctx, projectId);
  const included = Number(project.contract_sum) > 0 && !wo.project_extra_status;
  await ctx
    .trx('work_orders')
    .where({ id: workOrderId })
    .update({ project_id: project.id, project_invoice_status: included ? 'included' : 'open' });
}

export interface ProjectSettings {
  costResetDay: number;
  hourlyPrice: string;
  hourlyCost: string;
  extraWorkLinkDays: number;
  nextNumber: number;
}

export async function readProjectSettings(ctx: Ctx): Promise<ProjectSettings> {
  const r = (await ctx.trx('project_settings').first()) as Row;
  return {
    costResetDay: Number(r.cost_reset_day),
    hourlyPrice: formatDecimal(String(r.hourly_price)),
    hourlyCost: formatDecimal(String(r.hourly_cost)),
    extraWorkLinkDays: Number(r.extra_work_link_days),
    nextNumber: Number(r.next_number),
  };
}

/** GET /projects/settings. */
export async function getProjectSettings(ctx: Ctx): Promise<{ settings: ProjectSettings }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  return { settings: await readProjectSettings(ctx) };
}

/** PUT /projects/settings (settings:read and projects:edit): the cost reset day, hourly price and cost, link validity. */
export async function updateProjectSettings(ctx: Ctx, raw: unknown): Promise<{ settings: ProjectSettings }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  requireAccess(ctx.auth, { permission: 'settings:read' });
  const s = parseInput(ZProjectSettings, raw);
  await ctx.trx('project_settings').update({
    cost_reset_day: s.costResetDay,
    hourly_price: s.hourlyPrice,
    hourly_cost: s.hourlyCost,
    extra_work_link_days: s.extraWorkLinkDays,
  });
  await recordHistory(ctx, { entity: 'project_settings', entityId: ctx.tenant.id, action: 'edit', data: s });
  return { settings: await readProjectSettings(ctx) };
}

/** The active users to choose the responsible and sales user from. */
export async function projectOptions(ctx: Ctx): Promise<{ users: { id: string; name: string }[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const { rows } = (await ctx.trx.raw(`select ${namedOptionsSql('users', ACTIVE_USERS_WHERE)} as users`)) as {
    rows: { users: { id: string; name: string }[] }[];
  };
  return { users: rows[0]!.users };
}

/**
 * The project a new work order is made in (`/work-orders/new?projectId=…`): ongoing and visible
 * to someone who may read projects, with its first customer to start the order from; else null.
 */
export async function projectForNewOrder(
  ctx: Ctx,
  id: unknown,
): Promise<{ id: string; number: number; title: string; customerId: string | null } | null> {
  if (!isUuid(id) || !hasAccess(ctx.auth, PROJECT_ACCESS.read)) return null;
  const row = (await ctx
    .trx('projects as p')
    .where({ 'p.id': id, 'p.status': 'ongoing' })
    .first(
      'p.id',
      'p.number',
      'p.title',
      ctx.trx.raw(
        `coalesce(p.invoice_customer_id, (select pc.customer_id from project_customers pc
           where pc.project_id = p.id order by pc.sort_order limit 1)) as customer_id`,
      ),
    )) as Row | undefined;
  if (!row) return null;
  return {
    id: row.id as string,
    number: Number(row.number),
    title: row.title as string,
    customerId: str(row.customer_id),
  };
}
