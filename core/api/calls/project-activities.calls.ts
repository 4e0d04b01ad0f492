import { z } from 'zod';
import {
  completeActivity,
  createActivity,
  deleteActivity,
  listActivities,
  reorderActivity,
  updateActivity,
} from '~/core/projects/activity.service';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import { defineCall, type ApiCall } from '../define-call';

/*
 * A project's activities (api-calls.md "Activities: GET and POST /projects/{id}/activities
 * {sortOrder}; PUT .../{aid}/reorder; PUT .../complete; DELETE; PUT"). The PROJECTS module;
 * projects:read to see them, projects:edit to change them; a closed project answers 409
 * PROJECT_CLOSED. Services validate their input.
 */

type Input = Record<string, unknown>;
const pass = z.object({}).passthrough();

export const projectActivityCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/projects/:id/activities',
    access: PROJECT_ACCESS.read,
    input: pass,
    summary:
      "A project's activities in their order {activities: [{id, title, description, dueDate, responsibleUserId, responsibleUserName, sortOrder, completed, completedAt, completedByName}]}",
    handler: (ctx, input: Input) => listActivities(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/projects/:id/activities',
    access: PROJECT_ACCESS.edit,
    input: pass,
    summary:
      'Adds an activity {title, description?, dueDate?, responsibleUserId?, sortOrder?} (last unless sortOrder places it) → {activity, activities}; 409 PROJECT_CLOSED',
    handler: (ctx, { id, ...body }: Input) => createActivity(ctx, id, body),
  }),
  defineCall({
    method: 'PUT',
    path: '/projects/:id/activities/:aid/reorder',
    access: PROJECT_ACCESS.edit,
    input: pass,
    summary:
      'Moves an activity to a position {sortOrder} (1 = first; clamped to the list) and renumbers the others 1..n → {activities}; 409 PROJECT_CLOSED',
    handler: (ctx, { id, aid, ...body }: Input) => reorderActivity(ctx, id, aid, body),
  }),
  defineCall({
    method: 'PUT',
    path: '/projects/:id/activities/:aid/complete',
    access: PROJECT_ACCESS.edit,
    input: pass,
    summary: 'Marks an activity done or not done {completed: boolean} → {activity}; 409 PROJECT_CLOSED',
    handler: (ctx, { id, aid, ...body }: Input) => completeActivity(ctx, id, aid, body),
  }),
  defineCall({
    method: 'PUT',
    path: '/projects/:id/activities/:aid',
    access: PROJECT_ACCESS.edit,
    input: pass,
    summary:
      "Changes an activity's fields {title, description, dueDate, responsibleUserId} → {activity}; 409 PROJECT_CLOSED",
    handler: (ctx, { id, aid, ...body }: Input) => updateActivity(ctx, id, aid, body),
  }),
  defineCall({
    method: 'DELETE',
    path: '/projects/:id/activities/:aid',
    access: PROJECT_ACCESS.edit,
    input: pass,
    summary: 'Deletes an activity; the others are renumbered 1..n → {activities}; 409 PROJECT_CLOSED',
    handler: (ctx, input: Input) => deleteActivity(ctx, input.id, input.aid),
  }),
];
