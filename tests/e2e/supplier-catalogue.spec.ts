import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { hydrated, pick, signIn } from './helpers';

/**
 * Issue 33 item 6 in the browser, on a phone's width: the office uploads a wholesaler's price file
 * on the supplier's page, checks the columns against its first rows, loads it and sees it finish,
 * searches it; then a technician's row picker on a work order offers the price list's article
 * (marked as the supplier's) and picking it adds the row at the recommended price; and a proposal's
 * row picker (on a desktop) does the same, the row keeping its name and prices after a reload;
 * and a new article is filled in from the price list on the article screen and created.
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

/** A price file as a Swedish wholesaler sends it: semicolons, comma decimals, headings. */
function priceFile(rows: number): Buffer {
  const lines = ['Artikelnr;Benämning;Enhet;Nettopris;Rek. pris;Rabattgrupp'];
  for (let i = 0; i < rows; i++)
    lines.push(`E2E-${10000 + i};E2E-kabel ${i} m;m;${(5 + (i % 50)).toFixed(2).replace('.', ',')};;K`);
  lines.push('E2E-DET-1;E2E-detektor Panorama 360;st;412,50;689,00;L');
  return Buffer.from(lines.join('\r\n') + '\r\n', 'utf8');
}

async function noSeriousViolations(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

test('[supplier catalogue] upload, map and load a price list on the supplier, search it, pick its article on a work order and a proposal, make an article of it', async ({
  page,
}) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, app, '/inventory/suppliers');
  await expect(page.getByRole('heading', { name: 'Leverantörer', level: 1 })).toBeVisible({ timeout: SLOW });
  const api = page.request;
  const suppliers = (await (await api.get(`${app.url}/api/suppliers?q=Ahlsell`)).json()) as Json;
  const supplier = suppliers.suppliers[0] as Json;
  await page.goto(`${app.url}/inventory/suppliers/${supplier.id}`);
  const section = page.getByTestId('supplier-catalogue');
  await expect(section.getByRole('heading', { name: 'Prislista' })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await expect(section.getByText('Ingen prislista ännu.', { exact: false })).toBeVisible();

  // the file: chosen with the button, its first rows shown with the columns guessed from the headings
  const chooser = page.waitForEvent('filechooser');
  await section.getByRole('button', { name: 'Ladda upp prisfil' }).click();
  await (await chooser).setFiles({ name: 'ahlsell.csv', mimeType: 'text/csv', buffer: priceFile(3000) });
  const mapping = section.getByRole('region', { name: 'Koppla prisfilens kolumner' });
  await expect(mapping).toBeVisible({ timeout: SLOW });
  await expect(mapping.getByRole('region', { name: 'Filens första rader' })).toContainText('E2E-kabel 0 m');
  await expect(mapping.getByRole('checkbox', { name: 'Första raden är rubriker' })).toBeChecked();
  await expect(mapping.getByLabel(/^Artikelnummer/)).toHaveValue('0');
  await expect(mapping.getByLabel(/^Rabattgrupp/)).toHaveValue('5');
  await expect(mapping.getByLabel(/^Rekommenderat pris/)).toHaveValue('4');
  // a column is chosen by its letter and heading; the description is not in this file
  await expect(mapping.getByLabel(/^Beskrivning/)).toHaveValue('');
  await mapping.getByLabel(/^Enhet/).selectOption({ label: 'Kolumn C: Enhet' });
  await noSeriousViolations(page);

  await mapping.getByRole('button', { name: 'Läs in filen' }).click();
  // loading runs in the background; the page follows it to its end
  await expect(section.getByTestId('import-prices')).toContainText('ahlsell.csv är inläst: 3 001 rader.', {
    timeout: SLOW,
  });
  await expect(section.getByTestId('catalogue-count')).toContainText('Artiklar: 3 001');

  // the price list searched on the page; a word in 3,000 rows is counted to 1,000 and said so
  await section.getByRole('searchbox', { name: 'Sök i prislistan' }).fill('kabel');
  await expect(section.getByTestId('catalogue-search-count')).toHaveText('Matchande artiklar: fler än 1 000', {
    timeout: SLOW,
  });
  await section.getByRole('searchbox', { name: 'Sök i prislistan' }).fill('panorama');
  await expect(section.getByTestId('catalogue-search-count')).toHaveText('Matchande artiklar: 1', { timeout: SLOW });
  await expect(section.getByText('E2E-detektor Panorama 360')).toBeVisible();
  await noSeriousViolations(page);

  // a work order: the row picker finds the price list's article, marked as Ahlsell's
  const customers = (await (await api.get(`${app.url}/api/customers?limit=1`)).json()) as Json;
  const order = (await (
    await api.post(`${app.url}/api/wo`, {
      data: { workOrder: { title: 'Byte detektor E2E-prislista', customerId: customers.customers[0].id } },
    })
  ).json()) as Json;
  await page.goto(`${app.url}/work-orders/${order.workOrder.id}`);
  await expect(page.getByRole('heading', { name: 'Byte detektor E2E-prislista', level: 2 })).toBeVisible({
    timeout: SLOW,
  });
  await hydrated(page);
  await pick(
    page,
    page.getByRole('combobox', { name: 'Lägg till artikel' }),
    'E2E-DET',
    /E2E-DET-1 – E2E-detektor Panorama 360 · prislista från Ahlsell/,
  );
  const articles = page.getByRole('region', { name: 'Artiklar' });
  // on a phone the rows are cards (the wide table is hidden): the row of the free-text article, at the recommended price
  const row = articles.getByText('90009 – E2E-detektor Panorama 360').filter({ visible: true });
  await expect(row).toBeVisible({ timeout: SLOW });
  await expect(articles.getByText('689,00').filter({ visible: true }).first()).toBeVisible();
  await noSeriousViolations(page);

  // a proposal's row picker offers it too; the row is saved at the recommended price with the
  // discounted purchase price (the margin shows it) and is the same after a reload
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${app.url}/proposals/new`);
  await hydrated(page);
  await page.getByRole('textbox', { name: 'Rubrik' }).fill('Detektorer E2E-prislista');
  await page.getByRole('button', { name: 'Lägg till artikel' }).click();
  await pick(
    page,
    page.getByRole('combobox', { name: 'Artikel', exact: true }),
    'E2E-DET',
    /E2E-DET-1 – E2E-detektor Panorama 360 · prislista från Ahlsell/,
  );
  await page.getByRole('textbox', { name: 'Antal', exact: true }).fill('2');
  const status = page.getByTestId('save-state');
  await expect(status).toHaveText('Sparad', { timeout: SLOW });
  await page.waitForURL(/\/proposals\/[0-9a-f-]{36}$/);
  const priceCell = page.getByRole('textbox', { name: 'Pris', exact: true });
  await expect(priceCell).toHaveValue('689,00');
  // 2 × (689,00 − 412,50)
  const totals = page.getByTestId('proposal-totals');
  await expect(totals).toContainText(/1\s378/);
  await expect(totals).toContainText('553');
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('combobox', { name: 'Artikel', exact: true })).toHaveValue('E2E-detektor Panorama 360');
  await expect(priceCell).toHaveValue('689,00');
  await expect(totals).toContainText('553');
  await noSeriousViolations(page);

  // the article screen: a new article filled in from the price list, then created
  await page.goto(`${app.url}/inventory/articles/new`);
  await expect(page.getByRole('heading', { name: 'Ny artikel' })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  const fromList = page.getByRole('region', { name: 'Från en leverantörs prislista' });
  await expect(fromList.getByText('Skriv minst 2 tecken för att söka.')).toBeVisible();
  await fromList.getByRole('searchbox', { name: 'Sök i leverantörernas prislistor' }).fill('panorama');
  await expect(fromList.getByText('prislista från Ahlsell · Inköp 412,50 · Rek. pris 689,00')).toBeVisible({
    timeout: SLOW,
  });
  await page.getByRole('textbox', { name: 'Försäljningspris' }).fill('');
  await fromList.getByRole('button', { name: 'Hämta E2E-DET-1' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'E2E-DET-1 är hämtad från prislistan från Ahlsell' }),
  ).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Artikelnr' })).toHaveValue('E2E-DET-1');
  await expect(page.getByRole('textbox', { name: 'Benämning' })).toHaveValue('E2E-detektor Panorama 360');
  await expect(page.getByRole('textbox', { name: 'Enhet' })).toHaveValue('st');
  await expect(page.getByRole('textbox', { name: 'Inköpspris' })).toHaveValue('412,50');
  await expect(page.getByRole('textbox', { name: 'Rekommenderat pris' })).toHaveValue('689,00');
  await expect(page.getByRole('textbox', { name: 'Försäljningspris' })).toHaveValue('689,00');
  await noSeriousViolations(page);
  await page.getByRole('button', { name: 'Skapa artikel' }).click();
  await expect(page.getByRole('heading', { name: 'E2E-DET-1 · E2E-detektor Panorama 360' })).toBeVisible({
    timeout: SLOW,
  });
  // the stock panel's "Inköpspris per enhet" is another field
  await expect(page.getByRole('textbox', { name: 'Inköpspris', exact: true })).toHaveValue('412,50');
  await expect(page.getByRole('textbox', { name: 'Rekommenderat pris', exact: true })).toHaveValue('689,00');
});
