import { z } from 'zod';
import { AppError, permissionDenied } from '~/core/errors/app-error';
import { downloadReply } from '~/core/files/download';
import { quotaLeftBytes } from '~/core/files/files.service';
import { discardReceived, receiveFiles, type Received } from '~/core/files/receive';
import { langFromKey } from '~/core/i18n/languages';
import { SIGNED_IN } from '~/core/permissions/access';
import { inTenant } from '~/core/unit-of-work';
import {
  addCompensationTag,
  deleteCompensationTag,
  editCompensationTag,
  listCompensationTags,
  ZCompensationTag,
  ZEditCompensationTag,
} from '~/core/time-reports/compensation-tags.service';
import {
  addCompensationReport,
  attachReceipts,
  deleteCompensationReport,
  editCompensationReport,
  listCompensationReports,
  receiptForDownload,
  weekCompensationReports,
  ZCompensationReport,
} from '~/core/time-reports/compensation.service';
import {
  addDistanceReport,
  deleteDistanceReport,
  editDistanceReport,
  lastDistanceReading,
  listDistanceReports,
  weekDistanceReports,
  zVehicle,
  ZTrip,
} from '~/core/time-reports/distance.service';
import { ZIsoWeek, ZPersonPeriod } from '~/core/time-reports/period-input';
import { canWriteExpenses, DISTANCE_MODULE } from '~/core/time-reports/expense-access';
import { asSent, defineCall, type ApiCall, type ReceiveBody } from '../define-call';

/*
 * Distance and compensation reports and the compensation tags (api-calls.md "Time, distance and
 * compensation reports"; issue 17). The services decide who: one's own rows with
 * timereports:read_own (or :read); another person's are read with distancereports:read or
 * compensationreports:read and written with timereports:edit. Trips need the distance_reports
 * module. Changes in a locked month are 409 TIME_REPORT_LOCKED.
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const byId = z.object({ id: z.string() });
/** `?userId` or a body's userId: whose expenses (the asker's when left out); the service checks who may. */
const forPerson = { userId: z.string().nullish() };
type Input = Record<string, unknown>;

const TRIP =
  '{id, userId, date, vehicle, readingKm|null, reportedDistanceKm (the trip’s km), previousReadingKm|null, tagId|null, tagCode|null, comment, locked}';
const LAST = '{readingKm, date, vehicle}|null';
const RECEIPT = '{id, name, contentType, size}';
const COMPENSATION = `{id, userId, tagId, tagCode, tagName, tagType: distance|travel|expense, date, comment, quantity, amount, data: {quantity, amount, receiptFileIds, …}, receipts: [${RECEIPT}], locked}`;
const TAG = '{id, code, name|null, type: distance|travel|expense, unitPrice|null, payrollCode|null, active, sortOrder}';
const TRIP_IN =
  '{userId?, date, vehicle?, readingKm? (the odometer at the trip’s end) or reportedDistanceKm? (km directly), tagId? (a distance tag), comment?}; one decimal; 400 ERROR_READING_BELOW_PREVIOUS or ERROR_READING_ABOVE_NEXT on readingKm';
const COMPENSATION_IN =
  '{userId?, tagId (active), date, comment?, data: {quantity? (km or days), amount? (an expense’s, required > 0), receiptFileIds?, …}}; the amount is quantity × the tag’s unit price when it has one';
const LOCKED = '409 TIME_REPORT_LOCKED in a locked month (old and new date)';

/** Receipts: the writer's permission and the quota first, then the bytes into the store. */
const receipts: ReceiveBody<Received> = {
  async read(body, headers, { tenant, auth, input }) {
    if (!auth) throw permissionDenied();
    const userId = typeof input.userId === 'string' && input.userId !== '' ? input.userId : auth.user.id;
    if (!canWriteExpenses(auth, 'compensation', userId)) throw permissionDenied();
    const lang = langFromKey(auth.user.language ?? tenant.config.languageKey);
    const left = await inTenant({ tenant, auth, lang }, (ctx) => quotaLeftBytes(ctx));
    if (left <= 0)
      throw new AppError('STORAGE_QUOTA_EXCEEDED', 413, {
        fields: { file: ['STORAGE_QUOTA_EXCEEDED'] },
        limits: { file: tenant.config.files.quotaMb },
      });
    const maxFileBytes = Math.min(tenant.config.files.maxUploadMb * 1024 * 1024, left + 1);
    return receiveFiles(body, headers, { prefix: tenant.schemaName, maxFileBytes });
  },
  discard: discardReceived,
};

export const timeExpenseCalls: ApiCall[] = [
  // distance: the fixed paths before /timereports/distance/:id
  defineCall({
    method: 'GET',
    path: '/timereports/distance/week/:year/:week',
    access: DISTANCE_MODULE,
    input: asSent(ZIsoWeek.safeExtend(forPerson)),
    summary: `A person's trips of an ISO week ?userId (the asker's by default) → {year, week, days: [7 dates], distanceReports: [${TRIP}], totalKm, lastReading: ${LAST}}`,
    handler: (ctx, input: Input) => weekDistanceReports(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/distance',
    access: DISTANCE_MODULE,
    input: asSent(ZPersonPeriod),
    summary: `A person's trips ?userId&startTime&endTime (dates; at most 60 days, else 400 ERROR_TIME_SPAN_TOO_LONG on endTime) → {distanceReports: [${TRIP}], totalKm}`,
    handler: (ctx, input: Input) => listDistanceReports(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/distance/last',
    access: DISTANCE_MODULE,
    input: asSent(z.object({ ...forPerson, vehicle: zVehicle.nullish() })),
    summary: `The last odometer reading of a person {userId?, vehicle?} (any vehicle without one), to prefill the next trip → {lastReading: ${LAST}}`,
    handler: (ctx, input: Input) => lastDistanceReading(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/distance',
    access: DISTANCE_MODULE,
    input: asSent(ZTrip),
    summary: `Adds a trip ${TRIP_IN} → {distanceReport: ${TRIP}}; ${LOCKED}`,
    handler: (ctx, input) => addDistanceReport(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/timereports/distance',
    access: DISTANCE_MODULE,
    input: asSent(ZTrip),
    summary: `Changes a trip {id, …} ${TRIP_IN}; the next reading's trip is recomputed → {distanceReport: ${TRIP}}; ${LOCKED}`,
    handler: (ctx, input) => editDistanceReport(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/timereports/distance/:id',
    access: DISTANCE_MODULE,
    input: byId,
    summary: `Deletes a trip; the next reading's trip then measures from the one before → {ok}; ${LOCKED}`,
    handler: async (ctx, input: Input) => {
      await deleteDistanceReport(ctx, input.id);
      return { ok: true };
    },
  }),
  // compensation
  defineCall({
    method: 'GET',
    path: '/timereports/week/compensation/:year/:week',
    access: SIGNED_IN,
    input: asSent(ZIsoWeek.safeExtend(forPerson)),
    summary: `A person's compensations of an ISO week ?userId → {year, week, days, compensationReports: [${COMPENSATION}], totalAmount}`,
    handler: (ctx, input: Input) => weekCompensationReports(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/compensation',
    access: SIGNED_IN,
    input: asSent(ZPersonPeriod),
    summary: `A person's compensations ?userId&startTime&endTime (at most 60 days) → {compensationReports: [${COMPENSATION}], totalAmount}`,
    handler: (ctx, input: Input) => listCompensationReports(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/compensation/receipt',
    access: SIGNED_IN,
    input: z.object(forPerson),
    receive: receipts,
    summary: `Uploads receipts ?userId (multipart/form-data, \`file\` parts; the file types of the file calls) → {files: [${RECEIPT}]}, to link in data.receiptFileIds; 413 STORAGE_QUOTA_EXCEEDED, FILE_TOO_LARGE`,
    handler: (ctx, input: Input) => attachReceipts(ctx, input.userId, input.received as Received),
  }),
  defineCall({
    method: 'GET',
    path: '/timereports/compensation/receipt/:id',
    access: SIGNED_IN,
    input: byId,
    summary: 'A receipt itself (images and PDF inline unless ?download=1)',
    handler: async (ctx, input: Input, meta) =>
      downloadReply(await receiptForDownload(ctx, input.id), { range: meta.range, attachment: input.download === '1' }),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/compensation',
    access: SIGNED_IN,
    input: asSent(ZCompensationReport),
    summary: `Adds a compensation ${COMPENSATION_IN} → {compensationReport: ${COMPENSATION}}; 400 ERROR_TAG_INACTIVE on tagId; ${LOCKED}`,
    handler: (ctx, input) => addCompensationReport(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/timereports/compensation',
    access: SIGNED_IN,
    input: asSent(ZCompensationReport),
    summary: `Changes a compensation {id, …} ${COMPENSATION_IN}; receipts no longer linked are deleted → {compensationReport}; ${LOCKED}`,
    handler: (ctx, input) => editCompensationReport(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/timereports/compensation/:id',
    access: SIGNED_IN,
    input: byId,
    summary: `Deletes a compensation with its receipts → {ok}; ${LOCKED}`,
    handler: async (ctx, input: Input) => {
      await deleteCompensationReport(ctx, input.id);
      return { ok: true };
    },
  }),
  // compensation tags (settings → compensation types)
  defineCall({
    method: 'GET',
    path: '/timereports/conf/compensation/tags',
    access: SIGNED_IN,
    input: z.object({ active: z.string().optional() }),
    summary: `The compensation tags in their order ?active=1 (only active) → {tags: [${TAG}]}`,
    handler: (ctx, input: Input) => listCompensationTags(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/timereports/conf/compensation/tags',
    access: { permission: 'instance:edit' },
    input: asSent(ZCompensationTag),
    summary: `Adds a compensation tag {code, name?, type, unitPrice? (per km or day; none for an expense), payrollCode?, active?, sortOrder?} → {tag: ${TAG}}; 409 DUPLICATE_COMPENSATION_TAG`,
    handler: (ctx, input) => addCompensationTag(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/timereports/conf/compensation/tags',
    access: { permission: 'instance:edit' },
    input: asSent(ZEditCompensationTag),
    summary:
      'Changes a compensation tag {id, …as POST} → {tag}; a tag in use keeps its type (400 ERROR_TYPE_IN_USE); 409 DUPLICATE_COMPENSATION_TAG',
    handler: (ctx, input) => editCompensationTag(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/timereports/conf/compensation/tags/:id',
    access: { permission: 'instance:edit' },
    input: byId,
    summary:
      'Deletes a compensation tag → {ok}; one that reports use is 409 IN_USE {usedBy: {compensationReports, distanceReports}}: set it inactive (PUT active: false) instead',
    handler: async (ctx, input: Input) => {
      await deleteCompensationTag(ctx, input.id);
      return { ok: true };
    },
  }),
];
