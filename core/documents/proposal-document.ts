import type { DateFormat } from '~/core/i18n/number-format';
import type { Lang } from '~/core/i18n/languages';
import type { DocumentCompany } from './work-order-document';

/**
 * One row of a proposal or sales-order document, as printed: an article with its sales figures, a
 * comment (a line of text across the table) or a summary row (the running subtotal since the
 * previous one). The kind is also given as flags for the template's `{{#if}}`. Purchase prices and
 * margins are never part of it.
 */
export interface ProposalDocumentRow {
  kind: 'article' | 'comment' | 'summary';
  isArticle: boolean;
  isComment: boolean;
  isSummary: boolean;
  /** Article title; the comment's text; the summary row's own label (null: "Subtotal"). */
  title: string | null;
  description: string | null;
  /** Decimal texts ("1.500", "1250.00"), formatted by the renderer; null when not an article row. */
  amount: string | null;
  unit: string | null;
  price: string | null;
  /** The discount as printed ("10 %", "50,00"), empty for none. */
  discount: string;
  total: string | null;
  monthlyPrice: string | null;
  monthlyDiscount: string;
  monthlyTotal: string | null;
  /** On a summary row: the subtotals of the article rows since the previous summary row. */
  subtotal: string | null;
  monthlySubtotal: string | null;
}

/**
 * Everything a proposal or sales-order document prints (templates/proposal.hbs and the Word
 * builder), in raw values that both format the same way. Sales orders leave the proposal's texts,
 * contact, delivery address and valid-to empty.
 */
export interface ProposalDocumentModel {
  kind: 'proposal' | 'salesOrder';
  isSalesOrder: boolean;
  /** i18n key of the document's name ("doc.proposal", "doc.salesOrder"). */
  titleKey: string;
  /** i18n key of the number's label. */
  numberKey: string;
  lang: Lang;
  locale: string;
  dateFormat: DateFormat;
  country: string;
  currency: string;
  printedAt: string;
  company: DocumentCompany;
  document: {
    number: string;
    title: string;
    /** When it was created (ISO instant). */
    date: string;
    /** YYYY-MM-DD, proposals only (and only when the valid-to setting is on). */
    validTo: string | null;
    /** The proposal's author, the sales order's reference person. */
    ourReference: string | null;
    intro: string | null;
    description: string | null;
    inclusions: string | null;
    exceptions: string | null;
    generalTerms: string | null;
    paymentTerms: string | null;
  };
  customer: {
    name: string;
    number: string | null;
    street: string | null;
    postIndex: string | null;
    city: string | null;
  } | null;
  contact: { name: string | null; email: string | null; phone: string | null } | null;
  /** The delivery address's lines (description, then the two extra lines), empty lines left out. */
  delivery: string[];
  object: { serial: string; model: string | null } | null;
  /** Whether the monthly-price columns and total print (the tenant's monthly-price setting). */
  showMonthly: boolean;
  rows: ProposalDocumentRow[];
  /** The sum of the rows without VAT. */
  total: string;
  monthlyTotal: string;
  /**
   * VAT per rate on the rows (each article's rate, else the tenant's default), reckoned as an
   * invoice would (core/invoicing/invoice-math); none under reverse VAT. A private customer must
   * see the price including VAT.
   */
  vat: { percent: string; base: string; vat: string }[];
  vatTotal: string;
  /** The total including VAT (net + VAT, to the öre). */
  totalInclVat: string;
  reverseVat: boolean;
  /** A proposal prints the customer's acceptance (name, date, signature); a sales order does not. */
  acceptance: boolean;
}
