import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { hydrated, signIn } from './helpers';

/**
 * Issue 29 item 6 in the browser: the UI kit's record form and list page, as the registers use
 * them. A changed contract says it is unsaved, asks before it is left, and a save over someone
 * else's shows why in the save bar; the supplier list keeps its filters in the URL, starts a
 * changed filter on the first page and says when nothing matches.
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

test('[record form] unsaved changes are named, leaving asks first, a stale save is refused in the save bar', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/contracts');
  await hydrated(page);
  await page.getByRole('row', { name: /Larmcentral och service/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Larmcentral och service', { timeout: SLOW });
  await hydrated(page);
  const url = page.url();
  const title = page.getByRole('textbox', { name: 'Benämning' });
  const unsaved = page.getByRole('status').filter({ hasText: 'Osparade ändringar' });

  // Nothing changed: leaving does not ask.
  await expect(unsaved).toHaveCount(0);
  await page.getByRole('link', { name: /Tillbaka till kontrakt/ }).click();
  await expect(page.getByRole('heading', { name: 'Kontrakt', level: 1 })).toBeVisible({ timeout: SLOW });
  await page.goBack();
  await hydrated(page);

  // Typing makes it unsaved; typing it back makes it clean again.
  const before = await title.inputValue();
  await title.fill(`${before} ändrad`);
  await expect(unsaved).toBeVisible();
  await title.fill(before);
  await expect(unsaved).toHaveCount(0);

  // A changed form asks before a link leaves it; staying keeps the typing.
  await title.fill(`${before} – uppdaterad`);
  await expect(unsaved).toBeVisible();
  await page.getByRole('link', { name: /Tillbaka till kontrakt/ }).click();
  const ask = page.getByRole('alertdialog', { name: 'Lämna utan att spara?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Avbryt' }).click();
  await expect(page).toHaveURL(url);
  await expect(title).toHaveValue(`${before} – uppdaterad`);

  // Someone else saves the same contract meanwhile (another tab of the same user).
  const other = await context.newPage();
  await other.goto(url);
  await hydrated(other);
  await other.getByRole('textbox', { name: 'Benämning' }).fill(`${before} (annan flik)`);
  await other.getByRole('button', { name: 'Spara', exact: true }).click();
  await expect(other.getByRole('heading', { level: 1 })).toContainText('(annan flik)', { timeout: SLOW });
  await other.close();

  // This tab's save is refused, and the save bar says why; the typing is still there to copy.
  await page.getByRole('button', { name: 'Spara', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Någon annan sparade kontraktet under tiden' })).toBeVisible({
    timeout: SLOW,
  });
  await expect(title).toHaveValue(`${before} – uppdaterad`);
  await expect(unsaved).toBeVisible();

  // Leaving anyway is the person's choice.
  await page.getByRole('link', { name: /Tillbaka till kontrakt/ }).click();
  await page.getByRole('alertdialog', { name: 'Lämna utan att spara?' }).getByRole('button', { name: 'Lämna sidan' }).click();
  await expect(page.getByRole('heading', { name: 'Kontrakt', level: 1 })).toBeVisible({ timeout: SLOW });
  await expect(page.getByRole('row', { name: /\(annan flik\)/ })).toBeVisible();

  // A save that lands leaves a clean form: the next link does not ask.
  await page.getByRole('row', { name: /\(annan flik\)/ }).click();
  await hydrated(page);
  await title.fill(before);
  await page.getByRole('button', { name: 'Spara', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).not.toContainText('(annan flik)', { timeout: SLOW });
  await expect(unsaved).toHaveCount(0);
  await page.getByRole('link', { name: /Tillbaka till kontrakt/ }).click();
  await expect(page.getByRole('heading', { name: 'Kontrakt', level: 1 })).toBeVisible({ timeout: SLOW });
});

test('[list page] filters live in the URL, a changed filter starts on page one, an empty result says so', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/inventory/suppliers?limit=20&offset=20');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);

  // The status filter reloads at once, from the first page, and keeps the page size.
  await page.getByRole('button', { name: /Visa/ }).click();
  await page.getByRole('option', { name: 'Alla' }).click();
  await expect(page).toHaveURL(/status=all/);
  expect(new URL(page.url()).searchParams.get('offset')).toBeNull();
  expect(new URL(page.url()).searchParams.get('limit')).toBe('20');

  // Searching keeps the status; nothing matches, and the list says that rather than "no suppliers".
  await page.getByRole('searchbox', { name: /Sök/ }).fill('finns-inte-någonstans');
  await page.getByRole('searchbox', { name: /Sök/ }).press('Enter');
  await expect(page).toHaveURL(/q=finns-inte/);
  expect(new URL(page.url()).searchParams.get('status')).toBe('all');
  await expect(page.getByText('Inget matchar sökningen.')).toBeVisible();

  // The URL is the view: opened afresh, it shows the same.
  await page.goto(page.url());
  await expect(page.getByRole('searchbox', { name: /Sök/ })).toHaveValue('finns-inte-någonstans');
  await expect(page.getByText('Inget matchar sökningen.')).toBeVisible();
});
