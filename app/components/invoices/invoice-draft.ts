import { moneyInput } from '~/app/components/articles/format';
import { invoiceFigures, type InvoiceFigures, type VatRate } from '~/core/invoicing/invoice-math';
import type { InvoiceRowView, InvoiceView } from '~/core/invoicing/invoice.service';
import type { GreenTechnology, TaxReductionKind } from '~/core/invoicing/tax-reduction';
import { discountOf, formatDiscount, parseDecimal, parseDiscount, rowTotal } from '~/core/pricing';
import { addDaysTo } from './invoice-format';

/*
 * A draft invoice as its editor holds it (text as typed) and as PUT /invoice takes it back: the
 * header, the tax reduction and every row (rows are replaced as sent). Pure: the editor, its
 * figures and the tests share it.
 */

export interface RowDraft {
  /** The row's id, or a new key: only for React. */
  key: string;
  kind: InvoiceRowView['kind'];
  articleId: string | null;
  articleNumber: string | null;
  title: string;
  description: string;
  unit: string;
  amount: string;
  price: string;
  /** As typed: "10%" or "50" (off each unit), empty for none. */
  discount: string;
  vatPercent: VatRate;
  work: 'labour' | 'material';
  green: GreenTechnology | null;
  /** The person a labour row bills (kept through a save). */
  userId: string | null;
  isText: boolean;
}

export interface InvoiceDraft {
  invoiceDate: string;
  deliveryDate: string;
  paymentTermDays: string;
  marking: string;
  ourReference: string;
  yourReference: string;
  customerOrderNumber: string;
  footerText: string;
  reverseVat: boolean;
  taxReduction: TaxReductionKind;
  propertyDesignation: string;
  housingOrgNr: string;
  persons: { key: string; personId: string }[];
  rows: RowDraft[];
}

let keys = 0;
export const newKey = (prefix: string) => `${prefix}-${++keys}`;

const text = (v: string | null | undefined) => v ?? '';

function rowDraft(r: InvoiceRowView): RowDraft {
  return {
    key: r.id,
    kind: r.kind,
    articleId: r.articleId,
    articleNumber: r.articleNumber,
    title: r.articleTitle,
    description: text(r.articleDescription),
    unit: text(r.unit),
    // as the other editors show a number in an input: "2,50"
    amount: moneyInput(r.amount),
    price: moneyInput(r.price),
    discount: formatDiscount(discountOf(r.discountType, r.discountValue)),
    vatPercent: r.vatPercent as VatRate,
    work: r.work,
    green: r.green,
    userId: r.userId,
    isText: r.isText,
  };
}

export function toDraft(invoice: InvoiceView): InvoiceDraft {
  return {
    invoiceDate: invoice.invoiceDate,
    deliveryDate: text(invoice.deliveryDate),
    paymentTermDays: String(invoice.paymentTermDays),
    marking: text(invoice.marking),
    ourReference: text(invoice.ourReference),
    yourReference: text(invoice.yourReference),
    customerOrderNumber: text(invoice.customerOrderNumber),
    footerText: text(invoice.footerText),
    reverseVat: invoice.reverseVat,
    taxReduction: invoice.taxReduction.kind,
    propertyDesignation: text(invoice.taxReduction.propertyDesignation),
    housingOrgNr: text(invoice.taxReduction.housingOrgNr),
    persons: invoice.taxReduction.persons.map((p) => ({ key: newKey('person'), personId: p.personId })),
    rows: invoice.articles.map(rowDraft),
  };
}

/** A new row: one of something at 25 % VAT, or a line of text. */
export function emptyRowDraft(isText: boolean): RowDraft {
  return {
    key: newKey('row'),
    kind: isText ? 'text' : 'article',
    articleId: null,
    articleNumber: null,
    title: '',
    description: '',
    unit: '',
    amount: isText ? '0' : '1',
    price: '0',
    discount: '',
    vatPercent: '25',
    work: 'material',
    green: null,
    userId: null,
    isText,
  };
}

/** A number as people type it ("1 250,50") the way the API reads it ("1250.50"). */
const decimalText = (v: string) => v.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');

/** The field errors (message keys) the editor knows before it asks: discounts it cannot read. */
export function draftErrors(draft: InvoiceDraft): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  draft.rows.forEach((r, i) => {
    if (r.isText) return;
    const d = parseDiscount(r.discount);
    if (!d.ok) errors[`rows.${i}.discountValue`] = [d.error];
  });
  return errors;
}

/** The body of PUT /invoice (without id and version). */
export function toPayload(draft: InvoiceDraft) {
  return {
    invoiceDate: draft.invoiceDate,
    deliveryDate: draft.deliveryDate || null,
    paymentTermDays: draft.paymentTermDays.trim(),
    marking: draft.marking,
    ourReference: draft.ourReference,
    yourReference: draft.yourReference,
    customerOrderNumber: draft.customerOrderNumber,
    footerText: draft.footerText,
    reverseVat: draft.reverseVat,
    taxReduction: draft.taxReduction,
    propertyDesignation: draft.propertyDesignation,
    housingOrgNr: draft.housingOrgNr,
    taxReductionPersons: draft.persons.map((p) => ({ personId: p.personId })),
    rows: draft.rows.map((r) => {
      const parsed = parseDiscount(r.discount);
      const discount = parsed.ok && parsed.discount.type !== 'NONE' ? parsed.discount : null;
      return {
        kind: r.kind,
        articleId: r.articleId,
        articleNumber: r.articleNumber,
        articleTitle: r.title,
        articleDescription: r.isText ? null : r.description,
        unit: r.isText ? null : r.unit,
        amount: r.isText ? '0' : decimalText(r.amount),
        price: r.isText ? '0' : decimalText(r.price),
        discountType: discount?.type ?? null,
        discountValue: discount?.value ?? null,
        vatPercent: r.vatPercent,
        work: r.work,
        green: r.green,
        userId: r.userId,
      };
    }),
  };
}

/** A typed number, or null when it is not one. */
const numberOf = (v: string) => (parseDecimal(decimalText(v)) ? decimalText(v) : null);

/** A row's total as typed, or null while its quantity, price or discount cannot be read. */
export function rowDraftTotal(r: RowDraft): string | null {
  const amount = numberOf(r.amount);
  const price = numberOf(r.price);
  const discount = parseDiscount(r.discount);
  if (amount === null || price === null || !discount.ok) return null;
  return rowTotal({ amount, price, discount: discount.discount });
}

/** The due date a draft will get: its date plus its payment terms. */
export function draftDueDate(draft: InvoiceDraft): string | null {
  const days = Number(draft.paymentTermDays);
  return Number.isInteger(days) && days >= 0 ? addDaysTo(draft.invoiceDate, days) : null;
}

/**
 * The figures as the draft stands (the same arithmetic as the server's), or null while a row
 * cannot be read. The server's figures are the ones kept; these show what a save will give.
 */
export function draftFigures(draft: InvoiceDraft): InvoiceFigures | null {
  const lines = [];
  for (const r of draft.rows) {
    if (r.isText) {
      lines.push({ amount: '0', price: '0', vatPercent: r.vatPercent, isText: true });
      continue;
    }
    const amount = numberOf(r.amount);
    const price = numberOf(r.price);
    const discount = parseDiscount(r.discount);
    if (amount === null || price === null || !discount.ok) return null;
    lines.push({
      amount,
      price,
      discount: discount.discount,
      vatPercent: r.vatPercent,
      work: r.work,
      green: r.green,
    });
  }
  return invoiceFigures({
    lines,
    reverseVat: draft.reverseVat,
    taxReduction: draft.taxReduction,
    reductionDay: draftDueDate(draft) ?? draft.invoiceDate,
    persons: Math.max(1, draft.persons.length),
  });
}
