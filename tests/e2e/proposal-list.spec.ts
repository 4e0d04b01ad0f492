import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { hydrated, signIn } from './helpers';

/**
 * Issue 13, the proposal list and a proposal's history in the browser: active proposals moved with
 * the arrow buttons and by dragging (the order stays after a reload), the creator filter, and the
 * history naming what a save changed.
 */
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

test('[proposals] reorder the list with a button and by dragging, filter by creator', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app, '/proposals');
  await page.waitForURL((u) => u.pathname === '/proposals');
  await hydrated(page);
  const lines = page.getByTestId('proposal-line');
  const titles = () => lines.locator('a').allTextContents();
  await expect(lines.first()).toContainText('Inbrottslarm trapphus');
  const before = await titles();
  expect(before.slice(0, 3)).toEqual(['Inbrottslarm trapphus', 'Kameraövervakning garage', 'Passagesystem entré']);

  await page.getByRole('button', { name: /Flytta ned Inbrottslarm trapphus|Move Inbrottslarm trapphus down/ }).click();
  await expect(lines.first()).toContainText('Kameraövervakning garage');
  await expect.poll(titles).toEqual([before[1], before[0], ...before.slice(2)]);

  // drag the third to the top
  await lines.nth(2).dragTo(lines.nth(0));
  await expect(lines.first()).toContainText('Passagesystem entré');
  await page.waitForLoadState('networkidle');
  await page.reload();
  await hydrated(page);
  await expect.poll(titles).toEqual([before[2], before[1], before[0], ...before.slice(3)]);

  // someone who made none of them: the empty state
  const creator = page.getByRole('combobox', { name: /Skapad av|Created by/ });
  const names = await creator.locator('option').allTextContents();
  const admin = await page.getByRole('button', { name: /Maria Lindqvist/ }).count();
  expect(admin).toBe(1);
  const other = names.find((n) => n !== 'Alla' && n !== 'Maria Lindqvist');
  expect(other).toBeTruthy();
  await creator.selectOption({ label: other! });
  await expect(page.getByText(/Inga offerter|No proposals/)).toBeVisible();
  await creator.selectOption({ label: 'Maria Lindqvist' });
  await expect(lines).toHaveCount(before.length);
  // the arrows are only offered while the list shows active proposals
  await page.getByRole('combobox', { name: /^(Status)$/ }).selectOption({ label: 'Alla' });
  await expect(lines.first()).toBeVisible();
  await expect(page.getByRole('button', { name: /Flytta ned/ })).toHaveCount(0);
});

test('[proposals] the history shows who saved what', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app, '/proposals');
  await page.waitForURL((u) => u.pathname === '/proposals');
  await hydrated(page);
  await page.getByRole('link', { name: 'Utökning brandlarm' }).click();
  await page.waitForURL(/\/proposals\/[0-9a-f-]{36}$/);
  await hydrated(page);
  await page.getByRole('textbox', { name: /^(Betalningsvillkor|Payment terms)$/ }).fill('30 dagar netto');
  await expect(page.getByTestId('save-state')).toHaveText(/Sparad|Saved/, { timeout: 15_000 });
  await page.getByRole('button', { name: /Visa historik|Show history/ }).click();
  const history = page.getByTestId('record-history');
  await expect(history.getByRole('listitem').first()).toContainText('Maria Lindqvist');
  await expect(history.getByRole('listitem').first()).toContainText(/Sparade · betalningsvillkor/);
  await page.getByRole('button', { name: /Dölj historik|Hide history/ }).click();
  await expect(history).toBeHidden();
});
