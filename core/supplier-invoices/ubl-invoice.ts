import { add, compare, divide, formatDecimal, negate, parseDecimal, sub, sum, type Decimal } from '~/core/pricing';
import {
  at,
  all,
  date,
  decimal,
  parseDocument,
  party,
  required,
  text,
  UBL_COMMON_NS,
  UblRefusal,
  type El,
  type UblParty,
} from '~/core/xml/ubl-reader';

export { MAX_UBL_BYTES, UblRefusal, type UblParty } from '~/core/xml/ubl-reader';

/*
 * An inbound Peppol BIS Billing 3.0 invoice or credit note (UBL 2.1) read into what Ordo keeps of a
 * supplier invoice (issue 33 item 1; decision 054). Ordo writes the same documents
 * (core/invoicing/peppol.ts): the element names and business terms (BT-n) are those of the BIS 3
 * specification (docs.peppol.eu/poacc/billing/3.0/syntax/ubl-invoice/tree/), and the checks below are
 * the EN 16931 / Peppol rules the figures Ordo keeps depend on, quoted by id. An access point has
 * validated the document against the full rule set before it reaches us; these checks make sure a
 * document uploaded by hand, or one an access point let through, cannot put figures into Ordo that do
 * not add up.
 *
 * Elements are found by namespace and local name, never by prefix: `cbc:` and `cac:` are only the
 * usual prefixes. A DOCTYPE is refused (UBL has none, and it is the door to entity expansion).
 */

export const UBL_NS = {
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  ...UBL_COMMON_NS,
} as const;

/** EN 16931 core: every Peppol BIS 3 CustomizationID (BT-24) starts with it (BR-01). */
export const EN16931_CUSTOMIZATION = 'urn:cen.eu:en16931:2017';

export interface UblLine {
  /** BT-126 */
  lineId: string;
  /** BT-153 (Name), with BT-154 (Description) when it says more. */
  description: string;
  /** BT-155: the seller's article number. */
  articleNumber: string | null;
  /** BT-129, negated on a credit note. */
  amount: string;
  /** BT-130 (UN/ECE rec 20 code). */
  unit: string | null;
  /** BT-146 divided by BT-149: the net price of one unit. */
  price: string;
  /** BT-131, negated on a credit note. */
  total: string;
  /** BT-152 (0 for categories without a rate). */
  vatPercent: string;
}

export interface UblInvoice {
  type: 'invoice' | 'credit';
  /** BT-1 */
  invoiceNumber: string;
  /** BT-2, YYYY-MM-DD */
  issueDate: string;
  /** BT-9 */
  dueDate: string | null;
  /** BT-5 */
  currency: string;
  /** BT-10 */
  buyerReference: string | null;
  /** BT-13: the buyer's purchase order reference (Ordo's work-order number when it ordered). */
  orderReference: string | null;
  /** BT-11 */
  projectReference: string | null;
  /** BT-83: the payment reference (OCR). */
  paymentId: string | null;
  seller: UblParty;
  /** Invoice lines, then the document-level allowances (negative) and charges as lines of their own. */
  lines: UblLine[];
  /** BT-109, BT-110, BT-114 and BT-115 (the amount to pay), negated on a credit note. */
  totalPrice: string;
  totalVat: string;
  rounding: string;
  total: string;
}

function amountAt(parent: El, path: string, rule: string, currency: string, optional = false): Decimal | null {
  const el = at(parent, path);
  const value = el?.textContent?.trim();
  if (!value) {
    if (optional) return null;
    throw new UblRefusal('FIELD_MISSING', rule, `${path} (${rule}) is missing`);
  }
  // BR-CL-03 / PEPPOL-R051: every amount is in the document's currency
  const currencyId = el!.getAttribute('currencyID');
  if (currencyId !== null && currencyId.trim() !== currency)
    throw new UblRefusal(
      'CURRENCY_DIFFERS',
      'PEPPOL-EN16931-R051',
      `${path} is in ${currencyId}, the invoice in ${currency}`,
    );
  return decimal(value, path, rule);
}

/** Two amounts an EN 16931 rule says are equal (both at 2 decimals, as the rules compare them). */
function mustEqual(rule: string, what: string, stated: Decimal, computed: Decimal) {
  if (compare(formatDecimal(stated), formatDecimal(computed)) !== 0)
    throw new UblRefusal(
      'TOTALS_DIFFER',
      rule,
      `${what}: the document states ${formatDecimal(stated)}, its parts make ${formatDecimal(computed)} (${rule})`,
    );
}

/** The rate of a tax category; categories without one (E, AE, K, G, O) are 0 % (BR-E-05 and alike). */
function vatPercentOf(category: El | null, where: string, rule: string): string {
  const percent = text(category, 'cbc:Percent');
  if (percent === null) {
    if (text(category, 'cbc:ID') === null)
      throw new UblRefusal('FIELD_MISSING', rule, `${where} has no VAT category (${rule})`);
    return '0';
  }
  return formatDecimal(decimal(percent, `${where} cbc:Percent`, rule));
}

/**
 * Reads a Peppol BIS 3 invoice or credit note; throws UblRefusal naming the rule it breaks.
 * Figures are kept with the sign they have for the buyer: a credit note's are negative.
 */
export function parseUblInvoice(xml: string): UblInvoice {
  const root = parseDocument(xml);
  const credit = root.localName === 'CreditNote' && root.namespaceURI === UBL_NS.creditNote;
  if (!credit && !(root.localName === 'Invoice' && root.namespaceURI === UBL_NS.invoice))
    throw new UblRefusal(
      'NOT_UBL_INVOICE',
      'UBL',
      `the document is ${root.namespaceURI ?? ''} ${root.localName}, not a UBL 2.1 Invoice or CreditNote`,
    );
  const customization = required(root, 'cbc:CustomizationID', 'BT-24');
  if (!customization.startsWith(EN16931_CUSTOMIZATION))
    throw new UblRefusal('NOT_EN16931', 'BR-01', `CustomizationID "${customization}" is not EN 16931 / Peppol BIS 3`);
  const invoiceNumber = required(root, 'cbc:ID', 'BT-1');
  const issueDate = date(required(root, 'cbc:IssueDate', 'BT-2'), 'BT-2')!;
  required(root, credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', 'BT-3');
  const currency = required(root, 'cbc:DocumentCurrencyCode', 'BT-5');
  if (!/^[A-Z]{3}$/.test(currency))
    throw new UblRefusal('FIELD_INVALID', 'BT-5', `currency "${currency}" is not ISO 4217`);
  const seller = party(at(root, 'cac:AccountingSupplierParty'));
  if (!at(root, 'cac:AccountingSupplierParty/cac:Party'))
    throw new UblRefusal('FIELD_MISSING', 'BG-4', 'the seller (AccountingSupplierParty) is missing');
  if (!seller.name) throw new UblRefusal('FIELD_MISSING', 'BT-27', 'the seller has no name (BR-06)');

  const sign = (d: Decimal) => (credit ? negate(d) : d);
  const lineName = credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  const quantityName = credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity';
  const lineEls = all(root, lineName);
  if (!lineEls.length) throw new UblRefusal('NO_LINES', 'BR-16', 'the document has no lines (BR-16)');

  const lines: UblLine[] = [];
  const lineTotals: Decimal[] = [];
  for (const [i, line] of lineEls.entries()) {
    const where = `line ${i + 1}`;
    const lineId = required(line, 'cbc:ID', 'BT-126');
    const quantityEl = at(line, quantityName);
    const quantityText = quantityEl?.textContent?.trim();
    if (!quantityText) throw new UblRefusal('FIELD_MISSING', 'BT-129', `${where}: the quantity (BT-129) is missing`);
    const quantity = decimal(quantityText, `${where} quantity`, 'BT-129');
    const total = amountAt(line, 'cbc:LineExtensionAmount', 'BT-131', currency)!;
    const priceAmount = amountAt(line, 'cac:Price/cbc:PriceAmount', 'BT-146', currency)!;
    const baseText = text(line, 'cac:Price/cbc:BaseQuantity');
    const base = baseText === null ? null : decimal(baseText, `${where} base quantity`, 'BT-149');
    const name = required(line, 'cac:Item/cbc:Name', 'BT-153');
    const description = text(line, 'cac:Item/cbc:Description');
    lineTotals.push(total);
    lines.push({
      lineId,
      description: description && description !== name ? `${name}, ${description}` : name,
      articleNumber: text(line, 'cac:Item/cac:SellersItemIdentification/cbc:ID'),
      amount: formatDecimal(sign(quantity), 4),
      unit: quantityEl?.getAttribute('unitCode')?.trim() || null,
      price: formatDecimal(base && compare(base, '0') !== 0 ? divide(priceAmount, base, 4) : priceAmount, 4),
      total: formatDecimal(sign(total)),
      vatPercent: vatPercentOf(at(line, 'cac:Item/cac:ClassifiedTaxCategory'), where, 'BT-151'),
    });
  }

  // document-level allowances (BG-20) and charges (BG-21) become lines of their own
  const allowances: Decimal[] = [];
  const charges: Decimal[] = [];
  for (const [i, ac] of all(root, 'cac:AllowanceCharge').entries()) {
    const isCharge = required(ac, 'cbc:ChargeIndicator', 'BG-20/21') === 'true';
    const amount = amountAt(ac, 'cbc:Amount', isCharge ? 'BT-99' : 'BT-92', currency)!;
    (isCharge ? charges : allowances).push(amount);
    const signed = isCharge ? amount : negate(amount);
    const reason = text(ac, 'cbc:AllowanceChargeReason') ?? text(ac, 'cbc:AllowanceChargeReasonCode');
    lines.push({
      lineId: `${isCharge ? 'charge' : 'allowance'}-${i + 1}`,
      description: reason ?? (isCharge ? 'Charge' : 'Allowance'),
      articleNumber: null,
      amount: formatDecimal(credit ? '-1' : '1', 4),
      unit: null,
      price: formatDecimal(signed, 4),
      total: formatDecimal(sign(signed)),
      vatPercent: vatPercentOf(at(ac, 'cac:TaxCategory'), `allowance/charge ${i + 1}`, 'BT-95/102'),
    });
  }

  const totals = at(root, 'cac:LegalMonetaryTotal');
  if (!totals) throw new UblRefusal('FIELD_MISSING', 'BG-22', 'the document totals (LegalMonetaryTotal) are missing');
  const lineExtension = amountAt(totals, 'cbc:LineExtensionAmount', 'BT-106', currency)!;
  const taxExclusive = amountAt(totals, 'cbc:TaxExclusiveAmount', 'BT-109', currency)!;
  const taxInclusive = amountAt(totals, 'cbc:TaxInclusiveAmount', 'BT-112', currency)!;
  const allowanceTotal = amountAt(totals, 'cbc:AllowanceTotalAmount', 'BT-107', currency, true);
  const chargeTotal = amountAt(totals, 'cbc:ChargeTotalAmount', 'BT-108', currency, true);
  const prepaid = amountAt(totals, 'cbc:PrepaidAmount', 'BT-113', currency, true) ?? parseDecimal('0')!;
  const rounding = amountAt(totals, 'cbc:PayableRoundingAmount', 'BT-114', currency, true) ?? parseDecimal('0')!;
  const payable = amountAt(totals, 'cbc:PayableAmount', 'BT-115', currency)!;
  // BT-110: the TaxTotal in the document currency (the one with subtotals; BR-CO-14 ties it to them)
  const taxTotals = all(root, 'cac:TaxTotal');
  const taxTotal = taxTotals.find((t) => all(t, 'cac:TaxSubtotal').length) ?? taxTotals[0];
  if (!taxTotal) throw new UblRefusal('FIELD_MISSING', 'BT-110', 'the VAT total (TaxTotal) is missing (BR-CO-18)');
  const vat = amountAt(taxTotal, 'cbc:TaxAmount', 'BT-110', currency)!;
  const subtotals = all(taxTotal, 'cac:TaxSubtotal').map((s) => amountAt(s, 'cbc:TaxAmount', 'BT-117', currency)!);

  mustEqual('BR-CO-10', 'Sum of line net amounts (BT-106)', lineExtension, sum(lineTotals));
  if (allowanceTotal) mustEqual('BR-CO-11', 'Sum of allowances (BT-107)', allowanceTotal, sum(allowances));
  else if (allowances.length) throw new UblRefusal('FIELD_MISSING', 'BR-CO-11', 'allowances without BT-107');
  if (chargeTotal) mustEqual('BR-CO-12', 'Sum of charges (BT-108)', chargeTotal, sum(charges));
  else if (charges.length) throw new UblRefusal('FIELD_MISSING', 'BR-CO-12', 'charges without BT-108');
  mustEqual(
    'BR-CO-13',
    'Total without VAT (BT-109)',
    taxExclusive,
    add(sub(lineExtension, sum(allowances)), sum(charges)),
  );
  if (subtotals.length) mustEqual('BR-CO-14', 'VAT total (BT-110)', vat, sum(subtotals));
  mustEqual('BR-CO-15', 'Total with VAT (BT-112)', taxInclusive, add(taxExclusive, vat));
  mustEqual('BR-CO-16', 'Amount due (BT-115)', payable, add(sub(taxInclusive, prepaid), rounding));

  return {
    type: credit ? 'credit' : 'invoice',
    invoiceNumber,
    issueDate,
    dueDate: date(text(root, 'cbc:DueDate') ?? text(root, 'cac:PaymentMeans/cbc:PaymentDueDate'), 'BT-9'),
    currency,
    buyerReference: text(root, 'cbc:BuyerReference'),
    orderReference: text(root, 'cac:OrderReference/cbc:ID'),
    projectReference: text(root, 'cac:ProjectReference/cbc:ID'),
    paymentId: text(root, 'cac:PaymentMeans/cbc:PaymentID'),
    seller,
    lines,
    totalPrice: formatDecimal(sign(taxExclusive)),
    totalVat: formatDecimal(sign(vat)),
    rounding: formatDecimal(sign(rounding)),
    total: formatDecimal(sign(payable)),
  };
}
