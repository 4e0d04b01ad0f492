import fs from 'node:fs';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
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

/** The Saturdays and Sundays (YYYY-MM-DD) of a month: the demo's history puts no visits on them. */
function weekends(month: string): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const days: string[] = [];
  for (let d = new Date(Date.UTC(y, m - 1, 1)); d.getUTCMonth() === m - 1; d = new Date(d.getTime() + 86_400_000))
    if (d.getUTCDay() === 0 || d.getUTCDay() === 6) days.push(d.toISOString().slice(0, 10));
  return days;
}

test('[payroll] the admin previews a locked month and downloads it as PAXml', async ({ page }) => {
  test.setTimeout(180_000);
  const { current, previous } = months();
  // a weekend day: the demo's visits are on working days, so the day holds only these three hours
  const day = weekends(previous)[0]!;

  // Last month: three hours on a work order while no lock day is set (the demo may have one), then
  // a lock day of the 1st, which locks every month before this one.
  const auth = await page.request.post(`${app.url}/api/authenticate`, { data: ADMIN });
  const session = (await auth.json()) as { token: string; user: { id: string } };
  const headers = { authorization: `Bearer ${session.token}` };
  const open = await page.request.patch(`${app.url}/api/instance/wo`, { headers, data: { timeLockDay: null } });
  expect(open.ok(), await open.text()).toBe(true);
  const order = await page.request.post(`${app.url}/api/wo`, { headers, data: { workOrder: { title: 'E2E lön' } } });
  expect(order.ok(), await order.text()).toBe(true);
  const workOrderId = ((await order.json()) as { workOrder: { id: string } }).workOrder.id;
  const time = await page.request.put(`${app.url}/api/wo/time`, {
    headers,
    data: { workOrderId, userId: session.user.id, date: day, hours: 3, minutes: 0 },
  });
  expect(time.ok(), await time.text()).toBe(true);
  const locked = await page.request.patch(`${app.url}/api/instance/wo`, { headers, data: { timeLockDay: 1 } });
  expect(locked.ok(), await locked.text()).toBe(true);

  // This month is still open: the export says why it is off.
  await signIn(page, app, `/time/payroll?month=${current}`);
  await expect(page.getByRole('heading', { name: 'Löneunderlag', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await expect(page.getByText('Månaden är inte låst')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ladda ner PAXml' })).toBeDisabled();

  // Last month: locked. The technicians' month is approved (the demo's office did it), with their
  // employee numbers; the admin's is not, so she is named apart and left out of the file.
  await page.getByRole('link', { name: /Föregående månad/ }).click();
  await expect(page).toHaveURL(new RegExp(`month=${previous}`));
  await expect(page.getByText(/är låst/)).toBeVisible();
  await expect(page.getByTestId('payroll-person').filter({ hasText: 'Erik Johansson' })).toContainText('Anst.nr 1001');
  await expect(page.getByRole('heading', { name: 'Ej attesterade (1)' })).toBeVisible();
  await expect(page.getByTestId('payroll-not-approved')).toHaveText('Maria Lindqvist');
  await expect(page.getByTestId('payroll-person').filter({ hasText: 'Maria Lindqvist' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Ladda ner PAXml' })).toBeVisible();

  // The office approves her month: she is in the file now, but without an employee number the
  // downloads are off, say why, and lead to her user.
  const [year, month] = previous.split('-').map(Number) as [number, number];
  const approve = await page.request.post(`${app.url}/api/timereports/month/approval`, {
    headers,
    data: { userId: session.user.id, year, month, approved: true },
  });
  expect(approve.ok(), await approve.text()).toBe(true);
  await page.reload();
  await hydrated(page);
  const row = page.getByTestId('payroll-person').filter({ hasText: 'Maria Lindqvist' });
  await expect(row).toContainText('Anställningsnummer saknas');
  await expect(row).toContainText('ARB');
  await expect(page.getByTestId('payroll-not-approved')).toHaveCount(0);
  const paxml = page.getByRole('button', { name: 'Ladda ner PAXml' });
  await expect(paxml).toBeDisabled();
  await expect(paxml).toHaveAccessibleDescription(/Anställningsnummer saknas \(1\).*exporten är spärrad/);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('link', { name: 'Maria Lindqvist: ange anställningsnummer' }).click();
  await expect(page).toHaveURL(new RegExp(`/settings/users/${session.user.id}`));
  await hydrated(page);
  await page.getByLabel('Anställningsnummer i affärssystemet').fill('1000');
  const saved = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/settings/users/'));
  await page.getByRole('button', { name: 'Spara' }).click();
  expect((await saved).ok()).toBe(true);

  await page.goto(`${app.url}/time/payroll?month=${previous}`);
  await hydrated(page);
  await expect(row).toContainText('Anst.nr 1000');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Ladda ner PAXml' }).click();
  expect((await download).suggestedFilename()).toBe(`paxml-${previous}.xml`);
  const xml = fs.readFileSync((await (await download).path())!, 'utf8');
  expect(xml.startsWith('<?xml')).toBe(true);
  expect(xml).toContain('<paxml');
  // the file is indented (xmlbuilder2, decision 043): compare it without the whitespace between tags
  expect(xml.replace(/>\s+</g, '><')).toContain(
    `anstid="1000"><tidkod>ARB</tidkod><datum>${day}</datum><timmar>3</timmar>`,
  );
  expect(xml).toContain('anstid="1001"');
  expect(xml).not.toContain(session.user.id);
});

test('[payroll] approving a month far beyond the schedule asks first', async ({ page }) => {
  test.setTimeout(180_000);
  const { previous } = months();
  const [py, pm] = previous.split('-').map(Number) as [number, number];
  const month = new Date(Date.UTC(py, pm - 2, 1)).toISOString().slice(0, 7);
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];

  // The month before last, open again: the admin's weekends on an order, 23 hours a day — far
  // beyond any month's schedule (at most 23 working days of 8 hours).
  const auth = await page.request.post(`${app.url}/api/authenticate`, { data: ADMIN });
  const session = (await auth.json()) as { token: string; user: { id: string } };
  const headers = { authorization: `Bearer ${session.token}` };
  const open = await page.request.patch(`${app.url}/api/instance/wo`, { headers, data: { timeLockDay: null } });
  expect(open.ok(), await open.text()).toBe(true);
  const order = await page.request.post(`${app.url}/api/wo`, { headers, data: { workOrder: { title: 'E2E helg' } } });
  expect(order.ok(), await order.text()).toBe(true);
  const workOrderId = ((await order.json()) as { workOrder: { id: string } }).workOrder.id;
  for (const date of weekends(month).slice(0, 8)) {
    const time = await page.request.put(`${app.url}/api/wo/time`, {
      headers,
      data: { workOrderId, userId: session.user.id, date, hours: 23, minutes: 0 },
    });
    expect(time.ok(), await time.text()).toBe(true);
  }

  await signIn(page, app, `/time/office?year=${year}&month=${monthNumber}`);
  await hydrated(page);
  const approve = page.getByRole('button', { name: 'Attestera Maria Lindqvist' });
  await expect(approve).toBeVisible({ timeout: SLOW });
  await approve.click();
  const dialog = page.getByRole('alertdialog', { name: 'Attestera trots tiden?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Maria Lindqvist har');
  // a second look: cancelling leaves the month unapproved
  await dialog.getByRole('button', { name: 'Avbryt' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Attestera Maria Lindqvist' })).toBeVisible();
  await page.getByRole('button', { name: 'Attestera Maria Lindqvist' }).click();
  await page
    .getByRole('alertdialog', { name: 'Attestera trots tiden?' })
    .getByRole('button', { name: 'Attestera ändå' })
    .click();
  await expect(page.getByRole('button', { name: 'Öppna igen: Maria Lindqvist' })).toBeVisible();
});
