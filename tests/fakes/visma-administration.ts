import * as fxp from 'fast-xml-parser';
import type { ErpFile } from '~/core/extension-points/erp-provider';
import type { ErpFakeControl } from '~/tests/erp-contract/erp-contract';

/*
 * The receiving side of the visma-xml file (plugins/erp-visma): what Visma Administration's import
 * does with it, as a checker. Visma Administration has no API, so there is nothing to serve; the
 * "fake" reads a file back with an XML parser of its own (fast-xml-parser, not the plugin's writer),
 * checks it against the format's rules and answers the invoice as the importer reads it.
 *
 * The format (plugins/erp-visma/index.ts says what was and was not found): the records and fields
 * of Visma's Adk (Administration Development Kit, Adk.h) for customers, invoice heads, invoice rows
 * and tax reductions, each field an element named after the Adk identifier without "ADK_" (as the
 * third-party XML-ImExport tool writes them), in ISO-8859-1. The rules checked here:
 *
 * - bytes: the XML declaration says ISO-8859-1; no byte is a C1 control (0x80–0x9F, which a
 *   Windows-1252 reader would take for other characters) or an XML-forbidden control character;
 * - markup: well-formed (fast-xml-parser's validator), one root <ADK> holding one DB_CUSTOMER, one
 *   DB_INVOICE_HEAD with its DB_INVOICE_ROWs, and DB_TAX_REDUCTION records; every field known and
 *   given once; every entity one of XML's five or a numeric reference;
 * - values by Adk type: eDouble with a decimal point (money to the öre), eDate as YYYY-MM-DD, eBool
 *   as 1/0; the document number a whole number; required fields present;
 * - sums: each row's amount is quantity × price less its discount; the rows and the fee add up per
 *   VAT code to the head's bases, the bases times the head's rates to its VAT amounts, those to the
 *   VAT total, and net + VAT + öre rounding to the total; under byggtjänst (reverse VAT) no VAT at
 *   all and the buyer's VAT number given; a tax reduction is no more than its basis (the labour rows
 *   with VAT), is split over persons whose shares add up to it, and leaves the rest to pay.
 *
 * Amounts are compared as whole öre in bigint, independently of core/pricing.
 */

export type AdkRecord = Record<string, string>;

export interface VismaImportedInvoice {
  encoding: 'ISO-8859-1';
  customer: AdkRecord;
  head: AdkRecord;
  rows: AdkRecord[];
  taxReductions: AdkRecord[];
}

export class VismaImportError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Visma Administration refuses the file:\n- ${problems.join('\n- ')}`);
    this.name = 'VismaImportError';
    this.problems = problems;
  }
}

type Kind = 'char' | 'double' | 'money' | 'date' | 'bool' | 'integer';

const CUSTOMER_FIELDS: Record<string, Kind> = {
  CUSTOMER_NUMBER: 'char',
  CUSTOMER_NAME: 'char',
  CUSTOMER_MAILING_ADDRESS: 'char',
  CUSTOMER_MAILING_ADDRESS2: 'char',
  CUSTOMER_ZIPCODE: 'char',
  CUSTOMER_CITY: 'char',
  CUSTOMER_COUNTRY: 'char',
  CUSTOMER_TELEPHONE: 'char',
  CUSTOMER_ORGANISATION_NUMBER: 'char',
  CUSTOMER_VAT_NUMBER: 'char',
  CUSTOMER_EMAIL: 'char',
  CUSTOMER_BUILDSERVICE: 'bool',
  CUSTOMER_CODE_OF_CURRENCY: 'char',
};

const HEAD_FIELDS: Record<string, Kind> = {
  OOI_HEAD_DOCUMENT_NUMBER: 'integer',
  OOI_HEAD_DOCUMENT_DATE1: 'date',
  OOI_HEAD_DOCUMENT_DATE2: 'date',
  OOI_HEAD_CUSTOMER_NUMBER: 'char',
  OOI_HEAD_CUSTOMER_NAME: 'char',
  OOI_HEAD_MAILING_ADDRESS1: 'char',
  OOI_HEAD_MAILING_ADDRESS2: 'char',
  OOI_HEAD_ZIPCODE: 'char',
  OOI_HEAD_CITY: 'char',
  OOI_HEAD_COUNTRY: 'char',
  OOI_HEAD_CUSTOMER_REFERENCE_NAME: 'char',
  OOI_HEAD_CUSTOMER_ORDER_NUMBER: 'char',
  OOI_HEAD_OUR_REFERENCE_NAME: 'char',
  OOI_HEAD_CURRENCY_CODE: 'char',
  OOI_HEAD_CUSTOMER_INVOICE_VAT_NUMBER: 'char',
  OOI_HEAD_OCR_NUMBER: 'char',
  OOI_HEAD_TEXT1: 'char',
  OOI_HEAD_TEXT2: 'char',
  OOI_HEAD_TEXT3: 'char',
  OOI_HEAD_INCLUDING_VAT: 'bool',
  OOI_HEAD_BUILDSERVICE: 'bool',
  OOI_HEAD_SET_OF_VAT1: 'double',
  OOI_HEAD_SET_OF_VAT2: 'double',
  OOI_HEAD_SET_OF_VAT3: 'double',
  OOI_HEAD_SET_OF_VAT4: 'double',
  OOI_HEAD_DISPATCH_FEE: 'money',
  OOI_HEAD_VAT_CODE_DISPATCH_FEE: 'char',
  OOI_HEAD_DISPATCH_FEE_ACCOUNT: 'char',
  OOI_HEAD_BASIS_OF_VAT0: 'money',
  OOI_HEAD_BASIS_OF_VAT1: 'money',
  OOI_HEAD_BASIS_OF_VAT2: 'money',
  OOI_HEAD_BASIS_OF_VAT3: 'money',
  OOI_HEAD_BASIS_OF_VAT4: 'money',
  OOI_HEAD_AMOUNT_OF_VAT1: 'money',
  OOI_HEAD_AMOUNT_OF_VAT2: 'money',
  OOI_HEAD_AMOUNT_OF_VAT3: 'money',
  OOI_HEAD_AMOUNT_OF_VAT4: 'money',
  OOI_HEAD_EXCLUDING_OF_VAT: 'money',
  OOI_HEAD_VAT_AMOUNT: 'money',
  OOI_HEAD_ROUND_OFF: 'money',
  OOI_HEAD_ROUND_OFF_ACCOUNT: 'char',
  OOI_HEAD_TOTAL_AMOUNT: 'money',
  OOI_HEAD_TAX_REDUCTION_INCLUDED: 'bool',
  OOI_HEAD_TAX_REDUCTION_BUILDING_WORK: 'bool',
  OOI_HEAD_TAX_REDUCTION_GREEN_TECHNOLOGY: 'bool',
  OOI_HEAD_TAX_REDUCTION_TAX_BASIS: 'money',
  OOI_HEAD_TAX_REDUCTION: 'money',
  OOI_HEAD_TAX_REDUCTION_NUMBER_OF_PERSONS: 'integer',
  OOI_HEAD_TAX_REDUCTION_HOUSING_COOPERATIVE_IDENTITY_NUMBER: 'char',
  OOI_HEAD_TAX_REDUCTION_DESCRIPTION_OF_PROPERTY: 'char',
  OOI_HEAD_TAX_REDUCTION_AMOUNT_TO_PAY: 'money',
  OOI_HEAD_NROWS: 'integer',
};

const ROW_FIELDS: Record<string, Kind> = {
  OOI_ROW_ROWNUMBER: 'integer',
  OOI_ROW_ARTICLE_NUMBER: 'char',
  OOI_ROW_TEXT: 'char',
  OOI_ROW_QUANTITY1: 'double',
  OOI_ROW_UNIT: 'char',
  OOI_ROW_PRICE_EACH_CURRENT_CURRENCY: 'money',
  OOI_ROW_DISCOUNT: 'double',
  OOI_ROW_AMOUNT_DISCOUNT_FLAG: 'bool',
  OOI_ROW_AMOUNT_CURRENT_CURRENCY: 'money',
  OOI_ROW_VAT_CODE: 'char',
  OOI_ROW_ACCOUNT_NUMBER: 'char',
  OOI_ROW_LABOUR_COST: 'bool',
  OOI_ROW_HOURS_WORKED: 'double',
};

const TAX_REDUCTION_FIELDS: Record<string, Kind> = {
  TAX_REDUCTION_DOCUMENT_CONNECTION_NUMBER: 'integer',
  TAX_REDUCTION_PERSONAL_IDENTITY_NUMBER: 'char',
  TAX_REDUCTION_NAME: 'char',
  TAX_REDUCTION_APPLIED_AMOUNT: 'money',
};

const FORMAT: Record<Exclude<Kind, 'char'>, RegExp> = {
  double: /^-?\d+(\.\d+)?$/,
  money: /^-?\d+(\.\d{1,2})?$/,
  integer: /^\d+$/,
  bool: /^[01]$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
};

const DECLARATION = /^<\?xml version="1\.0" encoding="([^"]+)"\?>\r?\n/;

/** Whole öre of a money text (checked against FORMAT.money first). */
function ore(text: string): bigint {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  const value = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, '0'));
  return negative ? -value : value;
}

/** A decimal text as [units, scale]. */
function decimal(text: string): [bigint, number] {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  const units = BigInt(`${whole}${fraction}`);
  return [negative ? -units : units, fraction.length];
}

/** n / d rounded half away from zero. */
function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  const twice = (r < 0n ? -r : r) * 2n;
  return twice >= (d < 0n ? -d : d) ? q + (n < 0n !== d < 0n ? -1n : 1n) : q;
}

/** An amount of units / 10^scale kronor, rounded half away from zero to whole öre. */
const toOre = (units: bigint, scale: number): bigint =>
  scale <= 2 ? units * 10n ** BigInt(2 - scale) : divRound(units, 10n ** BigInt(scale - 2));

const show = (o: bigint) => {
  const a = o < 0n ? -o : o;
  return `${o < 0n ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
};

function validDate(text: string): boolean {
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

const ENTITY = /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeText(raw: string, where: string, problems: string[]): string {
  if (raw.replace(ENTITY, '').includes('&')) problems.push(`${where}: an & that is not an entity`);
  return raw.replace(ENTITY, (_, name: string) => {
    if (name.startsWith('#')) {
      const cp = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        problems.push(`${where}: &${name}; is not a character`);
        return '';
      }
      return String.fromCodePoint(cp);
    }
    return NAMED[name]!;
  });
}

type Node = Record<string, unknown>;

const asArray = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** One record's fields, every one known, given once and of its type. */
function readRecord(
  node: unknown,
  name: string,
  fields: Record<string, Kind>,
  problems: string[],
  children: string[] = [],
): AdkRecord {
  const out: AdkRecord = {};
  if (!node || typeof node !== 'object') {
    problems.push(`${name} is not a record`);
    return out;
  }
  for (const [key, value] of Object.entries(node as Node)) {
    if (key === '#text') {
      if (typeof value !== 'string' || value.trim() !== '') problems.push(`${name}: text outside a field`);
      continue;
    }
    if (key.startsWith('@_')) {
      problems.push(`${name}: unexpected attribute ${key.slice(2)}`);
      continue;
    }
    if (children.includes(key)) continue;
    const kind = fields[key];
    if (!kind) {
      problems.push(`${name}: unknown field ${key}`);
      continue;
    }
    if (Array.isArray(value)) {
      problems.push(`${name}: ${key} is given more than once`);
      continue;
    }
    if (typeof value !== 'string') {
      problems.push(`${name}: ${key} is not a value`);
      continue;
    }
    const text = decodeText(value, `${name}.${key}`, problems);
    if (text === '') problems.push(`${name}: ${key} is empty (leave an empty field out)`);
    else if (kind !== 'char' && !FORMAT[kind].test(text)) problems.push(`${name}: ${key} is not ${kind}: ${text}`);
    else if (kind === 'date' && !validDate(text)) problems.push(`${name}: ${key} is not a date: ${text}`);
    out[key] = text;
  }
  return out;
}

function requireFields(record: AdkRecord, name: string, keys: string[], problems: string[]) {
  for (const key of keys) if (record[key] === undefined) problems.push(`${name}: ${key} is required`);
}

/** Reads a visma-xml file as Visma Administration's import would; throws VismaImportError with every problem found. */
export function checkVismaAdministrationFile(body: Buffer): VismaImportedInvoice {
  const problems: string[] = [];
  const refuse = (): never => {
    throw new VismaImportError(problems);
  };

  // Bytes and encoding, before any decoding.
  const head = body.subarray(0, 200).toString('ascii');
  const declared = DECLARATION.exec(head);
  if (!declared) problems.push('the file does not start with <?xml version="1.0" encoding="…"?>');
  else if (declared[1]!.toUpperCase() !== 'ISO-8859-1') problems.push(`the encoding is ${declared[1]}, not ISO-8859-1`);
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) problems.push('the file has a UTF-8 byte order mark');
  body.forEach((byte, at) => {
    if (byte >= 0x80 && byte <= 0x9f) problems.push(`byte 0x${byte.toString(16)} at ${at} is a C1 control`);
    else if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d)
      problems.push(`byte 0x${byte.toString(16)} at ${at} is not allowed in XML`);
  });
  if (problems.length) refuse();

  const text = body.toString('latin1');
  const valid = fxp.validate(text);
  if (valid !== true) {
    problems.push(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
    refuse();
  }
  const tree = fxp.parse(text, {
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseNodeValue: false,
    parseAttributeValue: false,
    trimValues: false,
    arrayMode: false,
  }) as Node;

  const roots = Object.keys(tree);
  if (roots.length !== 1 || roots[0] !== 'ADK') {
    problems.push(`the root must be one <ADK>, not ${roots.join(', ') || 'nothing'}`);
    refuse();
  }
  const adk = tree.ADK;
  if (!adk || typeof adk !== 'object' || Array.isArray(adk)) {
    problems.push('<ADK> holds no records');
    refuse();
  }
  const records = adk as Node;
  for (const key of Object.keys(records))
    if (!['#text', 'DB_CUSTOMER', 'DB_INVOICE_HEAD', 'DB_TAX_REDUCTION'].includes(key))
      problems.push(`<ADK>: unknown record ${key}`);
  if (typeof records['#text'] === 'string' && records['#text'].trim() !== '')
    problems.push('<ADK>: text outside a record');

  const customers = asArray(records.DB_CUSTOMER);
  const heads = asArray(records.DB_INVOICE_HEAD);
  if (customers.length !== 1) problems.push(`one DB_CUSTOMER is expected, found ${customers.length}`);
  if (heads.length !== 1) problems.push(`one DB_INVOICE_HEAD is expected, found ${heads.length}`);
  if (problems.length) refuse();

  const customer = readRecord(customers[0], 'DB_CUSTOMER', CUSTOMER_FIELDS, problems);
  const invoice = readRecord(heads[0], 'DB_INVOICE_HEAD', HEAD_FIELDS, problems, ['DB_INVOICE_ROW']);
  const rows = asArray((heads[0] as Node).DB_INVOICE_ROW).map((r, i) =>
    readRecord(r, `DB_INVOICE_ROW ${i + 1}`, ROW_FIELDS, problems),
  );
  const taxReductions = asArray(records.DB_TAX_REDUCTION).map((r, i) =>
    readRecord(r, `DB_TAX_REDUCTION ${i + 1}`, TAX_REDUCTION_FIELDS, problems),
  );
  if (problems.length) refuse();

  requireFields(customer, 'DB_CUSTOMER', ['CUSTOMER_NUMBER', 'CUSTOMER_NAME'], problems);
  requireFields(
    invoice,
    'DB_INVOICE_HEAD',
    [
      'OOI_HEAD_DOCUMENT_NUMBER',
      'OOI_HEAD_DOCUMENT_DATE1',
      'OOI_HEAD_DOCUMENT_DATE2',
      'OOI_HEAD_CUSTOMER_NUMBER',
      'OOI_HEAD_INCLUDING_VAT',
      'OOI_HEAD_EXCLUDING_OF_VAT',
      'OOI_HEAD_VAT_AMOUNT',
      'OOI_HEAD_ROUND_OFF',
      'OOI_HEAD_TOTAL_AMOUNT',
      'OOI_HEAD_NROWS',
    ],
    problems,
  );
  if (problems.length) refuse();
  const h = invoice;

  if (h.OOI_HEAD_CUSTOMER_NUMBER !== customer.CUSTOMER_NUMBER)
    problems.push(
      `the invoice is for customer ${h.OOI_HEAD_CUSTOMER_NUMBER}, the file's customer is ${customer.CUSTOMER_NUMBER}`,
    );
  if (h.OOI_HEAD_DOCUMENT_DATE2! < h.OOI_HEAD_DOCUMENT_DATE1!) problems.push('the due date is before the invoice date');
  if (h.OOI_HEAD_INCLUDING_VAT !== '0') problems.push('prices including VAT are not expected');
  if (Number(h.OOI_HEAD_NROWS) !== rows.length)
    problems.push(`NROWS says ${h.OOI_HEAD_NROWS}, the file has ${rows.length} rows`);

  // VAT codes: the head's SET_OF_VATn, and 0 for no VAT.
  const rates = new Map<string, string>([['0', '0']]);
  for (const n of ['1', '2', '3', '4']) {
    const rate = h[`OOI_HEAD_SET_OF_VAT${n}`];
    if (rate !== undefined) rates.set(n, rate);
  }
  const bases = new Map<string, bigint>([...rates.keys()].map((code) => [code, 0n]));
  const reverse = h.OOI_HEAD_BUILDSERVICE === '1';

  rows.forEach((row, i) => {
    const where = `row ${i + 1}`;
    if (row.OOI_ROW_ROWNUMBER !== String(i + 1)) problems.push(`${where}: ROWNUMBER is ${row.OOI_ROW_ROWNUMBER}`);
    const amount = row.OOI_ROW_AMOUNT_CURRENT_CURRENCY;
    if (amount === undefined) {
      // A text row: nothing to count.
      for (const key of ['OOI_ROW_QUANTITY1', 'OOI_ROW_PRICE_EACH_CURRENT_CURRENCY', 'OOI_ROW_VAT_CODE'])
        if (row[key] !== undefined) problems.push(`${where}: ${key} without an amount`);
      if (row.OOI_ROW_TEXT === undefined) problems.push(`${where}: a row with neither amount nor text`);
      return;
    }
    requireFields(
      row,
      where,
      ['OOI_ROW_QUANTITY1', 'OOI_ROW_PRICE_EACH_CURRENT_CURRENCY', 'OOI_ROW_VAT_CODE'],
      problems,
    );
    const code = row.OOI_ROW_VAT_CODE;
    if (code === undefined || !rates.has(code)) {
      problems.push(`${where}: VAT code ${code} is not one of the head's`);
      return;
    }
    if (reverse && code !== '0') problems.push(`${where}: VAT under byggtjänst`);
    bases.set(code, bases.get(code)! + ore(amount));
    if (row.OOI_ROW_QUANTITY1 === undefined || row.OOI_ROW_PRICE_EACH_CURRENT_CURRENCY === undefined) return;
    // quantity × price less the discount, rounded once to the öre (a percentage is taken off the
    // exact product; an amount discount is kronor off the row).
    const [q, qs] = decimal(row.OOI_ROW_QUANTITY1);
    const price = ore(row.OOI_ROW_PRICE_EACH_CURRENT_CURRENCY);
    const discount = row.OOI_ROW_DISCOUNT;
    let expected: bigint;
    if (discount === undefined) expected = toOre(q * price, qs + 2);
    else if (row.OOI_ROW_AMOUNT_DISCOUNT_FLAG === '1') {
      if (!FORMAT.money.test(discount)) problems.push(`${where}: an amount discount in more than öre`);
      expected = toOre(q * price, qs + 2) - (FORMAT.money.test(discount) ? ore(discount) : 0n);
    } else {
      const [d, ds] = decimal(discount);
      const keep = 100n * 10n ** BigInt(ds) - d;
      expected = divRound(q * price * keep, 10n ** BigInt(qs + ds) * 100n);
    }
    if (expected !== ore(amount))
      problems.push(`${where}: ${amount} is not quantity × price less discount (${show(expected)})`);
    if (row.OOI_ROW_HOURS_WORKED !== undefined && row.OOI_ROW_LABOUR_COST !== '1')
      problems.push(`${where}: hours worked on a row that is not labour`);
  });

  const fee = h.OOI_HEAD_DISPATCH_FEE;
  if (fee !== undefined) {
    const code = h.OOI_HEAD_VAT_CODE_DISPATCH_FEE;
    if (code === undefined || !rates.has(code)) problems.push(`the fee's VAT code ${code} is not one of the head's`);
    else {
      if (reverse && code !== '0') problems.push('VAT on the fee under byggtjänst');
      bases.set(code, bases.get(code)! + ore(fee));
    }
  }

  let net = 0n;
  let vat = 0n;
  for (const [code, base] of bases) {
    net += base;
    const stated = h[`OOI_HEAD_BASIS_OF_VAT${code}`];
    if (stated === undefined ? base !== 0n : ore(stated) !== base)
      problems.push(`BASIS_OF_VAT${code} is ${stated ?? 'missing'}, the rows and fee make ${show(base)}`);
    if (code === '0') continue;
    const [r, rs] = decimal(rates.get(code)!);
    const expected = toOre(base * r, rs + 4);
    const statedVat = h[`OOI_HEAD_AMOUNT_OF_VAT${code}`];
    if (statedVat === undefined ? expected !== 0n : ore(statedVat) !== expected)
      problems.push(
        `AMOUNT_OF_VAT${code} is ${statedVat ?? 'missing'}, ${rates.get(code)} % of ${show(base)} is ${show(expected)}`,
      );
    vat += statedVat === undefined ? 0n : ore(statedVat);
  }
  if (ore(h.OOI_HEAD_EXCLUDING_OF_VAT!) !== net)
    problems.push(`EXCLUDING_OF_VAT is ${h.OOI_HEAD_EXCLUDING_OF_VAT}, the rows and fee add up to ${show(net)}`);
  if (ore(h.OOI_HEAD_VAT_AMOUNT!) !== vat)
    problems.push(`VAT_AMOUNT is ${h.OOI_HEAD_VAT_AMOUNT}, the VAT amounts add up to ${show(vat)}`);
  const roundOff = ore(h.OOI_HEAD_ROUND_OFF!);
  if (roundOff <= -100n || roundOff >= 100n) problems.push(`ROUND_OFF ${h.OOI_HEAD_ROUND_OFF} is not öre rounding`);
  const total = ore(h.OOI_HEAD_TOTAL_AMOUNT!);
  if (net + vat + roundOff !== total)
    problems.push(`TOTAL_AMOUNT ${h.OOI_HEAD_TOTAL_AMOUNT} is not ${show(net)} + ${show(vat)} + ${show(roundOff)}`);
  if (reverse) {
    if (vat !== 0n) problems.push('VAT under byggtjänst');
    if (h.OOI_HEAD_CUSTOMER_INVOICE_VAT_NUMBER === undefined)
      problems.push("byggtjänst without the buyer's VAT number");
  }

  // Tax reduction (ROT/RUT/green).
  const reductionPersons = taxReductions.filter(
    (t) => t.TAX_REDUCTION_DOCUMENT_CONNECTION_NUMBER === h.OOI_HEAD_DOCUMENT_NUMBER,
  );
  if (reductionPersons.length !== taxReductions.length) problems.push('a DB_TAX_REDUCTION belongs to another invoice');
  if (h.OOI_HEAD_TAX_REDUCTION_INCLUDED === '1') {
    requireFields(h, 'DB_INVOICE_HEAD', ['OOI_HEAD_TAX_REDUCTION', 'OOI_HEAD_TAX_REDUCTION_AMOUNT_TO_PAY'], problems);
    if (reverse) problems.push('a tax reduction under byggtjänst');
    const reduction = h.OOI_HEAD_TAX_REDUCTION === undefined ? 0n : ore(h.OOI_HEAD_TAX_REDUCTION);
    if (reduction < 0n) problems.push('a negative tax reduction');
    if (
      h.OOI_HEAD_TAX_REDUCTION_AMOUNT_TO_PAY !== undefined &&
      ore(h.OOI_HEAD_TAX_REDUCTION_AMOUNT_TO_PAY) !== total - reduction
    )
      problems.push(`AMOUNT_TO_PAY ${h.OOI_HEAD_TAX_REDUCTION_AMOUNT_TO_PAY} is not the total less the reduction`);
    const labour = rows.filter((r) => r.OOI_ROW_LABOUR_COST === '1');
    if (h.OOI_HEAD_TAX_REDUCTION_GREEN_TECHNOLOGY !== '1') {
      if (!labour.length) problems.push('a ROT/RUT reduction without labour rows');
      let basis = 0n;
      for (const row of labour) {
        const amount = ore(row.OOI_ROW_AMOUNT_CURRENT_CURRENCY ?? '0');
        const [r, rs] = decimal(rates.get(row.OOI_ROW_VAT_CODE ?? '0') ?? '0');
        basis += amount + toOre(amount * r, rs + 4);
      }
      if (h.OOI_HEAD_TAX_REDUCTION_TAX_BASIS === undefined || ore(h.OOI_HEAD_TAX_REDUCTION_TAX_BASIS) !== basis)
        problems.push(
          `TAX_REDUCTION_TAX_BASIS is ${h.OOI_HEAD_TAX_REDUCTION_TAX_BASIS ?? 'missing'}, the labour rows make ${show(basis)}`,
        );
      if (reduction > basis) problems.push('the tax reduction is larger than its basis');
    }
    if (
      h.OOI_HEAD_TAX_REDUCTION_BUILDING_WORK === '1' &&
      h.OOI_HEAD_TAX_REDUCTION_DESCRIPTION_OF_PROPERTY === undefined &&
      h.OOI_HEAD_TAX_REDUCTION_HOUSING_COOPERATIVE_IDENTITY_NUMBER === undefined
    )
      problems.push('ROT without a property designation or housing cooperative');
    if (!reductionPersons.length) problems.push('a tax reduction without the persons asking for it');
    if (h.OOI_HEAD_TAX_REDUCTION_NUMBER_OF_PERSONS !== String(reductionPersons.length))
      problems.push(
        `NUMBER_OF_PERSONS is ${h.OOI_HEAD_TAX_REDUCTION_NUMBER_OF_PERSONS}, the file names ${reductionPersons.length}`,
      );
    let shares = 0n;
    reductionPersons.forEach((p, i) => {
      requireFields(
        p,
        `DB_TAX_REDUCTION ${i + 1}`,
        ['TAX_REDUCTION_PERSONAL_IDENTITY_NUMBER', 'TAX_REDUCTION_APPLIED_AMOUNT'],
        problems,
      );
      const id = (p.TAX_REDUCTION_PERSONAL_IDENTITY_NUMBER ?? '').replace(/[-+\s]/g, '');
      if (!/^(\d{10}|\d{12})$/.test(id)) problems.push(`DB_TAX_REDUCTION ${i + 1}: not a personal identity number`);
      shares += ore(p.TAX_REDUCTION_APPLIED_AMOUNT ?? '0');
    });
    if (shares !== reduction)
      problems.push(`the persons' shares add up to ${show(shares)}, the reduction is ${h.OOI_HEAD_TAX_REDUCTION}`);
  } else {
    if (reductionPersons.length) problems.push('DB_TAX_REDUCTION records without a tax reduction');
    for (const key of Object.keys(h))
      if (key.startsWith('OOI_HEAD_TAX_REDUCTION_') && key !== 'OOI_HEAD_TAX_REDUCTION_INCLUDED')
        problems.push(`${key} without TAX_REDUCTION_INCLUDED`);
  }

  if (problems.length) refuse();
  return { encoding: 'ISO-8859-1', customer, head: invoice, rows, taxReductions };
}

/** The checker plus what the ERP contract suite asks of a fake; the file plugin has no API, so most of it is idle. */
export interface VismaAdministrationFake extends ErpFakeControl {
  /** Imports a file as the tenant does in Visma Administration: checked, then kept; a number seen before is refused. */
  importFile(file: ErpFile): VismaImportedInvoice;
  imported(): VismaImportedInvoice[];
}

export function startVismaAdministrationFake(): VismaAdministrationFake {
  const invoices: VismaImportedInvoice[] = [];
  return {
    importFile(file) {
      if (!/^application\/xml; charset=ISO-8859-1$/i.test(file.contentType))
        throw new VismaImportError([`the file is ${file.contentType}, not ISO-8859-1 XML`]);
      if (!/\.xml$/i.test(file.fileName)) throw new VismaImportError([`${file.fileName} is not an .xml file`]);
      const invoice = checkVismaAdministrationFile(file.body);
      const number = invoice.head.OOI_HEAD_DOCUMENT_NUMBER;
      if (invoices.some((i) => i.head.OOI_HEAD_DOCUMENT_NUMBER === number))
        throw new VismaImportError([`invoice ${number} is already in Visma Administration`]);
      invoices.push(invoice);
      return invoice;
    },
    imported: () => [...invoices],
    // A file carries no idempotency key: the invoice number is what makes an invoice one.
    invoiceCount: (key) =>
      key === undefined ? invoices.length : invoices.filter((i) => i.head.OOI_HEAD_DOCUMENT_NUMBER === key).length,
    customerCount: () => new Set(invoices.map((i) => i.customer.CUSTOMER_NUMBER)).size,
    articleCount: () =>
      new Set(invoices.flatMap((i) => i.rows.map((r) => r.OOI_ROW_ARTICLE_NUMBER).filter((a) => a !== undefined))).size,
    invoice: (externalId) => invoices.find((i) => i.head.OOI_HEAD_DOCUMENT_NUMBER === externalId)?.head ?? null,
    expireAccessTokens() {},
    failNext() {},
    dropNextCreateResponse() {},
    requestCount: () => 0,
    rateLimitedCount: () => 0,
    async close() {},
  };
}
