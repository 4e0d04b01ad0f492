import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { hydrated, signIn } from './helpers';

/** The first page view of a register compiles it in development mode. */
const SLOW = 60_000;
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

test('[suppliers] create a supplier: a mistyped IBAN is refused next to the field, the right one is saved', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/inventory/suppliers');
  await expect(page.getByRole('heading', { name: 'Leverantörer', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await page.getByRole('link', { name: 'Ny leverantör' }).click();
  await expect(page.getByRole('heading', { name: 'Ny leverantör' })).toBeVisible({ timeout: SLOW });
  await hydrated(page);

  await page.getByRole('button', { name: 'Föreslå nummer' }).click();
  await expect(page.getByLabel('Leverantörsnummer')).toHaveValue(/^\d{4}$/);
  await page.getByLabel('Leverantörsnummer').fill('7001');
  await page.getByRole('textbox', { name: 'Namn', exact: true }).fill('Lunds Lås & Larm');
  await page.getByLabel('Företagsnamn').fill('Lunds Lås och Larm AB');
  // One digit wrong: the check digits do not match.
  await page.getByLabel('IBAN').fill('SE45 5000 0000 0583 9825 7467');
  await page.getByLabel('BIC').fill('ESSESESS');
  await page.getByRole('textbox', { name: 'Taggar' }).fill('lås');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('list', { name: 'Leverantörens taggar' })).toContainText('lås');
  await page.getByRole('button', { name: 'Lägg till kontaktperson' }).click();
  await page.getByRole('textbox', { name: 'Namn', exact: true }).nth(1).fill('Olle Persson');
  await page.getByLabel('E-post').fill('olle@lundslas.se');
  await page.getByRole('button', { name: 'Skapa leverantör' }).click();

  await expect(page.getByText('Ogiltigt IBAN.')).toBeVisible();
  // Everything typed is still there; only the IBAN needs fixing.
  await expect(page.getByLabel('Företagsnamn')).toHaveValue('Lunds Lås och Larm AB');
  await page.getByLabel('IBAN').fill('se45 5000 0000 0583 9825 7466');
  await page.getByRole('button', { name: 'Skapa leverantör' }).click();

  await expect(page.getByRole('heading', { name: '7001 · Lunds Lås & Larm' })).toBeVisible({ timeout: SLOW });
  await expect(page.getByText('Leverantören är skapad.')).toBeVisible();
  await expect(page.getByLabel('IBAN')).toHaveValue('SE45 5000 0000 0583 9825 7466');
  await expect(page.getByLabel('E-post')).toHaveValue('olle@lundslas.se');
  await expect(page.getByText('Inga artiklar är kopplade till leverantören.')).toBeVisible();

  // The register finds it, and the settings page lists the same register.
  await page.goto(`${app.url}/inventory/suppliers?q=lunds`);
  await expect(page.getByRole('row', { name: 'Lunds Lås & Larm' })).toContainText('7001');
  await page.goto(`${app.url}/settings/articles/suppliers?q=lunds`);
  await expect(page.getByRole('row', { name: 'Lunds Lås & Larm' })).toBeVisible({ timeout: SLOW });

  // Deleting asks first.
  await page.getByRole('row', { name: 'Lunds Lås & Larm' }).click();
  await hydrated(page);
  await page.getByRole('button', { name: 'Ta bort leverantör' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Vill du ta bort Lunds Lås & Larm?');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Ta bort leverantör' }).click();
  await expect(page.getByText('Leverantören är borttagen.')).toBeVisible({ timeout: SLOW });
});

test('[suppliers] the list works on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page, app, '/inventory/suppliers');
  await expect(page.getByRole('heading', { name: 'Leverantörer', level: 1 })).toBeVisible({ timeout: SLOW });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
