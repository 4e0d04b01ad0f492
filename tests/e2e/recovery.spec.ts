import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { hydrated } from './helpers';
import { startSmtpPeer, type SmtpPeer } from '../helpers/smtp';

/** The demo admin `npm start` prints (tenants/demo.ts). */
const DEMO = { email: 'admin@nordlarm.se', password: 'ordo-demo-2026', name: 'Maria Lindqvist' };
const NEW_PASSWORD = 'gran och björk i skogen';

let app: RunningApp;
let smtp: SmtpPeer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // A real SMTP peer: the app's SmtpMailer (SMTP_URL) delivers to it and the test reads the mail.
  smtp = await startSmtpPeer();
  app = await startApp({ SMTP_URL: smtp.url });
});
test.afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

test('[auth] the demo admin forgets the password, gets a mail, sets a new one and signs in with it', async ({
  page,
}) => {
  await page.goto(`${app.url}/login`);
  await page.getByRole('link', { name: 'Kan du inte logga in?' }).click();
  await expect(page.getByRole('heading', { name: 'Glömt lösenordet?' })).toBeVisible();

  // An empty address is refused next to the field, in Swedish.
  await page.getByRole('button', { name: 'Skicka länk' }).click();
  await expect(page.getByText('Fältet är obligatoriskt')).toBeVisible();

  await page.getByLabel('E-post').fill(DEMO.email);
  await page.getByRole('button', { name: 'Skicka länk' }).click();
  await expect(
    page.getByText('Om adressen är registrerad är ett meddelande med en länk på väg. Titta i din inkorg.'),
  ).toBeVisible();

  const mail = await smtp.waitForMail((m) => m.to.includes(DEMO.email), 30_000);
  expect(mail.subject).toBe('Återställ ditt lösenord till Nordlarm Säkerhet AB');
  const link = new URL(/https?:\/\/\S+\/login\?\S+/.exec(mail.text)![0]);
  expect(link.searchParams.get('lang')).toBe('se');
  expect(link.searchParams.get('t')).toBeTruthy();

  // Open the link on the app as started (same host name the browser used).
  await page.goto(`${app.url}${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Välj ett nytt lösenord' })).toBeVisible();
  await expect(page.getByText(`Välj ett nytt lösenord för ${DEMO.email}.`)).toBeVisible();

  // A common password and a mismatched repeat are refused next to their fields.
  await page.getByLabel('Nytt lösenord').fill('password123');
  await page.getByLabel('Upprepa lösenordet').fill('password123');
  await page.getByRole('button', { name: 'Spara lösenordet' }).click();
  await expect(page.getByText('Lösenordet är för vanligt. Välj ett som är svårare att gissa.')).toBeVisible();

  await page.getByLabel('Nytt lösenord').fill(NEW_PASSWORD);
  await page.getByLabel('Upprepa lösenordet').fill('något annat');
  await page.getByRole('button', { name: 'Spara lösenordet' }).click();
  await expect(page.getByText('Lösenorden matchar inte')).toBeVisible();

  await page.getByLabel('Nytt lösenord').fill(NEW_PASSWORD);
  await page.getByLabel('Upprepa lösenordet').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Spara lösenordet' }).click();
  await expect(page.getByText('Ditt lösenord är ändrat. Logga in med ditt nya lösenord.')).toBeVisible();

  // The link works once.
  await page.goto(`${app.url}${link.pathname}${link.search}`);
  await expect(page.getByRole('alert')).toHaveText('Länken har gått ut eller redan använts.');

  // The old password no longer works; the new one does.
  await page.goto(`${app.url}/login`);
  await hydrated(page);
  await page.getByLabel('E-post').fill(DEMO.email);
  await page.getByLabel('Lösenord').fill(DEMO.password);
  await page.getByRole('button', { name: 'Logga in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Fel e-post eller lösenord');
  await page.getByLabel('Lösenord').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Logga in' }).click();
  await expect(page.getByRole('heading', { name: `Välkommen, ${DEMO.name}` })).toBeVisible();
});

test('[auth] an unknown address gets the same answer, and no mail leaves', async ({ page }) => {
  const before = smtp.mails.length;
  await page.goto(`${app.url}/login?forgot`);
  await hydrated(page);
  await page.getByLabel('E-post').fill('nobody@nordlarm.se');
  await page.getByRole('button', { name: 'Skicka länk' }).click();
  await expect(
    page.getByText('Om adressen är registrerad är ett meddelande med en länk på väg. Titta i din inkorg.'),
  ).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(smtp.mails.length).toBe(before);
});

test('[auth] a broken recovery link says so in the language it asks for', async ({ page }) => {
  await page.goto(`${app.url}/login?t=not-a-token&lang=en`);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('The link has expired or was already used.');
  await page.getByRole('link', { name: 'Ask for a new link' }).click();
  await expect(page.getByRole('heading', { name: /Glömt lösenordet\?|Forgot your password\?/ })).toBeVisible();
});

test('[users] the admin invites a technician, who registers from the e-mail and signs in', async ({ page }) => {
  await page.goto(`${app.url}/login?redirectTo=/settings/users`);
  await hydrated(page);
  await page.getByLabel('E-post').fill(DEMO.email);
  await page.getByLabel('Lösenord').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Logga in' }).click();
  await expect(page.getByRole('heading', { name: 'Användare' })).toBeVisible();
  await page.getByRole('link', { name: 'Bjud in användare' }).click();
  await expect(page.getByRole('heading', { name: 'Bjud in användare' })).toBeVisible();
  await page.getByRole('button', { name: 'Skicka inbjudan' }).click();
  await expect(page.getByText('Fältet är obligatoriskt').first()).toBeVisible();
  await page.getByLabel('Namn').fill('Olof Nyanställd');
  await page.getByLabel('E-post').fill('olof@nordlarm.se');
  await page.getByRole('checkbox', { name: 'Tekniker' }).check();
  await page.getByRole('button', { name: 'Skicka inbjudan' }).click();
  await expect(page.getByText('Inbjudan är skickad')).toBeVisible();
  await expect(page.getByRole('row', { name: /Olof Nyanställd/ })).toContainText('Inbjuden');

  const mail = await smtp.waitForMail((m) => m.to.includes('olof@nordlarm.se'), 30_000);
  const link = new URL(/https?:\/\/\S+\/login\?\S+/.exec(mail.text)![0]);
  expect(link.searchParams.get('rt')).toBeTruthy();

  await page.context().clearCookies();
  await page.goto(`${app.url}${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Slutför registreringen' })).toBeVisible();
  await page.getByLabel('Nytt lösenord').fill('kaffe och kanelbulle');
  await page.getByLabel('Upprepa lösenordet').fill('kaffe och kanelbulle');
  await page.getByRole('button', { name: 'Registrera' }).click();
  await expect(page.getByText(/Registreringen är klar/)).toBeVisible();

  await page.goto(`${app.url}/login`);
  await hydrated(page);
  await page.getByLabel('E-post').fill('olof@nordlarm.se');
  await page.getByLabel('Lösenord').fill('kaffe och kanelbulle');
  await page.getByRole('button', { name: 'Logga in' }).click();
  await expect(page.getByRole('heading', { name: 'Välkommen, Olof Nyanställd' })).toBeVisible();
});
