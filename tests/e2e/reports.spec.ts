import fs from 'node:fs';
import { expect, test } from './fixtures';
import { unzipEntry } from '../helpers/zip';
import { startApp, type RunningApp } from './app-server';
import { hydrated, signIn } from './helpers';

/**
 * Issue 17 part 6 in the browser: the admin opens the reports, sees the demo's work orders closed
 * this week (the demo closes "Service brandlarm" today), opens one from the table, comes back,
 * switches to the time tab (this month by default; last month, per person, with its chart) and downloads it
 * as XLSX.
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

test('[reports] closed work orders this week, the time tab, and its XLSX download', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/reports');
  await expect(page.getByRole('heading', { name: 'Rapporter', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);

  // this week's closed orders, by default
  await expect(page.getByRole('tab', { name: 'Arbetsorderhistorik', selected: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Denna vecka' })).toHaveAttribute('aria-current', 'true');
  const closed = page.getByRole('table', { name: 'Stängda arbetsordrar' });
  const row = closed.getByRole('row', { name: /Service brandlarm/ });
  await expect(row).toBeVisible();
  await expect(page.getByTestId('closed-summary')).toContainText('Arbetsordrar:');

  // the row opens the work order
  await row.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/work-orders\/[0-9a-f-]{36}$/, { timeout: SLOW });
  await page.goBack();
  await expect(closed).toBeVisible({ timeout: SLOW });

  // the time tab: this month per person, a chart that says what it draws, the same in the table
  await page.getByRole('tab', { name: 'Tid', exact: true }).click();
  await expect(page).toHaveURL(/tab=time/);
  await expect(page.getByRole('link', { name: 'Denna månad' })).toHaveAttribute('aria-current', 'true', {
    timeout: SLOW,
  });
  // last month surely has time in the demo's year of history (this month may have just begun)
  await page.getByRole('link', { name: 'Förra månaden' }).click();
  await expect(page.getByRole('link', { name: 'Förra månaden' })).toHaveAttribute('aria-current', 'true', {
    timeout: SLOW,
  });
  await expect(page.getByRole('img', { name: /^Total tid per grupp/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Tid per person' })).toBeVisible();

  // … and downloads as an Excel workbook
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Ladda ner Excel (XLSX)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^time-person-\d{4}-\d{2}-01_\d{4}-\d{2}-\d{2}\.xlsx$/);
  const xlsx = fs.readFileSync((await download.path())!);
  expect(xlsx.subarray(0, 2).toString('latin1')).toBe('PK');
  // the headings are shared strings (write-excel-file, decision 044), the sheet names them by index
  expect(unzipEntry(xlsx, 'xl/worksheets/sheet1.xml')).toContain('<c r="A1" s="1" t="s"><v>0</v></c>');
  const strings = unzipEntry(xlsx, 'xl/sharedStrings.xml');
  expect(strings).toMatch(/<t[^>]*>Person<\/t>/);
  expect(strings).toMatch(/<t[^>]*>Totalt \(tim\)<\/t>/);
});

test('[reports] on a phone the report scrolls sideways instead of overflowing the page', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, app, '/reports');
  await expect(page.getByRole('table', { name: 'Stängda arbetsordrar' })).toBeVisible({ timeout: SLOW });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
});
