import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { APPLY_TYPES, type ApplyType } from './apply-types';
import { requireAccess, type Access } from '~/core/permissions/access';

/*
 * Settings → invoicing (issue 14 items 1 and 6; spec section 3 "invoice rules"): whether closing an
 * order leaves a draft to review, how labour, travel time and mileage are billed from the time rows
 * (the article, per work type or per person, the minutes rounded up), the bank account printed on
 * the invoice, OCR references, and the next invoice number. invoice_settings has one row;
 * invoice_labour_articles the overrides (a person's article wins over the work type's, which wins
 * over the tenant's: core/invoicing/invoice-lines.ts).
 */

/** Reading: the instance's settings with the invoice-rules module on (as Settings → ERP). */
export const INVOICE_RULES_READ: Access = { permission: 'instance:read', module: 'invoice_rules' };
/** Changing them: instance:edit, the module on. */
export const INVOICE_RULES_EDIT: Access = { permission: 'instance:edit', module: 'invoice_rules' };
export const INVOICE_RULES_ENTITY = 'invoice_settings';

/** Each person's minutes are rounded up to one of these (0: exact); the table's check says the same. */
export const TIME_ROUNDING_MINUTES = [0, 5, 10, 15, 30, 60] as const;
export const BANK_ACCOUNT_MAX = 50;

export interface ArticleRef {
  id: string;
  /** The article number people know it by (spec: article ID). */
  articleId: string;
  title: string;
}

export interface WorkTypeOverride {
  id: string;
  workType: { id: string; name: string };
  article: ArticleRef;
}

export interface UserOverride {
  id: string;
  user: { id: string; name: string };
  article: ArticleRef;
}

export interface InvoiceRulesView {
  reviewBeforeSending: boolean;
  /** The apply types the invoice screen does not offer (issue 15 item 5). */
  applyTypesOff: ApplyType[];
  billTime: boolean;
  labourArticle: ArticleRef | null;
  billTravelTime: boolean;
  travelArticle: ArticleRef | null;
  timeRoundingMinutes: number;
  mileageArticle: ArticleRef | null;
  bankAccount: string | null;
  ocr: boolean;
  nextInvoiceNr: number;
  /** The lowest next number allowed: one above the highest number already given. */
  lowestNextInvoiceNr: number;
  overrides: { workTypes: WorkTypeOverride[]; users: UserOverride[] };
}

const articleJson = (alias: string) =>
  `case when ${alias}.id is null then null else json_build_object('id', ${alias}.id, 'articleId', ${alias}.article_id, 'title', ${alias}.title) end`;

/** The settings row, its articles, the overrides and the highest number given: one statement. */
const RULES_SQL = `
  select s.review_before_sending, s.apply_types_off, s.bill_time, s.bill_travel_time, s.time_rounding_minutes, s.bank_account, s.ocr,
         s.next_invoice_nr::text as next_invoice_nr,
         ${articleJson('la')} as labour_article,
         ${articleJson('ta')} as travel_article,
         ${articleJson('ma')} as mileage_article,
         (select coalesce(max(invoice_sequence), 0)::text from invoices) as highest_nr,
         (select coalesce(json_agg(json_build_object('id', o.id,
                   'workType', json_build_object('id', w.id, 'name', w.name),
                   'article', json_build_object('id', a.id, 'articleId', a.article_id, 'title', a.title))
                 order by w.sort_order, w.name, o.id), '[]')
            from invoice_labour_articles o
            join work_types w on w.id = o.work_type_id
            join articles a on a.id = o.article_id) as work_type_overrides,
         (select coalesce(json_agg(json_build_object('id', o.id,
                   'user', json_build_object('id', u.id, 'name', u.name),
                   'article', json_build_object('id', a.id, 'articleId', a.article_id, 'title', a.title))
                 order by lower(u.name), o.id), '[]')
            from invoice_labour_articles o
            join users u on u.id = o.user_id
            join articles a on a.id = o.article_id) as user_overrides
    from (select true as one) d
    left join invoice_settings s on true
    left join articles la on la.id = s.labour_article_id
    left join articles ta on ta.id = s.travel_article_id
    left join articles ma on ma.id = s.mileage_article_id`;

interface RulesRow {
  review_before_sending: boolean | null;
  apply_types_off: string[] | null;
  bill_time: boolean | null;
  bill_travel_time: boolean | null;
  time_rounding_minutes: number | null;
  bank_account: string | null;
  ocr: boolean | null;
  next_invoice_nr: string | null;
  labour_article: ArticleRef | null;
  travel_article: ArticleRef | null;
  mileage_article: ArticleRef | null;
  highest_nr: string;
  work_type_overrides: WorkTypeOverride[];
  user_overrides: UserOverride[];
}

async function readRules(ctx: Ctx): Promise<InvoiceRulesView> {
  const { rows } = (await ctx.trx.raw(RULES_SQL)) as { rows: RulesRow[] };
  const r = rows[0]!;
  const highest = Number(r.highest_nr);
  return {
    reviewBeforeSending: Boolean(r.review_before_sending),
    applyTypesOff: (r.apply_types_off ?? []).filter((t): t is ApplyType =>
      (APPLY_TYPES as readonly string[]).includes(t),
    ),
    // the table's defaults when the row is missing
    billTime: r.bill_time ?? true,
    labourArticle: r.labour_article,
    billTravelTime: Boolean(r.bill_travel_time),
    travelArticle: r.travel_article,
    timeRoundingMinutes: Number(r.time_rounding_minutes ?? 0),
    mileageArticle: r.mileage_article,
    bankAccount: r.bank_account ?? null,
    ocr: r.ocr ?? true,
    nextInvoiceNr: Number(r.next_invoice_nr ?? 1),
    lowestNextInvoiceNr: highest + 1,
    overrides: { workTypes: r.work_type_overrides, users: r.user_overrides },
  };
}

/** GET /instance/invoicerules: the rules with their articles' numbers and titles, and the overrides. */
export async function getInvoiceRules(ctx: Ctx): Promise<InvoiceRulesView> {
  requireAccess(ctx.auth, INVOICE_RULES_READ);
  return readRules(ctx);
}

const emptyToNull = (v: unknown) => (v === '' ? null : v);

/** An article reference: an id, or null/"" for none. Whether it names an active article is checked in the database. */
const zArticleRef = z.preprocess(
  emptyToNull,
  z.string({ error: 'ERROR_INVALID_VALUE' }).trim().toLowerCase().nullable().optional(),
);
const zFlag = z.boolean({ error: 'ERROR_INVALID_VALUE' }).optional();

/** An id in an override row (a UUID names a row here; letter case does not matter). */
const zId = z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().toLowerCase().min(1, 'ERROR_REQUIRED_FIELD');

export const ZInvoiceRules = z.object({
  reviewBeforeSending: zFlag,
  applyTypesOff: z
    .array(z.enum(APPLY_TYPES, { error: 'ERROR_INVALID_VALUE' }), { error: 'ERROR_INVALID_VALUE' })
    .max(APPLY_TYPES.length, 'ERROR_INVALID_VALUE')
    .optional(),
  billTime: zFlag,
  labourArticleId: zArticleRef,
  billTravelTime: zFlag,
  travelArticleId: zArticleRef,
  timeRoundingMinutes: z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
      z
        .number({ error: 'ERROR_INVALID_VALUE' })
        .refine((n) => (TIME_ROUNDING_MINUTES as readonly number[]).includes(n), 'ERROR_INVALID_VALUE'),
    )
    .optional(),
  mileageArticleId: zArticleRef,
  bankAccount: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string({ error: 'ERROR_INVALID_VALUE' }).max(BANK_ACCOUNT_MAX, 'ERROR_MAX_LENGTH').nullable().optional(),
  ),
  ocr: zFlag,
  nextInvoiceNr: z
    .preprocess(
      (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
      z
        .number({ error: 'ERROR_INVALID_VALUE' })
        .int('ERROR_INVALID_VALUE')
        .min(1, 'ERROR_INVALID_VALUE')
        .max(Number.MAX_SAFE_INTEGER, 'ERROR_INVALID_VALUE'),
    )
    .optional(),
  /** When sent, the overrides become exactly these. */
  overrides: z
    .object({
      workTypes: z
        .array(
          z.object({
            workTypeId: zId,
            articleId: zId,
          }),
          { error: 'ERROR_INVALID_VALUE' },
        )
        .max(500, 'ERROR_INVALID_VALUE')
        .default([]),
      users: z
        .array(
          z.object({
            userId: zId,
            articleId: zId,
          }),
          { error: 'ERROR_INVALID_VALUE' },
        )
        .max(2000, 'ERROR_INVALID_VALUE')
        .default([]),
    })
    .optional(),
});
export type InvoiceRulesInput = z.infer<typeof ZInvoiceRules>;

const SCALARS = {
  reviewBeforeSending: 'review_before_sending',
  billTime: 'bill_time',
  labourArticleId: 'labour_article_id',
  billTravelTime: 'bill_travel_time',
  travelArticleId: 'travel_article_id',
  timeRoundingMinutes: 'time_rounding_minutes',
  mileageArticleId: 'mileage_article_id',
  bankAccount: 'bank_account',
  ocr: 'ocr',
  nextInvoiceNr: 'next_invoice_nr',
} as const satisfies Partial<Record<keyof InvoiceRulesInput, string>>;
type Scalar = keyof typeof SCALARS;

const uniq = (ids: string[]) => [...new Set(ids)];

/**
 * Which of the ids name rows of `table` here (ids that are not UUIDs name nothing), and for
 * articles whether each is active. One statement per table, whatever the number of ids.
 */
async function existing(ctx: Ctx, table: 'articles' | 'work_types' | 'users', ids: string[]) {
  const wanted = uniq(ids.filter(isUuid));
  const found = new Map<string, string>();
  if (!wanted.length) return found;
  const rows = (await ctx
    .trx(table)
    .whereIn('id', wanted)
    .select('id', table === 'work_types' ? ctx.trx.raw(`'active' as status`) : 'status')) as {
    id: string;
    status: string;
  }[];
  for (const r of rows) found.set(r.id, r.status);
  return found;
}

/**
 * PUT /instance/invoicerules: changes the rules sent (fields left out keep their value) and, when
 * `overrides` is sent, replaces the labour articles per work type and per person with those listed.
 * Every article must exist here and be active (`<field>` NOT_FOUND or ERROR_ARTICLE_INACTIVE; an id
 * of another tenant's article is not found); a work type or person at most once. The next invoice
 * number may only be raised above the highest number already given (ERROR_INVOICE_NUMBER_TAKEN):
 * final invoices are numbered without gaps or repeats, so the counter's row is locked first, as
 * finalizing does. One unit of work; one history row with what changed.
 */
export async function saveInvoiceRules(ctx: Ctx, raw: unknown): Promise<InvoiceRulesView> {
  requireAccess(ctx.auth, INVOICE_RULES_EDIT);
  const input = parseInput(ZInvoiceRules, raw);
  const fields: Record<string, string[]> = {};
  const fail = (key: string, code: string) => ((fields[key] ??= []).includes(code) ? null : fields[key].push(code));

  // the articles, work types and people named, each table read once
  const overrides = input.overrides;
  const articleFields = (['labourArticleId', 'travelArticleId', 'mileageArticleId'] as const).filter(
    (k) => typeof input[k] === 'string',
  );
  const articleIds = [
    ...articleFields.map((k) => input[k] as string),
    ...(overrides?.workTypes.map((o) => o.articleId) ?? []),
    ...(overrides?.users.map((o) => o.articleId) ?? []),
  ];
  const [articles, workTypes, users] = [
    await existing(ctx, 'articles', articleIds),
    await existing(ctx, 'work_types', overrides?.workTypes.map((o) => o.workTypeId) ?? []),
    await existing(ctx, 'users', overrides?.users.map((o) => o.userId) ?? []),
  ];
  const checkArticle = (key: string, id: string) => {
    const status = articles.get(id);
    if (!status) fail(key, 'NOT_FOUND');
    else if (status !== 'active') fail(key, 'ERROR_ARTICLE_INACTIVE');
  };
  for (const k of articleFields) checkArticle(k, input[k] as string);
  const seenTypes = new Set<string>();
  overrides?.workTypes.forEach((o, i) => {
    if (!workTypes.has(o.workTypeId)) fail(`overrides.workTypes.${i}.workTypeId`, 'NOT_FOUND');
    else if (seenTypes.has(o.workTypeId)) fail(`overrides.workTypes.${i}.workTypeId`, 'ERROR_WORK_TYPE_ALREADY_ADDED');
    seenTypes.add(o.workTypeId);
    checkArticle(`overrides.workTypes.${i}.articleId`, o.articleId);
  });
  const seenUsers = new Set<string>();
  overrides?.users.forEach((o, i) => {
    if (!users.has(o.userId)) fail(`overrides.users.${i}.userId`, 'NOT_FOUND');
    else if (seenUsers.has(o.userId)) fail(`overrides.users.${i}.userId`, 'ERROR_USER_ALREADY_ADDED');
    seenUsers.add(o.userId);
    checkArticle(`overrides.users.${i}.articleId`, o.articleId);
  });

  // the counter's row, locked against a finalize handing out a number meanwhile
  await ctx.trx.raw('insert into invoice_settings default values on conflict (id) do nothing');
  const before = (await ctx.trx('invoice_settings').forUpdate().first()) as Record<string, unknown>;
  const current = Number(before.next_invoice_nr);
  if (input.nextInvoiceNr !== undefined && input.nextInvoiceNr !== current) {
    const [{ highest }] = (await ctx.trx('invoices').max({ highest: 'invoice_sequence' })) as {
      highest: string | number | null;
    }[];
    if (input.nextInvoiceNr <= Number(highest ?? 0)) fail('nextInvoiceNr', 'ERROR_INVOICE_NUMBER_TAKEN');
  }
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });

  // what changed, for the update and the history
  const update: Record<string, unknown> = {};
  const changed: Record<string, { old: unknown; new: unknown }> = {};
  for (const [key, column] of Object.entries(SCALARS) as [Scalar, string][]) {
    const value = input[key];
    if (value === undefined) continue;
    const old = column === 'next_invoice_nr' ? Number(before[column]) : (before[column] ?? null);
    if (old === value) continue;
    update[column] = value;
    changed[key] = { old, new: value };
  }
  if (input.applyTypesOff) {
    const old = [...((before.apply_types_off as string[] | null) ?? [])].sort();
    const next = [...new Set(input.applyTypesOff)].sort();
    if (old.join() !== next.join()) {
      update.apply_types_off = next;
      changed.applyTypesOff = { old, new: next };
    }
  }
  if (Object.keys(update).length) await ctx.trx('invoice_settings').update({ ...update, updated_at: ctx.now });

  if (overrides) {
    const old = (await ctx.trx('invoice_labour_articles').select('work_type_id', 'user_id', 'article_id')) as {
      work_type_id: string | null;
      user_id: string | null;
      article_id: string;
    }[];
    const key = (kind: 'w' | 'u', id: string, article: string) => `${kind}:${id}:${article}`;
    const oldKeys = old.map((o) =>
      o.work_type_id ? key('w', o.work_type_id, o.article_id) : key('u', o.user_id!, o.article_id),
    );
    const newKeys = [
      ...overrides.workTypes.map((o) => key('w', o.workTypeId, o.articleId)),
      ...overrides.users.map((o) => key('u', o.userId, o.articleId)),
    ];
    if ([...oldKeys].sort().join() !== [...newKeys].sort().join()) {
      await ctx.trx('invoice_labour_articles').delete();
      const rows = [
        ...overrides.workTypes.map((o) => ({ work_type_id: o.workTypeId, user_id: null, article_id: o.articleId })),
        ...overrides.users.map((o) => ({ work_type_id: null, user_id: o.userId, article_id: o.articleId })),
      ];
      if (rows.length) await ctx.trx('invoice_labour_articles').insert(rows);
      changed.overrides = {
        old: { workTypes: old.filter((o) => o.work_type_id).length, users: old.filter((o) => o.user_id).length },
        new: { workTypes: overrides.workTypes.length, users: overrides.users.length },
      };
    }
  }

  if (Object.keys(changed).length)
    await recordHistory(ctx, { entity: INVOICE_RULES_ENTITY, entityId: ctx.tenant.id, action: 'edit', data: changed });
  return readRules(ctx);
}
