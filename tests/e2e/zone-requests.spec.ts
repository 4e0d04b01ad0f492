import sharp from 'sharp';
import { expect, test } from './fixtures';
import { startSmtpPeer, type SmtpPeer } from '../helpers/smtp';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { hydrated, signIn } from './helpers';

let app: RunningApp;
let smtp: SmtpPeer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // A real SMTP peer: the zone user's invitation is read off the wire, as the customer gets it.
  smtp = await startSmtpPeer();
  app = await startApp({ SMTP_URL: smtp.url });
});
test.afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

/** Week 50 of 2026 on the planning board: its unplanned list holds every open order nobody planned. */
const BOARD = '/work-orders/calendar?period=week&perspective=technician&step=1&date=2026-12-09';

test('[zone-requests] a customer asks for service with a photo from a phone; the office finds it unplanned on the planning board with the customer’s words', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  // The office invites the board of Brf Solrosen (10001, which has installations) to the zone.
  await signIn(page, app, '/inventory/customers?q=10001');
  await page.getByRole('row', { name: /Brf Solrosen/ }).click();
  await expect(page.getByRole('heading', { name: 'Brf Solrosen' })).toBeVisible();
  await hydrated(page);
  const customerId = /[0-9a-f-]{36}/.exec(page.url())![0];
  const invite = await page.request.post(`${app.url}/api/customers/${customerId}/zone/auth`, {
    data: { name: 'Ordföranden Solrosen', email: 'ordforande@solrosen.se' },
  });
  expect(invite.status(), await invite.text()).toBe(200);
  const mail = await smtp.waitForMail((m) => m.to.includes('ordforande@solrosen.se'), 30_000);
  const link = new URL(/https?:\/\/\S+\/zone\/register\?t=[\w-]+&lang=se/.exec(mail.text)![0]);

  // The customer's person, on a 390 px phone: sets a password and signs in.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'sv-SE' });
  const zone = await phone.newPage();
  await zone.goto(`${app.url}${link.pathname}${link.search}`);
  await hydrated(zone);
  await zone.getByLabel('Nytt lösenord').fill('Solrosen-ordf-2026');
  await zone.getByLabel('Upprepa lösenordet').fill('Solrosen-ordf-2026');
  await zone.getByRole('button', { name: 'Spara lösenord' }).click();
  await zone.getByRole('link', { name: 'Till inloggningen' }).click();
  await hydrated(zone);
  await zone.getByLabel('E-post').fill('ordforande@solrosen.se');
  await zone.getByLabel('Lösenord').fill('Solrosen-ordf-2026');
  await zone.getByRole('button', { name: 'Logga in' }).click();
  await expect(zone.getByRole('heading', { name: 'Anläggningar', level: 1 })).toBeVisible();

  // Service requests, from the zone's menu: none yet.
  const menu = zone.getByRole('navigation', { name: 'Kundzon' });
  await menu.getByRole('link', { name: 'Serviceärenden' }).click();
  await expect(zone.getByRole('heading', { name: 'Serviceärenden', level: 1 })).toBeVisible();
  await expect(zone.getByText('Ni har inte bett om service här än.')).toBeVisible();
  await hydrated(zone);
  expect(await seriousViolations(zone)).toEqual([]);

  await zone.getByRole('link', { name: 'Beställ service' }).click();
  await expect(zone.getByRole('heading', { name: 'Beställ service', level: 1 })).toBeVisible();
  await hydrated(zone);
  expect(await seriousViolations(zone)).toEqual([]);

  // Sent without words: the field says what is missing, in Swedish, and nothing is made.
  const installation = zone.getByLabel('Anläggning');
  const firstInstallation = await installation.locator('option').nth(1).textContent();
  await installation.selectOption({ index: 1 });
  await zone.getByRole('button', { name: 'Skicka' }).click();
  await expect(zone.getByText('Fältet är obligatoriskt')).toBeVisible();

  const words = 'Grinden mot gården går inte att öppna med taggen\nLampan blinkar rött sedan i morse.';
  await zone.getByLabel('Vad behöver göras?').fill(words);
  const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#cc4422' } })
    .jpeg()
    .toBuffer();
  await zone
    .getByLabel('Foton (valfritt)')
    .setInputFiles({ name: 'grinden.jpg', mimeType: 'image/jpeg', buffer: photo });
  await zone.getByRole('button', { name: 'Skicka' }).click();

  // The request, with its status, as the customer follows it.
  const sent = zone.getByRole('status').filter({ hasText: 'Tack! Ert ärende är skickat som arbetsorder' });
  await expect(sent).toBeVisible({ timeout: 30_000 });
  const number = /arbetsorder (\S+)\./.exec((await sent.textContent())!)![1]!;
  const card = zone.getByRole('listitem').filter({ hasText: number });
  await expect(card.getByText('Grinden mot gården går inte att öppna med taggen').first()).toBeVisible();
  await expect(card.getByText('Inte planerad än')).toBeVisible();
  await expect(card.getByText(/av Ordföranden Solrosen$/)).toBeVisible();
  await expect(card.getByText(firstInstallation!.split(' · ')[0]!)).toBeVisible();
  expect(await seriousViolations(zone)).toEqual([]);

  // Its own company and sign-in security pages, from the same menu.
  await menu.getByRole('link', { name: 'Företaget' }).click();
  await expect(zone.getByRole('heading', { name: 'Företagets uppgifter', level: 1 })).toBeVisible();
  expect(await seriousViolations(zone)).toEqual([]);
  await menu.getByRole('link', { name: 'Säkerhet' }).click();
  await expect(zone.getByRole('heading', { name: 'Inloggning och säkerhet', level: 1 })).toBeVisible();
  expect(await seriousViolations(zone)).toEqual([]);
  await phone.close();

  // The office: the order waits among the unplanned ones on the planning board, in the customer's words.
  await page.goto(`${app.url}${BOARD}`);
  await expect(page.getByRole('heading', { name: 'Vecka 50, 2026' })).toBeVisible({ timeout: 60_000 });
  await hydrated(page);
  await page.getByRole('searchbox', { name: 'Sök oplanerade' }).fill('öppna med taggen');
  await expect(page).toHaveURL(/[?&]q=/);
  const unplanned = page.getByTestId('unscheduled-order').filter({ hasText: number });
  await expect(unplanned).toHaveCount(1, { timeout: 30_000 });
  await expect(unplanned).toContainText('Grinden mot gården går inte att öppna med taggen');
  await expect(unplanned).toContainText('Brf Solrosen');

  // and the order itself has the customer's whole description
  await unplanned.getByRole('link', { name: number }).click();
  await expect(page.getByText('Beställd i kundzonen av Ordföranden Solrosen')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('textbox', { name: 'Beskrivning', exact: true })).toHaveValue(words);
});
