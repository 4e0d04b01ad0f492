import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';

const ADMIN = { email: 'admin@nordlarm.se', password: 'ordo-demo-2026' };
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

async function hydrated(page: Page) {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

async function signIn(page: Page, to: string) {
  await page.goto(`${app.url}/login?redirectTo=${encodeURIComponent(to)}`);
  await hydrated(page);
  await page.getByLabel('E-post').fill(ADMIN.email);
  await page.getByLabel('Lösenord').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Logga in' }).click();
}

test('[import-export] the admin checks a customer file, sees the bad rows, imports the good ones and exports them', async ({
  page,
}) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-import-')), 'kunder.csv');
  fs.writeFileSync(
    file,
    [
      'customerId;name;type;email;street;city',
      '90001;Brf Importen;company;styrelsen@importen.se;Importgatan 1;Uppsala',
      '90002;Importerad Person;private;;;',
      '90001;Dubbletten AB;company;;;',
      '90003;;company;;;',
    ].join('\r\n'),
  );

  await signIn(page, '/settings/import-export');
  await expect(page.getByRole('heading', { name: 'Import och export' })).toBeVisible();
  await hydrated(page);
  await page.getByLabel('CSV-fil').setInputFiles(file);
  await page.getByRole('button', { name: 'Kontrollera filen' }).click();

  await expect(page.getByText('4 rader: 2 giltiga, 2 med fel.')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Brf Importen' })).toBeVisible();
  await expect(page.getByText(/Rad 3, customerId: Kundnumret används redan/)).toBeVisible();
  await expect(page.getByText(/Rad 4, name:/)).toBeVisible();
  // All-or-none waits for a clean file.
  await expect(page.getByRole('button', { name: 'Importera alla eller inga' })).toBeDisabled();

  await page.getByRole('button', { name: 'Importera 2 giltiga rader' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Importera' }).click();
  await expect(page.getByText('2 rader importerades, 2 hoppades över.')).toBeVisible();

  // The imported customers are in the register, and its export follows the list's search.
  await page.goto(`${app.url}/inventory/customers?q=Importe`);
  await expect(page.getByText('Brf Importen')).toBeVisible();
  await expect(page.getByText('Importerad Person')).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Exportera (CSV)' }).click();
  const csv = fs.readFileSync((await (await download).path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toContain('customerId;name');
  expect(csv).toContain('90001;Brf Importen');
  expect(csv).toContain('90002;Importerad Person');
  expect(csv).not.toContain('Dubbletten');
  expect(csv.trim().split('\r\n')).toHaveLength(3);
});

test('[import-export] a scanned QR link (/?source=qr&id=) opens the QR page', async ({ page }) => {
  await signIn(page, '/?source=qr&id=no-such-ref');
  await expect(page).toHaveURL(/\/qr\/no-such-ref$/);
});
