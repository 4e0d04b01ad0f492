import { createHash } from 'node:crypto';
import { ErpError } from '~/core/extension-points/erp-http';
import type { ErpSupplier, ErpSupplierInvoice } from '~/core/extension-points/erp-provider';
import { compare, isNegative, isZero, negate, sum, toNumber, type DecimalInput } from '~/core/pricing';

/*
 * Ordo's approved supplier invoice as Fortnox's SupplierInvoice (/3/supplierinvoices) and its
 * supplier as a Supplier (/3/suppliers). Field names verbatim from Fortnox's OpenAPI document
 * (apps.fortnox.se/apidocs, as generated into public clients; tests/fakes/fortnox.ts lists them).
 *
 * SupplierInvoiceRows are the invoice's accounting rows, and they balance: Fortnox's own answers show
 * the supplier debt as a row with Code TOT (2440, credit), the input VAT as Code VAT (2641, debit), the
 * öre rounding as Code ROV, and the cost rows as debits. Fortnox adds the TOT and VAT rows itself only
 * when the create sends no rows of its own (its blog on VAT types: "If you want your invoice rows to
 * match the exact input in the API call … use VAT type NORMAL and specify rows as you want them to
 * appear"). So the plugin sends every row, VATType NORMAL, and the cost rows on the accounts
 * supplierRowAccounts chose: what Fortnox books is exactly what was approved in Ordo.
 */

type Rec = Record<string, unknown>;

/** Field lengths of the supplier-invoice resources (row TransactionInformation as on vouchers). */
export const FORTNOX_SUPPLIER_LIMITS = {
  /**
   * ExternalInvoiceNumber, where the idempotency key travels. Fortnox does not publish its length; 50
   * keeps Ordo's 44-character keys whole and is what the fake enforces. A longer key is shortened
   * with a hash, the same way on every try.
   */
  externalInvoiceNumber: 50,
  transactionInformation: 100,
  comments: 1024,
  reference: 50,
} as const;

/** The accounts Fortnox's own supplier-invoice rows use; BAS defaults, a company with another chart sets them. */
export interface FortnoxSupplierAccounts {
  /** Leverantörsskulder (Fortnox's predefined SUPDEBT). */
  supplierDebt: string;
  /** Debiterad ingående moms (Fortnox's predefined INVAT). */
  inputVat: string;
  /** Öres- och kronutjämning (ROUNDOFF). */
  rounding: string;
}

const nonEmpty = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.trim() !== '';
const cut = (value: string, max: number) => value.slice(0, max);

/** The key as ExternalInvoiceNumber can hold it (a prefix and a hash of the whole when too long). */
export function supplierInvoiceReference(idempotencyKey: string): string {
  const max = FORTNOX_SUPPLIER_LIMITS.externalInvoiceNumber;
  if (idempotencyKey.length <= max) return idempotencyKey;
  const hash = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32);
  return `${idempotencyKey.slice(0, max - hash.length - 1)}~${hash}`;
}

/** The supplier card as Fortnox holds it; empty values are left out. */
export function fortnoxSupplier(supplier: ErpSupplier): Rec {
  // VATType is left to the company: Ordo does not know whether a foreign supplier's purchases are
  // EU goods or services, and the invoice states VATType NORMAL with its own rows anyway.
  const card: Rec = {
    Name: supplier.name,
    OrganisationNumber: supplier.organizationalNumber,
    VATNumber: supplier.vatNumber,
    Email: supplier.email,
    Phone1: supplier.phone,
    Address1: supplier.address.street,
    ZipCode: supplier.address.postIndex,
    City: supplier.address.city,
    // Where Fortnox's payment file pays the supplier: Bankgiro and Plusgiro for Swedish payments,
    // IBAN with BIC for foreign ones (Fortnox's best practice for supplier invoices).
    BG: supplier.bankgiro,
    PG: supplier.plusgiro,
    IBAN: supplier.iban?.replace(/\s+/g, '').toUpperCase(),
    BIC: supplier.bic?.replace(/\s+/g, '').toUpperCase(),
    // The account Fortnox proposes for the supplier's invoices typed in Fortnox itself.
    PreDefinedAccount: supplier.defaultAccount,
  };
  return Object.fromEntries(Object.entries(card).filter(([, v]) => v !== null && v !== undefined && v !== ''));
}

/** A debit for a positive amount, a credit for a negative one (a credit note's rows). */
function side(amount: DecimalInput): { Debit: number; Credit: number } {
  return isNegative(amount) ? { Debit: 0, Credit: toNumber(negate(amount)) } : { Debit: toNumber(amount), Credit: 0 };
}

/**
 * The SupplierInvoice resource. `rowAccounts` is supplierRowAccounts(invoice): one account per row,
 * computed before anything is sent. Throws, before any request, when the figures do not add up: a
 * voucher that does not balance is refused by Fortnox anyway, with a less helpful message.
 */
export function fortnoxSupplierInvoice(
  invoice: ErpSupplierInvoice,
  rowAccounts: string[],
  externalRef: string,
  accounts: FortnoxSupplierAccounts,
): Rec {
  const costs = invoice.rows.map((row, i) => ({
    Account: Number(rowAccounts[i]),
    ...side(row.amount),
    TransactionInformation: cut(row.description.trim(), FORTNOX_SUPPLIER_LIMITS.transactionInformation),
    ...(nonEmpty(row.projectNumber) ? { Project: row.projectNumber } : {}),
  }));
  // The supplier's own fee, when it came as a figure and not as a row, is a cost like the others: on
  // the supplier's default account (or the first row's, which is where supplierRowAccounts put it).
  if (invoice.fee && !isZero(invoice.fee))
    costs.push({
      Account: Number(invoice.supplier.defaultAccount?.trim() || rowAccounts[0]),
      ...side(invoice.fee),
      TransactionInformation: 'Fakturaavgift',
    });
  const debits = sum([...invoice.rows.map((r) => r.amount), invoice.fee ?? '0', invoice.totalVat, invoice.rounding]);
  if (compare(debits, invoice.total) !== 0)
    throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
      vendorMessage: `The supplier invoice's rows, fee, VAT and rounding make ${toNumber(debits)}, its total is ${invoice.total}; Fortnox needs them to balance`,
    });

  const projects = [...new Set(invoice.rows.map((r) => r.projectNumber).filter(nonEmpty))];
  const rows: Rec[] = [
    // The debt to the supplier: a credit of the total (a debit on a credit note).
    { Code: 'TOT', Account: Number(accounts.supplierDebt), ...side(negate(invoice.total)) },
    ...(isZero(invoice.totalVat)
      ? []
      : [{ Code: 'VAT', Account: Number(accounts.inputVat), ...side(invoice.totalVat) }]),
    ...(isZero(invoice.rounding)
      ? []
      : [{ Code: 'ROV', Account: Number(accounts.rounding), ...side(invoice.rounding) }]),
    ...costs,
  ];
  return {
    SupplierNumber: invoice.supplier.externalId ?? invoice.supplier.supplierNumber,
    InvoiceNumber: invoice.invoiceNumber,
    InvoiceDate: invoice.invoiceDate,
    DueDate: invoice.dueDate,
    Currency: invoice.currency,
    VATType: 'NORMAL',
    Total: toNumber(invoice.total),
    VAT: toNumber(invoice.totalVat),
    RoundOffValue: toNumber(invoice.rounding),
    ExternalInvoiceNumber: externalRef,
    ...(nonEmpty(invoice.ocr) ? { OCR: invoice.ocr.replace(/\s+/g, '') } : {}),
    ...(nonEmpty(invoice.ourReference)
      ? { OurReference: cut(invoice.ourReference, FORTNOX_SUPPLIER_LIMITS.reference) }
      : {}),
    ...(nonEmpty(invoice.comments) ? { Comments: cut(invoice.comments, FORTNOX_SUPPLIER_LIMITS.comments) } : {}),
    // The invoice's Project is the one its rows share; rows of several projects carry their own.
    ...(projects.length === 1 ? { Project: projects[0] } : {}),
    SupplierInvoiceRows: rows,
  };
}
