import fs from 'node:fs';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { hydrated, signIn } from './helpers';

/**
 * Issue 36 item 2 in the browser (decision 065): the statistics page opened from the top bar's
 * finance menu; every table with its chart; the period switch in the address; a table downloaded
 * as CSV with the page's period; axe, and a phone's width.
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

const TABLES = [
  'Arbetsordrar per typ',
  'Arbetsordrar per status',
  'Arbetsordrar per tekniker',
  'Arbetsordrar per kund',
  'Intäkter per månad',
  'Intäkter per källa',
  'Rapporterade och fakturerade timmar',
  'Andel åtgärdat vid första besöket',
  'Avtalsintäkter',
];

test('[statistics] opened from the top bar: every table and chart, the period switched, a table downloaded as CSV', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app, '/');
  const nav = page.getByRole('navigation', { name: 'Huvudmeny' });
  await expect(nav.getByRole('button', { name: /^Ekonomi/ })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await nav.getByRole('button', { name: /^Ekonomi/ }).click();
  await page
    .getByRole('menu', { name: /^Ekonomi/ })
    .getByRole('menuitem', { name: 'Statistik' })
    .click();
  await expect(page).toHaveURL(`${app.url}/statistics`, { timeout: SLOW });
  await expect(page.getByRole('heading', { name: 'Statistik', level: 1 })).toBeVisible();
  await hydrated(page);
  for (const name of TABLES) await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Senaste 12 månaderna' })).toHaveAttribute('aria-current', 'page');
  // each chart is an image whose name reads out its figures
  await expect(page.getByRole('img', { name: / som diagram: / }).first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // the last 2 months: in the address, marked as chosen, and the dates of the period said
  await page.getByRole('link', { name: 'Senaste 2 månaderna' }).click();
  await expect(page).toHaveURL(`${app.url}/statistics?period=2m`);
  await expect(page.getByRole('link', { name: 'Senaste 2 månaderna' })).toHaveAttribute('aria-current', 'page');
  const today = new Date();
  const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
  await expect(page.getByText(new RegExp(`${first} – `))).toBeVisible();

  // the work orders by type as CSV, with the same period: Swedish headers, a total last
  const byType = page.getByRole('region', { name: 'Arbetsordrar per typ' });
  const download = page.waitForEvent('download');
  await byType.getByRole('link', { name: 'CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^statistics-byType-${first}_\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const lines = fs
    .readFileSync((await file.path())!, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('Arbetstyp;Arbetsordrar;Stängda;Öppna');
  expect(lines.at(-1)).toMatch(/^Totalt;\d+;\d+;\d+$/);

  // a phone: nothing wider than the screen
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'Statistik', level: 1 })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
