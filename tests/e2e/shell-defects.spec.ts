import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { hydrated, signIn } from './helpers';

/**
 * Issue 28 in the browser, the shell's small defects: closing a PDF preview leaves the page alive
 * (item 10), the register menu hydrates without a raw key (item 17), the planning board's
 * technician column stays in view (item 18), the company name fits a phone's top bar (item 19).
 */
let app: RunningApp;
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

/** The page's uncaught errors and console errors (React's hydration error #418 is one). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}

test('[files] closing a PDF preview leaves the page as it was, without an error', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await signIn(page, app, '/inventory/objects');
  await page.waitForURL((u) => u.pathname === '/inventory/objects');
  const res = await page.request.get(`${app.url}/api/bo?limit=1`);
  const bo = ((await res.json()) as { bos: { id: string }[] }).bos[0]!.id;
  await page.goto(`${app.url}/inventory/objects/${bo}?tab=files`);
  await hydrated(page);
  await page.getByRole('tab', { name: /^(Filer|Files)$/ }).click();
  const files = page.getByRole('region', { name: /^(Filer|Files)/ });
  const chooser = page.waitForEvent('filechooser');
  await files.getByRole('button', { name: /Ladda upp|Upload/ }).click();
  await (await chooser).setFiles([{ name: 'Stängs.pdf', mimeType: 'application/pdf', buffer: pdf }]);
  for (let round = 1; round <= 2; round++) {
    await files.getByRole('button', { name: 'Stängs.pdf', exact: true }).click();
    const preview = page.getByRole('dialog', { name: 'Stängs.pdf' });
    await expect(preview.getByRole('img', { name: /1/ })).toBeVisible({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    await expect(preview).toBeHidden();
  }
  // the page is still there, not the whole-page error
  await expect(page.getByRole('heading', { name: /Något gick fel|Something went wrong/ })).toHaveCount(0);
  await expect(files.getByRole('button', { name: 'Stängs.pdf', exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});

test('[inventory] the register menu names the door automatics after hydration, without a hydration error', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await signIn(page, app, '/inventory/objects');
  await page.waitForURL((u) => u.pathname === '/inventory/objects');
  await hydrated(page);
  for (const path of ['/inventory/customers', '/inventory/doorautomatics']) {
    await page.goto(`${app.url}${path}`);
    await hydrated(page);
    const registers = page.getByRole('navigation', { name: /Register/ });
    await expect(registers.getByRole('link', { name: 'Dörrautomatik' })).toBeVisible();
    await expect(registers.getByRole('link', { name: 'nav', exact: true })).toHaveCount(0);
  }
  expect(errors.filter((e) => !/favicon/.test(e))).toEqual([]);
});

test('[calendar] the technician column stays in view when the month view is scrolled to its end', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app, '/work-orders/calendar?period=month&perspective=technician&step=1');
  await hydrated(page);
  const board = page.getByRole('table', { name: /Planeringstavla|Planning board/ });
  const name = board.getByRole('rowheader').first();
  await expect(name).toBeVisible();
  // the month is wider than the screen: scroll it to its last day
  const overflow = await board.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeGreaterThan(200);
  await board.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect.poll(() => board.evaluate((el) => el.scrollLeft)).toBeGreaterThanOrEqual(overflow - 1);
  const boardBox = (await board.boundingBox())!;
  const nameBox = (await name.boundingBox())!;
  expect(Math.abs(nameBox.x - boardBox.x)).toBeLessThan(2);
  await expect(name).toBeInViewport();
  // and the column's heading with it
  const heading = board.getByRole('columnheader').first();
  expect(Math.abs((await heading.boundingBox())!.x - boardBox.x)).toBeLessThan(2);
});

test('[shell] the company name is not cut on a phone; the menus beside it shrink to initials', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, app, '/');
  await hydrated(page);
  const company = page.getByRole('banner').getByRole('link', { name: 'Nordlarm Säkerhet AB' });
  await expect(company).toBeVisible();
  const cut = await company.evaluate((link) => {
    const text = link.querySelector('span')!;
    return text.scrollWidth > text.clientWidth + 1 || text.scrollHeight > text.clientHeight + 1;
  });
  expect(cut).toBe(false);
  // the user menu keeps the full name as its accessible name
  const userMenu = page.getByRole('banner').getByRole('button', { name: /^Maria Lindqvist/ });
  await expect(userMenu).toBeVisible();
  expect((await userMenu.boundingBox())!.width).toBeLessThan(100);
});
