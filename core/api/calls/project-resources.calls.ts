import { z } from 'zod';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import {
  deleteResource,
  plannableSuppliers,
  planResource,
  resourcePlan,
  updateResource,
} from '~/core/projects/resource.service';
import {
  ZPlannableSuppliersQuery,
  ZPlanResource,
  ZResourcePlanQuery,
  ZUpdateResource,
} from '~/core/projects/resource.schema';
import { asSent, defineCall, type ApiCall } from '../define-call';

/**
 * Resource planning (api-calls.md "Resources"; the PROJECTS module): who is planned on which
 * project over which days. Reading needs projects:read, changes projects:edit; a closed project
 * takes no plans (409 PROJECT_CLOSED). Services validate their input. These literal
 * /projects/resources/… paths go before the project calls' /projects/:id… in the catalogue.
 */
export const projectResourceCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/projects/resources/suppliers',
    access: PROJECT_ACCESS.read,
    input: asSent(ZPlannableSuppliersQuery),
    summary:
      'The suppliers one can plan {suppliers: [{id, number, title, linked}]}: active suppliers of the register and ' +
      'those linked to ongoing projects, the linked ones first (?projectId: linked to that project)',
    handler: (ctx, input) => plannableSuppliers(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/projects/resources/:from/:to',
    access: PROJECT_ACCESS.read,
    input: asSent(ZResourcePlanQuery),
    summary:
      'The resource calendar of [from, to] (YYYY-MM-DD, both days count, at most 12 months and a week, else 400): ' +
      '{weeks: [{year, week, start}], people: [{userId, name, active, rows}], suppliers: [{supplierId, number, name, rows}], ' +
      'conflicts: [{userId, kind: overlap|workOrder, year, week, weekStart, dates, projects, workOrders}]}; each row ' +
      '{id, projectId, projectNumber, projectTitle, projectStatus, startDate, endDate, hoursPerDay, comment}; ' +
      'every active user unless ?projectId (that project’s plans) or ?userIds=a,b',
    handler: (ctx, input) => resourcePlan(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/projects/resources',
    access: PROJECT_ACCESS.edit,
    input: asSent(ZPlanResource),
    summary:
      'Plans an active person or a supplier on an ongoing project {projectId, userId | supplierId, startDate, endDate, ' +
      'hoursPerDay?, comment?}; returns {resource}; 409 PROJECT_CLOSED',
    handler: (ctx, input) => planResource(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/projects/resources',
    access: PROJECT_ACCESS.edit,
    input: asSent(ZUpdateResource),
    summary:
      'Changes a plan {id, projectId?, userId? | supplierId?, startDate?, endDate?, hoursPerDay?, comment?} (a drag ' +
      'sends the dates); what is left out stays; returns {resource}; 409 PROJECT_CLOSED',
    handler: (ctx, input) => updateResource(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/projects/resources/:id',
    access: PROJECT_ACCESS.edit,
    input: z.object({ id: z.string() }),
    summary: 'Deletes a plan of an ongoing project; 409 PROJECT_CLOSED',
    async handler(ctx, input) {
      await deleteResource(ctx, input.id);
      return {};
    },
  }),
];
