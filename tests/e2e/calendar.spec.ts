import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { companyDay, ADMIN, hydrated, signIn } from './helpers';

let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

/** Week 50 of 2026: Monday 7 to Sunday 13 December. */
const WEEK = '/work-orders/calendar?period=week&perspective=technician&step=1&date=2026-12-09';

const cell = (page: Page, person: string, day: string) =>
  page.getByRole('cell', { name: `${person}, ${day}`, exact: true });
/** The board takes no keys while a change is saved (aria-busy): wait for it, as a person would. */
const idle = (page: Page) =>
  expect(page.getByRole('table', { name: 'Planeringstavla' })).not.toHaveAttribute('aria-busy', 'true', {
    timeout: 30_000,
  });
const plan = (page: Page, number: string) => page.locator('[data-testid="plan"]', { hasText: number });

test('[calendar] plan an order by dragging it onto a technician, move it, and a second dispatcher sees it live', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  // an open order nobody has planned, made through the API as an integration would
  const auth = await request.post(`${app.url}/api/authenticate`, {
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  const token = ((await auth.json()) as { token: string }).token;
  const created = await request.post(`${app.url}/api/wo`, {
    headers: { authorization: `Bearer ${token}` },
    data: { workOrder: { title: 'Kalibrera grindmotor' } },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const number = ((await created.json()) as { workOrder: { number: string } }).workOrder.number;

  await signIn(page, app, WEEK);
  await expect(page.getByRole('heading', { name: 'Vecka 50, 2026' })).toBeVisible({ timeout: 60_000 });
  await hydrated(page);
  await expect(page.getByRole('link', { name: 'Kalender' })).toHaveAttribute('aria-current', 'page');

  // a second dispatcher, in another browser, looks at the same week
  const other = await browser.newContext({ locale: 'sv-SE', timezoneId: 'Europe/Stockholm' });
  const page2 = await other.newPage();
  await signIn(page2, app, WEEK, 'anna.kontor@nordlarm.se');
  await expect(page2.getByRole('heading', { name: 'Vecka 50, 2026' })).toBeVisible({ timeout: 60_000 });
  await hydrated(page2);
  await expect(page2.getByText('Uppdateras live')).toBeVisible({ timeout: 30_000 });

  // find the order in the unscheduled list and drop it on Erik's Tuesday
  await page.getByRole('searchbox', { name: 'Sök oplanerade' }).fill('grindmotor');
  const unscheduled = page.getByTestId('unscheduled-order').filter({ hasText: number });
  await expect(unscheduled).toHaveCount(1, { timeout: 30_000 });
  // the search goes into the address once typing pauses; a drag started before that navigation
  // lands loses its element when the list re-renders (seen on the shared apps)
  await expect(page).toHaveURL(/[?&]q=grindmotor/);
  await expect(unscheduled).toHaveCount(1);
  const tuesday = cell(page, 'Erik Johansson', 'tisdag 8 december 2026');
  await unscheduled.dragTo(tuesday);
  await expect(tuesday.locator('[data-testid="plan"]', { hasText: number })).toBeVisible({ timeout: 30_000 });
  await expect(plan(page, number)).toContainText('08:00');
  await expect(page.getByTestId('unscheduled-order').filter({ hasText: number })).toHaveCount(0);

  // the other dispatcher sees it without reloading
  await expect(
    cell(page2, 'Erik Johansson', 'tisdag 8 december 2026').locator('[data-testid="plan"]', { hasText: number }),
  ).toBeVisible({
    timeout: 30_000,
  });
  await expect(page2.getByText('En kollega ändrade planeringen.')).toBeVisible();

  // move it to Sara's Wednesday by dragging, once the first plan is saved (a busy board takes no drop)
  await idle(page);
  const wednesday = cell(page, 'Sara Nilsson', 'onsdag 9 december 2026');
  await plan(page, number).dragTo(wednesday);
  await expect(wednesday.locator('[data-testid="plan"]', { hasText: number })).toBeVisible({ timeout: 30_000 });
  await expect(
    cell(page2, 'Sara Nilsson', 'onsdag 9 december 2026').locator('[data-testid="plan"]', { hasText: number }),
  ).toBeVisible({
    timeout: 30_000,
  });

  // the keyboard does the same: a day later, then half an hour longer
  await idle(page);
  await plan(page, number).focus();
  await page.keyboard.press('ArrowRight');
  const thursday = cell(page, 'Sara Nilsson', 'torsdag 10 december 2026');
  await expect(thursday.locator('[data-testid="plan"]', { hasText: number })).toBeVisible({ timeout: 30_000 });
  await expect(plan(page, number)).toBeFocused();
  await idle(page);
  await page.keyboard.press('Shift+ArrowRight');
  await expect(plan(page, number)).toHaveAttribute('aria-label', /08:00–10:30/, { timeout: 30_000 });

  // Enter opens the plan; its dialog removes it after asking (the focus stays on the plan through
  // the board's reloads: its own change's, and the live channel's echo of it)
  await expect(plan(page, number)).toBeFocused();
  await idle(page);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Planering av ${number}` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Ta bort planeringen' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Ta bort' }).click();
  await expect(plan(page, number)).toHaveCount(0, { timeout: 30_000 });
  await expect(plan(page2, number)).toHaveCount(0, { timeout: 30_000 });

  // the period is remembered: the calendar tab without an address opens as a week
  await page.getByRole('button', { name: 'Månad' }).click();
  await expect(page.getByRole('heading', { name: /december 2026/ })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('link', { name: 'Lista' }).click();
  await page.getByRole('link', { name: 'Kalender' }).click();
  await expect(page.getByRole('button', { name: 'Månad' })).toHaveAttribute('aria-pressed', 'true', {
    timeout: 30_000,
  });
  await other.close();
});

test('[calendar] opens on today, marked, even on a phone; an order planned in its form is on the board, not in the unplanned list', async ({
  browser,
  request,
}) => {
  const auth = await request.post(`${app.url}/api/authenticate`, {
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  const token = ((await auth.json()) as { token: string }).token;
  const today = companyDay();
  const users = (await (
    await request.get(`${app.url}/api/users`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { users: { id: string; name: string }[] };
  const sara = users.users.find((u) => u.name === 'Sara Nilsson')!;
  // planned in the order's own fields (as the order form does), today 13:00–15:00 Stockholm time
  const start = new Date(`${today}T12:00:00Z`);
  const created = await request.post(`${app.url}/api/wo`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      workOrder: {
        title: 'Planerad från formuläret',
        assignees: [sara.id],
        plannedStart: start.toISOString(),
        plannedEnd: new Date(start.getTime() + 2 * 3600_000).toISOString(),
      },
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const number = ((await created.json()) as { workOrder: { number: string } }).workOrder.number;

  const context = await browser.newContext({
    locale: 'sv-SE',
    timezoneId: 'Europe/Stockholm',
    viewport: { width: 390, height: 844 },
  });
  const page = await context.newPage();
  await signIn(page, app, '/work-orders/calendar?period=month&perspective=technician&step=1');
  await hydrated(page);
  const long = new Intl.DateTimeFormat('sv-SE', { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${today}T00:00:00Z`),
  );
  const mark = page.locator('[role="columnheader"][aria-current="date"]');
  await expect(mark).toHaveCount(1);
  await expect(mark).toHaveAttribute('aria-label', `${long}, Idag`);
  await expect(mark).toBeInViewport();

  const cellToday = cell(page, 'Sara Nilsson', long);
  await expect(cellToday.locator('[data-testid="plan"]', { hasText: number })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Sök oplanerade' }).fill('Planerad från formuläret');
  await expect(page.getByText('Inga oplanerade öppna arbetsordrar.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('unscheduled-order').filter({ hasText: number })).toHaveCount(0);
  await context.close();
});
