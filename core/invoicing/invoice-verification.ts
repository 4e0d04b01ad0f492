import type { ErpAccounts } from '~/core/extension-points/erp-provider';
import { add, formatDecimal, isZero, negate, toDecimal, type Decimal, type Money } from '~/core/pricing';
import type { InvoiceFigures, VatRate } from './invoice-math';
import type { InvoiceRowKind } from './invoice-lines';
import type { SieTransaction, SieVerification } from './sie';

/*
 * An invoice as a verification in the books (issue 15 item 3), the way a Swedish company books a
 * customer invoice: the receivable is debited with what the customer pays, the sales are credited
 * per VAT rate (reverse VAT on its own account), the output VAT per rate, the invoice fee on the fee
 * account and the öre rounding on the rounding account. A ROT, RUT or green-technology reduction
 * is a receivable on Skatteverket, not on the customer: the customer pays the total less the
 * reduction, and the reduction is debited to "Kundfordringar – delad faktura" until the tax agency
 * pays it. A negative invoice (a credit) books the same rows with the opposite signs.
 *
 * The accounts are the tenant's choice in Settings → ERP (sales per VAT rate and reverse VAT, the
 * fee, the rounding), else the BAS chart's (BAS Kontoplan 2022, BAS-föreningen, bas.se/kontoplaner,
 * read in its published spreadsheet as transcribed in github.com/kjelloh/cratchit): 1510
 * Kundfordringar; 1513 Kundfordringar – delad faktura; 3001/3002/3003 Försäljning inom Sverige,
 * 25/12/6 % moms; 3004 Försäljning inom Sverige, momsfri; 3231 Försäljning inom byggsektorn, omvänd
 * skattskyldighet moms; 3540 Faktureringsavgifter (3541 is "Faktureringsavgifter, EU-land");
 * 2611/2621/2631 Utgående moms på försäljning inom Sverige, 25/12/6 %; 3740 Öres- och
 * kronutjämning. The receivables and the VAT accounts are not among the tenant's choices, so they
 * are always BAS's.
 */

export const BAS_ACCOUNTS = {
  receivable: { number: '1510', name: 'Kundfordringar' },
  taxReductionReceivable: { number: '1513', name: 'Kundfordringar – delad faktura' },
  sales: {
    '25': { number: '3001', name: 'Försäljning inom Sverige, 25 % moms' },
    '12': { number: '3002', name: 'Försäljning inom Sverige, 12 % moms' },
    '6': { number: '3003', name: 'Försäljning inom Sverige, 6 % moms' },
    '0': { number: '3004', name: 'Försäljning inom Sverige, momsfri' },
    reverse: { number: '3231', name: 'Försäljning inom byggsektorn, omvänd skattskyldighet moms' },
  },
  fee: { number: '3540', name: 'Faktureringsavgifter' },
  rounding: { number: '3740', name: 'Öres- och kronutjämning' },
  outputVat: {
    '25': { number: '2611', name: 'Utgående moms på försäljning inom Sverige, 25 %' },
    '12': { number: '2621', name: 'Utgående moms på försäljning inom Sverige, 12 %' },
    '6': { number: '2631', name: 'Utgående moms på försäljning inom Sverige, 6 %' },
  },
} as const;

/** An account a verification books on, and whether it is BAS's default (declared in the file). */
export interface BookedAccount {
  number: string;
  /** BAS's name when the account is BAS's default; null for the tenant's own choice. */
  basName: string | null;
}

/** What a verification needs of an invoice: its number, date, customer, rows and figures. */
export interface InvoiceForBooks {
  invoiceNr: string;
  invoiceDate: string;
  customerName: string | null;
  /** Each row's kind, in the order of `figures.lines` (the fee has its own account). */
  rowKinds: InvoiceRowKind[];
  figures: InvoiceFigures;
}

/** The accounts in force: the tenant's choices, BAS's where it chose nothing. */
export function bookAccounts(chosen: ErpAccounts) {
  const pick = (own: string | undefined, bas: { number: string; name: string }): BookedAccount =>
    own?.trim() ? { number: own.trim(), basName: null } : { number: bas.number, basName: bas.name };
  const bas = (a: { number: string; name: string }): BookedAccount => ({ number: a.number, basName: a.name });
  return {
    receivable: bas(BAS_ACCOUNTS.receivable),
    taxReductionReceivable: bas(BAS_ACCOUNTS.taxReductionReceivable),
    sales: (rate: VatRate | 'reverse') => pick(chosen.sales?.[rate], BAS_ACCOUNTS.sales[rate]),
    fee: pick(chosen.fee, BAS_ACCOUNTS.fee),
    rounding: pick(chosen.rounding, BAS_ACCOUNTS.rounding),
    outputVat: (rate: Exclude<VatRate, '0'>) => bas(BAS_ACCOUNTS.outputVat[rate]),
  };
}
export type BookAccounts = ReturnType<typeof bookAccounts>;

/** Longest verification text: importers keep their own field limits (spec 7.5–7.6). */
export const VERIFICATION_TEXT_MAX = 50;

/** "Faktura 1001 Brf Eken" ("Kreditfaktura" for a negative invoice), the name cut to fit. */
export function verificationText(invoiceNr: string, customerName: string | null, total: Money): string {
  const head = `${toDecimal(total).units < 0n ? 'Kreditfaktura' : 'Faktura'} ${invoiceNr}`;
  const name = (customerName ?? '').replace(/\s+/g, ' ').trim();
  if (!name) return head;
  const room = VERIFICATION_TEXT_MAX - head.length - 1;
  return room > 0 ? `${head} ${[...name].slice(0, room).join('').trimEnd()}` : head;
}

/**
 * The invoice's verification in series `series`, numbered by the invoice number: debits positive,
 * credits negative, rows on the same account merged, zero rows left out. Null when nothing is left
 * (an invoice of 0.00 with no rows that move money books nothing).
 */
export function invoiceVerification(
  invoice: InvoiceForBooks,
  accounts: BookAccounts,
  series: string,
): { verification: SieVerification; used: BookedAccount[] } | null {
  const f = invoice.figures;
  const rows = new Map<string, { account: BookedAccount; amount: Decimal }>();
  const book = (account: BookedAccount, amount: Decimal | Money) => {
    const row = rows.get(account.number);
    if (row) row.amount = add(row.amount, amount);
    else rows.set(account.number, { account, amount: toDecimal(amount) });
  };
  const reduction = f.taxReduction?.amount ?? '0';
  book(accounts.receivable, f.toPay);
  book(accounts.taxReductionReceivable, reduction);
  f.lines.forEach((line, i) => {
    const kind = invoice.rowKinds[i];
    if (kind === 'text') return;
    const account = kind === 'fee' ? accounts.fee : accounts.sales(f.reverseVat ? 'reverse' : line.vatPercent);
    book(account, negate(line.total));
  });
  for (const v of f.vat) if (v.percent !== '0') book(accounts.outputVat(v.percent), negate(v.vat));
  book(accounts.rounding, negate(f.rounding));
  const kept = [...rows.values()].filter((r) => !isZero(r.amount));
  if (!kept.length) return null;
  const transactions: SieTransaction[] = kept.map((r) => ({
    account: r.account.number,
    amount: formatDecimal(r.amount),
  }));
  return {
    verification: {
      series,
      number: invoice.invoiceNr,
      date: invoice.invoiceDate,
      text: verificationText(invoice.invoiceNr, invoice.customerName, f.total),
      transactions,
    },
    used: kept.map((r) => r.account),
  };
}
