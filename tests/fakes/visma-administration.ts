import type { ErpFile } from '~/core/extension-points/erp-provider';
import type { ErpFakeControl } from '~/tests/erp-contract/erp-contract';
import {
  formatOre,
  readSie,
  SieReadError,
  type SieField,
  type SieFileRead,
  type SieVerificationRead,
} from '~/tests/helpers/sie-reader';

/*
 * The receiving side of the visma-xml file (plugins/erp-visma): what Visma Administration's SIE
 * import ("Arkiv → Importera", vismaspcs.se Visma Administration 2000 online help,
 * kommando-importera.htm: the program checks the SIE file before importing and names the record
 * that is wrong) does with it, as a checker. Visma Administration has no API, so there is nothing to
 * serve: the "fake" reads a file with the tests' own SIE reader (tests/helpers/sie-reader.ts,
 * written from the spec, not from Ordo's writer) and checks it against the format's rules.
 *
 * The rules, from SIE-Gruppen's "SIE filformat, utgåva 4B" (2008-09-30,
 * sie.se/wp-content/uploads/2020/05/SIE_filformat_ver_4B_080930.pdf), by section:
 *
 * - 5.2: a file for import into the books is type 4I and named .SI.
 * - 5.8 and #FORMAT: the character set is PC8 (IBM code page 437), so the file says #FORMAT PC8
 *   and is served as such; the reader decodes the bytes with its own table.
 * - 5.5–5.7: records end with LF (CR allowed), fields are space separated and may be quoted, no
 *   control characters in a text (the reader throws on what breaks them).
 * - 5.12 and #FLAGGA: #FLAGGA first, 0 for a file not yet imported (the importer sets 1); records
 *   in the order identification, chart of accounts, verifications (the reader checks the order).
 * - 6 (which records each type has): in 4I #FLAGGA, #PROGRAM, #FORMAT, #GEN, #SIETYP and #FNAMN
 *   are required; balances (#IB, #UB, #OIB, #OUB, #RES, #PSALDO, #PBUDGET) and #BKOD, #OMFATTN may
 *   not appear. #SIETYP is 4.
 * - #PROGRAM programnamn version; #GEN datum [sign]; #ORGNR with a hyphen after the sixth digit.
 * - 5.9, 5.10: amounts with a point and at most two decimals, dates YYYYMMDD (the reader).
 * - #VER serie verno verdatum vertext (4I may leave series and number empty, 6); its #TRANS rows
 *   between { and } (5.4) with kontonr {objektlista} belopp; #TRANS 4: a verification's amounts
 *   sum to zero. #KONTO kontonr kontonamn: an account number is digits.
 *
 * Visma's own rule on top (the same help page): a file with errors is not imported at all.
 */

export interface VismaImportedFile {
  fileName: string;
  sie: SieFileRead;
}

export class VismaImportError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Visma Administration refuses the file:\n- ${problems.join('\n- ')}`);
    this.name = 'VismaImportError';
    this.problems = problems;
  }
}

const REQUIRED_4I = ['#FLAGGA', '#PROGRAM', '#FORMAT', '#GEN', '#SIETYP', '#FNAMN'];
const FORBIDDEN_4I = ['#IB', '#UB', '#OIB', '#OUB', '#RES', '#PSALDO', '#PBUDGET', '#BKOD', '#OMFATTN'];
const text = (f: SieField | undefined) => (typeof f === 'string' ? f : null);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function checkVerification(v: SieVerificationRead, problems: string[]) {
  const where = `#VER on line ${v.line}`;
  if (v.series !== '' && !/^[A-Za-z0-9]+$/.test(v.series)) problems.push(`${where}: series ${v.series}`);
  if (v.number !== '' && !/^\d+$/.test(v.number)) problems.push(`${where}: number ${v.number}`);
  if (v.transactions.length < 2) problems.push(`${where}: a verification of fewer than two rows`);
  const balance = v.transactions.reduce((s, t) => s + t.ore, 0n);
  if (balance !== 0n) problems.push(`${where}: the rows sum to ${formatOre(balance)}, not 0.00`);
  for (const t of v.transactions)
    if (!/^\d{4,6}$/.test(t.account)) problems.push(`${where}: account ${t.account} is not an account number`);
}

/** Reads a file as Visma Administration's SIE import would; throws VismaImportError with every problem found. */
export function checkVismaAdministrationFile(file: ErpFile): SieFileRead {
  const problems: string[] = [];
  if (!/\.si$/i.test(file.fileName)) problems.push(`${file.fileName} is not named .SI (a 4I file for import)`);
  if (!/charset=IBM437/i.test(file.contentType)) problems.push(`the file is ${file.contentType}, not PC8 (IBM437)`);
  let sie: SieFileRead;
  try {
    sie = readSie(file.body);
  } catch (err) {
    if (!(err instanceof SieReadError)) throw err;
    throw new VismaImportError([...problems, err.message]);
  }
  const h = sie.header;
  for (const label of REQUIRED_4I) if (!h[label]) problems.push(`${label} is required in a 4I file`);
  for (const r of sie.records)
    if (FORBIDDEN_4I.includes(r.label)) problems.push(`${r.label} (line ${r.line}) may not appear in a 4I file`);
  if (text(h['#FLAGGA']?.[0]) !== '0') problems.push('#FLAGGA must be 0 in a file not yet imported');
  if (h['#FORMAT'] && text(h['#FORMAT'][0]) !== 'PC8') problems.push(`#FORMAT is ${String(h['#FORMAT'][0])}, not PC8`);
  if (h['#SIETYP'] && text(h['#SIETYP'][0]) !== '4') problems.push(`#SIETYP is ${String(h['#SIETYP'][0])}, not 4`);
  if (h['#PROGRAM'] && (!text(h['#PROGRAM'][0]) || !text(h['#PROGRAM'][1])))
    problems.push('#PROGRAM needs a name and a version');
  if (h['#GEN'] && !/^\d{8}$/.test(text(h['#GEN'][0]) ?? '')) problems.push('#GEN needs a date');
  if (h['#FNAMN'] && !text(h['#FNAMN'][0])?.trim()) problems.push('#FNAMN is empty');
  if (h['#ORGNR'] && !/^\d{6}-\d{4}$/.test(text(h['#ORGNR'][0]) ?? ''))
    problems.push(`#ORGNR ${String(h['#ORGNR'][0])} is not NNNNNN-NNNN`);
  if (!sie.verifications.length) problems.push('a 4I file without verifications');
  for (const v of sie.verifications) checkVerification(v, problems);
  if (problems.length) throw new VismaImportError(problems);
  return sie;
}

/** The checker plus what the ERP contract suite asks of a fake; the file plugin has no API, so most of it is idle. */
export interface VismaAdministrationFake extends ErpFakeControl {
  /** Imports a file as the tenant does in Visma Administration: checked, then its verifications kept. */
  importFile(file: ErpFile): SieFileRead;
  imported(): VismaImportedFile[];
}

export function startVismaAdministrationFake(): VismaAdministrationFake {
  const files: VismaImportedFile[] = [];
  const verifications = () => files.flatMap((f) => f.sie.verifications);
  return {
    importFile(file) {
      const sie = checkVismaAdministrationFile(file);
      files.push({ fileName: file.fileName, sie });
      return sie;
    },
    imported: () => [...files],
    // A verification carries no idempotency key; the key here is the invoice number its text names.
    invoiceCount: (key) =>
      key === undefined
        ? verifications().length
        : verifications().filter((v) => new RegExp(`^(Kredit)?[Ff]aktura ${escape(key)}( |$)`).test(v.text ?? ''))
            .length,
    // A verification has no customer or article register.
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
