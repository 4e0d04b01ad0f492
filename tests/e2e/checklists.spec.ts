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

test('[checklists] make a template for Service in the settings, fill it in on a Service order, values kept after a reload', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, app, '/settings/checklists');
  await expect(page.getByRole('heading', { name: 'Checklistor', level: 1 })).toBeVisible({ timeout: 60_000 });
  await hydrated(page);
  await expect(page.getByText('Inga checklistor ännu.')).toBeVisible();

  await page.getByRole('button', { name: 'Ny checklista' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ny checklista' });
  // saving an empty template says what is missing
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog.getByText('Välj minst en arbetstyp')).toBeVisible({ timeout: 30_000 });
  await expect(dialog.getByText('Lägg till minst en punkt')).toBeVisible();

  await dialog.getByRole('textbox', { name: 'Rubrik' }).fill('Servicekontroll');
  await dialog.getByRole('checkbox', { name: 'Service' }).check();
  // items are added from the keyboard: the new item's text field takes the focus
  await dialog.getByRole('button', { name: 'Lägg till punkt' }).press('Enter');
  await page.keyboard.type('Spänning (V)');
  await dialog.getByRole('button', { name: 'Lägg till punkt' }).click();
  await dialog.getByRole('textbox', { name: 'Punkt 2' }).fill('Batteri bytt');
  // move "Batteri bytt" first, then make the second item a number
  await dialog.getByRole('button', { name: 'Flytta upp Batteri bytt' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Punkt 1' })).toHaveValue('Batteri bytt');
  await dialog.getByRole('button', { name: /Typ/ }).nth(1).click();
  await page.getByRole('option', { name: 'Tal' }).click();
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  const template = page.getByTestId('checklist-template').filter({ hasText: 'Servicekontroll' });
  await expect(template).toContainText('Arbetstyper: Service');
  await expect(template).toContainText('Batteri bytt · Spänning (V)');

  // a Service order of the demo company shows it
  await page.goto(`${app.url}/?search=Programmera`);
  await hydrated(page);
  await page
    .getByRole('link', { name: /Programmera nya taggar/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Programmera nya taggar', level: 2 })).toBeVisible({
    timeout: 60_000,
  });
  const checklist = page.getByTestId('checklist').filter({ hasText: 'Servicekontroll' });
  await expect(checklist).toContainText('Inte ifylld ännu', { timeout: 30_000 });
  await checklist.getByRole('checkbox', { name: /Batteri bytt/ }).check();
  const voltage = checklist.getByRole('textbox', { name: /Spänning/ });
  await voltage.fill('tolv');
  await checklist.getByRole('button', { name: 'Spara checklista' }).click();
  await expect(checklist.getByText('Ange ett tal')).toBeVisible({ timeout: 30_000 });
  await voltage.fill('12,5');
  await checklist.getByRole('button', { name: 'Spara checklista' }).click();
  await expect(checklist).toContainText('Sparad av', { timeout: 30_000 });
  await expect(checklist).toContainText('2 av 2 ifyllda');

  await page.reload();
  await hydrated(page);
  const again = page.getByTestId('checklist').filter({ hasText: 'Servicekontroll' });
  await expect(again.getByRole('checkbox', { name: /Batteri bytt/ })).toBeChecked({ timeout: 30_000 });
  await expect(again.getByRole('textbox', { name: /Spänning/ })).toHaveValue('12,5');
});
