import { readFileSync } from 'node:fs';
import path from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeText } from '~/core/import-export/csv';
import { UblRefusal } from '~/core/xml/ubl-reader';
import { OrderCsvRefusal, parseOrderCsv } from './order-csv';
import { parseOrderResponse } from './ubl-order-response';

/*
 * The supplier order confirmation readers (issue 33 item 5; decision 055): the Peppol Order Response
 * reader against Peppol's own example (OpenPEPPOL/poacc-upgrade-3 rules/examples/OrderResponse_Example.xml,
 * kept in tests/fixtures/peppol/ordering, source and commit in tests/fixtures/peppol/README.md),
 * refusing broken ones with the rule they break; and the wholesaler's CSV.
 */

const EXAMPLE = readFileSync(
  path.resolve(import.meta.dirname, '../../tests/fixtures/peppol/ordering/OrderResponse_Example.xml'),
  'utf8',
);

function refusal(fn: () => unknown): { code: string; rule: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof UblRefusal || e instanceof OrderCsvRefusal) return { code: e.code, rule: e.rule };
    throw e;
  }
  throw new Error('not refused');
}

describe('[supplier orders] Peppol Order Response reader', () => {
  it("reads Peppol's own example: the seller's order number, the buyer's order reference, the confirmed line as the substitute item", () => {
    const doc = parseOrderResponse(EXAMPLE);
    expect(doc).toMatchObject({
      source: 'peppol',
      // cbc:SalesOrderID, the seller's order number; cbc:ID is the response's own
      orderNumber: '101-111',
      responseId: '101',
      orderDate: '2013-07-01',
      currency: 'EUR',
      responseCode: 'CA',
      // cac:OrderReference/cbc:ID: what the buyer ordered under (Ordo's work-order number)
      workOrderReference: '11233',
      otherReference: 'ABC-123',
      seller: { name: 'The Supplier AB', peppolId: '0088:7598000000128', organizationNumber: null },
    });
    // line 1 (LineStatusCode 3, changed) states quantity 10 at 1.50 per 1; the seller substitutes
    // "Sauce brown, ready" (SN-34) for the "Brown sauce" ordered: that is what arrives
    expect(doc.lines).toEqual([
      {
        lineId: '1',
        description: 'Sauce brown, ready',
        articleNumber: 'SN-34',
        amount: '10.0000',
        unit: 'C62',
        price: '1.5000',
      },
    ]);
    // lines 2 (accepted as ordered) and 3 state no quantity or price: the order's, which Ordo never saw
    expect(doc.skipped).toEqual([
      { lineId: '2', reason: 'noQuantityOrPrice' },
      { lineId: '3', reason: 'noQuantityOrPrice' },
    ]);
  });

  it('divides the price by its base quantity and leaves out lines the seller does not accept (LineStatusCode 7)', () => {
    const xml = EXAMPLE.replace(
      '<cbc:PriceAmount currencyID="EUR">1.50</cbc:PriceAmount>\n\t\t\t\t<cbc:BaseQuantity unitCode="C62">1</cbc:BaseQuantity>',
      '<cbc:PriceAmount currencyID="EUR">125.00</cbc:PriceAmount>\n\t\t\t\t<cbc:BaseQuantity unitCode="C62">100</cbc:BaseQuantity>',
    ).replace('<cbc:LineStatusCode>5</cbc:LineStatusCode>', '<cbc:LineStatusCode>7</cbc:LineStatusCode>');
    const doc = parseOrderResponse(xml);
    expect(doc.lines[0]!.price).toBe('1.2500');
    expect(doc.skipped[0]).toEqual({ lineId: '2', reason: 'notAccepted' });
  });

  it('reads the BIS 28A predecessor too, finding a Swedish seller by its organisation number', () => {
    const xml = EXAMPLE.replace(
      'urn:fdc:peppol.eu:poacc:trns:order_response:3',
      'urn:www.cenbii.eu:transaction:biitrns076:ver2.0:extended:urn:www.peppol.eu:bis:peppol28a:ver1.0',
    ).replace('<cbc:ID schemeID="0184">DK12345678</cbc:ID>', '<cbc:ID schemeID="0007">5567321707</cbc:ID>');
    expect(parseOrderResponse(xml).seller!.organizationNumber).toBe('5567321707');
  });

  it('refuses what is not a whole Peppol order response, naming the rule', () => {
    expect(refusal(() => parseOrderResponse('not xml'))).toMatchObject({ code: 'NOT_XML' });
    expect(refusal(() => parseOrderResponse(EXAMPLE.slice(0, EXAMPLE.length - 40)))).toMatchObject({ code: 'NOT_XML' });
    expect(
      refusal(() =>
        parseOrderResponse(EXAMPLE.replace('<OrderResponse ', '<!DOCTYPE x [<!ENTITY a "b">]><OrderResponse ')),
      ),
    ).toMatchObject({ code: 'NOT_XML', rule: 'DOCTYPE' });
    expect(
      refusal(() =>
        parseOrderResponse(
          EXAMPLE.replaceAll('OrderResponse-2', 'Invoice-2')
            .replace('<OrderResponse ', '<Invoice ')
            .replace('</OrderResponse>', '</Invoice>'),
        ),
      ),
    ).toMatchObject({ code: 'NOT_ORDER_RESPONSE' });
    expect(
      refusal(() =>
        parseOrderResponse(
          EXAMPLE.replace('urn:fdc:peppol.eu:poacc:trns:order_response:3', 'urn:fdc:peppol.eu:poacc:trns:order:3'),
        ),
      ),
    ).toMatchObject({ code: 'NOT_PEPPOL_ORDERING', rule: 'BII2-T76-R001' });
    expect(
      refusal(() => parseOrderResponse(EXAMPLE.replace(/<cac:OrderReference>[\s\S]*?<\/cac:OrderReference>/, ''))),
    ).toMatchObject({ code: 'FIELD_MISSING', rule: 'BII2-T76-R032' });
    expect(
      refusal(() => parseOrderResponse(EXAMPLE.replace('<cbc:OrderResponseCode>CA</cbc:OrderResponseCode>', ''))),
    ).toMatchObject({ code: 'FIELD_MISSING', rule: 'BII2-T76-R033' });
    expect(
      refusal(() =>
        parseOrderResponse(EXAMPLE.replace('<cbc:PriceAmount currencyID="EUR">', '<cbc:PriceAmount currencyID="USD">')),
      ),
    ).toMatchObject({ code: 'CURRENCY_DIFFERS', rule: 'PEPPOL-T76-R005' });
    expect(
      refusal(() =>
        parseOrderResponse(
          EXAMPLE.replace(
            '<cbc:ID>2</cbc:ID>\n\t\t\t<cbc:LineStatusCode>',
            '<cbc:ID>1</cbc:ID>\n\t\t\t<cbc:LineStatusCode>',
          ),
        ),
      ),
    ).toMatchObject({ code: 'FIELD_INVALID', rule: 'PEPPOL-T76-R003' });
    expect(
      refusal(() =>
        parseOrderResponse(
          EXAMPLE.replace(
            '<cbc:Quantity unitCode="C62">10</cbc:Quantity>',
            '<cbc:Quantity unitCode="C62">ten</cbc:Quantity>',
          ),
        ),
      ),
    ).toMatchObject({ code: 'FIELD_INVALID' });
    expect(
      refusal(() =>
        parseOrderResponse(
          EXAMPLE.replace('<cbc:IssueDate>2013-07-01</cbc:IssueDate>', '<cbc:IssueDate>2013-02-30</cbc:IssueDate>'),
        ),
      ),
    ).toMatchObject({ code: 'FIELD_INVALID', rule: 'BII2-T76-R004' });
  });
});

describe("[supplier orders] a wholesaler's CSV", () => {
  it('reads a Swedish export (semicolons, decimal commas, Windows-1252) into its orders, grouped by order number', () => {
    const text = [
      'Ordernummer;Arbetsorder;Artikelnummer;Benämning;Antal;Á-pris;Enhet;Orderdatum',
      '55012;1043;EKK-315;Kabel EKK 3G1,5 ström;25;12,37;m;2026-11-02',
      '55012;1043;RD-100;Rörelsedetektor;2;1 449,50;st;2026-11-02',
      '55013;;KD-7;Kortläsare;1;899;st;2026-11-03',
    ].join('\r\n');
    const orders = parseOrderCsv(decodeText(iconv.encode(text, 'windows-1252')));
    expect(orders.map((o) => [o.orderNumber, o.workOrderReference, o.orderDate, o.currency, o.lines.length])).toEqual([
      ['55012', '1043', '2026-11-02', 'SEK', 2],
      ['55013', null, '2026-11-03', 'SEK', 1],
    ]);
    expect(orders[0]!.lines).toEqual([
      {
        lineId: '2',
        description: 'Kabel EKK 3G1,5 ström',
        articleNumber: 'EKK-315',
        amount: '25.0000',
        unit: 'm',
        price: '12.3700',
      },
      {
        lineId: '3',
        description: 'Rörelsedetektor',
        articleNumber: 'RD-100',
        amount: '2.0000',
        unit: 'st',
        price: '1449.5000',
      },
    ]);
  });

  it('reads English headers with commas in UTF-8', () => {
    const [order] = parseOrderCsv(
      'Order number,Work order reference,Article number,Description,Quantity,Unit price\nA-7,1043,,Cable tie,100,0.0825\n',
    );
    expect(order!.lines[0]).toMatchObject({
      description: 'Cable tie',
      articleNumber: null,
      amount: '100.0000',
      price: '0.0825',
    });
  });

  it('refuses a file it cannot take, naming the column or line', () => {
    expect(refusal(() => parseOrderCsv('Ordernummer;Benämning;Antal\n1;x;2\n'))).toEqual({
      code: 'COLUMN_MISSING',
      rule: 'price',
    });
    expect(refusal(() => parseOrderCsv('Ordernummer;Benämning;Antal;Pris\n'))).toMatchObject({ code: 'NO_LINES' });
    expect(refusal(() => parseOrderCsv('Ordernummer;Benämning;Antal;Pris\n1;x;2;5\n1;y;tre;5\n'))).toEqual({
      code: 'FIELD_INVALID',
      rule: 'line 3',
    });
    expect(refusal(() => parseOrderCsv('Ordernummer;Benämning;Antal;Pris\n1;x;0;5\n'))).toMatchObject({
      code: 'FIELD_INVALID',
    });
    expect(
      refusal(() => parseOrderCsv('Ordernummer;Arbetsorder;Benämning;Antal;Pris\n1;100;x;2;5\n1;101;y;1;5\n')),
    ).toEqual({ code: 'REFERENCE_DIFFERS', rule: 'line 3' });
    expect(refusal(() => parseOrderCsv('Ordernummer;Benämning;Antal;Pris\n1;"x;2;5\n'))).toMatchObject({
      code: 'NOT_CSV',
    });
  });
});
