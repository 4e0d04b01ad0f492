import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as fxp from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { buildPeppolDocument, type PeppolInvoiceInput, type PeppolParty } from '~/core/invoicing/peppol';
import { add, compare, formatDecimal, sum } from '~/core/pricing';
import { parseUblInvoice, UblRefusal } from './ubl-invoice';

/*
 * The inbound e-invoice reader (issue 33 item 1) against the official Peppol BIS Billing 3.0
 * examples — OpenPEPPOL/peppol-bis-invoice-3 `rules/examples/base-example.xml` and
 * `base-creditnote-correction.xml`, kept in tests/fixtures/peppol/examples (their source and commit
 * in that folder's README) — against a document Ordo's own Peppol writer makes, and refusing broken
 * ones with the rule they break. What the reader finds is checked against a second, independent XML
 * reader (fast-xml-parser) and against the EN 16931 arithmetic, not against numbers typed here.
 */

const EXAMPLES = path.resolve(import.meta.dirname, '../../tests/fixtures/peppol/examples');
const example = (name: string) => readFileSync(path.join(EXAMPLES, name), 'utf8');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The same document read by another library, prefixes removed: the independent view of its values. */
function independent(xml: string): Json {
  const parsed = fxp.parse(xml, {
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    ignoreNameSpace: true,
    parseNodeValue: false,
    parseAttributeValue: false,
  }) as Json;
  return (parsed.Invoice ?? parsed.CreditNote) as Json;
}
const valueOf = (v: unknown): string => String(typeof v === 'object' && v !== null ? (v as Json)['#text'] : v);
const asArray = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

function expectAddsUp(doc: ReturnType<typeof parseUblInvoice>) {
  // the rows (lines, allowances and charges) make the total without VAT; with VAT and rounding, the amount due
  expect(compare(sum(doc.lines.map((l) => l.total)), doc.totalPrice)).toBe(0);
  expect(compare(add(add(doc.totalPrice, doc.totalVat), doc.rounding), doc.total)).toBe(0);
}

describe('[supplier invoices] reading a Peppol BIS 3 invoice', () => {
  it("reads Peppol's base example as the document states it", () => {
    const xml = example('base-example.xml');
    const doc = parseUblInvoice(xml);
    const other = independent(xml);
    expect(doc.type).toBe('invoice');
    expect(doc.invoiceNumber).toBe(valueOf(other.ID));
    expect(doc.issueDate).toBe(valueOf(other.IssueDate));
    expect(doc.dueDate).toBe(valueOf(other.DueDate));
    expect(doc.currency).toBe(valueOf(other.DocumentCurrencyCode));
    expect(doc.buyerReference).toBe(valueOf(other.BuyerReference));
    expect(doc.paymentId).toBe(valueOf(other.PaymentMeans.PaymentID));
    const party = other.AccountingSupplierParty.Party;
    expect(doc.seller).toEqual({
      name: valueOf(party.PartyLegalEntity.RegistrationName),
      organizationNumber: valueOf(party.PartyLegalEntity.CompanyID),
      vatNumber: valueOf(party.PartyTaxScheme.CompanyID),
      peppolId: `${party.EndpointID['@_schemeID']}:${valueOf(party.EndpointID)}`,
    });
    const lines = asArray(other.InvoiceLine);
    const charges = asArray(other.AllowanceCharge ?? []);
    expect(doc.lines).toHaveLength(lines.length + charges.length);
    for (const [i, line] of lines.entries()) {
      expect(doc.lines[i]!.total).toBe(formatDecimal(valueOf(line.LineExtensionAmount)));
      expect(Number(doc.lines[i]!.amount)).toBe(Number(valueOf(line.InvoicedQuantity)));
      expect(doc.lines[i]!.unit).toBe(line.InvoicedQuantity['@_unitCode']);
      expect(doc.lines[i]!.description).toContain(valueOf(line.Item.Name));
    }
    const totals = other.LegalMonetaryTotal;
    expect(doc.totalPrice).toBe(formatDecimal(valueOf(totals.TaxExclusiveAmount)));
    expect(doc.total).toBe(formatDecimal(valueOf(totals.PayableAmount)));
    expect(doc.totalVat).toBe(formatDecimal(valueOf(other.TaxTotal.TaxAmount)));
    expectAddsUp(doc);
  });

  it("reads Peppol's credit note example with the buyer's sign: every figure negative", () => {
    const xml = example('base-creditnote-correction.xml');
    const doc = parseUblInvoice(xml);
    const other = independent(xml);
    expect(doc.type).toBe('credit');
    expect(doc.invoiceNumber).toBe(valueOf(other.ID));
    expect(doc.total).toBe(formatDecimal(`-${valueOf(other.LegalMonetaryTotal.PayableAmount)}`));
    expect(doc.totalPrice.startsWith('-')).toBe(true);
    expectAddsUp(doc);
  });

  it('finds elements by namespace, not by prefix', () => {
    const xml = example('base-example.xml')
      .replaceAll('cbc:', 'b:')
      .replaceAll('xmlns:cbc=', 'xmlns:b=')
      .replaceAll('cac:', 'a:')
      .replaceAll('xmlns:cac=', 'xmlns:a=');
    expect(parseUblInvoice(xml)).toEqual(parseUblInvoice(example('base-example.xml')));
  });

  it("reads back the invoice Ordo's own Peppol writer makes, with the order reference it carries", () => {
    const wholesaler: PeppolParty = {
      name: 'Elgrossisten Norr AB',
      country: 'SE',
      endpoint: { scheme: '0007', id: '5567321707' },
      legalId: { id: '5567321707', scheme: '0007' },
      vatNumber: 'SE556732170701',
      street: 'Lagergatan 3',
      postIndex: '903 27',
      city: 'Umeå',
    };
    const buyer: PeppolParty = {
      ...wholesaler,
      name: 'Nordlarm Säkerhet AB',
      endpoint: { scheme: '0007', id: '5566778899' },
      legalId: { id: '5566778899', scheme: '0007' },
      vatNumber: 'SE556677889901',
    };
    const input: PeppolInvoiceInput = {
      number: 'F-88112',
      issueDate: '2026-03-02',
      dueDate: '2026-04-01',
      deliveryDate: null,
      currency: 'SEK',
      buyerReference: 'Erik Tekniker',
      orderReference: 'WO-1042',
      seller: wholesaler,
      buyer,
      reverseVat: false,
      lines: [
        {
          kind: 'article',
          title: 'Kabel EKK 3G1,5',
          description: null,
          articleNumber: 'EKK-315',
          unit: 'm',
          amount: '25',
          price: '12.37',
          discount: null,
          vatPercent: '25',
          isText: false,
        },
        {
          kind: 'article',
          title: 'Rörelsedetektor',
          description: null,
          articleNumber: 'RD-100',
          unit: 'st',
          amount: '2',
          price: '449.50',
          discount: null,
          vatPercent: '25',
          isText: false,
        },
        {
          kind: 'fee',
          title: 'Fakturaavgift',
          description: null,
          articleNumber: null,
          unit: null,
          amount: '1',
          price: '39.00',
          discount: null,
          vatPercent: '25',
          isText: false,
        },
      ],
      notes: [],
      payment: { reference: '7712345', bankgiro: '5050-1055', iban: null, bic: null, termsText: '30 dagar netto' },
      prepaid: null,
      texts: { reverseVat: 'Omvänd betalningsskyldighet' },
    };
    const written = buildPeppolDocument(input);
    const doc = parseUblInvoice(written.xml);
    expect(doc.invoiceNumber).toBe(input.number);
    expect(doc.orderReference).toBe(input.orderReference);
    expect(doc.paymentId).toBe(input.payment.reference);
    expect(doc.seller.peppolId).toBe('0007:5567321707');
    expect(doc.seller.organizationNumber).toBe('5567321707');
    expect(doc.total).toBe(formatDecimal(written.payable));
    expect(doc.lines.map((l) => l.articleNumber ?? l.description)).toEqual(
      expect.arrayContaining(['EKK-315', 'RD-100']),
    );
    expectAddsUp(doc);
  });
});

describe('[supplier invoices] refusing broken documents with the rule they break', () => {
  const base = example('base-example.xml');
  const refusal = (xml: string) => {
    try {
      parseUblInvoice(xml);
    } catch (e) {
      if (e instanceof UblRefusal) return { code: e.code, rule: e.rule };
      throw e;
    }
    throw new Error('accepted');
  };

  it.each([
    ['not XML at all', 'this is a PDF, honest', 'NOT_XML', 'XML'],
    ['cut off in the middle', base.slice(0, Math.floor(base.length * 0.8)), 'NOT_XML', 'XML'],
    // a complete document whose end tag names another element (the lenient DOM builder read it)
    ['an end tag that does not match its start tag', base.replace('</cbc:IssueDate>', '</cbc:DueDate>'), 'NOT_XML', 'XML'],
    ['an undeclared namespace prefix', base.replace('<cbc:IssueDate>', '<foo:IssueDate>').replace('</cbc:IssueDate>', '</foo:IssueDate>'), 'NOT_XML', 'XML'],
    ['a second root element', `${base.trimEnd()}\n<Invoice/>`, 'NOT_XML', 'XML'],
    [
      'a document type declaration (entity expansion)',
      base.replace('<Invoice', '<!DOCTYPE Invoice [<!ENTITY x "y">]>\n<Invoice'),
      'NOT_XML',
      'DOCTYPE',
    ],
    [
      'another UBL document (an Order)',
      base
        .replaceAll('<Invoice', '<Order')
        .replaceAll('</Invoice>', '</Order>')
        .replace('xsd:Invoice-2', 'xsd:Order-2'),
      'NOT_UBL_INVOICE',
      'UBL',
    ],
    [
      'no CustomizationID',
      base.replace(/<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, ''),
      'FIELD_MISSING',
      'BT-24',
    ],
    [
      'a CustomizationID outside EN 16931',
      base.replace(
        /<cbc:CustomizationID>[^<]*</,
        '<cbc:CustomizationID>urn:www.cenbii.eu:transaction:biitrns010:ver2.0<',
      ),
      'NOT_EN16931',
      'BR-01',
    ],
    ['no invoice number', base.replace('<cbc:ID>Snippet1</cbc:ID>', ''), 'FIELD_MISSING', 'BT-1'],
    [
      'an impossible issue date',
      base.replace('<cbc:IssueDate>2017-11-13', '<cbc:IssueDate>2017-02-30'),
      'FIELD_INVALID',
      'BT-2',
    ],
    ['no lines', base.replace(/<cac:InvoiceLine>[\s\S]*<\/cac:InvoiceLine>/, ''), 'NO_LINES', 'BR-16'],
    [
      'a line amount that is not xsd:decimal',
      base.replace('currencyID= "EUR">2800<', 'currencyID="EUR">2 800,00<'),
      'FIELD_INVALID',
      'BT-131',
    ],
    [
      'lines that do not add up to BT-106',
      base.replace('currencyID= "EUR">2800<', 'currencyID="EUR">2900<'),
      'TOTALS_DIFFER',
      'BR-CO-10',
    ],
    [
      'a total with VAT that is not the net total plus VAT',
      base.replace(
        '<cbc:TaxInclusiveAmount currencyID="EUR">1656.25',
        '<cbc:TaxInclusiveAmount currencyID="EUR">1656.00',
      ),
      'TOTALS_DIFFER',
      'BR-CO-15',
    ],
    [
      'an amount due that is not the total with VAT',
      base.replace('<cbc:PayableAmount currencyID="EUR">1656.25', '<cbc:PayableAmount currencyID="EUR">1600'),
      'TOTALS_DIFFER',
      'BR-CO-16',
    ],
    [
      'a total in another currency',
      base.replace('<cbc:PayableAmount currencyID="EUR">', '<cbc:PayableAmount currencyID="SEK">'),
      'CURRENCY_DIFFERS',
      'PEPPOL-EN16931-R051',
    ],
    [
      'no seller',
      base.replace(/<cac:AccountingSupplierParty>[\s\S]*<\/cac:AccountingSupplierParty>/, ''),
      'FIELD_MISSING',
      'BG-4',
    ],
  ])('%s', (_what, xml, code, rule) => {
    expect(refusal(xml)).toEqual({ code, rule });
  });
});
