/*
 * A reader of SIE 4 files for the tests, written from SIE-Gruppen's "SIE filformat, utgåva 4B"
 * (2008-09-30) and not from Ordo's writer (core/invoicing/sie.ts), so a test that reads back what
 * the writer made checks the writer against the spec rather than against itself. Strict where the
 * spec says "ska": it throws on what an importer could misread.
 *
 * - 5.8 / #FORMAT PC8: the bytes are IBM PC code page 437; decoded with its own table below.
 * - 5.5: a record ends with LF, a CR before it is allowed; 5.6: blank lines are ignored.
 * - 5.7: fields separated by spaces or tabs; a field may be quoted ("…"); `\"` is a quotation mark
 *   inside a quoted field; no control characters (0–31, 127) inside the text.
 * - 5.4: sub-records between { and }, each brace alone on its line; #TRANS only inside a #VER
 *   (#TRANS 3); 8.21: the object list {dim obj …} of a transaction.
 * - 5.9: amounts with a point and at most two decimals, a leading minus, never a plus;
 *   5.10: dates YYYYMMDD. Amounts are read as whole öre (bigint), never as floating point.
 * - 5.12: flag, identification, chart of accounts, then balances/verifications, in that order;
 *   #FLAGGA first (#FLAGGA 1).
 */

/** Code page 437, bytes 0x80–0xFF, as the characters they stand for. */
const PC8_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

export class SieReadError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** PC8 bytes as text. */
export function decodePc8(bytes: Uint8Array): string {
  if ([...PC8_HIGH].length !== 128) throw new Error('the code page table must have 128 characters');
  const high = [...PC8_HIGH];
  let text = '';
  for (const b of bytes) text += b < 0x80 ? String.fromCharCode(b) : high[b - 0x80];
  return text;
}

/** A field: text, or an object list `{…}` as its inner fields. */
export type SieField = string | string[];

export interface SieRecord {
  line: number;
  label: string;
  fields: SieField[];
}

export interface SieTransactionRead {
  account: string;
  objects: string[];
  /** The amount as written. */
  amount: string;
  /** The amount in öre. */
  ore: bigint;
  date: string | null;
  text: string | null;
}

export interface SieVerificationRead {
  line: number;
  series: string;
  number: string;
  date: string;
  text: string | null;
  transactions: SieTransactionRead[];
}

export interface SieFileRead {
  /** Every top-level record in file order (a #VER's sub-records are in its transactions). */
  records: SieRecord[];
  /** The first field of each identification record, by label (#FLAGGA → "0", #SIETYP → "4", …). */
  header: Record<string, SieField[]>;
  accounts: Map<string, string>;
  verifications: SieVerificationRead[];
}

const GROUP: Record<string, number> = {
  '#FLAGGA': 1,
  '#PROGRAM': 2,
  '#FORMAT': 2,
  '#GEN': 2,
  '#SIETYP': 2,
  '#PROSA': 2,
  '#FTYP': 2,
  '#FNR': 2,
  '#ORGNR': 2,
  '#BKOD': 2,
  '#ADRESS': 2,
  '#FNAMN': 2,
  '#RAR': 2,
  '#TAXAR': 2,
  '#OMFATTN': 2,
  '#KPTYP': 2,
  '#VALUTA': 2,
  '#KONTO': 3,
  '#KTYP': 3,
  '#ENHET': 3,
  '#SRU': 3,
  '#DIM': 3,
  '#UNDERDIM': 3,
  '#OBJEKT': 3,
  '#IB': 4,
  '#UB': 4,
  '#OIB': 4,
  '#OUB': 4,
  '#RES': 4,
  '#PSALDO': 4,
  '#PBUDGET': 4,
  '#VER': 4,
};
const SUB_RECORDS = new Set(['#TRANS', '#RTRANS', '#BTRANS']);

/** Splits one record's text into its label and fields (5.7, 8.21). */
export function tokenize(text: string, line: number): { label: string; fields: SieField[] } {
  const out: SieField[] = [];
  let list: string[] | null = null;
  let i = 0;
  const push = (field: string) => (list ? list.push(field) : out.push(field));
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      i++;
    } else if (c === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new SieReadError(line, 'a quoted field is not closed');
        const d = text[i]!;
        if (d === '\\' && text[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (d === '"') {
          i++;
          break;
        } else {
          value += d;
          i++;
        }
      }
      if (i < text.length && text[i] !== ' ' && text[i] !== '\t' && text[i] !== '}')
        throw new SieReadError(line, 'a quoted field runs into the next');
      push(value);
    } else if (c === '{') {
      if (list) throw new SieReadError(line, 'an object list inside an object list');
      list = [];
      i++;
    } else if (c === '}') {
      if (!list) throw new SieReadError(line, 'a } without {');
      out.push(list);
      list = null;
      i++;
    } else {
      let value = '';
      while (i < text.length && !' \t{}'.includes(text[i]!)) {
        if (text[i] === '"') throw new SieReadError(line, 'a quotation mark inside an unquoted field');
        value += text[i];
        i++;
      }
      push(value);
    }
  }
  if (list) throw new SieReadError(line, 'an object list is not closed');
  const [label, ...fields] = out;
  if (typeof label !== 'string' || !/^#[A-Z]+$/.test(label)) throw new SieReadError(line, 'a record without a label');
  return { label, fields };
}

const AMOUNT = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/** An amount (5.9) in öre. */
export function parseAmount(value: SieField | undefined, line: number): bigint {
  const m = typeof value === 'string' ? AMOUNT.exec(value) : null;
  if (!m) throw new SieReadError(line, `not an amount: ${JSON.stringify(value)}`);
  const ore = BigInt(m[2]!) * 100n + BigInt((m[3] ?? '').padEnd(2, '0') || '0');
  return m[1] ? -ore : ore;
}

/** A date (5.10) as YYYY-MM-DD. */
export function parseDate(value: SieField | undefined, line: number): string {
  if (typeof value !== 'string' || !/^\d{8}$/.test(value)) throw new SieReadError(line, `not a date: ${value}`);
  const iso = `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}`;
  const d = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso)
    throw new SieReadError(line, `no such day: ${value}`);
  return iso;
}

const text = (value: SieField | undefined, line: number): string => {
  if (typeof value !== 'string') throw new SieReadError(line, 'an object list where a text belongs');
  return value;
};

/** Reads a SIE 4 file's bytes. Throws SieReadError where the file breaks the spec. */
export function readSie(bytes: Uint8Array): SieFileRead {
  const content = decodePc8(bytes);
  if (!content.endsWith('\n')) throw new SieReadError(0, 'the last record does not end with a line feed');
  const lines = content.slice(0, -1).split('\n');
  const records: SieRecord[] = [];
  const header: Record<string, SieField[]> = {};
  const accounts = new Map<string, string>();
  const verifications: SieVerificationRead[] = [];
  let group = 0;
  let open: SieVerificationRead | null = null;
  let awaitingBrace: SieVerificationRead | null = null;
  lines.forEach((raw, index) => {
    const n = index + 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    // 5.7: no control characters (ASCII 0–31, 127); a tab separates fields
    if ([...line].some((c) => (c < ' ' && c !== '\t') || c === '\u007f'))
      throw new SieReadError(n, 'a control character');
    if (line.trim() === '') return;
    const trimmed = line.trim();
    if (awaitingBrace) {
      if (trimmed !== '{') throw new SieReadError(n, '#VER must be followed by { alone on a line');
      open = awaitingBrace;
      awaitingBrace = null;
      return;
    }
    if (trimmed === '{') throw new SieReadError(n, 'a { that opens nothing');
    if (trimmed === '}') {
      if (!open) throw new SieReadError(n, 'a } that closes nothing');
      open = null;
      return;
    }
    if (trimmed.includes('{') && !/^#[A-Z]+\s/.test(trimmed)) throw new SieReadError(n, 'a brace not alone');
    const { label, fields } = tokenize(line, n);
    if (SUB_RECORDS.has(label)) {
      if (!open) throw new SieReadError(n, `${label} outside a #VER`);
      if (label !== '#TRANS') return; // #RTRANS/#BTRANS: not written by an invoicing program
      const [account, objects, amount, date, transText] = fields;
      if (typeof account !== 'string' || !/^\d+$/.test(account))
        throw new SieReadError(n, `not an account: ${String(account)}`);
      if (!Array.isArray(objects)) throw new SieReadError(n, '#TRANS without its object list');
      if (objects.length % 2) throw new SieReadError(n, 'an object list of dimension and object pairs');
      (open as SieVerificationRead).transactions.push({
        account,
        objects,
        amount: text(amount, n),
        ore: parseAmount(amount, n),
        date: date === undefined || date === '' ? null : parseDate(date, n),
        text: transText === undefined ? null : text(transText, n),
      });
      return;
    }
    if (open) throw new SieReadError(n, `${label} inside a #VER`);
    const recordGroup = GROUP[label];
    if (recordGroup === undefined) throw new SieReadError(n, `${label} is not a SIE 4 record`);
    if (records.length === 0 && label !== '#FLAGGA') throw new SieReadError(n, 'the file must start with #FLAGGA');
    if (recordGroup < group) throw new SieReadError(n, `${label} after the records of a later group`);
    group = recordGroup;
    records.push({ line: n, label, fields });
    if (recordGroup <= 2) {
      if (header[label] && label !== '#RAR') throw new SieReadError(n, `${label} twice`);
      header[label] = fields;
    }
    if (label === '#KONTO') {
      const [number, name] = fields;
      if (typeof number !== 'string' || !/^\d+$/.test(number)) throw new SieReadError(n, 'a #KONTO without a number');
      accounts.set(number, text(name, n));
    }
    if (label === '#VER') {
      const [series, number, date, verText] = fields;
      const ver: SieVerificationRead = {
        line: n,
        series: text(series, n),
        number: text(number, n),
        date: parseDate(date, n),
        text: verText === undefined ? null : text(verText, n),
        transactions: [],
      };
      verifications.push(ver);
      awaitingBrace = ver;
    }
  });
  if (awaitingBrace || open) throw new SieReadError(lines.length, 'a #VER is not closed');
  return { records, header, accounts, verifications };
}

/** Öre as "1234.50" (for messages and totals). */
export function formatOre(ore: bigint): string {
  const abs = ore < 0n ? -ore : ore;
  return `${ore < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}
