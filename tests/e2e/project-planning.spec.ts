import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { fillDate, hydrated, signIn } from './helpers';

/**
 * Issue 18's resource planning in the browser: the office plans Anna on the demo's new building by
 * the keyboard, drags the plan a week later, stretches it a week, opens it and deletes it; the step
 * is kept in the URL; on a phone the calendar scrolls sideways with the names kept in view.
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

const PROJECT = /Nybygge Kvarnen/;
/** The calendar takes no drag or key while a change is saving or the plan reloads: wait for it. */
const idle = (page: Page) =>
  expect(page.locator('[role="region"][aria-busy="true"]')).toHaveCount(0, { timeout: SLOW });
const addDays = (iso: string, days: number) => {
  const d = new Date(`${iso}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

test('[projects] plan a person, drag the plan a week, stretch it, delete it', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/projects/planning');
  await expect(page.getByRole('heading', { name: 'Resursplanering', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  // the demo's plans: Erik and Sara on the new building
  const erik = page.getByTestId('resource-bar').filter({ hasText: PROJECT }).first();
  await expect(erik).toBeVisible();

  // the step is remembered in the URL
  await page.getByRole('button', { name: '6 mån' }).click();
  await expect(page).toHaveURL(/step=6/);
  await expect(page.getByRole('button', { name: '6 mån' })).toHaveAttribute('aria-pressed', 'true');

  // plan by the keyboard: the row's + for Anna, then the dialog
  const monday = (() => {
    const d = new Date();
    d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7) + 14);
    return d.toISOString().slice(0, 10);
  })();
  await page.getByRole('button', { name: /^Planera Anna/ }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Planera en resurs' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Projekt' }).fill('Kvarnen');
  await page.getByRole('option', { name: PROJECT }).click();
  await fillDate(page, dialog.getByRole('group', { name: 'Från' }), monday);
  await fillDate(page, dialog.getByRole('group', { name: 'Till' }), addDays(monday, 4));
  await dialog.getByRole('textbox', { name: 'Timmar per dag' }).fill('6');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog).toBeHidden({ timeout: SLOW });
  const row = page.locator('li', { has: page.getByRole('button', { name: /^Planera Anna/ }) });
  const bar = row.getByTestId('resource-bar').filter({ hasText: PROJECT });
  await expect(bar).toHaveAttribute('aria-label', new RegExp(`${monday} – ${addDays(monday, 4)}, 6 h/dag`));

  // drag it one week to the right (a week column's width)
  await idle(page);
  const week = await page.getByTestId('planner-week').first().boundingBox();
  const box = (await bar.boundingBox())!;
  await page.mouse.move(box.x + 8, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 8 + week!.width / 2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.move(box.x + 8 + week!.width, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(bar).toHaveAttribute('aria-label', new RegExp(`${addDays(monday, 7)} – ${addDays(monday, 11)}`), {
    timeout: SLOW,
  });

  // stretch it a week by the keyboard, once the move is saved (keys wait while a change is saving)
  await idle(page);
  await bar.focus();
  await page.keyboard.press('Shift+ArrowRight');
  await expect(bar).toHaveAttribute('aria-label', new RegExp(`${addDays(monday, 7)} – ${addDays(monday, 18)}`), {
    timeout: SLOW,
  });

  // open it and delete it, after the question
  await idle(page);
  await bar.click();
  const edit = page.getByRole('dialog', { name: 'Ändra planeringen' });
  await expect(edit).toBeVisible();
  await edit.getByRole('button', { name: 'Ta bort' }).click();
  await page.getByRole('alertdialog', { name: 'Ta bort planeringen' }).getByRole('button', { name: 'Ta bort' }).click();
  await expect(row.getByTestId('resource-bar')).toHaveCount(0, { timeout: SLOW });
});

test('[projects] on a phone the calendar scrolls sideways and keeps the names in view', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await signIn(page, app, '/projects/planning?step=12');
  await expect(page.getByRole('heading', { name: 'Resursplanering', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  const calendar = page.getByRole('region', { name: /Resurskalender/ });
  const wide = await calendar.evaluate((el) => el.scrollWidth > el.clientWidth);
  expect(wide).toBe(true);
  await calendar.evaluate((el) => (el.scrollLeft = el.scrollWidth));
  // the name column stays at the left edge
  const name = page.getByText('Erik Johansson').first();
  const nameBox = (await name.boundingBox())!;
  expect(nameBox.x).toBeLessThan(60);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await context.close();
});
