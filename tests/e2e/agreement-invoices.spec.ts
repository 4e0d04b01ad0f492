import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { companyDay, ADMIN, hydrated, signIn } from './helpers';

/*
 * Issue 16 items 4 and 5 in the browser, on the demo company: an agreement put on an object through
 * the API (as an integration would) shows among this month's agreement invoices; "Invoice this
 * period", confirmed, runs with a progress bar and reports what it made, kept after a reload, and
 * the invoice is in the history tab; then a price adjustment from next year is previewed and
 * left waiting. The agreement's invoice day is the month's last, so the every-ten-minutes sweep
 * (which makes what is due by today) leaves it for the run; on a month's last day the test uses the
 * next month.
 */

let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

/** The month the test invoices: this one, or the next on a month's last day (the sweep's day). */
function period(): { from: string; to: string } {
  const today = companyDay();
  let [y, m] = today.split('-').map(Number) as [number, number];
  if (Number(today.slice(8, 10)) === new Date(Date.UTC(y, m, 0)).getUTCDate())
    [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
  const pad = (n: number) => String(n).padStart(2, '0');
  return { from: `${y}-${pad(m)}-01`, to: `${y}-${pad(m)}-${pad(new Date(Date.UTC(y, m, 0)).getUTCDate())}` };
}

async function seedAgreement(request: APIRequestContext) {
  const auth = await request.post(`${app.url}/api/authenticate`, { data: ADMIN });
  const headers = { authorization: `Bearer ${((await auth.json()) as { token: string }).token}` };
  const post = async (method: 'post' | 'put', path: string, data: unknown) => {
    const res = await request[method](`${app.url}/api${path}`, { headers, data });
    expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
    return (await res.json()) as { id: string };
  };
  const type = await post('post', '/agreements', {
    agreement: {
      title: 'E2E Larmövervakning',
      code: 'E2E-M',
      validFrom: '2020-01-01',
      invoiceInterval: 'month_1',
      invoiceDay: 0,
      woInterval: null,
    },
  });
  const customer = await post('post', '/customers', { customer: { name: 'Brf Avtalsgården', customerId: '88101' } });
  const object = await post('post', '/bo', { bo: { serialCode: 'E2E-AVTAL-1', customerId: customer.id } });
  await post('put', `/bo/${object.id}/agreement`, {
    agreement: { agreementId: type.id, validFrom: period().from, totalPrice: '450' },
  });
}

test('[agreements] invoice this period: the bar runs to its end and reports the invoices made', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  await seedAgreement(request);

  await signIn(page, app, `/agreements/invoices?from=${period().from}&to=${period().to}`);
  await expect(page.getByRole('heading', { name: 'Avtalsfakturor', level: 1 })).toBeVisible({ timeout: 60_000 });
  await hydrated(page);
  const list = page.getByRole('table', { name: 'Avtalsfakturor att göra' });
  const row = list.getByRole('row').filter({ hasText: 'E2E-AVTAL-1' });
  await expect(row).toContainText('Brf Avtalsgården');
  await expect(row).toContainText('450,00');
  await expect(row.getByText('Faktureras', { exact: true })).toBeVisible();
  // whatever else the demo has due this month is invoiced too
  const due = await list.getByText('Faktureras', { exact: true }).count();
  expect(due).toBeGreaterThanOrEqual(1);

  await page.getByRole('button', { name: 'Fakturera perioden' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Fakturera perioden' });
  await expect(confirm).toContainText('Avtal i listan');
  await confirm.getByRole('button', { name: 'Skapa fakturor' }).click();

  // the bar (if the run is not already over when the page asks) and then the report: the demo's
  // own agreements may catch up on more than one period each, so at least one invoice per due row
  const report = page.getByRole('region', { name: /Senaste faktureringen/ });
  const created = report.getByText(/^Skapade fakturor: \d+$/);
  await expect(created).toBeVisible({ timeout: 60_000 });
  const count = Number((await created.textContent())!.replace(/\D/g, ''));
  expect(count).toBeGreaterThanOrEqual(due);
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(list.getByRole('row').filter({ hasText: 'E2E-AVTAL-1' })).toHaveCount(0);
  // the report links each invoice it made (issue 28 item 16), not only their number
  const madeLinks = report.getByRole('list', { name: 'Fakturorna som skapades' }).getByRole('link');
  await expect(madeLinks).toHaveCount(Math.min(count, 100));
  await expect(madeLinks.filter({ hasText: 'Brf Avtalsgården' })).toHaveAttribute(
    'href',
    /^\/invoices\/[0-9a-f-]{36}$/,
  );

  // the report stays for the latest run after a reload
  await page.reload();
  await hydrated(page);
  await expect(
    page
      .getByRole('region', { name: /Senaste faktureringen/ })
      .getByText(`Skapade fakturor: ${count}`, { exact: true }),
  ).toBeVisible();

  // the invoice is in the history
  await page.getByRole('tab', { name: 'Historik' }).click();
  await expect(page).toHaveURL(/tab=history/);
  const made = page.getByRole('table', { name: 'Skapade avtalsfakturor' }).getByRole('row', { name: /E2E-AVTAL-1/ });
  await expect(made).toContainText('450,00');
  await expect(made.getByRole('link').first()).toHaveAttribute('href', /^\/invoices\//);

  // and the coming months
  await page.getByRole('tab', { name: 'Schemalagda' }).click();
  await expect(page.getByRole('table', { name: 'Schemalagda avtalsfakturor per månad' })).toBeVisible();
});

test('[agreements] a price adjustment from next year is previewed and waits for its day', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, app, '/agreements/price-adjustment');
  await expect(page.getByRole('heading', { name: 'Prisjustering', level: 1 })).toBeVisible({ timeout: 60_000 });
  await hydrated(page);
  await page.getByRole('checkbox', { name: /E2E-M – E2E Larmövervakning/ }).check();
  await page.getByRole('textbox', { name: /Förändring/ }).fill('5');
  const year = companyDay().slice(0, 4);
  const nextYear = `${Number(year) + 1}-01-01`;
  // the kit's date field posts the ISO date from a hidden input under its name
  await expect(page.locator('input[type=text][name=effectiveFrom]')).toHaveValue(nextYear);
  await page.getByRole('button', { name: 'Förhandsgranska' }).click();

  const preview = page.getByRole('table', { name: 'Förhandsgranskning' });
  const row = preview.getByRole('row', { name: /E2E-AVTAL-1/ });
  await expect(row).toContainText('450,00', { timeout: 30_000 });
  await expect(row).toContainText('472,50');

  await page.getByRole('button', { name: 'Genomför' }).click();
  await page
    .getByRole('alertdialog', { name: 'Genomför prisjusteringen' })
    .getByRole('button', { name: 'Genomför' })
    .click();
  await expect(page.getByText(/Justeringen av 1 avtal väntar till/)).toBeVisible({ timeout: 30_000 });
  const list = page.getByRole('table', { name: 'Prisjusteringar' });
  await expect(list.getByRole('row').filter({ hasText: 'Väntar' })).toHaveCount(1);
});

test('[agreements] the agreement invoice page fits a phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signIn(page, app, `/agreements/invoices?from=${period().from}&to=${period().to}`);
  await expect(page.getByRole('heading', { name: 'Avtalsfakturor', level: 1 })).toBeVisible({ timeout: 60_000 });
  await hydrated(page);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.goto(`${app.url}/agreements/price-adjustment`);
  await hydrated(page);
  expect(await overflow()).toBeLessThanOrEqual(0);
});
