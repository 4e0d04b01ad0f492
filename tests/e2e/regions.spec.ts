import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { hydrated, signIn } from './helpers';

/**
 * Issue 36 item 4 in the browser (decision 067): the admin keeps the regions register from Settings
 * (add, a name taken whatever its case, rename, deactivate, delete after confirming, refused while in
 * use), puts a new object in a region, and filters the work-order list by region.
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

test('[settings] regions: the register, an object in a region, and the work-order list by region', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, app, '/settings');
  await expect(page.getByRole('heading', { name: 'Inställningar', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await page.getByRole('link', { name: 'Regioner' }).click();
  await expect(page.getByRole('heading', { name: 'Regioner', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  const list = page.getByRole('list', { name: 'Regioner' });
  // the demo's projects were in Uppsala: the name became the register's first row
  await expect(list.getByRole('listitem').filter({ hasText: 'Uppsala' })).toContainText('2 projekt');
  expect(await seriousViolations(page)).toEqual([]);

  const name = page.getByRole('textbox', { name: 'Namn', exact: true });
  for (const region of ['Norr', 'Syd']) {
    await name.fill(region);
    await page.getByRole('button', { name: 'Lägg till region' }).click();
    await expect(list.getByRole('listitem').filter({ hasText: region })).toBeVisible({ timeout: SLOW });
  }
  await name.fill('norr');
  await page.getByRole('button', { name: 'Lägg till region' }).click();
  await expect(page.getByText('Det finns redan en region med det namnet').first()).toBeVisible({ timeout: SLOW });

  await page.getByRole('button', { name: 'Byt namn på Syd' }).click();
  await page.getByRole('textbox', { name: 'Nytt namn för Syd' }).fill('Söder');
  await page.getByRole('button', { name: 'Spara' }).click();
  await expect(list.getByRole('listitem').filter({ hasText: 'Söder' })).toBeVisible({ timeout: SLOW });
  await page.getByRole('button', { name: 'Inaktivera Söder' }).click();
  await expect(list.getByRole('listitem').filter({ hasText: 'Söder' })).toContainText('(inaktiv)', { timeout: SLOW });

  // in use: refused, with the advice
  await page.getByRole('button', { name: 'Ta bort Uppsala' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Ta bort', exact: true }).click();
  await expect(page.getByText(/Regionen används och kan inte tas bort/).first()).toBeVisible({ timeout: SLOW });
  await page.getByRole('button', { name: 'Ta bort Söder' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Söder tas bort ur registret');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Ta bort', exact: true }).click();
  await expect(list.getByRole('listitem').filter({ hasText: 'Söder' })).toHaveCount(0, { timeout: SLOW });

  // a new object in a region: only the active ones are offered
  await page.goto(`${app.url}/inventory/objects/new`);
  await hydrated(page);
  await page.getByLabel('Serienummer').fill('E2E-REG-1');
  await page.getByRole('button', { name: /Region/ }).click();
  await expect(page.getByRole('option')).toHaveText(['Ingen region', 'Norr', 'Uppsala']);
  await page.getByRole('option', { name: 'Norr' }).click();
  await page.getByRole('button', { name: 'Skapa objekt' }).click();
  await expect(page.getByRole('heading', { name: 'E2E-REG-1' })).toBeVisible({ timeout: SLOW });
  await expect(page.getByRole('button', { name: /Region/ })).toContainText('Norr');

  // the work-order list: every region by default (the admin has none), or one
  await page.goto(`${app.url}/`);
  await hydrated(page);
  await page.getByRole('button', { name: /^Filter/ }).click();
  const region = page.getByRole('combobox', { name: 'Region' });
  await expect(region).toHaveValue('all');
  await region.selectOption('Norr');
  await expect(page).toHaveURL(/[?&]region=Norr/, { timeout: SLOW });
});
