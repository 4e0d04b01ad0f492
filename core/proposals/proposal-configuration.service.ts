/**
 * Proposal and sales-order settings (issue 13 item 8; spec section 6: the proposal settings
 * switches; section 2: standard texts, custom fields, price templates; section 9: the price
 * templates' default tiers): read by the proposal screen, changed on Settings → proposals by
 * those with instance:edit. Each list is saved whole, in two statements whatever its length
 * (one upsert by id, one delete of the rest), so ids (and the custom-field values keyed by them)
 * survive a rename.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { isUuid, parseInput, zRequiredString } from '~/core/errors/validation';
import { requireAccess, type Access } from '~/core/permissions/access';
import { zMoney } from '~/core/pricing';
import { proposalSettings, type ProposalSettings } from './proposal.service';

const READ: Access = { permission: 'proposal:read', module: 'crm' };
const SETTINGS_READ: Access = { permission: 'settings:read' };
const SETTINGS_EDIT: Access = { permission: 'instance:edit' };

/** Spec section 9: the tiers a new price template starts from, and the larger set some tenants use. */
export const PRICE_TEMPLATE_TIERS = [
  ['2800.00', '4400.00', '6000.00'],
  ['5600.00', '8200.00', '10000.00'],
] as const;

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export interface StandardText {
  id: string;
  title: string;
  body: string;
}
export interface CustomField {
  id: string;
  label: string;
  type: CustomFieldType;
  required: boolean;
}
export interface PriceTemplate {
  id: string;
  title: string;
  articleId: string;
  articleTitle: string;
  monthly: boolean;
  tiers: { label: string; price: string }[];
}

/** What the proposal screen needs beyond the switches: the lists a tenant keeps. */
export interface ProposalLists {
  standardTexts: StandardText[];
  customFields: CustomField[];
  priceTemplates: PriceTemplate[];
}

export interface ProposalConfiguration extends ProposalSettings, ProposalLists {
  nextSequence: number;
  salesOrderNextNumber: number;
}

type Row = Record<string, unknown>;

/** The three lists in one statement. */
export async function proposalLists(ctx: Ctx): Promise<ProposalLists> {
  requireAccess(ctx.auth, READ);
  const { rows } = (await ctx.trx.raw(`select
      (select coalesce(json_agg(json_build_object('id', id, 'title', title, 'body', body) order by sort_order, title), '[]')
         from proposal_standard_texts) as "standardTexts",
      (select coalesce(json_agg(json_build_object('id', id, 'label', label, 'type', type, 'required', required)
                order by sort_order, label), '[]')
         from proposal_custom_fields) as "customFields",
      (select coalesce(json_agg(json_build_object('id', t.id, 'title', t.title, 'articleId', t.article_id,
                'articleTitle', a.title, 'monthly', t.monthly, 'tiers', t.tiers) order by t.sort_order, t.title), '[]')
         from proposal_price_templates t join articles a on a.id = t.article_id) as "priceTemplates"`)) as {
    rows: ProposalLists[];
  };
  return rows[0]!;
}

/** GET /proposals/conf: the switches, the terms, the numbering and the lists. */
export async function getProposalConfiguration(ctx: Ctx): Promise<ProposalConfiguration> {
  requireAccess(ctx.auth, READ);
  // one after another: statements of one transaction cannot run side by side
  const settings = await proposalSettings(ctx);
  const lists = await proposalLists(ctx);
  const { rows } = (await ctx.trx.raw(
    `select (select next_sequence from proposal_settings) as next_sequence,
            (select next_number from sales_order_settings) as next_number`,
  )) as { rows: Row[] };
  const numbers = rows[0]!;
  return {
    ...settings,
    ...lists,
    nextSequence: Number(numbers.next_sequence),
    salesOrderNextNumber: Number(numbers.next_number),
  };
}

const ZTexts = z
  .array(
    z.object({
      id: z.string().uuid().optional(),
      title: zRequiredString().max(100, 'ERROR_MAX_LENGTH'),
      body: zRequiredString().max(10_000, 'ERROR_MAX_LENGTH'),
    }),
  )
  .max(100, 'ERROR_MAX_LENGTH');

const ZFields = z
  .array(
    z.object({
      id: z.string().uuid().optional(),
      label: zRequiredString().max(100, 'ERROR_MAX_LENGTH'),
      type: z.enum(CUSTOM_FIELD_TYPES, { error: 'ERROR_INVALID_VALUE' }).default('text'),
      required: z.boolean().default(false),
    }),
  )
  .max(30, 'ERROR_MAX_LENGTH');

const ZTemplates = z
  .array(
    z.object({
      id: z.string().uuid().optional(),
      title: zRequiredString().max(100, 'ERROR_MAX_LENGTH'),
      articleId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).uuid('ERROR_REQUIRED_FIELD'),
      monthly: z.boolean().default(false),
      tiers: z
        .array(z.object({ label: zRequiredString().max(50, 'ERROR_MAX_LENGTH'), price: zMoney() }))
        .min(1, 'ERROR_REQUIRED_FIELD')
        .max(6, 'ERROR_MAX_LENGTH'),
    }),
  )
  .max(50, 'ERROR_MAX_LENGTH');

export const ZProposalConfiguration = z.object({
  summaryRows: z.boolean().optional(),
  monthlyPrice: z.boolean().optional(),
  negativePrices: z.boolean().optional(),
  files: z.boolean().optional(),
  purchasePriceEdit: z.boolean().optional(),
  stockPoint: z.boolean().optional(),
  costCenter: z.boolean().optional(),
  projectScope: z.boolean().optional(),
  validTo: z.boolean().optional(),
  generalTerms: z.string().max(10_000, 'ERROR_MAX_LENGTH').optional(),
  paymentTerms: z.string().max(2_000, 'ERROR_MAX_LENGTH').optional(),
  nextSequence: z.coerce.number({ error: 'ERROR_INVALID_VALUE' }).int('ERROR_INVALID_VALUE').min(1).optional(),
  salesOrderNextNumber: z.coerce.number({ error: 'ERROR_INVALID_VALUE' }).int('ERROR_INVALID_VALUE').min(1).optional(),
  standardTexts: ZTexts.optional(),
  customFields: ZFields.optional(),
  priceTemplates: ZTemplates.optional(),
});

const SWITCHES = {
  summaryRows: 'summary_rows',
  monthlyPrice: 'monthly_price',
  negativePrices: 'negative_prices',
  files: 'files',
  purchasePriceEdit: 'purchase_price_edit',
  stockPoint: 'stock_point',
  costCenter: 'cost_center',
  projectScope: 'project_scope',
  validTo: 'valid_to',
  generalTerms: 'general_terms',
  paymentTerms: 'payment_terms',
} as const;

/**
 * Saves a whole list in two statements: rows keep their ids (new ones get one here), take their
 * place as sort order, and the rows no longer listed go. A row naming an id the table does not
 * hold is refused (it was deleted meanwhile, or belongs elsewhere).
 */
async function saveList(ctx: Ctx, table: string, field: string, rows: (Row & { id?: string })[]): Promise<void> {
  const ids = rows.flatMap((r) => (r.id ? [r.id] : []));
  if (ids.length) {
    const known = new Set<string>(await ctx.trx(table).whereIn('id', ids).pluck('id'));
    const unknown = rows.findIndex((r) => r.id && !known.has(r.id));
    if (unknown >= 0)
      throw new AppError('VALIDATION_FAILED', 400, { fields: { [`${field}.${unknown}`]: ['NOT_FOUND'] } });
  }
  const withIds = rows.map((r, i) => ({ ...r, id: r.id ?? randomUUID(), sort_order: i + 1 }));
  const keep = withIds.map((r) => r.id);
  await ctx
    .trx(table)
    .modify((q) => (keep.length ? q.whereNotIn('id', keep) : q))
    .delete();
  if (withIds.length) await ctx.trx(table).insert(withIds).onConflict('id').merge();
}

/**
 * PUT /proposals/conf: any of the switches, terms, numbering and lists. The next proposal number
 * may not fall to or below one in use (PROPOSAL_NUMBER_IN_USE), likewise the sales-order number.
 * A price template's article must exist and be active. One unit of work: all of it or nothing.
 */
export async function updateProposalConfiguration(ctx: Ctx, raw: unknown): Promise<ProposalConfiguration> {
  requireAccess(ctx.auth, SETTINGS_EDIT);
  const input = parseInput(ZProposalConfiguration, raw);
  const update: Row = {};
  for (const [key, column] of Object.entries(SWITCHES))
    if (input[key as keyof typeof SWITCHES] !== undefined) update[column] = input[key as keyof typeof SWITCHES];
  if (input.nextSequence !== undefined) {
    const [{ max }] = (await ctx.trx('proposals').max({ max: 'sequence_number' })) as { max: number | null }[];
    if (max !== null && input.nextSequence <= Number(max))
      throw new AppError('VALIDATION_FAILED', 400, { fields: { nextSequence: ['PROPOSAL_NUMBER_IN_USE'] } });
    update.next_sequence = input.nextSequence;
  }
  if (input.salesOrderNextNumber !== undefined) {
    const [{ max }] = (await ctx.trx('sales_orders').max({ max: 'number' })) as { max: number | null }[];
    if (max !== null && input.salesOrderNextNumber <= Number(max))
      throw new AppError('VALIDATION_FAILED', 400, { fields: { salesOrderNextNumber: ['PROPOSAL_NUMBER_IN_USE'] } });
    await ctx.trx('sales_order_settings').update({ next_number: input.salesOrderNextNumber, updated_at: ctx.now });
  }
  if (Object.keys(update).length) await ctx.trx('proposal_settings').update({ ...update, updated_at: ctx.now });
  if (input.standardTexts) await saveList(ctx, 'proposal_standard_texts', 'standardTexts', input.standardTexts);
  if (input.customFields) await saveList(ctx, 'proposal_custom_fields', 'customFields', input.customFields);
  if (input.priceTemplates) {
    const articleIds = [...new Set(input.priceTemplates.map((t) => t.articleId))];
    const active = new Set<string>(
      articleIds.length
        ? await ctx.trx('articles').whereIn('id', articleIds).where({ status: 'active' }).pluck('id')
        : [],
    );
    const bad = input.priceTemplates.findIndex((t) => !active.has(t.articleId));
    if (bad >= 0)
      throw new AppError('VALIDATION_FAILED', 400, { fields: { [`priceTemplates.${bad}.articleId`]: ['NOT_FOUND'] } });
    await saveList(
      ctx,
      'proposal_price_templates',
      'priceTemplates',
      input.priceTemplates.map((t) => ({
        id: t.id,
        title: t.title,
        article_id: t.articleId,
        monthly: t.monthly,
        tiers: JSON.stringify(t.tiers),
      })),
    );
  }
  return getProposalConfiguration(ctx);
}

/** Settings → proposals reads the configuration with settings:read (the CRM check is the page's). */
export async function getProposalConfigurationForSettings(ctx: Ctx): Promise<ProposalConfiguration> {
  requireAccess(ctx.auth, SETTINGS_READ);
  return getProposalConfiguration(ctx);
}

/**
 * A proposal's custom-field values checked against the tenant's fields: only known field ids,
 * text up to 500 characters, numbers as decimals, dates as YYYY-MM-DD; empty values dropped.
 * Answers the values to store.
 */
export async function checkCustomData(ctx: Ctx, data: Record<string, unknown>): Promise<Record<string, string>> {
  const entries = Object.entries(data).filter(([, v]) => v !== null && v !== undefined && v !== '');
  if (!entries.length) return {};
  const fields = (await ctx.trx('proposal_custom_fields').select('id', 'type')) as {
    id: string;
    type: CustomFieldType;
  }[];
  const types = new Map(fields.map((f) => [f.id, f.type]));
  const out: Record<string, string> = {};
  const problems: Record<string, string[]> = {};
  for (const [id, value] of entries) {
    const type = isUuid(id) ? types.get(id) : undefined;
    const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null;
    if (!type) problems[`customData.${id}`] = ['NOT_FOUND'];
    else if (text === null || text.length > 500) problems[`customData.${id}`] = ['ERROR_INVALID_VALUE'];
    else if (type === 'number' && !/^-?\d+([.,]\d+)?$/.test(text))
      problems[`customData.${id}`] = ['ERROR_INVALID_VALUE'];
    else if (type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(text))
      problems[`customData.${id}`] = ['ERROR_INVALID_DATE'];
    else if (text) out[id] = text;
  }
  if (Object.keys(problems).length) throw new AppError('VALIDATION_FAILED', 400, { fields: problems });
  return out;
}
