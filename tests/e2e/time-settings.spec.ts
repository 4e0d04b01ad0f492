import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { hydrated, signIn } from './helpers';

/**
 * Issue 17 in the browser: Settings → time reporting. The admin sets the mode, a shorter Friday and
 * the lock day, and they are there after a reload; adds a time code, is told a bad code, changes
 * it, sets a seeded code inactive and back, and deletes the new one after confirming.
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

test('[time settings] mode, scheduled hours and lock day survive a reload', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/settings');
  await expect(page.getByRole('heading', { name: 'Inställningar', level: 1 })).toBeVisible({ timeout: SLOW });
  await page.getByRole('main').getByRole('link', { name: 'Tidrapportering' }).click();
  await expect(page.getByRole('heading', { name: 'Tidrapportering', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);

  await page.getByRole('button', { name: /Rapporteringssätt/ }).click();
  await page.getByRole('option', { name: 'Flera tidsintervall per dag' }).click();
  await expect(page.getByRole('textbox', { name: 'måndag' })).toHaveValue('8:00');
  await page.getByRole('textbox', { name: 'fredag' }).fill('6:30');
  await page.getByRole('textbox', { name: 'Låsdag' }).fill('31');
  await page.getByRole('button', { name: 'Spara', exact: true }).click();
  await expect(page.getByRole('status').getByText('Sparat')).toBeVisible();

  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('button', { name: /Rapporteringssätt/ })).toContainText('Flera tidsintervall per dag');
  await expect(page.getByRole('textbox', { name: 'fredag' })).toHaveValue('6:30');
  await expect(page.getByRole('textbox', { name: 'söndag' })).toHaveValue('0:00');
  await expect(page.getByRole('textbox', { name: 'Låsdag' })).toHaveValue('31');

  // a day that cannot be read is marked, and nothing is saved
  await page.getByRole('textbox', { name: 'tisdag' }).fill('hela dagen');
  await page.getByRole('button', { name: 'Spara', exact: true }).click();
  await expect(page.getByText('Skriv tiden som timmar:minuter, högst 24:00')).toBeVisible();
});

test('[time settings] time codes: add, refuse a bad code, change, set inactive, delete', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/settings/time-reports');
  await expect(page.getByRole('heading', { name: 'Tidrapportering', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);

  // the seeded codes show their meaning
  const absence = page.getByTestId('tags-absence');
  await expect(absence).toContainText('Vård av barn');
  await expect(absence).toContainText('Semester');
  await expect(page.getByTestId('tags-attend')).toContainText('07:00–16:00');

  await absence.getByRole('button', { name: 'Lägg till tidkod' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ny tidkod' });
  await dialog.getByRole('textbox', { name: 'Kod', exact: true }).fill('x');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog.getByText('Koden ska vara 2–10 versaler eller siffror')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Kod', exact: true }).fill('frisk');
  await expect(dialog.getByRole('textbox', { name: 'Kod', exact: true })).toHaveValue('FRISK');
  await dialog.getByRole('textbox', { name: 'Namn' }).fill('Friskvård');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog).toBeHidden();
  await expect(absence).toContainText('Friskvård');

  // a code that exists already
  await absence.getByRole('button', { name: 'Lägg till tidkod' }).click();
  await dialog.getByRole('textbox', { name: 'Kod', exact: true }).fill('SEM');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByText('Det finns redan en tidkod med den koden.').first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Avbryt' }).click();

  await absence.getByRole('button', { name: 'Ändra FRISK Friskvård' }).click();
  const edit = page.getByRole('dialog', { name: 'Ändra tidkod FRISK' });
  await edit.getByRole('textbox', { name: 'Namn' }).fill('Friskvårdstimme');
  await edit.getByRole('button', { name: 'Spara' }).click();
  await expect(edit).toBeHidden();
  await expect(absence).toContainText('Friskvårdstimme');

  // a seeded code set inactive and active again
  await absence.getByRole('button', { name: 'Gör inaktiv: OS5 Övrig frånvaro 5' }).click();
  await expect(absence.getByRole('listitem').filter({ hasText: 'OS5' })).toContainText('Inaktiv');
  await absence.getByRole('button', { name: 'Gör aktiv: OS5 Övrig frånvaro 5' }).click();
  await expect(absence.getByRole('listitem').filter({ hasText: 'OS5' })).not.toContainText('Inaktiv');

  await absence.getByRole('button', { name: 'Ta bort FRISK Friskvårdstimme' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Ta bort tidkod' });
  await expect(confirm).toContainText('FRISK');
  await confirm.getByRole('button', { name: 'Ta bort' }).click();
  await expect(page.getByText('Borttaget.')).toBeVisible();
  await expect(absence).not.toContainText('Friskvårdstimme');
});

test('[time settings] the page works on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, app, '/settings/time-reports');
  await expect(page.getByRole('heading', { name: 'Tidrapportering', level: 1 })).toBeVisible({ timeout: SLOW });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
