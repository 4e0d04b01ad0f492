import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { companyDay, fillDate, hydrated, signIn } from './helpers';

/**
 * Issue 17 in the browser: the on-call schedule. The admin adds a shift for Anna (the demo's rota
 * has Erik and Sara), sees it on today's day of the month calendar, then on a phone finds it in
 * the day list, and deletes it after confirming.
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

test('[on-call] the admin adds a shift and sees it on the calendar; on a phone the month is a day list', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const today = companyDay(new Date());
  await signIn(page, app, '/time/on-call');
  await expect(page.getByRole('heading', { name: 'Jourschema', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  // the demo's rota: someone is on call now, and the month shows Erik and Sara
  await expect(page.getByTestId('on-call-now')).toContainText(/Jour just nu: (Erik Johansson|Sara Nilsson)/);
  const calendar = page.getByRole('table', { name: /Jourschema för/ });
  await expect(calendar).toContainText('Erik Johansson');

  await page.getByRole('button', { name: 'Lägg till jourpass', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Nytt jourpass' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: /Person/ }).click();
  await page.getByRole('option', { name: 'Anna Berg' }).click();
  // today 20:00 to 23:00, in the company's zone
  await fillDate(page, dialog.getByRole('group', { name: 'Start', exact: true }), `${today}T20:00`);
  await fillDate(page, dialog.getByRole('group', { name: 'Slut', exact: true }), `${today}T23:00`);
  await dialog.getByRole('textbox', { name: 'Kommentar' }).fill('E2E-jour');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByText('Sparat')).toBeVisible();
  await expect(dialog).toBeHidden();

  const cell = calendar.locator(`td[data-date="${today}"]`);
  await expect(cell).toContainText('Anna Berg');
  await expect(cell).toContainText('20:00–23:00');
  await expect(page.getByRole('region', { name: 'Jourpass' })).toContainText('E2E-jour');

  // the same person cannot be on call twice at once
  await page.getByRole('button', { name: 'Lägg till jourpass', exact: true }).click();
  await dialog.getByRole('button', { name: /Person/ }).click();
  await page.getByRole('option', { name: 'Anna Berg' }).click();
  await fillDate(page, dialog.getByRole('group', { name: 'Start', exact: true }), `${today}T22:00`);
  await fillDate(page, dialog.getByRole('group', { name: 'Slut', exact: true }), `${today}T23:30`);
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByText('Personen har redan jour under en del av den tiden.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Avbryt' }).click();

  // on a phone: the month's days as a list, no sideways scrolling
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(calendar).toBeHidden();
  const days = page.getByTestId('on-call-day-list');
  await expect(days).toBeVisible();
  const day = days.locator(`li[data-date="${today}"]`);
  await expect(day).toContainText('Anna Berg');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // change it from the day list, then delete it after confirming
  await day.getByRole('button', { name: /Ändra Anna Berg/ }).click();
  const edit = page.getByRole('dialog', { name: 'Ändra jourpass' });
  await expect(edit).toBeVisible();
  const start = edit.getByRole('group', { name: 'Start', exact: true });
  await expect(start.getByRole('spinbutton', { name: /dag/ })).toHaveAttribute(
    'aria-valuenow',
    String(Number(today.slice(8))),
  );
  await expect(start.getByRole('spinbutton', { name: /timme/ })).toHaveAttribute('aria-valuenow', '20');
  await expect(start.getByRole('spinbutton', { name: /minut/ })).toHaveAttribute('aria-valuenow', '0');
  await edit.getByRole('button', { name: 'Ta bort' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Ta bort jourpass' });
  await expect(confirm).toContainText('Anna Berg');
  await confirm.getByRole('button', { name: 'Ta bort' }).click();
  await expect(page.getByText('Borttaget.')).toBeVisible();
  await expect(day).not.toContainText('Anna Berg');
});

test('[on-call] months step back and forth, and today comes back', async ({ page }) => {
  await signIn(page, app, '/time/on-call');
  await expect(page.getByRole('heading', { name: 'Jourschema', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  const title = page.getByRole('heading', { level: 2 }).first();
  const thisMonth = await title.textContent();
  await page.getByRole('link', { name: 'Nästa månad' }).click();
  await expect(title).not.toHaveText(thisMonth ?? '');
  await expect(page).toHaveURL(/month=\d{4}-\d{2}/);
  await page.getByRole('link', { name: 'Idag' }).click();
  await expect(title).toHaveText(thisMonth ?? '');
  // three months ahead the demo has no rota: the empty state says so. Each step waits for its
  // month: a click while the last one still loads follows the same link again (the month it names)
  for (let i = 0; i < 3; i++) {
    const before = await title.textContent();
    await page.getByRole('link', { name: 'Nästa månad' }).click();
    await expect(title).not.toHaveText(before ?? '');
  }
  await expect(page.getByTestId('on-call-empty')).toContainText('Ingen har jour den här månaden.');
});
