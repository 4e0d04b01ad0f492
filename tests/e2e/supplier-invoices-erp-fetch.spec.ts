import { expect, test } from './fixtures';
import { fortnoxPluginOptions, startFortnoxFake, type FortnoxFake } from '../fakes/fortnox';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { connectFortnox, hydrated } from './helpers';

/*
 * Issue 33 item 1 (its last part) in the browser, on the demo company connected to Fortnox (the
 * local fake): a supplier invoice a person typed in Fortnox awaits approval there; the office
 * presses "Fetch from the ERP" on /supplierinvoices, sees the fetch under way (the fake holds
 * Fortnox's list until the test has seen it), then its result, and the invoice waiting in the
 * to-approve list marked as coming from the ERP.
 */

let app: RunningApp;
let fake: FortnoxFake;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fake = await startFortnoxFake();
  app = await startApp({
    PLUGIN_OPTIONS: JSON.stringify(fortnoxPluginOptions(fake)),
  });
});
test.afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

test('[supplier invoices] fetch the invoices awaiting approval in Fortnox, see the fetch run and the invoice to approve', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await connectFortnox(page, app);
  // typed in Fortnox by a person: the supplier's card and its invoice of 1 000 kr + 25 % VAT
  fake.addSupplier({ SupplierNumber: '77', Name: 'Elgrossisten Norr AB', OrganisationNumber: '556732-1707' });
  fake.addSupplierInvoice({
    SupplierNumber: '77',
    InvoiceNumber: 'EN-E2E-1',
    InvoiceDate: '2026-03-02',
    DueDate: '2026-04-01',
    Total: 1250,
    VAT: 250,
    OCR: '5544332211',
    SupplierInvoiceRows: [
      { Code: 'TOT', Account: 2440, Credit: 1250 },
      { Code: 'VAT', Account: 2641, Debit: 250 },
      { Account: 4010, Debit: 1000, TransactionInformation: 'Kabel EKK 3G1,5', Quantity: 100, Price: 10 },
    ],
  });
  const release = fake.holdNextSupplierInvoiceList();

  await page.goto(`${app.url}/supplierinvoices`);
  await expect(page.getByRole('heading', { name: 'Leverantörsfakturor', level: 1 })).toBeVisible({
    timeout: 60_000,
  });
  await hydrated(page);
  const fetchBox = page.getByTestId('erp-fetch');
  const state = fetchBox.getByRole('status');
  await expect(state).toHaveText('Leverantörsfakturor registrerade i affärssystemet har inte hämtats ännu.');
  await expect(page.getByRole('link', { name: /EN-E2E-1/ })).toHaveCount(0);

  await fetchBox.getByRole('button', { name: 'Hämta från affärssystemet' }).click();
  // under way while Fortnox has not answered: the page says so and looks again by itself
  await expect(state).toHaveText('Hämtar leverantörsfakturor från affärssystemet…', { timeout: 60_000 });
  expect(await seriousViolations(page)).toEqual([]);
  release();
  await expect(state).toHaveText(/^Senast hämtat .+: 1 nya, 0 fanns redan\.$/, { timeout: 60_000 });

  // the fetched invoice waits to be approved, marked as the ERP's
  const row = page.getByRole('row', { name: /EN-E2E-1/ });
  await expect(row).toBeVisible({ timeout: 60_000 });
  await expect(row).toContainText('Elgrossisten Norr AB');
  await expect(row).toContainText('Från affärssystemet');
  await expect(row).toContainText('1 250');
  expect(await seriousViolations(page)).toEqual([]);
});
