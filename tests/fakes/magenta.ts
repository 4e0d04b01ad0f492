import type { ErpFile } from '~/core/extension-points/erp-provider';
import type { ErpFakeControl } from '~/tests/erp-contract/erp-contract';

/*
 * The receiving side of plugins/erp-magenta: what Magenta Fakturering's "webborderkoppling" does with
 * the web-order e-mail, as a checker. Magenta has no API, so nothing is served; importFile reads the
 * message with a parser of its own and answers the order as Magenta reads it, or throws what it would
 * refuse.
 *
 * Sources (found with the search tool, pages corpus):
 * - https://www.magenta.se/for-programutvecklare.html ("För programutvecklare – Webborderkoppling"):
 *   the format, by its example: the markers [Till Magentas inkorg], [Orderrader börjar],
 *   [Orderrader slutar], [MEDDELANDET SLUT]; the fields Momskod_Huvud, Rad_Artikelnr, Rad_Benämning,
 *   Rad_Antal, Rad_Apris, Rad_Belopp, Frakt, FakturaAvgift, SummaExklMoms, TotaltFöreAvrundning,
 *   Öresavrundning, TotaltAttBetala, Fakturatyp, Leveranssätt, Leveransvillkor, Ordernr, Firmanamn,
 *   Co_avd, Adress, Postadress, LevAdress, LevPostadress, DerasRef; "the number of blanks and the
 *   order of the lines is fairly free, but at most one item per line"; rows with a decimal comma
 *   (55,00), the head's figures with a decimal point (96.75); the order is an e-mail to a dedicated
 *   robot address that only Magenta reads; the module "Webborderkoppling" of Magenta Fakturering.
 * - https://magenta.se/support/fragor-svar.html and https://magenta.se/elektronisk-faktura.html:
 *   Magenta is a Windows program; it makes Svefaktura / BIS Billing 3.0 e-invoices and receives BIS
 *   Billing 3.0 in Magenta Leverantörsreskontra; ROT and RUT are handled in Magenta's own invoices.
 *
 * Not found, so the checker's own choices: the full template "magentamall.txt" the page links to
 * (so no other field is accepted); what each Momskod_Huvud number means (any whole number is taken);
 * whether TotaltFöreAvrundning includes VAT (the example has none: the checker only demands that it
 * is at least SummaExklMoms and that it plus Öresavrundning is TotaltAttBetala); whether a row may
 * have an empty Rad_Artikelnr (taken: a free row, and with zero quantity a text row); the e-mail's
 * encoding (UTF-8, declared in the message's Content-Type, is required here).
 */

export interface MagentaOrderRow {
  Rad_Artikelnr: string;
  Rad_Benämning: string;
  Rad_Antal: string;
  Rad_Apris: string;
  Rad_Belopp: string;
}

export interface MagentaOrder {
  subject: string | null;
  head: Record<string, string>;
  rows: MagentaOrderRow[];
}

export class MagentaImportError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Magenta refuses the web order:\n- ${problems.join('\n- ')}`);
    this.name = 'MagentaImportError';
    this.problems = problems;
  }
}

const ROW_FIELDS = ['Rad_Artikelnr', 'Rad_Benämning', 'Rad_Antal', 'Rad_Apris', 'Rad_Belopp'] as const;
const HEAD_FIELDS = [
  'Momskod_Huvud',
  'Frakt',
  'FakturaAvgift',
  'SummaExklMoms',
  'TotaltFöreAvrundning',
  'Öresavrundning',
  'TotaltAttBetala',
  'Fakturatyp',
  'Leveranssätt',
  'Leveransvillkor',
  'Ordernr',
  'Firmanamn',
  'Co_avd',
  'Adress',
  'Postadress',
  'LevAdress',
  'LevPostadress',
  'DerasRef',
];
const MONEY = /^-?\d+([.,]\d{1,2})?$/;
const QUANTITY = /^-?\d+([.,]\d{1,3})?$/;

/** Öre (or thousandths for quantities) as bigint, from "55,00" or "96.75". */
function scaled(text: string, scale: number): bigint {
  const [int, frac = ''] = text.replace(',', '.').split('.');
  const neg = int!.startsWith('-');
  const units = BigInt(int!.replace('-', '') + frac.padEnd(scale, '0'));
  return neg ? -units : units;
}

/** Reads a web-order e-mail as Magenta's webborderkoppling would; throws MagentaImportError. */
export function readMagentaWebOrder(file: ErpFile): MagentaOrder {
  const problems: string[] = [];
  const raw = file.body;
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new MagentaImportError(['not an e-mail message: no blank line after the headers']);
  const headerText = raw.subarray(0, split).toString('latin1');
  const headers = new Map<string, string>();
  for (const line of headerText.split('\r\n')) {
    const at = line.indexOf(':');
    if (at > 0) headers.set(line.slice(0, at).toLowerCase(), line.slice(at + 1).trim());
  }
  const type = headers.get('content-type') ?? '';
  if (!/^text\/plain/i.test(type)) problems.push(`the message is not plain text (${type || 'no Content-Type'})`);
  if (!/charset=utf-8/i.test(type)) problems.push('the message does not declare charset=UTF-8');
  const body = raw.subarray(split + 4);
  const text = body.toString('utf8');
  if (Buffer.from(text, 'utf8').compare(body) !== 0) problems.push('the body is not valid UTF-8');
  const subjectHeader = headers.get('subject') ?? null;
  const subject = subjectHeader
    ? subjectHeader.replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_, b64: string) =>
        Buffer.from(b64, 'base64').toString('utf8'),
      )
    : null;

  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const start = lines.indexOf('[Till Magentas inkorg]');
  const end = lines.indexOf('[MEDDELANDET SLUT]');
  if (start < 0) problems.push('no [Till Magentas inkorg] marker');
  if (end < 0 || end < start) problems.push('no [MEDDELANDET SLUT] marker after it');
  if (problems.length) throw new MagentaImportError(problems);

  const head: Record<string, string> = {};
  const rows: MagentaOrderRow[] = [];
  let inRows = false;
  let rowsSeen = false;
  for (const [n, line] of lines.slice(start + 1, end).entries()) {
    const where = `line ${start + 2 + n}`;
    if (!line) continue;
    if (line === '[Orderrader börjar]') {
      if (rowsSeen) problems.push(`${where}: a second [Orderrader börjar]`);
      inRows = rowsSeen = true;
      continue;
    }
    if (line === '[Orderrader slutar]') {
      if (!inRows) problems.push(`${where}: [Orderrader slutar] without [Orderrader börjar]`);
      inRows = false;
      continue;
    }
    if (line.startsWith('[')) {
      problems.push(`${where}: unknown marker ${line}`);
      continue;
    }
    const m = /^([A-Za-zÅÄÖåäö_]+):(.*)$/.exec(line);
    if (!m) {
      problems.push(`${where}: not "Field: value" (${line.slice(0, 40)})`);
      continue;
    }
    const [, field, rest] = m;
    const v = rest!.trim();
    if (HEAD_FIELDS.concat(ROW_FIELDS).some((f) => v.includes(`${f}:`)))
      problems.push(`${where}: more than one item on the line`);
    if (inRows) {
      if (!(ROW_FIELDS as readonly string[]).includes(field!)) {
        problems.push(`${where}: unknown row field ${field}`);
        continue;
      }
      if (field === 'Rad_Artikelnr') rows.push({ Rad_Artikelnr: v } as MagentaOrderRow);
      else if (!rows.length) problems.push(`${where}: ${field} before the row's Rad_Artikelnr`);
      else {
        const row = rows[rows.length - 1]! as unknown as Record<string, string>;
        if (row[field!] !== undefined) problems.push(`${where}: ${field} twice in one row`);
        row[field!] = v;
      }
      continue;
    }
    if (!HEAD_FIELDS.includes(field!)) problems.push(`${where}: unknown field ${field}`);
    else if (head[field!] !== undefined) problems.push(`${where}: ${field} given twice`);
    else head[field!] = v;
  }
  if (inRows) problems.push('[Orderrader slutar] is missing');
  if (!rows.length) problems.push('the order has no rows');

  if (!/^\d+$/.test(head.Momskod_Huvud ?? '')) problems.push('Momskod_Huvud must be a VAT code number');
  if (!head.Firmanamn) problems.push('Firmanamn is missing');
  if (!head.Ordernr) problems.push('Ordernr is missing');
  if (head.Fakturatyp !== undefined && !/^[A-Z]$/.test(head.Fakturatyp)) problems.push('Fakturatyp must be one letter');
  const money: Record<string, bigint> = {};
  for (const f of [
    'Frakt',
    'FakturaAvgift',
    'SummaExklMoms',
    'TotaltFöreAvrundning',
    'Öresavrundning',
    'TotaltAttBetala',
  ]) {
    const v = head[f];
    if (v === undefined || v === '') continue;
    if (!MONEY.test(v)) problems.push(`${f} is not an amount (${v})`);
    else money[f] = scaled(v, 2);
  }
  let sum = 0n;
  rows.forEach((row, i) => {
    const what = `row ${i + 1}`;
    for (const f of ROW_FIELDS)
      if ((row as unknown as Record<string, string>)[f] === undefined) problems.push(`${what}: ${f} is missing`);
    if (!row.Rad_Benämning) problems.push(`${what}: Rad_Benämning is empty`);
    if (row.Rad_Antal !== undefined && !QUANTITY.test(row.Rad_Antal))
      problems.push(`${what}: Rad_Antal is not a number`);
    if (row.Rad_Apris !== undefined && !MONEY.test(row.Rad_Apris)) problems.push(`${what}: Rad_Apris is not an amount`);
    if (row.Rad_Belopp !== undefined && !MONEY.test(row.Rad_Belopp))
      problems.push(`${what}: Rad_Belopp is not an amount`);
    if (problems.length) return;
    const amount = scaled(row.Rad_Antal, 3) * scaled(row.Rad_Apris, 2); // thousandths × öre
    const belopp = scaled(row.Rad_Belopp, 2);
    // Rad_Belopp is Rad_Antal × Rad_Apris, to the öre.
    const exact = (amount * 2n + (amount < 0n ? -1000n : 1000n)) / 2000n;
    if (exact !== belopp) problems.push(`${what}: Rad_Belopp ${row.Rad_Belopp} is not Rad_Antal × Rad_Apris`);
    if (!row.Rad_Artikelnr && belopp === 0n && scaled(row.Rad_Antal, 3) !== 0n)
      problems.push(`${what}: a text row has no quantity`);
    sum += belopp;
  });
  if (!problems.length) {
    const net = sum + (money.Frakt ?? 0n) + (money.FakturaAvgift ?? 0n);
    if (money.SummaExklMoms !== undefined && money.SummaExklMoms !== net)
      problems.push(`SummaExklMoms ${head.SummaExklMoms} is not the rows, Frakt and FakturaAvgift (${net})`);
    const before = money.TotaltFöreAvrundning;
    if (before !== undefined && money.SummaExklMoms !== undefined && before < money.SummaExklMoms)
      problems.push('TotaltFöreAvrundning is less than SummaExklMoms');
    if (
      before !== undefined &&
      money.TotaltAttBetala !== undefined &&
      before + (money.Öresavrundning ?? 0n) !== money.TotaltAttBetala
    )
      problems.push('TotaltFöreAvrundning and Öresavrundning do not make TotaltAttBetala');
    const rounding = money.Öresavrundning ?? 0n;
    if (rounding <= -100n || rounding >= 100n) problems.push('Öresavrundning is a krona or more');
  }
  if (problems.length) throw new MagentaImportError(problems);
  return { subject, head, rows };
}

/** The checker in the shape the contract suite drives (nothing to count: the order lands in Magenta). */
export function startMagentaFake(): ErpFakeControl & { imported: MagentaOrder[] } {
  const imported: MagentaOrder[] = [];
  return {
    imported,
    importFile(file) {
      const order = readMagentaWebOrder(file);
      imported.push(order);
      return order;
    },
    invoiceCount: () => imported.length,
    customerCount: () => 0,
    articleCount: () => 0,
    invoice: () => null,
    expireAccessTokens() {},
    failNext() {},
    dropNextCreateResponse() {},
    requestCount: () => 0,
    rateLimitedCount: () => 0,
    async close() {},
  };
}
