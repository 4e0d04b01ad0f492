import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { startApp, type RunningApp } from './app-server';
import { companyDay, ADMIN, hydrated, signIn } from './helpers';

/**
 * Issue 17 part 5 in the browser: the admin opens the payroll page for last month once it is
 * locked, sees the figures per person and downloads the PAXml file; this month, still open, shows
 * why it cannot be exported yet.
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

/**
 * YYYY-MM of this month and the previous one in the company's time zone, as the app's lock rule reads
 * them (at 23:00 UTC on a month's last day it is the next month in Stockholm already).
 */
function months(): { current: string; previous: string } {
  const current = companyDay().slice(0, 7);
  const [y, m] = current.split('-').map(Number) as [number, number];
  const previous = new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7);
  return { current, previous };
}

test('[payroll] the admin previews a locked month and downloads it as PAXml', async ({ page }) => {
  test.setTimeout(180_000);
  const { current, previous } = months();

  // Last month: three hours on a work order while no lock day is set (the demo may have one), then
  // a lock day of the 1st, which locks every month before this one.
  const auth = await page.request.post(`${app.url}/api/authenticate`, { data: ADMIN });
  const session = (await auth.json()) as { token: string; user: { id: string } };
  const headers = { authorization: `Bearer ${session.token}` };
  const open = await page.request.patch(`${app.url}/api/instance/wo`, { headers, data: { timeLockDay: null } });
  expect(open.ok(), await open.text()).toBe(true);
  // the demo already has time last month (its closed orders): the export must grow by exactly three hours
  type Preview = { people: { userId: string; totals: { workHours: number } }[] };
  const workHours = async () => {
    const res = await page.request.get(`${app.url}/api/timereports/payroll?month=${previous}`, { headers });
    expect(res.ok(), await res.text()).toBe(true);
    const me = ((await res.json()) as Preview).people.find((p) => p.userId === session.user.id);
    return me?.totals.workHours ?? 0;
  };
  const before = await workHours();
  const order = await page.request.post(`${app.url}/api/wo`, { headers, data: { workOrder: { title: 'E2E lön' } } });
  expect(order.ok(), await order.text()).toBe(true);
  const workOrderId = ((await order.json()) as { workOrder: { id: string } }).workOrder.id;
  const time = await page.request.put(`${app.url}/api/wo/time`, {
    headers,
    data: { workOrderId, userId: session.user.id, date: `${previous}-10`, hours: 3, minutes: 0 },
  });
  expect(time.ok(), await time.text()).toBe(true);
  const locked = await page.request.patch(`${app.url}/api/instance/wo`, { headers, data: { timeLockDay: 1 } });
  expect(locked.ok(), await locked.text()).toBe(true);
  expect(Math.round((await workHours()) * 100) - Math.round(before * 100)).toBe(300);

  // This month is still open: the export says why it is off.
  await signIn(page, app, `/time/payroll?month=${current}`);
  await expect(page.getByRole('heading', { name: 'Löneunderlag', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await expect(page.getByText('Månaden är inte låst')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ladda ner PAXml' })).toBeDisabled();

  // Last month: locked, with the admin's hours.
  await page.getByRole('link', { name: /Föregående månad/ }).click();
  await expect(page).toHaveURL(new RegExp(`month=${previous}`));
  await expect(page.getByText(/är låst/)).toBeVisible();
  const row = page.getByTestId('payroll-person').filter({ hasText: 'Maria Lindqvist' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('ARB');

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Ladda ner PAXml' }).click();
  expect((await download).suggestedFilename()).toBe(`paxml-${previous}.xml`);
  const xml = fs.readFileSync((await (await download).path())!, 'utf8');
  expect(xml.startsWith('<?xml')).toBe(true);
  expect(xml).toContain('<paxml');
  expect(xml).toContain(`<tidkod>ARB</tidkod><datum>${previous}-10</datum><timmar>3</timmar>`);
});
