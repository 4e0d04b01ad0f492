import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { fillDate, hydrated, openExtraWorkApproval, signIn } from './helpers';

/**
 * Issue 18 in the browser: the demo's building project shows what it has cost (in all, since the
 * reset day, per person), takes a cost snapshot, lists its time reports of a chosen period, downloads
 * its report as PDF and shows its statistics against the estimate.
 */
const SLOW = 60_000;
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

test('[projects] costs: summary, snapshot, time reports of a period, the PDF and the statistics', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/projects');
  await hydrated(page);
  await page.getByText('Nybygge Kvarnen – larm och passage').first().click();
  await hydrated(page);

  await page.getByRole('tab', { name: 'Kostnader' }).click();
  const costs = page.getByTestId('project-costs');
  await expect(costs.getByText('Total kostnad').first()).toBeVisible({ timeout: SLOW });
  await expect(costs.getByText('Löpande kostnad').first()).toBeVisible();
  await expect(costs.getByRole('table', { name: 'Tid per person' })).toContainText('Erik Johansson');
  await expect(costs.getByRole('img', { name: /Kostnad per månad/ })).toBeVisible();

  // a snapshot of the ongoing cost
  await costs.getByRole('button', { name: 'Ta ögonblicksbild' }).click();
  await expect(page.getByText('Ögonblicksbilden är sparad')).toBeVisible();
  await expect(costs.getByRole('table', { name: 'Ögonblicksbilder' }).getByRole('row')).toHaveCount(2);

  // the time reports of the last 90 days
  await fillDate(page, costs.getByRole('group', { name: 'Från' }), daysAgo(90));
  await fillDate(page, costs.getByRole('group', { name: 'Till' }), daysAgo(0));
  await costs.getByRole('button', { name: 'Visa' }).click();
  await expect(costs.getByRole('table', { name: /^Tidrapporter/ })).toContainText('Erik Johansson');
  await expect(costs.getByRole('table', { name: 'Summa per person under perioden' })).toContainText('Erik Johansson');

  // the report as PDF
  const download = page.waitForEvent('download');
  await costs.getByRole('link', { name: 'Ladda ner rapport (PDF)' }).click();
  expect((await download).suggestedFilename()).toMatch(/^project-\d+\.pdf$/);

  await page.getByRole('tab', { name: 'Statistik' }).click();
  const stats = page.getByTestId('project-statistics');
  await expect(stats.getByRole('progressbar', { name: 'Timmar mot beräknat' })).toBeVisible({ timeout: SLOW });
  await expect(stats.getByText('Täckningsbidrag')).toBeVisible();
});

test('[projects] the header, costs, statistics and invoicing agree on the figures (issue 28)', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/projects');
  await hydrated(page);
  await page.getByText('Nybygge Kvarnen – larm och passage').first().click();
  await hydrated(page);

  // the demo's orders: 44,5 h of work and 3 h of travel
  const hours = page.locator('dl > div').filter({ hasText: 'Rapporterad tid' });
  await expect(hours).toContainText('47,50 h');
  await expect(hours).toContainText('varav restid 3,00 h');

  await page.getByRole('tab', { name: 'Kostnader' }).click();
  const costs = page.getByTestId('project-costs');
  await expect(costs.getByText(/^47,50 h, varav restid 3,00 h, à 420,00 per timme$/)).toBeVisible({ timeout: SLOW });

  await page.getByRole('tab', { name: 'Statistik' }).click();
  const stats = page.getByTestId('project-statistics');
  await expect(stats.getByRole('progressbar', { name: 'Timmar mot beräknat' })).toHaveAttribute(
    'aria-valuetext',
    /^47,50 av 320,00/,
    { timeout: SLOW },
  );
  // income bills the 44,5 work hours at 695, not the travel: 30 927,50
  await expect(stats.getByText(/^Arbetstid 30\s927,50 \(à 695,00 per timme; restid faktureras inte\)/)).toBeVisible();

  await page.getByRole('tab', { name: 'Fakturering' }).click();
  const invoicing = page.getByRole('region', { name: 'Fakturering' });
  await expect(invoicing.getByText('ÄTA som väntar på svar')).toBeVisible({ timeout: SLOW });
  // the pending extra work's rows wait for the customer; none of them says it is uninvoiced
  const pendingRows = invoicing.getByRole('row').filter({ hasText: 'Väntar på godkännande – faktureras inte än' });
  await expect(pendingRows).toHaveCount(2);
  await expect(pendingRows.filter({ hasText: 'Ofakturerad' })).toHaveCount(0);
});

test('[projects] the extra work panel shows its amount and proposes the customer’s contact (issue 28)', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { orders, figure } = await openExtraWorkApproval(page, app, SLOW);

  // the customer's contact, not the invoice mailbox (ekonomi@icafyris.se)
  await orders.getByRole('button', { name: 'Skicka för godkännande' }).click();
  const send = page.getByRole('dialog', { name: 'Skicka för godkännande' });
  await expect(send.getByRole('textbox', { name: 'Mottagarens e-post' })).toHaveValue('butikschef@icafyris.se');
  await send.getByRole('button', { name: 'Avbryt' }).click();

  // the same amount waits for approval on the invoicing tab
  await page.getByRole('tab', { name: 'Fakturering' }).click();
  const waiting = page
    .getByRole('region', { name: 'Fakturering' })
    .locator('dl > div')
    .filter({ hasText: 'ÄTA som väntar på svar' });
  await expect(waiting).toContainText(figure, { timeout: SLOW });
});

test('[projects] the list shows every column, left to invoice too, on a 1,366 px screen (issue 28)', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, app, '/projects');
  await hydrated(page);
  const table = page.getByRole('table', { name: 'Projekt' });
  const left = table.getByRole('columnheader', { name: 'Kvar att fakturera' });
  await expect(left).toBeVisible({ timeout: SLOW });
  // the whole table fits: nothing is scrolled out of sight to the right
  const box = await left.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(1366);
  const container = table.locator('xpath=..');
  expect(await container.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await expect(table.getByRole('row', { name: /Nybygge Kvarnen/ })).toContainText(/\d,\d\d$/);
});
