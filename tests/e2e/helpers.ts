import type { Locator, Page } from '@playwright/test';

/** The demo company's administrator (tenants/demo.ts). */
export const ADMIN = { email: 'admin@nordlarm.se', password: 'ordo-demo-2026' };

/**
 * The demo company's day at `at` (YYYY-MM-DD in Europe/Stockholm), the day the app's rules read: from
 * 23:00 UTC (22:00 in summer) it is already tomorrow there, so never take it from UTC's date.
 */
export function companyDay(at: Date = new Date()): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm' }).format(at);
}

/** Waits until React has hydrated the page, so JS widgets (pickers, dialogs) answer. */
export async function hydrated(page: Page) {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

/**
 * Signs in through the login page of `app` (the demo password; the admin unless `email` says
 * otherwise) and lands on `to`. Cookies are cleared first, so it also switches users; the form is
 * filled once hydrated (typing while React takes over the page can land in the wrong field).
 */
export async function signIn(page: Page, app: { url: string }, to: string, email: string = ADMIN.email) {
  await page.context().clearCookies();
  await page.goto(`${app.url}/login?redirectTo=${encodeURIComponent(to)}`);
  await hydrated(page);
  await page.getByLabel('E-post').fill(email);
  await page.getByLabel('Lösenord').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Logga in' }).click();
}

/**
 * Types `text` into a picker (a combo box) and picks the first option whose name matches `option`.
 * The field is scrolled into view first and the scroll allowed to settle: a combo box's list
 * closes when the page scrolls (React Aria), as it should for a person scrolling away.
 */
export async function pick(page: Page, combobox: Locator, text: string, option: RegExp) {
  await combobox.scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await combobox.fill(text);
  await page.getByRole('option', { name: option }).first().click();
}

/**
 * Types a `YYYY-MM-DD`, or a `YYYY-MM-DDTHH:MM` into a field with a time, into a date field's
 * segments (React Aria), whatever their order in the locale. An empty value clears the field.
 */
export async function fillDate(page: Page, group: Locator, iso: string) {
  const [date = '', time = ''] = iso.split('T');
  const [year, month, day] = date.split('-');
  const [hour, minute] = time.split(':');
  const segments = group.getByRole('spinbutton');
  const count = await segments.count();
  if (!iso) {
    // from the last segment back: Backspace takes a digit at a time, then the segment is empty
    for (let i = count - 1; i >= 0; i--) {
      const segment = segments.nth(i);
      await segment.click();
      for (let k = 0; k < 4 && (await segment.getAttribute('aria-valuenow')) !== null; k++)
        await page.keyboard.press('Backspace');
    }
    return;
  }
  for (let i = 0; i < count; i++) {
    const segment = segments.nth(i);
    const name = (await segment.getAttribute('aria-label')) ?? '';
    const value = /år|year/i.test(name)
      ? year
      : /månad|month/i.test(name)
        ? month
        : /dag|day/i.test(name)
          ? day
          : /timme|hour/i.test(name)
            ? hour
            : /minut/i.test(name)
              ? minute
              : null;
    if (!value) continue;
    await segment.click();
    await page.keyboard.type(value);
  }
}

/**
 * Settings → ERP on the demo company: Fortnox chosen and connected through its consent page (the
 * app started with the Fortnox fake in PLUGIN_OPTIONS). The page is left on Settings → ERP.
 */
export async function connectFortnox(page: Page, app: { url: string }) {
  await signIn(page, app, '/settings/erp');
  await hydrated(page);
  await page
    .locator('label')
    .filter({ has: page.getByRole('radio', { name: /Fortnox/ }) })
    .click();
  await page.getByRole('button', { name: 'Använd Fortnox' }).click();
  const sure = page.getByRole('alertdialog');
  if (await sure.isVisible().catch(() => false)) await sure.getByRole('button', { name: 'Använd Fortnox' }).click();
  await page.getByRole('button', { name: 'Anslut till Fortnox' }).waitFor({ timeout: 60_000 });
  await hydrated(page);
  await page.getByRole('button', { name: 'Anslut till Fortnox' }).click();
  await page.getByRole('button', { name: 'Tillåt' }).click({ timeout: 60_000 });
  await page.waitForURL(/\/settings\/erp/, { timeout: 60_000 });
  await page
    .getByText(/Ansluten till/)
    .first()
    .waitFor({ timeout: 60_000 });
}

/** Opens a proposal from the list by its title (the list must be the page, or `url` given). */
export async function openProposal(page: Page, title: string, url?: string) {
  if (url) await page.goto(`${url}/proposals`);
  await hydrated(page);
  await page.getByRole('link', { name: title }).click();
  await page.waitForURL(/\/proposals\/[0-9a-f-]{36}$/);
  await hydrated(page);
}

/** Accepts the open proposal into a sales order and opens that order (the page is left on it). */
export async function acceptIntoSalesOrder(page: Page) {
  await page.getByRole('button', { name: /^(Acceptera|Accept)$/ }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /^(Acceptera|Accept)$/ })
    .click();
  await page.getByRole('link', { name: /Öppna försäljningsordern|Open the sales order/ }).click();
  await page.waitForURL(/\/sales\/[0-9a-f-]{36}$/);
  await hydrated(page);
}

/**
 * Opens the demo project "Nybygge Kvarnen" on its work orders and the extra-work approval panel of
 * its ÄTA order; answers the panel and the amount it shows ("12 345,00").
 */
export async function openExtraWorkApproval(page: Page, app: { url: string }, timeout = 30_000) {
  await signIn(page, app, '/projects');
  await hydrated(page);
  await page.getByText('Nybygge Kvarnen – larm och passage').first().click();
  await hydrated(page);
  await page.getByRole('tab', { name: 'Arbetsordrar' }).click();
  const orders = page.getByRole('tabpanel');
  await orders.getByRole('button', { name: /^ÄTA-godkännande för/ }).click();
  const amount = orders.getByText(/^Belopp exkl\. moms: \d[\d\s]*,\d\d$/);
  await amount.waitFor({ timeout });
  const figure = /: (.+)$/.exec((await amount.textContent()) ?? '')![1]!;
  return { orders, figure };
}

/**
 * Clicks a form's submit button and waits for the server's answer to that submission, as a person
 * waits for the button's spinner to end: the "Sparat" of an earlier save can still be showing.
 */
export async function submitAndWait(page: Page, button: Locator) {
  const answered = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().startsWith(new URL(page.url()).origin),
  );
  await button.click();
  await answered;
}
