import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fortnoxPluginOptions, startFortnoxFake, type FortnoxFake } from '../fakes/fortnox';
import { startApp, type RunningApp } from './app-server';
import { connectFortnox, hydrated, pick } from './helpers';

/*
 * Issue 31 item 10 in the browser, on the demo company: its Fortnox already keeps a ledger, in which
 * customer number 10001 is another company than the demo's Brf Solrosen. The invoice of Brf Solrosen
 * is not sent to that company: its delivery stops, the invoice says why, Settings → ERP shows what
 * Ordo and Fortnox each have, and the office has a new customer made in Fortnox — after which the
 * invoice goes there, and Fortnox's own 10001 is as it was.
 */

let app: RunningApp;
let fake: FortnoxFake;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fake = await startFortnoxFake();
  app = await startApp({
    PLUGIN_OPTIONS: JSON.stringify(fortnoxPluginOptions(fake)),
  });
});
test.afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

/** Closes the demo's open order for Brf Solrosen (10001) with an article, and opens its invoice. */
async function invoiceBrfSolrosen(page: Page) {
  await page.goto(`${app.url}/?list=open`);
  await hydrated(page);
  await page.getByRole('link', { name: 'Årlig service inbrottslarm' }).first().click();
  await expect(page.getByRole('heading', { name: 'Årlig service inbrottslarm', level: 2 })).toBeVisible({
    timeout: 60_000,
  });
  await hydrated(page);
  await pick(page, page.getByRole('combobox', { name: 'Lägg till artikel' }), 'Rörelsedetektor', /Rörelsedetektor PIR/);
  await expect(
    page
      .getByRole('region', { name: 'Artiklar' })
      .getByText(/Rörelsedetektor PIR/)
      .first(),
  ).toBeVisible({
    timeout: 60_000,
  });
  await page.getByRole('button', { name: 'Stäng arbetsorder' }).click();
  await page.getByRole('dialog', { name: 'Stäng arbetsorder' }).getByRole('button', { name: 'Stäng ordern' }).click();
  const confirm = page.getByRole('dialog', { name: 'Bekräftelse till kunden' });
  await confirm.getByRole('button', { name: 'Skicka inte' }).click({ timeout: 60_000 });
  await expect(confirm).toHaveCount(0);
  await page.getByRole('link', { name: /^Faktura \d+/ }).click();
  await expect(page.getByRole('heading', { name: /^Faktura \d+/, level: 1 })).toBeVisible({ timeout: 60_000 });
  await hydrated(page);
}

test('[erp] a customer number Fortnox gives another company stops the invoice; Settings → ERP shows both and a new customer is made', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // the company's own ledger in Fortnox: its 10001 is not Brf Solrosen
  fake.addCustomer({
    CustomerNumber: '10001',
    Name: 'Annat Bolag AB',
    OrganisationNumber: '556999-0006',
    Address1: 'Deras gata 1',
  });
  await connectFortnox(page, app);
  await invoiceBrfSolrosen(page);

  // the delivery stops before anything is sent, and the invoice says where to choose
  const erp = page.getByRole('region', { name: /Affärssystem \(Fortnox\)/ });
  await expect(erp.getByText(/Fortnox har redan en kund med kundens nummer/).first()).toBeVisible({
    timeout: 90_000,
  });
  expect(fake.invoices()).toHaveLength(0);

  await page.goto(`${app.url}/settings/erp`);
  await hydrated(page);
  const conflict = page.getByTestId('erp-customer-conflict');
  await expect(conflict).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Kunder att para ihop' })).toBeVisible();
  await expect(conflict.getByText('Kundnumret tillhör en annan kund i Fortnox.')).toBeVisible();
  await expect(conflict.getByText('10001 · Brf Solrosen · 769612-3459')).toBeVisible();
  await expect(conflict.getByText('10001 · Annat Bolag AB · 556999-0006')).toBeVisible();
  await expect(conflict.getByRole('button', { name: 'Samma som 10001 Annat Bolag AB i Fortnox' })).toBeVisible();

  await conflict.getByRole('button', { name: 'Skapa en ny kund i Fortnox' }).click();
  await expect(page.getByText('Sparat. Fakturorna skickas igen.').first()).toBeVisible({ timeout: 60_000 });

  // the invoice goes to a new customer of Fortnox's numbering; Fortnox's own 10001 is untouched
  await expect.poll(() => fake.invoices().length, { timeout: 90_000 }).toBe(1);
  const made = fake.invoices()[0]!;
  expect(made.CustomerNumber).not.toBe('10001');
  expect(fake.customer(String(made.CustomerNumber))).toMatchObject({
    Name: 'Brf Solrosen',
    OrganisationNumber: '769612-3459',
  });
  expect(fake.customer('10001')).toMatchObject({
    Name: 'Annat Bolag AB',
    OrganisationNumber: '556999-0006',
    Address1: 'Deras gata 1',
  });
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId('erp-customer-conflict')).toHaveCount(0);
});
