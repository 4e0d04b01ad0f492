import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { hydrated, signIn } from './helpers';

let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

/** Fills one rule row: day, 24-hour start and end, and the person. */
async function fillRow(page: Page, row: number, rule: { day: string; start: string; end: string; person: string }) {
  const li = page.getByRole('listitem', { name: `Regel ${row}` });
  await li.getByRole('button', { name: /Dag/ }).click();
  await page.getByRole('option', { name: rule.day }).click();
  await li.getByRole('textbox', { name: 'Start' }).fill(rule.start);
  await li.getByRole('textbox', { name: 'Slut' }).fill(rule.end);
  await li.getByRole('button', { name: /Fördela till/ }).click();
  await page.getByRole('option', { name: rule.person }).click();
}

test('[dispatch] rules past midnight: an overlap with the next day is shown on the row, a touching one saves', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, app, '/settings');
  await expect(page.getByRole('link', { name: 'Fördelningsregler' })).toBeVisible();
  await page.getByRole('link', { name: 'Fördelningsregler' }).click();
  await expect(page.getByRole('heading', { name: 'Fördelningsregler' })).toBeVisible();
  await hydrated(page);
  await expect(page.getByText('Inga fördelningsregler ännu.')).toBeVisible();

  await page.getByRole('button', { name: 'Lägg till regel' }).click();
  await fillRow(page, 1, { day: 'Måndag', start: '22:00', end: '02:00', person: 'Erik Johansson' });
  await expect(page.getByRole('listitem', { name: 'Regel 1' }).getByText('fortsätter över midnatt')).toBeVisible();
  await page.getByRole('button', { name: 'Lägg till regel' }).click();
  await fillRow(page, 2, { day: 'Tisdag', start: '01:00', end: '06:00', person: 'Erik Johansson' });
  await page.getByRole('button', { name: 'Spara regler' }).click();
  const second = page.getByRole('listitem', { name: 'Regel 2' });
  await expect(second.getByText('Överlappar regel 1')).toBeVisible();
  await expect(second.getByText('Tidsintervallet överlappar en annan fördelningsregel')).toBeVisible();

  await second.getByRole('textbox', { name: 'Start' }).fill('02:00');
  await page.getByRole('button', { name: 'Spara regler' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Fördelningsreglerna sparades' }).first()).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('listitem', { name: 'Regel 2' }).getByRole('textbox', { name: 'Start' })).toHaveValue(
    '02:00',
  );
  await expect(page.getByText('Överlappar regel 1')).toHaveCount(0);
});
