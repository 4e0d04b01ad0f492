import { CsvSyntaxError, parseCsv } from '~/core/import-export/csv';
import { formatDecimal, parseDecimal } from '~/core/pricing';
import type { SupplierOrderDocument, SupplierOrderLine } from './supplier-order-document';

/*
 * A wholesaler's order confirmation as CSV (issue 33 item 5; decision 055): what web shops export
 * and wholesalers mail. One header line, then one line per confirmed article; a file may hold several
 * orders (its lines grouped by order number). Semicolon, comma or tab (detected from the header line,
 * core/import-export/csv.ts); UTF-8 or Windows-1252 (decodeText there).
 *
 * Columns, by header (case, spaces, dashes and accents ignored; Swedish or English):
 *   order number        ordernummer, ordernr, order number, ordernumber      required
 *   work-order ref.     arbetsorder, arbetsordernummer, märkning, er referens, referens,
 *                       work order, work order reference, reference         may be empty (→ in error)
 *   article number      artikelnummer, artikelnr, artnr, article number, article
 *   description         benämning, beskrivning, description, name           required (or the article number)
 *   quantity            antal, kvantitet, quantity, qty                       required, > 0
 *   unit price          á-pris, a-pris, pris, styckpris, unit price, price    required, ≥ 0
 *   unit                enhet, unit
 *   order date          orderdatum, datum, order date, date                   YYYY-MM-DD
 *   currency            valuta, currency                                      ISO 4217, default SEK
 * Numbers may use a decimal comma and spaces between thousands ("1 234,50").
 */

/** What was wrong with the file (a message key: supplierorders' `SUPPLIER_ORDER_<code>`). */
export type OrderCsvRefusalCode = 'NOT_CSV' | 'COLUMN_MISSING' | 'FIELD_INVALID' | 'NO_LINES' | 'REFERENCE_DIFFERS';

export class OrderCsvRefusal extends Error {
  constructor(
    /** A message key: supplierorders' `SUPPLIER_ORDER_<code>`. */
    readonly code: OrderCsvRefusalCode,
    /** Where: the line of the file, or the column. */
    readonly rule: string,
    message: string,
  ) {
    super(message);
    this.name = 'OrderCsvRefusal';
  }
}

type Column =
  'orderNumber' | 'reference' | 'articleNumber' | 'description' | 'quantity' | 'price' | 'unit' | 'date' | 'currency';

const HEADERS: Record<Column, string[]> = {
  orderNumber: ['ordernummer', 'ordernr', 'ordernumber', 'orderno', 'order'],
  reference: [
    'arbetsorder',
    'arbetsordernummer',
    'arbetsordernr',
    'markning',
    'erreferens',
    'referens',
    'workorder',
    'workorderreference',
    'workordernumber',
    'reference',
  ],
  articleNumber: ['artikelnummer', 'artikelnr', 'artnr', 'articlenumber', 'articleno', 'article'],
  description: ['benamning', 'beskrivning', 'description', 'name', 'artikelnamn'],
  quantity: ['antal', 'kvantitet', 'quantity', 'qty'],
  price: ['apris', 'pris', 'styckpris', 'unitprice', 'price', 'netpris', 'nettopris'],
  unit: ['enhet', 'unit'],
  date: ['orderdatum', 'datum', 'orderdate', 'date'],
  currency: ['valuta', 'currency'],
};

/** "Á-pris" → "apris", "Work order reference" → "workorderreference". */
const normalizeHeader = (h: string) =>
  h
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** "1 234,50" / "1234.50" / "1.234,50" → "1234.50"; null when it is not a number. */
function number(value: string): string | null {
  let v = value.replace(/[\s\u00a0\u202f]/g, '');
  if (v.includes(',') && v.includes('.')) v = v.replace(/\./g, '').replace(',', '.');
  else v = v.replace(',', '.');
  if (!/^-?\d{1,10}(\.\d{1,4})?$/.test(v)) return null;
  return v;
}

/** Reads a wholesaler's CSV into its orders; throws OrderCsvRefusal naming the line or column. */
export function parseOrderCsv(input: string): SupplierOrderDocument[] {
  let rows: string[][];
  try {
    rows = parseCsv(input);
  } catch (e) {
    if (e instanceof CsvSyntaxError) throw new OrderCsvRefusal('NOT_CSV', `line ${e.line}`, e.message);
    throw e;
  }
  const [head = [], ...body] = rows;
  const index = {} as Record<Column, number>;
  const names = head.map(normalizeHeader);
  for (const [column, aliases] of Object.entries(HEADERS) as [Column, string[]][])
    index[column] = names.findIndex((n) => aliases.includes(n));
  for (const column of ['orderNumber', 'quantity', 'price'] as const)
    if (index[column] < 0) throw new OrderCsvRefusal('COLUMN_MISSING', column, `the column "${column}" is missing`);
  if (index.description < 0 && index.articleNumber < 0)
    throw new OrderCsvRefusal('COLUMN_MISSING', 'description', 'the column "description" is missing');
  if (!body.length) throw new OrderCsvRefusal('NO_LINES', 'line 2', 'the file has no lines');

  const orders = new Map<string, SupplierOrderDocument>();
  for (const [i, cells] of body.entries()) {
    const lineNo = i + 2;
    const cell = (c: Column) => (index[c] < 0 ? '' : (cells[index[c]] ?? '').trim());
    const invalid = (column: string, value: string) =>
      new OrderCsvRefusal('FIELD_INVALID', `line ${lineNo}`, `line ${lineNo}: ${column} "${value}" is not valid`);
    const orderNumber = cell('orderNumber');
    if (!orderNumber || orderNumber.length > 100) throw invalid('order number', orderNumber);
    const quantity = number(cell('quantity'));
    if (quantity === null || Number(quantity) <= 0) throw invalid('quantity', cell('quantity'));
    const price = number(cell('price'));
    if (price === null || Number(price) < 0) throw invalid('price', cell('price'));
    const articleNumber = cell('articleNumber').slice(0, 100) || null;
    const description = (cell('description') || articleNumber || '').slice(0, 500);
    if (!description) throw invalid('description', '');
    const date = cell('date') || null;
    if (date !== null && (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))))
      throw invalid('order date', date);
    const currency = (cell('currency') || 'SEK').toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) throw invalid('currency', currency);
    const reference = cell('reference').slice(0, 100) || null;

    let order = orders.get(orderNumber.toLowerCase());
    if (!order) {
      order = {
        source: 'csv',
        orderNumber,
        responseId: null,
        orderDate: date,
        currency,
        responseCode: null,
        workOrderReference: reference,
        otherReference: null,
        seller: null,
        lines: [],
        skipped: [],
      };
      orders.set(orderNumber.toLowerCase(), order);
    } else if ((order.workOrderReference ?? '') !== (reference ?? '') || order.currency !== currency) {
      throw new OrderCsvRefusal(
        'REFERENCE_DIFFERS',
        `line ${lineNo}`,
        `line ${lineNo}: order ${orderNumber} has another work-order reference or currency than its first line`,
      );
    }
    const line: SupplierOrderLine = {
      lineId: String(lineNo),
      description,
      articleNumber,
      amount: formatDecimal(parseDecimal(quantity)!, 4),
      unit: cell('unit').slice(0, 20) || null,
      price: formatDecimal(parseDecimal(price)!, 4),
    };
    order.lines.push(line);
  }
  return [...orders.values()];
}
