import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { companyDay, ADMIN, fillDate, hydrated, pick, signIn } from './helpers';

/*
 * Issue 16's browser test, as an office person does it on the demo company: put an agreement on an
 * object in its Agreement tab, run the period from the agreement invoices page, find the service
 * work order on the object and the invoice from the agreement's year, and see that running again
 * makes nothing. The type makes its work order and invoice on the month's last day, so the
 * ten-minute sweep (which makes what is due by today) leaves them to the run; on the last day of a
 * month the test uses the next month instead.
 */

let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

const MONTHS = [
  'januari',
  'februari',
  'mars',
  'april',
  'maj',
  'juni',
  'juli',
  'augusti',
  'september',
  'oktober',
  'november',
  'december',
];

/** The month the test invoices: this one, or the next on a month's last day (the sweep's day). */
function period(): { from: string; to: string; name: string } {
  const today = companyDay();
  let [y, m] = today.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (Number(today.slice(8, 10)) === last) [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    from: `${y}-${pad(m)}-01`,
    to: `${y}-${pad(m)}-${pad(new Date(Date.UTC(y, m, 0)).getUTCDate())}`,
    name: `${MONTHS[m - 1]} ${y}`,
  };
}

test('[agreements] an agreement on an object, the period run: its work order and invoice, and a second run makes nothing', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const p = period();
  const serial = `E2E-SERV-${Date.now()}`;
  const title = 'E2E Serviceavtal';

  // the type and the object exist (an office set them up earlier); the test does the rest by hand
  const auth = await page.request.post(`${app.url}/api/authenticate`, { data: ADMIN });
  const headers = { authorization: `Bearer ${((await auth.json()) as { token: string }).token}` };
  const type = await page.request.post(`${app.url}/api/agreements`, {
    headers,
    data: {
      agreement: {
        title,
        code: 'E2E-SERV',
        validFrom: '2020-01-01',
        invoiceInterval: 'month_1',
        invoiceDay: 0,
        woInterval: 'month_1',
        woDay: 0,
      },
    },
  });
  expect(type.ok(), await type.text()).toBe(true);
  const customers = await page.request.get(`${app.url}/api/customers?q=Solrosen`, { headers });
  const customerId = ((await customers.json()).customers as { id: string }[])[0]!.id;
  const bo = await page.request.post(`${app.url}/api/bo`, {
    headers,
    data: { bo: { serialCode: serial, customerId } },
  });
  expect(bo.ok(), await bo.text()).toBe(true);
  const objectId = ((await bo.json()) as { id: string }).id;

  // 1. the agreement, in the object's Agreement tab
  await signIn(page, app, `/inventory/objects/${objectId}?tab=agreement`);
  await page.waitForURL((u) => u.pathname === `/inventory/objects/${objectId}`);
  await hydrated(page);
  await expect(page.getByRole('heading', { name: 'Inget avtal på objektet' })).toBeVisible({ timeout: 30_000 });
  await pick(page, page.getByRole('combobox', { name: 'Avtalstyp' }), 'E2E', /E2E-SERV/);
  // the type's schedule and price arrive (and set the price field) before the rest is typed
  await expect(page.getByTestId('agreement-type-schedule')).toContainText('Fakturor: ');
  const validFrom = page.getByRole('group', { name: 'Giltigt från' }).first();
  await fillDate(page, validFrom, p.from);
  await expect(validFrom.getByRole('spinbutton', { name: /^år/ })).toHaveAttribute('aria-valuenow', p.from.slice(0, 4));
  await page.getByLabel('Pris per faktureringsperiod').fill('750');
  await expect(page.getByLabel('Pris per faktureringsperiod')).toHaveValue('750');
  await page.getByRole('button', { name: 'Lägg avtal på objektet' }).click();
  await expect(page.getByText('Avtalet är lagt på objektet.')).toBeVisible();
  await expect(page.getByTestId('agreement-fact-next-invoice')).toContainText(p.name);

  // 2. the period's run
  await page.goto(`${app.url}/agreements/invoices?from=${p.from}&to=${p.to}`);
  await hydrated(page);
  const list = page.getByRole('table', { name: 'Avtalsfakturor att göra' });
  await expect(list.getByRole('row').filter({ hasText: serial })).toContainText('750,00');
  await page.getByRole('button', { name: 'Fakturera perioden' }).click();
  await page
    .getByRole('alertdialog', { name: 'Fakturera perioden' })
    .getByRole('button', { name: 'Skapa fakturor' })
    .click();
  const report = page.getByRole('region', { name: /Senaste faktureringen/ });
  await expect(report.getByText(/^Skapade fakturor: [1-9]\d*$/)).toBeVisible({ timeout: 60_000 });
  await expect(report.getByText(/Skapade serviceordrar: [1-9]\d*$/)).toBeVisible();
  await expect(list.getByRole('row').filter({ hasText: serial })).toHaveCount(0);

  // 3. the work order on the object, and the invoice from the agreement's year
  await page.goto(`${app.url}/inventory/objects/${objectId}?tab=agreement`);
  await hydrated(page);
  // the service order is titled by its visit, not the agreement's whole period (issue 28 item 16)
  const visit = new RegExp(`${title} – servicebesök vecka \\d+ \\d{4}`);
  const order = page.getByRole('link', { name: visit });
  await expect(order).toBeVisible();
  const invoices = page.getByTestId('agreement-invoices');
  const invoiceLink = invoices.getByRole('link', { name: /Faktura \d+/ });
  await expect(invoiceLink).toHaveCount(1);
  await invoiceLink.click();
  await page.waitForURL(/\/invoices\/[0-9a-f-]+$/);
  // the invoice's rows (a table on a large screen): the period, then the agreement's price
  await expect(page.getByRole('cell', { name: `Period ${p.from} – ${p.to} (${p.name})` })).toBeVisible();
  await expect(page.getByRole('cell', { name: new RegExp(`${title} – ${serial}`) })).toBeVisible();
  await page.goBack();
  await order.click();
  await page.waitForURL(/\/work-orders\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { name: visit })).toBeVisible();

  // 4. nothing is left to run for the period; a second run (as the API would start it) makes nothing
  await page.goto(`${app.url}/agreements/invoices?from=${p.from}&to=${p.to}`);
  await hydrated(page);
  await expect(list.getByRole('row').filter({ hasText: serial })).toHaveCount(0);
  const again = await page.request.post(`${app.url}/api/agreements/invoices/run`, { headers, data: { until: p.to } });
  expect(again.ok(), await again.text()).toBe(true);
  const runId = ((await again.json()) as { run: { id: string } }).run.id;
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(`${app.url}/api/agreements/invoices/run/${runId}`, { headers })).json()) as {
            run: { status: string };
          }
        ).run.status,
      { timeout: 60_000 },
    )
    .toBe('done');
  await page.reload();
  await hydrated(page);
  await expect(report.getByText('Skapade fakturor: 0', { exact: true })).toBeVisible();
  await expect(report.getByText('Skapade serviceordrar: 0', { exact: false })).toBeVisible();
  await page.goto(`${app.url}/inventory/objects/${objectId}?tab=agreement`);
  await hydrated(page);
  await expect(page.getByTestId('agreement-invoices').getByRole('link', { name: /Faktura \d+/ })).toHaveCount(1);
  await expect(page.getByRole('link', { name: new RegExp(`${title} `) })).toHaveCount(1);
});
