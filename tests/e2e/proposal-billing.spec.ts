import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { acceptIntoSalesOrder, hydrated, openProposal, pick, signIn } from './helpers';

/**
 * Issue 28 items 1 and 11 in the browser, on the demo company: a proposal accepted into a sales
 * order, the sales order makes its work order (the object asked for and marked first), the work
 * order's close bills the rows once and closes the sales order with it; reopening the proposal
 * warns, and accepting it into a work order again opens the same work order instead of a second one.
 */
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

test('[proposals] proposal → sales order → work order → invoice bills each row exactly once', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app, '/proposals');
  await page.waitForURL((u) => u.pathname === '/proposals');
  await openProposal(page, 'Kameraövervakning garage', app.url);
  const proposalUrl = page.url();

  // no object yet: "accept and create work order" says so beforehand instead of failing
  await expect(page.getByTestId('object-missing')).toBeVisible();
  await expect(page.getByRole('button', { name: /Acceptera och skapa arbetsorder/ })).toBeDisabled();

  await acceptIntoSalesOrder(page);
  const salesUrl = page.url();

  // the sales order makes its work order; without an object the field is marked and nothing is made
  await page.getByRole('button', { name: 'Skapa arbetsorder' }).click();
  const dialog = page.getByRole('alertdialog');
  const object = dialog.getByRole('combobox', { name: /^Objekt/ });
  await dialog.getByRole('button', { name: 'Skapa arbetsorder' }).click();
  await expect(dialog).toBeVisible();
  await expect(object).toHaveAttribute('aria-invalid', 'true');
  // the dialog itself (React Aria's announcer keeps references to the closed accept dialog)
  expect(await seriousViolations(page, '[role=alertdialog]')).toEqual([]);
  await pick(page, object, '5', /^5\d{4}/);
  await expect(object).not.toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: 'Skapa arbetsorder' }).click();
  await page.waitForURL(/\/work-orders\/[0-9a-f-]{36}$/, { timeout: 60_000 });
  const workOrderUrl = page.url();
  await hydrated(page);

  // the sales order is billed through it: no close of its own
  await page.goto(salesUrl);
  await hydrated(page);
  await expect(page.getByText(/Faktureras via arbetsorder #\d+/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await expect(page.getByRole('button', { name: 'Stäng och fakturera' })).toHaveCount(0);

  // reopening the proposal warns; accepting into a work order again opens the same work order
  await page.goto(proposalUrl);
  await hydrated(page);
  await page.getByRole('button', { name: /Åtgärder/ }).click();
  await page.getByRole('menuitem', { name: 'Öppna igen' }).click();
  const reopen = page.getByRole('alertdialog');
  await expect(reopen).toContainText('faktureras en gång');
  await reopen.getByRole('button', { name: 'Öppna igen' }).click();
  await expect(page.getByRole('button', { name: /Acceptera och skapa arbetsorder/ })).toBeVisible();
  // still no object on the proposal: the button stays off and says why
  await expect(page.getByRole('button', { name: /Acceptera och skapa arbetsorder/ })).toBeDisabled();
  // accepting again uses the sales order it made (billed through its work order): no second order
  await page.getByRole('button', { name: /^Acceptera$/ }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /^Acceptera$/ })
    .click();
  await page.getByRole('link', { name: 'Öppna försäljningsordern' }).click();
  await page.waitForURL(/\/sales\/[0-9a-f-]{36}$/);
  expect(page.url()).toBe(salesUrl);

  // the work order closes into one invoice; the sales order is closed with it
  await page.goto(workOrderUrl);
  await hydrated(page);
  await page.getByRole('button', { name: 'Stäng arbetsorder' }).click();
  await page.getByRole('dialog', { name: 'Stäng arbetsorder' }).getByRole('button', { name: 'Stäng ordern' }).click();
  // the order confirmation is asked for only when the customer has an address for it
  const confirm = page.getByRole('dialog', { name: 'Bekräftelse till kunden' });
  const invoiceLink = page.getByRole('link', { name: /^Faktura \d+/ });
  await expect(confirm.or(invoiceLink).or(page.getByRole('alert')).first()).toBeVisible({ timeout: 60_000 });
  if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Skicka inte' }).click();
  await expect(invoiceLink).toHaveCount(1, { timeout: 60_000 });

  await page.goto(salesUrl);
  await hydrated(page);
  await expect(page.getByText(/Fakturerad/).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stäng och fakturera' })).toHaveCount(0);
  // the sales order has no invoice of its own: the rows were billed once, on the work order's
  await expect(page.getByRole('link', { name: /^Faktura \d+/ })).toHaveCount(0);
});

test('[proposals] a monthly price is not lost: the proposal says an object agreement bills it and links to it', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app, '/proposals');
  await page.waitForURL((u) => u.pathname === '/proposals');
  await openProposal(page, 'Passagesystem entré', app.url);
  await expect(page.getByTestId('monthly-notice')).toHaveCount(0);
  await page
    .getByRole('textbox', { name: /^(Månadspris|Monthly price)$/ })
    .first()
    .fill('249');
  await expect(page.getByTestId('save-state')).toHaveText(/Sparad|Saved/, { timeout: 30_000 });
  const notice = page.getByTestId('monthly-notice');
  await expect(notice).toContainText('kr/mån');
  await expect(notice).toContainText('Välj ett objekt');
  expect(await seriousViolations(page)).toEqual([]);
  await pick(page, page.getByRole('combobox', { name: /^(Objekt|Object)$/ }), '5', /^5\d{4}/);
  await expect(notice.getByRole('link', { name: 'Skapa avtalet på objektet' })).toBeVisible();
  await notice.getByRole('link', { name: 'Skapa avtalet på objektet' }).click();
  await page.waitForURL(/\/inventory\/objects\/[0-9a-f-]{36}\?tab=agreement$/);
});
