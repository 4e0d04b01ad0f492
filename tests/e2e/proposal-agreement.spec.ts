import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { ADMIN, hydrated, pick, signIn } from './helpers';

/**
 * Issue 28 item 3 in the browser: an accepted proposal with a monthly price makes the object agreement
 * that bills it ("Skapa avtal": type and valid-from), whose invoice row shows on the object's Agreement
 * tab at 3 × 249 = 747 kr a quarter per unit; the proposal then says which agreement bills it.
 */
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

test('[proposals] accepting a monthly price creates the object agreement that bills it', async ({ page, request }) => {
  test.setTimeout(240_000);
  // a quarterly type billing the object's invoice rows (the demo types bill a fixed price)
  const auth = await request.post(`${app.url}/api/authenticate`, { data: ADMIN });
  expect(auth.status()).toBe(200);
  const headers = { authorization: `Bearer ${(await auth.json()).token}` };
  const type = await request.post(`${app.url}/api/agreements`, {
    headers,
    data: {
      agreement: {
        title: 'Larm artiklar',
        validFrom: '2026-01-01',
        invoiceInterval: 'quarter',
        priceModel: 'articles',
      },
    },
  });
  expect(type.status(), await type.text()).toBe(200);
  const typeId = ((await type.json()) as { id: string }).id;

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app, '/proposals');
  await page.waitForURL((u) => u.pathname === '/proposals');
  await page.getByRole('link', { name: 'Passagesystem entré' }).click();
  await page.waitForURL(/\/proposals\/[0-9a-f-]{36}$/);
  await hydrated(page);
  await page
    .getByRole('textbox', { name: /^(Månadspris|Monthly price)$/ })
    .first()
    .fill('249');
  await pick(page, page.getByRole('combobox', { name: /^(Objekt|Object)$/ }), '50007', /^50007/);
  await expect(page.getByTestId('save-state')).toHaveText(/Sparad|Saved/, { timeout: 30_000 });
  await page.getByRole('button', { name: /^Acceptera$/ }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /^Acceptera$/ })
    .click();

  const notice = page.getByTestId('monthly-notice');
  await notice.getByRole('button', { name: 'Skapa avtal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Skapa avtal' });
  await dialog.getByRole('combobox', { name: 'Avtalstyp' }).selectOption({ value: typeId });
  expect(await seriousViolations(page, '[role=dialog]')).toEqual([]);
  await dialog.getByRole('button', { name: 'Skapa', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  const billedBy = notice.getByRole('link', { name: 'Faktureras av avtalet på objekt 50007' });
  await expect(billedBy).toBeVisible();
  await expect(notice.getByRole('button', { name: 'Skapa avtal' })).toHaveCount(0);

  await billedBy.click();
  await page.waitForURL(/\/inventory\/objects\/[0-9a-f-]{36}\?tab=agreement$/);
  await hydrated(page);
  // the demo row's amount is 3: one invoice row, 3 × (3 × 249 kr/month = 747 kr a quarter) = 2 241 kr
  await expect(page.getByRole('row', { name: /Rörelsedetektor.* 3 747,00 — 2\s241,00/ })).toBeVisible();
});
