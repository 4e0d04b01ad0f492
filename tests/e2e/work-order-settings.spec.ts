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

const section = (page: Page, name: string) => page.getByRole('region', { name });
const statusNames = (page: Page) => section(page, 'Statusar').getByRole('textbox', { name: 'Namn' });
/** The status names shown, in order (polled until they match). */
const expectStatuses = (page: Page, names: string[]) =>
  expect
    .poll(() => statusNames(page).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)))
    .toEqual(names);

async function open(page: Page) {
  await page.goto(`${app.url}/settings/work-orders`);
  await expect(page.getByRole('heading', { name: 'Arbetsorderinställningar' })).toBeVisible();
  await hydrated(page);
}

test('[wo-settings] the admin edits statuses, sees each rule refused on its row, adds a tag and sets required fields', async ({
  page,
}) => {
  await signIn(page, app, '/settings');
  await page.getByRole('navigation', { name: 'Inställningar' }).getByRole('link', { name: 'Arbetsordrar' }).click();
  await expect(page.getByRole('heading', { name: 'Arbetsorderinställningar' })).toBeVisible();
  await hydrated(page);
  const statuses = section(page, 'Statusar');
  await expect(statusNames(page)).toHaveCount(3);

  // Add "Väntar på delar" and move it above "Klar".
  await statuses.getByRole('button', { name: 'Lägg till status' }).click();
  await statusNames(page).nth(3).fill('Väntar på delar');
  await statuses.getByRole('button', { name: 'Flytta upp Väntar på delar' }).click();
  await expectStatuses(page, ['Ny', 'Pågående', 'Väntar på delar', 'Klar']);

  // No closing status: the list says so and nothing is saved.
  const closing = (i: number) =>
    statuses.getByTestId('status-row').nth(i).getByRole('checkbox', { name: 'Avslutande' });
  await closing(3).uncheck();
  await statuses.getByRole('button', { name: 'Spara statusar' }).click();
  await expect(statuses.getByText('Minst en status måste vara avslutande')).toBeVisible();
  await expect(page.getByRole('status')).toContainText('Kontrollera de markerade fälten');
  await closing(3).check();

  // The default status cannot also be closing: the error sits on that row.
  await closing(0).check();
  await statuses.getByRole('button', { name: 'Spara statusar' }).click();
  await expect(statuses.getByTestId('status-row').nth(0)).toContainText('Standardstatus kan inte vara avslutande');
  await closing(0).uncheck();

  // A duplicate name (any case) is refused on the later row.
  await statusNames(page).nth(1).fill('klar');
  await statuses.getByRole('button', { name: 'Spara statusar' }).click();
  await expect(statuses.getByTestId('status-row').nth(3)).toContainText('Namnet finns redan');
  await statusNames(page).nth(1).fill('Pågående');

  // Removing the default row (after confirming) leaves no default.
  await statuses.getByRole('button', { name: 'Ta bort Ny' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Ta bort ”Ny”?');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Ta bort' }).click();
  await expect(statusNames(page)).toHaveCount(3);
  await statuses.getByRole('button', { name: 'Spara statusar' }).click();
  await expect(statuses.getByText('Exakt en måste vara standard')).toBeVisible();

  // Start over from what is saved, then make "Pågående" the default and save the new status.
  await open(page);
  await expectStatuses(page, ['Ny', 'Pågående', 'Klar']);
  await statuses.getByRole('button', { name: 'Lägg till status' }).click();
  await statusNames(page).nth(3).fill('Väntar på delar');
  await statuses.getByTestId('status-row').nth(1).getByRole('radio', { name: 'Standard' }).check();
  await statuses.getByRole('button', { name: 'Spara statusar' }).click();
  await expect(page.getByRole('status')).toContainText('Sparat');
  await open(page);
  await expectStatuses(page, ['Ny', 'Pågående', 'Klar', 'Väntar på delar']);
  await expect(statuses.getByTestId('status-row').nth(1).getByRole('radio', { name: 'Standard' })).toBeChecked();
  await expect(statuses.getByTestId('status-row').nth(2).getByRole('checkbox', { name: 'Avslutande' })).toBeChecked();

  // A tag: spaces are refused, then a valid name with a colour is saved.
  const tags = section(page, 'Taggar');
  await expect(tags.getByText('Inga taggar ännu.')).toBeVisible();
  await tags.getByRole('button', { name: 'Lägg till tagg' }).click();
  await tags.getByRole('textbox', { name: 'Namn' }).fill('Två ord');
  await tags.getByLabel('Färg').fill('#dc2626');
  await tags.getByRole('button', { name: 'Spara taggar' }).click();
  await expect(tags.getByText('En tagg har minst 2 tecken, bara bokstäver och siffror.')).toBeVisible();
  await tags.getByRole('textbox', { name: 'Namn' }).fill('Brådskande');
  await tags.getByRole('button', { name: 'Spara taggar' }).click();
  await expect(page.getByRole('status')).toContainText('Sparat');

  // Required fields, mode and numbering.
  const options = section(page, 'Obligatoriska fält, läge och numrering');
  await options.getByRole('checkbox', { name: 'Telefon' }).check();
  await options.getByRole('checkbox', { name: 'Kundens ordernummer' }).check();
  await options.getByRole('button', { name: /Arbetsorderläge/ }).click();
  await page.getByRole('option', { name: 'Avancerat' }).click();
  await options.getByRole('textbox', { name: 'Nummerprefix' }).fill('AO-');
  await options.getByRole('textbox', { name: 'Nästa nummer' }).fill('2042');
  await expect(options.getByText('Nästa arbetsorder får nummer AO-2042')).toBeVisible();
  await options.getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByRole('status')).toContainText('Sparat');

  await open(page);
  await expect(section(page, 'Taggar').getByRole('textbox', { name: 'Namn' })).toHaveValue('Brådskande');
  await expect(section(page, 'Taggar').getByLabel('Färg')).toHaveValue('#dc2626');
  const saved = section(page, 'Obligatoriska fält, läge och numrering');
  await expect(saved.getByRole('checkbox', { name: 'Telefon' })).toBeChecked();
  await expect(saved.getByRole('checkbox', { name: 'Kundens ordernummer' })).toBeChecked();
  await expect(saved.getByRole('checkbox', { name: 'Tagg' })).not.toBeChecked();
  await expect(saved.getByRole('button', { name: /Arbetsorderläge/ })).toContainText('Avancerat');
  await expect(saved.getByRole('textbox', { name: 'Nästa nummer' })).toHaveValue('2042');
});

test('[wo-settings] office staff see the settings read-only, and the page fits a phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, app, '/settings/work-orders', 'anna.kontor@nordlarm.se');
  await expect(page.getByRole('heading', { name: 'Arbetsorderinställningar' })).toBeVisible();
  await hydrated(page);
  await expect(page.getByText('Du kan se inställningarna men inte ändra dem.')).toBeVisible();
  await expect(statusNames(page).first()).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Spara statusar' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Lägg till status' })).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
