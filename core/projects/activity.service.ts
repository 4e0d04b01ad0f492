import { z } from 'zod';
import { zOptionalPlainDate } from '~/core/agreements/agreement-schema';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, zRequiredString } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { zFormBool, zOptionalText, zOptionalUuid } from '~/core/registers/fields';
import { activeUserChoices, type UserChoice } from '~/core/users/active-users';
import { findProject, lockOngoingProject, PROJECT_ACCESS, PROJECT_ENTITY } from './project-access';

/*
 * A project's activities (spec section 3 "activity (id, sortOrder)"; api-calls.md "Activities"):
 * ordered steps with a due date and a responsible person, completed or not. Positions run 1..n;
 * a move or a delete renumbers the others in one statement (the arithmetic is activity-order.ts).
 * A closed project's activities do not change (409 PROJECT_CLOSED).
 */

export interface ProjectActivity {
  id: string;
  projectId: string;
  title: string;
  description: string | null;
  /** YYYY-MM-DD. */
  dueDate: string | null;
  responsibleUserId: string | null;
  responsibleUserName: string | null;
  /** Position, 1..n. */
  sortOrder: number;
  completed: boolean;
  completedAt: string | null;
  completedByName: string | null;
  createdAt: string;
}

/** What the activities panel shows: the list, whom an activity can be given to, and whether it may change. */
export interface ActivitiesPanelData {
  activities: ProjectActivity[];
  users: UserChoice[];
  canEdit: boolean;
  projectClosed: boolean;
}

type Row = Record<string, unknown>;

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v == null ? null : String(v));

function toActivity(r: Row): ProjectActivity {
  return {
    id: r.id as string,
    projectId: r.project_id as string,
    title: r.title as string,
    description: (r.description as string | null) ?? null,
    dueDate: (r.due_date_text as string | null) ?? null,
    responsibleUserId: (r.responsible_user_id as string | null) ?? null,
    responsibleUserName: (r.responsible_user_name as string | null) ?? null,
    sortOrder: Number(r.sort_order),
    completed: r.completed_at != null,
    completedAt: iso(r.completed_at),
    completedByName: (r.completed_by_name as string | null) ?? null,
    createdAt: iso(r.created_at)!,
  };
}

function selectActivities(ctx: Ctx) {
  return ctx
    .trx('project_activities as a')
    .leftJoin('users as ru', 'ru.id', 'a.responsible_user_id')
    .leftJoin('users as cu', 'cu.id', 'a.completed_user_id')
    .select(
      'a.id',
      'a.project_id',
      'a.title',
      'a.description',
      ctx.trx.raw(`to_char(a.due_date, 'YYYY-MM-DD') as due_date_text`),
      'a.responsible_user_id',
      'ru.name as responsible_user_name',
      'a.sort_order',
      'a.completed_at',
      'cu.name as completed_by_name',
      'a.created_at',
    );
}

async function activitiesOf(ctx: Ctx, projectId: string): Promise<ProjectActivity[]> {
  const rows: Row[] = await selectActivities(ctx)
    .where('a.project_id', projectId)
    .orderBy([{ column: 'a.sort_order' }, { column: 'a.created_at' }, { column: 'a.id' }])
    .limit(1000);
  return rows.map(toActivity);
}

async function activityOf(ctx: Ctx, projectId: string, id: string): Promise<ProjectActivity> {
  const row: Row | undefined = await selectActivities(ctx).where({ 'a.id': id, 'a.project_id': projectId }).first();
  if (!row) throw notFound();
  return toActivity(row);
}

/** The activity's own row in the project, or 404 (malformed, missing, another project's or tenant's). */
async function findActivityRow(ctx: Ctx, projectId: string, id: unknown): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const row: Row | undefined = await ctx
    .trx('project_activities')
    .where({ id, project_id: projectId })
    .first('id', 'title', 'completed_at');
  if (!row) throw notFound();
  return row;
}

/**
 * Numbers the project's activities 1..n in one statement, `movedId` (if any) at `position` and the
 * others in their order around it (keys as activity-order.ts reorderKey; the position clamped to
 * 1..n in SQL). Without a moved one it closes the gaps a delete leaves.
 */
async function renumber(ctx: Ctx, projectId: string, movedId: string | null, position: number): Promise<void> {
  await ctx.trx.raw(
    `update project_activities p set sort_order = o.pos
       from (
         select id, row_number() over (order by key, id) as pos
           from (
             select id,
                    case when id = ?::uuid then 2 * least(greatest(?::int, 1), count(*) over ()) - 1
                         else 2 * row_number() over (partition by (id = ?::uuid) is true
                                                      order by sort_order, created_at, id)
                    end as key
               from project_activities
              where project_id = ?
           ) k
       ) o
      where p.id = o.id and p.sort_order is distinct from o.pos`,
    [movedId, position, movedId, projectId],
  );
}

const zSortOrder = () =>
  z.preprocess(
    (v) => (v === '' || v == null ? undefined : typeof v === 'string' ? Number(v) : v),
    z.number({ error: 'ERROR_INVALID_VALUE' }).int('ERROR_INVALID_VALUE').min(1, 'ERROR_INVALID_VALUE').optional(),
  );

export const ZActivity = z.object({
  title: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  description: zOptionalText(4000),
  dueDate: zOptionalPlainDate(),
  responsibleUserId: zOptionalUuid(),
  /** Where a new activity goes (1 = first); last when left out. */
  sortOrder: zSortOrder(),
});
export type TActivity = z.input<typeof ZActivity>;

export const ZReorderActivity = z.object({
  sortOrder: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z.number({ error: 'ERROR_REQUIRED_FIELD' }).int('ERROR_INVALID_VALUE').min(1, 'ERROR_INVALID_VALUE'),
  ),
});

export const ZCompleteActivity = z.object({ completed: zFormBool() });

/** The responsible person must be one of the tenant's users (400 on the field otherwise). */
async function checkResponsible(ctx: Ctx, userId: string | null): Promise<void> {
  if (!userId) return;
  const user = await ctx.trx('users').where({ id: userId }).first('id');
  if (!user) throw new AppError('VALIDATION_FAILED', 400, { fields: { responsibleUserId: ['ERROR_INVALID_VALUE'] } });
}

/** `GET /projects/{id}/activities`: the project's activities in their order. */
export async function listActivities(ctx: Ctx, projectId: unknown): Promise<{ activities: ProjectActivity[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const project = await findProject(ctx, projectId);
  return { activities: await activitiesOf(ctx, project.id) };
}

/** The activities panel's data: the list, the active users, and whether the asker may change it. */
export async function getActivitiesPanel(ctx: Ctx, projectId: unknown): Promise<ActivitiesPanelData> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const project = await findProject(ctx, projectId);
  const canEdit = hasAccess(ctx.auth, PROJECT_ACCESS.edit) && project.status === 'ongoing';
  return {
    activities: await activitiesOf(ctx, project.id),
    users: canEdit ? await activeUserChoices(ctx.trx) : [],
    canEdit,
    projectClosed: project.status !== 'ongoing',
  };
}

/** `POST /projects/{id}/activities {title, description, dueDate, responsibleUserId, sortOrder}`: a new activity, last unless placed. */
export async function createActivity(
  ctx: Ctx,
  projectId: unknown,
  raw: unknown,
): Promise<{ activity: ProjectActivity; activities: ProjectActivity[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const project = await lockOngoingProject(ctx, projectId);
  const input = parseInput(ZActivity, raw);
  await checkResponsible(ctx, input.responsibleUserId);
  const [row] = (await ctx
    .trx('project_activities')
    .insert({
      project_id: project.id,
      title: input.title,
      description: input.description,
      due_date: input.dueDate,
      responsible_user_id: input.responsibleUserId,
      sort_order: ctx.trx.raw(
        '(select coalesce(max(sort_order), 0) + 1 from project_activities where project_id = ?)',
        [project.id],
      ),
      created_at: ctx.now,
    })
    .returning('id')) as { id: string }[];
  if (input.sortOrder !== undefined) await renumber(ctx, project.id, row!.id, input.sortOrder);
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: project.id,
    action: 'activity.create',
    data: { activityId: row!.id, title: input.title },
  });
  const activities = await activitiesOf(ctx, project.id);
  return { activity: activities.find((a) => a.id === row!.id)!, activities };
}

/** `PUT /projects/{id}/activities/{aid} {title, description, dueDate, responsibleUserId}`: the activity's fields. */
export async function updateActivity(
  ctx: Ctx,
  projectId: unknown,
  activityId: unknown,
  raw: unknown,
): Promise<{ activity: ProjectActivity }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const project = await lockOngoingProject(ctx, projectId);
  const row = await findActivityRow(ctx, project.id, activityId);
  const input = parseInput(ZActivity.omit({ sortOrder: true }), raw);
  await checkResponsible(ctx, input.responsibleUserId);
  await ctx
    .trx('project_activities')
    .where({ id: row.id as string })
    .update({
      title: input.title,
      description: input.description,
      due_date: input.dueDate,
      responsible_user_id: input.responsibleUserId,
    });
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: project.id,
    action: 'activity.edit',
    data: { activityId: row.id, title: input.title },
  });
  return { activity: await activityOf(ctx, project.id, row.id as string) };
}

/** `PUT /projects/{id}/activities/{aid}/reorder {sortOrder}`: moves it to that position (clamped to 1..n). */
export async function reorderActivity(
  ctx: Ctx,
  projectId: unknown,
  activityId: unknown,
  raw: unknown,
): Promise<{ activities: ProjectActivity[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const project = await lockOngoingProject(ctx, projectId);
  const row = await findActivityRow(ctx, project.id, activityId);
  const { sortOrder } = parseInput(ZReorderActivity, raw);
  await renumber(ctx, project.id, row.id as string, sortOrder);
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: project.id,
    action: 'activity.reorder',
    data: { activityId: row.id, title: row.title, sortOrder },
  });
  return { activities: await activitiesOf(ctx, project.id) };
}

/** `PUT /projects/{id}/activities/{aid}/complete {completed}`: marks it done (when and by whom) or not done. */
export async function completeActivity(
  ctx: Ctx,
  projectId: unknown,
  activityId: unknown,
  raw: unknown,
): Promise<{ activity: ProjectActivity }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const project = await lockOngoingProject(ctx, projectId);
  const row = await findActivityRow(ctx, project.id, activityId);
  const { completed } = parseInput(ZCompleteActivity, raw);
  if (completed !== (row.completed_at != null)) {
    await ctx
      .trx('project_activities')
      .where({ id: row.id as string })
      .update(
        completed
          ? { completed_at: ctx.now, completed_user_id: ctx.auth.user.id }
          : { completed_at: null, completed_user_id: null },
      );
    await recordHistory(ctx, {
      entity: PROJECT_ENTITY,
      entityId: project.id,
      action: completed ? 'activity.complete' : 'activity.uncomplete',
      data: { activityId: row.id, title: row.title },
    });
  }
  return { activity: await activityOf(ctx, project.id, row.id as string) };
}

/** `DELETE /projects/{id}/activities/{aid}`: removes it; the others close the gap. */
export async function deleteActivity(
  ctx: Ctx,
  projectId: unknown,
  activityId: unknown,
): Promise<{ activities: ProjectActivity[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const project = await lockOngoingProject(ctx, projectId);
  const row = await findActivityRow(ctx, project.id, activityId);
  await ctx
    .trx('project_activities')
    .where({ id: row.id as string })
    .delete();
  await renumber(ctx, project.id, null, 1);
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: project.id,
    action: 'activity.delete',
    data: { activityId: row.id, title: row.title },
  });
  return { activities: await activitiesOf(ctx, project.id) };
}
