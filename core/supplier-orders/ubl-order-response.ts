import { compare, divide, formatDecimal, type Decimal } from '~/core/pricing';
import {
  all,
  at,
  date,
  decimal,
  parseDocument,
  party,
  required,
  text,
  UblRefusal,
  type El,
} from '~/core/xml/ubl-reader';
import type { SupplierOrderDocument, SupplierOrderLine } from './supplier-order-document';

/*
 * An inbound Peppol BIS Ordering 3 Order Response (transaction T76, UBL 2.1 OrderResponse) read into
 * what Ordo keeps of a supplier order confirmation (issue 33 item 5; decision 055).
 *
 * Sources, element names verbatim:
 * - the syntax: docs.peppol.eu/poacc/upgrade-3/syntax/OrderResponse/tree/ ;
 * - the official example, tests/fixtures/peppol/order-response-example.xml (OpenPEPPOL/poacc-upgrade-3,
 *   rules/examples/OrderResponse_Example.xml at 0e7e5c79);
 * - the rules: that repository's rules/sch/parts/PEPPOL-M-T76.sch (PEPPOL-T76-R00n) and
 *   guides/transactions/76-order-response/rules/order-response.adoc (BII2-T76-R0nn);
 * - the codes: guides/transactions/76-order-response/description/response-code.adoc — header
 *   OrderResponseCode (UNCL 4343 subset) AB received, RE rejected, AP accepted (no lines sent), CA
 *   accepted with amendment (all lines sent); line LineStatusCode 1 added, 3 changed, 5 accepted
 *   without amendment, 7 not accepted, 42 already delivered.
 *
 * What becomes a row: a line the seller confirms (any LineStatusCode but 7) that states both its
 * quantity (cbc:Quantity) and its price (cac:Price/cbc:PriceAmount over cbc:BaseQuantity): the
 * confirmation is the seller's word on what it delivers at what price. A line that leaves either to
 * the original order (which Ordo never saw: the technician ordered in the wholesaler's shop) cannot be
 * a row and is reported as skipped. Where the seller substitutes the item
 * (cac:SellerSubstitutedLineItem), the substitute's name and article number are what arrives.
 */

export const ORDER_RESPONSE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:OrderResponse-2';

/**
 * CustomizationIDs read (BII2-T76-R001): Peppol BIS Ordering 3 (T76) and its predecessor BIS 28A
 * (CEN BII2 transaction 76), which wholesalers still send; extensions of either start with it.
 */
export const ORDER_RESPONSE_CUSTOMIZATIONS = [
  'urn:fdc:peppol.eu:poacc:trns:order_response:3',
  'urn:www.cenbii.eu:transaction:biitrns076:ver2.0',
] as const;

/**
 * A Swedish organisation number the seller gives as its party identifier (ICD 0007, or the "SE:ORGNR"
 * of BIS 28A documents) when it states no PartyLegalEntity/CompanyID: what finds its supplier.
 */
function swedishOrgId(sellerEl: El | null): string | null {
  const id = at(sellerEl, 'cac:Party/cac:PartyIdentification/cbc:ID');
  const scheme = id?.getAttribute('schemeID')?.trim();
  return scheme === '0007' || scheme === 'SE:ORGNR' ? (id?.textContent?.trim() ?? null) : null;
}

/** LineStatusCode 7: "The Order line is Not accepted" (response-code.adoc). */
const LINE_NOT_ACCEPTED = '7';

function price(line: El, currency: string, where: string): Decimal | null {
  const amountEl = at(line, 'cac:Price/cbc:PriceAmount');
  const amountText = amountEl?.textContent?.trim();
  if (!amountText) return null;
  // PEPPOL-T76-R005: "An order response SHALL be stated in a single currency"
  const currencyId = amountEl!.getAttribute('currencyID')?.trim();
  if (currencyId && currencyId !== currency)
    throw new UblRefusal(
      'CURRENCY_DIFFERS',
      'PEPPOL-T76-R005',
      `${where}: the price is in ${currencyId}, the response in ${currency}`,
    );
  const amount = decimal(amountText, `${where} cac:Price/cbc:PriceAmount`, 'PEPPOL-T76-R005');
  const baseText = text(line, 'cac:Price/cbc:BaseQuantity');
  const base = baseText === null ? null : decimal(baseText, `${where} cbc:BaseQuantity`, 'BaseQuantity');
  return base && compare(base, '0') !== 0 ? divide(amount, base, 4) : amount;
}

/** Reads a Peppol Order Response; throws UblRefusal naming the rule it breaks. */
export function parseOrderResponse(xml: string): SupplierOrderDocument {
  const root = parseDocument(xml);
  if (!(root.localName === 'OrderResponse' && root.namespaceURI === ORDER_RESPONSE_NS))
    throw new UblRefusal(
      'NOT_ORDER_RESPONSE',
      'UBL',
      `the document is ${root.namespaceURI ?? ''} ${root.localName}, not a UBL 2.1 OrderResponse`,
    );
  const customization = required(root, 'cbc:CustomizationID', 'BII2-T76-R001');
  if (!ORDER_RESPONSE_CUSTOMIZATIONS.some((c) => customization.startsWith(c)))
    throw new UblRefusal(
      'NOT_PEPPOL_ORDERING',
      'BII2-T76-R001',
      `CustomizationID "${customization}" is not a Peppol order response`,
    );
  const responseId = required(root, 'cbc:ID', 'BII2-T76-R006');
  const salesOrderId = text(root, 'cbc:SalesOrderID');
  const issueDate = date(required(root, 'cbc:IssueDate', 'BII2-T76-R004'), 'BII2-T76-R004')!;
  const responseCode = required(root, 'cbc:OrderResponseCode', 'BII2-T76-R033');
  const orderReference = required(root, 'cac:OrderReference/cbc:ID', 'BII2-T76-R032');
  const currency = text(root, 'cbc:DocumentCurrencyCode') ?? 'SEK';
  if (!/^[A-Z]{3}$/.test(currency))
    throw new UblRefusal('FIELD_INVALID', 'DocumentCurrencyCode', `currency "${currency}" is not ISO 4217`);
  const sellerEl = at(root, 'cac:SellerSupplierParty');
  if (!at(root, 'cac:SellerSupplierParty/cac:Party'))
    throw new UblRefusal('FIELD_MISSING', 'PEPPOL-T76-R002', 'the seller (SellerSupplierParty) is missing');
  const seller = party(sellerEl);
  const sellerId = text(sellerEl, 'cac:Party/cac:PartyIdentification/cbc:ID');
  // PEPPOL-T76-R002: the seller's official name or an identifier
  if (!text(sellerEl, 'cac:Party/cac:PartyLegalEntity/cbc:RegistrationName') && !sellerId && !seller.name)
    throw new UblRefusal('FIELD_MISSING', 'PEPPOL-T76-R002', 'the seller has neither a name nor an identifier');

  const lines: SupplierOrderLine[] = [];
  const skipped: { lineId: string; reason: 'notAccepted' | 'noQuantityOrPrice' }[] = [];
  const seen = new Set<string>();
  for (const [i, orderLine] of all(root, 'cac:OrderLine').entries()) {
    const where = `line ${i + 1}`;
    const item = at(orderLine, 'cac:LineItem');
    if (!item) throw new UblRefusal('FIELD_MISSING', 'BII2-T76-R003', `${where}: cac:LineItem is missing`);
    const lineId = required(item, 'cbc:ID', 'BII2-T76-R003');
    // PEPPOL-T76-R003: "Each order response line SHALL have a document line identifier that is unique"
    if (seen.has(lineId))
      throw new UblRefusal('FIELD_INVALID', 'PEPPOL-T76-R003', `${where}: line id "${lineId}" is not unique`);
    seen.add(lineId);
    // BII2-T76-R034: a line refers to its order line
    required(orderLine, 'cac:OrderLineReference/cbc:LineID', 'BII2-T76-R034');
    if (text(item, 'cbc:LineStatusCode') === LINE_NOT_ACCEPTED) {
      skipped.push({ lineId, reason: 'notAccepted' });
      continue;
    }
    const quantityEl = at(item, 'cbc:Quantity');
    const quantityText = quantityEl?.textContent?.trim();
    const unitPrice = price(item, currency, where);
    if (!quantityText || unitPrice === null) {
      skipped.push({ lineId, reason: 'noQuantityOrPrice' });
      continue;
    }
    const quantity = decimal(quantityText, `${where} cbc:Quantity`, 'Quantity');
    const delivered = at(orderLine, 'cac:SellerSubstitutedLineItem/cac:Item') ?? at(item, 'cac:Item');
    const name = text(delivered, 'cbc:Name') ?? text(item, 'cac:Item/cbc:Name');
    if (!name) throw new UblRefusal('FIELD_MISSING', 'Item/Name', `${where}: the item has no name`);
    const description = text(delivered, 'cbc:Description');
    lines.push({
      lineId,
      description: description && description !== name ? `${name}, ${description}` : name,
      articleNumber:
        text(delivered, 'cac:SellersItemIdentification/cbc:ID') ??
        text(item, 'cac:Item/cac:SellersItemIdentification/cbc:ID'),
      amount: formatDecimal(quantity, 4),
      unit: quantityEl?.getAttribute('unitCode')?.trim() || null,
      price: formatDecimal(unitPrice, 4),
    });
  }

  return {
    source: 'peppol',
    orderNumber: salesOrderId ?? responseId,
    responseId,
    orderDate: issueDate,
    currency,
    responseCode,
    workOrderReference: orderReference,
    otherReference: text(root, 'cbc:CustomerReference'),
    seller: { ...seller, organizationNumber: seller.organizationNumber ?? swedishOrgId(sellerEl) },
    lines,
    skipped,
  };
}
