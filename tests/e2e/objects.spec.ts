import { expect, test, type Page } from '@playwright/test';
import { startApp, type RunningApp } from './app-server';
import { hydrated, signIn } from './helpers';

let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

/** Types into a search picker and picks the option that appears. */
async function pick(page: Page, label: string, text: string, option: RegExp) {
  const box = page.getByRole('combobox', { name: label });
  await box.fill(text);
  await page.getByRole('option', { name: option }).click();
}

test('[objects] a model and an object with its customer, an access code revealed and logged, the QR label and /qr', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/inventory/models');
  await expect(page.getByRole('heading', { name: 'Modeller' })).toBeVisible();
  await hydrated(page);
  // The customer comes through the customers API (same session cookie); objects are ours to test.
  const customer = await page.request.post(`${app.url}/api/customers`, {
    data: { customer: { customerId: '90001', name: 'Brf Testgården', type: 'company' } },
  });
  expect(customer.status(), await customer.text()).toBe(200);

  await page.getByRole('button', { name: 'Ny modell' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Kod').fill('E2E GFX');
  await dialog.getByLabel('Namn').fill('Galaxy Flex E2E');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  // A code with a space is refused next to the field.
  await expect(dialog.getByText('ID får inte innehålla mellanslag.')).toBeVisible();
  await dialog.getByLabel('Kod').fill('E2E-GFX');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  const modelRow = page.getByRole('row', { name: 'E2E-GFX' });
  await expect(modelRow).toContainText('Galaxy Flex E2E');
  await expect(modelRow).toContainText('Aktiv');

  await page.goto(`${app.url}/inventory/objects/new`);
  await hydrated(page);
  await page.getByLabel('Serienummer').fill('E2E-0001');
  await pick(page, 'Modell', 'Flex E2E', /Galaxy Flex E2E/);
  await pick(page, 'Kund', 'Testgården', /Brf Testgården/);
  await page.getByLabel('Placering', { exact: true }).fill('Teknikrum, källarplan');
  await page.getByRole('button', { name: 'Skapa objekt' }).click();
  await expect(page.getByRole('heading', { name: 'E2E-0001' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Objektet är skapat.' })).toBeVisible();
  await expect(page.getByText('Galaxy Flex E2E · Teknikrum, källarplan')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Brf Testgården' })).toBeVisible();
  await hydrated(page);

  await page.getByRole('tab', { name: 'Koder' }).click();
  await page.getByLabel('Ny kodgrupp').fill('Larmkoder');
  await page.getByRole('button', { name: 'Lägg till grupp' }).click();
  const addCode = page.getByRole('form', { name: 'Ny kod i Larmkoder' });
  await addCode.getByLabel('Kodens namn').fill('Huvudkod');
  await addCode.getByLabel('Kod', { exact: true }).fill('4711-E2E');
  await addCode.getByRole('button', { name: 'Lägg till kod' }).click();
  await expect(page.getByText('••••••')).toBeVisible();
  // The value is not in the page until someone asks for it.
  expect(await page.content()).not.toContain('4711-E2E');
  await page.getByRole('button', { name: 'Visa Huvudkod' }).click();
  await expect(page.getByText('4711-E2E')).toBeVisible();
  await page.getByRole('button', { name: 'Dölj Huvudkod' }).click();
  await expect(page.getByText('4711-E2E')).toHaveCount(0);

  await page.getByRole('link', { name: 'Säkerhetslogg' }).click();
  await expect(page.getByRole('heading', { name: 'Säkerhetslogg' })).toBeVisible();
  const viewed = page.getByRole('row').filter({ hasText: 'Kod visad' });
  await expect(viewed).toHaveCount(1);
  for (const text of ['E2E-0001', 'Larmkoder › Huvudkod', 'Maria Lindqvist']) await expect(viewed).toContainText(text);
  await expect(page.getByRole('row').filter({ hasText: 'Kod tillagd' })).toContainText('E2E-0001');
  await expect(page.getByRole('row').filter({ hasText: 'Grupp tillagd' })).toContainText('Larmkoder');
  // The value never reaches the log.
  expect(await page.content()).not.toContain('4711-E2E');

  await page.getByRole('link', { name: 'E2E-0001' }).first().click();
  await expect(page.getByRole('heading', { name: 'E2E-0001' })).toBeVisible();
  await page.getByRole('link', { name: 'Skriv ut etikett' }).first().click();
  const label = page.locator('#qr-label');
  await expect(label.locator('svg')).toBeVisible();
  await expect(label).toContainText('E2E-0001');
  await expect(label).toContainText('Galaxy Flex E2E');
  await expect(label).toContainText('Nordlarm Säkerhet AB');
  const url = (await page.getByText(/Koden leder till/).textContent())!.replace('Koden leder till ', '');
  const ref = new URL(url).searchParams.get('id')!;
  expect(new URL(url).searchParams.get('source')).toBe('qr');

  await page.goto(`${app.url}/qr/${ref}`);
  await expect(page.getByRole('heading', { name: 'E2E-0001' })).toBeVisible();
  await expect(page).toHaveURL(/\/inventory\/objects\/[0-9a-f-]{36}$/);
  await page.goto(`${app.url}/qr/unknown-ref`);
  await expect(page.getByRole('heading', { name: 'QR-referensen hittades inte.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Till objekten' })).toBeVisible();
});
