import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess, type Access } from '~/core/permissions/access';
import { loadChangeable, loadWorkOrder, WO_ENTITY } from './work-order-read';

/*
 * The work-order signature (app module `workorder_signature`, spec section 6; issue 32): the
 * customer signs the order on the technician's phone with the signature pad of the service reports
 * — the printed name, the drawing (optional, so someone who cannot draw signs with the name), the
 * technician and the time recorded. The work-order document prints it.
 *
 * An order has at most one current signature, given while it is open and unlocked (it confirms the
 * work as the customer saw it on site). Reopening a closed order clears it: the work may change
 * after that, and an installer expects the customer to sign again for what the document then
 * prints. A signature removed by hand (a wrong name) or cleared by reopening is kept — name,
 * drawing, technician, time, and who cleared it when and why — and the order shows it as earlier.
 * Signing is not an edit of the order's fields: it leaves `update_ts` alone, so the order's form
 * (keyed by it) keeps what someone is typing there.
 */

export const SIGNATURE_ACCESS = {
  read: { permission: 'workorders:read', module: 'workorder_signature' },
  sign: { permission: 'workorders:report', module: 'workorder_signature' },
} as const satisfies Record<string, Access>;

/** The printed name's and the drawing's limits (as a service report's signature). */
export const SIGNATURE_LIMITS = { name: 200, image: 400_000 } as const;

/** POST /wo/{id}/signature {name, image}. */
export const ZSignWorkOrder = z.object({
  id: z.string(),
  name: z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(SIGNATURE_LIMITS.name, 'ERROR_MAX_LENGTH'),
  image: z
    .string({ error: 'ERROR_INVALID_VALUE' })
    .max(SIGNATURE_LIMITS.image, 'ERROR_SIGNATURE_TOO_LARGE')
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/, 'ERROR_INVALID_VALUE')
    .nullish()
    .transform((v) => v ?? null),
});

export interface WorkOrderSignature {
  id: string;
  signedName: string;
  /** The drawing, a PNG data URL; null when the signer gave the name only. */
  signature: string | null;
  signedAt: string;
  technicianName: string | null;
  clearedAt: string | null;
  clearedReason: 'reopened' | 'removed' | null;
  clearedByName: string | null;
}

export interface WorkOrderSignatures {
  /** The signature the order carries now (the document prints it), or null. */
  current: WorkOrderSignature | null;
  /** Signatures removed or cleared by reopening, newest first. */
  earlier: WorkOrderSignature[];
  /** The order is open and unlocked and the user may sign (or remove the signature). */
  canSign: boolean;
}

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));

/** An order's earlier signatures shown at most (the current one is always read). */
const EARLIER_SHOWN = 20;

function toSignature(r: Row): WorkOrderSignature {
  return {
    id: r.id as string,
    signedName: r.signed_name as string,
    signature: (r.signature as string | null) ?? null,
    signedAt: iso(r.signed_at)!,
    technicianName: (r.technician_name as string | null) ?? null,
    clearedAt: iso(r.cleared_at),
    clearedReason: (r.cleared_reason as WorkOrderSignature['clearedReason']) ?? null,
    clearedByName: (r.cleared_by_name as string | null) ?? null,
  };
}

/** The order's current signature, or null; no access check (the work-order document's). */
export async function currentSignatureOf(ctx: Ctx, workOrderId: string): Promise<WorkOrderSignature | null> {
  const row = (await ctx
    .trx('work_order_signatures')
    .where({ work_order_id: workOrderId })
    .whereNull('cleared_at')
    .first('id', 'signed_name', 'signature', 'signed_at', 'technician_name', 'cleared_at', 'cleared_reason')) as
    Row | undefined;
  return row ? toSignature(row) : null;
}

async function signaturesOf(ctx: Ctx, wo: { id: string; isClosed: boolean; isLocked: boolean; deletedAt: unknown }) {
  const rows = (await ctx
    .trx('work_order_signatures as s')
    .leftJoin('users as u', 'u.id', 's.cleared_by')
    .where('s.work_order_id', wo.id)
    .orderByRaw('s.cleared_at is null desc, s.signed_at desc, s.id')
    .limit(EARLIER_SHOWN + 1)
    .select(
      's.id',
      's.signed_name',
      's.signature',
      's.signed_at',
      's.technician_name',
      's.cleared_at',
      's.cleared_reason',
      'u.name as cleared_by_name',
    )) as Row[];
  const all = rows.map(toSignature);
  const current = all.find((s) => s.clearedAt === null) ?? null;
  return {
    current,
    earlier: all.filter((s) => s !== current).slice(0, EARLIER_SHOWN),
    canSign: hasAccess(ctx.auth, SIGNATURE_ACCESS.sign) && !wo.isClosed && !wo.isLocked && !wo.deletedAt,
  } satisfies WorkOrderSignatures;
}

/** GET /wo/{id}/signature: the order's signature and the earlier ones (workorders:read, module on). */
export async function getWorkOrderSignatures(ctx: Ctx, workOrderId: unknown): Promise<WorkOrderSignatures> {
  requireAccess(ctx.auth, SIGNATURE_ACCESS.read);
  return signaturesOf(ctx, await loadWorkOrder(ctx, workOrderId));
}

/**
 * POST /wo/{id}/signature {name, image}: the customer signs the order (workorders:report, module
 * on) while it is open and unlocked (409 WORK_ORDER_CLOSED / LOCKED); the technician is the one
 * signed in. An order signed already answers 409 WORK_ORDER_SIGNED: the signature is removed first.
 */
export async function signWorkOrder(ctx: Ctx, raw: unknown): Promise<WorkOrderSignatures> {
  requireAccess(ctx.auth, SIGNATURE_ACCESS.sign);
  const input = parseInput(ZSignWorkOrder, raw);
  const wo = await loadChangeable(ctx, input.id);
  // two signings at once: the partial unique index lets one in
  const { rows } = (await ctx.trx.raw(
    `insert into work_order_signatures (work_order_id, signed_name, signature, signed_at, technician_id, technician_name)
     values (?, ?, ?, ?, ?, ?)
     on conflict (work_order_id) where cleared_at is null do nothing
     returning id`,
    [wo.id, input.name, input.image, ctx.now, ctx.auth.user.id, ctx.auth.user.fullName],
  )) as { rows: { id: string }[] };
  if (!rows.length) throw new AppError('WORK_ORDER_SIGNED', 409);
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: 'signature.sign',
    data: { signatureId: rows[0]!.id, signedName: input.name, drawn: input.image !== null },
  });
  return signaturesOf(ctx, wo);
}

/** Marks the current signature cleared; answers it (or null when the order had none). */
export async function clearSignature(
  ctx: Ctx,
  workOrderId: string,
  reason: 'reopened' | 'removed',
): Promise<{ id: string; signedName: string } | null> {
  const [row] = (await ctx
    .trx('work_order_signatures')
    .where({ work_order_id: workOrderId })
    .whereNull('cleared_at')
    .update({ cleared_at: ctx.now, cleared_by: ctx.auth?.user.id ?? null, cleared_reason: reason })
    .returning(['id', 'signed_name'])) as { id: string; signed_name: string }[];
  return row ? { id: row.id, signedName: row.signed_name } : null;
}

/**
 * DELETE /wo/{id}/signature: removes the order's signature (a wrong name, the customer signs
 * again) while the order is open and unlocked; it stays among the earlier ones. 409
 * WORK_ORDER_NOT_SIGNED when there is none.
 */
export async function removeWorkOrderSignature(ctx: Ctx, workOrderId: unknown): Promise<WorkOrderSignatures> {
  requireAccess(ctx.auth, SIGNATURE_ACCESS.sign);
  const wo = await loadChangeable(ctx, workOrderId);
  const cleared = await clearSignature(ctx, wo.id, 'removed');
  if (!cleared) throw new AppError('WORK_ORDER_NOT_SIGNED', 409);
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: 'signature.remove',
    data: { signatureId: cleared.id, signedName: cleared.signedName },
  });
  return signaturesOf(ctx, wo);
}
