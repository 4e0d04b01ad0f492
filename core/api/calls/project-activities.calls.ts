import { z } from 'zod';
import {
  completeActivity,
  createActivity,
  deleteActivity,
  listActivities,
  reorderActivity,
  updateActivity,
  ZActivity,
  ZCompleteActivity,
  ZReorderActivity,
} from '~/core/projects/activity.service';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import { defineCall, shownOnly, type ApiCall } from '../define-call';

/*
 * A project's activities (api-calls.md "Activities: GET and POST /projects/{id}/activities
 * {sortOrder}; PUT .../{aid}/reorder; PUT .../complete; DELETE; PUT"). The PROJECTS module;
 * projects:read to see them, projects:edit to change them; a closed project answers 409
 * PROJECT_CLOSED. Services validate their input.
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const onProject = z.object({ id: z.string() });
const onActivity = onProject.extend({ aid: z.string() });
/*
 * The bodies are shown, and checked by the services: another tenant's project or activity is 404,
 * and a closed project 409, before the body is read (decision 020).
 */

export const projectActivityCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/projects/:id/activities',
    access: PROJECT_ACCESS.read,
    input: onProject,
    summary:
      "A project's activities in their order {activities: [{id, title, description, dueDate, responsibleUserId, responsibleUserName, sortOrder, completed, completedAt, completedByName}]}",
    handler: (ctx, input) => listActivities(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/projects/:id/activities',
    access: PROJECT_ACCESS.edit,
    input: shownOnly(ZActivity.extend(onProject.shape)),
    summary:
      'Adds an activity {title, description?, dueDate?, responsibleUserId?, sortOrder?} (last unless sortOrder places it) → {activity, activities}; 409 PROJECT_CLOSED',
    handler: (ctx, { id, ...body }) => createActivity(ctx, id, body),
  }),
  defineCall({
    method: 'PUT',
    path: '/projects/:id/activities/:aid/reorder',
    access: PROJECT_ACCESS.edit,
    input: shownOnly(ZReorderActivity.extend(onActivity.shape)),
    summary:
      'Moves an activity to a position {sortOrder} (1 = first; clamped to the list) and renumbers the others 1..n → {activities}; 409 PROJECT_CLOSED',
    handler: (ctx, { id, aid, ...body }) => reorderActivity(ctx, id, aid, body),
  }),
  defineCall({
    method: 'PUT',
    path: '/projects/:id/activities/:aid/complete',
    access: PROJECT_ACCESS.edit,
    input: shownOnly(ZCompleteActivity.extend(onActivity.shape)),
    summary: 'Marks an activity done or not done {completed: boolean} → {activity}; 409 PROJECT_CLOSED',
    handler: (ctx, { id, aid, ...body }) => completeActivity(ctx, id, aid, body),
  }),
  defineCall({
    method: 'PUT',
    path: '/projects/:id/activities/:aid',
    access: PROJECT_ACCESS.edit,
    input: shownOnly(ZActivity.omit({ sortOrder: true }).extend(onActivity.shape)),
    summary:
      "Changes an activity's fields {title, description, dueDate, responsibleUserId} → {activity}; 409 PROJECT_CLOSED",
    handler: (ctx, { id, aid, ...body }) => updateActivity(ctx, id, aid, body),
  }),
  defineCall({
    method: 'DELETE',
    path: '/projects/:id/activities/:aid',
    access: PROJECT_ACCESS.edit,
    input: onActivity,
    summary: 'Deletes an activity; the others are renumbered 1..n → {activities}; 409 PROJECT_CLOSED',
    handler: (ctx, input) => deleteActivity(ctx, input.id, input.aid),
  }),
];
