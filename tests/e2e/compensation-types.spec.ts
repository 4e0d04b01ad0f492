import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { hydrated, signIn } from './helpers';

/**
 * Issue 17 part 2 in the browser: the admin opens Settings → compensation types from the settings
 * page, adds an expense type and a mileage type with its price per km, changes one, deletes it
 * after confirming, and, for 821 that the demo's trips use, is offered to set it inactive instead
 * of deleting it — and activates it again.
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

test('[settings] compensation types: add, change, delete after confirming, set a used one inactive', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/settings');
  await expect(page.getByRole('heading', { name: 'Inställningar', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await page.getByRole('link', { name: 'Ersättningstyper' }).click();
  await expect(page.getByRole('heading', { name: 'Ersättningstyper', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);

  // The seeded codes by type, with the code's standard name and price.
  const distance = page.getByTestId('compensation-distance');
  const expense = page.getByTestId('compensation-expense');
  await expect(
    distance.getByRole('listitem').filter({ hasText: '821 · Milersättning egen bil, skattefri' }),
  ).toContainText('2,50 per km');
  await expect(page.getByTestId('compensation-travel')).toContainText('811 · Traktamente hel dag, skattefritt');
  await expect(expense).toContainText('892 · Utlägg');

  // An expense type: no price, entered per report.
  await expense.getByRole('button', { name: 'Lägg till typ' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lägg till ersättningstyp' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: /^Pris per/ })).toHaveCount(0);
  await dialog.getByRole('textbox', { name: /^Kod/ }).fill('E2E1');
  await dialog.getByRole('textbox', { name: /^Namn/ }).fill('Parkering E2E');
  await dialog.getByRole('textbox', { name: /^Lönekod/ }).fill('8930');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog).toBeHidden();
  const parking = expense.getByRole('listitem').filter({ hasText: 'E2E1 · Parkering E2E' });
  await expect(parking).toContainText('Belopp anges per rapport');
  await expect(parking).toContainText('Lönekod: 8930');

  // The same code again is refused at the field.
  await expense.getByRole('button', { name: 'Lägg till typ' }).click();
  await dialog.getByRole('textbox', { name: /^Kod/ }).fill('e2e1');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog.getByText('Det finns redan en ersättningstyp med den koden.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Avbryt' }).click();
  await expect(dialog).toBeHidden();

  // A mileage type at 3,10 per km, then renamed.
  await distance.getByRole('button', { name: 'Lägg till typ' }).click();
  await dialog.getByRole('textbox', { name: /^Kod/ }).fill('E2E2');
  await dialog.getByRole('textbox', { name: /^Pris per km/ }).fill('3,10');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog).toBeHidden();
  await expect(distance.getByRole('listitem').filter({ hasText: 'E2E2' })).toContainText('3,10 per km');
  await distance.getByRole('button', { name: 'Ändra E2E2' }).click();
  const edit = page.getByRole('dialog', { name: 'Ändra E2E2' });
  await edit.getByRole('textbox', { name: /^Namn/ }).fill('Milersättning E2E');
  await edit.getByRole('button', { name: 'Spara' }).click();
  await expect(edit).toBeHidden();
  await expect(distance).toContainText('E2E2 · Milersättning E2E');

  // Deleting asks first; an unused type goes.
  await expense.getByRole('button', { name: 'Ta bort E2E1 · Parkering E2E' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Ta bort ersättningstypen?' });
  await expect(confirm).toContainText('E2E1 · Parkering E2E tas bort.');
  await confirm.getByRole('button', { name: 'Ta bort' }).click();
  await expect(page.getByText('Borttaget.')).toBeVisible();
  await expect(expense).not.toContainText('E2E1');

  // 821 is on the demo's trips: deleting it offers to set it inactive instead.
  const label821 = '821 · Milersättning egen bil, skattefri';
  await distance.getByRole('button', { name: `Ta bort ${label821}` }).click();
  await page
    .getByRole('alertdialog', { name: 'Ta bort ersättningstypen?' })
    .getByRole('button', { name: 'Ta bort' })
    .click();
  const inUse = page.getByRole('alertdialog', { name: 'Typen används' });
  await expect(inUse).toBeVisible();
  await inUse.getByRole('button', { name: 'Gör inaktiv' }).click();
  await expect(inUse).toBeHidden();
  const row821 = distance.getByRole('listitem').filter({ hasText: label821 });
  await expect(row821).toContainText('Inaktiv');
  await distance.getByRole('button', { name: `Aktivera ${label821}` }).click();
  await expect(row821).not.toContainText('Inaktiv');
});
