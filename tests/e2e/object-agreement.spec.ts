import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { companyDay, fillDate, hydrated, pick, signIn } from './helpers';

let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

test('[objects] an agreement put on an object: type, valid from, an invoice row, the next invoice period', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/inventory/objects');
  await page.waitForURL((u) => u.pathname === '/inventory/objects');
  // an object of our own at the demo's Brf Solrosen, so no seeded agreement is in the way
  const customers = await page.request.get(`${app.url}/api/customers?q=Solrosen`);
  expect(customers.status()).toBe(200);
  const customerId = ((await customers.json()).customers as { id: string }[])[0]!.id;
  const created = await page.request.post(`${app.url}/api/bo`, {
    data: { bo: { serialCode: `E2E-AVTAL-${Date.now()}`, customerId } },
  });
  expect(created.status(), await created.text()).toBe(200);
  const bo = (await created.json()).id as string;

  await page.goto(`${app.url}/inventory/objects/${bo}`);
  await hydrated(page);
  await page.getByRole('tab', { name: 'Avtal' }).click();
  await expect(page.getByRole('heading', { name: 'Inget avtal på objektet' })).toBeVisible();

  // the type proposes its price per period (SERV-Q: 1 950 kr a quarter) and says when it invoices
  await pick(page, page.getByRole('combobox', { name: 'Avtalstyp' }), 'SERV', /SERV-Q/);
  await expect(page.getByLabel('Pris per faktureringsperiod')).toHaveValue('1950,00');
  await expect(page.getByTestId('agreement-type-schedule')).toContainText('Fakturor: ');
  const year = Number(companyDay().slice(0, 4));
  await fillDate(page, page.getByRole('group', { name: 'Giltigt från' }).first(), `${year}-01-15`);
  await page.getByRole('button', { name: 'Lägg avtal på objektet' }).click();
  await expect(page.getByText('Avtalet är lagt på objektet.')).toBeVisible();

  // invoiced each quarter from the first quarter after 15 January
  await expect(page.getByTestId('agreement-fact-next-invoice')).toContainText(`Q2 ${year}`);
  await expect(page.getByTestId('agreement-fact-type')).toContainText('SERV-Q');

  // the object's own discount on an included article: on-call labour free under this agreement
  const included = page.getByTestId('agreement-included');
  await expect(included).toContainText('från avtalstypen');
  await pick(page, included.getByRole('combobox', { name: 'Artikel som ingår' }), '90002', /90002/);
  await included.getByRole('textbox', { name: 'Rabatt', exact: true }).fill('100%');
  await included.getByRole('button', { name: 'Lägg till artikel' }).click();
  await expect(included).toContainText('100 %');
  await page.getByRole('button', { name: 'Spara avtal' }).click();
  await expect(page.getByTestId('agreement-included').getByRole('button', { name: /^Ta bort: 90002/ })).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId('agreement-included')).toContainText('100 %');

  const invoiceRows = page.getByTestId('agreement-rows-invoice');
  await expect(invoiceRows).toContainText('Inga rader ännu.');
  await invoiceRows.getByRole('button', { name: 'Lägg till fakturarad' }).click();
  const dialog = page.getByRole('dialog', { name: 'Lägg till fakturarad' });
  await pick(page, dialog.getByRole('combobox', { name: 'Artikel' }), '90002', /90002/);
  await dialog.getByLabel('Antal').fill('2');
  await dialog.getByRole('button', { name: 'Spara rad' }).click();
  await expect(dialog).toBeHidden();
  // title and price come from the article: 2 × 1 150,00
  await expect(invoiceRows).toContainText('Arbetstid tekniker, jour');
  await expect(invoiceRows).toContainText('2 300,00');

  // the year of invoices lists the quarters still to come: next year's, since the sweep may already
  // have invoiced every quarter of this year that has begun (all four of them after 1 October)
  const invoices = page.getByTestId('agreement-invoices');
  await expect(invoices).toContainText(`Q2 ${year}`);
  await invoices.getByLabel('År').selectOption(String(year + 1));
  await expect(invoices).toContainText(`Q1 ${year + 1}`);
  await expect(invoices).toContainText('Inte fakturerad ännu');
});
