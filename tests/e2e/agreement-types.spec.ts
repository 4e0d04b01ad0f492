import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { hydrated, pick, signIn } from './helpers';

/** The first page view compiles it in development mode. */
const SLOW = 60_000;
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

test('[agreements] create a quarterly service agreement type with a discounted article; the list shows it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/agreements');
  await expect(page.getByRole('heading', { name: 'Avtalstyper', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  // The demo company's types are there.
  await expect(page.getByRole('row', { name: /SERV-Q/ })).toContainText('Kvartalsvis');

  // A new type: the title is enough, the code is made from it.
  await page.getByRole('button', { name: 'Ny avtalstyp' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ny avtalstyp' });
  await dialog.getByRole('textbox', { name: 'Benämning' }).fill('Service quarterly');
  await dialog.getByRole('button', { name: 'Skapa avtalstyp' }).click();
  await expect(page.getByRole('heading', { name: 'SERVICE-QUARTERLY · Service quarterly' })).toBeVisible({
    timeout: SLOW,
  });
  await expect(page.getByText('Avtalstypen är skapad.', { exact: false })).toBeVisible();
  await hydrated(page);

  // Invoiced each calendar quarter.
  await page.getByRole('button', { name: /Faktureringsintervall/ }).click();
  await page.getByRole('option', { name: 'Kvartalsvis' }).click();

  // An included article with 10 % discount.
  await expect(page.getByText('Inga artiklar ingår än.')).toBeVisible();
  await pick(page, page.getByRole('combobox', { name: 'Artikel', exact: true }), '90001', /90001/);
  await page.getByRole('button', { name: /Rabattyp/ }).click();
  await page.getByRole('option', { name: 'Procent' }).click();
  await page.getByLabel('Rabatt (%)').fill('10');
  await page.getByRole('button', { name: 'Lägg till artikel' }).click();
  const included = page.getByRole('table', { name: 'Ingående artiklar' });
  await expect(included.getByRole('row', { name: /90001/ })).toContainText('10 %');

  await page.getByRole('button', { name: 'Spara', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sparat' })).toBeVisible();

  // The list shows it with its invoicing in words.
  await page.getByRole('link', { name: 'Avtalstyper' }).first().click();
  await expect(page.getByRole('heading', { name: 'Avtalstyper', level: 1 })).toBeVisible({ timeout: SLOW });
  const row = page.getByRole('row', { name: /SERVICE-QUARTERLY/ });
  await expect(row).toContainText('Service quarterly');
  await expect(row).toContainText('Kvartalsvis, dag 1');
});

test('[agreements] the list works on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, app, '/agreements');
  await expect(page.getByRole('heading', { name: 'Avtalstyper', level: 1 })).toBeVisible({ timeout: SLOW });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
