import { expect, test } from './fixtures';
import { startSmtpPeer, type SmtpPeer } from '../helpers/smtp';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { ADMIN, hydrated, signIn } from './helpers';

/*
 * Issue 35 (decision 063): the customer accepts a proposal online in its zone, on a phone, with its
 * printed name and a finger signature, and the office sees the proposal accepted. The zone's
 * proposal and extra-work pages are audited with axe here (accessibility.spec lists them as such).
 */

let app: RunningApp;
let smtp: SmtpPeer;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // A real SMTP peer: the invitation and the notifications are read off the wire.
  smtp = await startSmtpPeer();
  app = await startApp({ SMTP_URL: smtp.url });
});
test.afterAll(async () => {
  await app?.stop();
  await smtp?.close();
});

const EMAIL = 'fastighet@solrosen.se';
const PASSWORD = 'Solrosen-fastighet-2026';

test('[customer-zone] the customer signs and accepts a sent proposal on a phone; the office sees it accepted', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  // The office: Brf Solrosen (10001) gets a zone user and a proposal, e-mailed to it.
  await signIn(page, app, '/proposals');
  await page.waitForURL((u) => u.pathname === '/proposals');
  const api = page.request;
  const customers = (await (await api.get(`${app.url}/api/customers?q=10001`)).json()) as Json;
  const customerId = customers.customers[0].id as string;
  const invited = await api.post(`${app.url}/api/customers/${customerId}/zone/auth`, {
    data: { customerId, email: EMAIL, name: 'Fastighetsansvarig', status: 'STATUS_REGISTERED' },
  });
  expect(invited.status()).toBe(200);
  const invitation = await smtp.waitForMail((m) => m.to.includes(EMAIL), 30_000);
  const token = /\/zone\/register\?t=([\w-]+)/.exec(invitation.text)![1]!;
  expect(
    (await api.post(`${app.url}/api/zone/registration/comp`, { data: { token, password: PASSWORD } })).status(),
  ).toBe(200);

  const articles = (await (await api.get(`${app.url}/api/articles?sort=articleId&limit=1`)).json()) as Json;
  const created = (await (await api.post(`${app.url}/api/proposals`, { data: { customerId } })).json()) as Json;
  const proposalId = created.id as string;
  const draft = (await (await api.get(`${app.url}/api/proposals/${proposalId}`)).json()) as Json;
  const saved = await api.put(`${app.url}/api/proposals`, {
    data: {
      proposal: {
        ...draft,
        title: 'Nytt porttelefonsystem',
        rows: [{ articleId: articles.articles[0].id, articleAmount: '3' }],
      },
    },
  });
  expect(saved.status()).toBe(200);
  const sent = await api.post(`${app.url}/api/proposals/pdf/email`, {
    data: { proposal: proposalId, emailTarget: ['styrelsen@solrosen.se'] },
  });
  expect(sent.status()).toBe(200);
  // the zone user is told, in the customer's language, with a link to the proposal
  const notice = await smtp.waitForMail((m) => m.to.includes(EMAIL) && m.text.includes('/zone/proposals/'), 30_000);
  expect(notice.text).toContain(`/zone/proposals/${proposalId}`);

  // The customer's person, on a 390 px phone, in a browser of their own.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'sv-SE' });
  const zonePage = await phone.newPage();
  await zonePage.goto(`${app.url}/zone/login`);
  await hydrated(zonePage);
  await zonePage.getByLabel('E-post').fill(EMAIL);
  await zonePage.getByLabel('Lösenord').fill(PASSWORD);
  await zonePage.getByRole('button', { name: 'Logga in' }).click();
  await expect(zonePage.getByRole('heading', { name: 'Anläggningar', level: 1 })).toBeVisible();

  await zonePage.getByRole('navigation', { name: 'Kundzon' }).getByRole('link', { name: 'Offerter' }).click();
  await expect(zonePage.getByRole('heading', { name: 'Offerter', level: 1 })).toBeVisible();
  await hydrated(zonePage);
  expect(await seriousViolations(zonePage)).toEqual([]);
  const card = zonePage.getByRole('listitem').filter({ hasText: 'Nytt porttelefonsystem' });
  await expect(card.getByText('Väntar på ert svar')).toBeVisible();
  await card.getByRole('link', { name: /Nytt porttelefonsystem/ }).click();

  await expect(zonePage.getByRole('heading', { name: /Nytt porttelefonsystem/, level: 1 })).toBeVisible();
  await hydrated(zonePage);
  await expect(zonePage.getByRole('link', { name: /som PDF/ })).toBeVisible();
  expect(await seriousViolations(zonePage)).toEqual([]);
  // nothing drawn: the signature is asked for
  await zonePage.getByRole('textbox', { name: 'Namnförtydligande' }).fill('Sara Solros');
  await zonePage.getByRole('button', { name: 'Godkänn offerten' }).click();
  await expect(zonePage.getByText('Signera i rutan ovan.')).toBeVisible();

  const pad = zonePage.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await zonePage.mouse.move(box.x + 20, box.y + 100);
  await zonePage.mouse.down();
  for (let x = 20; x < 300; x += 20) await zonePage.mouse.move(box.x + x, box.y + 100 + (x % 40 === 0 ? 30 : -30));
  await zonePage.mouse.up();
  await zonePage.getByRole('textbox', { name: 'Namnförtydligande' }).fill('Sara Solros');
  await zonePage.getByRole('button', { name: 'Godkänn offerten' }).click();
  await expect(zonePage.getByText(/^Godkänd av Sara Solros /)).toBeVisible({ timeout: 30_000 });
  await expect(zonePage.getByRole('main').getByText('Godkänd', { exact: true })).toBeVisible();
  expect(await seriousViolations(zonePage)).toEqual([]);

  // the extra-work page: nothing awaits this customer
  await zonePage.getByRole('navigation', { name: 'Kundzon' }).getByRole('link', { name: 'Tilläggsarbeten' }).click();
  await expect(zonePage.getByRole('heading', { name: 'Tilläggsarbeten', level: 1 })).toBeVisible();
  await expect(zonePage.getByText('Inga tilläggsarbeten väntar på ert svar.')).toBeVisible();
  expect(await seriousViolations(zonePage)).toEqual([]);
  await phone.close();

  // The seller is told, and the office sees the proposal accepted, with its sales order.
  const told = await smtp.waitForMail((m) => m.to.includes(ADMIN.email) && m.text.includes('Sara Solros'), 30_000);
  expect(told.text).toContain(`/proposals/${proposalId}`);
  await page.goto(`${app.url}/proposals/${proposalId}`);
  await hydrated(page);
  await expect(page.getByText('Accepterad (försäljningsorder)').first()).toBeVisible();
  const office = (await (await api.get(`${app.url}/api/proposals/${proposalId}`)).json()) as Json;
  expect(office.status).toBe('accepted');
  expect(office.salesOrderId).toBeTruthy();
});
