import type { ErpFetchedSupplierInvoice, ErpFetchedSupplierInvoiceRow } from '~/core/extension-points/erp-provider';
import { compare, divide, formatDecimal, mul, negate, round, sub, sum, type DecimalInput } from '~/core/pricing';

/*
 * A supplier invoice typed in Fortnox, as Ordo keeps it (issue 33 item 1; decision 054 "Fetched from
 * the ERP"). Fortnox's SupplierInvoice (GET /3/supplierinvoices/{GivenNumber}; field names as in
 * supplier-invoice.ts) holds accounting rows: the debt (Code TOT), the input VAT (VAT) and the öre
 * rounding (ROV) are Fortnox's own, every other row is a cost. Fortnox keeps VAT per invoice, not per
 * row, so each cost row gets the rate (25, 12, 6 or 0) whose VAT on the rows' net comes nearest to
 * the invoice's VAT; the invoice keeps Fortnox's VAT itself. The rounding is what makes the rows, the
 * VAT and the total balance, as Fortnox's voucher does.
 */

type Rec = Record<string, unknown>;

const OWN_CODES = new Set(['TOT', 'VAT', 'ROV']);
const RATES = ['25', '12', '6', '0'] as const;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const amount = (v: unknown): DecimalInput => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? String(n) : '0';
};

/** The rate whose VAT on `net` is nearest to `vat`. */
export function nearestVatRate(net: DecimalInput, vat: DecimalInput): (typeof RATES)[number] {
  let best: (typeof RATES)[number] = '25';
  let bestDiff: string | null = null;
  for (const rate of RATES) {
    const d = sub(vat, mul(net, divide(rate, '100', 4)));
    const abs = compare(d, '0') < 0 ? negate(d) : d;
    if (bestDiff === null || compare(abs, bestDiff) < 0) {
      best = rate;
      bestDiff = formatDecimal(abs, 4);
    }
  }
  return best;
}

/** Fortnox's invoice and its supplier card as a fetched invoice; `cursor` is its GivenNumber. */
export function fetchedSupplierInvoice(invoice: Rec, supplier: Rec | null): ErpFetchedSupplierInvoice {
  const foreign = String(invoice.Currency ?? 'SEK') !== 'SEK';
  const costs = ((invoice.SupplierInvoiceRows as Rec[] | undefined) ?? []).filter(
    (r) => !OWN_CODES.has(String(r.Code ?? '')),
  );
  const totals = costs.map((r) =>
    round(sub(amount(foreign ? r.DebitCurrency : r.Debit), amount(foreign ? r.CreditCurrency : r.Credit)), 2),
  );
  const net = sum(totals);
  const vat = round(amount(invoice.VAT), 2);
  const total = round(amount(invoice.Total), 2);
  const rate = nearestVatRate(net, vat);
  const rows: ErpFetchedSupplierInvoiceRow[] = costs.map((r, i) => {
    const rowTotal = formatDecimal(totals[i]!);
    const quantity = Number(r.Quantity ?? 0);
    const price = Number(r.Price ?? 0);
    // quantity and price as typed when they make the row's total, else one unit at the total
    const exact = quantity > 0 && compare(round(mul(String(quantity), String(price)), 2), rowTotal) === 0;
    return {
      description:
        text(r.TransactionInformation) ??
        text(r.ItemDescription) ??
        text(r.AccountDescription) ??
        `${String(r.Account)}`,
      articleNumber: text(r.ArticleNumber),
      account: r.Account === undefined || r.Account === null || r.Account === '' ? null : String(r.Account),
      amount: exact ? String(quantity) : '1',
      unit: text(r.Unit),
      price: exact ? String(price) : rowTotal,
      total: rowTotal,
      vatPercent: rate,
    };
  });
  return {
    externalId: String(invoice.GivenNumber),
    supplier: {
      externalId: String(invoice.SupplierNumber),
      name: text(supplier?.Name) ?? text(invoice.SupplierName) ?? String(invoice.SupplierNumber),
      organizationalNumber: text(supplier?.OrganisationNumber),
      vatNumber: text(supplier?.VATNumber),
    },
    invoiceNumber: text(invoice.InvoiceNumber) ?? String(invoice.GivenNumber),
    invoiceType: invoice.Credit === true || compare(total, '0') < 0 ? 'credit' : 'invoice',
    invoiceDate: String(invoice.InvoiceDate),
    dueDate: text(invoice.DueDate),
    currency: String(invoice.Currency ?? 'SEK'),
    ocr: text(invoice.OCR),
    references: [text(invoice.YourReference), text(invoice.OurReference), text(invoice.Project)],
    rows,
    totalPrice: formatDecimal(net),
    totalVat: formatDecimal(vat),
    rounding: formatDecimal(sub(sub(total, net), vat)),
    total: formatDecimal(total),
    cursor: String(invoice.GivenNumber),
  };
}
