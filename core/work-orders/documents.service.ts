import { z } from 'zod';
import { filledChecklistsForDocument } from '~/core/checklists/checklist.service';
import type { Ctx } from '~/core/context';
import { workOrderToDocx } from '~/core/documents/docx';
import { documentTranslator } from '~/core/documents/i18n';
import { documentCompany, inlineLogo } from '~/core/documents/company';
import { printDocument, promiseDocumentMail } from '~/core/documents/mail';
import { thenAfterCommit, type AfterCommitWork } from '~/core/db/with-tenant';
import { DOCX_TYPE, PDF_TYPE, safeFilename, type DocumentFile } from '~/core/documents/file';
import { renderDocument } from '~/core/documents/render';
import type { WorkOrderDocumentModel } from '~/core/documents/work-order-document';
import { parseInput, zEmail } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { formattingLocale, langFromKey, type Lang } from '~/core/i18n/languages';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { discountOf, formatDecimal, printDiscount, sum, totals } from '~/core/pricing';
import { currentSignatureOf, SIGNATURE_ACCESS } from './signature.service';
import { loadActive, WO_ENTITY } from './work-order-read';

/*
 * Work-order documents (issue 5 item 10): the order as PDF (templates/work-order.hbs through the
 * warm browser) and as Word, downloaded or e-mailed. Internal info and purchase prices are never
 * printed. The document's language is the customer's invoice language, else the tenant's.
 */

/** The templates a work order can be printed with; only the standard one exists so far. */
export const WORK_ORDER_TEMPLATES = [{ id: 'default', file: 'work-order', nameKey: 'template.default' }] as const;
export type WorkOrderTemplateId = (typeof WORK_ORDER_TEMPLATES)[number]['id'];

/** `workOrder` is the order's id (or an object with it); `templateId` 'default' when left out. */
const ZWorkOrderRef = z.union([z.string(), z.object({ id: z.string() }).transform((o) => o.id)], {
  error: 'ERROR_REQUIRED_FIELD',
});
const ZTemplateId = z
  .enum(WORK_ORDER_TEMPLATES.map((t) => t.id) as [WorkOrderTemplateId], { error: 'ERROR_INVALID_VALUE' })
  .optional()
  .transform((v) => v ?? 'default');

export const ZWorkOrderDocument = z.object({ workOrder: ZWorkOrderRef, templateId: ZTemplateId });
export const ZEmailWorkOrderDocument = ZWorkOrderDocument.extend({ emailTarget: zEmail() });

export { DOCX_TYPE, PDF_TYPE, type DocumentFile } from '~/core/documents/file';

type Row = Record<string, unknown>;
const str = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
const iso = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));
const plainDate = (v: unknown) =>
  v instanceof Date
    ? `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}`
    : String(v).slice(0, 10);

/** A file name from the order number: letters, digits, dot, dash and underscore only. */
export function documentFilename(number: string, extension: 'pdf' | 'docx'): string {
  return safeFilename('work-order', number, extension);
}

/**
 * Everything the work-order documents print, read in a fixed number of statements whatever the
 * number of rows: the order (with names, assignees), its customer with the primary address, its
 * object with the model, its article rows, its time rows with the people's names, its filled
 * checklists and the customer's signature (module `workorder_signature`). Needs workorders:read
 * and the order inside the user's work-order limit (404 otherwise).
 */
export async function buildWorkOrderDocumentModel(ctx: Ctx, workOrderId: unknown): Promise<WorkOrderDocumentModel> {
  return (await build(ctx, workOrderId)).model;
}

async function build(ctx: Ctx, workOrderId: unknown): Promise<{ id: string; model: WorkOrderDocumentModel }> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const wo = await loadActive(ctx, workOrderId);
  const [customer, object, articleRows, timeRows, checklists] = await Promise.all([
    wo.customerId
      ? (ctx
          .trx('customers as c')
          .leftJoin('customer_addresses as a', function () {
            this.on('a.customer_id', 'c.id').andOn('a.is_primary', ctx.trx.raw('true'));
          })
          .where('c.id', wo.customerId)
          .first('c.name', 'c.customer_id', 'c.invoice_language', 'a.street', 'a.post_index', 'a.city') as Promise<
          Row | undefined
        >)
      : Promise.resolve(undefined),
    wo.businessObjectId
      ? (ctx
          .trx('business_objects as b')
          .leftJoin('models as m', 'm.id', 'b.model_id')
          .where('b.id', wo.businessObjectId)
          .first('b.serial_code', 'm.name as model_name') as Promise<Row | undefined>)
      : Promise.resolve(undefined),
    ctx
      .trx('work_order_articles as r')
      .leftJoin('articles as a', 'a.id', 'r.article_id')
      .where('r.work_order_id', wo.id)
      .orderBy([
        { column: 'r.sort_order', order: 'asc' },
        { column: 'r.created_at', order: 'asc' },
      ])
      .select(
        'r.article_id',
        'r.title',
        'r.description',
        'r.amount',
        'r.price',
        'r.discount_type',
        'r.discount_value',
        'a.unit',
      ) as Promise<Row[]>,
    ctx
      .trx('work_order_time as t')
      .join('users as u', 'u.id', 't.user_id')
      .where('t.work_order_id', wo.id)
      .orderBy([
        { column: 't.date', order: 'asc' },
        { column: 't.start_ts', order: 'asc' },
        { column: 't.created_at', order: 'asc' },
      ])
      .select(
        'u.name as person',
        ctx.trx.raw(`to_char(t.date, 'YYYY-MM-DD') as date`),
        't.work_minutes',
        't.travel_minutes',
        't.distance_km',
      ) as Promise<Row[]>,
    filledChecklistsForDocument(ctx, wo.id),
  ]);

  const signed = hasAccess(ctx.auth, SIGNATURE_ACCESS.read) ? await currentSignatureOf(ctx, wo.id) : null;
  const config = ctx.tenant.config;
  const lang: Lang = langFromKey(str(customer?.invoice_language), langFromKey(config.languageKey));
  const priced = articleRows.map((r) => ({
    articleId: str(r.article_id),
    amount: String(r.amount ?? '0'),
    price: String(r.price ?? '0'),
    discount: discountOf(str(r.discount_type), str(r.discount_value)),
  }));
  const sums = totals(priced);
  const articles = articleRows.map((r, i) => {
    const discount = priced[i]!.discount;
    return {
      title: String(r.title),
      description: str(r.description),
      amount: priced[i]!.amount,
      unit: str(r.unit),
      price: priced[i]!.price,
      discount: printDiscount(discount, { currency: config.currency.symbol, unit: str(r.unit) }),
      total: sums.rowTotals[i]!,
    };
  });
  const time = timeRows.map((r) => ({
    person: String(r.person),
    date: plainDate(r.date),
    workMinutes: Number(r.work_minutes ?? 0),
    travelMinutes: Number(r.travel_minutes ?? 0),
    distanceKm: String(r.distance_km ?? '0'),
  }));
  const model: WorkOrderDocumentModel = {
    lang,
    locale: formattingLocale(lang),
    dateFormat: config.dateFormat,
    country: config.country,
    currency: config.currency.symbol,
    printedAt: ctx.now.toISOString(),
    company: await documentCompany(ctx),
    workOrder: {
      number: wo.number,
      title: wo.title,
      status: wo.statusName,
      workType: wo.workTypeName,
      priorityKey: `priority.${wo.priority}`,
      intakeTs: wo.intakeTs,
      plannedStart: wo.plannedStart,
      plannedEnd: wo.plannedEnd,
      closedAt: iso(wo.closedAt),
      description: wo.description,
      summary: wo.summary,
      customerOrderNumber: wo.customerOrderNumber,
      invoiceMarking: wo.invoiceMarking,
      contactName: wo.contactName,
      contactEmail: wo.contactEmail,
      contactPhone: wo.contactPhone,
      onSiteContactName: wo.onSiteContactName,
      onSiteContactPhone: wo.onSiteContactPhone,
      street: wo.street,
      postIndex: wo.postIndex,
      city: wo.city,
      assignees: wo.assignees.map((a) => a.name),
    },
    customer: customer
      ? {
          name: String(customer.name),
          number: str(customer.customer_id),
          street: str(customer.street),
          postIndex: str(customer.post_index),
          city: str(customer.city),
        }
      : null,
    object: object ? { serial: String(object.serial_code), model: str(object.model_name) } : null,
    articles,
    articlesTotal: sums.salesTotal,
    time,
    timeTotals: {
      workMinutes: time.reduce((s, r) => s + r.workMinutes, 0),
      travelMinutes: time.reduce((s, r) => s + r.travelMinutes, 0),
      distanceKm: formatDecimal(sum(time.map((r) => r.distanceKm)), 1),
    },
    checklists,
    signature: signed
      ? {
          name: signed.signedName,
          image: signed.signature,
          signedAt: signed.signedAt,
          technicianName: signed.technicianName,
        }
      : null,
  };
  return { id: wo.id, model };
}

function templateFile(id: WorkOrderTemplateId): string {
  return WORK_ORDER_TEMPLATES.find((t) => t.id === id)!.file;
}

/** The document's HTML (what the PDF prints); exported for tests and previews. */
export function workOrderHtml(model: WorkOrderDocumentModel, templateId: WorkOrderTemplateId = 'default'): string {
  return renderDocument(templateFile(templateId), model);
}

/** POST /wo/pdf {workOrder, templateId}: the order as PDF. */
export async function workOrderPdf(ctx: Ctx, raw: unknown): Promise<AfterCommitWork<DocumentFile>> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const input = parseInput(ZWorkOrderDocument, raw);
  const model = await buildWorkOrderDocumentModel(ctx, input.workOrder);
  // printed once the unit of work committed (decision 049)
  return thenAfterCommit(async () => ({
    filename: documentFilename(model.workOrder.number, 'pdf'),
    contentType: PDF_TYPE,
    body: await printDocument(templateFile(input.templateId), model),
  }));
}

/** POST /wo/word {workOrder, templateId}: the order as a Word document. */
export async function workOrderWord(ctx: Ctx, raw: unknown): Promise<AfterCommitWork<DocumentFile>> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const input = parseInput(ZWorkOrderDocument, raw);
  const model = await buildWorkOrderDocumentModel(ctx, input.workOrder);
  return thenAfterCommit(async () => ({
    filename: documentFilename(model.workOrder.number, 'docx'),
    contentType: DOCX_TYPE,
    body: await workOrderToDocx(await inlineLogo(model)),
  }));
}

/** Who may e-mail a work order's PDF: it writes a history row on the order, so editors. */
const EMAIL_ACCESS = { permission: 'workorders:edit' } as const;

/**
 * POST /wo/pdf/email {workOrder, templateId, emailTarget}: sends the PDF to one address and
 * answers `{message: 'EMAIL_SENT_TO', recipient}`. The history row (edit, field "email") and the
 * mail's outbox row are one unit of work: the PDF is printed and sent once it committed, and a
 * relay that is down is retried (core/documents/mail.ts, decision 049).
 */
export async function emailWorkOrderPdf(
  ctx: Ctx,
  raw: unknown,
): Promise<{ message: 'EMAIL_SENT_TO'; recipient: string }> {
  requireAccess(ctx.auth, EMAIL_ACCESS);
  const input = parseInput(ZEmailWorkOrderDocument, raw);
  const { id: workOrderId, model } = await build(ctx, input.workOrder);
  const t = documentTranslator(model.lang);
  const vars = { number: model.workOrder.number, title: model.workOrder.title, company: model.company.name };
  const recipient = input.emailTarget;
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: workOrderId,
    action: 'edit',
    data: {
      changes: [{ field: 'email', old: null, new: recipient }],
      recipients: [recipient],
      document: 'pdf',
      templateId: input.templateId,
    },
  });
  await promiseDocumentMail(ctx, {
    to: [recipient],
    subject: t('mail.subject', vars),
    text: t('mail.body', vars),
    template: templateFile(input.templateId),
    filename: documentFilename(model.workOrder.number, 'pdf'),
    model,
    about: { workOrderId },
  });
  return { message: 'EMAIL_SENT_TO', recipient };
}

export interface DocumentsPanelData {
  templates: { id: string; name: string }[];
  canEmail: boolean;
}

/** What the order screen's documents menu offers this user, with template names in their language. */
export async function loadDocumentsPanel(ctx: Ctx): Promise<DocumentsPanelData> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  const t = documentTranslator(ctx.lang);
  return {
    templates: WORK_ORDER_TEMPLATES.map((tpl) => ({ id: tpl.id, name: t(tpl.nameKey) })),
    canEmail: hasAccess(ctx.auth, EMAIL_ACCESS),
  };
}
