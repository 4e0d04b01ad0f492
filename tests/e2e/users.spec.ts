import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { submitAndWait } from './helpers';

const ADMIN = { email: 'admin@nordlarm.se', password: 'ordo-demo-2026' };
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

async function hydrated(page: Page) {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

async function signIn(page: Page, email: string, to: string) {
  await page.goto(`${app.url}/login?redirectTo=${encodeURIComponent(to)}`);
  await hydrated(page);
  await page.getByLabel('E-post').fill(email);
  await page.getByLabel('Lösenord').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Logga in' }).click();
}

test('[users] the admin filters users, adds a department, puts a technician in it and deactivates another', async ({
  page,
}) => {
  await signIn(page, ADMIN.email, '/settings/users');
  await expect(page.getByRole('heading', { name: 'Användare' })).toBeVisible();
  await expect(page.getByText('4 användare')).toBeVisible();
  await hydrated(page);

  await page.getByLabel('Sök namn eller e-post').fill('tekniker');
  await page.getByRole('button', { name: 'Filtrera' }).click();
  await expect(page.getByText('2 användare')).toBeVisible();

  await page.getByLabel('Ny avdelning').fill('Service Syd');
  await page.getByRole('button', { name: 'Lägg till' }).click();
  await expect(page.getByText('Service Syd · 0 användare')).toBeVisible();

  await page.getByRole('row', { name: /Erik Johansson/ }).click();
  await expect(page.getByRole('heading', { name: 'Redigera användare' })).toBeVisible();
  await hydrated(page);
  await page.getByLabel('Telefon').fill('070-123 45 67');
  await page.getByRole('button', { name: /Avdelning/ }).click();
  await page.getByRole('option', { name: 'Service Syd' }).click();
  await submitAndWait(page, page.getByRole('button', { name: 'Spara' }));
  await expect(page.getByRole('status')).toContainText('Sparat');

  await page.getByRole('link', { name: /Alla användare/ }).click();
  await expect(page.getByText('Service Syd · 1 användare')).toBeVisible();
  // A department with users offers no delete.
  await expect(page.getByRole('button', { name: 'Ta bort Service Syd' })).toHaveCount(0);

  await page.getByRole('row', { name: /Sara Nilsson/ }).click();
  await hydrated(page);
  await page.getByRole('button', { name: 'Inaktivera' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Alla pågående inloggningar avslutas direkt');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Inaktivera' }).click();
  await expect(page.getByText('sara.tekniker@nordlarm.se · Inaktiv')).toBeVisible();

  await page.goto(`${app.url}/settings/users`);
  await expect(page.getByRole('row', { name: /Sara Nilsson/ })).toHaveCount(0);
  // the filter applies as it is ticked once the page has hydrated
  await hydrated(page);
  await page.getByLabel('Inaktiva').check();
  await expect(page.getByRole('row', { name: /Sara Nilsson/ })).toBeVisible();
});

test('[users] a deactivated user cannot sign in, and a technician gets 403 on the users page', async ({ page }) => {
  await signIn(page, 'sara.tekniker@nordlarm.se', '/');
  await expect(page.getByRole('alert')).toHaveText('Fel e-post eller lösenord');
  await signIn(page, 'erik.tekniker@nordlarm.se', '/settings/users');
  await expect(page.getByRole('heading', { name: 'Åtkomst nekad' })).toBeVisible();
});

test('[identity] the admin configures Google sign-in; a missing client id is refused, and the login page offers the button', async ({
  page,
}) => {
  await signIn(page, ADMIN.email, '/');
  await expect(page.getByRole('heading', { name: /Välkommen/ })).toBeVisible();
  await page.goto(`${app.url}/settings/sign-in`);
  await expect(page.getByRole('heading', { name: 'Inloggning med Microsoft och Google' })).toBeVisible();
  await hydrated(page);
  const google = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Google' }) });
  await google.getByRole('checkbox', { name: 'Aktiverad' }).check();
  await google.getByRole('button', { name: 'Spara' }).click();
  await expect(google.getByText('Fältet är obligatoriskt')).toBeVisible();
  await google.getByLabel('Klient-ID').fill('ordo-demo.apps.googleusercontent.com');
  await google.getByLabel('Klienthemlighet').fill('a-secret-value');
  await google.getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByRole('status')).toContainText('Sparat');
  await page.context().clearCookies();
  await page.goto(`${app.url}/login`);
  await expect(page.getByRole('link', { name: 'Logga in med Google' })).toHaveAttribute('href', '/auth/google/start');
});

test('[modules] a disabled module hides its link and its route', async ({ page }) => {
  const apiToken = (
    await (
      await page.request.post(`${app.url}/api/authenticate`, { data: { email: ADMIN.email, password: ADMIN.password } })
    ).json()
  ).token as string;
  const setModule = (enabled: boolean) =>
    page.request.put(`${app.url}/api/instance/appmodule`, {
      data: { appModuleId: 'microsoft_auth', enabled },
      headers: { authorization: `Bearer ${apiToken}` },
    });

  // Office staff (not user type super, which bypasses module gating).
  await signIn(page, 'anna.kontor@nordlarm.se', '/settings');
  await expect(page.getByRole('link', { name: 'Inloggning med Microsoft och Google' })).toBeVisible();
  expect((await setModule(false)).status()).toBe(200);
  try {
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Inställningar' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Inloggning med Microsoft och Google' })).toHaveCount(0);
    await page.goto(`${app.url}/settings/sign-in`);
    await expect(page.getByRole('heading', { name: 'Åtkomst nekad' })).toBeVisible();
    // Signed out, the login page no longer offers single sign-on either.
    await page.context().clearCookies();
    await page.goto(`${app.url}/login`);
    await expect(page.getByRole('heading', { name: 'Logga in' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Logga in med/ })).toHaveCount(0);
  } finally {
    await setModule(true);
  }
});

test('[users] without a mail server the invitation is said to wait in the outbox, and the admin copies its link from the row', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'sv-SE', permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await signIn(page, ADMIN.email, '/settings/users/new');
  await expect(page.getByRole('heading', { name: 'Bjud in användare' })).toBeVisible();
  await hydrated(page);
  await page.getByLabel('Namn').fill('Petra Praktikant');
  await page.getByLabel('E-post').fill('petra@nordlarm.se');
  await page.getByRole('button', { name: 'Skicka inbjudan' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'inbjudan skickades inte: den ligger i utkorgen' }),
  ).toBeVisible();
  await expect(page.getByText('Inbjudan är skickad')).toHaveCount(0);

  await hydrated(page);
  const row = page.getByRole('row', { name: /Petra Praktikant/ });
  await row.getByRole('button', { name: 'Kopiera inbjudningslänk' }).click();
  const field = row.getByRole('textbox', { name: 'Inbjudningslänk för Petra Praktikant' });
  await expect(field).toHaveValue(/\/login\?rt=/);
  const link = await field.inputValue();
  await expect(page.getByText('Inbjudningslänken för Petra Praktikant är kopierad.', { exact: false })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // The link works for the person (a fresh browser, nobody signed in).
  const theirs = await browser.newContext({ locale: 'sv-SE' });
  const them = await theirs.newPage();
  await them.goto(link.replace(/^https?:\/\/[^/]+/, app.url));
  await expect(them.getByRole('heading', { name: 'Slutför registreringen' })).toBeVisible();
  await theirs.close();
  await context.close();
});

test('[modules] the modules page lists only modules this build has, and tells a super user that modules do not limit them', async ({
  page,
}) => {
  await signIn(page, ADMIN.email, '/settings/modules');
  const list = page.getByRole('list', { name: 'Appmoduler och om de är påslagna' });
  await expect(list.getByText('Checklistor', { exact: true })).toBeVisible();
  await expect(list.getByText('Dörrautomatik', { exact: true })).toBeVisible();
  await expect(list.getByText('GPS-spårning')).toHaveCount(0);
  // the demo admin is user type super
  await expect(page.getByRole('note')).toContainText('Du är superanvändare');

  // Office staff (not super) see no such note.
  await page.context().clearCookies();
  await signIn(page, 'anna.kontor@nordlarm.se', '/settings/modules');
  await expect(page.getByRole('heading', { name: 'Appmoduler' })).toBeVisible();
  await expect(page.getByRole('note')).toHaveCount(0);
});
