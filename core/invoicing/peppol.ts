/**
 * A finalized invoice as a Peppol BIS Billing 3.0 document (UBL 2.1; issue 15 item 4): pure, no
 * database and no clock. The figures come from the invoice's own arithmetic (`invoice-math.ts`),
 * so the e-invoice states exactly what the invoice and its PDF state: row totals, VAT per rate on
 * the sum of that rate's rows, the öre rounding as `cbc:PayableRoundingAmount`. How our invoice
 * maps onto EN 16931:
 *
 * - an invoice whose total is negative is a credit: a UBL `CreditNote` (type 381) with every amount
 *   and quantity turned positive, as the standard wants a credit note to be written;
 * - a row's discount is a line allowance (reason code 95, "Discount"), with its percentage and base
 *   when it is a percentage; a row with a negative price (a credit row) is written as a negative
 *   quantity at a positive price, since an item's net price may not be negative (BR-27);
 * - the invoice fee is a document-level charge at the fee row's VAT rate;
 * - VAT rates 25, 12 and 6 % are category S, 0 % is Z (zero rated); under reverse VAT every row is
 *   category AE with the exemption reason VATEX-EU-AE;
 * - a ROT, RUT or green-technology reduction (the Swedish tax agency pays that part) is the paid
 *   amount (BT-113), so the amount due is what the customer pays; the note says why;
 * - text rows and the footer go into the one note BIS 3 allows (PEPPOL-EN16931-R002).
 *
 * Validated by the official Peppol BIS 3 and EN 16931 Schematron in `peppol.test.ts`.
 */
import {
  compare,
  formatDecimal,
  formatTrimmed,
  isNegative,
  isZero,
  mul,
  negate,
  round,
  sub,
  sum,
  toDecimal,
  type DecimalInput,
  type Discount,
} from '~/core/pricing';
import { writeXml, xmlElement, xmlSafe, type XmlAttrs, type XmlElement } from '~/core/xml/xml-writer';
import { invoiceFigures, type VatRate } from './invoice-math';
import type { InvoiceRowKind } from './invoice-lines';

export const PEPPOL_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PEPPOL_PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
export const PEPPOL_CONTENT_TYPE = 'application/xml; charset=utf-8';

/** A Peppol participant: an electronic address scheme (EAS code) and the id within it. */
export interface PeppolId {
  scheme: string;
  id: string;
}

export interface PeppolParty {
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  endpoint: PeppolId;
  /** The legal registration (BT-30, BT-47): the organisation number, with its ICD scheme when known. */
  legalId: { id: string; scheme: string | null } | null;
  /** With its country prefix (BR-CO-09). */
  vatNumber: string | null;
  street: string | null;
  postIndex: string | null;
  city: string | null;
  contact?: { name?: string | null; phone?: string | null; email?: string | null } | null;
}

export interface PeppolLineInput {
  kind: InvoiceRowKind;
  title: string;
  description: string | null;
  articleNumber: string | null;
  unit: string | null;
  amount: string;
  price: string;
  discount: Discount | null;
  vatPercent: VatRate;
  isText: boolean;
}

export interface PeppolInvoiceInput {
  number: string;
  issueDate: string;
  dueDate: string | null;
  deliveryDate: string | null;
  currency: string;
  /** BT-10: the buyer's reference for routing the invoice inside its organisation. */
  buyerReference: string;
  /** BT-13: the buyer's purchase order. */
  orderReference: string | null;
  seller: PeppolParty;
  buyer: PeppolParty;
  reverseVat: boolean;
  lines: PeppolLineInput[];
  /** Free texts for the note, in order (description, marking, text rows, footer, legal texts). */
  notes: string[];
  payment: {
    /** OCR reference (BT-83). */
    reference: string | null;
    bankgiro: string | null;
    plusgiro?: string | null;
    iban: string | null;
    bic: string | null;
    termsText: string | null;
  };
  /** A tax reduction the tax agency pays (ROT, RUT, green): BT-113, the amount already accounted for. */
  prepaid: { amount: string; text: string } | null;
  /** The words of reverse VAT in the invoice's language (the note and the VAT breakdown's reason). */
  texts: { reverseVat: string };
}

export interface PeppolDocument {
  kind: 'Invoice' | 'CreditNote';
  xml: string;
  /** What the document says is due, in the document's own sign (positive for both kinds). */
  payable: string;
}

// ---- XML (the one writer, core/xml/xml-writer.ts) ----

type Node = XmlElement | string | null | false | undefined | Node[];

const present = (c: Node): c is XmlElement | string => (typeof c === 'string' ? c !== '' : !!c && !Array.isArray(c));

/** `<name attrs>children</name>`, or nothing when it would be empty (BIS 3 forbids empty elements). */
function el(name: string, attrs: XmlAttrs, ...children: Node[]): XmlElement | null {
  const flat = (children.flat(Infinity as 1) as Node[]).filter(present);
  return flat.length ? xmlElement(name, attrs, flat) : null;
}

/** A text leaf: trimmed, nothing when empty (or made only of characters XML cannot carry). */
const leaf = (name: string, value: string | null | undefined, attrs: XmlAttrs = {}) => {
  const text = xmlSafe(value ?? '').trim();
  return text === '' ? null : el(name, attrs, text);
};

// ---- amounts, units, categories ----

/** Amounts carry two decimals (BR-DEC-*); the currency on each. */
const money = (name: string, value: DecimalInput, currency: string) =>
  el(name, { currencyID: currency }, formatDecimal(value));

/** A quantity or price as exact as stored, without trailing zeros. */
const exact = (value: DecimalInput) => formatTrimmed(value, Math.max(2, toDecimal(value).scale));

/** UN/ECE Recommendation 20 codes for the units people type in Ordo's five languages; C62 ("one") otherwise. */
const UNIT_CODES: Record<string, string> = {
  st: 'H87',
  'st.': 'H87',
  stk: 'H87',
  styck: 'H87',
  pcs: 'H87',
  pc: 'H87',
  tk: 'H87',
  gab: 'H87',
  шт: 'H87',
  'шт.': 'H87',
  h: 'HUR',
  tim: 'HUR',
  timme: 'HUR',
  timmar: 'HUR',
  hour: 'HUR',
  hours: 'HUR',
  hr: 'HUR',
  t: 'HUR',
  tund: 'HUR',
  ч: 'HUR',
  min: 'MIN',
  km: 'KMT',
  км: 'KMT',
  m: 'MTR',
  м: 'MTR',
  m2: 'MTK',
  'm²': 'MTK',
  m3: 'MTQ',
  'm³': 'MTQ',
  kg: 'KGM',
  кг: 'KGM',
  g: 'GRM',
  l: 'LTR',
  liter: 'LTR',
  л: 'LTR',
  dag: 'DAY',
  dagar: 'DAY',
  day: 'DAY',
  days: 'DAY',
  päev: 'DAY',
  diena: 'DAY',
  день: 'DAY',
  mån: 'MON',
  month: 'MON',
  kuu: 'MON',
  set: 'SET',
  sats: 'SET',
  komplekt: 'SET',
  par: 'PR',
  pair: 'PR',
  paar: 'PR',
  rulle: 'RO',
  roll: 'RO',
  pkt: 'PK',
  paket: 'PK',
  pack: 'PK',
};

export function unitCode(unit: string | null): string {
  return UNIT_CODES[(unit ?? '').trim().toLowerCase()] ?? 'C62';
}

/** The VAT category of a rate (UNCL 5305): S for the standard and reduced rates, Z for 0 %, AE under reverse VAT. */
export function vatCategory(percent: VatRate, reverseVat: boolean): 'S' | 'Z' | 'AE' {
  if (reverseVat) return 'AE';
  return percent === '0' ? 'Z' : 'S';
}

// ---- participants ----

/**
 * The electronic address scheme (EAS) and legal-registration scheme (ICD) of an organisation number
 * by country, from the Peppol BIS 3 code lists (May 2025 release): SE Organisationsnummer 0007,
 * EE Äriregistri kood 0191, LV Unified registration number 0218, NO 0192, DK CVR 0184, AU ABN 0151.
 * The digits an organisation number has in each.
 */
const ORG_SCHEMES: Record<string, { scheme: string; digits: number[] }> = {
  SE: { scheme: '0007', digits: [10] },
  EE: { scheme: '0191', digits: [8] },
  LV: { scheme: '0218', digits: [11] },
  NO: { scheme: '0192', digits: [9] },
  DK: { scheme: '0184', digits: [8] },
  AU: { scheme: '0151', digits: [11] },
};
/** VAT-number address schemes (EAS 99xx) where a registry number may be missing: Latvia's 9939. */
const VAT_SCHEMES: Record<string, string> = { LV: '9939' };

/** An organisation number as its registry writes it: digits only (a Swedish one of 12 loses its century). */
export function registryNumber(country: string, orgNr: string | null | undefined): string | null {
  const rule = ORG_SCHEMES[country];
  if (!rule || !orgNr) return null;
  let digits = orgNr.replace(/\D/g, '');
  if (country === 'SE' && digits.length === 12) digits = digits.slice(2);
  return rule.digits.includes(digits.length) ? digits : null;
}

/** A VAT number with its country prefix (BR-CO-09), spaces, dots and dashes removed. */
export function vatNumberOf(raw: string | null | undefined, country: string): string | null {
  const v = (raw ?? '').replace(/[\s.-]/g, '').toUpperCase();
  if (!v) return null;
  return /^[A-Z]{2}/.test(v) ? v : `${country === 'GR' ? 'EL' : country}${v}`;
}

/** The country a VAT number's prefix names, if it has one. */
export function countryOfVatNumber(raw: string | null | undefined): string | null {
  const m = /^\s*([A-Za-z]{2})/.exec(raw ?? '');
  if (!m) return null;
  const code = m[1]!.toUpperCase();
  return code === 'EL' ? 'GR' : code;
}

/**
 * A party's Peppol participant id: an explicit one (`scheme:id`) first, else its organisation number
 * in its country's scheme, else (Latvia) its VAT number; null when none can be had (a private
 * person, a country without a known scheme), which the service refuses with a code people read.
 */
export function participantOf(p: {
  country: string;
  orgNr: string | null | undefined;
  vatNumber?: string | null;
  explicit?: string | null;
}): PeppolId | null {
  const explicit = /^\s*(\d{4}):(\S+)\s*$/.exec(p.explicit ?? '');
  if (explicit) return { scheme: explicit[1]!, id: explicit[2]! };
  const nr = registryNumber(p.country, p.orgNr);
  if (nr) return { scheme: ORG_SCHEMES[p.country]!.scheme, id: nr };
  const vatScheme = VAT_SCHEMES[p.country];
  const vat = vatNumberOf(p.vatNumber, p.country);
  if (vatScheme && vat?.startsWith(p.country)) return { scheme: vatScheme, id: vat };
  return null;
}

/** The legal registration (BT-30, BT-47) of an organisation number, with its ICD scheme when the country has one. */
export function legalIdOf(country: string, orgNr: string | null | undefined): PeppolParty['legalId'] {
  const nr = registryNumber(country, orgNr);
  if (nr) return { id: nr, scheme: ORG_SCHEMES[country]!.scheme };
  const text = (orgNr ?? '').trim();
  return text ? { id: text, scheme: null } : null;
}

// ---- the document ----

interface Category {
  id: 'S' | 'Z' | 'AE';
  percent: VatRate;
}

const taxCategory = (name: 'cac:TaxCategory' | 'cac:ClassifiedTaxCategory', c: Category, reason?: string | null) =>
  el(
    name,
    {},
    leaf('cbc:ID', c.id),
    leaf('cbc:Percent', formatTrimmed(c.percent, 2)),
    // the exemption reason belongs to the VAT breakdown only (UBL-CR-480, UBL-CR-481)
    c.id === 'AE' && reason
      ? [leaf('cbc:TaxExemptionReasonCode', 'VATEX-EU-AE'), leaf('cbc:TaxExemptionReason', reason)]
      : null,
    el('cac:TaxScheme', {}, leaf('cbc:ID', 'VAT')),
  );

function party(p: PeppolParty, role: 'seller' | 'buyer'): XmlElement | null {
  return el(
    'cac:Party',
    {},
    leaf('cbc:EndpointID', p.endpoint.id, { schemeID: p.endpoint.scheme }),
    el('cac:PartyName', {}, leaf('cbc:Name', p.name)),
    el(
      'cac:PostalAddress',
      {},
      leaf('cbc:StreetName', p.street),
      leaf('cbc:CityName', p.city),
      leaf('cbc:PostalZone', p.postIndex),
      el('cac:Country', {}, leaf('cbc:IdentificationCode', p.country)),
    ),
    p.vatNumber
      ? el('cac:PartyTaxScheme', {}, leaf('cbc:CompanyID', p.vatNumber), el('cac:TaxScheme', {}, leaf('cbc:ID', 'VAT')))
      : null,
    el(
      'cac:PartyLegalEntity',
      {},
      leaf('cbc:RegistrationName', p.name),
      p.legalId ? leaf('cbc:CompanyID', p.legalId.id, { schemeID: p.legalId.scheme }) : null,
    ),
    role === 'seller' || p.contact
      ? el(
          'cac:Contact',
          {},
          leaf('cbc:Name', p.contact?.name),
          leaf('cbc:Telephone', p.contact?.phone),
          leaf('cbc:ElectronicMail', p.contact?.email),
        )
      : null,
  );
}

interface LineOut {
  quantity: string;
  price: string;
  net: string;
  allowance: { amount: string; base: string; percent: string | null } | null;
  source: PeppolLineInput;
  category: Category;
}

/**
 * Builds the UBL document. Throws a RangeError when the input contradicts itself (a fee that is not
 * a row, no rows): the service checks what a person can fix before calling.
 */
export function buildPeppolDocument(input: PeppolInvoiceInput): PeppolDocument {
  const rows = input.lines;
  const figures = invoiceFigures({
    lines: rows.map((l) => ({
      amount: l.amount,
      price: l.price,
      discount: l.discount,
      vatPercent: l.vatPercent,
      isText: l.isText,
    })),
    reverseVat: input.reverseVat,
    taxReduction: 'none',
    reductionDay: input.issueDate,
  });
  if (!rows.some((r) => !r.isText)) throw new RangeError('an e-invoice needs at least one row');
  const credit = isNegative(figures.total) || (isZero(figures.total) && isNegative(figures.net));
  const kind = credit ? 'CreditNote' : 'Invoice';
  // In a credit note every amount and quantity is written positive: the document type says "credit".
  const sign = (v: DecimalInput) => (credit ? negate(v) : toDecimal(v));
  const cur = input.currency;
  const categoryOf = (percent: VatRate): Category => ({
    id: vatCategory(percent, input.reverseVat),
    percent: input.reverseVat ? '0' : percent,
  });

  const charges: { amount: string; reason: string; category: Category }[] = [];
  const lines: LineOut[] = [];
  rows.forEach((row, i) => {
    if (row.isText) return;
    const total = sign(figures.lines[i]!.total);
    // the fee is a charge on the whole invoice, unless it would be a negative one
    if (row.kind === 'fee' && !isNegative(total) && !isZero(total)) {
      charges.push({ amount: formatDecimal(total), reason: row.title, category: categoryOf(row.vatPercent) });
      return;
    }
    let quantity = sign(row.amount);
    let price = toDecimal(row.price);
    if (isNegative(price)) {
      price = negate(price);
      quantity = negate(quantity);
    }
    const gross = round(mul(quantity, price), 2);
    const discount = sub(gross, total);
    lines.push({
      quantity: exact(quantity),
      price: exact(price),
      net: formatDecimal(total),
      allowance: isZero(discount)
        ? null
        : {
            amount: formatDecimal(discount),
            base: formatDecimal(gross),
            percent: row.discount?.type === 'PERCENTAGE' ? formatTrimmed(row.discount.value, 2) : null,
          },
      source: row,
      category: categoryOf(row.vatPercent),
    });
  });

  const lineTotal = sum(lines.map((l) => l.net));
  const chargeTotal = sum(charges.map((c) => c.amount));
  const vatLines = figures.vat.map((v) => ({
    category: categoryOf(v.percent),
    base: sign(v.base),
    vat: sign(v.vat),
  }));
  const net = sign(figures.net);
  const vatTotal = sign(figures.vatTotal);
  const gross = sign(figures.gross);
  const rounding = sign(figures.rounding);
  const prepaid = input.prepaid && !isZero(input.prepaid.amount) ? sign(input.prepaid.amount) : null;
  const payable = sub(sign(figures.total), prepaid ?? 0);
  if (compare(lineTotal, sub(net, chargeTotal)) !== 0)
    throw new RangeError('line totals and charges do not add up to the net amount');

  const notes = [...input.notes, ...rows.filter((r) => r.isText).map((r) => r.title)];
  if (input.reverseVat) notes.push(input.texts.reverseVat);
  if (prepaid && input.prepaid) notes.push(input.prepaid.text);
  const note = notes
    .map((n) => n.trim())
    .filter(Boolean)
    .join('\n');

  const reverseReason = input.texts.reverseVat;
  const lineName = credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  const quantityName = credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity';
  const pay = input.payment;
  const paymentMeans =
    credit || !(pay.bankgiro || pay.plusgiro || pay.iban)
      ? null
      : el(
          'cac:PaymentMeans',
          {},
          // SE-R-011/012: Bankgiro and Plusgiro as credit transfer (30) with SFTI's branch codes
          leaf('cbc:PaymentMeansCode', pay.iban && !pay.bankgiro && !pay.plusgiro ? '58' : '30'),
          leaf('cbc:PaymentID', pay.reference),
          pay.bankgiro
            ? el(
                'cac:PayeeFinancialAccount',
                {},
                leaf('cbc:ID', pay.bankgiro.replace(/\D/g, '')),
                el('cac:FinancialInstitutionBranch', {}, leaf('cbc:ID', 'SE:BANKGIRO')),
              )
            : pay.plusgiro
              ? el(
                  'cac:PayeeFinancialAccount',
                  {},
                  leaf('cbc:ID', pay.plusgiro.replace(/\D/g, '')),
                  el('cac:FinancialInstitutionBranch', {}, leaf('cbc:ID', 'SE:PLUSGIRO')),
                )
              : el(
                  'cac:PayeeFinancialAccount',
                  {},
                  leaf('cbc:ID', pay.iban!.replace(/\s/g, '').toUpperCase()),
                  pay.bic ? el('cac:FinancialInstitutionBranch', {}, leaf('cbc:ID', pay.bic)) : null,
                ),
        );
  const paymentDueDate = credit ? null : input.dueDate;

  const body = [
    leaf('cbc:CustomizationID', PEPPOL_CUSTOMIZATION_ID),
    leaf('cbc:ProfileID', PEPPOL_PROFILE_ID),
    leaf('cbc:ID', input.number),
    leaf('cbc:IssueDate', input.issueDate),
    credit ? null : leaf('cbc:DueDate', paymentDueDate),
    leaf(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', credit ? '381' : '380'),
    leaf('cbc:Note', note),
    leaf('cbc:DocumentCurrencyCode', cur),
    leaf('cbc:BuyerReference', input.buyerReference),
    input.orderReference ? el('cac:OrderReference', {}, leaf('cbc:ID', input.orderReference)) : null,
    el('cac:AccountingSupplierParty', {}, party(input.seller, 'seller')),
    el('cac:AccountingCustomerParty', {}, party(input.buyer, 'buyer')),
    input.deliveryDate ? el('cac:Delivery', {}, leaf('cbc:ActualDeliveryDate', input.deliveryDate)) : null,
    paymentMeans,
    pay.termsText ? el('cac:PaymentTerms', {}, leaf('cbc:Note', pay.termsText)) : null,
    charges.map((c) =>
      el(
        'cac:AllowanceCharge',
        {},
        leaf('cbc:ChargeIndicator', 'true'),
        leaf('cbc:AllowanceChargeReason', c.reason),
        money('cbc:Amount', c.amount, cur),
        taxCategory('cac:TaxCategory', c.category),
      ),
    ),
    el(
      'cac:TaxTotal',
      {},
      money('cbc:TaxAmount', vatTotal, cur),
      vatLines.map((v) =>
        el(
          'cac:TaxSubtotal',
          {},
          money('cbc:TaxableAmount', v.base, cur),
          money('cbc:TaxAmount', v.vat, cur),
          taxCategory('cac:TaxCategory', v.category, reverseReason),
        ),
      ),
    ),
    el(
      'cac:LegalMonetaryTotal',
      {},
      money('cbc:LineExtensionAmount', lineTotal, cur),
      money('cbc:TaxExclusiveAmount', net, cur),
      money('cbc:TaxInclusiveAmount', gross, cur),
      charges.length ? money('cbc:ChargeTotalAmount', chargeTotal, cur) : null,
      prepaid ? money('cbc:PrepaidAmount', prepaid, cur) : null,
      isZero(rounding) ? null : money('cbc:PayableRoundingAmount', rounding, cur),
      money('cbc:PayableAmount', payable, cur),
    ),
    lines.map((l, i) =>
      el(
        lineName,
        {},
        leaf('cbc:ID', String(i + 1)),
        el(quantityName, { unitCode: unitCode(l.source.unit) }, l.quantity),
        money('cbc:LineExtensionAmount', l.net, cur),
        l.allowance
          ? el(
              'cac:AllowanceCharge',
              {},
              leaf('cbc:ChargeIndicator', 'false'),
              leaf('cbc:AllowanceChargeReasonCode', '95'),
              l.allowance.percent ? leaf('cbc:MultiplierFactorNumeric', l.allowance.percent) : null,
              money('cbc:Amount', l.allowance.amount, cur),
              l.allowance.percent ? money('cbc:BaseAmount', l.allowance.base, cur) : null,
            )
          : null,
        el(
          'cac:Item',
          {},
          leaf('cbc:Description', l.source.description),
          leaf('cbc:Name', l.source.title.slice(0, 300) || '-'),
          l.source.articleNumber
            ? el('cac:SellersItemIdentification', {}, leaf('cbc:ID', l.source.articleNumber))
            : null,
          taxCategory('cac:ClassifiedTaxCategory', l.category),
        ),
        el('cac:Price', {}, el('cbc:PriceAmount', { currencyID: cur }, l.price)),
      ),
    ),
  ];
  const ns = credit
    ? 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2'
    : 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
  const root = xmlElement(
    kind,
    {
      xmlns: ns,
      'xmlns:cac': 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
      'xmlns:cbc': 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
    },
    (body.flat(Infinity as 1) as Node[]).filter(present),
  );
  const xml = writeXml(root, { encoding: 'UTF-8', newline: '\n' });
  return { kind, xml, payable: formatDecimal(payable) };
}
