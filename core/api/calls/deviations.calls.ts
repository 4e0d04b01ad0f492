import { z } from 'zod';
import {
  closeDeviation,
  createDeviation,
  deleteDeviation,
  deleteDeviationCategory,
  DEVIATION_ACCESS,
  deviationHistory,
  deviationStats,
  getDeviation,
  listDeviationCategories,
  listDeviations,
  patchDeviation,
  relationsFrom,
  reopenDeviation,
  saveDeviationCategory,
  setDeviationRelations,
  statsByCategory,
  statsByRelation,
  statsLatest,
} from '~/core/deviations/deviation.service';
import {
  RELATION_KINDS,
  ZCloseDeviation,
  ZCreateDeviation,
  ZDeviationCategory,
  ZDeviationFilter,
  ZDeviationRelations,
  ZPatchDeviation,
} from '~/core/deviations/deviation.schema';
import { deviationPdf } from '~/core/deviations/deviation-document';
import { exportDeviations } from '~/core/deviations/deviation-export';
import { EXPORT_FORMATS } from '~/core/reports/report-constants';
import { asSent, defineCall, shownOnly, type ApiCall } from '../define-call';
import { fileReply } from './work-order-documents.calls';

const byId = z.object({ id: z.string() });

/**
 * The catalogue's deviation calls (api-calls.md "Deviations"), with reopen, the history, the
 * dashboard in one call, the relations a record raises and the categories (issue 34). Fixed paths
 * (/stats/…, /categories, /from) before /deviations/:id.
 */
export const deviationCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/deviations',
    access: DEVIATION_ACCESS.read,
    input: asSent(ZDeviationFilter),
    summary:
      'Deviations ?status (open|closed|all, default open)&categoryId&relationKind&relationId&responsibleUserId&from&to&overdue&q&offset&limit, newest first → {deviations, totalCount}',
    handler: (ctx, input) => listDeviations(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/deviations/stats/category',
    access: DEVIATION_ACCESS.read,
    input: z.object({}),
    summary: 'Open deviations by category → [{categoryId, name, count}] (categoryId null: none)',
    handler: (ctx) => statsByCategory(ctx),
  }),
  defineCall({
    method: 'GET',
    path: '/deviations/stats/relation',
    access: DEVIATION_ACCESS.read,
    input: z.object({}),
    summary: 'Open deviations by relation kind → [{kind, count}] (kind null: about nothing)',
    handler: (ctx) => statsByRelation(ctx),
  }),
  defineCall({
    method: 'GET',
    path: '/deviations/stats/latest',
    access: DEVIATION_ACCESS.read,
    input: z.object({}),
    summary: 'The ten deviations raised last',
    handler: (ctx) => statsLatest(ctx),
  }),
  defineCall({
    method: 'GET',
    path: '/deviations/stats',
    access: DEVIATION_ACCESS.read,
    input: z.object({}),
    summary: 'The dashboard → {openCount, overdueCount, byCategory, byRelation, latest, overdue, trend (12 months: opened, closed)}',
    handler: (ctx) => deviationStats(ctx),
  }),
  defineCall({
    method: 'GET',
    path: '/deviations/export',
    access: DEVIATION_ACCESS.read,
    input: asSent(ZDeviationFilter.extend({ format: z.enum(EXPORT_FORMATS, { error: 'ERROR_INVALID_VALUE' }) })),
    summary: 'The filtered list (the same query as GET /deviations) as a file ?format=csv|xlsx, up to 10,000 rows',
    handler: async (ctx, input) => fileReply(await exportDeviations(ctx, input as Record<string, unknown>)),
  }),
  defineCall({
    method: 'GET',
    path: '/deviations/categories',
    access: DEVIATION_ACCESS.read,
    input: z.object({}),
    summary: "The tenant's categories → [{id, name, notifyUserIds}]",
    handler: (ctx) => listDeviationCategories(ctx),
  }),
  defineCall({
    method: 'POST',
    path: '/deviations/categories',
    access: DEVIATION_ACCESS.settingsEdit,
    input: asSent(ZDeviationCategory),
    summary: 'Settings: a new category (name 2–50, unique) or, with id, one renamed, and who is notified → {id}',
    handler: (ctx, input) => saveDeviationCategory(ctx, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/deviations/categories/:id',
    access: DEVIATION_ACCESS.settingsEdit,
    input: byId,
    summary: 'Removes a category no deviation uses (409 DEVIATION_CATEGORY_IN_USE)',
    handler: (ctx, input) => deleteDeviationCategory(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/deviations/from/:kind/:id',
    access: DEVIATION_ACCESS.create,
    input: z.object({ kind: z.enum(RELATION_KINDS, { error: 'ERROR_INVALID_VALUE' }), id: z.string(), field: z.string().max(200).optional() }),
    summary: 'The relations a deviation raised from this record starts with (the record and what it belongs to)',
    handler: (ctx, input) => relationsFrom(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/deviations',
    access: DEVIATION_ACCESS.create,
    input: asSent(ZCreateDeviation),
    summary: 'Raises a deviation {title, description?, categoryId?, occurredOn?, responsibleUserId?, dueDate?, relations?} → {id, number}',
    handler: (ctx, input) => createDeviation(ctx, input),
  }),
  defineCall({
    method: 'PATCH',
    path: '/deviations',
    access: DEVIATION_ACCESS.edit,
    input: shownOnly(ZPatchDeviation),
    summary:
      'Changes an open deviation {id, …fields, changeNeeded?, changeState? (started → defined → needs_work|approved)}; left out: unchanged',
    handler: (ctx, input) => patchDeviation(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/deviations/:id',
    access: DEVIATION_ACCESS.read,
    input: byId,
    summary: 'One deviation → {deviation, relations}',
    handler: (ctx, input) => getDeviation(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/deviations/:id/history',
    access: DEVIATION_ACCESS.read,
    input: byId,
    summary: "The deviation's history, newest first",
    handler: (ctx, input) => deviationHistory(ctx, input.id),
  }),
  defineCall({
    method: 'GET',
    path: '/deviations/:id/pdf',
    access: DEVIATION_ACCESS.read,
    input: byId,
    summary: 'The deviation report → application/pdf (printed after the unit of work)',
    handler: async (ctx, input) => (await deviationPdf(ctx, input.id)).map(fileReply),
  }),
  defineCall({
    method: 'PUT',
    path: '/deviations/:id/relations',
    access: DEVIATION_ACCESS.edit,
    input: shownOnly(ZDeviationRelations),
    summary: 'Replaces the relations {relations: [{kind, targetId, field?}]} → {relations}',
    handler: (ctx, input) => setDeviationRelations(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/deviations/:id/close',
    access: DEVIATION_ACCESS.close,
    input: shownOnly(ZCloseDeviation),
    summary: 'Closes with a comment {comment}; a needed change must be approved first',
    handler: (ctx, input) => closeDeviation(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/deviations/:id/reopen',
    access: DEVIATION_ACCESS.close,
    input: byId,
    summary: 'Opens a closed deviation again',
    handler: (ctx, input) => reopenDeviation(ctx, input.id),
  }),
  defineCall({
    method: 'DELETE',
    path: '/deviations/:id',
    access: DEVIATION_ACCESS.delete,
    input: byId,
    summary: 'Deletes the deviation, its relations and files',
    handler: (ctx, input) => deleteDeviation(ctx, input.id),
  }),
];
