import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fortnoxPluginOptions, startFortnoxFake, type FortnoxFake } from '../fakes/fortnox';
import { startSmtpPeer, type SmtpPeer } from '../helpers/smtp';
import { startApp, type RunningApp } from './app-server';
import { connectFortnox, hydrated, pick, signIn } from './helpers';

/*
 * Issue 14 in the browser, on the demo company: Settings → ERP connects to Fortnox (the local fake of
 * its API, OAuth consent page and all); a work order closed with time and an article becomes an
 * invoice that bills the labour; it reaches Fortnox by itself and shows Fortnox's number; another
 * order's invoice is downloaded as PDF and e-mailed to the customer through a real SMTP peer.
 */

let app: RunningApp;
let fake: FortnoxFake;
let smtp: SmtpPeer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fake = await startFortnoxFake();
  smtp = await startSmtpPeer();
  app = await startApp({
    SMTP_URL: smtp.url,
    PLUGIN_OPTIONS: JSON.stringify(fortnoxPluginOptions(fake)),
  });
});
test.afterAll(async () => {
  await app?.stop();
  await smtp?.close();
  await fake?.close();
});

async function openOrder(page: Page, title: string) {
  await page.getByRole('link', { name: title }).first().click();
  await expect(page.getByRole('heading', { name: title, level: 2 })).toBeVisible({ timeout: 60_000 });
  await hydrated(page);
}

/** Adds an article and time to the open order, closes it without the customer's confirmation, opens its invoice. */
async function closeIntoInvoice(page: Page, article: { search: string; option: RegExp }, hours: string) {
  await pick(page, page.getByRole('combobox', { name: 'Lägg till artikel' }), article.search, article.option);
  await expect(page.getByRole('region', { name: 'Artiklar' }).getByText(article.option).first()).toBeVisible({
    timeout: 60_000,
  });
  await page.getByRole('button', { name: 'Rapportera tid' }).click();
  const time = page.getByRole('dialog', { name: 'Rapportera tid' });
  await time.getByRole('radio', { name: 'Timmar och minuter' }).check();
  await time.getByLabel('Timmar', { exact: true }).fill(hours);
  await time.getByLabel('Minuter', { exact: true }).fill('30');
  await time.getByRole('button', { name: 'Spara' }).click();
  await expect(time).toHaveCount(0, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Stäng arbetsorder' }).click();
  await page.getByRole('dialog', { name: 'Stäng arbetsorder' }).getByRole('button', { name: 'Stäng ordern' }).click();
  const confirm = page.getByRole('dialog', { name: 'Bekräftelse till kunden' });
  // the demo does not review invoices first: the close made the final invoice, and says so (issue 28 item 5)
  await expect(confirm.getByText(/^Faktura \d+: .+ inkl\. moms/)).toBeVisible({ timeout: 60_000 });
  await expect(confirm.getByText(/utkast/i)).toHaveCount(0);
  await confirm.getByRole('button', { name: 'Skicka inte' }).click({ timeout: 60_000 });
  await expect(confirm).toHaveCount(0);
  await page.getByRole('link', { name: /^Faktura \d+/ }).click();
  await expect(page.getByRole('heading', { name: /^Faktura \d+/, level: 1 })).toBeVisible({ timeout: 60_000 });
  await hydrated(page);
}

test('[invoicing] connect Fortnox, close an order with time and an article, see the labour billed and Fortnox’s number', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // Fortnox chosen and connected through its own consent page, then back on the tenant's host
  await connectFortnox(page, app);

  await page.goto(`${app.url}/?list=open`);
  await hydrated(page);
  await openOrder(page, 'Årlig service inbrottslarm');
  await closeIntoInvoice(page, { search: 'Rörelsedetektor', option: /Rörelsedetektor PIR 12 m/ }, '2');

  // the labour: 2 h 30 min at the demo's technician rate, beside the article
  const rows = page.getByRole('region', { name: /Rader/ }).getByRole('table');
  const labour = rows.getByRole('row').filter({ hasText: 'Arbetstid tekniker' });
  await expect(labour).toHaveCount(1);
  await expect(labour.getByRole('cell', { name: '2,5 tim', exact: true })).toBeVisible();
  await expect(rows.getByRole('row').filter({ hasText: /Rörelsedetektor PIR 12 m/ })).toHaveCount(1);

  // the invoice reaches Fortnox by itself; the screen shows its number there
  const erp = page.getByRole('region', { name: /Affärssystem \(Fortnox\)/ });
  await expect(erp.getByText(/^I affärssystemet/).first()).toBeVisible({ timeout: 90_000 });
  expect(fake.invoices()).toHaveLength(1);
  const documentNumber = String(fake.invoices()[0]!.DocumentNumber);
  await expect(erp.getByText(documentNumber, { exact: true }).first()).toBeVisible();
  expect(fake.invoices()[0]).toMatchObject({ CustomerNumber: '10001' });
});

test('[invoicing] an invoice is downloaded as PDF and e-mailed to the customer’s invoice address', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, app, '/?list=open');
  await hydrated(page);
  await openOrder(page, 'Larmet löser ut på natten');
  await closeIntoInvoice(page, { search: 'Rörelsedetektor', option: /Rörelsedetektor PIR 12 m/ }, '1');
  const heading = await page.getByRole('heading', { name: /^Faktura \d+/, level: 1 }).textContent();
  const number = /\d+/.exec(heading ?? '')![0];

  const download = page.waitForEvent('download');
  await page
    .getByRole('button', { name: 'Ladda ner PDF' })
    .or(page.getByRole('link', { name: 'Ladda ner PDF' }))
    .click();
  expect((await download).suggestedFilename()).toBe(`invoice-${number}.pdf`);

  await page.getByRole('button', { name: 'E-posta' }).click();
  const dialog = page.getByRole('dialog', { name: 'E-posta fakturan' });
  await expect(dialog.getByRole('textbox', { name: 'Mottagare' })).toHaveValue('faktura@brfsolrosen.se');
  await dialog.getByRole('button', { name: 'Skicka' }).click();
  await expect(page.getByText(/faktura@brfsolrosen\.se/).first()).toBeVisible({ timeout: 60_000 });
  const mail = await smtp.waitForMail((m) => m.to.includes('faktura@brfsolrosen.se'), 60_000);
  expect(mail.raw).toContain('application/pdf');
  expect(mail.subject).toContain(number);

  // the final invoice as a Peppol e-invoice (UBL): the demo company and Brf Solrosen have org. numbers
  const peppol = page.waitForEvent('download');
  await page
    .getByRole('button', { name: 'Ladda ner Peppol-e-faktura (XML)' })
    .or(page.getByRole('link', { name: 'Ladda ner Peppol-e-faktura (XML)' }))
    .click();
  const xmlFile = await peppol;
  expect(xmlFile.suggestedFilename()).toMatch(/\.xml$/);
  const xml = await readFile(await xmlFile.path(), 'utf8');
  expect(xml).toContain(`<cbc:ID>${number}</cbc:ID>`);
  expect(xml).toContain('<cbc:EndpointID schemeID="0007">7696123459</cbc:EndpointID>');

  await page.getByRole('button', { name: 'Historik' }).click();
  const history = page.getByRole('dialog');
  await expect(history.getByText('E-postad').first()).toBeVisible({ timeout: 60_000 });
  await expect(history.getByText('PDF nedladdad').first()).toBeVisible();
  await expect(history.getByText('E-faktura (Peppol) hämtad').first()).toBeVisible();
  await page.keyboard.press('Escape');
  const invoiceUrl = page.url();

  // the month's final invoices as an SIE file for the accounting program, from the list
  await page.goto(`${app.url}/invoices`);
  await hydrated(page);
  await page.getByText('Export till bokföringen (SIE)').click();
  const sie = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Ladda ner SIE-fil' }).click();
  const sieFile = await sie;
  expect(sieFile.suggestedFilename()).toMatch(/\.SI$/);
  const sieText = (await readFile(await sieFile.path())).toString('latin1');
  expect(sieText).toContain('#SIETYP 4');
  expect(sieText).toMatch(new RegExp(`#VER "?A"? "?${number}"?`));

  // the office turns e-mail off in Settings → Invoicing: the invoice no longer offers it
  await page.goto(`${app.url}/settings/invoicing`);
  await hydrated(page);
  const emailSwitch = page.getByRole('switch', { name: 'Skicka med e-post' });
  await expect(emailSwitch).toBeChecked();
  // from the keyboard, as a person tabbing through the settings would
  await emailSwitch.focus();
  await page.keyboard.press('Space');
  await expect(emailSwitch).not.toBeChecked();
  await page.getByRole('button', { name: 'Spara', exact: true }).click();
  await expect(page.getByText('Sparat').first()).toBeVisible({ timeout: 60_000 });
  await page.goto(invoiceUrl);
  await hydrated(page);
  await expect(
    page.getByRole('button', { name: 'Ladda ner PDF' }).or(page.getByRole('link', { name: 'Ladda ner PDF' })),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'E-posta' })).toHaveCount(0);
});
