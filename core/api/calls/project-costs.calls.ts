import { z } from 'zod';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import {
  projectCosts,
  projectCostSnapshots,
  projectTimeReports,
  takeProjectCostSnapshot,
} from '~/core/projects/project-costs.service';
import { projectPdf } from '~/core/projects/project-document.service';
import { projectStatistics } from '~/core/projects/project-statistics.service';
import { defineCall, type ApiCall } from '../define-call';
import { fileReply } from './work-order-documents.calls';

const id = z.object({ id: z.string() }).loose();

/**
 * A project's costs, snapshots, time reports, statistics and report (spec api-calls.md
 * "Projects": GET and POST /projects/{id}/snapshot, POST /projects/{id}/pdf, GET
 * /projects/{id}/timereports; GET /projects/{id}/costs and /statistics are Ordo's own, what the
 * costs and statistics menus show). Every path is /projects/:id/<word>, so none collides with
 * /projects/:id.
 */
export const projectCostCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/projects/:id/costs',
    access: PROJECT_ACCESS.read,
    input: id,
    summary:
      "The project's costs {costs: {hourlyCost, hourlyCostSource (project|settings), time {workMinutes, travelMinutes, " +
      'minutes, hours, cost}, articles {count, cost (purchase price), salesTotal}, total, ongoing {since, resetDay, ' +
      'timeCost, articleCost, cost}, byMonth [{month, timeCost, articleCost, total}] (last 12 months), byUser [{userId, ' +
      'name, minutes, hours, cost}], estimated {hours, cost}, difference {hours, cost} (estimate − actual)}}; ' +
      'time (work + travel) at the project’s hourly cost, else the settings’; supplier invoices are not included',
    handler: (ctx, input) => projectCosts(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/projects/:id/snapshot',
    access: PROJECT_ACCESS.read,
    input: id,
    summary:
      'The total cost now and the cost snapshots {totalCost, ongoingCost, since, snapshots: [{id, ongoingCost, ' +
      'totalCost, periodStart, createdAt, createUserId, createUserName}]} newest first (at most 200)',
    handler: (ctx, input) => projectCostSnapshots(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/projects/:id/snapshot',
    access: PROJECT_ACCESS.edit,
    input: id,
    summary:
      'Takes a cost snapshot {ongoingCost (the computed ongoing cost when left out)} → {totalCost, snapshot}; ' +
      '409 PROJECT_CLOSED',
    handler: (ctx, input) => takeProjectCostSnapshot(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/projects/:id/timereports',
    access: PROJECT_ACCESS.read,
    input: id,
    summary:
      'Time rows of the project’s work orders {period, rows: [{id, date, userId, userName, workOrderId, ' +
      'workOrderNumber, workOrderTitle, workMinutes, travelMinutes, distanceKm, comment}], totalCount, offset, limit, ' +
      'byUser: [{userId, name, workMinutes, travelMinutes, minutes, hours}], totals}; ?startTime&endTime (YYYY-MM-DD, ' +
      'this month when left out, at most 366 days: 400 ERROR_REPORT_PERIOD_TOO_LONG / ERROR_REPORT_PERIOD_REVERSED ' +
      'on endTime), ?offset, ?limit (200, at most 1000)',
    handler: (ctx, input) => projectTimeReports(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/projects/:id/statistics',
    access: PROJECT_ACCESS.read,
    input: id,
    summary:
      'The project’s statistics {statistics: {hours and cost {actual, estimated, percent}, revenue {labour, ' +
      'articles, total, hourlyPrice}, invoiced (final invoices), contractSum, margin {amount, percent}, workOrders ' +
      '{open, closed, total}, extraWork {pending, accepted, declined}, activities {done, total}}}',
    handler: (ctx, input) => projectStatistics(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/projects/:id/pdf',
    access: PROJECT_ACCESS.read,
    input: id,
    summary:
      'The project report as PDF {templateId (default), details (false: with it the time rows and article rows)} ' +
      '→ application/pdf, attachment named from the project number',
    handler: async (ctx, input) => (await projectPdf(ctx, input.id, input)).map(fileReply),
  }),
];
