import { z } from 'zod';
import {
  deleteSchedule,
  listOrderSchedules,
  loadBoard,
  monthCalendar,
  moveSchedule,
  parseView,
  ZCalendarView,
  planWorkOrder,
  weekCalendar,
  ZCalendarMonth,
  ZCalendarWeek,
  ZDeleteSchedule,
  ZMoveSchedule,
  ZPlanWorkOrder,
} from '~/core/work-orders/schedule.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

/*
 * Dispatch (api-calls.md "Work orders": /wo/month, /wo/week; schedule reports): the calendar's
 * reads and the plans that put people on orders. Fixed paths come before `/wo/:id`.
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const byId = z.object({ id: z.string() });

export const workOrderScheduleCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/wo/month/:year/:month',
    access: { permission: 'workorders:read' },
    input: asSent(ZCalendarMonth),
    summary:
      "A month's plans {from, to, version, workOrders: [{id, number, title, customerName, status, priority, isClosed, scheduleReports: [{id, userId, date, startTs, endTs, startTime, endTime, version, …}]}]}",
    handler: (ctx, input) => monthCalendar(ctx, input.year, input.month),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/week/:year/:week',
    access: { permission: 'workorders:read' },
    input: asSent(ZCalendarWeek),
    summary:
      'An ISO week (53-week years included) per person {year, week, from, to, version, users, workOrdersForUser: {userId: [plan]}, timeReportsForUser: {userId: [{id, workOrderId, number, title, date, startTs, endTs, workMinutes, travelMinutes}]}}',
    handler: (ctx, input) => weekCalendar(ctx, input.year, input.week),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/calendar',
    access: { permission: 'workorders:read' },
    input: ZCalendarView,
    summary:
      'The planning board for ?period=month|week|day|quarter|half_year|year&perspective=technician|project&date=YYYY-MM-DD&step=1|3|6|12&q= → {from, to, users, items, projects: [{id, number, title}] (those of the items), unscheduled, unscheduledCount, holidays, version, canPlan}',
    handler: (ctx, input) => loadBoard(ctx, parseView(ctx, input)),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/schedule',
    access: { permission: 'workorders:edit' },
    input: asSent(ZPlanWorkOrder),
    summary:
      'Plans a person on an order {workOrderId, userId, date + startTime? (default 08:00) + endTime? (default +2 h) | startTs + endTs?} → {schedule, version}; the person becomes an assignee; 409 SCHEDULE_DATE_TAKEN, WORK_ORDER_CLOSED, WORK_ORDER_LOCKED',
    handler: (ctx, input) => planWorkOrder(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/wo/schedule/:id',
    access: { permission: 'workorders:edit' },
    input: asSent(ZMoveSchedule.extend(byId.shape)),
    summary:
      'Moves or resizes a plan {version, userId?, date?, startTime?, endTime? | startTs, endTs?}; what is left out stays → {schedule, version}; 409 SCHEDULE_CHANGED when the plan changed since `version`, SCHEDULE_DATE_TAKEN',
    handler: (ctx, input) => moveSchedule(ctx, input.id, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/wo/schedule/:id',
    access: { permission: 'workorders:edit' },
    input: asSent(ZDeleteSchedule.extend(byId.shape)),
    summary: 'Takes a plan off the board ?version= → {version}; the person stays assigned; 409 SCHEDULE_CHANGED',
    handler: (ctx, input) => deleteSchedule(ctx, input.id, input),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/:id/schedule',
    access: { permission: 'workorders:read' },
    input: byId,
    summary: "An order's plans, earliest first {scheduleReports: [plan]}",
    handler: (ctx, input) => listOrderSchedules(ctx, input.id),
  }),
];
