import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { documentCompany } from '~/core/documents/company';
import { PDF_TYPE, safeFilename, type DocumentFile } from '~/core/documents/file';
import { formatMoney } from '~/core/documents/format';
import { documentTranslator } from '~/core/documents/i18n';
import type { InvoiceDocumentModel, InvoiceDocumentRow } from '~/core/documents/invoice-document';
import { renderDocument } from '~/core/documents/render';
import { printDocument, promiseDocumentMail } from '~/core/documents/mail';
import { thenAfterCommit, type AfterCommitWork } from '~/core/db/with-tenant';
import type { DocumentCompany } from '~/core/documents/work-order-document';
import { AppError } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { formattingLocale, langFromKey, type Lang } from '~/core/i18n/languages';
import { formatDate } from '~/core/i18n/number-format';
import { requireAccess } from '~/core/permissions/access';
import { discountOf, printDiscount } from '~/core/pricing';
import { ZEmailTarget } from '~/core/proposals/proposal-documents.service';
import { finalizeForDocument, getInvoice, INVOICE_READ, readInvoice, invoiceEditAccess, type InvoiceView } from './invoice.service';
import { requireApplyTypeOn } from './apply-types';
import { INVOICE_ENTITY } from './invoice-store';

/*
 * The invoice as a printed document (issue 14; api-calls.md "Invoices", POST /invoice/apply with
 * type pdf or email): templates/invoice.hbs through the warm browser, done as the proposal
 * documents are (core/proposals/proposal-documents.service.ts). A PDF download only reads: a draft
 * prints marked as a draft and without a number, so looking at one never uses up a number. An
 * e-mail is a document leaving for the customer, so a draft is finalized first. The language is
 * the customer's invoice language, else the tenant's.
 */

/** `invoiceId`: the invoice's id, as POST /invoice/apply sends it. */
export const ZInvoiceDocument = z.object({ invoiceId: z.string({ error: 'ERROR_REQUIRED_FIELD' }) });
export const ZEmailInvoice = ZInvoiceDocument.extend({ emailTarget: ZEmailTarget });
/** The customer's stored invoice address read as recipients: it may hold several, like the input. */
const ZStoredTarget = z.object({ emailTarget: ZEmailTarget });

type Row = Record<string, unknown>;
const str = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));
const record = (v: unknown): Row => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Row) : {});

/**
 * The download name: `invoice-<number>.pdf`, or `invoice-draft-<id start>.pdf` for a draft (it has
 * no number yet; the id tells two drafts apart). Letters, digits, dot, dash and underscore only.
 */
export function invoiceFilename(invoice: { id: string; number: string | null }): string {
  return invoice.number
    ? safeFilename('invoice', invoice.number, 'pdf')
    : safeFilename('invoice-draft', invoice.id.slice(0, 8), 'pdf');
}

/**
 * The customer as an invoice document addresses it (the PDF, the Peppol e-invoice): its primary
 * address, numbers, type, country, Peppol id, e-mails and invoice language, in one statement.
 */
export async function invoiceCustomerOf(ctx: Ctx, customerId: string | null): Promise<Row | undefined> {
  if (!customerId) return undefined;
  return (await ctx
    .trx('customers as c')
    .leftJoin('customer_addresses as a', function () {
      this.on('a.customer_id', 'c.id').andOn('a.is_primary', ctx.trx.raw('true'));
    })
    .where('c.id', customerId)
    .first(
      'c.name',
      'c.type',
      'c.customer_id',
      'c.invoice_language',
      'c.organizational_number',
      'c.vat_number',
      'c.country',
      'c.peppol_id',
      'c.email',
      'c.invoice_email',
      'a.street',
      'a.post_index',
      'a.city',
    )) as Row | undefined;
}

/**
 * The company as the invoice kept it when it was made (its data's instance part): an invoice
 * reprinted later must show who issued it then. What it did not keep comes from today's details;
 * the logo always does (it is not part of the invoice).
 */
function issuer(now: DocumentCompany, kept: Row): DocumentCompany {
  const pick = (key: string, current: string | null) => str(kept[key]) ?? current;
  return {
    name: str(kept.companyName) ?? now.name,
    companyNr: pick('companyNr', now.companyNr),
    address: pick('address', now.address),
    postIndex: pick('postIndex', now.postIndex),
    city: pick('city', now.city),
    email: pick('email', now.email),
    phone: pick('phone', now.phone),
    vatRegistrationNr: pick('vatRegistrationNr', now.vatRegistrationNr),
    bgAccount: pick('bgAccount', now.bgAccount),
    logoUrl: now.logoUrl,
    logo: now.logo,
  };
}

/** The rows as printed: text rows as text; the VAT rate the row is taxed at (0 under reverse VAT). */
function documentRows(invoice: InvoiceView, currency: string): InvoiceDocumentRow[] {
  return invoice.articles.map((r) =>
    r.isText
      ? {
          isText: true,
          title: r.articleTitle,
          description: null,
          amount: null,
          unit: null,
          price: null,
          discount: '',
          vatPercent: null,
          total: null,
        }
      : {
          isText: false,
          title: r.articleTitle,
          description: r.articleDescription,
          amount: r.amount,
          unit: r.unit,
          price: r.price,
          discount: printDiscount(discountOf(r.discountType, r.discountValue), { currency, unit: r.unit }),
          vatPercent: invoice.reverseVat ? '0' : r.vatPercent,
          total: r.totalPrice,
        },
  );
}

/** The model of an invoice already read (getInvoice or finalizeForDocument), so no read is repeated. */
async function modelOf(ctx: Ctx, invoice: InvoiceView): Promise<InvoiceDocumentModel> {
  const [customer, company] = await Promise.all([invoiceCustomerOf(ctx, invoice.customer.id), documentCompany(ctx)]);
  const data = record(invoice.data);
  // The customer as billed (the invoice's data) for what the invoice kept; the address is today's.
  const billed = record(data.customer);
  const billedVat = str(record(record(billed.configuration).invoice).customerVatNumber);
  const config = ctx.tenant.config;
  const lang: Lang = langFromKey(str(customer?.invoice_language), langFromKey(config.languageKey));
  const name = str(billed.displayName) ?? str(customer?.name) ?? invoice.customer.name;
  const isDraft = invoice.status === 'draft';
  const reduction = invoice.taxReduction.kind === 'none' ? null : invoice.figures.taxReduction;
  return {
    lang,
    locale: formattingLocale(lang),
    dateFormat: config.dateFormat,
    country: config.country,
    currency: config.currency.symbol,
    printedAt: ctx.now.toISOString(),
    company: issuer(company, record(data.instance)),
    customer: name
      ? {
          name,
          number: str(billed.customerId) ?? str(customer?.customer_id),
          street: str(customer?.street),
          postIndex: str(customer?.post_index),
          city: str(customer?.city),
          vatNumber: billedVat ?? str(customer?.vat_number),
          orgNr: str(billed.organizationalNumber) ?? str(customer?.organizational_number),
        }
      : null,
    invoice: {
      id: invoice.id,
      // a draft's number would be a promise the counter does not keep: it is given on finalizing
      number: isDraft ? null : invoice.invoiceNr,
      isDraft,
      isVoid: invoice.status === 'void',
      date: invoice.invoiceDate,
      deliveryDate: invoice.deliveryDate,
      dueDate: invoice.paymentDueDate,
      paymentTermDays: invoice.paymentTermDays,
      ocr: isDraft ? null : invoice.ocr,
      ourReference: invoice.ourReference,
      yourReference: invoice.yourReference,
      customerOrderNumber: invoice.customerOrderNumber,
      marking: invoice.marking,
      description: invoice.description,
      workOrderNumber: invoice.source.type === 'workOrder' ? invoice.source.number : null,
      salesOrderNumber: invoice.source.type === 'salesOrder' ? invoice.source.number : null,
    },
    rows: documentRows(invoice, config.currency.symbol),
    vat: invoice.figures.vat,
    net: invoice.figures.net,
    vatTotal: invoice.figures.vatTotal,
    rounding: invoice.figures.rounding,
    total: invoice.figures.total,
    taxReduction: reduction
      ? {
          kindKey: `invoice.taxReduction.${reduction.kind}`,
          base: reduction.base,
          amount: reduction.amount,
          propertyDesignation: invoice.taxReduction.propertyDesignation,
          housingOrgNr: invoice.taxReduction.housingOrgNr,
          persons: invoice.taxReduction.persons.map((p) => p.personId),
        }
      : null,
    toPay: invoice.figures.toPay,
    payment: { bgAccount: invoice.bgAccount, bankAccount: invoice.bankAccount, ocr: isDraft ? null : invoice.ocr },
    notes: {
      // VAT law wants the words on the invoice when the buyer, not the seller, accounts for the VAT
      reverseVatKey: invoice.reverseVat ? 'invoice.reverseVatText' : null,
      footer: invoice.footerText,
    },
    project: projectPart(record(data.projectInvoice)),
  };
}

/** A project part invoice's project and contract sum as it kept them (core/projects partData); null otherwise. */
function projectPart(part: Row): InvoiceDocumentModel['project'] {
  if (part.number === undefined || part.contractSum === undefined) return null;
  const money = (v: unknown) => str(v) ?? '0.00';
  return {
    number: String(part.number),
    title: str(part.title) ?? '',
    contractSum: money(part.contractSum),
    invoicedBefore: str(part.invoicedBefore),
    contractPart: str(part.contractPart),
    leftAfter: str(part.leftAfter),
  };
}

/**
 * Everything an invoice document prints: the invoice with its rows and figures (getInvoice, which
 * checks invoices:read; another tenant's or a missing id is 404), its customer's address and
 * language, the company.
 */
export async function buildInvoiceDocumentModel(ctx: Ctx, invoiceId: unknown): Promise<InvoiceDocumentModel> {
  return modelOf(ctx, await getInvoice(ctx, invoiceId));
}

/**
 * An invoice's PDF, printed after the unit of work, with no permission check of its own: for the
 * customer zone, which prints only its customer's finalized invoices and scopes the id itself.
 */
export async function invoicePdfOf(ctx: Ctx, invoiceId: string): Promise<AfterCommitWork<DocumentFile>> {
  const model = await modelOf(ctx, await readInvoice(ctx, invoiceId));
  return thenAfterCommit(() => pdfFile(model));
}

/** The document's HTML (what the PDF prints, its logo not yet inlined); exported for tests and previews. */
export function invoiceHtml(model: InvoiceDocumentModel): string {
  return renderDocument('invoice', model);
}

/** The PDF, printed on the warm browser: after the unit of work, never inside it (decision 049). */
async function pdfFile(model: InvoiceDocumentModel): Promise<DocumentFile> {
  const body = await printDocument('invoice', model);
  return { filename: invoiceFilename(model.invoice), contentType: PDF_TYPE, body };
}

/**
 * POST /invoice/apply {invoiceId, type: pdf}: the invoice as PDF. A draft stays a draft and prints
 * as one; the download is recorded in the invoice's history. The unit of work reads and records;
 * the PDF is printed once it committed.
 */
export async function invoicePdf(ctx: Ctx, raw: unknown): Promise<AfterCommitWork<DocumentFile>> {
  requireAccess(ctx.auth, INVOICE_READ);
  const input = parseInput(ZInvoiceDocument, raw);
  await requireApplyTypeOn(ctx, 'pdf');
  const model = await buildInvoiceDocumentModel(ctx, input.invoiceId);
  // every apply is in the invoice's history (issue 15 item 5); repeats within 60 s show as one
  await recordHistory(ctx, { entity: INVOICE_ENTITY, entityId: model.invoice.id, action: 'pdf' });
  return thenAfterCommit(() => pdfFile(model));
}

/**
 * POST /invoice/apply {invoiceId, type: email, emailTarget}: finalizes a draft (what the customer
 * gets has a number) and promises the PDF to the given addresses or else the customer's invoice
 * e-mail (409 INVOICE_EMAIL_MISSING when it has none); answers `{message: 'EMAIL_SENT_TO',
 * recipient, recipients}`. Needs the permission that edits the invoice. The finalizing, the history
 * row (email, with the recipients) and the mail's outbox row are one unit of work: the number is
 * final and the mail leaves only once it committed (core/documents/mail.ts), so a customer never
 * holds a number that a rollback gives to another invoice. A relay that is down is retried.
 */
export async function emailInvoice(
  ctx: Ctx,
  raw: unknown,
): Promise<{ message: 'EMAIL_SENT_TO'; recipient: string; recipients: string[] }> {
  requireAccess(ctx.auth, INVOICE_READ);
  const input = parseInput(ZEmailInvoice, raw);
  await requireApplyTypeOn(ctx, 'email');
  const current = await getInvoice(ctx, input.invoiceId);
  requireAccess(ctx.auth, invoiceEditAccess(current));
  if (current.status === 'void') throw new AppError('INVOICE_VOID', 409);
  let recipients = input.emailTarget;
  if (!recipients.length) {
    const stored = current.customer.invoiceEmail?.trim() ?? '';
    recipients = stored ? parseInput(ZStoredTarget, { emailTarget: stored }).emailTarget : [];
    if (!recipients.length) throw new AppError('INVOICE_EMAIL_MISSING', 409);
  }
  const invoice = await finalizeForDocument(ctx, current.id);
  // an unlinked draft is not finalized; it must not reach a customer without its number
  if (invoice.status !== 'finalized') throw new AppError('INVOICE_NOT_FINALIZED', 409);
  const model = await modelOf(ctx, invoice);
  const t = documentTranslator(model.lang);
  const vars = {
    number: model.invoice.number,
    company: model.company.name,
    amount: `${formatMoney(model.toPay)} ${model.currency}`,
    // an invoice without a due date is due on its date
    dueDate: formatDate(model.invoice.dueDate ?? model.invoice.date, model.dateFormat),
  };
  await recordHistory(ctx, { entity: INVOICE_ENTITY, entityId: invoice.id, action: 'email', data: { recipients } });
  await promiseDocumentMail(ctx, {
    to: recipients,
    subject: t('mail.invoiceSubject', vars),
    text: t('mail.invoiceBody', vars),
    template: 'invoice',
    filename: invoiceFilename(model.invoice),
    model,
    about: { invoiceId: invoice.id },
  });
  return { message: 'EMAIL_SENT_TO', recipient: recipients.join(', '), recipients };
}
