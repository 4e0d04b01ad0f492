import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { hydrated, pick, signIn } from './helpers';

/**
 * Issue 16 item 6 in the browser: the admin writes a contract with two services and sees the
 * totals follow the typing, saves it, finds it in the list with its totals and closes it.
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

/** "3 500,00" as the spec prints money (space thousands separator, comma decimals). */
const money = (text: string) => new RegExp(text.replace(' ', '[\\s\\u00a0\\u202f]'));

test('[contracts] create a contract with two services, see the totals, find it in the list, close it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/contracts');
  await expect(page.getByRole('heading', { name: 'Kontrakt', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  // The demo's contracts are there.
  await expect(page.getByRole('row', { name: /Larmcentral och service/ })).toBeVisible();

  await page.getByRole('link', { name: 'Nytt kontrakt' }).click();
  await expect(page.getByRole('heading', { name: 'Nytt kontrakt', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);

  await page.getByRole('textbox', { name: 'Kontrakts-ID' }).fill('E2E-1');
  await page.getByRole('textbox', { name: 'Benämning' }).fill('Larmservice E2E');
  await pick(page, page.getByRole('combobox', { name: 'Kund' }), '10003', /^10003/);
  await page.getByRole('textbox', { name: 'Kontaktperson' }).fill('Helena Sjöberg');

  await page.getByRole('button', { name: 'Lägg till tjänst' }).click();
  await page.getByRole('button', { name: 'Lägg till tjänst' }).click();
  const names = page.getByRole('textbox', { name: 'Tjänst', exact: true });
  const values = page.getByRole('textbox', { name: 'Värde', exact: true });
  const costs = page.getByRole('textbox', { name: 'Kostnad', exact: true });
  await names.nth(0).fill('Larmcentral');
  await values.nth(0).fill('1 000');
  await costs.nth(0).fill('400');
  await names.nth(1).fill('Service två gånger per år');
  await values.nth(1).fill('2500');
  await costs.nth(1).fill('900,50');

  // The totals follow the typing.
  await expect(page.getByTestId('contract-total-value')).toHaveText(money('3 500,00'));
  await expect(page.getByTestId('contract-total-cost')).toHaveText(money('1 300,50'));
  await expect(page.getByTestId('contract-margin')).toHaveText(money('2 199,50'));

  await page.getByRole('button', { name: 'Skapa kontrakt' }).click();
  await expect(page.getByRole('heading', { name: 'E2E-1 · Larmservice E2E', level: 1 })).toBeVisible({ timeout: SLOW });
  await expect(page.getByText('Kontraktet är skapat.')).toBeVisible();
  await hydrated(page);
  await expect(page.getByRole('textbox', { name: 'Tjänst', exact: true })).toHaveCount(2);
  await expect(page.getByTestId('contract-total-value')).toHaveText(money('3 500,00'));

  // The list finds it, with its totals.
  await page.goto(`${app.url}/contracts?q=e2e`);
  await hydrated(page);
  const row = page.getByRole('row', { name: /E2E-1/ });
  await expect(row).toContainText('Larmservice E2E');
  await expect(row).toContainText(money('3 500,00'));
  await expect(row).toContainText(money('2 199,50'));

  // Closing it: read-only, and it leaves the open list.
  await row.click();
  await expect(page.getByRole('heading', { name: 'E2E-1 · Larmservice E2E', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await page.getByRole('button', { name: 'Avsluta kontrakt' }).click();
  await expect(page.getByRole('button', { name: 'Öppna kontraktet igen' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Benämning' })).toBeDisabled();
  await page.goto(`${app.url}/contracts?q=e2e`);
  await expect(page.getByText('Inga kontrakt matchar filtret.')).toBeVisible();
  await page.goto(`${app.url}/contracts?q=e2e&status=closed`);
  await expect(page.getByRole('row', { name: /E2E-1/ })).toContainText('Avslutat');
});

test('[contracts] the list works on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, app, '/contracts');
  await expect(page.getByRole('heading', { name: 'Kontrakt', level: 1 })).toBeVisible({ timeout: SLOW });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
