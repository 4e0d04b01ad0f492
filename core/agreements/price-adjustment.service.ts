import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { parseInput, UUID_PATTERN } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { add, formatDecimal, mul, round, sum } from '~/core/pricing';
import { zPlainDate } from './agreement-schema';
import { tenantToday } from './generation.service';

/*
 * Price adjustment (issue 16 item 5): Swedish agreements are indexed once a year, so the office
 * raises the prices of chosen agreements by a percentage from a date. The preview shows every
 * agreement's amount per period before and after; applying stores the adjustment and, once its date
 * has come (at once, or in the generation run of that day, before that day's invoices), multiplies
 * the object's total price and its invoice rows' prices in two set-based statements.
 */

type Row = Record<string, unknown>;

export const ZAdjustmentSelection = z
  .object({
    agreementIds: z.array(z.string().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE')).max(500).default([]),
    objectAgreementIds: z.array(z.string().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE')).max(50_000).default([]),
    percent: z.coerce
      .number({ error: 'ERROR_INVALID_NUMBER' })
      .gt(-100, 'ERROR_INVALID_VALUE')
      .max(100, 'ERROR_INVALID_VALUE')
      .refine((n) => n !== 0, 'ERROR_INVALID_VALUE'),
    effectiveFrom: zPlainDate(),
  })
  .refine((v) => v.agreementIds.length + v.objectAgreementIds.length > 0, {
    message: 'AGREEMENT_ADJUSTMENT_NOTHING_CHOSEN',
    path: ['objectAgreementIds'],
  });

export interface AdjustmentPreviewRow {
  objectAgreementId: string;
  serialCode: string;
  customerName: string | null;
  agreementTitle: string;
  oldAmount: string;
  newAmount: string;
}

const factorOf = (percent: number) => add(1, mul(String(percent), '0.01'));
const raise = (price: unknown, percent: number) => formatDecimal(round(mul(String(price), factorOf(percent)), 2));

async function chosen(ctx: Ctx, sel: { agreementIds: string[]; objectAgreementIds: string[] }): Promise<Row[]> {
  return (await ctx
    .trx('object_agreements as oa')
    .join('agreements as a', 'a.id', 'oa.agreement_id')
    .join('business_objects as bo', 'bo.id', 'oa.business_object_id')
    .leftJoin('customers as c', 'c.id', ctx.trx.raw('coalesce(oa.invoice_customer_id, bo.customer_id)'))
    .where((q) => {
      if (sel.agreementIds.length) void q.orWhereIn('oa.agreement_id', sel.agreementIds);
      if (sel.objectAgreementIds.length) void q.orWhereIn('oa.id', sel.objectAgreementIds);
    })
    .orderByRaw('lower(bo.serial_code), oa.id')
    .select(
      'oa.id',
      'oa.total_price',
      'a.price_model',
      'a.title as agreement_title',
      'bo.serial_code',
      'c.name as customer_name',
      ctx.trx.raw(
        `coalesce((select json_agg(json_build_object('price', r.price, 'amount', r.amount))
                     from object_agreement_rows r where r.object_agreement_id = oa.id and r.kind = 'invoice'), '[]') as rows`,
      ),
    )) as Row[];
}

/** What a period costs: the fixed price (fixed pricing) plus the invoice rows at their prices. */
function amountOf(r: Row, percent: number | null): string {
  const rows = (typeof r.rows === 'string' ? JSON.parse(r.rows) : r.rows) as { price: string; amount: string }[];
  const price = (p: unknown) => (percent === null ? String(p) : raise(p, percent));
  const parts = rows.map((x) => mul(price(x.price), String(x.amount)));
  if (r.price_model === 'fixed') parts.push(mul(price(r.total_price), 1));
  return formatDecimal(round(sum(parts), 2));
}

/** POST /agreements/pricing/preview: old and new amounts per period of every chosen agreement. */
export async function previewAdjustment(
  ctx: Ctx,
  raw: unknown,
): Promise<{ rows: AdjustmentPreviewRow[]; oldTotal: string; newTotal: string }> {
  requireAccess(ctx.auth, { permission: 'agreements:edit' });
  const sel = parseInput(ZAdjustmentSelection, raw);
  const rows = (await chosen(ctx, sel)).map((r) => ({
    objectAgreementId: r.id as string,
    serialCode: r.serial_code as string,
    customerName: (r.customer_name as string | null) ?? null,
    agreementTitle: r.agreement_title as string,
    oldAmount: amountOf(r, null),
    newAmount: amountOf(r, sel.percent),
  }));
  return {
    rows,
    oldTotal: formatDecimal(sum(rows.map((r) => r.oldAmount))),
    newTotal: formatDecimal(sum(rows.map((r) => r.newAmount))),
  };
}

/**
 * POST /agreements/pricing/adjust: stores the adjustment for the chosen agreements; when its date is
 * today or earlier it is applied in this transaction.
 */
export async function createAdjustment(
  ctx: Ctx,
  raw: unknown,
): Promise<{ id: string; agreements: number; applied: boolean }> {
  requireAccess(ctx.auth, { permission: 'agreements:edit' });
  const sel = parseInput(ZAdjustmentSelection, raw);
  const targets = await chosen(ctx, sel);
  if (!targets.length) throw new AppError('AGREEMENT_ADJUSTMENT_NOTHING_CHOSEN', 409);
  const [row] = await ctx
    .trx('agreement_price_adjustments')
    .insert({
      percent: sel.percent,
      effective_from: sel.effectiveFrom,
      create_user_id: ctx.auth!.user.id,
      created_at: ctx.now,
    })
    .returning('id');
  const id = (row as Row).id as string;
  await ctx
    .trx('agreement_price_adjustment_targets')
    .insert(targets.map((t) => ({ adjustment_id: id, object_agreement_id: t.id })));
  await recordHistory(ctx, {
    entity: 'agreement_price_adjustment',
    entityId: id,
    action: 'create',
    data: { percent: sel.percent, effectiveFrom: sel.effectiveFrom, agreements: targets.length },
  });
  const applied =
    sel.effectiveFrom <= tenantToday(ctx) ? (await applyDueAdjustments(ctx, tenantToday(ctx))) > 0 : false;
  return { id, agreements: targets.length, applied };
}

/**
 * Applies every adjustment whose date is on or before `until` and not yet applied, oldest first:
 * the objects' total prices and invoice-row prices, and what changed recorded on the adjustment.
 * Called by the generation run before it makes invoices. Answers how many it applied.
 */
export async function applyDueAdjustments(ctx: Ctx, until: string): Promise<number> {
  const due = (await ctx
    .trx('agreement_price_adjustments')
    .whereNull('applied_at')
    .where('effective_from', '<=', until)
    .orderBy([{ column: 'effective_from' }, { column: 'created_at' }])
    .forUpdate()
    .skipLocked()
    .select('id', 'percent')) as Row[];
  for (const adj of due) {
    const factor = formatDecimal(factorOf(Number(adj.percent)), 6);
    const changed = await ctx.trx.raw(
      `with t as (select object_agreement_id as id from agreement_price_adjustment_targets where adjustment_id = ?),
            old as (select oa.id, oa.total_price from object_agreements oa join t on t.id = oa.id)
       update object_agreements oa set total_price = round(oa.total_price * cast(? as numeric), 2),
              version = oa.version + 1, updated_at = ?
         from old where oa.id = old.id
       returning oa.id, old.total_price as old_total, oa.total_price as new_total`,
      [adj.id as string, factor, ctx.now],
    );
    await ctx.trx.raw(
      `update object_agreement_rows r set price = round(r.price * cast(? as numeric), 2)
        where r.kind = 'invoice'
          and r.object_agreement_id in (select object_agreement_id from agreement_price_adjustment_targets where adjustment_id = ?)`,
      [factor, adj.id as string],
    );
    const result = (changed.rows as Row[]).map((r) => ({
      objectAgreementId: r.id,
      oldTotal: formatDecimal(String(r.old_total)),
      newTotal: formatDecimal(String(r.new_total)),
    }));
    await ctx
      .trx('agreement_price_adjustments')
      .where({ id: adj.id })
      .update({ applied_at: ctx.now, result: JSON.stringify(result) });
  }
  return due.length;
}

export interface Adjustment {
  id: string;
  percent: string;
  effectiveFrom: string;
  appliedAt: string | null;
  agreements: number;
  createdBy: string | null;
  createdAt: string;
}

/** GET /agreements/pricing/adjustments: the latest adjustments, applied or waiting (agreements:read). */
export async function listAdjustments(ctx: Ctx): Promise<{ adjustments: Adjustment[] }> {
  requireAccess(ctx.auth, { permission: 'agreements:read' });
  const rows = (await ctx
    .trx('agreement_price_adjustments as p')
    .leftJoin('users as u', 'u.id', 'p.create_user_id')
    .orderBy('p.created_at', 'desc')
    .limit(50)
    .select(
      'p.id',
      'p.percent',
      ctx.trx.raw('p.effective_from::text as effective_from'),
      'p.applied_at',
      'p.created_at',
      'u.name as user_name',
      ctx.trx.raw(
        '(select count(*)::int from agreement_price_adjustment_targets t where t.adjustment_id = p.id) as agreements',
      ),
    )) as Row[];
  return {
    adjustments: rows.map((r) => ({
      id: r.id as string,
      percent: formatDecimal(String(r.percent)),
      effectiveFrom: r.effective_from as string,
      appliedAt: r.applied_at ? new Date(r.applied_at as string).toISOString() : null,
      agreements: Number(r.agreements),
      createdBy: (r.user_name as string | null) ?? null,
      createdAt: new Date(r.created_at as string).toISOString(),
    })),
  };
}
