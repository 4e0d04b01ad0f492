import { z } from 'zod';
import {
  addHoliday,
  deleteHoliday,
  editHoliday,
  listHolidays,
  ZEditHoliday,
  ZHoliday,
  ZHolidayYear,
} from '~/core/work-orders/holidays.service';
import { asSent, defineCall, type ApiCall } from '../define-call';

/* Company holidays (api-calls.md "Time reports": /timereports/conf/holidays), shown on the planning board. */

export const holidayCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/timereports/conf/holidays',
    access: { permission: 'signed-in' },
    input: asSent(ZHolidayYear),
    summary: "A year's company holidays ?year= (this year by default) → {year, holidays: [{id, date, name}]}",
    handler: (ctx, input) => listHolidays(ctx, { year: input.year }),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/conf/holidays',
    access: { permission: 'instance:edit' },
    input: asSent(ZHoliday),
    summary: 'Adds a company holiday {date: YYYY-MM-DD, name} → {holiday}; 409 DUPLICATE_COMPANY_HOLIDAY',
    handler: (ctx, input) => addHoliday(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/timereports/conf/holidays',
    access: { permission: 'instance:edit' },
    input: asSent(ZEditHoliday),
    summary: 'Changes a company holiday {id, date, name} → {holiday}; 409 DUPLICATE_COMPANY_HOLIDAY',
    handler: (ctx, input) => editHoliday(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/timereports/conf/holidays/:id',
    access: { permission: 'instance:edit' },
    input: z.object({ id: z.string() }),
    summary: 'Deletes a company holiday',
    handler: async (ctx, input) => {
      await deleteHoliday(ctx, input.id);
      return { ok: true };
    },
  }),
];
