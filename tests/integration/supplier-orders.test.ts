import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { request } from '~/tests/helpers/http';

/*
 * Supplier orders end to end over the API (issue 33 item 5; decision 055): a wholesaler's order
 * confirmation (Peppol Order Response, or its CSV) whose reference names an open work order adds its
 * rows there exactly once (posted again: 409, nothing twice); one whose reference names nothing is in
 * error, listed for two months, handled to an order (its rows arrive, once) or discarded; another
 * tenant's is 404; and the money: the confirmed prices reach the customer's invoice when the order
 * closes, with figures worked out by hand below.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ids = {} as Record<'supplier' | 'customer' | 'cable' | 'detector' | 'wo' | 'woOther' | 'woTitled', string>;
const numbers = {} as Record<'wo' | 'woOther' | 'woTitled', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const sql = async (text: string, bindings: unknown[] = []) =>
  withTenant(tenantA, async (trx) => (await trx.raw(text, bindings as never[])).rows as Json[]);

interface Line {
  id: string;
  name: string;
  article: string;
  quantity: string;
  price: string;
  status?: string;
}

/**
 * A wholesaler's order response as Peppol BIS Ordering 3 has it (the element names and order of
 * tests/fixtures/peppol/ordering/OrderResponse_Example.xml): the seller by its Swedish organisation
 * number, the buyer's order reference, and lines with quantity and price.
 */
function orderResponse({ salesOrderId, reference, lines }: { salesOrderId: string; reference: string; lines: Line[] }) {
  const orderLines = lines
    .map(
      (l) => `
  <cac:OrderLine>
    <cac:LineItem>
      <cbc:ID>${l.id}</cbc:ID>
      <cbc:LineStatusCode>${l.status ?? '5'}</cbc:LineStatusCode>
      <cbc:Quantity unitCode="C62">${l.quantity}</cbc:Quantity>
      <cac:Price>
        <cbc:PriceAmount currencyID="SEK">${l.price}</cbc:PriceAmount>
        <cbc:BaseQuantity unitCode="C62">1</cbc:BaseQuantity>
      </cac:Price>
      <cac:Item>
        <cbc:Name>${l.name}</cbc:Name>
        <cac:SellersItemIdentification><cbc:ID>${l.article}</cbc:ID></cac:SellersItemIdentification>
      </cac:Item>
    </cac:LineItem>
    <cac:OrderLineReference><cbc:LineID>${l.id}</cbc:LineID></cac:OrderLineReference>
  </cac:OrderLine>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<OrderResponse xmlns="urn:oasis:names:specification:ubl:schema:xsd:OrderResponse-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:fdc:peppol.eu:poacc:trns:order_response:3</cbc:CustomizationID>
  <cbc:ProfileID>urn:fdc:peppol.eu:poacc:bis:ordering:3</cbc:ProfileID>
  <cbc:ID>R-${salesOrderId}</cbc:ID>
  <cbc:SalesOrderID>${salesOrderId}</cbc:SalesOrderID>
  <cbc:IssueDate>2026-11-02</cbc:IssueDate>
  <cbc:OrderResponseCode>CA</cbc:OrderResponseCode>
  <cbc:DocumentCurrencyCode>SEK</cbc:DocumentCurrencyCode>
  <cac:OrderReference><cbc:ID>${reference}</cbc:ID></cac:OrderReference>
  <cac:SellerSupplierParty>
    <cac:Party>
      <cbc:EndpointID schemeID="0007">5567321707</cbc:EndpointID>
      <cac:PartyIdentification><cbc:ID schemeID="0007">5567321707</cbc:ID></cac:PartyIdentification>
      <cac:PartyLegalEntity><cbc:RegistrationName>Elgrossisten Norr AB</cbc:RegistrationName></cac:PartyLegalEntity>
    </cac:Party>
  </cac:SellerSupplierParty>
  <cac:BuyerCustomerParty>
    <cac:Party>
      <cac:PartyLegalEntity><cbc:RegistrationName>Testlarm AB</cbc:RegistrationName></cac:PartyLegalEntity>
    </cac:Party>
  </cac:BuyerCustomerParty>${orderLines}
</OrderResponse>
`;
}

const cable: Line = { id: '1', name: 'Kabel EKK 3G1,5', article: 'EKK-315', quantity: '25', price: '12.37' };
const detector: Line = { id: '2', name: 'Rörelsedetektor', article: 'RD-100', quantity: '2', price: '449.50' };

const upload = (xml: string, token = tok.admin) => call('POST', '/api/suppliers/order', token, { document: xml });
const inError = async (token = tok.admin) => {
  const res = await call('GET', '/api/suppliers/order', token);
  expect(res.status, res.text).toBe(200);
  return res.json() as { orders: Json[]; totalCount: number };
};
const orderRows = (workOrderId: string) =>
  sql(
    `select title, amount::text, price::text, purchase_price::text, total::text, article_id
       from work_order_articles where work_order_id = ? order by sort_order`,
    [workOrderId],
  );

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('so-a');
  b = await createTestTenant('so-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  const supplier = await call('POST', '/api/suppliers', tok.admin, {
    supplier: {
      number: '3001',
      title: 'Elgrossisten',
      name: 'Elgrossisten Norr AB',
      organizationNumber: '556732-1707',
    },
  });
  expect(supplier.status, supplier.text).toBe(200);
  ids.supplier = supplier.json().id;
  const [customer] = await sql(`insert into customers (customer_id, name) values ('40001', 'Brf Linden') returning id`);
  ids.customer = customer!.id;
  const articles = await sql(
    `insert into articles (article_id, title, price, purchase_price, unit) values
       ('EKK-315', 'Kabel EKK', 20, 11, 'm'), ('RD-100', 'Rörelsedetektor', 600, 400, 'st') returning id`,
  );
  ids.cable = articles[0]!.id;
  ids.detector = articles[1]!.id;
  const titles = { wo: 'Passage Linden', woOther: 'Larm Linden', woTitled: 'Kameror Lindens garage' };
  for (const key of ['wo', 'woOther', 'woTitled'] as const) {
    const res = await call('POST', '/api/wo', tok.admin, {
      workOrder: { title: titles[key], customerId: ids.customer },
    });
    expect(res.status, res.text).toBe(200);
    ids[key] = res.json().workOrder.id;
    const [row] = await sql('select number from work_orders where id = ?', [ids[key]]);
    numbers[key] = row!.number;
  }
  // the tenant's markup on what it buys for an order (supplier invoices' setting): 20 %
  const settings = await call('PUT', '/api/supplierinvoices/settings', tok.admin, {
    rebill: false,
    rebillMarkup: '20',
  });
  expect(settings.status, settings.text).toBe(200);
});
afterAll(() => srv?.close());

describe('[supplier orders] arrival', () => {
  it("adds a confirmation's rows to the open work order its reference names, exactly once: the same order posted again is 409 naming the first", async () => {
    const xml = orderResponse({ salesOrderId: '55012', reference: numbers.wo, lines: [cable, detector] });
    const res = await upload(xml);
    expect(res.status, res.text).toBe(200);
    const [arrived] = res.json().orders as Json[];
    expect(arrived).toMatchObject({
      orderNumber: '55012',
      status: 'added',
      workOrderId: ids.wo,
      workOrderNumber: numbers.wo,
      rowsAdded: 2,
    });
    // purchase price = the confirmed price; sales price = it × 1.20 (12.37 × 1.2 = 14.844 → 14.84; 449.50 × 1.2 = 539.40)
    expect(await orderRows(ids.wo)).toEqual([
      {
        title: 'Kabel EKK 3G1,5',
        amount: '25.000',
        purchase_price: '12.37',
        price: '14.84',
        total: '371.00',
        article_id: ids.cable,
      },
      {
        title: 'Rörelsedetektor',
        amount: '2.000',
        purchase_price: '449.50',
        price: '539.40',
        total: '1078.80',
        article_id: ids.detector,
      },
    ]);

    const again = await upload(xml);
    expect(again.status).toBe(409);
    expect(again.json()).toMatchObject({ code: 'SUPPLIER_ORDER_DUPLICATE', duplicateOf: arrived!.id });
    expect(await orderRows(ids.wo)).toHaveLength(2);
    // the same order number from this supplier as CSV is the same order too
    const csv = await call('POST', '/api/suppliers/order', tok.admin, {
      document: `Ordernummer;Arbetsorder;Benämning;Antal;Pris\n55012;${numbers.wo};Kabel;1;5\n`,
      format: 'csv',
      supplierId: ids.supplier,
    });
    expect(csv.status).toBe(409);
    expect(await orderRows(ids.wo)).toHaveLength(2);
  });

  it('refuses a broken document with the rule, and a CSV without its supplier, leaving nothing behind', async () => {
    const before = await sql('select count(*)::int as n from supplier_orders');
    const bad = await upload(
      orderResponse({ salesOrderId: '55090', reference: numbers.wo, lines: [cable] }).replace(
        '<cbc:OrderResponseCode>CA</cbc:OrderResponseCode>',
        '',
      ),
    );
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'SUPPLIER_ORDER_INVALID',
      fields: { document: ['SUPPLIER_ORDER_FIELD_MISSING'] },
    });
    expect(bad.json().message).toContain('BII2-T76-R033');
    const noSupplier = await call('POST', '/api/suppliers/order', tok.admin, {
      document: `Ordernummer;Arbetsorder;Benämning;Antal;Pris\n7;${numbers.wo};Kabel;1;5\n`,
    });
    expect(noSupplier.status).toBe(400);
    expect(noSupplier.json().fields.supplierId).toEqual(['ERROR_REQUIRED_FIELD']);
    // a CSV of two orders whose second line is broken: neither is stored
    const broken = await call('POST', '/api/suppliers/order', tok.admin, {
      document: `Ordernummer;Arbetsorder;Benämning;Antal;Pris\n8;${numbers.wo};Kabel;1;5\n9;${numbers.wo};Kabel;x;5\n`,
      supplierId: ids.supplier,
    });
    expect(broken.status).toBe(400);
    expect(await sql('select count(*)::int as n from supplier_orders')).toEqual(before);
    expect(
      (await upload(orderResponse({ salesOrderId: '55091', reference: numbers.wo, lines: [cable] }), tok.tech)).status,
    ).toBe(403);
  });

  it('takes a CSV body in Windows-1252 and an order response posted to the inbound address with its secret', async () => {
    const before = (await orderRows(ids.woOther)).length;
    const csv = iconv.encode(
      `Ordernummer;Märkning;Artikelnummer;Benämning;Antal;Á-pris\r\n66001;${numbers.woOther};RD-100;Rörelsedetektor vit;1;449,50\r\n`,
      'windows-1252',
    );
    const res = await request(srv.url, {
      method: 'POST',
      path: `/api/suppliers/order?supplierId=${ids.supplier}`,
      host: a.host,
      body: csv,
      headers: { 'content-type': 'text/csv; charset=windows-1252', authorization: `Bearer ${tok.admin}` },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json().orders[0]).toMatchObject({ status: 'added', workOrderId: ids.woOther, rowsAdded: 1 });
    expect((await orderRows(ids.woOther)).slice(before).map((r) => r.title)).toEqual(['Rörelsedetektor vit']);

    const { secret } = (await call('POST', '/api/supplierinvoices/inbound/secret', tok.admin)).json() as {
      secret: string;
    };
    const xml = orderResponse({ salesOrderId: '66002', reference: numbers.woOther, lines: [cable] });
    const post = (token: string) =>
      request(srv.url, {
        method: 'POST',
        path: '/api/suppliers/order/inbound',
        host: a.host,
        body: xml,
        headers: { 'content-type': 'application/xml', authorization: `Bearer ${token}` },
      });
    expect((await post('ordo_si_wrong')).status).toBe(401);
    const ok = await post(secret);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json().orders[0]).toMatchObject({ status: 'added', rowsAdded: 1 });
    // an access point that retries gets the 409: the order is already here
    expect((await post(secret)).status).toBe(409);
    expect((await orderRows(ids.woOther)).length).toBe(before + 2);
  });
});

describe('[supplier orders] in error: listed, handled or discarded', () => {
  it('keeps an order whose reference names no open order in error, lists it, and handles it to a work order by number: its rows arrive once', async () => {
    const res = await upload(orderResponse({ salesOrderId: '77001', reference: 'Lindens port', lines: [cable] }));
    expect(res.status, res.text).toBe(200);
    const id = res.json().orders[0].id as string;
    expect(res.json().orders[0]).toMatchObject({ status: 'error', workOrderId: null, rowsAdded: 0 });
    const listed = (await inError()).orders.find((o) => o.id === id);
    expect(listed).toMatchObject({
      orderNumber: '77001',
      supplierId: ids.supplier,
      supplierName: 'Elgrossisten',
      workOrderReference: 'Lindens port',
      currency: 'SEK',
      total: '309.25',
      rows: [
        { description: 'Kabel EKK 3G1,5', articleNumber: 'EKK-315', amount: '25', price: '12.37', total: '309.25' },
      ],
    });
    const before = (await orderRows(ids.wo)).length;

    const unknown = await call('POST', `/api/suppliers/order/${id}/handle`, tok.admin, {
      workOrderTitle: 'No such order',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json().fields.workOrderTitle).toEqual(['SUPPLIER_ORDER_WORK_ORDER_NOT_FOUND']);
    expect((await call('POST', `/api/suppliers/order/${id}/handle`, tok.admin, {})).status).toBe(400);

    const handled = await call('POST', `/api/suppliers/order/${id}/handle`, tok.admin, { workOrderTitle: numbers.wo });
    expect(handled.status, handled.text).toBe(200);
    expect(handled.json()).toMatchObject({ workOrderId: ids.wo, workOrderNumber: numbers.wo, rowsAdded: 1 });
    expect((await orderRows(ids.wo)).slice(before)).toEqual([
      {
        title: 'Kabel EKK 3G1,5',
        amount: '25.000',
        purchase_price: '12.37',
        price: '14.84',
        total: '371.00',
        article_id: ids.cable,
      },
    ]);
    // handled: no longer in error, and never twice
    expect((await inError()).orders.map((o) => o.id)).not.toContain(id);
    const twice = await call('POST', `/api/suppliers/order/${id}/handle`, tok.admin, { workOrderTitle: numbers.wo });
    expect(twice.status).toBe(409);
    expect(twice.json().code).toBe('SUPPLIER_ORDER_NOT_IN_ERROR');
    expect((await orderRows(ids.wo)).length).toBe(before + 1);
  });

  it("handles by the work order's exact title, discards another after which it cannot be handled, and leaves other tenants and technicians out", async () => {
    const first = (
      await upload(orderResponse({ salesOrderId: '77002', reference: 'garage', lines: [detector] }))
    ).json().orders[0].id as string;
    const second = (
      await upload(orderResponse({ salesOrderId: '77003', reference: 'okänd', lines: [detector] }))
    ).json().orders[0].id as string;
    const handled = await call('POST', `/api/suppliers/order/${first}/handle`, tok.admin, {
      workOrderTitle: 'kameror lindens GARAGE',
    });
    expect(handled.status, handled.text).toBe(200);
    expect(handled.json()).toMatchObject({ workOrderId: ids.woTitled, rowsAdded: 1 });
    expect((await orderRows(ids.woTitled)).map((r) => [r.title, r.purchase_price])).toEqual([
      ['Rörelsedetektor', '449.50'],
    ]);

    // another tenant's id is 404, a technician 403; a missing id 404
    expect((await call('POST', `/api/suppliers/order/${second}/discard`, tok.adminB, undefined, b.host)).status).toBe(
      404,
    );
    expect(
      (await call('POST', `/api/suppliers/order/${second}/handle`, tok.adminB, { workOrderTitle: '1' }, b.host)).status,
    ).toBe(404);
    expect((await call('GET', '/api/suppliers/order', tok.adminB, undefined, b.host)).json().orders).toEqual([]);
    expect((await call('POST', `/api/suppliers/order/${second}/discard`, tok.tech)).status).toBe(403);
    expect((await call('GET', '/api/suppliers/order', tok.tech)).status).toBe(403);
    expect((await call('POST', '/api/suppliers/order/not-an-id/discard', tok.admin)).status).toBe(404);

    const discarded = await call('POST', `/api/suppliers/order/${second}/discard`, tok.admin);
    expect(discarded.status, discarded.text).toBe(200);
    expect((await inError()).orders.map((o) => o.id)).not.toContain(second);
    expect(
      (await call('POST', `/api/suppliers/order/${second}/handle`, tok.admin, { workOrderTitle: numbers.wo })).status,
    ).toBe(409);
    expect((await call('POST', `/api/suppliers/order/${second}/discard`, tok.admin)).status).toBe(409);
  });

  it('lists only the past two months, newest first, a page at a time', async () => {
    const ids3: string[] = [];
    for (const n of ['88001', '88002', '88003'])
      ids3.push(
        (await upload(orderResponse({ salesOrderId: n, reference: `ingen-${n}`, lines: [cable] }))).json().orders[0].id,
      );
    await sql(`update supplier_orders set created_at = now() - interval '2 months 1 day' where id = ?`, [ids3[0]]);
    const all = await inError();
    expect(all.orders.map((o) => o.id)).not.toContain(ids3[0]);
    expect(all.orders.slice(0, 2).map((o) => o.id)).toEqual([ids3[2], ids3[1]]);
    const page = (await call('GET', '/api/suppliers/order?limit=1&offset=1', tok.admin)).json() as Json;
    expect(page.orders.map((o: Json) => o.id)).toEqual([ids3[1]]);
    expect(page.totalCount).toBe(all.totalCount);
    expect((await call('GET', '/api/suppliers/order?q=88003', tok.admin)).json().orders.map((o: Json) => o.id)).toEqual(
      [ids3[2]],
    );
  });
});

describe('[supplier orders] the money', () => {
  it("bills the confirmed rows on the customer's invoice when the order closes, at the hand-computed figures", async () => {
    // woTitled holds one row from the confirmation: 2 × 449.50 bought, 2 × 539.40 = 1 078.80 billed
    const closed = await call('POST', '/api/wo/close', tok.admin, { workOrderId: ids.woTitled });
    expect(closed.status, closed.text).toBe(200);
    const billed = await sql(
      `select r.amount::text as amount, r.price::text as price, r.total::text as total, i.total_price::text as invoice_total
         from invoice_rows r join invoices i on i.id = r.invoice_id
        where i.work_order_id = ? and r.article_id = ?`,
      [ids.woTitled, ids.detector],
    );
    expect(billed).toHaveLength(1);
    expect(Number(billed[0]!.amount)).toBe(2);
    expect(billed[0]).toMatchObject({ price: '539.40', total: '1078.80' });
    // a closed order takes no more rows: a confirmation naming it is in error
    const late = await upload(orderResponse({ salesOrderId: '99001', reference: numbers.woTitled, lines: [detector] }));
    expect(late.json().orders[0]).toMatchObject({ status: 'error', rowsAdded: 0 });
  });
});
