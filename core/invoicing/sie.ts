import iconv from 'iconv-lite';
import { formatDecimal, isZero, sum, type Money } from '~/core/pricing';

/*
 * SIE 4, type 4I (issue 15 item 3): verifications for an accounting program to import, written as
 * SIE-Gruppen's "SIE filformat, utgåva 4B" (2008-09-30, sie.se) says. What this module follows:
 *
 * - 4.7, 5.1: type 4 carries transactions; a file meant for import into the books is "4I" and is
 *   named .SI (5.2 suggests FAKT.SI for an invoicing program).
 * - 6 (the table of records): in 4I, #FLAGGA, #PROGRAM, #FORMAT, #GEN, #SIETYP and #FNAMN are
 *   required; #ORGNR, #KPTYP, #VALUTA, #KONTO and #RAR are optional; balances (#IB, #UB, #RES,
 *   #PSALDO) and #BKOD, #OMFATTN may not appear. #RAR is left out: it names the financial year,
 *   which Ordo does not know, and an export period is not one. Accounts "should" be declared with
 *   #KONTO even though it is optional, so the importer need not have them: we declare the BAS
 *   accounts we chose by default (with BAS's names) and leave the tenant's own choices undeclared
 *   (they exist in the tenant's chart under names we do not know; KONTO 6 would flag a mismatch).
 * - 5.12: records in the order flag, identification, chart of accounts, verifications.
 * - 5.4: sub-records (a verification's #TRANS rows) go between { and }, each brace alone on a line.
 * - 5.5: every record ends with a line feed (ASCII 10); a carriage return before it is allowed
 *   (we write CR LF, the line end of the PC programs the format was made for).
 * - 5.7: fields are separated by spaces; any field may be quoted and must be when it holds a
 *   space; a quotation mark inside a field is preceded by a backslash; no control characters
 *   (ASCII 0–31, 127) inside a text. The spec defines no escape for the backslash itself, so a
 *   backslash in a text is written as "/" (else `\"` at a text's end would swallow its quote).
 * - 5.8, #FORMAT: the character set is IBM PC 8-bit extended ASCII, code page 437 ("PC8").
 * - 5.9: amounts with a point and at most two decimals, a leading minus, never a plus.
 * - 5.10: dates YYYYMMDD.
 * - #FLAGGA 0 (written as 0; the importer sets 1). #SIETYP 4. #PROGRAM name version. #GEN date
 *   sign. #FNAMN the legal name. #ORGNR with a hyphen after the sixth digit. #KPTYP: a BAS 20xx
 *   chart is declared EUBAS97. #VALUTA (ISO 4217) only when not SEK, which an importer assumes.
 * - #VER serie verno verdatum vertext: the verification's series and number (4I allows both
 *   empty, 6); numbered verifications of a series in ascending order (7). #TRANS kontonr
 *   {objektlista} belopp: the object list may be empty ({}), transdat and transtext may be left
 *   out (the verification's date applies); the amounts of a verification sum to zero (#TRANS 4).
 *
 * The spec is sie.se/wp-content/uploads/2020/05/SIE_filformat_ver_4B_080930.pdf, read as a text
 * transcription of all 37 pages kept in a public repository. Code page 437 is iconv-lite's (Unicode's
 * mapping, unicode.org/Public/MAPPINGS/VENDORS/MICSFT/PC/CP437.TXT), checked byte for byte in the
 * tests against the SIE reader's own table.
 */

export interface SieTransaction {
  /** A BAS account number: digits only (KONTO 2). */
  account: string;
  /** Debit positive, credit negative, two decimals. */
  amount: Money;
}

export interface SieVerification {
  series: string;
  number: string;
  /** YYYY-MM-DD */
  date: string;
  text: string;
  transactions: SieTransaction[];
}

export interface SieDocument {
  program: { name: string; version: string };
  /** The day the file is made (YYYY-MM-DD) and who made it (#GEN sign; may be null). */
  generated: { date: string; sign: string | null };
  company: { name: string; orgNr: string | null };
  /** ISO 4217; SEK is what an importer assumes, so only another currency is written. */
  currency: string;
  /** Accounts declared with #KONTO, in this order. */
  accounts: { number: string; name: string }[];
  verifications: SieVerification[];
}

/**
 * What #PROGRAM says: the exporter and the version of its file (bump it when the content changes).
 * One for every SIE file Ordo makes (the period export, Visma Administration's invoice file).
 */
export const SIE_PROGRAM = { name: 'Ordo', version: '1.0' };

/** SIE's "PC8": the IBM PC character set, code page 437 (5.8). */
export const SIE_CONTENT_TYPE = 'text/plain; charset=IBM437';

// ---- code page 437 ----

/**
 * The characters of bytes 0x80–0xFF, as iconv-lite's code page 437 has them (Unicode's mapping;
 * decision 045). Below them, SIE writes printable ASCII only.
 */
const CP437_HIGH = new Set(iconv.decode(Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i)), 'cp437'));

const isPrintableAscii = (cp: number) => cp >= 0x20 && cp <= 0x7e;
const encodable = (ch: string) => isPrintableAscii(ch.codePointAt(0)!) || CP437_HIGH.has(ch);

/**
 * Text as code page 437 bytes (iconv-lite). Strict: a character the code page lacks, or a control
 * character other than CR and LF, is a programming error here (texts go through `cp437Text` first),
 * where iconv-lite alone would write "?" or the control byte.
 */
export function encodeCp437(text: string): Buffer {
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (!encodable(ch) && cp !== 0x0a && cp !== 0x0d)
      throw new RangeError(`U+${cp.toString(16).padStart(4, '0')} is not in code page 437`);
  }
  return iconv.encode(text, 'cp437');
}

/** Letters code page 437 lacks, spelt with the ones it has. */
const SPELLED: Record<string, string> = {
  '€': 'EUR',
  '–': '-',
  '—': '-',
  '‐': '-',
  '‑': '-',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '“': '"',
  '”': '"',
  '„': '"',
  '…': '...',
  '•': '*',
  '×': 'x',
  Ø: 'O',
  ø: 'o',
  Đ: 'D',
  đ: 'd',
  Ł: 'L',
  ł: 'l',
  Œ: 'OE',
  œ: 'oe',
  Þ: 'Th',
  þ: 'th',
};

/** Russian letters in a plain Latin spelling, for customer names written in Cyrillic. */
const CYRILLIC =
  'а a б b в v г g д d е e ё e ж zh з z и i й j к k л l м m н n о o п p р r с s т t у u ф f х h ц c ч ch ш sh щ shch ъ _ ы y ь _ э e ю ju я ja';
const CYRILLIC_LATIN = new Map<string, string>();
{
  const pairs = CYRILLIC.split(' ');
  for (let i = 0; i < pairs.length; i += 2) {
    const [cyr, latin] = [pairs[i]!, pairs[i + 1] === '_' ? '' : pairs[i + 1]!];
    CYRILLIC_LATIN.set(cyr, latin);
    CYRILLIC_LATIN.set(cyr.toUpperCase(), latin.charAt(0).toUpperCase() + latin.slice(1));
  }
}

/**
 * A text made of what code page 437 can hold, ready for a field: spaces for control characters
 * and other spacing (5.7: no control characters in a text), Swedish letters and the rest of the
 * code page as they are, other Latin letters without their accents (š → s, ā → a, õ → o), some
 * signs spelt out (€ → EUR), Russian letters transliterated, anything else "?".
 */
export function cp437Text(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (encodable(ch) && cp !== 0xa0) out += ch;
    else if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0) || /\s/u.test(ch)) out += ' ';
    else if (SPELLED[ch] !== undefined) out += SPELLED[ch];
    else if (CYRILLIC_LATIN.has(ch)) out += CYRILLIC_LATIN.get(ch);
    else {
      const bare = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      out += bare && [...bare].every(encodable) ? bare : '?';
    }
  }
  return out;
}

// ---- fields ----

/** A quoted text field (5.7): CP437 text, `"` preceded by a backslash, a backslash as "/". */
export function sieText(text: string): string {
  return `"${cp437Text(text).replace(/\\/g, '/').replace(/"/g, '\\"')}"`;
}

/** YYYY-MM-DD as SIE's YYYYMMDD (5.10). */
export function sieDate(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new RangeError(`not a date: ${date}`);
  return date.replace(/-/g, '');
}

/** An amount as 5.9 wants it: a point, two decimals, a leading minus, no plus. */
export const sieAmount = (amount: Money): string => formatDecimal(amount, 2);

/**
 * An organisation number as #ORGNR wants it: a hyphen after the sixth digit. A personal identity
 * number with its century (a sole trader's, 12 digits) loses the century. Null when the text is not
 * a Swedish organisation or identity number.
 */
export function sieOrgNr(value: string | null | undefined): string | null {
  const digits = (value ?? '').replace(/[\s-]/g, '');
  const ten = /^\d{10}$/.test(digits) ? digits : /^(16|18|19|20)\d{10}$/.test(digits) ? digits.slice(2) : null;
  return ten ? `${ten.slice(0, 6)}-${ten.slice(6)}` : null;
}

const ACCOUNT = /^\d{4,6}$/;

// ---- the file ----

/**
 * The SIE 4I file as text (encode it with `encodeCp437`). Refuses a verification that does not
 * balance or has no rows, and an account that is not a number: those are programming errors, the
 * file would be refused or, worse, imported wrong.
 */
export function buildSie(doc: SieDocument): string {
  const lines: string[] = [
    '#FLAGGA 0',
    '#FORMAT PC8',
    '#SIETYP 4',
    `#PROGRAM ${sieText(doc.program.name)} ${sieText(doc.program.version)}`,
    `#GEN ${sieDate(doc.generated.date)}${doc.generated.sign ? ` ${sieText(doc.generated.sign)}` : ''}`,
    `#FNAMN ${sieText(doc.company.name)}`,
  ];
  const orgNr = sieOrgNr(doc.company.orgNr);
  if (orgNr) lines.push(`#ORGNR ${orgNr}`);
  lines.push('#KPTYP EUBAS97');
  if (doc.currency !== 'SEK') {
    if (!/^[A-Z]{3}$/.test(doc.currency)) throw new RangeError(`not an ISO 4217 code: ${doc.currency}`);
    lines.push(`#VALUTA ${doc.currency}`);
  }
  for (const account of doc.accounts) {
    if (!ACCOUNT.test(account.number)) throw new RangeError(`not an account number: ${account.number}`);
    lines.push(`#KONTO ${account.number} ${sieText(account.name)}`);
  }
  for (const v of doc.verifications) {
    if (!v.transactions.length) throw new RangeError(`verification ${v.series} ${v.number} has no rows`);
    const total = sum(v.transactions.map((t) => t.amount));
    if (!isZero(total))
      throw new RangeError(`verification ${v.series} ${v.number} does not balance: ${formatDecimal(total)}`);
    lines.push(`#VER ${sieText(v.series)} ${sieText(v.number)} ${sieDate(v.date)} ${sieText(v.text)}`, '{');
    for (const t of v.transactions) {
      if (!ACCOUNT.test(t.account)) throw new RangeError(`not an account number: ${t.account}`);
      lines.push(`#TRANS ${t.account} {} ${sieAmount(t.amount)}`);
    }
    lines.push('}');
  }
  return lines.map((l) => `${l}\r\n`).join('');
}
