import { z } from 'zod';
import { tenantToday } from '~/core/calendar/tenant-today';
import type { Ctx } from '~/core/context';
import { documentCompany } from '~/core/documents/company';
import { DOCX_TYPE, PDF_TYPE, safeFilename, type DocumentFile } from '~/core/documents/file';
import { documentTranslator } from '~/core/documents/i18n';
import { proposalToDocx } from '~/core/documents/proposal-docx';
import type { ProposalDocumentModel, ProposalDocumentRow } from '~/core/documents/proposal-document';
import { renderDocument } from '~/core/documents/render';
import { printDocument, promiseDocumentMail } from '~/core/documents/mail';
import { thenAfterCommit, type AfterCommitWork } from '~/core/db/with-tenant';
import { inlineLogo } from '~/core/documents/company';
import { AppError } from '~/core/errors/app-error';
import { EMAIL_PATTERN, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { formattingLocale, langFromKey, type Lang } from '~/core/i18n/languages';
import { invoiceFigures } from '~/core/invoicing/invoice-math';
import { vatRateOf } from '~/core/invoicing/invoice-lines';
import { requireAccess, type Access } from '~/core/permissions/access';
import { discountOf, formatDecimal, isZero, printDiscount, sum } from '~/core/pricing';
import { getProposal, proposalSettings, PROPOSAL_ENTITY, type ProposalRow } from './proposal.service';
import { getSalesOrder } from './sales-order.service';
import { notifyProposalSent } from '~/core/zone/zone-notify.service';

/*
 * Proposal and sales-order documents (issue 13; api-calls.md "Proposals" and "Sales orders"): the
 * proposal or the order as PDF (templates/proposal.hbs through the warm browser) and as Word,
 * downloaded, and a proposal's PDF e-mailed to its contact. Done as the work-order documents are
 * (core/work-orders/documents.service.ts). Purchase prices and margins are never printed: the
 * document model does not hold them. The language is the customer's invoice language, else the
 * tenant's.
 */

const READ: Access = { permission: 'proposal:read', module: 'crm' };
const SO_READ: Access = { permission: 'salesorder:read', module: 'crm' };
/** Who may e-mail a proposal's PDF: it writes a history row on the proposal, so editors. */
const EMAIL_ACCESS: Access = { permission: 'proposal:edit', module: 'crm' };

/** The templates a proposal or sales order can be printed with; only the standard one exists so far. */
export const PROPOSAL_TEMPLATES = [{ id: 'default', file: 'proposal', nameKey: 'template.default' }] as const;
export type ProposalTemplateId = (typeof PROPOSAL_TEMPLATES)[number]['id'];

/** At most this many addresses in one e-mail. */
export const MAX_RECIPIENTS = 10;

const zRef = () =>
  z.union([z.string(), z.object({ id: z.string() }).transform((o) => o.id)], { error: 'ERROR_REQUIRED_FIELD' });
const ZTemplateId = z
  .enum(PROPOSAL_TEMPLATES.map((t) => t.id) as [ProposalTemplateId], { error: 'ERROR_INVALID_VALUE' })
  .optional()
  .transform((v) => v ?? 'default');

/**
 * The recipients: one address, several separated by commas, semicolons or spaces, or a list;
 * empty or left out means the document's own address (the proposal's contact e-mail, the
 * invoice's customer invoice e-mail). Shared by every document that is e-mailed to several people.
 */
export const ZEmailTarget = z
  .union([z.string(), z.array(z.string())], { error: 'ERROR_INVALID_EMAIL' })
  .optional()
  .transform((v, zctx) => {
    const list = (Array.isArray(v) ? v : (v ?? '').split(/[,;\s]+/)).map((s) => s.trim()).filter(Boolean);
    if (list.length > MAX_RECIPIENTS) zctx.addIssue({ code: 'custom', message: 'ERROR_INVALID_VALUE' });
    else if (list.some((a) => a.length > 254 || !EMAIL_PATTERN.test(a)))
      zctx.addIssue({ code: 'custom', message: 'ERROR_INVALID_EMAIL' });
    return [...new Set(list)];
  });

/** `proposal` is the proposal's id (or an object with it); `templateId` 'default' when left out. */
export const ZProposalDocument = z.object({ proposal: zRef(), templateId: ZTemplateId });
export const ZSalesOrderDocument = z.object({ salesOrder: zRef(), templateId: ZTemplateId });
export const ZEmailProposalDocument = ZProposalDocument.extend({ emailTarget: ZEmailTarget });

type Row = Record<string, unknown>;
const str = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));

/** A file name from the proposal's or order's number: letters, digits, dot, dash and underscore only. */
export function proposalDocumentFilename(
  kind: ProposalDocumentModel['kind'],
  number: string,
  extension: 'pdf' | 'docx',
): string {
  return safeFilename(kind === 'proposal' ? 'proposal' : 'sales-order', number, extension);
}

const apiDiscount = (
  type: ProposalRow['articleDiscountType'],
  value: string | null,
  currency: string,
  unit: string | null,
) =>
  printDiscount(discountOf(type === 'percentage' ? 'PERCENTAGE' : type === 'amount' ? 'REGULAR' : null, value), {
    currency,
    unit,
  });

/**
 * The rows as printed: summary rows with their running subtotal (already computed by readRows),
 * comment rows as text, article rows with sales figures only. A row without article, comment or
 * summary (an unfinished line) is left out.
 */
export function documentRows(rows: readonly ProposalRow[], currency: string): ProposalDocumentRow[] {
  const printed: ProposalDocumentRow[] = [];
  for (const r of rows) {
    const kind = r.isSummaryRow ? 'summary' : r.articleId ? 'article' : 'comment';
    if (kind === 'comment' && !r.comment?.trim()) continue;
    const article = kind === 'article';
    // a row without a monthly price leaves its monthly cells empty rather than printing 0,00
    const monthly = article && r.articleMonthlyPrice != null && !isZero(r.articleMonthlyPrice);
    printed.push({
      kind,
      isArticle: article,
      isComment: kind === 'comment',
      isSummary: kind === 'summary',
      title: article ? r.articleTitle : str(r.comment?.trim()),
      description: article ? r.articleDescription : null,
      amount: article ? (r.articleAmount ?? '0') : null,
      unit: article ? r.articleUnit : null,
      price: article ? (r.articlePrice ?? '0') : null,
      discount: article ? apiDiscount(r.articleDiscountType, r.articleDiscountValue, currency, r.articleUnit) : '',
      total: article ? r.articleTotalPrice : null,
      monthlyPrice: monthly ? r.articleMonthlyPrice : null,
      monthlyDiscount: monthly
        ? apiDiscount(r.articleMonthlyDiscountType, r.articleMonthlyDiscountValue, currency, r.articleUnit)
        : '',
      monthlyTotal: monthly ? r.articleMonthlyTotalPrice : null,
      subtotal: kind === 'summary' ? (r.summarySalesPrice ?? '0.00') : null,
      monthlySubtotal: kind === 'summary' ? (r.summaryMonthlyPrice ?? '0.00') : null,
    });
  }
  return printed;
}

/** The customer's name, number, primary address and invoice language, in one statement. */
async function customerOf(ctx: Ctx, customerId: string | null): Promise<Row | undefined> {
  if (!customerId) return undefined;
  return (await ctx
    .trx('customers as c')
    .leftJoin('customer_addresses as a', function () {
      this.on('a.customer_id', 'c.id').andOn('a.is_primary', ctx.trx.raw('true'));
    })
    .where('c.id', customerId)
    .first('c.name', 'c.customer_id', 'c.invoice_language', 'c.reverse_vat', 'a.street', 'a.post_index', 'a.city')) as
    Row | undefined;
}

/**
 * The VAT of the printed rows: each article row at its article's rate (the tenant's default rate
 * when the article has none), summed per rate as an invoice is (invoiceFigures), nothing under
 * the customer's reverse VAT.
 */
async function vatOf(
  ctx: Ctx,
  rows: readonly ProposalRow[],
  customer: Row | undefined,
): Promise<Pick<ProposalDocumentModel, 'vat' | 'vatTotal' | 'totalInclVat' | 'reverseVat'>> {
  const articleRows = rows.filter((r) => !r.isSummaryRow && r.articleId);
  const ids = [...new Set(articleRows.map((r) => r.articleId!))];
  const [settings, articles] = await Promise.all([
    ctx.trx('work_order_settings').first('vat_percentage') as Promise<Row | undefined>,
    ids.length ? (ctx.trx('articles').whereIn('id', ids).select('id', 'vat_percent') as Promise<Row[]>) : [],
  ]);
  const defaultVat = vatRateOf(settings?.vat_percentage);
  const rateOf = new Map(articles.map((a) => [a.id as string, vatRateOf(a.vat_percent, defaultVat)]));
  const reverseVat = Boolean(customer?.reverse_vat);
  const f = invoiceFigures({
    lines: articleRows.map((r) => ({
      amount: '1',
      price: r.articleTotalPrice ?? '0',
      vatPercent: rateOf.get(r.articleId!) ?? defaultVat,
    })),
    reverseVat,
    taxReduction: 'none',
    reductionDay: tenantToday(ctx),
  });
  return {
    vat: reverseVat ? [] : f.vat.filter((v) => v.percent !== '0' || !isZero(v.base)),
    vatTotal: f.vatTotal,
    totalInclVat: f.gross,
    reverseVat,
  };
}

function common(ctx: Ctx, customer: Row | undefined) {
  const config = ctx.tenant.config;
  const lang: Lang = langFromKey(str(customer?.invoice_language), langFromKey(config.languageKey));
  return {
    lang,
    locale: formattingLocale(lang),
    dateFormat: config.dateFormat,
    country: config.country,
    currency: config.currency.symbol,
    printedAt: ctx.now.toISOString(),
    customer: customer
      ? {
          name: String(customer.name),
          number: str(customer.customer_id),
          street: str(customer.street),
          postIndex: str(customer.post_index),
          city: str(customer.city),
        }
      : null,
  };
}

/**
 * Everything a proposal document prints: the proposal with its rows (getProposal), its customer's
 * address, its author's name, the tenant's proposal settings and company. Needs proposal:read;
 * another tenant's or a missing id is 404.
 */
export async function buildProposalDocumentModel(ctx: Ctx, proposalId: unknown): Promise<ProposalDocumentModel> {
  requireAccess(ctx.auth, READ);
  const p = await getProposal(ctx, proposalId);
  const [customer, settings, author, company] = await Promise.all([
    customerOf(ctx, p.customerId),
    proposalSettings(ctx),
    p.createUserId
      ? (ctx.trx('users').where({ id: p.createUserId }).first('name') as Promise<Row | undefined>)
      : Promise.resolve(undefined),
    documentCompany(ctx),
  ]);
  const base = common(ctx, customer);
  // a proposal always states its terms: the proposal's, else the tenant's, else the standard words
  const t = documentTranslator(base.lang);
  const contact =
    p.contactName || p.contactEmail || p.contactPhone
      ? { name: p.contactName, email: p.contactEmail, phone: p.contactPhone }
      : null;
  return {
    kind: 'proposal',
    isSalesOrder: false,
    titleKey: 'doc.proposal',
    numberKey: 'proposal.number',
    ...base,
    company,
    document: {
      number: String(p.sequenceNumber),
      title: p.title,
      date: p.createTs,
      validTo: settings.validTo ? p.validTo : null,
      ourReference: str(author?.name),
      intro: p.descriptionIntro,
      description: p.description,
      inclusions: p.description2,
      exceptions: p.descriptionOfExceptions,
      generalTerms: p.generalTerms?.trim() || settings.generalTerms?.trim() || t('proposal.defaultGeneralTerms'),
      paymentTerms: p.paymentTerms?.trim() || settings.paymentTerms?.trim() || t('proposal.defaultPaymentTerms'),
    },
    contact,
    delivery: [p.deliveryLocationDescription, p.deliveryLocationText2, p.deliveryLocationText3]
      .map((l) => l?.trim())
      .filter((l): l is string => Boolean(l)),
    object: p.businessObjectSerialCode
      ? { serial: p.businessObjectSerialCode, model: p.businessObjectModelName }
      : null,
    showMonthly: settings.monthlyPrice,
    rows: documentRows(p.rows ?? [], ctx.tenant.config.currency.symbol),
    total: p.totalPrice,
    monthlyTotal: p.totalMonthlyPrice,
    ...(await vatOf(ctx, p.rows ?? [], customer)),
    acceptance: true,
  };
}

/**
 * Everything a sales-order document prints: the order with its rows (getSalesOrder), its customer,
 * its reference person. Needs salesorder:read; another tenant's or a missing id is 404.
 */
export async function buildSalesOrderDocumentModel(ctx: Ctx, salesOrderId: unknown): Promise<ProposalDocumentModel> {
  requireAccess(ctx.auth, SO_READ);
  const so = await getSalesOrder(ctx, salesOrderId);
  const [customer, settings, company] = await Promise.all([
    customerOf(ctx, so.customerId),
    proposalSettings(ctx),
    documentCompany(ctx),
  ]);
  const rows = documentRows(so.rows ?? [], ctx.tenant.config.currency.symbol);
  return {
    kind: 'salesOrder',
    isSalesOrder: true,
    titleKey: 'doc.salesOrder',
    numberKey: 'salesOrder.number',
    ...common(ctx, customer),
    company,
    document: {
      number: String(so.number),
      title: so.title,
      date: so.createTs,
      validTo: null,
      ourReference: so.referenceUserName,
      intro: null,
      description: null,
      inclusions: null,
      exceptions: null,
      generalTerms: null,
      paymentTerms: null,
    },
    contact: null,
    delivery: [],
    object: null,
    showMonthly: settings.monthlyPrice,
    rows,
    total: so.totalPrice,
    monthlyTotal: formatDecimal(sum(rows.filter((r) => r.isArticle).map((r) => r.monthlyTotal ?? '0'))),
    ...(await vatOf(ctx, so.rows ?? [], customer)),
    acceptance: false,
  };
}

function templateFile(id: ProposalTemplateId): string {
  return PROPOSAL_TEMPLATES.find((t) => t.id === id)!.file;
}

/** The document's HTML (what the PDF prints); exported for tests and previews. */
export function proposalHtml(model: ProposalDocumentModel, templateId: ProposalTemplateId = 'default'): string {
  return renderDocument(templateFile(templateId), model);
}

/** The PDF, printed on the warm browser once the unit of work committed (decision 049). */
async function pdfFile(model: ProposalDocumentModel, templateId: ProposalTemplateId): Promise<DocumentFile> {
  const body = await printDocument(templateFile(templateId), model);
  return { filename: proposalDocumentFilename(model.kind, model.document.number, 'pdf'), contentType: PDF_TYPE, body };
}

async function wordFile(model: ProposalDocumentModel): Promise<DocumentFile> {
  const body = await proposalToDocx(await inlineLogo(model));
  return {
    filename: proposalDocumentFilename(model.kind, model.document.number, 'docx'),
    contentType: DOCX_TYPE,
    body,
  };
}

/** POST /proposals/pdf {proposal, templateId}: the proposal as PDF. */
export async function proposalPdf(ctx: Ctx, raw: unknown): Promise<AfterCommitWork<DocumentFile>> {
  requireAccess(ctx.auth, READ);
  const input = parseInput(ZProposalDocument, raw);
  const model = await buildProposalDocumentModel(ctx, input.proposal);
  return thenAfterCommit(() => pdfFile(model, input.templateId));
}

/** POST /proposals/word {proposal, templateId}: the proposal as a Word document. */
export async function proposalWord(ctx: Ctx, raw: unknown): Promise<AfterCommitWork<DocumentFile>> {
  requireAccess(ctx.auth, READ);
  const input = parseInput(ZProposalDocument, raw);
  const model = await buildProposalDocumentModel(ctx, input.proposal);
  return thenAfterCommit(() => wordFile(model));
}

/** POST /salesorders/pdf {salesOrder, templateId}: the sales order as PDF. */
export async function salesOrderPdf(ctx: Ctx, raw: unknown): Promise<AfterCommitWork<DocumentFile>> {
  requireAccess(ctx.auth, SO_READ);
  const input = parseInput(ZSalesOrderDocument, raw);
  const model = await buildSalesOrderDocumentModel(ctx, input.salesOrder);
  return thenAfterCommit(() => pdfFile(model, input.templateId));
}

/** POST /salesorders/word {salesOrder, templateId}: the sales order as a Word document. */
export async function salesOrderWord(ctx: Ctx, raw: unknown): Promise<AfterCommitWork<DocumentFile>> {
  requireAccess(ctx.auth, SO_READ);
  const input = parseInput(ZSalesOrderDocument, raw);
  const model = await buildSalesOrderDocumentModel(ctx, input.salesOrder);
  return thenAfterCommit(() => wordFile(model));
}

/**
 * POST /proposals/pdf/email {proposal, templateId, emailTarget}: sends the PDF to the given
 * addresses, or to the proposal's contact e-mail when none are given, and answers
 * `{message: 'EMAIL_SENT_TO', recipient, recipients}`. The history row (edit, field "email") and the
 * mail's outbox row are one unit of work: the PDF is printed and sent once it committed, and a
 * relay that is down is retried (core/documents/mail.ts, decision 049).
 */
export async function emailProposalPdf(
  ctx: Ctx,
  raw: unknown,
): Promise<{ message: 'EMAIL_SENT_TO'; recipient: string; recipients: string[] }> {
  requireAccess(ctx.auth, EMAIL_ACCESS);
  const input = parseInput(ZEmailProposalDocument, raw);
  const model = await buildProposalDocumentModel(ctx, input.proposal);
  const proposalId = input.proposal;
  let recipients = input.emailTarget;
  if (!recipients.length) {
    const fallback = model.contact?.email?.trim();
    if (!fallback) throw new AppError('VALIDATION_FAILED', 400, { fields: { emailTarget: ['ERROR_REQUIRED_FIELD'] } });
    if (!EMAIL_PATTERN.test(fallback))
      throw new AppError('VALIDATION_FAILED', 400, { fields: { emailTarget: ['ERROR_INVALID_EMAIL'] } });
    recipients = [fallback];
  }
  const t = documentTranslator(model.lang);
  const vars = { number: model.document.number, title: model.document.title, company: model.company.name };
  await recordHistory(ctx, {
    entity: PROPOSAL_ENTITY,
    entityId: proposalId,
    action: 'edit',
    data: { fields: ['email'], recipients, document: 'pdf', templateId: input.templateId },
  });
  await promiseDocumentMail(ctx, {
    to: recipients,
    subject: t('mail.proposalSubject', vars),
    text: t('mail.proposalBody', vars),
    template: templateFile(input.templateId),
    filename: proposalDocumentFilename(model.kind, model.document.number, 'pdf'),
    model,
    about: { proposalId },
  });
  await markProposalSent(ctx, proposalId);
  return { message: 'EMAIL_SENT_TO', recipient: recipients.join(', '), recipients };
}

/**
 * A proposal e-mailed to its customer is sent: from then on it shows in the customer's zone, where
 * it can be answered, and the customer's zone users are told once (decision 063).
 */
async function markProposalSent(ctx: Ctx, proposalId: string): Promise<void> {
  const [row] = (await ctx
    .trx('proposals')
    .where({ id: proposalId })
    .update({ sent_at: ctx.trx.raw('coalesce(sent_at, ?)', [ctx.now]) })
    .returning(['id', 'sequence_number', 'title', 'customer_id'])) as Row[];
  if (row?.customer_id)
    await notifyProposalSent(
      ctx,
      { id: row.id as string, sequenceNumber: Number(row.sequence_number), title: row.title as string },
      row.customer_id as string,
    );
}
