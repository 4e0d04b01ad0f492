import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { generate } from 'otplib';
import { startApp, type RunningApp } from './app-server';

const USER = { email: 'anna.kontor@nordlarm.se', password: 'ordo-demo-2026', name: 'Anna Berg' };
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

async function signIn(page: Page) {
  await page.goto(`${app.url}/login`);
  await hydrated(page);
  await page.getByLabel('E-post').fill(USER.email);
  await page.getByLabel('Lösenord').fill(USER.password);
  await page.getByRole('button', { name: 'Logga in' }).click();
}

test('[identity] a user turns on two-step sign-in from the profile and then signs in with a code', async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole('heading', { name: `Välkommen, ${USER.name}` })).toBeVisible();
  await page.goto(`${app.url}/profile`);
  await hydrated(page);
  await page.getByRole('button', { name: 'Slå på' }).click();
  const keyText = await page.getByText(/Eller skriv in nyckeln:/).textContent();
  const secret = keyText!.split(':').pop()!.trim();
  await page.getByLabel('Kod från appen').fill('000000');
  await page.getByRole('button', { name: 'Bekräfta' }).click();
  await expect(page.getByText('Koden stämmer inte')).toBeVisible();
  await page.getByLabel('Kod från appen').fill(await generate({ secret }));
  await page.getByRole('button', { name: 'Bekräfta' }).click();
  await expect(page.getByText(/Spara de här reservkoderna/)).toBeVisible();
  const recovery = (await page.locator('li.font-mono, ul.font-mono li').first().textContent())!.trim();
  await expect(page.getByText('På. Du anger en kod från appen när du loggar in.')).toBeVisible();

  await hydrated(page);
  await page.getByRole('button', { name: USER.name }).click();
  await page.getByRole('menuitem', { name: 'Logga ut' }).click();
  await expect(page).toHaveURL(/\/login/);

  // The password alone is not enough any more.
  await signIn(page);
  await expect(page).toHaveURL(/\/login\/mfa/);
  await page.getByLabel('Kod från appen').fill('123456');
  await page.getByRole('button', { name: 'Logga in' }).click();
  await expect(page.getByText('Koden stämmer inte')).toBeVisible();
  // The enrolment used this time step's code; a recovery code works once.
  await page.getByLabel('Kod från appen').fill(recovery);
  await page.getByRole('button', { name: 'Logga in' }).click();
  await expect(page.getByRole('heading', { name: `Välkommen, ${USER.name}` })).toBeVisible();
});
