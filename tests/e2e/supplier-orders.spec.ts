import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { hydrated, signIn } from './helpers';

/**
 * Issue 33 item 5 in the browser (decision 055): a wholesaler's order confirmation (a Peppol Order
 * Response) whose work-order reference names no open order is uploaded on /supplierorders; it is
 * listed there in error and counted on the dashboard's card; the office handles it to a work order by
 * its number and the confirmed row shows on that order; another is discarded after a confirmation.
 * The page passes axe and fits a phone.
 */
const SLOW = 60_000;
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A Peppol BIS Ordering 3 order response (the element names of Peppol's OrderResponse_Example.xml). */
function orderResponse(salesOrderId: string, reference: string, articleNumber: string) {
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
      <cac:PartyLegalEntity><cbc:RegistrationName>Elgrossisten Norr AB</cbc:RegistrationName></cac:PartyLegalEntity>
    </cac:Party>
  </cac:SellerSupplierParty>
  <cac:BuyerCustomerParty>
    <cac:Party>
      <cac:PartyLegalEntity><cbc:RegistrationName>Nordlarm Säkerhet AB</cbc:RegistrationName></cac:PartyLegalEntity>
    </cac:Party>
  </cac:BuyerCustomerParty>
  <cac:OrderLine>
    <cac:LineItem>
      <cbc:ID>1</cbc:ID>
      <cbc:LineStatusCode>5</cbc:LineStatusCode>
      <cbc:Quantity unitCode="C62">3</cbc:Quantity>
      <cac:Price><cbc:PriceAmount currencyID="SEK">249.00</cbc:PriceAmount></cac:Price>
      <cac:Item>
        <cbc:Name>Magnetkontakt E2E-order</cbc:Name>
        <cac:SellersItemIdentification><cbc:ID>${articleNumber}</cbc:ID></cac:SellersItemIdentification>
      </cac:Item>
    </cac:LineItem>
    <cac:OrderLineReference><cbc:LineID>1</cbc:LineID></cac:OrderLineReference>
  </cac:OrderLine>
</OrderResponse>
`;
}

/** The dashboard's supplier-order card's figure. */
async function card(page: Page): Promise<number> {
  await page.goto(`${app.url}/dashboard`);
  await hydrated(page);
  const figure = page
    .getByText('Leverantörsordrar med fel arbetsorderreferens')
    .locator('xpath=following-sibling::p[1]');
  await expect(figure).toBeVisible({ timeout: SLOW });
  return Number((await figure.textContent())?.replace(/\s/g, ''));
}

async function upload(page: Page, name: string, xml: string) {
  await page.getByText('Läs in en orderbekräftelse').click();
  await page.getByLabel('Orderbekräftelse (Peppol-ordersvar i XML, eller grossistens CSV)').setInputFiles({
    name,
    mimeType: 'application/xml',
    buffer: Buffer.from(xml),
  });
  await page.getByRole('button', { name: 'Läs in', exact: true }).click();
}

test('[supplier orders] an order confirmation in error is listed and counted on the dashboard, handled to a work order whose rows then hold it; another is discarded', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app, '/supplierorders');
  await expect(page.getByRole('heading', { name: 'Leverantörsordrar', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await expect(page.getByText('Inga felaktiga leverantörsordrar från de senaste två månaderna.')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // the work order the technician bought for (set up over the API, as the session), and an article of ours
  const api = page.request;
  const customers = (await (await api.get(`${app.url}/api/customers?limit=1`)).json()) as Json;
  const order = (await (
    await api.post(`${app.url}/api/wo`, {
      data: { workOrder: { title: 'Magnetkontakter E2E-order', customerId: customers.customers[0].id } },
    })
  ).json()) as Json;
  const woNumber = order.workOrder.number as string;
  const articles = (await (await api.get(`${app.url}/api/articles?sort=articleId&limit=1`)).json()) as Json;
  const articleNumber = articles.articles[0].articleId as string;

  const before = await card(page);

  // the wholesaler's confirmation names a reference no open order has: it is in error
  await page.goto(`${app.url}/supplierorders`);
  await hydrated(page);
  await upload(page, 'E2E-7001.xml', orderResponse('E2E-7001', 'Kontor plan 3', articleNumber));
  await expect(page.getByText(/Order E2E-7001: arbetsorderreferensen matchade ingen öppen arbetsorder/)).toBeVisible({
    timeout: SLOW,
  });
  const listed = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Order E2E-7001 från Elgrossisten Norr AB' }) });
  await expect(listed).toBeVisible();
  await expect(listed.getByText('Arbetsorderreferens: Kontor plan 3')).toBeVisible();
  await expect(listed.getByRole('cell', { name: 'Magnetkontakt E2E-order' })).toBeVisible();
  expect(await seriousViolations(page, '#main')).toEqual([]);

  // the dashboard counts it
  expect(await card(page)).toBe(before + 1);

  // handled to the work order by its number: the row arrives there
  await page.goto(`${app.url}/supplierorders`);
  await hydrated(page);
  const field = listed.getByLabel('Arbetsorder (nummer eller titel)');
  await field.fill('finns inte');
  await listed.getByRole('button', { name: 'Lägg till på arbetsordern' }).click();
  await expect(listed.getByText('Ingen öppen arbetsorder har det numret eller den titeln')).toBeVisible({
    timeout: SLOW,
  });
  await field.fill(woNumber);
  await listed.getByRole('button', { name: 'Lägg till på arbetsordern' }).click();
  await expect(page.getByText(`Rader tillagda på arbetsorder ${woNumber}: 1.`)).toBeVisible({ timeout: SLOW });
  await expect(page.getByRole('heading', { name: 'Order E2E-7001 från Elgrossisten Norr AB' })).toHaveCount(0);
  expect(await card(page)).toBe(before);
  await page.goto(`${app.url}/work-orders/${order.workOrder.id}`);
  await hydrated(page);
  await expect(page.getByRole('region', { name: 'Artiklar' }).getByText('Magnetkontakt E2E-order').first()).toBeVisible(
    {
      timeout: SLOW,
    },
  );

  // another confirmation in error is discarded after a confirmation
  await page.goto(`${app.url}/supplierorders`);
  await hydrated(page);
  await upload(page, 'E2E-7002.xml', orderResponse('E2E-7002', 'Okänd order', articleNumber));
  const other = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Order E2E-7002 från Elgrossisten Norr AB' }) });
  await expect(other).toBeVisible({ timeout: SLOW });
  await other.getByRole('button', { name: 'Kasta' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Kasta order E2E-7002?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Kasta' }).click();
  await expect(page.getByText('Ordern kastades.')).toBeVisible({ timeout: SLOW });
  await expect(other).toHaveCount(0);

  // the page at phone width: it fits, and passes axe
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`${app.url}/supplierorders`);
  await hydrated(page);
  await expect(page.getByRole('heading', { name: 'Leverantörsordrar', level: 1 })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});
