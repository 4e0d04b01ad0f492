import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startErplyFake, type ErplyFake } from '../fakes/erply';
import { startQuickBooksFake, type QuickBooksFake } from '../fakes/quickbooks-online';
import { startWintFake, type WintFake } from '../fakes/wint';
import { startApp, type RunningApp } from './app-server';
import { hydrated, signIn } from './helpers';

/**
 * Issue 15 in the browser: each new ERP's connect screen (Settings → ERP) against the local fake of
 * its vendor's API — QuickBooks Online through its consent page, Erply and Wint with their keys,
 * Magenta with nothing to connect — tested from the page, and the accounts saved.
 */
let app: RunningApp;
let quickbooks: QuickBooksFake;
let erply: ErplyFake;
let wint: WintFake;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  [quickbooks, erply, wint] = await Promise.all([startQuickBooksFake(), startErplyFake(), startWintFake()]);
  app = await startApp({
    PLUGIN_OPTIONS: JSON.stringify({
      quickbooks: {
        clientId: quickbooks.clientId,
        clientSecret: quickbooks.clientSecret,
        authorizeUrl: quickbooks.authorizeUrl,
        tokenUrl: quickbooks.tokenUrl,
        apiBaseUrl: quickbooks.url,
      },
      erply: { apiBaseUrl: `${erply.url}/api/` },
      wint: { apiBaseUrl: wint.url },
    }),
  });
});
test.afterAll(async () => {
  await app?.stop();
  await Promise.all([quickbooks?.close(), erply?.close(), wint?.close()]);
});

/** Signs in to Settings → ERP and chooses the ERP, confirming the switch when another one was in use. */
async function useErp(page: Page, name: string) {
  await signIn(page, app, '/settings/erp');
  await page.waitForURL((u) => u.pathname === '/settings/erp');
  await hydrated(page);
  const radio = page.getByRole('radio', { name: new RegExp(name) });
  // a person clicks the card (React Aria keeps the radio input itself out of the way)
  await page.locator('label').filter({ has: radio }).click();
  await expect(radio).toBeChecked();
  await page.getByRole('button', { name: `Använd ${name}` }).click();
  const sure = page.getByRole('alertdialog');
  await sure
    .getByRole('button', { name: `Använd ${name}` })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await expect(page.getByRole('radio', { name: new RegExp(`${name}.*\\(används\\)`) })).toBeChecked({
    timeout: 60_000,
  });
  await hydrated(page);
}

async function testConnection(page: Page, company: string) {
  await page.getByRole('button', { name: 'Testa anslutningen' }).click();
  await expect(page.getByText(`Anslutningen fungerar: ${company}`).first()).toBeVisible({ timeout: 60_000 });
}

test('[erp] connect QuickBooks Online on its consent page, test the connection and save the accounts', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await useErp(page, 'QuickBooks Online');
  const before = quickbooks.requestCount();
  await page.getByRole('button', { name: 'Anslut till QuickBooks Online' }).click();
  // Intuit's page (the fake's): the company is chosen, the person connects
  await page.getByRole('button', { name: 'Connect' }).click({ timeout: 60_000 });
  await expect(page).toHaveURL(/\/settings\/erp/, { timeout: 60_000 });
  await expect(page.getByText('Ansluten till Ordo Testbolag AB').first()).toBeVisible({ timeout: 60_000 });
  await hydrated(page);
  await testConnection(page, 'Ordo Testbolag AB');
  // the API was asked with the realm the consent page handed back
  expect(quickbooks.requestCount()).toBeGreaterThan(before);

  await page.getByRole('textbox', { name: 'Försäljning, 25 % moms' }).fill('3011');
  await page.getByRole('button', { name: 'Spara konton' }).click();
  await expect(page.getByText('Sparat').first()).toBeVisible({ timeout: 60_000 });
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('textbox', { name: 'Försäljning, 25 % moms' })).toHaveValue('3011');
});

test('[erp] connect Erply with client code, user and password; a wrong password gets Erply’s own words', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await useErp(page, 'Erply');
  const form = page.getByRole('form', { name: 'Nyckel för Erply' });
  await form.getByLabel('Kundkod').fill(erply.clientCode);
  await form.getByLabel('Användarnamn').fill(erply.username);
  // the user name is read as typed, the password masked
  await expect(form.getByLabel('Användarnamn')).toHaveAttribute('type', 'text');
  await expect(form.getByLabel('Lösenord')).toHaveAttribute('type', 'password');
  await form.getByLabel('Lösenord').fill('not-the-password');
  await form.getByRole('button', { name: 'Spara och anslut' }).click();
  await expect(page.getByText(/Affärssystemet svarade/).first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Ansluten till Ordo Test OÜ')).toHaveCount(0);

  await form.getByLabel('Kundkod').fill(erply.clientCode);
  await form.getByLabel('Användarnamn').fill(erply.username);
  await form.getByLabel('Lösenord').fill(erply.password);
  await form.getByRole('button', { name: 'Spara och anslut' }).click();
  await expect(page.getByText('Ansluten till Ordo Test OÜ').first()).toBeVisible({ timeout: 60_000 });
  await testConnection(page, 'Ordo Test OÜ');
});

test('[erp] connect Wint with its user name and API key', async ({ page }) => {
  test.setTimeout(180_000);
  await useErp(page, 'Wint');
  const form = page.getByRole('form', { name: 'Nyckel för Wint' });
  await form.getByLabel('Användarnamn').fill(wint.username);
  await form.getByLabel('API-nyckel').fill(wint.apiKey);
  await form.getByRole('button', { name: 'Spara och anslut' }).click();
  await expect(page.getByText('Ansluten till Larmteknik i Norr AB').first()).toBeVisible({ timeout: 60_000 });
  await testConnection(page, 'Larmteknik i Norr AB');
});

test('[erp] Magenta has nothing to connect: its card says it makes a file to import', async ({ page }) => {
  test.setTimeout(180_000);
  await useErp(page, 'Magenta');
  await expect(page.getByText('Inget att ansluta').first()).toBeVisible();
  await expect(page.getByText('Fakturafil att importera').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /^Anslut till/ })).toHaveCount(0);
});

test('[erp] Fortnox without a client id offers no sign-in and says what to configure; invoices offer no sending', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // this app's PLUGIN_OPTIONS give Fortnox no clientId: a sign-in would reach Fortnox with client_id=""
  await useErp(page, 'Fortnox');
  await expect(page.getByTestId('erp-not-configured')).toContainText('fortnox.clientId, fortnox.clientSecret');
  await expect(page.getByTestId('erp-not-configured')).toContainText('PLUGIN_OPTIONS');
  await expect(page.getByRole('button', { name: /^Anslut till/ })).toHaveCount(0);
  await expect(page.getByTestId('erp-state')).toHaveText('Inte ansluten');

  // an invoice of the demo: Fortnox is chosen but not connected, so nothing offers to send there
  await page.goto(`${app.url}/invoices`);
  await hydrated(page);
  const first = page.getByRole('main').locator('a[href^="/invoices/"]:not([href*="sie"]):visible').first();
  await first.click();
  await page.waitForURL(/\/invoices\/[0-9a-f-]{36}/);
  await hydrated(page);
  await expect(page.getByRole('button', { name: 'E-posta' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Skicka till Fortnox' })).toHaveCount(0);
});
