import type { DateFormat } from '~/core/i18n/number-format';
import type { Lang } from '~/core/i18n/languages';
import type { VatLine } from '~/core/invoicing/invoice-math';
import type { DocumentCompany } from './work-order-document';

/**
 * One row of an invoice as printed: an article, labour, travel, mileage or fee row with its sales
 * figures and VAT rate, or a text row (a line of text across the table, no figures). The figures
 * are decimal texts the renderer formats.
 */
export interface InvoiceDocumentRow {
  isText: boolean;
  /** The article's title; a text row's text. */
  title: string;
  description: string | null;
  amount: string | null;
  unit: string | null;
  price: string | null;
  /** The discount as printed ("10 %", "50,00"), empty for none. */
  discount: string;
  /** The rate the row is taxed at: "0" on a reverse-VAT invoice, whatever the article's rate. */
  vatPercent: string | null;
  total: string | null;
}

/**
 * Everything an invoice document prints (templates/invoice.hbs), in raw values (ISO dates,
 * decimal texts) the template formats. A draft has no number and prints a draft marking, so it
 * cannot be mistaken for an invoice the customer owes.
 */
export interface InvoiceDocumentModel {
  lang: Lang;
  /** BCP 47 locale of the document language. */
  locale: string;
  dateFormat: DateFormat;
  country: string;
  currency: string;
  printedAt: string;
  /** The company as it was when the invoice was made (its data), the logo as it is now. */
  company: DocumentCompany;
  customer: {
    name: string;
    number: string | null;
    street: string | null;
    postIndex: string | null;
    city: string | null;
    /** The customer's VAT number: a reverse-VAT invoice must carry it. */
    vatNumber: string | null;
    orgNr: string | null;
  } | null;
  invoice: {
    id: string;
    /** Null for a draft: numbers are given on finalizing only. */
    number: string | null;
    isDraft: boolean;
    /** A voided invoice keeps its number but prints that it is not to be paid. */
    isVoid: boolean;
    /** YYYY-MM-DD */
    date: string;
    deliveryDate: string | null;
    dueDate: string | null;
    paymentTermDays: number;
    ocr: string | null;
    ourReference: string | null;
    yourReference: string | null;
    customerOrderNumber: string | null;
    marking: string | null;
    description: string | null;
    workOrderNumber: string | null;
    salesOrderNumber: string | null;
  };
  rows: InvoiceDocumentRow[];
  /** One line per VAT rate that has rows, highest rate first. */
  vat: VatLine[];
  net: string;
  vatTotal: string;
  /** The öre rounding to whole kronor. */
  rounding: string;
  /** Including VAT, whole kronor. */
  total: string;
  /** A ROT, RUT or green-technology reduction; null when none applies (or under reverse VAT). */
  taxReduction: {
    /** i18n key of the reduction's name ("invoice.taxReduction.ROT"). */
    kindKey: string;
    /** What the reduction is computed on (the labour or green rows including VAT). */
    base: string;
    amount: string;
    propertyDesignation: string | null;
    housingOrgNr: string | null;
    /** The personal identity numbers of the people claiming it. */
    persons: string[];
  } | null;
  /** What the customer pays: the total less the reduction. */
  toPay: string;
  payment: { bgAccount: string | null; bankAccount: string | null; ocr: string | null };
  notes: {
    /** i18n key of the reverse-charge legal text, when the customer pays the VAT. */
    reverseVatKey: string | null;
    footer: string | null;
  };
  /**
   * A project's part invoice: the project, its contract sum, what earlier invoices carried of it,
   * this invoice's part and what is left after it (null where an older invoice did not keep them).
   */
  project: {
    number: string;
    title: string;
    contractSum: string;
    invoicedBefore: string | null;
    contractPart: string | null;
    leftAfter: string | null;
  } | null;
}
