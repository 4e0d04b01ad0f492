import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { submitAndWait } from './helpers';

/** The demo admin `npm start` prints (tenants/demo.ts). The UI speaks Swedish by default. */
const DEMO = { email: 'admin@nordlarm.se', password: 'ordo-demo-2026' };

let app: RunningApp;

/** The first submit of a route compiles its server code in the dev server; two busy cores need time. */
const SLOW = 60_000;

/** Menus, dialogs and checkboxes need JavaScript: wait until the page has hydrated. */
async function hydrated(page: Page) {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

/**
 * React Aria keeps the real checkbox or switch input visually hidden under its label, so a person
 * (and Playwright) presses the label.
 */
async function press(control: ReturnType<Page['getByRole']>) {
  await control.locator('xpath=ancestor::label[1]').click();
}

async function signIn(page: Page) {
  await page.goto(`${app.url}/login`);
  await hydrated(page);
  await page.getByLabel('E-post').fill(DEMO.email);
  await page.getByLabel('Lösenord').fill(DEMO.password);
  await page.getByRole('button', { name: 'Logga in' }).click();
  await expect(page.getByRole('heading', { name: /Välkommen/ })).toBeVisible();
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

test('[access] an admin creates an access level with two permissions, edits it and deletes it', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page);
  await page.goto(`${app.url}/settings/access-levels`);
  await expect(page.getByRole('heading', { name: 'Behörighetsnivåer', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Behörighetsnivåer' });
  await expect(table.getByRole('row', { name: /Tekniker/ })).toBeVisible();

  await hydrated(page);
  await page.getByRole('link', { name: 'Ny behörighetsnivå' }).click();
  await expect(page).toHaveURL(/\/settings\/access-levels\/new$/);
  await hydrated(page);
  await page.getByLabel('Namn').fill('Lagerpersonal');
  await page.getByLabel('Beskrivning').fill('Sköter lagret');
  await press(page.getByRole('checkbox', { name: 'Läsa artiklar', exact: true }));
  await press(page.getByRole('checkbox', { name: 'Redigera artiklar', exact: true }));
  await expect(page.getByText('2 av', { exact: false }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Skapa behörighetsnivå' }).click();

  // Back in the list: the new level with its two permissions; nobody holds it.
  await expect(page).toHaveURL(/\/settings\/access-levels\?created=1$/, { timeout: SLOW });
  await expect(page.getByRole('status')).toContainText('Sparat', { timeout: SLOW });
  const row = table.getByRole('row', { name: /Lagerpersonal/ });
  await expect(row).toContainText('Sköter lagret');
  // The name is the row header; the cells are description, permissions, limit, users.
  await expect(row.getByRole('cell').nth(1)).toHaveText('2');
  await expect(row.getByRole('cell').nth(3)).toHaveText('0');
  await expect(row).toContainText('Alla arbetsordrar');

  // Edit: a new name, a third permission, a narrower work-order limit.
  await row.getByText('Lagerpersonal').click();
  await expect(page.getByRole('heading', { name: 'Redigera behörighetsnivå' })).toBeVisible();
  await hydrated(page);
  await expect(page.getByRole('checkbox', { name: 'Läsa artiklar', exact: true })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Redigera artiklar', exact: true })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Ta bort artiklar', exact: true })).not.toBeChecked();
  await page.getByLabel('Namn').fill('Lager och inköp');
  await press(page.getByRole('checkbox', { name: 'Leverantörsbeställningar', exact: true }));
  await page.getByRole('button', { name: /Arbetsordrar som användarna ser/ }).click();
  await page.getByRole('option', { name: 'Skapade av användaren' }).click();
  await submitAndWait(page, page.getByRole('button', { name: 'Spara' }));
  await expect(page.getByRole('status')).toContainText('Sparat', { timeout: SLOW });

  await page.reload();
  await hydrated(page);
  await expect(page.getByLabel('Namn')).toHaveValue('Lager och inköp');
  await expect(page.getByRole('checkbox', { name: 'Leverantörsbeställningar', exact: true })).toBeChecked();
  await expect(page.getByRole('button', { name: /Arbetsordrar som användarna ser/ })).toContainText(
    'Skapade av användaren',
  );

  // Delete, after saying yes in the confirmation.
  await page.getByRole('button', { name: 'Ta bort', exact: true }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Ta bort behörighetsnivå' });
  await expect(dialog).toContainText('Lager och inköp');
  await dialog.getByRole('button', { name: 'Ta bort', exact: true }).click();
  await expect(page).toHaveURL(/\/settings\/access-levels\?deleted=1$/, { timeout: SLOW });
  await expect(page.getByRole('status')).toContainText('Behörighetsnivån har tagits bort', { timeout: SLOW });
  await expect(table.getByRole('row', { name: /Lager och inköp/ })).toHaveCount(0);
  await expect(table.getByRole('row', { name: /Tekniker/ })).toBeVisible();
});

test('[access] a level in use cannot be deleted, and the reason is shown', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto(`${app.url}/settings/access-levels`);
  await hydrated(page);
  await page.getByRole('table', { name: 'Behörighetsnivåer' }).getByText('Tekniker', { exact: true }).click();
  await expect(page.getByText('Användare med denna nivå: 2')).toBeVisible();
  await hydrated(page);
  await page.getByRole('button', { name: 'Ta bort', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Ta bort', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('Behörighetsnivån används av användare och kan inte tas bort', {
    timeout: SLOW,
  });
  await expect(page).toHaveURL(/\/settings\/access-levels\/[0-9a-f-]{36}$/);
});

test('[access] an admin switches an app module off and on', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto(`${app.url}/settings/modules`);
  await expect(page.getByRole('heading', { name: 'Appmoduler', level: 1 })).toBeVisible();
  await hydrated(page);
  const checklists = page.getByRole('switch', { name: 'Checklistor' });
  await expect(checklists).toBeChecked();

  await press(checklists);
  await expect(page.getByRole('status')).toContainText('Checklistor är avslagen', { timeout: SLOW });
  await expect(checklists).not.toBeChecked();
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('switch', { name: 'Checklistor' })).not.toBeChecked();

  // The keyboard alone switches it back on.
  await page.getByRole('switch', { name: 'Checklistor' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('status')).toContainText('Checklistor är påslagen', { timeout: SLOW });
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Checklistor' })).toBeChecked();
});
