import { z } from 'zod';
import { copyFiles } from '~/core/files/files.service';
import { mailLang } from '~/core/auth/recovery.service';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { EMAIL_PATTERN, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { sendAfterCommit } from '~/core/mail/templates/deliver';
import { postOrderFinish } from '~/core/message-board/message-board.service';
import {
  promiseOrderFinishBroadcastMails,
  promiseRevisitMails,
  promiseWorkOrderClosedMails,
} from '~/core/notifications/notification-mails';
import type { AppModuleId } from '~/core/modules/app-modules';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import type { Permission } from '~/core/permissions/permissions';
import { formatDecimal } from '~/core/pricing';
import { nextWorkOrderNumber, readStatuses } from '~/core/work-orders/settings/settings.service';
import { isPlainDate, tenantDate } from '~/core/calendar/dates';
import { ARTICLE_ROW_COLUMNS } from './articles.service';
import {
  articleTotals,
  DEFAULT_INVOICE_FEE,
  DEFAULT_PAYMENT_TERM_DAYS,
  DEFAULT_VAT_PERCENTAGE,
  effectiveInvoiceFee,
  invoiceTotals,
  type OrderArticleRow,
} from './close.rules';
import { renderOrderFinishMail } from './order-finish.mail';
import { createWorkOrderInvoice } from '~/core/invoicing/order-invoice';
import { detachOrderInvoices } from '~/core/invoicing/invoice-store';
import { requireRowsNotInvoicedElsewhere } from '~/core/proposals/billing-owner';
import { loadActive, loadChangeable, loadWorkOrder, WO_ENTITY, type WorkOrder } from './work-order-read';
import { clearSignature, currentSignatureOf, SIGNATURE_ACCESS } from './signature.service';
import { changedFields } from './work-order-rules';

/*
 * The end of a work order's life and what follows it (spec sections 4, 5, 8 and 9; api-calls.md
 * "Work orders"): close with the invoice details, reopen, copy as a revisit, the order-finish
 * broadcast, and the ATA (project extra work) status.
 */

export const PROJECT_EXTRA_STATUSES = ['pending', 'accepted', 'declined'] as const;
export type ProjectExtraStatus = (typeof PROJECT_EXTRA_STATUSES)[number];

/** What the order screen's close, reopen, copy and ATA controls need (getCloseDefaults). */
export interface ClosePanelData {
  canClose: boolean;
  canReopen: boolean;
  canCopy: boolean;
  isClosed: boolean;
  /** The order has no customer, or its customer has no customer number: closing is refused. */
  customerNumberMissing: boolean;
  /** False: the dialog warns that the customer is set not to send invoices to the ERP. */
  sendToErp: boolean;
  /** The customer has reverse VAT: the dialog offers to ignore it. */
  reverseVat: boolean;
  /** The work-order invoice details module is on: the dialog asks dates and fee. */
  invoiceDetails: boolean;
  /** The tenant offers an invoice fee (the dialog's fee toggle starts on). */
  feeEnabled: boolean;
  defaultFee: string;
  /** Sum of the order's article rows (without VAT); a fee applies only above 0. */
  articleTotal: string;
  invoiceDate: string;
  deliveryDate: string;
  /** The broadcast module is on and there is an address to send the order-finish e-mail to. */
  broadcastAvailable: boolean;
  broadcastEmail: string | null;
  closingStatuses: { id: string; name: string }[];
  /** The customer's signature (module workorder_signature, else null): closing warns when unsigned, reopening clears it. */
  signature: 'signed' | 'unsigned' | null;
  /** ATA: the order's project, its extra-work status and what the user may do with it. */
  projectExtra: {
    inProject: boolean;
    status: ProjectExtraStatus | null;
    canCreate: boolean;
    canAccept: boolean;
  };
}

type Row = Record<string, unknown>;

const can = (ctx: Ctx, permission: Permission, module?: AppModuleId) =>
  hasAccess(ctx.auth, module ? { permission, module } : { permission });
const moduleOn = (ctx: Ctx, module: AppModuleId) => hasAccess(ctx.auth, { permission: 'signed-in', module });

/** The answer shows the order even when the user's limit would hide it (a copy assigned to others). */
function loadUnlimited(ctx: Ctx, id: string): Promise<WorkOrder> {
  return loadWorkOrder({ ...ctx, auth: ctx.auth ? { ...ctx.auth, limit: 'none' } : null }, id);
}

async function invoiceSettings(ctx: Ctx): Promise<{ feeEnabled: boolean; defaultFee: string; vat: string }> {
  const row: Row | undefined = await ctx
    .trx('work_order_settings')
    .first('invoice_fee_enabled', 'invoice_fee', 'vat_percentage');
  return {
    feeEnabled: row ? Boolean(row.invoice_fee_enabled) : true,
    defaultFee: row ? formatDecimal(String(row.invoice_fee)) : DEFAULT_INVOICE_FEE,
    vat: row ? formatDecimal(String(row.vat_percentage)) : DEFAULT_VAT_PERCENTAGE,
  };
}

async function orderArticles(ctx: Ctx, workOrderId: string): Promise<OrderArticleRow[]> {
  const rows: Row[] = await ctx
    .trx('work_order_articles')
    .where({ work_order_id: workOrderId })
    .orderBy([{ column: 'sort_order' }, { column: 'created_at' }, { column: 'id' }])
    .select('article_id', 'title', 'description', 'amount', 'price', 'discount_type', 'discount_value');
  return rows.map((r) => ({
    articleId: (r.article_id as string) ?? null,
    title: r.title as string,
    description: (r.description as string) ?? null,
    amount: String(r.amount),
    price: String(r.price),
    discountType: (r.discount_type as string) ?? null,
    discountValue: r.discount_value === null || r.discount_value === undefined ? null : String(r.discount_value),
  }));
}

const loadCustomer = async (ctx: Ctx, id: string | null): Promise<Row | null> =>
  id ? ((await ctx.trx('customers').where({ id }).first()) ?? null) : null;

const hasNumber = (customer: Row | null) =>
  Boolean(customer && typeof customer.customer_id === 'string' && customer.customer_id.trim());

/** The order-finish e-mail goes to the customer's broadcast address, else the order's contact. */
function broadcastRecipient(customer: Row | null, wo: WorkOrder): string | null {
  const candidates = [customer?.broadcast_email, wo.contactEmail];
  for (const c of candidates) if (typeof c === 'string' && EMAIL_PATTERN.test(c.trim())) return c.trim();
  return null;
}

/** GET /wo/{id}/close (and the order screen's loader): what the close, reopen and copy controls show. */
export async function getCloseDefaults(ctx: Ctx, workOrderId: unknown): Promise<ClosePanelData> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const wo = await loadWorkOrder(ctx, workOrderId);
  const [customer, settings, statuses, articles, extra] = [
    await loadCustomer(ctx, wo.customerId),
    await invoiceSettings(ctx),
    await readStatuses(ctx),
    await orderArticles(ctx, wo.id),
    await ctx.trx('work_orders').where({ id: wo.id }).first('project_extra_status'),
  ];
  const active = !wo.deletedAt;
  const today = tenantDate(ctx.now, ctx.tenant.config.country);
  const broadcastEmail = broadcastRecipient(customer, wo);
  return {
    canClose: can(ctx, 'workorders:close') && active && !wo.isClosed && !wo.isLocked,
    canReopen: can(ctx, 'workorders:reopen') && active && wo.isClosed && !wo.isLocked,
    canCopy: can(ctx, 'workorders:copy', 'copy') && active,
    isClosed: wo.isClosed,
    customerNumberMissing: !hasNumber(customer),
    sendToErp: customer ? customer.send_to_erp !== false : true,
    reverseVat: Boolean(customer?.reverse_vat),
    invoiceDetails: moduleOn(ctx, 'workorder_invoice_details'),
    feeEnabled: settings.feeEnabled,
    defaultFee: settings.defaultFee,
    articleTotal: articleTotals(articles).total,
    invoiceDate: today,
    deliveryDate: today,
    broadcastAvailable: moduleOn(ctx, 'broadcast') && can(ctx, 'workorders:close') && broadcastEmail !== null,
    broadcastEmail,
    closingStatuses: statuses.filter((s) => s.isClosing).map((s) => ({ id: s.id, name: s.name })),
    signature: hasAccess(ctx.auth, SIGNATURE_ACCESS.read)
      ? (await currentSignatureOf(ctx, wo.id))
        ? 'signed'
        : 'unsigned'
      : null,
    projectExtra: {
      inProject: wo.projectId !== null,
      status: (extra?.project_extra_status as ProjectExtraStatus | null) ?? null,
      canCreate: can(ctx, 'workorders:create_project_extra_work') && active,
      canAccept: can(ctx, 'workorders:accept_project_extra_work') && active,
    },
  };
}

// ---- close ----

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const zBool = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? ['true', '1', 'on', 'yes'].includes(v.toLowerCase()) : v),
    z.boolean({ error: 'ERROR_INVALID_VALUE' }),
  );
/** A calendar date `YYYY-MM-DD` (a full ISO time is cut to its date); empty means today. */
const zDate = () =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, 10) : undefined),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'ERROR_INVALID_VALUE')
      .refine((s) => isPlainDate(s), 'ERROR_INVALID_VALUE')
      .optional(),
  );
const zId = () => z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD');

export const ZCloseWorkOrder = z.object({
  workOrderId: zId(),
  statusId: z.preprocess(blankToUndefined, z.string().optional()),
  invoiceDate: zDate(),
  deliveryDate: zDate(),
  /** Empty (or left out) when the dialog's fee toggle is off; the rule clears it in more cases. */
  invoiceFee: z.union([z.string(), z.number(), z.null()], { error: 'ERROR_PRICE_PATTERN' }).optional(),
  ignoreReverseVAT: zBool().default(false),
  /** The answer to "close without an invoice?" when the order bills nothing (issue 28 item 6). */
  withoutInvoice: zBool().default(false),
});

export interface CloseResult {
  workOrder: WorkOrder;
  /** Null when the invoice-details module is off (the draft is made all the same). */
  invoice: {
    id: string;
    status: 'draft' | 'finalized';
    invoiceNr: string | null;
    totalPrice: string;
    totalPriceVat: string;
    vatPercentage: string;
    reverseVat: boolean;
    /** The invoice is on its way to the tenant's ERP. */
    erpQueued: boolean;
  } | null;
  /**
   * CUSTOMER_SET_NOT_TO_SEND_TO_ERP; WORK_ORDER_INVOICED_WITH_PROJECT: a project's order gets no
   * invoice of its own, the project invoices it (core/projects/project-invoice.service.ts).
   */
  warnings: (
    'CUSTOMER_SET_NOT_TO_SEND_TO_ERP' | 'WORK_ORDER_INVOICED_WITH_PROJECT' | 'WORK_ORDER_CLOSED_WITHOUT_INVOICE'
  )[];
}

/** Locks the order's row for the rest of the transaction and reads its state afresh. */
async function lockOrder(ctx: Ctx, id: string): Promise<{ closed_at: Date | null; is_locked: boolean }> {
  const row = await ctx.trx('work_orders').where({ id }).forUpdate().first('closed_at', 'is_locked');
  if (!row) throw notFound();
  return row;
}

/**
 * The sales order a work order was made from is billed through it (decision 031): it is closed
 * (invoiced) with the work order and open again when the work order reopens.
 */
async function closeBilledSalesOrder(ctx: Ctx, workOrderId: string, closed: boolean): Promise<void> {
  const row: { sales_order_id: string | null } | undefined = await ctx
    .trx('work_orders')
    .where({ id: workOrderId })
    .first('sales_order_id');
  if (!row?.sales_order_id) return;
  await ctx
    .trx('sales_orders')
    .where({ id: row.sales_order_id, status: closed ? 'open' : 'closed' })
    .update({
      status: closed ? 'closed' : 'open',
      close_ts: closed ? ctx.now : null,
      close_user_id: closed ? (ctx.auth?.user.id ?? null) : null,
      version: ctx.trx.raw('version + 1'),
      update_ts: ctx.now,
    });
}

/**
 * POST /wo/close {workOrderId, statusId?, invoiceDate, deliveryDate, invoiceFee, ignoreReverseVAT}:
 * workorders:close. The order must be open, unlocked and not deleted (409 WORK_ORDER_CLOSED /
 * WORK_ORDER_LOCKED, 404), and its customer must have a customer number (409
 * CANNOT_CLOSE_WORK_ORDER_CUSTOMER_NUMBER_MISSING). Sets the closing status (the first one unless
 * told) and closed_at, and makes the draft invoice: the order's article rows, the invoice fee row
 * (effectiveInvoiceFee), VAT at the tenant's percentage or reverse VAT. A project's order gets no
 * invoice (the project invoices it) and the warning WORK_ORDER_INVOICED_WITH_PROJECT. History: close.
 */
export async function closeWorkOrder(ctx: Ctx, raw: unknown): Promise<CloseResult> {
  requireAccess(ctx.auth, { permission: 'workorders:close' });
  const input = parseInput(ZCloseWorkOrder, raw);
  const wo = await loadChangeable(ctx, input.workOrderId);
  // two closes at once: the second waits for the first and then finds the order closed
  const locked = await lockOrder(ctx, wo.id);
  if (locked.closed_at) throw new AppError('WORK_ORDER_CLOSED', 409);
  if (locked.is_locked) throw new AppError('WORK_ORDER_LOCKED', 409);
  const customer = await loadCustomer(ctx, wo.customerId);
  if (!customer || !hasNumber(customer)) throw new AppError('CANNOT_CLOSE_WORK_ORDER_CUSTOMER_NUMBER_MISSING', 409);
  // a proposal's rows are billed once: not again when its sales order (or another order) invoiced them
  await requireRowsNotInvoicedElsewhere(ctx, { workOrderId: wo.id });

  const closing = (await readStatuses(ctx)).filter((s) => s.isClosing);
  const status = input.statusId ? closing.find((s) => s.id === input.statusId) : closing[0];
  if (!status) throw new AppError('VALIDATION_FAILED', 400, { fields: { statusId: ['ERROR_INVALID_VALUE'] } });

  const settings = await invoiceSettings(ctx);
  const details = moduleOn(ctx, 'workorder_invoice_details');
  const articles = await orderArticles(ctx, wo.id);
  const { total: articleTotal } = articleTotals(articles);
  const fee = effectiveInvoiceFee({
    feeToggle: settings.feeEnabled,
    feeModule: details,
    articleTotal,
    fee: input.invoiceFee,
  });
  const today = tenantDate(ctx.now, ctx.tenant.config.country);
  const invoiceDate = (details && input.invoiceDate) || today;
  const deliveryDate = (details && input.deliveryDate) || today;
  const totals = invoiceTotals({
    articleTotal,
    fee,
    vatPercentage: settings.vat,
    customerReverseVat: Boolean(customer.reverse_vat),
    ignoreReverseVat: input.ignoreReverseVAT,
  });
  const termDays =
    typeof customer.payment_term_days === 'number' ? customer.payment_term_days : DEFAULT_PAYMENT_TERM_DAYS;

  await ctx
    .trx('work_orders')
    .where({ id: wo.id })
    .update({ status_id: status.id, closed_at: ctx.now, update_ts: ctx.now });
  await detachOrderInvoices(ctx, { work_order_id: wo.id });
  await closeBilledSalesOrder(ctx, wo.id, true);
  // WORKORDER_CLOSE to the assignees who chose it (decision 066); a refusal below rolls it back
  await promiseWorkOrderClosedMails(ctx, wo);
  if (wo.projectId) {
    // the project invoices its orders (its part invoices carry their labour and articles)
    await recordHistory(ctx, {
      entity: WO_ENTITY,
      entityId: wo.id,
      action: 'close',
      data: { status: { old: wo.statusName, new: status.name }, invoicedWithProject: wo.projectId },
    });
    return {
      workOrder: await loadUnlimited(ctx, wo.id),
      invoice: null,
      warnings: ['WORK_ORDER_INVOICED_WITH_PROJECT'],
    };
  }
  const made = await createWorkOrderInvoice(ctx, {
    wo,
    customer,
    invoiceDate,
    deliveryDate,
    fee,
    vat: settings.vat,
    reverseVat: totals.reverseVat,
    ignoreReverseVat: input.ignoreReverseVAT,
    termDays,
  });
  if (!made) {
    // nothing billable: a fee alone is never invoiced; the dialog asks, and its answer closes without one
    if (!input.withoutInvoice) throw new AppError('WORK_ORDER_NOTHING_TO_INVOICE', 409);
    await recordHistory(ctx, {
      entity: WO_ENTITY,
      entityId: wo.id,
      action: 'close',
      data: { status: { old: wo.statusName, new: status.name }, withoutInvoice: true },
    });
    return {
      workOrder: await loadUnlimited(ctx, wo.id),
      invoice: null,
      warnings: ['WORK_ORDER_CLOSED_WITHOUT_INVOICE'],
    };
  }
  const invoiceId = made.invoiceId;
  const sendToErp = customer.send_to_erp !== false;
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: 'close',
    data: {
      status: { old: wo.statusName, new: status.name },
      invoiceId,
      invoiceDate,
      deliveryDate,
      invoiceFee: fee,
      ignoreReverseVAT: input.ignoreReverseVAT,
      reverseVat: totals.reverseVat,
      vatPercentage: totals.vatPercentage,
      totalPrice: made.totalPrice,
      totalPriceVat: made.totalPriceVat,
      sendToErp,
      invoiceStatus: made.status,
      erpQueued: made.queued,
    },
  });
  return {
    workOrder: await loadUnlimited(ctx, wo.id),
    invoice: details
      ? {
          id: invoiceId,
          status: made.status,
          invoiceNr: made.invoiceNr,
          totalPrice: made.totalPrice,
          totalPriceVat: made.totalPriceVat,
          vatPercentage: totals.vatPercentage,
          reverseVat: totals.reverseVat,
          erpQueued: made.queued,
        }
      : null,
    warnings: sendToErp ? [] : ['CUSTOMER_SET_NOT_TO_SEND_TO_ERP'],
  };
}

// ---- reopen ----

/** POST /wo/reopen. */
export const ZReopenWorkOrder = z.object({ workOrderId: zId() });

/**
 * POST /wo/reopen {workOrderId}: workorders:reopen. A closed, unlocked order goes back to the
 * default status and open; its draft invoice is deleted, an invoice already in the ERP is kept
 * (unlinked from the order), and the customer's signature is cleared (kept as an earlier one). 409 WORK_ORDER_NOT_CLOSED for an open order. History: edit (status
 * and isClosed, with what happened to the invoice).
 */
export async function reopenWorkOrder(
  ctx: Ctx,
  raw: unknown,
): Promise<{ workOrder: WorkOrder; invoices: { deleted: number; kept: number; voided: number } }> {
  requireAccess(ctx.auth, { permission: 'workorders:reopen' });
  const { workOrderId } = parseInput(ZReopenWorkOrder, raw);
  const wo = await loadActive(ctx, workOrderId);
  const locked = await lockOrder(ctx, wo.id);
  if (!locked.closed_at) throw new AppError('WORK_ORDER_NOT_CLOSED', 409);
  if (locked.is_locked) throw new AppError('WORK_ORDER_LOCKED', 409);
  const status = (await readStatuses(ctx)).find((s) => s.isDefault);
  if (!status) throw new Error('the tenant has no default work-order status');
  const invoices = await detachOrderInvoices(ctx, { work_order_id: wo.id });
  await ctx
    .trx('work_orders')
    .where({ id: wo.id })
    .update({ status_id: status.id, closed_at: null, update_ts: ctx.now });
  await closeBilledSalesOrder(ctx, wo.id, false);
  // the customer signed the order as it was closed: it may change now, so they sign again (kept as earlier)
  const signature = await clearSignature(ctx, wo.id, 'reopened');
  const changes = changedFields({ status: wo.statusName, isClosed: true }, { status: status.name, isClosed: false }, [
    'status',
    'isClosed',
  ]);
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: 'edit',
    data: {
      changes,
      reopened: true,
      invoices,
      ...(signature ? { signatureCleared: { signatureId: signature.id, signedName: signature.signedName } } : {}),
    },
  });
  return { workOrder: await loadUnlimited(ctx, wo.id), invoices };
}

// ---- copy (revisit) ----

export const COPY_OPTIONS = ['scheduleReports', 'description', 'summary', 'articles', 'files'] as const;
export type CopyOption = (typeof COPY_OPTIONS)[number];

export const ZCopyWorkOrder = z.object({
  workOrderId: zId(),
  options: z
    .object({
      scheduleReports: zBool().optional(),
      description: zBool().optional(),
      summary: zBool().optional(),
      articles: zBool().optional(),
      files: zBool().optional(),
    })
    .default({}),
});

/**
 * POST /wo/copy {workOrderId, options}: workorders:copy with the copy module. A new open order
 * (next number, default status) with the source's customer, object, contacts, address, work type,
 * priority, title, references and project; and, as the options say, its description, summary,
 * assignees (scheduleReports; else the user), article rows and files (their bytes copied, so each
 * order's files live and die with it). History: create on the new order.
 */
export async function copyWorkOrder(
  ctx: Ctx,
  raw: unknown,
): Promise<{ workOrder: WorkOrder; message: 'WORK_ORDER_REVISIT_SUCCESSFULLY_CREATED' }> {
  requireAccess(ctx.auth, { permission: 'workorders:copy', module: 'copy' });
  const { workOrderId, options } = parseInput(ZCopyWorkOrder, raw);
  const source = await loadActive(ctx, workOrderId);
  const status = (await readStatuses(ctx)).find((s) => s.isDefault);
  if (!status) throw new Error('the tenant has no default work-order status');
  const src: Row = await ctx.trx('work_orders').where({ id: source.id }).first('project_id');
  const number = await nextWorkOrderNumber(ctx);
  const [row] = await ctx
    .trx('work_orders')
    .insert({
      number,
      title: source.title,
      description: options.description ? source.description : null,
      summary: options.summary ? source.summary : null,
      customer_id: source.customerId,
      business_object_id: source.businessObjectId,
      status_id: status.id,
      work_type_id: source.workTypeId,
      priority: source.priority,
      contact_name: source.contactName,
      contact_email: source.contactEmail,
      contact_phone: source.contactPhone,
      on_site_contact_name: source.onSiteContactName,
      on_site_contact_phone: source.onSiteContactPhone,
      street: source.street,
      post_index: source.postIndex,
      city: source.city,
      customer_address_id: source.customerAddressId,
      customer_order_number: source.customerOrderNumber,
      invoice_marking: source.invoiceMarking,
      project_id: src.project_id ?? null,
      location_lat: source.locationLat,
      location_lng: source.locationLng,
      intake_ts: ctx.now,
      update_ts: ctx.now,
      create_user_id: ctx.auth.user.id,
    })
    .returning('id');
  const id = row.id as string;

  let assignees: string[] = [];
  if (options.scheduleReports && source.assignees.length)
    assignees = await ctx
      .trx('users')
      .whereIn(
        'id',
        source.assignees.map((a) => a.id),
      )
      .whereNot('status', 'inactive')
      .pluck('id');
  if (!assignees.length) assignees = [ctx.auth.user.id];
  await ctx.trx('work_order_assignees').insert(assignees.map((user_id) => ({ work_order_id: id, user_id })));

  let articleCount = 0;
  if (options.articles) {
    const rows: Row[] = await ctx
      .trx('work_order_articles')
      .where({ work_order_id: source.id })
      .orderBy([{ column: 'sort_order' }, { column: 'created_at' }, { column: 'id' }])
      .select(...ARTICLE_ROW_COLUMNS);
    if (rows.length)
      await ctx
        .trx('work_order_articles')
        .insert(rows.map((r) => ({ ...r, work_order_id: id, user_id: ctx.auth!.user.id, created_at: ctx.now })));
    articleCount = rows.length;
  }
  const fileCount = options.files
    ? await copyFiles(ctx, { kind: 'wo', ownerId: source.id }, { kind: 'wo', ownerId: id })
    : 0;

  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: id,
    action: 'create',
    data: {
      number,
      title: source.title,
      copiedFrom: { id: source.id, number: source.number },
      options: Object.fromEntries(COPY_OPTIONS.map((o) => [o, Boolean(options[o])])),
      articles: articleCount,
      files: fileCount,
    },
  });
  // WORK_ORDER_REVISIT to the source order's assignees who chose it (decision 066)
  await promiseRevisitMails(ctx, source, { id, number });
  return { workOrder: await loadUnlimited(ctx, id), message: 'WORK_ORDER_REVISIT_SUCCESSFULLY_CREATED' };
}

// ---- broadcast ----

export const ZBroadcast = z.object({
  workOrder: z.preprocess(
    (v) => (typeof v === 'string' ? { id: v } : v),
    z.object({ id: zId() }, { error: 'ERROR_REQUIRED_FIELD' }),
  ),
  event: z.enum(['finished'], { error: 'ERROR_INVALID_VALUE' }).default('finished'),
  status: z.enum(['send', 'ignore'], { error: 'ERROR_INVALID_VALUE' }),
});

/**
 * POST /wo/broadcast {workOrder: {id}, event: 'finished', status: 'send' | 'ignore'}: the
 * broadcast module, workorders:close. `send` mails the order-finish confirmation of a closed order
 * to the customer's broadcast address (else the order's contact e-mail), in the customer's invoice
 * language, after commit, and records a `broadcast` history row with the recipient; answers
 * {message: EMAIL_SENT_TO, recipient}. 409 WORK_ORDER_NOT_CLOSED, 409 BROADCAST_RECIPIENT_MISSING.
 * `ignore` records nothing and answers {}.
 */
export async function broadcastWorkOrder(
  ctx: Ctx,
  raw: unknown,
): Promise<{ message: 'EMAIL_SENT_TO'; recipient: string } | Record<string, never>> {
  requireAccess(ctx.auth, { permission: 'workorders:close', module: 'broadcast' });
  const input = parseInput(ZBroadcast, raw);
  const wo = await loadActive(ctx, input.workOrder.id);
  if (input.status === 'ignore') return {};
  if (!wo.isClosed) throw new AppError('WORK_ORDER_NOT_CLOSED', 409);
  const customer = await loadCustomer(ctx, wo.customerId);
  const recipient = broadcastRecipient(customer, wo);
  if (!recipient) throw new AppError('BROADCAST_RECIPIENT_MISSING', 409);
  const lang = mailLang(ctx, (customer?.invoice_language as string | null) ?? null);
  const address = [wo.street, [wo.postIndex, wo.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  const mail = renderOrderFinishMail(lang, {
    number: wo.number,
    title: wo.title,
    address: address || null,
    summary: wo.summary,
    company: ctx.tenant.displayName,
  });
  await sendAfterCommit(ctx, { to: [recipient], ...mail, tenantId: ctx.tenant.id });
  // the message board shows the finished order to the office (decision 066)
  await postOrderFinish(ctx, { id: wo.id, title: wo.title, summary: wo.summary });
  await promiseOrderFinishBroadcastMails(ctx, wo, recipient);
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: 'broadcast',
    data: { event: input.event, recipients: [recipient] },
  });
  return { message: 'EMAIL_SENT_TO', recipient };
}

// ---- ATA (project extra work) ----

export const ZProjectExtra = z.object({
  workOrderId: zId(),
  status: z.enum(PROJECT_EXTRA_STATUSES, { error: 'ERROR_INVALID_VALUE' }),
});

/**
 * POST /wo/projectextra {workOrderId, status}: marks a project's order as extra work (pending,
 * workorders:create_project_extra_work) or accepts / declines it
 * (workorders:accept_project_extra_work). The order must belong to a project (409
 * WORK_ORDER_NOT_IN_PROJECT); accepting or declining needs it to be extra work already (409
 * WORK_ORDER_NOT_EXTRA_WORK). History: edit with the old and new status.
 */
export async function setProjectExtraStatus(
  ctx: Ctx,
  raw: unknown,
): Promise<{ workOrder: WorkOrder; projectExtraStatus: ProjectExtraStatus }> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const { workOrderId, status } = parseInput(ZProjectExtra, raw);
  requireAccess(ctx.auth, {
    permission: status === 'pending' ? 'workorders:create_project_extra_work' : 'workorders:accept_project_extra_work',
  });
  const wo = await loadActive(ctx, workOrderId);
  await changeProjectExtraStatus(ctx, wo.id, status);
  return { workOrder: await loadUnlimited(ctx, wo.id), projectExtraStatus: status };
}

/**
 * The ATA rules and the change itself, shared by a staff user (setProjectExtraStatus, who was
 * checked already) and a customer answering an e-mailed approval link (no user: `answeredBy`
 * names them in the history). The order row is locked, so two answers do not cross.
 */
export async function changeProjectExtraStatus(
  ctx: Ctx,
  workOrderId: string,
  status: ProjectExtraStatus,
  answeredBy?: { name: string; via: string },
): Promise<{ before: ProjectExtraStatus | null }> {
  const row: Row | undefined = await ctx
    .trx('work_orders')
    .where({ id: workOrderId })
    .forUpdate()
    .first('project_id', 'project_extra_status');
  if (!row) throw notFound();
  if (!row.project_id) throw new AppError('WORK_ORDER_NOT_IN_PROJECT', 409);
  const before = (row.project_extra_status as ProjectExtraStatus | null) ?? null;
  if (status !== 'pending' && before === null) throw new AppError('WORK_ORDER_NOT_EXTRA_WORK', 409);
  if (before !== status) {
    await ctx
      .trx('work_orders')
      .where({ id: workOrderId })
      .update({ project_extra_status: status, update_ts: ctx.now });
    // work that becomes extra work is beyond the contract sum: invoiced apart, unless already invoiced
    if (before === null)
      await ctx
        .trx('work_orders')
        .where({ id: workOrderId, project_invoice_status: 'included' })
        .whereNull('project_invoice_id')
        .update({ project_invoice_status: 'open' });
    await recordHistory(ctx, {
      entity: WO_ENTITY,
      entityId: workOrderId,
      action: 'edit',
      data: {
        changes: changedFields({ projectExtraStatus: before }, { projectExtraStatus: status }, ['projectExtraStatus']),
        ...(answeredBy ? { answeredBy: answeredBy.name, via: answeredBy.via } : {}),
      },
    });
  }
  return { before };
}
