import type { Ctx } from '~/core/context';
import { safeFilename, type DocumentFile } from '~/core/documents/file';
import { documentTranslator } from '~/core/documents/i18n';
import { AppError } from '~/core/errors/app-error';
import { recordHistory } from '~/core/history/history';
import { langFromKey } from '~/core/i18n/languages';
import { requireAccess } from '~/core/permissions/access';
import { discountOf } from '~/core/pricing';
import { isValidIban, normalizeIban } from '~/core/suppliers/bank';
import { requireApplyTypeOn } from './apply-types';
import { invoiceCustomerOf } from './invoice-documents.service';
import { getInvoice, INVOICE_READ, type InvoiceView } from './invoice.service';
import type { VatRate } from './invoice-math';
import { INVOICE_ENTITY } from './invoice-store';
import {
  buildPeppolDocument,
  countryOfVatNumber,
  legalIdOf,
  participantOf,
  PEPPOL_CONTENT_TYPE,
  vatNumberOf,
  type PeppolLineInput,
  type PeppolParty,
} from './peppol';

/*
 * POST /invoice/apply {type: peppol} (issue 15 item 4): a finalized invoice as a Peppol BIS Billing
 * 3.0 e-invoice to download. Only a final invoice has the number an e-invoice must carry, so a
 * draft is refused, not finalized: sending one on its way stays a deliberate step. Delivery through
 * an access point is a plugin's job (core/extension-points/peppol-access-point.ts).
 */

type Row = Record<string, unknown>;
const str = (v: unknown) => (v === null || v === undefined || String(v).trim() === '' ? null : String(v).trim());
const record = (v: unknown): Row => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Row) : {});

/** The seller as the invoice kept it when it was made (its data's instance part), else today's details. */
function sellerOf(ctx: Ctx, invoice: InvoiceView): PeppolParty {
  const kept = record(record(invoice.data).instance);
  const now = ctx.tenant.config.company;
  const pick = (key: keyof typeof now) => str(kept[key]) ?? str(now[key]);
  const country = ctx.tenant.config.country;
  const companyNr = pick('companyNr');
  const vatNumber = vatNumberOf(pick('vatRegistrationNr'), country);
  const endpoint = participantOf({ country, orgNr: companyNr });
  const missing = [...(endpoint ? [] : ['companyNr']), ...(vatNumber ? [] : ['vatRegistrationNr'])];
  // every row has a VAT category (S, Z or AE), and each needs the seller's VAT number (BR-S-02, BR-Z-02, BR-AE-02)
  if (!endpoint || !vatNumber) throw new AppError('PEPPOL_SELLER_DETAILS_MISSING', 409, { missing });
  return {
    name: str(kept.companyName) ?? str(now.companyName) ?? ctx.tenant.displayName,
    country,
    endpoint,
    legalId: legalIdOf(country, companyNr),
    vatNumber,
    street: pick('address'),
    postIndex: pick('postIndex'),
    city: pick('city'),
    contact: { name: invoice.ourReference, phone: pick('phone'), email: pick('email') },
  };
}

/**
 * The buyer: the customer as billed (the invoice's data) for its name and numbers, today's address,
 * country and Peppol id. A buyer without an electronic address that can be had (a private person,
 * a company without an organisation number, a country without a known scheme) is refused with
 * PEPPOL_BUYER_ADDRESS_MISSING: it cannot receive a Peppol invoice.
 */
function buyerOf(ctx: Ctx, invoice: InvoiceView, customer: Row | undefined): PeppolParty {
  const billed = record(record(invoice.data).customer);
  const billedVat = str(record(record(billed.configuration).invoice).customerVatNumber);
  const rawVat = billedVat ?? str(customer?.vat_number);
  const country = str(customer?.country) ?? countryOfVatNumber(rawVat) ?? ctx.tenant.config.country;
  const isCompany = customer?.type !== 'private';
  const orgNr = isCompany ? (str(billed.organizationalNumber) ?? str(customer?.organizational_number)) : null;
  const vatNumber = isCompany ? vatNumberOf(rawVat, country) : null;
  const endpoint = participantOf({ country, orgNr, vatNumber, explicit: str(customer?.peppol_id) });
  if (!endpoint || !customer) throw new AppError('PEPPOL_BUYER_ADDRESS_MISSING', 409);
  return {
    name: str(billed.displayName) ?? str(customer.name) ?? invoice.customer.name ?? '-',
    country,
    endpoint,
    legalId: legalIdOf(country, orgNr),
    vatNumber,
    street: str(customer.street),
    postIndex: str(customer.post_index),
    city: str(customer.city),
    contact: { name: invoice.yourReference, email: str(customer.invoice_email) ?? str(customer.email) },
  };
}

/**
 * POST /invoice/apply {invoiceId, type: peppol}: the invoice as a Peppol BIS Billing 3.0 (UBL 2.1)
 * document, an Invoice or, for a negative invoice, a CreditNote. Reads the invoice (invoices:read;
 * a foreign id is 404); 409 INVOICE_APPLY_TYPE_OFF when the tenant turned it off, 409
 * INVOICE_NOT_FINALIZED for a draft or a void invoice, 409
 * PEPPOL_SELLER_DETAILS_MISSING {missing} when the company details lack the organisation or VAT
 * number, 409 PEPPOL_BUYER_ADDRESS_MISSING for a buyer without a Peppol address. History: peppol,
 * with the file name and the document type.
 */
export async function peppolInvoiceOf(ctx: Ctx, invoiceId: unknown): Promise<DocumentFile> {
  requireAccess(ctx.auth, INVOICE_READ);
  await requireApplyTypeOn(ctx, 'peppol');
  const invoice = await getInvoice(ctx, invoiceId);
  // offered for final invoices only (apply-types.ts); the API and a stale page meet this
  if (invoice.status !== 'finalized' || !invoice.invoiceNr) throw new AppError('INVOICE_NOT_FINALIZED', 409);
  const customer = await invoiceCustomerOf(ctx, invoice.customer.id);
  const seller = sellerOf(ctx, invoice);
  const buyer = buyerOf(ctx, invoice, customer);
  const lang = langFromKey(str(customer?.invoice_language), langFromKey(ctx.tenant.config.languageKey));
  const t = documentTranslator(lang);
  const reduction = invoice.taxReduction.kind === 'none' ? null : invoice.figures.taxReduction;
  // the stored rows, not the view's: a quantity keeps its three decimals, so each total comes out as stored
  const rows: Row[] = await ctx
    .trx('invoice_rows')
    .where({ invoice_id: invoice.id })
    .orderBy([{ column: 'sort_order' }, { column: 'id' }]);
  const iban = invoice.bankAccount && isValidIban(invoice.bankAccount) ? normalizeIban(invoice.bankAccount) : null;
  const doc = buildPeppolDocument({
    number: invoice.invoiceNr,
    issueDate: invoice.invoiceDate,
    dueDate: invoice.paymentDueDate,
    deliveryDate: invoice.deliveryDate,
    currency: invoice.currency,
    // BT-10 routes the invoice at the buyer; PEPPOL-EN16931-R003 wants it or an order number
    buyerReference: invoice.yourReference ?? invoice.marking ?? invoice.customer.customerId ?? invoice.invoiceNr,
    orderReference: invoice.customerOrderNumber,
    seller,
    buyer,
    reverseVat: invoice.reverseVat,
    lines: rows.map((r) => ({
      kind: r.kind as PeppolLineInput['kind'],
      title: String(r.title ?? ''),
      description: str(r.description),
      articleNumber: str(r.article_number),
      unit: str(r.unit),
      amount: String(r.amount),
      price: String(r.price),
      discount: r.discount_type ? discountOf(r.discount_type as string, String(r.discount_value ?? '0')) : null,
      vatPercent: String(Number(r.vat_percent)) as VatRate,
      isText: Boolean(r.is_text),
    })),
    notes: [invoice.description, invoice.marking, invoice.footerText].filter((n): n is string => Boolean(n)),
    payment: {
      reference: invoice.ocr,
      bankgiro: invoice.bgAccount,
      iban,
      bic: null,
      termsText: null,
    },
    prepaid:
      reduction && reduction.amount !== '0.00'
        ? {
            amount: reduction.amount,
            text: `${t(`invoice.taxReduction.${reduction.kind}`)}: ${reduction.amount} ${invoice.currency}`,
          }
        : null,
    texts: { reverseVat: t('invoice.reverseVatText') },
  });
  // the document states what the invoice states, or it does not leave
  if (doc.payable !== invoice.figures.toPay.replace(/^-/, ''))
    throw new Error(
      `Peppol document of invoice ${invoice.id} pays ${doc.payable}, the invoice ${invoice.figures.toPay}`,
    );
  const filename = safeFilename('invoice', `${invoice.invoiceNr}-peppol`, 'xml');
  await recordHistory(ctx, {
    entity: INVOICE_ENTITY,
    entityId: invoice.id,
    action: 'peppol',
    data: { fileName: filename, documentType: doc.kind },
  });
  return { filename, contentType: PEPPOL_CONTENT_TYPE, body: Buffer.from(doc.xml, 'utf8') };
}
