import type { Ctx } from '~/core/context';
import { addDays, startOfDayInZone, tenantTimeZone } from '~/core/calendar/dates';
import { tenantToday } from '~/core/calendar/tenant-today';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { activeUserChoices, type UserChoice } from '~/core/users/active-users';
import { applyLimit } from '~/core/work-orders/work-order-read';
import { findProject, lockOngoingProject, PROJECT_ACCESS, PROJECT_ENTITY, type ProjectStatus } from './project-access';
import { dayIndexer, isPlanningPeriod, planningWeeks, type PlanningWeek } from './resource-calendar';
import { ZPlannableSuppliersQuery, ZPlanResource, ZResourcePlanQuery, ZUpdateResource } from './resource.schema';

/**
 * Resource planning (spec section 2 "Resource planning calendar"; api-calls.md "Resources"): who —
 * a person or a supplier — is planned on which project over which days, and where that clashes:
 * the same person on two projects on the same days, or on a project while the work-order board
 * has them on orders of another project (or of none) those days. A closed project takes no new or
 * changed plans (409 PROJECT_CLOSED); only active users are planned. Reading needs projects:read,
 * changing projects:edit, both in the PROJECTS module. Every read is a fixed number of statements
 * whatever the number of people (no statement per person or row).
 */

export interface ResourceRow {
  id: string;
  projectId: string;
  projectNumber: number;
  projectTitle: string;
  projectStatus: ProjectStatus;
  userId: string | null;
  supplierId: string | null;
  /** YYYY-MM-DD, both days count. */
  startDate: string;
  endDate: string;
  /** Planned hours a working day; null is the whole day. */
  hoursPerDay: number | null;
  comment: string | null;
}

export interface PlannedPerson {
  userId: string;
  name: string;
  /** False for someone no longer active who still has plans in the period. */
  active: boolean;
  rows: ResourceRow[];
}

export interface PlannedSupplier {
  supplierId: string;
  number: string;
  name: string;
  rows: ResourceRow[];
}

export interface ConflictProject {
  id: string;
  number: number;
  title: string;
}

export interface ConflictWorkOrder {
  id: string;
  number: string;
  title: string;
  date: string;
  projectId: string | null;
}

/**
 * One person's clash in one ISO week: `overlap` (planned on two projects on the same days) or
 * `workOrder` (planned on a project while scheduled on work orders of another project or none).
 */
export interface PlanConflict {
  userId: string;
  kind: 'overlap' | 'workOrder';
  year: number;
  week: number;
  /** The week's Monday. */
  weekStart: string;
  /** The days of the week that clash, in order. */
  dates: string[];
  /** The projects involved (both sides of an overlap; what the person is planned on for a work order). */
  projects: ConflictProject[];
  workOrders: ConflictWorkOrder[];
}

export interface ResourcePlan {
  from: string;
  to: string;
  today: string;
  projectId: string | null;
  weeks: PlanningWeek[];
  people: PlannedPerson[];
  suppliers: PlannedSupplier[];
  conflicts: PlanConflict[];
  canEdit: boolean;
}

type Row = Record<string, unknown>;

/** Plain code-unit order (ISO dates, ids): a locale's collation costs ~100 times more and adds nothing. */
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const RESOURCE_COLUMNS = `r.id, r.project_id, p.number as project_number, p.title as project_title,
  p.status as project_status, r.user_id, r.supplier_id,
  to_char(r.start_date, 'YYYY-MM-DD') as start_date, to_char(r.end_date, 'YYYY-MM-DD') as end_date,
  r.hours_per_day, r.comment`;

function toRow(r: Row): ResourceRow {
  return {
    id: r.id as string,
    projectId: r.project_id as string,
    projectNumber: Number(r.project_number),
    projectTitle: r.project_title as string,
    projectStatus: r.project_status as ProjectStatus,
    userId: (r.user_id as string | null) ?? null,
    supplierId: (r.supplier_id as string | null) ?? null,
    startDate: r.start_date as string,
    endDate: r.end_date as string,
    hoursPerDay: r.hours_per_day == null ? null : Number(r.hours_per_day),
    comment: (r.comment as string | null) ?? null,
  };
}

const periodError = (code: string) => new AppError('VALIDATION_FAILED', 400, { fields: { to: [code] } });

/** The local midnight starting a day, as an instant in the tenant's zone. */
const dayStart = (ctx: Ctx, date: string) =>
  startOfDayInZone(date, tenantTimeZone(ctx.tenant.config?.country)).toISOString();

/**
 * GET /projects/resources/{from}/{to}: the calendar of a period (both days count, at most 12
 * months and a week): its ISO weeks; per person (every active user, or with `projectId` / `userIds`
 * only those planned or named) and per supplier with plans, the plans touching the period; and the
 * clashes of those people in the period, per ISO week. At most four statements whatever the period
 * or the number of people. Each is planned for its values (decision 047): a generic plan took a
 * period's plans and the board's plans in it for a row each and joined them in nested loops.
 */
export async function resourcePlan(ctx: Ctx, raw: unknown): Promise<ResourcePlan> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const q = parseInput(ZResourcePlanQuery, raw);
  if (q.to < q.from) throw periodError('ERROR_STOP_DATE_BEFORE_START_DATE');
  if (!isPlanningPeriod(q.from, q.to)) throw periodError('ERROR_PLANNING_PERIOD_TOO_LONG');
  const projectId = q.projectId ? (await findProject(ctx, q.projectId)).id : null;
  const userIds = q.userIds?.length ? [...new Set(q.userIds)] : null;
  return readPlan(ctx, { from: q.from, to: q.to, projectId, userIds });
}

async function readPlan(
  ctx: Ctx,
  q: { from: string; to: string; projectId: string | null; userIds: string[] | null },
): Promise<ResourcePlan> {
  const { projectId, userIds } = q;

  // 1. the plans touching the period, with their project and who is planned
  const planRows = (
    await ctx.trx.raw(
      `select ${RESOURCE_COLUMNS}, u.name as user_name, u.status as user_status,
              s.number as supplier_number, s.title as supplier_title
         from project_resources r
         join projects p on p.id = r.project_id
         left join users u on u.id = r.user_id
         left join suppliers s on s.id = r.supplier_id
        where r.start_date <= ? and r.end_date >= ?
          ${projectId ? 'and r.project_id = ?' : ''}
          ${userIds ? 'and (r.user_id = any(?::uuid[]) or r.supplier_id is not null)' : ''}
        order by r.start_date, p.number, r.id`,
      [q.to, q.from, ...(projectId ? [projectId] : []), ...(userIds ? [userIds] : [])],
    )
  ).rows as Row[];

  // 2. the people: everyone active (the whole calendar) or those planned or named, by name
  const plannedUserIds = [...new Set(planRows.map((r) => r.user_id as string | null).filter((id) => id !== null))];
  const wanted = userIds ? [...new Set([...userIds, ...plannedUserIds])] : plannedUserIds;
  const everyone = !projectId && !userIds;
  const users = (
    await ctx.trx.raw(
      `select id, name, status = 'active' as active from users
        where ${everyone ? `status = 'active' or ` : ''}id = any(?::uuid[])
        order by lower(name), id`,
      [wanted],
    )
  ).rows as { id: string; name: string; active: boolean }[];

  const rowsByUser = new Map<string, ResourceRow[]>();
  const suppliers = new Map<string, PlannedSupplier>();
  for (const r of planRows) {
    const row = toRow(r);
    if (row.userId) {
      const list = rowsByUser.get(row.userId);
      if (list) list.push(row);
      else rowsByUser.set(row.userId, [row]);
    } else if (row.supplierId) {
      const s = suppliers.get(row.supplierId) ?? {
        supplierId: row.supplierId,
        number: r.supplier_number as string,
        name: r.supplier_title as string,
        rows: [],
      };
      s.rows.push(row);
      suppliers.set(row.supplierId, s);
    }
  }
  const people: PlannedPerson[] = users.map((u) => ({
    userId: u.id,
    name: u.name,
    active: u.active === true,
    rows: rowsByUser.get(u.id) ?? [],
  }));

  const conflicts = await planConflicts(ctx, {
    from: q.from,
    to: q.to,
    projectId,
    userIds: people.filter((p) => p.rows.length).map((p) => p.userId),
    // without a project, the rows read are every plan of these people in the period (by start)
    plans: projectId
      ? undefined
      : planRows
          .filter((r) => r.user_id)
          .map((r) => ({
            userId: r.user_id as string,
            projectId: r.project_id as string,
            number: Number(r.project_number),
            title: r.project_title as string,
            startDate: r.start_date as string,
            endDate: r.end_date as string,
          })),
  });

  return {
    from: q.from,
    to: q.to,
    today: tenantToday(ctx),
    projectId,
    weeks: planningWeeks(q.from, q.to),
    people,
    suppliers: [...suppliers.values()].sort((a, b) => a.name.localeCompare(b.name) || a.number.localeCompare(b.number)),
    conflicts,
    canEdit: hasAccess(ctx.auth, PROJECT_ACCESS.edit),
  };
}

interface PersonPlan {
  userId: string;
  projectId: string;
  number: number;
  title: string;
  startDate: string;
  endDate: string;
}

/**
 * The clashes of `userIds` in [from, to] (with `projectId`, those involving that project), per
 * person, ISO week and kind, in one statement (two when the people's plans are not known yet):
 * - overlap: two plans of the person on different projects share days (found here from the
 *   people's plans in the period, a handful each);
 * - workOrder: the board has the person on a work order on a day they are planned on a project,
 *   and the order belongs to no project they are planned on that day (another project or none).
 *   The period's plans are read once into the statement (a materialized CTE) and the board's
 *   plans checked against them by hashing, not one index probe per plan. Orders outside the
 *   asker's work-order limit are left out, as everywhere.
 */
async function planConflicts(
  ctx: Ctx,
  opts: { from: string; to: string; projectId: string | null; userIds: string[]; plans?: PersonPlan[] },
): Promise<PlanConflict[]> {
  if (!opts.userIds.length) return [];
  const { from, to, projectId, userIds } = opts;

  // every plan of these people touching the period, whatever its project, by start (unless known)
  const plans =
    opts.plans ??
    (
      (
        await ctx.trx.raw(
          `select r.user_id, r.project_id, p.number, p.title,
                to_char(r.start_date, 'YYYY-MM-DD') as start_date, to_char(r.end_date, 'YYYY-MM-DD') as end_date
           from project_resources r join projects p on p.id = r.project_id
          where r.user_id = any(?::uuid[]) and r.start_date <= ? and r.end_date >= ?
          order by r.user_id, r.start_date, r.id`,
          [userIds, to, from],
        )
      ).rows as Row[]
    ).map<PersonPlan>((r) => ({
      userId: r.user_id as string,
      projectId: r.project_id as string,
      number: Number(r.number),
      title: r.title as string,
      startDate: r.start_date as string,
      endDate: r.end_date as string,
    }));

  // the board's plans of those people on days they are planned on a project (on `projectId`, when
  // given), on orders of no project they are planned on that day
  const planned = ctx.trx.raw(
    `select user_id, project_id, start_date, end_date from project_resources
      where user_id = any(?::uuid[]) and start_date <= ? and end_date >= ?`,
    [userIds, to, from],
  );
  const boardPlans = ctx.trx.raw(
    `select s.user_id, s.date, s.work_order_id from work_order_schedules s
      where s.user_id = any(?::uuid[])
        -- the board's index: plans starting in the period (a day either side for the zone), then the day itself
        and s.start_ts >= ? and s.start_ts < ? and s.date between ? and ?
        and exists (select 1 from planned p where p.user_id = s.user_id and s.date between p.start_date and p.end_date
                    ${projectId ? 'and p.project_id = ?' : ''})`,
    [
      userIds,
      dayStart(ctx, addDays(from, -1)),
      dayStart(ctx, addDays(to, 2)),
      from,
      to,
      ...(projectId ? [projectId] : []),
    ],
  );
  const clashes = (await applyLimit(
    ctx,
    ctx.trx
      .withMaterialized('planned', planned)
      .withMaterialized('board', boardPlans)
      .from('board as ws')
      .join('work_orders as w', 'w.id', 'ws.work_order_id')
      .whereNull('w.deleted_at')
      .whereRaw(
        `not exists (select 1 from planned p where p.user_id = ws.user_id and p.project_id = w.project_id
                      and ws.date between p.start_date and p.end_date)`,
      ),
  )
    .orderBy('ws.date')
    .orderBy('w.number')
    .select(
      'ws.user_id',
      ctx.trx.raw(`to_char(ws.date, 'YYYY-MM-DD') as date`),
      'w.id',
      'w.number',
      'w.title',
      'w.project_id',
    )) as Row[];

  const days = dayIndexer(from, to);
  const byKey = new Map<string, PlanConflict & { dateSet: Set<string>; projectSet: Set<string>; woSet: Set<string> }>();
  const weekOf = new Map<string, PlanningWeek>();
  const entry = (userId: string, kind: PlanConflict['kind'], date: string) => {
    let w = weekOf.get(date);
    if (!w) weekOf.set(date, (w = days.weekOf(date)!));
    const key = `${userId}|${w.start}|${kind}`;
    let c = byKey.get(key);
    if (!c) {
      c = {
        userId,
        kind,
        year: w.year,
        week: w.week,
        weekStart: w.start,
        dates: [],
        projects: [],
        workOrders: [],
        dateSet: new Set(),
        projectSet: new Set(),
        woSet: new Set(),
      };
      byKey.set(key, c);
    }
    c.dateSet.add(date);
    return c;
  };
  const addProject = (c: { projects: ConflictProject[]; projectSet: Set<string> }, p: PersonPlan) => {
    if (c.projectSet.has(p.projectId)) return;
    c.projectSet.add(p.projectId);
    c.projects.push({ id: p.projectId, number: p.number, title: p.title });
  };

  const byUser = new Map<string, PersonPlan[]>();
  for (const p of plans) {
    const list = byUser.get(p.userId);
    if (list) list.push(p);
    else byUser.set(p.userId, [p]);
  }
  for (const list of byUser.values())
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i]!;
        const b = list[j]!;
        // by start (the statement's order): the first that starts after `a` ends ends the pairs of `a`
        if (b.startDate > a.endDate) break;
        if (a.projectId === b.projectId) continue;
        if (projectId && a.projectId !== projectId && b.projectId !== projectId) continue;
        const first = Math.max(days.index(a.startDate), days.index(b.startDate), 0);
        const last = Math.min(days.index(a.endDate), days.index(b.endDate), days.index(to));
        for (let n = first; n <= last; n++) {
          const c = entry(a.userId, 'overlap', days.date(n));
          addProject(c, a);
          addProject(c, b);
        }
      }

  for (const s of clashes) {
    const userId = s.user_id as string;
    const date = s.date as string;
    const c = entry(userId, 'workOrder', date);
    // what the person is planned on that day (on `projectId` only, when given)
    for (const p of byUser.get(userId) ?? [])
      if (p.startDate <= date && date <= p.endDate && (!projectId || p.projectId === projectId)) addProject(c, p);
    const woKey = `${s.id as string}|${date}`;
    if (!c.woSet.has(woKey)) {
      c.woSet.add(woKey);
      c.workOrders.push({
        id: s.id as string,
        number: s.number as string,
        title: s.title as string,
        date,
        projectId: (s.project_id as string | null) ?? null,
      });
    }
  }
  return [...byKey.values()]
    .map(({ dateSet, projectSet: _p, woSet: _w, ...c }) => ({ ...c, dates: [...dateSet].sort() }))
    .sort((a, b) => cmp(a.weekStart, b.weekStart) || cmp(a.userId, b.userId) || cmp(a.kind, b.kind));
}

// ---- changes ----

async function readResource(ctx: Ctx, id: string): Promise<ResourceRow> {
  const { rows } = (await ctx.trx.raw(
    `select ${RESOURCE_COLUMNS} from project_resources r join projects p on p.id = r.project_id where r.id = ?`,
    [id],
  )) as { rows: Row[] };
  if (!rows[0]) throw notFound();
  return toRow(rows[0]);
}

const invalid = (field: string) =>
  new AppError('VALIDATION_FAILED', 400, { fields: { [field]: ['ERROR_INVALID_VALUE'] } });

/** An active user of this tenant (someone else, another tenant's or an inactive one: 400 on the field). */
async function activeUser(ctx: Ctx, userId: string): Promise<{ id: string; name: string }> {
  const user = await ctx.trx('users').where({ id: userId, status: 'active' }).first('id', 'name');
  if (!user) throw invalid('userId');
  return user as { id: string; name: string };
}

/** A supplier that can be planned on the project: active in the register, or linked to the project. */
async function plannableSupplier(
  ctx: Ctx,
  supplierId: string,
  projectId: string,
): Promise<{ id: string; title: string }> {
  const { rows } = (await ctx.trx.raw(
    `select s.id, s.title from suppliers s
      where s.id = ? and (s.status = 'active'
        or exists (select 1 from project_suppliers ps where ps.supplier_id = s.id and ps.project_id = ?))`,
    [supplierId, projectId],
  )) as { rows: { id: string; title: string }[] };
  if (!rows[0]) throw invalid('supplierId');
  return rows[0];
}

/**
 * POST /projects/resources {projectId, userId | supplierId, startDate, endDate, hoursPerDay?,
 * comment?}: plans an active person, or a supplier, on an ongoing project (409 PROJECT_CLOSED).
 */
export async function planResource(ctx: Ctx, raw: unknown): Promise<{ resource: ResourceRow }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const input = parseInput(ZPlanResource, raw);
  const project = await lockOngoingProject(ctx, input.projectId);
  const owner = input.userId
    ? { user: await activeUser(ctx, input.userId) }
    : { supplier: await plannableSupplier(ctx, input.supplierId!, project.id) };
  const [row] = (await ctx
    .trx('project_resources')
    .insert({
      project_id: project.id,
      user_id: owner.user?.id ?? null,
      supplier_id: owner.supplier?.id ?? null,
      start_date: input.startDate,
      end_date: input.endDate,
      hours_per_day: input.hoursPerDay ?? null,
      comment: input.comment,
      create_user_id: ctx.auth.user.id,
      created_at: ctx.now,
    })
    .returning('id')) as { id: string }[];
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: project.id,
    action: 'resource.add',
    data: {
      ...(owner.user ? { user: owner.user.name } : { supplier: owner.supplier!.title }),
      startDate: input.startDate,
      endDate: input.endDate,
    },
  });
  return { resource: await readResource(ctx, row!.id) };
}

/**
 * The plan locked for a change, its project ongoing (409 PROJECT_CLOSED) and locked first, so a
 * plan changes with its project in the same order as the project's own changes. 404 for another
 * tenant's or a missing plan.
 */
async function lockPlan(ctx: Ctx, id: unknown): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const found = (await ctx.trx('project_resources').where({ id }).first('project_id')) as Row | undefined;
  if (!found) throw notFound();
  await lockOngoingProject(ctx, found.project_id);
  const row = (await ctx
    .trx('project_resources')
    .where({ id, project_id: found.project_id as string })
    .forUpdate()
    .first(
      'id',
      'project_id',
      'user_id',
      'supplier_id',
      ctx.trx.raw(`to_char(start_date, 'YYYY-MM-DD') as start_date`),
      ctx.trx.raw(`to_char(end_date, 'YYYY-MM-DD') as end_date`),
    )) as Row | undefined;
  if (!row) throw notFound();
  return row;
}

/**
 * PUT /projects/resources {id, …}: moves or stretches a plan (new dates), or changes its project,
 * person or supplier (active only), hours or comment; what is left out stays. The plan's project,
 * and the project it moves to, must be ongoing (409 PROJECT_CLOSED).
 */
export async function updateResource(ctx: Ctx, raw: unknown): Promise<{ resource: ResourceRow }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const input = parseInput(ZUpdateResource, raw);
  const row = await lockPlan(ctx, input.id);
  const projectId =
    input.projectId && input.projectId !== row.project_id
      ? (await lockOngoingProject(ctx, input.projectId)).id
      : (row.project_id as string);
  const startDate = input.startDate ?? (row.start_date as string);
  const endDate = input.endDate ?? (row.end_date as string);
  if (endDate < startDate)
    throw new AppError('VALIDATION_FAILED', 400, { fields: { endDate: ['ERROR_STOP_DATE_BEFORE_START_DATE'] } });
  const changes: Record<string, unknown> = { project_id: projectId, start_date: startDate, end_date: endDate };
  if (input.userId && input.userId !== row.user_id) {
    changes.user_id = (await activeUser(ctx, input.userId)).id;
    changes.supplier_id = null;
  } else if (input.supplierId && input.supplierId !== row.supplier_id) {
    changes.supplier_id = (await plannableSupplier(ctx, input.supplierId, projectId)).id;
    changes.user_id = null;
  }
  if (input.hoursPerDay !== undefined) changes.hours_per_day = input.hoursPerDay;
  if (input.comment !== undefined) changes.comment = input.comment;
  await ctx
    .trx('project_resources')
    .where({ id: row.id as string })
    .update(changes);
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: projectId,
    action: 'resource.edit',
    data: { id: row.id, startDate, endDate, ...(projectId !== row.project_id ? { from: row.project_id } : {}) },
  });
  return { resource: await readResource(ctx, row.id as string) };
}

/** DELETE /projects/resources/{id}: takes a plan off an ongoing project's calendar. */
export async function deleteResource(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const row = await lockPlan(ctx, id);
  await ctx
    .trx('project_resources')
    .where({ id: row.id as string })
    .delete();
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: row.project_id as string,
    action: 'resource.delete',
    data: { id: row.id, startDate: row.start_date, endDate: row.end_date },
  });
}

export interface PlannableSupplier {
  id: string;
  number: string;
  title: string;
  /** Linked to the project asked about (or to any ongoing project): listed first. */
  linked: boolean;
}

/**
 * GET /projects/resources/suppliers?projectId: the suppliers one can plan, in one statement: the
 * active suppliers of the register and any linked to an ongoing project, those linked to the
 * project (or, without one, to any ongoing project) first, then by name.
 */
export async function plannableSuppliers(ctx: Ctx, raw: unknown = {}): Promise<{ suppliers: PlannableSupplier[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const asked = parseInput(ZPlannableSuppliersQuery, raw).projectId;
  const projectId = asked ? (await findProject(ctx, asked)).id : null;
  const { rows } = (await ctx.trx.raw(
    `select s.id, s.number, s.title,
            exists (select 1 from project_suppliers ps join projects p on p.id = ps.project_id
                     where ps.supplier_id = s.id and ${projectId ? 'p.id = ?' : `p.status = 'ongoing'`}) as linked
       from suppliers s
      where s.status = 'active'
         or exists (select 1 from project_suppliers ps join projects p on p.id = ps.project_id
                     where ps.supplier_id = s.id and (p.status = 'ongoing'${projectId ? ' or p.id = ?' : ''}))
      order by 4 desc, lower(s.title), s.id`,
    projectId ? [projectId, projectId] : [],
  )) as { rows: PlannableSupplier[] };
  return { suppliers: rows.map((r) => ({ id: r.id, number: r.number, title: r.title, linked: r.linked === true })) };
}

export interface PlanningOptions {
  projects: { id: string; number: number; title: string }[];
  users: UserChoice[];
  suppliers: PlannableSupplier[];
}

/**
 * What the planner's dialog chooses from, read when it opens (not with every calendar): the
 * ongoing projects (newest first), the active users and the plannable suppliers.
 */
export async function planningOptions(ctx: Ctx, opts: { projectId?: string | null } = {}): Promise<PlanningOptions> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const projects = (await ctx
    .trx('projects')
    .where({ status: 'ongoing' })
    .orderBy('number', 'desc')
    .select('id', 'number', 'title')) as { id: string; number: number; title: string }[];
  const users = await activeUserChoices(ctx.trx);
  const { suppliers } = await plannableSuppliers(ctx, { projectId: opts.projectId ?? undefined });
  return { projects: projects.map((p) => ({ ...p, number: Number(p.number) })), users, suppliers };
}
