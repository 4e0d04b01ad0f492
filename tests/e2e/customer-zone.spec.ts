import { expect, test } from './fixtures';
import { startSmtpPeer, type SmtpPeer } from '../helpers/smtp';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { hydrated, signIn } from './helpers';

let app: RunningApp;
let smtp: SmtpPeer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // A real SMTP peer: the invitation's link is read off the wire, as the customer's person gets it.
  smtp = await startSmtpPeer();
  app = await startApp({ SMTP_URL: smtp.url });
});
test.afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

test('[customer-zone] an invited person sets a password, signs in on a phone, sees the installations and the published report, and no staff page', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The office: the demo's Brf Solrosen (10001) has installations; invite its board and publish a report.
  await signIn(page, app, '/inventory/customers?q=10001');
  await page.getByRole('row', { name: /Brf Solrosen/ }).click();
  await expect(page.getByRole('heading', { name: 'Brf Solrosen' })).toBeVisible();
  await hydrated(page);
  const customerId = /[0-9a-f-]{36}/.exec(page.url())![0];
  const zone = page.getByRole('region', { name: 'Kundzon' });
  await zone.getByLabel('Namn').fill('Styrelsen Solrosen');
  await zone.getByLabel('E-post').fill('styrelsen@solrosen.se');
  await zone.getByRole('button', { name: 'Skicka inbjudan', exact: true }).click();
  const invited = zone.getByRole('listitem').filter({ hasText: 'styrelsen@solrosen.se' });
  await expect(invited.getByText('Inbjuden, har inte registrerat sig än')).toBeVisible();
  const mail = await smtp.waitForMail((m) => m.to.includes('styrelsen@solrosen.se'), 30_000);
  const link = /https?:\/\/\S+\/zone\/register\?t=[\w-]+&lang=se/.exec(mail.text)![0];

  const upload = await page.request.post(`${app.url}/api/file/generic/customer/${customerId}`, {
    multipart: {
      file: {
        name: 'Servicerapport Solrosen.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
      },
    },
  });
  expect(upload.status()).toBe(200);
  const uploaded = await upload.json();
  const fileId = (uploaded.file?.id ?? uploaded.files?.[0]?.id) as string;
  expect((await page.request.post(`${app.url}/api/file/drive/${fileId}/publish`, { data: {} })).status()).toBe(200);

  // The customer's person, on a 390 px phone, in a browser of their own.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'sv-SE' });
  const zonePage = await phone.newPage();
  await zonePage.goto(new URL(new URL(link).pathname + new URL(link).search, app.url).toString());
  await expect(zonePage.getByRole('heading', { name: 'Välj ditt lösenord' })).toBeVisible();
  await hydrated(zonePage);
  expect(await seriousViolations(zonePage)).toEqual([]);
  await zonePage.getByLabel('Nytt lösenord').fill('Solrosen-styrelse-2026');
  await zonePage.getByLabel('Upprepa lösenordet').fill('Solrosen-styrelse-2026');
  await zonePage.getByRole('button', { name: 'Spara lösenord' }).click();
  await expect(zonePage.getByText('Ditt lösenord är sparat. Nu kan du logga in.')).toBeVisible();

  await zonePage.getByRole('link', { name: 'Till inloggningen' }).click();
  await expect(zonePage.getByRole('heading', { name: 'Logga in i kundzonen' })).toBeVisible();
  await hydrated(zonePage);
  expect(await seriousViolations(zonePage)).toEqual([]);
  await zonePage.getByLabel('E-post').fill('styrelsen@solrosen.se');
  await zonePage.getByLabel('Lösenord').fill('Solrosen-styrelse-2026');
  await zonePage.getByRole('button', { name: 'Logga in' }).click();

  // Its installations, and one installation's service history.
  await expect(zonePage.getByRole('heading', { name: 'Anläggningar', level: 1 })).toBeVisible();
  await expect(zonePage.getByText('Inloggad som Styrelsen Solrosen, Brf Solrosen')).toBeVisible();
  await hydrated(zonePage);
  expect(await seriousViolations(zonePage)).toEqual([]);
  const installations = zonePage.getByRole('main').getByRole('listitem').getByRole('link');
  expect(await installations.count()).toBeGreaterThan(0);
  await installations.first().click();
  await expect(zonePage.getByRole('heading', { name: 'Servicehistorik' })).toBeVisible();
  expect(await seriousViolations(zonePage)).toEqual([]);

  // The published report.
  await zonePage.getByRole('navigation', { name: 'Kundzon' }).getByRole('link', { name: 'Dokument' }).click();
  await expect(zonePage.getByRole('link', { name: 'Servicerapport Solrosen.pdf', exact: true })).toBeVisible();
  expect(await seriousViolations(zonePage)).toEqual([]);
  // its work orders and invoices, by the same menu
  for (const [link, heading] of [
    ['Arbetsorder', 'Arbetsorder'],
    ['Fakturor', 'Fakturor'],
  ]) {
    await zonePage.getByRole('navigation', { name: 'Kundzon' }).getByRole('link', { name: link }).click();
    await expect(zonePage.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    expect(await seriousViolations(zonePage)).toEqual([]);
  }
  const download = await zonePage.request.get(`${app.url}/api/zone/files/${fileId}`);
  expect(download.status()).toBe(200);
  expect(download.headers()['content-type']).toContain('application/pdf');

  // No staff page opens for a zone session: the staff sign-in is asked for instead.
  await zonePage.goto(`${app.url}/work-orders`);
  await expect(zonePage).toHaveURL(/\/login/);
  expect((await zonePage.request.get(`${app.url}/api/wo`)).status()).toBe(401);

  // The office sees that the invitation was used.
  await page.reload();
  await expect(invited.getByText(/^Senast inloggad /)).toBeVisible();
  await phone.close();
});
