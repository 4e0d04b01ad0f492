import { z } from 'zod';
import { ErpError } from '~/core/extension-points/erp-http';
import { writeXml, xmlElement, type XmlElement } from '~/core/xml/xml-writer';
import {
  defineErpProvider,
  type ErpFile,
  type ErpInvoice,
  type ErpInvoiceRow,
  type ErpProvider,
} from '~/core/extension-points/erp-provider';
import {
  add,
  compare,
  formatDecimal,
  formatTrimmed,
  isZero,
  mul,
  parseDecimal,
  round,
  sub,
  sum,
  ZERO,
  type Decimal,
  type DecimalInput,
} from '~/core/pricing';

/*
 * Visma Administration (200/500/1000/2000, formerly SPCS Administration): the visma-xml apply type
 * (issue 14 item 5). Nothing is sent anywhere: the invoice becomes an XML file the tenant imports
 * into its own Visma, so the plugin has no credentials, no HTTP and no customer or article mapping.
 *
 * What was looked for, and what was found:
 *
 * - Visma Administration publishes no XML import format for customer invoices or orders. Its own
 *   imports are SIE (verifications only, "Arkiv - Import", vismaspcs.se online help "Importera,
 *   kommando") and "Underlag från Visma Tid" (an XML whose schema is not published). Orders and
 *   invoices get in programmatically through Visma's Adk (Administration Development Kit, a Windows
 *   DLL), whose field identifiers are public in Adk.h (e.g. github.com/MowinAB/mowin-connect-socket).
 * - The one XML import into Visma Administration found documented is the third-party XML-ImExport
 *   tool (docplayer.se "Exempel1 Enklast möjliga import av kund"): a record's fields are XML elements
 *   named after the Adk field without its ADK_ prefix (`<CUSTOMER_NUMBER>`, `<CUSTOMER_NAME>`). Its
 *   element names for invoice records were not found.
 * - Visma Business does document an XML import (its EDI "XML-compatible format", `<ORDERS
 *   format_xml="2.0">` with `<OrderHead>`/`<OrderLine>` and fields as Table_Field SQL names,
 *   doc.visma.net "XML"), but it imports orders, not invoices: Visma Business numbers the invoice,
 *   sets its due date and KID itself, and its VAT, unit and payment-term fields are codes from the
 *   tenant's own tables, so Ordo's invoice number, due date, OCR and ROT/RUT would not survive it.
 *
 * So the file uses Visma Administration's own invoice fields, the Adk names of the invoice tables
 * (ADK_DB_CUSTOMER, ADK_DB_INVOICE_HEAD / ADK_DB_INVOICE_ROW with the ADK_OOI_HEAD_* and
 * ADK_OOI_ROW_* fields, ADK_DB_TAX_REDUCTION), written the way XML-ImExport writes them: the Adk
 * identifier without "ADK_" as the element name, one element per table record. Only the root
 * element (`<ADK>`) and the nesting of the rows in their head (Adk's ADK_OOI_HEAD_ROWS holds a head's
 * rows) are Ordo's choice. Values follow the Adk types: eChar text, eDouble with a decimal point,
 * eDate as YYYY-MM-DD, eBool as 1/0; an empty value is left out. The VAT codes of the rows (Adk's
 * ADK_OOI_ROW_VAT_CODE) are the numbers of the head's SET_OF_VAT1..3, which the file writes itself
 * (1 = 25 %, 2 = 12 %, 3 = 6 %, 0 = no VAT), so a reader needs no table of the tenant's.
 *
 * Not carried, for want of an Adk invoice field with that meaning: the delivery date (an order's
 * DOCUMENT_DATE2 is it, an invoice's is the due date), the customer type, the ROT/RUT work type of
 * a row (ADK_OOI_ROW_TAX_REDUCTION_TYPES_ID names a row of the tenant's own tax-reduction types).
 *
 * The encoding is ISO-8859-1, what Visma Administration (a Windows-1252 program) reads without
 * conversion; a character outside it travels as a character reference (&#8364; for €), which every
 * XML reader turns back into the character.
 */

const VAT_CODE: Record<ErpInvoiceRow['vatPercent'], string> = { '25': '1', '12': '2', '6': '3', '0': '0' };
/** The head's SET_OF_VATn: the rate each row VAT code stands for. */
const VAT_SETS = [
  ['1', '25'],
  ['2', '12'],
  ['3', '6'],
] as const;
const HOURS_UNIT = /^(h|tim|timmar|timme|hours?)$/i;
const MONEY = /^-?\d+(\.\d{1,2})?$/;
const QUANTITY = /^-?\d+(\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Field = [name: string, value: string | null | undefined];

const filled = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';
const bool = (v: boolean) => (v ? '1' : '0');
const money = (v: DecimalInput) => formatDecimal(v, 2);

function refuse(message: string): never {
  throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', { vendorMessage: message });
}

/** A record: its filled fields as text elements, then the child records. */
function element(name: string, fields: Field[], children: XmlElement[] = []): XmlElement {
  const inner = fields.filter((f): f is [string, string] => filled(f[1])).map(([k, v]) => xmlElement(k, {}, [v]));
  return xmlElement(name, {}, [...inner, ...children]);
}

function checkMoney(name: string, value: string): Decimal {
  if (!MONEY.test(value)) refuse(`${name} is not an amount: ${value}`);
  return parseDecimal(value)!;
}

/** A row's discount as Visma's: a percentage, or (the amount flag set) kronor off the row. */
function discountOf(row: ErpInvoiceRow): { discount: string | null; amountFlag: boolean } {
  if (!row.discount || isZero(row.discount.value)) return { discount: null, amountFlag: false };
  if (row.discount.type === 'PERCENTAGE') return { discount: formatTrimmed(row.discount.value, 2), amountFlag: false };
  // Ordo's amount discount is per unit; Visma's amount discount is taken off the row once.
  return { discount: money(round(mul(row.discount.value, row.amount), 2)), amountFlag: true };
}

/** Ordo's invoice as the XML text (before encoding). */
export function vismaAdministrationXml(invoice: ErpInvoice): string {
  if (!/^\d+$/.test(invoice.invoiceNr)) refuse(`the invoice number must be a number: ${invoice.invoiceNr}`);
  if (!filled(invoice.customer.customerNumber)) refuse('the customer has no customer number');
  for (const [name, value] of [
    ['invoiceDate', invoice.invoiceDate],
    ['dueDate', invoice.dueDate],
  ] as const)
    if (!DATE.test(value)) refuse(`${name} is not a date: ${value}`);
  const customer = invoice.customer;
  const reverse = invoice.reverseVat;

  // The fee is the head's DISPATCH_FEE (expeditionsavgift), booked on DISPATCH_FEE_ACCOUNT; a fee row
  // is therefore not written as a row too.
  const feeRows = invoice.rows.filter((r) => r.kind === 'fee');
  const feeAmount: Decimal | null = feeRows.length
    ? sum(feeRows.map((r) => checkMoney('fee row', r.total)))
    : filled(invoice.fee)
      ? checkMoney('fee', invoice.fee)
      : null;
  const fee = feeAmount && !isZero(feeAmount) ? feeAmount : null;
  const rows = invoice.rows.filter((r) => r.kind !== 'fee');
  const priced = rows.filter((r) => r.kind !== 'text');
  for (const row of invoice.rows)
    if (row.kind !== 'text' && !(row.vatPercent in VAT_CODE))
      refuse(`a row has the VAT rate ${String(row.vatPercent)}`);

  const bases = new Map<string, Decimal>([
    ['0', ZERO],
    ['1', ZERO],
    ['2', ZERO],
    ['3', ZERO],
  ]);
  const addBase = (code: string, amount: Decimal) => bases.set(code, add(bases.get(code)!, amount));
  for (const row of priced) addBase(reverse ? '0' : VAT_CODE[row.vatPercent], checkMoney('row total', row.total));
  // The fee takes its row's rate; without a fee row, the rate most of the invoice has (Swedish VAT
  // follows the main supply), 25 % on an invoice of text rows only.
  const mainRate = (): ErpInvoiceRow['vatPercent'] => {
    let best: [string, Decimal] = ['1', ZERO];
    for (const [code, base] of bases) if (code !== '0' && compare(base, best[1]) > 0) best = [code, base];
    return VAT_SETS.find(([code]) => code === best[0])![1];
  };
  const feeCode = reverse ? '0' : VAT_CODE[feeRows[0]?.vatPercent ?? mainRate()];
  if (fee) addBase(feeCode, fee);

  const vatAmounts = VAT_SETS.map(
    ([code, rate]) => [code, round(mul(bases.get(code)!, { units: BigInt(rate), scale: 2 }), 2)] as const,
  );
  const net = sum([...bases.values()]);
  const vat = sum(vatAmounts.map(([, a]) => a));
  const rounding = checkMoney('rounding', invoice.rounding);
  const total = checkMoney('total', invoice.total);
  if (compare(net, checkMoney('totalPrice', invoice.totalPrice)) !== 0)
    refuse(`the rows and the fee add up to ${money(net)}, the invoice says ${invoice.totalPrice}`);
  if (compare(vat, checkMoney('totalVat', invoice.totalVat)) !== 0)
    refuse(`the VAT of the rows is ${money(vat)}, the invoice says ${invoice.totalVat}`);
  if (compare(add(add(net, vat), rounding), total) !== 0)
    refuse(`${invoice.totalPrice} + ${invoice.totalVat} + ${invoice.rounding} is not the total ${invoice.total}`);

  const rowElements = rows.map((row, i) => {
    const number = String(i + 1);
    if (row.kind === 'text')
      return element('DB_INVOICE_ROW', [
        ['OOI_ROW_ROWNUMBER', number],
        ['OOI_ROW_TEXT', row.description],
      ]);
    if (!QUANTITY.test(row.amount)) refuse(`row ${number}: the quantity is not a number: ${row.amount}`);
    checkMoney('row price', row.price);
    const { discount, amountFlag } = discountOf(row);
    return element('DB_INVOICE_ROW', [
      ['OOI_ROW_ROWNUMBER', number],
      ['OOI_ROW_ARTICLE_NUMBER', row.articleNumber],
      ['OOI_ROW_TEXT', row.description],
      ['OOI_ROW_QUANTITY1', formatTrimmed(row.amount, 3)],
      ['OOI_ROW_UNIT', row.unit],
      ['OOI_ROW_PRICE_EACH_CURRENT_CURRENCY', money(row.price)],
      ['OOI_ROW_DISCOUNT', discount],
      ['OOI_ROW_AMOUNT_DISCOUNT_FLAG', discount ? bool(amountFlag) : null],
      ['OOI_ROW_AMOUNT_CURRENT_CURRENCY', money(row.total)],
      ['OOI_ROW_VAT_CODE', reverse ? '0' : VAT_CODE[row.vatPercent]],
      ['OOI_ROW_ACCOUNT_NUMBER', row.account],
      ['OOI_ROW_LABOUR_COST', row.houseWork ? '1' : null],
      ['OOI_ROW_HOURS_WORKED', row.houseWork && HOURS_UNIT.test(row.unit ?? '') ? formatTrimmed(row.amount, 3) : null],
    ]);
  });

  const reduction = reverse ? null : invoice.taxReduction;
  const reductionFields: Field[] = [];
  if (reduction) {
    const amount = checkMoney('tax reduction', reduction.amount);
    // The basis is the ROT/RUT labour with its VAT, to the öre per row, as the reduction was computed.
    const labour = priced.filter((r) => r.houseWork);
    const basis = labour.length
      ? sum(labour.map((r) => round(add(r.total, mul(r.total, { units: BigInt(r.vatPercent), scale: 2 })), 2)))
      : null;
    reductionFields.push(
      ['OOI_HEAD_TAX_REDUCTION_INCLUDED', '1'],
      ['OOI_HEAD_TAX_REDUCTION_BUILDING_WORK', bool(reduction.kind === 'ROT')],
      ['OOI_HEAD_TAX_REDUCTION_GREEN_TECHNOLOGY', bool(reduction.kind === 'green')],
      ['OOI_HEAD_TAX_REDUCTION_TAX_BASIS', basis ? money(basis) : null],
      ['OOI_HEAD_TAX_REDUCTION', money(amount)],
      ['OOI_HEAD_TAX_REDUCTION_NUMBER_OF_PERSONS', reduction.persons.length ? String(reduction.persons.length) : null],
      ['OOI_HEAD_TAX_REDUCTION_HOUSING_COOPERATIVE_IDENTITY_NUMBER', reduction.housingAssociationOrgNr],
      ['OOI_HEAD_TAX_REDUCTION_DESCRIPTION_OF_PROPERTY', reduction.propertyDesignation],
      ['OOI_HEAD_TAX_REDUCTION_AMOUNT_TO_PAY', money(sub(total, amount))],
    );
  }

  const head = element(
    'DB_INVOICE_HEAD',
    [
      ['OOI_HEAD_DOCUMENT_NUMBER', invoice.invoiceNr],
      ['OOI_HEAD_DOCUMENT_DATE1', invoice.invoiceDate],
      ['OOI_HEAD_DOCUMENT_DATE2', invoice.dueDate],
      ['OOI_HEAD_CUSTOMER_NUMBER', customer.customerNumber],
      ['OOI_HEAD_CUSTOMER_NAME', customer.name],
      ['OOI_HEAD_MAILING_ADDRESS1', customer.address.street],
      ['OOI_HEAD_ZIPCODE', customer.address.postIndex],
      ['OOI_HEAD_CITY', customer.address.city],
      ['OOI_HEAD_CUSTOMER_REFERENCE_NAME', invoice.yourReference],
      ['OOI_HEAD_CUSTOMER_ORDER_NUMBER', invoice.customerOrderNumber],
      ['OOI_HEAD_OUR_REFERENCE_NAME', invoice.ourReference],
      ['OOI_HEAD_CURRENCY_CODE', invoice.currency],
      ['OOI_HEAD_CUSTOMER_INVOICE_VAT_NUMBER', customer.vatNumber],
      ['OOI_HEAD_OCR_NUMBER', invoice.ocr],
      ['OOI_HEAD_TEXT1', invoice.description],
      ['OOI_HEAD_TEXT2', invoice.marking],
      ['OOI_HEAD_TEXT3', invoice.notes.filter(filled).join('\n')],
      ['OOI_HEAD_INCLUDING_VAT', '0'],
      // Byggtjänst: the domestic reverse charge (omvänd betalningsskyldighet) of Visma Administration.
      ['OOI_HEAD_BUILDSERVICE', bool(reverse)],
      ...VAT_SETS.map(([code, rate]): Field => [`OOI_HEAD_SET_OF_VAT${code}`, rate]),
      ['OOI_HEAD_DISPATCH_FEE', fee ? money(fee) : null],
      ['OOI_HEAD_VAT_CODE_DISPATCH_FEE', fee ? feeCode : null],
      ['OOI_HEAD_DISPATCH_FEE_ACCOUNT', feeRows[0]?.account ?? null],
      ...[...bases].map(([code, base]): Field => [`OOI_HEAD_BASIS_OF_VAT${code}`, money(base)]),
      ...vatAmounts.map(([code, amount]): Field => [`OOI_HEAD_AMOUNT_OF_VAT${code}`, money(amount)]),
      ['OOI_HEAD_EXCLUDING_OF_VAT', money(net)],
      ['OOI_HEAD_VAT_AMOUNT', money(vat)],
      ['OOI_HEAD_ROUND_OFF', money(rounding)],
      ['OOI_HEAD_TOTAL_AMOUNT', money(total)],
      ...reductionFields,
      ['OOI_HEAD_NROWS', String(rows.length)],
    ],
    rowElements,
  );

  const persons = (reduction?.persons ?? []).map((p) =>
    element('DB_TAX_REDUCTION', [
      ['TAX_REDUCTION_DOCUMENT_CONNECTION_NUMBER', invoice.invoiceNr],
      ['TAX_REDUCTION_PERSONAL_IDENTITY_NUMBER', p.personId],
      ['TAX_REDUCTION_APPLIED_AMOUNT', money(checkMoney('tax reduction of a person', p.amount))],
    ]),
  );

  const customerRecord = element('DB_CUSTOMER', [
    ['CUSTOMER_NUMBER', customer.customerNumber],
    ['CUSTOMER_NAME', customer.name],
    ['CUSTOMER_MAILING_ADDRESS', customer.address.street],
    ['CUSTOMER_ZIPCODE', customer.address.postIndex],
    ['CUSTOMER_CITY', customer.address.city],
    // Visma Administration keeps a private customer's personal identity number in the same field.
    ['CUSTOMER_ORGANISATION_NUMBER', customer.organizationalNumber ?? customer.personId],
    ['CUSTOMER_VAT_NUMBER', customer.vatNumber],
    ['CUSTOMER_EMAIL', customer.email],
    ['CUSTOMER_TELEPHONE', customer.phone],
    ['CUSTOMER_BUILDSERVICE', bool(customer.reverseVat)],
  ]);

  return writeXml(xmlElement('ADK', {}, [customerRecord, head, ...persons]), {
    encoding: 'ISO-8859-1',
    newline: '\r\n',
    indent: '  ',
  });
}

/** The file: the XML in ISO-8859-1 (the writer leaves no character above U+00FF). */
export function vismaInvoiceFile(invoice: ErpInvoice): ErpFile {
  return {
    fileName: `faktura-${invoice.invoiceNr}.xml`,
    contentType: 'application/xml; charset=ISO-8859-1',
    body: Buffer.from(vismaAdministrationXml(invoice), 'latin1'),
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
  options: z.object({}).strict(),
  create,
});
