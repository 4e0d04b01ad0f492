import { ErpError } from '~/core/extension-points/erp-http';
import type { ErpSupplier, ErpSupplierInvoice } from '~/core/extension-points/erp-provider';
import { compare, isNegative, isZero, negate, sub, sum, toNumber, type DecimalInput } from '~/core/pricing';

/*
 * Ordo's approved supplier invoice as Visma eEkonomi's SupplierInvoiceDraftApi (/v2/supplierinvoicedrafts)
 * and its supplier as a SupplierApi (/v2/suppliers); field names verbatim from Visma's OpenAPI document
 * (tests/fakes/visma-eaccounting.ts lists the sources).
 *
 * A draft's Rows are its cost rows only (AccountNumber with DebitAmount or CreditAmount): Visma books the
 * supplier debt itself on the payable account 2440 ("the standard payable account 2440", or a group
 * account set on the supplier) for TotalAmount, and the input VAT from Vat. So the rows carry the
 * amounts without VAT, on the accounts supplierRowAccounts chose, and an öre rounding becomes a row of
 * its own on the rounding account; rows, VAT and rounding then add up to TotalAmount.
 */

type Json = Record<string, unknown>;

/** Lengths from SupplierApi and SupplierInvoiceDraftApi (a longer value is refused, not cut). */
export const VISMA_SUPPLIER_LIMITS = {
  name: 50,
  address: 50,
  postalCode: 10,
  city: 50,
  corporateIdentityNumber: 20,
  vatNumber: 20,
  telephone: 50,
  giro: 10,
  invoiceNumber: 50,
  ocrNumber: 25,
  transactionText: 100,
} as const;

const nonEmpty = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.trim() !== '';
const cut = (value: string | null | undefined, max: number) => (nonEmpty(value) ? value.trim().slice(0, max) : null);
const compact = (value: string | null | undefined) =>
  nonEmpty(value) ? value.replace(/\s+/g, '').toUpperCase() : null;

/** The supplier card as Visma takes it on create (and, merged into the stored card, on update). */
export function vismaSupplier(supplier: ErpSupplier): Json {
  const card: Json = {
    Name: cut(supplier.name, VISMA_SUPPLIER_LIMITS.name),
    CorporateIdentityNumber: cut(supplier.organizationalNumber, VISMA_SUPPLIER_LIMITS.corporateIdentityNumber),
    VatNumber: cut(compact(supplier.vatNumber), VISMA_SUPPLIER_LIMITS.vatNumber),
    EmailAddress: cut(supplier.email, 255),
    Telephone: cut(supplier.phone, VISMA_SUPPLIER_LIMITS.telephone),
    Address1: cut(supplier.address.street, VISMA_SUPPLIER_LIMITS.address),
    PostalCode: cut(supplier.address.postIndex, VISMA_SUPPLIER_LIMITS.postalCode),
    City: cut(supplier.address.city, VISMA_SUPPLIER_LIMITS.city),
    // Where Visma's bank integration pays the supplier: Bankgiro or Plusgiro for Swedish suppliers,
    // IBAN with BIC for foreign payments (the formats SupplierApi states).
    BankgiroNumber: cut(supplier.bankgiro, VISMA_SUPPLIER_LIMITS.giro),
    PlusgiroNumber: cut(supplier.plusgiro, VISMA_SUPPLIER_LIMITS.giro),
    BankIban: compact(supplier.iban),
    BankBic: compact(supplier.bic),
  };
  return Object.fromEntries(Object.entries(card).filter(([, v]) => v !== null && v !== undefined && v !== ''));
}

/** A debit for a positive amount, a credit for a negative one (a credit invoice's rows). */
function side(amount: DecimalInput): { DebitAmount: number; CreditAmount: number } {
  return isNegative(amount)
    ? { DebitAmount: 0, CreditAmount: toNumber(negate(amount)) }
    : { DebitAmount: toNumber(amount), CreditAmount: 0 };
}

/**
 * The draft without its SupplierId (the caller adds the mapped one). `rowAccounts` is
 * supplierRowAccounts(invoice). Throws, before any request, when rows, fee, VAT and rounding do not
 * make the total: Visma would book a voucher that does not balance against 2440, or refuse it.
 */
export function vismaSupplierInvoiceDraft(
  invoice: ErpSupplierInvoice,
  rowAccounts: string[],
  roundingAccount: string,
): Json {
  const rows: Json[] = invoice.rows.map((row, i) => ({
    AccountNumber: Number(rowAccounts[i]),
    ...side(row.amount),
    TransactionText: cut(row.description, VISMA_SUPPLIER_LIMITS.transactionText),
  }));
  // The supplier's own fee given as a figure is a cost like the others, on the supplier's default account.
  if (invoice.fee && !isZero(invoice.fee))
    rows.push({
      AccountNumber: Number(invoice.supplier.defaultAccount?.trim() || rowAccounts[0]),
      ...side(invoice.fee),
      TransactionText: 'Fakturaavgift',
    });
  if (!isZero(invoice.rounding))
    rows.push({ AccountNumber: Number(roundingAccount), ...side(invoice.rounding), TransactionText: 'Öresavrundning' });

  const net = sum([...invoice.rows.map((r) => r.amount), invoice.fee ?? '0', invoice.rounding]);
  if (compare(net, sub(invoice.total, invoice.totalVat)) !== 0)
    throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
      vendorMessage: `The supplier invoice's rows, fee and rounding make ${toNumber(net)} without VAT, its total less VAT is ${toNumber(sub(invoice.total, invoice.totalVat))}; Visma eEkonomi needs them to agree`,
    });

  return {
    InvoiceNumber: cut(invoice.invoiceNumber, VISMA_SUPPLIER_LIMITS.invoiceNumber),
    InvoiceDate: invoice.invoiceDate,
    DueDate: invoice.dueDate,
    TotalAmount: toNumber(invoice.total),
    Vat: toNumber(invoice.totalVat),
    IsCreditInvoice: isNegative(invoice.total),
    CurrencyCode: invoice.currency,
    ...(nonEmpty(invoice.ocr)
      ? { OcrNumber: cut(invoice.ocr.replace(/\s+/g, ''), VISMA_SUPPLIER_LIMITS.ocrNumber) }
      : {}),
    Rows: rows.map((row, i) => ({ ...row, LineNumber: i + 1 })),
  };
}
