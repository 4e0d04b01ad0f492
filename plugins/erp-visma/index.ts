import { z } from 'zod';
import { ErpError } from '~/core/extension-points/erp-http';
import {
  defineErpProvider,
  type ErpAccounts,
  type ErpFile,
  type ErpFileContext,
  type ErpInvoice,
  type ErpProvider,
} from '~/core/extension-points/erp-provider';
import type { InvoiceFigures, InvoiceLineFigures, InvoiceRowKind, VatLine } from '~/core/invoicing/invoice-math';
import { bookAccounts, invoiceVerification, type InvoiceForBooks } from '~/core/invoicing/invoice-verification';
import {
  buildSie,
  encodeCp437,
  SIE_CONTENT_TYPE,
  SIE_PROGRAM,
  type SieDocument,
  type SieVerification,
} from '~/core/invoicing/sie';
import { add, compare, formatDecimal, isZero, mul, parseDecimal, round, sub, sum, type Decimal } from '~/core/pricing';

/*
 * Visma Administration (200/500/1000/2000, formerly SPCS Administration): the visma-xml apply type
 * (issue 14 item 5, issue 31 item 5). Nothing is sent anywhere: the invoice becomes a file the
 * tenant imports into its own Visma, so the plugin has no credentials, no HTTP and no mapping.
 *
 * The file is SIE type 4I: one verification, the invoice as the books see it. Visma Administration
 * publishes no import format for customer invoices (its Adk is a Windows DLL, and an XML of Adk
 * field names, which this plugin used to write, is read by no Visma program). What it does document
 * is importing SIE verifications: "Importera, kommando" (vismaspcs.se, Visma Administration 2000
 * online help, kommando-importera.htm): "När du väljer kommandot Importera kan du importera en
 * SIE-fil som är exporterad från ditt program eller från något annat program som stöder SIE", the
 * file checked before anything is imported, errors listed by record. Settings → ERP says how
 * (invoicesettings `erp.fileImport.visma`).
 *
 * One SIE writer and one rule for the books: core/invoicing/sie.ts writes the file (SIE-Gruppen's
 * "SIE filformat, utgåva 4B", code page 437) and invoice-verification.ts books the invoice, the
 * same as the period export (decision 026): 1510 debited with what the customer pays, 1513 with a
 * ROT/RUT/green reduction, sales per VAT rate (reverse VAT on its own account), output VAT, the fee
 * and the öre rounding on the tenant's accounts (Settings → ERP) or BAS's.
 *
 * Choices for a file per invoice:
 * - The verification's series and number are left empty (4I allows both, spec section 6), so Visma
 *   files it in its own series under its next number; an invoice number used as a verification
 *   number could collide with the company's own verifications. The text names the invoice:
 *   "Faktura 1001 Brf Eken".
 * - The file is named FAKT_<invoice number>.SI (5.2: .SI for files to import, FAKT for invoicing).
 * - Only invoices in kronor: #VALUTA names the currency the company keeps its books in, and Ordo does
 *   not know the exchange rate a euro invoice is booked at in kronor.
 * - The customer ledger is not a verification's: the customer's payment is matched against 1510 in
 *   Visma by hand, and a ROT/RUT claim is made from Ordo's invoice.
 */

type Money = string;

const MONEY = /^-?\d+(\.\d{1,2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const RATES = ['25', '12', '6'] as const;

function refuse(message: string): never {
  throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', { vendorMessage: message });
}

function checkMoney(name: string, value: string | null | undefined): Decimal {
  if (typeof value !== 'string' || !MONEY.test(value)) refuse(`${name} is not an amount: ${String(value)}`);
  return parseDecimal(value)!;
}

const money = (v: Decimal): Money => formatDecimal(v, 2);

/**
 * The invoice as the books need it, from the figures the core handed over: each row's total at its
 * rate, the VAT per rate, the rounding, the total and the reduction. The figures must add up the way
 * the invoice's own arithmetic (invoice-math.ts) made them, else nothing is written: a verification
 * of figures that do not match the invoice would be booked wrong.
 */
export function invoiceForBooks(invoice: ErpInvoice): InvoiceForBooks {
  if (!/^\d+$/.test(invoice.invoiceNr)) refuse(`the invoice number must be a number: ${invoice.invoiceNr}`);
  if (!DATE.test(invoice.invoiceDate)) refuse(`invoiceDate is not a date: ${invoice.invoiceDate}`);
  if (invoice.currency !== 'SEK')
    refuse(`Visma Administration keeps its books in kronor; a ${invoice.currency} invoice is booked there by hand`);
  const reverse = invoice.reverseVat;
  const lines: InvoiceLineFigures[] = [];
  const rowKinds: InvoiceRowKind[] = [];
  for (const row of invoice.rows) {
    rowKinds.push(row.kind as InvoiceRowKind);
    if (row.kind === 'text') lines.push({ total: '0.00', vatPercent: '0' });
    else lines.push({ total: money(checkMoney('row total', row.total)), vatPercent: reverse ? '0' : row.vatPercent });
  }
  const baseAt = (percent: string) =>
    sum(lines.filter((l, i) => rowKinds[i] !== 'text' && l.vatPercent === percent).map((l) => l.total));
  // A fee given only as the invoice's figure (no row of kind "fee"): its own line, at the rate most
  // of the invoice has (Swedish VAT follows the main supply), 25 % on an invoice of text rows only.
  if (!rowKinds.includes('fee') && invoice.fee !== null && !isZero(checkMoney('fee', invoice.fee))) {
    const main = reverse
      ? '0'
      : RATES.reduce<(typeof RATES)[number]>((best, r) => (compare(baseAt(r), baseAt(best)) > 0 ? r : best), '25');
    rowKinds.push('fee');
    lines.push({ total: money(checkMoney('fee', invoice.fee)), vatPercent: main });
  }

  const counted = lines.filter((_, i) => rowKinds[i] !== 'text');
  const net = sum(counted.map((l) => l.total));
  const vat: VatLine[] = (['25', '12', '6', '0'] as const).flatMap((percent) => {
    if (!counted.some((l) => l.vatPercent === percent)) return [];
    const base = baseAt(percent);
    return [{ percent, base: money(base), vat: money(round(mul(base, { units: BigInt(percent), scale: 2 }), 2)) }];
  });
  const vatTotal = sum(vat.map((v) => v.vat));
  const rounding = checkMoney('rounding', invoice.rounding);
  const total = checkMoney('total', invoice.total);
  if (compare(net, checkMoney('totalPrice', invoice.totalPrice)) !== 0)
    refuse(`the rows and the fee add up to ${money(net)}, the invoice says ${invoice.totalPrice}`);
  if (compare(vatTotal, checkMoney('totalVat', invoice.totalVat)) !== 0)
    refuse(`the VAT of the rows is ${money(vatTotal)}, the invoice says ${invoice.totalVat}`);
  if (compare(add(add(net, vatTotal), rounding), total) !== 0)
    refuse(`${invoice.totalPrice} + ${invoice.totalVat} + ${invoice.rounding} is not the total ${invoice.total}`);

  const reduction = reverse ? null : invoice.taxReduction;
  const reductionAmount = reduction ? checkMoney('tax reduction', reduction.amount) : null;
  if (reductionAmount && (reductionAmount.units < 0n || compare(reductionAmount, total) > 0))
    refuse(`the tax reduction ${reduction!.amount} is not within the total ${invoice.total}`);
  const figures: InvoiceFigures = {
    lines,
    net: money(net),
    vat,
    vatTotal: money(vatTotal),
    gross: money(add(net, vatTotal)),
    rounding: money(rounding),
    total: money(total),
    reverseVat: reverse,
    taxReduction:
      reduction && reductionAmount
        ? {
            kind: reduction.kind,
            base: money(reductionAmount),
            computed: money(reductionAmount),
            amount: money(reductionAmount),
            capped: false,
          }
        : null,
    toPay: money(sub(total, reductionAmount ?? 0)),
  };
  return {
    invoiceNr: invoice.invoiceNr,
    invoiceDate: invoice.invoiceDate,
    customerName: invoice.customer.name,
    rowKinds,
    figures,
  };
}

/** The invoice's verification, series and number left to Visma, and the BAS accounts it books on. */
export function vismaVerification(
  invoice: ErpInvoice,
  accounts: ErpAccounts,
): { verification: SieVerification; declared: SieDocument['accounts'] } {
  const booked = invoiceVerification(invoiceForBooks(invoice), bookAccounts(accounts), '');
  if (!booked) refuse('the invoice moves no money: there is nothing to book');
  const declared = new Map<string, string>();
  for (const a of booked.used) if (a.basName) declared.set(a.number, a.basName);
  return {
    verification: { ...booked.verification, number: '' },
    declared: [...declared].sort(([a], [b]) => a.localeCompare(b)).map(([number, name]) => ({ number, name })),
  };
}

/** The file: SIE 4I in code page 437, one verification. */
export function vismaInvoiceFile(invoice: ErpInvoice, context?: ErpFileContext): ErpFile {
  // #FNAMN and #GEN are required in 4I: without the company and the day there is no file
  if (!context) refuse('the file needs the company and the day it is made');
  const { verification, declared } = vismaVerification(invoice, context.accounts);
  const text = buildSie({
    program: SIE_PROGRAM,
    generated: context.generated,
    company: context.company,
    currency: 'SEK',
    accounts: declared,
    verifications: [verification],
  });
  return {
    fileName: `FAKT_${invoice.invoiceNr}.SI`,
    contentType: SIE_CONTENT_TYPE,
    body: encodeCp437(text),
  };
}

function create(): ErpProvider {
  const noApi = async (): Promise<never> => {
    throw new ErpError('ERP_NOT_CONNECTED', {
      vendorMessage: 'Visma Administration takes invoices as a file (visma-xml), not over an API',
    });
  };
  return {
    capabilities: {
      sendInvoices: false,
      invoiceFile: true,
      readInvoice: false,
      listArticles: false,
      taxReduction: true,
      supplierInvoices: false,
    },
    auth: { type: 'none' },
    async testConnection() {
      return { companyName: null };
    },
    ensureCustomer: noApi,
    ensureArticle: noApi,
    sendInvoice: noApi,
    readInvoice: noApi,
    async listArticles() {
      return [];
    },
    invoiceFile: vismaInvoiceFile,
  };
}

export default defineErpProvider({
  id: 'visma',
  displayName: 'Visma Administration',
  erpKind: 'visma',
  // what was checked against the vendor's documentation and what was not (issue 31; Settings → ERP)
  verification: { verified: ['visma.sie'], unverified: ['visma.import'] },
  options: z.object({}).strict(),
  create,
});
