import { create } from 'xmlbuilder2';
import { assertWellFormedXml } from './xml-reader';
import { parseDecimal, type Decimal } from '~/core/pricing';

/*
 * Reading inbound UBL 2.1 documents (decisions 054 and 055): the pieces the Peppol BIS 3 invoice
 * reader (core/supplier-invoices/ubl-invoice.ts) and the Peppol Ordering order-response reader
 * (core/supplier-orders/ubl-order-response.ts) share. Elements are found by namespace and local name,
 * never by prefix: `cbc:` and `cac:` are only the usual prefixes. A DOCTYPE is refused (UBL has none,
 * and it is the door to entity expansion); a document cut short is refused.
 */

/** The UBL 2.1 common component namespaces every document type uses. */
export const UBL_COMMON_NS = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

/** The largest inbound document read (a BIS 3 invoice with an embedded PDF is a few MB). */
export const MAX_UBL_BYTES = 20 * 1024 * 1024;

/** Why a document was refused: the rule's id (the spec's where it has one) and what was wrong. */
export class UblRefusal extends Error {
  constructor(
    /** A message key: supplierinvoices' `SUPPLIER_INVOICE_<code>`, supplierorders' `refusal.<code>`. */
    readonly code:
      | 'NOT_XML'
      | 'NOT_UBL_INVOICE'
      | 'NOT_EN16931'
      | 'NOT_ORDER_RESPONSE'
      | 'NOT_PEPPOL_ORDERING'
      | 'FIELD_MISSING'
      | 'FIELD_INVALID'
      | 'NO_LINES'
      | 'TOTALS_DIFFER'
      | 'CURRENCY_DIFFERS',
    /** The business term or rule it concerns, e.g. "BT-1" or "BR-CO-15". */
    readonly rule: string,
    message: string,
  ) {
    super(message);
    this.name = 'UblRefusal';
  }
}

export interface UblParty {
  /** BT-27 (RegistrationName), else BT-28 (PartyName). */
  name: string | null;
  /** BT-30: PartyLegalEntity/CompanyID, the organisation number. */
  organizationNumber: string | null;
  /** BT-31: the VAT number. */
  vatNumber: string | null;
  /** BT-34 as "scheme:value" (e.g. "0007:5567321707"), the Peppol participant id. */
  peppolId: string | null;
}

export type El = {
  nodeType: number;
  localName: string;
  namespaceURI: string | null;
  textContent: string | null;
  childNodes: ArrayLike<El>;
  getAttribute(name: string): string | null;
};

const elements = (parent: El): El[] => Array.from(parent.childNodes).filter((n): n is El => n.nodeType === 1);

/** The children of `parent` with this UBL name ("cbc:ID", "cac:Party"). */
export function all(parent: El, name: string): El[] {
  const [prefix, local] = name.split(':') as ['cbc' | 'cac', string];
  return elements(parent).filter((e) => e.localName === local && e.namespaceURI === UBL_COMMON_NS[prefix]);
}

/** Follows a path of UBL names ("cac:Party/cac:PartyName/cbc:Name"); the first match at each step. */
export function at(parent: El | null, path: string): El | null {
  let node = parent;
  for (const step of path.split('/')) {
    if (!node) return null;
    node = all(node, step)[0] ?? null;
  }
  return node;
}

export function text(parent: El | null, path: string): string | null {
  const el = at(parent, path);
  const value = el?.textContent?.trim();
  return value ? value : null;
}

export function required(parent: El, path: string, rule: string): string {
  const value = text(parent, path);
  if (value === null) throw new UblRefusal('FIELD_MISSING', rule, `${path} (${rule}) is missing`);
  return value;
}

/** xsd:decimal, the only number syntax UBL amounts and quantities have. */
const XSD_DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export function decimal(value: string, where: string, rule: string): Decimal {
  const parsed = XSD_DECIMAL.test(value) ? parseDecimal(value) : null;
  if (!parsed) throw new UblRefusal('FIELD_INVALID', rule, `${where} (${rule}) is not a number: "${value}"`);
  return parsed;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
export function date(value: string | null, rule: string): string | null {
  if (value === null) return null;
  const d = new Date(`${value}T00:00:00Z`);
  if (!ISO_DATE.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value)
    throw new UblRefusal('FIELD_INVALID', rule, `${rule} is not a date (YYYY-MM-DD): "${value}"`);
  return value;
}

/** The party of an AccountingSupplierParty, SellerSupplierParty … element (its cac:Party). */
export function party(el: El | null): UblParty {
  if (!el) return { name: null, organizationNumber: null, vatNumber: null, peppolId: null };
  const endpoint = at(el, 'cac:Party/cbc:EndpointID');
  const scheme = endpoint?.getAttribute('schemeID')?.trim();
  const endpointId = endpoint?.textContent?.trim();
  return {
    name:
      text(el, 'cac:Party/cac:PartyLegalEntity/cbc:RegistrationName') ?? text(el, 'cac:Party/cac:PartyName/cbc:Name'),
    organizationNumber: text(el, 'cac:Party/cac:PartyLegalEntity/cbc:CompanyID'),
    vatNumber:
      text(
        all(at(el, 'cac:Party') ?? el, 'cac:PartyTaxScheme').find((t) => text(t, 'cac:TaxScheme/cbc:ID') === 'VAT') ??
          null,
        'cbc:CompanyID',
      ) ?? null,
    peppolId: endpointId ? (scheme ? `${scheme}:${endpointId}` : endpointId) : null,
  };
}

/** The document element of a whole, well-formed XML document without a DOCTYPE; else UblRefusal NOT_XML. */
export function parseDocument(xml: string): El {
  if (Buffer.byteLength(xml, 'utf8') > MAX_UBL_BYTES)
    throw new UblRefusal('NOT_XML', 'size', `the document is larger than ${MAX_UBL_BYTES / 1024 / 1024} MB`);
  const body = xml.replace(/^\uFEFF/, '');
  // the reader would take other text for YAML or JSON: an XML document starts with a tag
  if (!body.trimStart().startsWith('<')) throw new UblRefusal('NOT_XML', 'XML', 'not an XML document');
  if (/<!DOCTYPE/i.test(body)) throw new UblRefusal('NOT_XML', 'DOCTYPE', 'a document type declaration is not allowed');
  let root: El | null;
  try {
    // strict first (end tags, completeness, namespaces); the lenient DOM builder only after it
    assertWellFormedXml(body);
    root = (create(body).node as unknown as { documentElement: El | null }).documentElement;
  } catch (e) {
    throw new UblRefusal('NOT_XML', 'XML', `not well-formed XML: ${(e as Error).message}`);
  }
  if (!root) throw new UblRefusal('NOT_XML', 'XML', 'no document element');
  return root;
}
