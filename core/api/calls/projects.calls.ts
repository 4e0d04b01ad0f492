import { z } from 'zod';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import {
  addProjectLink,
  closeProject,
  createProject,
  deleteProject,
  getProject,
  getProjectSettings,
  listProjectRegions,
  listProjects,
  projectsOfMonth,
  projectWorkOrders,
  removeProjectLink,
  reopenProject,
  searchProjects,
  updateProject,
  updateProjectConf,
  updateProjectSettings,
  type ProjectLinkKind,
} from '~/core/projects/project.service';
import {
  ZCreateProject,
  ZProjectConf,
  ZProjectLink,
  ZProjectList,
  ZProjectSearch,
  ZProjectSettings,
  ZUpdateProject,
} from '~/core/projects/project.schema';
import { asSent, defineCall, type ApiCall } from '../define-call';

/** Path parameters are text; the service answers 404 for one that names nothing. */
const id = z.object({ id: z.string() });
/** The list's own state; the fixed paths set activeType themselves. */
const ZListOfType = ZProjectList.omit({ activeType: true });

const LIST_SUMMARY =
  'Projects {projects, totalCount, period}, each with number, title, status, dates, responsible user, region, first ' +
  'customer, contractSum, invoiced, leftToInvoice and work-order counts; the list state of spec section 3: ' +
  '?activeType=ongoing|closed, ?sort=alphanumeric|time|responsibleuser, ?desc, ?activeRegion, ?responsibleUserId, ' +
  '?searchValue, ?period=month|quarter|half_year|year|all (quarter) with ?date (today), ?offset, ?limit';

/** The three link kinds share one shape: POST adds, DELETE takes off. */
const linkCalls = (kind: ProjectLinkKind, field: string): ApiCall[] => [
  defineCall({
    method: 'POST',
    path: `/projects/:id/${kind}`,
    access: PROJECT_ACCESS.edit,
    input: asSent(ZProjectLink.extend(id.shape)),
    summary: `Adds {${field}} to the project; returns {project}; 409 PROJECT_CLOSED`,
    handler: (ctx, input) => addProjectLink(ctx, input.id, kind, input),
  }),
  defineCall({
    method: 'DELETE',
    path: `/projects/:id/${kind}`,
    access: PROJECT_ACCESS.edit,
    input: asSent(ZProjectLink.extend(id.shape)),
    summary: `Takes ?${field} off the project; returns {project}; 404 when not on it`,
    handler: (ctx, input) => removeProjectLink(ctx, input.id, kind, input),
  }),
];

/**
 * The project calls (spec api-calls.md "Projects"; the PROJECTS module and projects:*). Fixed
 * paths (/projects/ongoing, /q, /month, /settings, /regions) come before /projects/:id; the
 * invoicing, costs, activities, resources and extra-work calls live in files of their own.
 */
export const projectCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/projects',
    access: PROJECT_ACCESS.read,
    input: asSent(ZProjectList),
    summary: LIST_SUMMARY,
    handler: (ctx, input) => listProjects(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/projects/ongoing',
    access: PROJECT_ACCESS.read,
    input: asSent(ZListOfType),
    summary: 'The ongoing projects, as GET /projects with activeType=ongoing',
    handler: (ctx, input) => listProjects(ctx, { ...input, activeType: 'ongoing' }),
  }),
  defineCall({
    method: 'GET',
    path: '/projects/closed',
    access: PROJECT_ACCESS.read,
    input: asSent(ZListOfType),
    summary: 'The closed projects, as GET /projects with activeType=closed',
    handler: (ctx, input) => listProjects(ctx, { ...input, activeType: 'closed' }),
  }),
  defineCall({
    method: 'GET',
    path: '/projects/regions',
    access: PROJECT_ACCESS.read,
    input: z.object({}),
    summary: 'The regions projects use {regions}',
    handler: async (ctx) => ({ regions: await listProjectRegions(ctx) }),
  }),
  defineCall({
    method: 'GET',
    path: '/projects/q',
    access: PROJECT_ACCESS.read,
    input: asSent(ZProjectSearch),
    summary:
      'Up to 20 projects {projects: [{id, number, name}]} whose number, title, name or region matches ?q, ongoing first',
    handler: (ctx, input) => searchProjects(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/projects/month/:a/:b',
    access: PROJECT_ACCESS.read,
    input: z.object({ a: z.string(), b: z.string() }),
    summary: 'The projects whose dates overlap month b of year a {projects}',
    handler: (ctx, input) => projectsOfMonth(ctx, input.a, input.b),
  }),
  defineCall({
    method: 'GET',
    path: '/projects/settings',
    access: PROJECT_ACCESS.read,
    input: z.object({}),
    summary: 'The project settings {settings: {costResetDay, hourlyPrice, hourlyCost, extraWorkLinkDays, nextNumber}}',
    handler: (ctx) => getProjectSettings(ctx),
  }),
  defineCall({
    method: 'PUT',
    path: '/projects/settings',
    access: PROJECT_ACCESS.edit,
    input: asSent(ZProjectSettings),
    summary:
      'Saves {costResetDay (1–31), hourlyPrice, hourlyCost, extraWorkLinkDays (1–90)}; also needs settings:read; returns {settings}',
    handler: (ctx, input) => updateProjectSettings(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/projects',
    access: PROJECT_ACCESS.edit,
    input: asSent(ZCreateProject),
    summary:
      'Creates an ongoing project {project: {title, name, description, startDate, endDate, responsibleUserId (the asker ' +
      'when left out), salesUserId, region, estimatedHours, estimatedCost, contractSum, externalUrl, customerIds, ' +
      'supplierIds, businessObjectIds}} with the next number; returns {project}',
    handler: (ctx, input) => createProject(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/projects',
    access: PROJECT_ACCESS.edit,
    input: asSent(ZUpdateProject),
    summary:
      'Saves the general info {project: {id, version, …the fields of POST}}; returns {project}; 409 PROJECT_CHANGED, PROJECT_CLOSED',
    handler: (ctx, input) => updateProject(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/projects/:id',
    access: PROJECT_ACCESS.read,
    input: id,
    summary:
      'One project {project} with customers, suppliers, businessObjects, work-order counts, hours and totals ' +
      '{contractSum, invoiced, leftToInvoice, backlog, contractLeft, draftCount}',
    handler: (ctx, input) => getProject(ctx, input.id),
  }),
  defineCall({
    method: 'PUT',
    path: '/projects/:id/conf',
    access: PROJECT_ACCESS.edit,
    input: asSent(ZProjectConf.extend(id.shape)),
    summary:
      "The project's settings {hourlyPrice, hourlyCost (null: the company's), invoiceCustomerId (one of its customers)}; returns {project}",
    handler: (ctx, input) => updateProjectConf(ctx, input.id, input),
  }),
  defineCall({
    method: 'POST',
    path: '/projects/:id/close',
    access: PROJECT_ACCESS.edit,
    input: id,
    summary: 'Closes the project; returns {project}; 409 PROJECT_HAS_OPEN_WORK_ORDERS, PROJECT_CLOSED',
    handler: (ctx, input) => closeProject(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/projects/:id/reopen',
    access: PROJECT_ACCESS.reopen,
    input: id,
    summary: 'Reopens a closed project; returns {project}; 409 PROJECT_NOT_CLOSED',
    handler: (ctx, input) => reopenProject(ctx, input.id),
  }),
  defineCall({
    method: 'DELETE',
    path: '/projects/:id',
    access: PROJECT_ACCESS.delete,
    input: id,
    summary:
      'Deletes the project with its links, activities, plans and snapshots; 409 PROJECT_IN_USE while work orders or invoices belong to it',
    handler: async (ctx, input) => {
      await deleteProject(ctx, input.id);
      return { ok: true };
    },
  }),
  ...linkCalls('customers', 'customerId'),
  ...linkCalls('suppliers', 'supplierId'),
  ...linkCalls('bos', 'businessObjectId'),
  defineCall({
    method: 'GET',
    path: '/projects/:id/workorders',
    access: PROJECT_ACCESS.read,
    input: id,
    summary:
      'Its work orders {workOrders: [{id, number, title, customerName, statusName, isClosed, projectExtraStatus, ' +
      'projectInvoiceStatus, hours, assignees}]}; also needs workorders:read',
    handler: (ctx, input) => projectWorkOrders(ctx, input.id),
  }),
];
