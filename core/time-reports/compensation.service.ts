import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import type { FileDownload } from '~/core/files/files.service';
import { quotaLeftBytes } from '~/core/files/files.service';
import { isInlineType } from '~/core/files/inspect';
import type { Received } from '~/core/files/receive';
import { deleteAfterCommit } from '~/core/files/store';
import { recordHistory } from '~/core/history/history';
import { compensationAmount, hasTwoDecimals, MAX_AMOUNT, MAX_QUANTITY, totalAmount } from './compensation.rules';
import { toCompensationTag, type CompensationTag } from './compensation-tags.service';
import { expensesInSpan, expensesOfWeek, fieldError, zComment, zOptionalId, zTypedNumber } from './expense-common';
import { requireExpenseReader, requireExpenseWriter, requireRowWriter } from './expense-access';
import { isDateLocked } from './period-lock';
import { timeLockState } from './period-lock.service';
import { assertTimeChangeable } from './time-guard.service';

/**
 * Compensations (spec section 3 "Compensation report: tagId, comment, data, date, userId";
 * api-calls.md POST and PUT /timereports/compensation, DELETE by id, GET
 * /timereports/week/compensation/{year}/{week}). A report names an active compensation tag; a
 * distance tag takes kilometres and a travel tag days, priced server-side at the tag's unit price
 * when it has one; an expense takes the amount on its receipt. `data` carries {quantity, amount,
 * receiptFileIds, …}: the receipts are files uploaded first (POST
 * /timereports/compensation/receipt), kept in the file store as the person's
 * (owner_type `compensation_receipt`, owner_id the person) and linked here by id; a receipt no
 * report links any more is deleted with it. Locked months and approved periods refuse changes
 * (409 TIME_REPORT_LOCKED). History: entity `compensation_report`.
 */

export const COMPENSATION_REPORT_ENTITY = 'compensation_report';
/** The files table's owner_type of a receipt; its owner_id is the person it belongs to. */
export const RECEIPT_OWNER = 'compensation_receipt';
/** Receipts one report may link. */
const MAX_RECEIPTS = 10;

export interface Receipt {
  id: string;
  name: string;
  contentType: string | null;
  size: number;
}

export interface CompensationReport {
  id: string;
  userId: string;
  tagId: string;
  tagCode: string;
  tagName: string | null;
  tagType: CompensationTag['type'];
  date: string;
  comment: string | null;
  /** Kilometres (distance), days (travel), or 1 (expense). */
  quantity: number;
  amount: number;
  /** The payload as sent, with the quantity and amount as stored. */
  data: { quantity: number; amount: number; receiptFileIds: string[] } & Record<string, unknown>;
  receipts: Receipt[];
  locked: boolean;
}

type Row = Record<string, unknown>;

const columns = (ctx: Ctx) => [
  'c.id',
  'c.user_id',
  'c.tag_id',
  't.code as tag_code',
  't.name as tag_name',
  't.type as tag_type',
  ctx.trx.raw(`to_char(c.date, 'YYYY-MM-DD') as date_text`),
  'c.comment',
  ctx.trx.raw('c.quantity::text as quantity'),
  ctx.trx.raw('c.amount::text as amount'),
  'c.data',
];

const selectReports = (ctx: Ctx) =>
  ctx
    .trx('compensation_reports as c')
    .join('compensation_tags as t', 't.id', 'c.tag_id')
    .select(columns(ctx))
    .orderBy([{ column: 'c.date' }, { column: 'c.created_at' }, { column: 'c.id' }]);

const receiptIdsOf = (data: unknown): string[] => {
  const ids = (data as { receiptFileIds?: unknown } | null)?.receiptFileIds;
  return Array.isArray(ids) ? ids.filter((v): v is string => typeof v === 'string') : [];
};

/** Rows as reports, with their receipts (one query for all) and lock marks. */
async function toReports(ctx: Ctx, rows: Row[]): Promise<CompensationReport[]> {
  if (!rows.length) return [];
  const ids = [...new Set(rows.flatMap((r) => receiptIdsOf(r.data)))];
  const files = ids.length
    ? ((await ctx
        .trx('files')
        .whereIn('id', ids)
        .andWhere({ owner_type: RECEIPT_OWNER, kind: 'file' })
        .select('id', 'name', 'content_type', 'size')) as Row[])
    : [];
  const byId = new Map(
    files.map((f) => [
      f.id as string,
      {
        id: f.id as string,
        name: f.name as string,
        contentType: (f.content_type as string | null) ?? null,
        size: Number(f.size),
      },
    ]),
  );
  const lock = await timeLockState(ctx);
  return rows.map((r) => {
    const quantity = Number(r.quantity);
    const amount = Number(r.amount);
    const receiptFileIds = receiptIdsOf(r.data);
    const date = r.date_text as string;
    return {
      id: r.id as string,
      userId: r.user_id as string,
      tagId: r.tag_id as string,
      tagCode: r.tag_code as string,
      tagName: (r.tag_name as string | null) ?? null,
      tagType: r.tag_type as CompensationTag['type'],
      date,
      comment: (r.comment as string | null) ?? null,
      quantity,
      amount,
      data: { ...((r.data as Record<string, unknown> | null) ?? {}), quantity, amount, receiptFileIds },
      receipts: receiptFileIds.flatMap((id) => byId.get(id) ?? []),
      locked: isDateLocked(lock, date),
    };
  });
}

async function readReport(ctx: Ctx, id: unknown): Promise<CompensationReport> {
  if (!isUuid(id)) throw notFound();
  const row = (await selectReports(ctx).where('c.id', id).first()) as Row | undefined;
  if (!row) throw notFound();
  return (await toReports(ctx, [row]))[0]!;
}

async function reportsBetween(ctx: Ctx, userId: string, from: string, to: string): Promise<CompensationReport[]> {
  return toReports(
    ctx,
    (await selectReports(ctx).where('c.user_id', userId).whereBetween('c.date', [from, to])) as Row[],
  );
}

/** GET /timereports/compensation?userId&startTime&endTime: a person's compensations over at most 60 days. */
export async function listCompensationReports(
  ctx: Ctx,
  raw: Record<string, unknown>,
): Promise<{ compensationReports: CompensationReport[]; totalAmount: number }> {
  const compensationReports = await expensesInSpan(ctx, 'compensation', raw, reportsBetween);
  return { compensationReports, totalAmount: totalAmount(compensationReports) };
}

/** GET /timereports/week/compensation/{year}/{week}?userId: the week's compensations and their total. */
export async function weekCompensationReports(
  ctx: Ctx,
  raw: { year?: unknown; week?: unknown; userId?: unknown },
): Promise<{
  year: number;
  week: number;
  days: string[];
  compensationReports: CompensationReport[];
  totalAmount: number;
}> {
  const { year, week, days, reports } = await expensesOfWeek(ctx, 'compensation', raw, reportsBetween);
  return { year, week, days, compensationReports: reports, totalAmount: totalAmount(reports) };
}

const zNumber = (max: number) => zTypedNumber(max, hasTwoDecimals);

/** What else a report may carry (places, purpose …): short plain values, a handful of them. */
const zExtra = z.union([z.string().max(500, 'ERROR_MAX_LENGTH'), z.number(), z.boolean(), z.null()]);

const ZData = z
  .object({
    quantity: zNumber(MAX_QUANTITY),
    amount: zNumber(MAX_AMOUNT),
    receiptFileIds: z
      .array(z.string().refine(isUuid, 'ERROR_INVALID_VALUE'))
      .max(MAX_RECEIPTS, 'ERROR_INVALID_VALUE')
      .optional(),
  })
  .catchall(zExtra)
  .refine((d) => Object.keys(d).length <= 20, 'ERROR_INVALID_VALUE');

export const ZCompensationReport = z.object({
  id: zOptionalId(),
  userId: zOptionalId(),
  tagId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD'),
  date: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'ERROR_INVALID_VALUE')
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'ERROR_INVALID_VALUE'),
  comment: zComment(),
  data: z.preprocess((v) => v ?? {}, ZData),
});

type CompensationInput = z.infer<typeof ZCompensationReport>;

/** The tag named: it must exist, and be active unless the report already had it. */
async function checkTag(ctx: Ctx, tagId: string, keep: string | null): Promise<CompensationTag> {
  const row = isUuid(tagId)
    ? ((await ctx.trx('compensation_tags').where({ id: tagId }).first()) as Row | undefined)
    : undefined;
  if (!row) throw fieldError('tagId', 'ERROR_INVALID_VALUE');
  const tag = toCompensationTag(row);
  if (!tag.active && tag.id !== keep) throw fieldError('tagId', 'ERROR_TAG_INACTIVE');
  return tag;
}

/**
 * The receipts linked: each a receipt of this person in this tenant, linked by no other report
 * (400 on data.receiptFileIds otherwise).
 */
async function checkReceipts(ctx: Ctx, userId: string, ids: string[], reportId: string | null): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const found = (await ctx
    .trx('files')
    .whereIn('id', unique)
    .andWhere({ owner_type: RECEIPT_OWNER, owner_id: userId, kind: 'file' })
    .pluck('id')) as string[];
  if (found.length !== unique.length) throw fieldError('data.receiptFileIds', 'ERROR_INVALID_VALUE');
  const taken = ctx
    .trx('compensation_reports as c')
    .where('c.user_id', userId)
    .whereRaw(
      `exists (select 1 from jsonb_array_elements_text(coalesce(c.data->'receiptFileIds', '[]'::jsonb)) e where e = any(?::text[]))`,
      [unique],
    );
  if (reportId) void taken.whereNot('c.id', reportId);
  if (await taken.first('c.id')) throw fieldError('data.receiptFileIds', 'ERROR_INVALID_VALUE');
  return unique;
}

/** Deletes receipts no report links any more (the bytes after commit). */
async function dropReceipts(ctx: Ctx, userId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const gone = (await ctx
    .trx('files as f')
    .whereIn('f.id', ids)
    .andWhere({ 'f.owner_type': RECEIPT_OWNER, 'f.owner_id': userId })
    .whereNotExists(
      ctx
        .trx('compensation_reports as c')
        .where('c.user_id', userId)
        .whereRaw(`c.data->'receiptFileIds' @> jsonb_build_array(f.id::text)`),
    )
    .delete()
    .returning(['storage_key', 'thumb_key'])) as { storage_key: string | null; thumb_key: string | null }[];
  deleteAfterCommit(
    ctx.trx,
    gone.flatMap((r) => [r.storage_key, r.thumb_key]),
  );
}

/** The stored columns of a report: its quantity and amount by the tag's rule, the rest in data. */
async function valuesOf(
  ctx: Ctx,
  input: CompensationInput,
  userId: string,
  tag: CompensationTag,
  reportId: string | null,
) {
  const { quantity, amount, receiptFileIds, ...extra } = input.data;
  const priced = compensationAmount(tag, { quantity, amount });
  if (!priced.ok)
    throw new AppError('VALIDATION_FAILED', 400, {
      fields: Object.fromEntries(Object.entries(priced.fields).map(([k, v]) => [`data.${k}`, v])),
    });
  const receipts = await checkReceipts(ctx, userId, receiptFileIds ?? [], reportId);
  return {
    tag_id: tag.id,
    date: input.date,
    comment: input.comment ?? null,
    quantity: priced.quantity,
    amount: priced.amount,
    data: JSON.stringify({ ...extra, receiptFileIds: receipts }),
  };
}

const summary = (r: CompensationReport) => ({
  userId: r.userId,
  tagCode: r.tagCode,
  date: r.date,
  quantity: r.quantity,
  amount: r.amount,
  comment: r.comment,
  receiptFileIds: r.data.receiptFileIds,
});

/**
 * POST /timereports/compensation {tagId, date, comment?, userId?, data: {quantity?, amount?,
 * receiptFileIds?, …}}: a compensation of the asker (or of `userId`, with timereports:edit).
 * → {compensationReport}
 */
export async function addCompensationReport(
  ctx: Ctx,
  raw: unknown,
): Promise<{ compensationReport: CompensationReport }> {
  const input = parseInput(ZCompensationReport, raw);
  const user = await requireExpenseWriter(ctx, 'compensation', input.userId);
  await assertTimeChangeable(ctx, user.id, input.date);
  const tag = await checkTag(ctx, input.tagId, null);
  const [{ id }] = (await ctx
    .trx('compensation_reports')
    .insert({ user_id: user.id, ...(await valuesOf(ctx, input, user.id, tag, null)) })
    .returning('id')) as { id: string }[];
  const report = await readReport(ctx, id);
  await recordHistory(ctx, { entity: COMPENSATION_REPORT_ENTITY, entityId: id, action: 'add', data: summary(report) });
  return { compensationReport: report };
}

/** PUT /timereports/compensation {id, …as POST}: its person stays; both the old and new date must be open. */
export async function editCompensationReport(
  ctx: Ctx,
  raw: unknown,
): Promise<{ compensationReport: CompensationReport }> {
  const input = parseInput(ZCompensationReport, raw);
  const before = await readReport(ctx, input.id);
  requireRowWriter(ctx, 'compensation', before.userId);
  await assertTimeChangeable(ctx, before.userId, before.date, input.date);
  const tag = await checkTag(ctx, input.tagId, before.tagId);
  await ctx
    .trx('compensation_reports')
    .where({ id: before.id })
    .update(await valuesOf(ctx, input, before.userId, tag, before.id));
  const report = await readReport(ctx, before.id);
  await dropReceipts(
    ctx,
    before.userId,
    before.data.receiptFileIds.filter((f) => !report.data.receiptFileIds.includes(f)),
  );
  await recordHistory(ctx, {
    entity: COMPENSATION_REPORT_ENTITY,
    entityId: report.id,
    action: 'edit',
    data: { old: summary(before), new: summary(report) },
  });
  return { compensationReport: report };
}

/** DELETE /timereports/compensation/{id}: with the receipts it linked. */
export async function deleteCompensationReport(ctx: Ctx, id: unknown): Promise<void> {
  const report = await readReport(ctx, id);
  requireRowWriter(ctx, 'compensation', report.userId);
  await assertTimeChangeable(ctx, report.userId, report.date);
  await ctx.trx('compensation_reports').where({ id: report.id }).delete();
  await dropReceipts(ctx, report.userId, report.data.receiptFileIds);
  await recordHistory(ctx, {
    entity: COMPENSATION_REPORT_ENTITY,
    entityId: report.id,
    action: 'delete',
    data: summary(report),
  });
}

/**
 * POST /timereports/compensation/receipt?userId (multipart, `file` parts): receipts of the asker
 * (or of `userId`, with timereports:edit), stored in the file store before any report links them.
 * → {files: [{id, name, contentType, size}]}; the tenant's storage quota applies (413).
 */
export async function attachReceipts(ctx: Ctx, rawUserId: unknown, received: Received): Promise<{ files: Receipt[] }> {
  const user = await requireExpenseWriter(ctx, 'compensation', rawUserId);
  const files: Receipt[] = [];
  for (const f of received.files) {
    const [row] = (await ctx
      .trx('files')
      .insert({
        owner_type: RECEIPT_OWNER,
        owner_id: user.id,
        kind: 'file',
        name: f.name,
        storage_key: f.storageKey,
        thumb_key: f.thumbKey,
        content_type: f.contentType,
        size: f.size,
        created_by: ctx.auth!.user.id,
        created_at: ctx.now,
        updated_at: ctx.now,
      })
      .returning('id')) as { id: string }[];
    files.push({ id: row!.id, name: f.name, contentType: f.contentType, size: f.size });
  }
  if ((await quotaLeftBytes(ctx)) < 0)
    throw new AppError('STORAGE_QUOTA_EXCEEDED', 413, {
      fields: { file: ['STORAGE_QUOTA_EXCEEDED'] },
      limits: { file: ctx.tenant.config.files?.quotaMb ?? 10_240 },
    });
  return { files };
}

/** GET /timereports/compensation/receipt/{id}: a receipt, for whoever may read its person's compensations. */
export async function receiptForDownload(ctx: Ctx, id: unknown): Promise<FileDownload> {
  if (!isUuid(id)) throw notFound();
  const row = (await ctx.trx('files').where({ id, owner_type: RECEIPT_OWNER, kind: 'file' }).first()) as
    Row | undefined;
  if (!row) throw notFound();
  await requireExpenseReader(ctx, 'compensation', row.owner_id);
  const contentType = row.content_type as string;
  return {
    name: row.name as string,
    contentType,
    size: Number(row.size),
    storageKey: row.storage_key as string,
    inline: isInlineType(contentType),
  };
}
