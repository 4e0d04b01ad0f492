import { writeXml, xmlElement, type XmlElement } from '~/core/xml/xml-writer';
import { decimalText, isPaxmlTimeCode, type PayrollEmployee, type PayrollLine } from './payroll-lines';

/**
 * The payroll lines as a PAXml 2.0 file (paxml-2.0.xsd beside this file; element and attribute
 * names as the schema spells them). Time under one of PAXml's time codes is a `tidtrans` (tidkod,
 * datum, timmar); everything else — compensation, mileage and time under the office's own codes —
 * is a `lonetrans` with the code as `lonart` and antal, apris and belopp. Each transaction names
 * the person by `anstid` and carries a running `postid`.
 */

export const PAXML_SCHEMA_LOCATION = 'http://www.paxml.se/2.0/paxml.xsd';
export const PAXML_CONTENT_TYPE = 'application/xml; charset=utf-8';

export interface PaxmlHeader {
  companyName: string;
  /** The company's organisation number (foretagorgnr: at most 12 characters). */
  orgNr: string | null;
  createdAt: Date;
  /** YYYY-MM */
  month: string;
}

/** A text element, or nothing for an empty value. */
const el = (name: string, value: string | null | undefined): XmlElement | null =>
  value === null || value === undefined || value === '' ? null : xmlElement(name, {}, [value]);

const present = (e: XmlElement | null): e is XmlElement => e !== null;

/** foretagorgnr holds 12 characters: the number as typed when it fits, its digits when they do. */
function orgNrText(orgNr: string | null): string | null {
  const typed = orgNr?.trim() ?? '';
  if (!typed) return null;
  if (typed.length <= 12) return typed;
  const digits = typed.replace(/\D/g, '');
  return digits.length > 0 && digits.length <= 12 ? digits : null;
}

export function writePaxml(
  head: PaxmlHeader,
  people: readonly PayrollEmployee[],
  lines: readonly PayrollLine[],
): string {
  const anstid = new Map(people.map((p) => [p.userId, p.employeeNumber]));
  const order = new Map(people.map((p, i) => [p.userId, i]));
  const sorted = [...lines]
    .filter((l) => anstid.has(l.userId))
    .sort((a, b) => order.get(a.userId)! - order.get(b.userId)!);
  const isTime = (l: PayrollLine) => (l.kind === 'work' || l.kind === 'absence') && isPaxmlTimeCode(l.code);
  // postid runs through the file in the order written: the time transactions, then the salary ones
  let postid = 0;
  const attrs = (l: PayrollLine) => ({ postid: String(++postid), anstid: anstid.get(l.userId)! });
  const time = sorted
    .filter(isTime)
    .map((l) =>
      xmlElement(
        'tidtrans',
        attrs(l),
        [el('tidkod', l.code), el('datum', l.date), el('timmar', decimalText(l.quantity))].filter(present),
      ),
    );
  const salary = sorted
    .filter((l) => !isTime(l))
    .map((l) =>
      xmlElement(
        'lonetrans',
        attrs(l),
        [
          el('lonart', l.code),
          el('datum', l.date),
          el('antal', decimalText(l.quantity)),
          el('apris', l.unitPrice === null ? null : decimalText(l.unitPrice)),
          el('belopp', l.amount === null ? null : decimalText(l.amount)),
          el('kommentar', l.comment),
        ].filter(present),
      ),
    );
  const header = xmlElement(
    'header',
    {},
    [
      el('format', 'LÖNIN'),
      el('version', '2.0'),
      el('datum', head.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z')),
      el('foretagorgnr', orgNrText(head.orgNr)),
      el('foretagnamn', head.companyName),
      el('programnamn', 'Ordo'),
      el('info', `Löneunderlag ${head.month}`),
    ].filter(present),
  );
  const root = xmlElement(
    'paxml',
    {
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      'xsi:noNamespaceSchemaLocation': PAXML_SCHEMA_LOCATION,
    },
    [
      header,
      time.length ? xmlElement('tidtransaktioner', {}, time) : null,
      salary.length ? xmlElement('lonetransaktioner', {}, salary) : null,
    ].filter(present),
  );
  return writeXml(root, { encoding: 'UTF-8', newline: '\n', indent: '  ' });
}
