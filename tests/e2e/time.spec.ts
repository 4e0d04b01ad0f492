import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { companyDay, fillDate, hydrated, signIn } from './helpers';
import { addDays, formatPlainDate, isoWeek, isoWeekStart } from '~/core/calendar/dates';

/**
 * Issue 17 in the browser: a technician reports a week on a 360 px phone — a work day, a day of
 * vacation and a trip in the service van — and sees the totals; then the office locks the month
 * and the technician can change it no longer, neither on the week nor on a work order.
 */
const SLOW = 60_000;
const ERIK = 'erik.tekniker@nordlarm.se';
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

const plain = (iso: string) => {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return { year, month, day };
};

async function noSideways(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
}

test('[time] a technician reports a week on a phone: a work day, a vacation day and mileage', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 360, height: 740 });
  // next week: nothing reported there yet (the demo fills up to yesterday)
  const next = isoWeek(addDays(plain(companyDay()), 7));
  const monday = formatPlainDate(isoWeekStart(next.year, next.week));
  const tuesday = formatPlainDate(addDays(plain(monday), 1));
  await signIn(page, app, `/time?year=${next.year}&week=${next.week}`, ERIK);
  await expect(page.getByRole('heading', { name: `Vecka ${next.week}, ${next.year}`, level: 1 })).toBeVisible({
    timeout: SLOW,
  });
  await hydrated(page);

  // Monday: work 07:00–16:00 (the form's default times in the default mode)
  await page.getByRole('button', { name: new RegExp(`Lägg till tid på Måndag`) }).click();
  const dialog = page.getByRole('dialog', { name: 'Lägg till tid' });
  await expect(dialog.getByLabel('Typ')).toHaveValue(/.+/);
  await expect(dialog.getByLabel('Start')).toHaveValue('07:00');
  await dialog.getByLabel('Slut').fill('15:30');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog).toBeHidden();
  const mondayCard = page.getByRole('region', { name: new RegExp(`Måndag`) });
  await expect(mondayCard.getByText('07:00–15:30 (8:30)')).toBeVisible();

  // Tuesday: a whole day of vacation (empty hours: the scheduled day)
  await page.getByRole('button', { name: new RegExp(`Lägg till tid på Tisdag`) }).click();
  await dialog.getByLabel('Typ').selectOption({ label: 'SEM – Semester' });
  await expect(dialog.getByText('Lämna tomt för hela dagens schema.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog).toBeHidden();
  const tuesdayCard = page.getByRole('region', { name: new RegExp(`Tisdag`) });
  await expect(tuesdayCard.getByText('Semester')).toBeVisible();
  await expect(tuesdayCard.getByText('8:00', { exact: true }).first()).toBeVisible();

  // an overlapping range is refused with the reason, nothing saved
  await page.getByRole('button', { name: new RegExp(`Lägg till tid på Måndag`) }).click();
  await dialog.getByLabel('Start').fill('15:00');
  await dialog.getByLabel('Slut').fill('17:00');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog.getByText('Tidsintervallen överlappar varandra')).toBeVisible();
  await dialog.getByRole('button', { name: 'Avbryt' }).click();

  // mileage: the van's odometer, the last reading shown, the trip's kilometres computed
  await page.getByRole('button', { name: 'Lägg till resa' }).click();
  const trip = page.getByRole('dialog', { name: 'Lägg till resa' });
  await trip.getByLabel('Dag').selectOption(monday);
  await trip.getByLabel('Fordon').fill('ABC 123');
  const previous = trip.getByText(/Föregående mätarställning: [\d\s\u00a0,]+ km/);
  await expect(previous).toBeVisible();
  const last = Number((await previous.innerText()).replace(/[^\d,]/g, '').replace(',', '.'));
  await trip.getByLabel(/Mätarställning vid resans slut/).fill(String(Math.round(last + 42)));
  await expect(trip.getByText('Resa: 42 km')).toBeVisible();
  await trip.getByRole('button', { name: 'Spara' }).click();
  await expect(trip).toBeHidden();
  await expect(page.getByRole('region', { name: 'Körjournal' }).getByText('42 km').first()).toBeVisible();

  // the week's totals: 8:30 work and 8:00 vacation
  await expect(page.getByRole('region', { name: 'Veckans summa' }).getByText('16:30')).toBeVisible();
  await noSideways(page);

  // after a reload everything is still there
  await page.reload();
  await expect(page.getByRole('region', { name: new RegExp(`Tisdag`) }).getByText('Semester')).toBeVisible({
    timeout: SLOW,
  });
  expect(tuesday > monday).toBe(true);
});

test('[time] the office month fits a 1,440 px window: the wide table scrolls in its own box (issue 28 item 18)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const [year, month] = companyDay().split('-').map(Number) as [number, number];
  await signIn(page, app, `/time/office?year=${year}&month=${month}`);
  await expect(page.getByRole('rowheader', { name: 'Erik Johansson' })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.window);
});

test('[time] the office locks the month; the technician can change it neither on the week nor on a work order', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const today = companyDay();
  const [year, month] = today.split('-').map(Number) as [number, number];
  const monthName = new Intl.DateTimeFormat('sv-SE', { month: 'long' }).format(new Date(Date.UTC(year, month - 1, 15)));
  const capitalized = monthName[0]!.toUpperCase() + monthName.slice(1);

  await signIn(page, app, `/time/office?year=${year}&month=${month}`);
  await expect(page.getByRole('heading', { name: `${capitalized} ${year}`, level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  // Erik's month is in the grid
  await expect(page.getByRole('rowheader', { name: 'Erik Johansson' })).toBeVisible();
  await page.getByRole('button', { name: `Lås nu: ${capitalized}` }).click();
  // locking asks first, and says that this month has not ended (issue 28 item 2)
  const lockDialog = page.getByRole('alertdialog', { name: 'Låsa månaden?' });
  await expect(lockDialog).toContainText(`${capitalized} har inte tagit slut`);
  await lockDialog.getByRole('button', { name: 'Lås i förtid', exact: true }).click();
  await expect(page.getByRole('status').getByText('Månaden är låst')).toBeVisible();
  await expect(page.getByRole('button', { name: `Lås upp ${capitalized}` })).toBeVisible();

  // the technician's week: today's card is locked, nothing can be added or changed
  const week = isoWeek(plain(today));
  await signIn(page, app, `/time?year=${week.year}&week=${week.week}`, ERIK);
  await expect(page.getByRole('heading', { name: `Vecka ${week.week}, ${week.year}`, level: 1 })).toBeVisible({
    timeout: SLOW,
  });
  await hydrated(page);
  const weekdays = ['Söndag', 'Måndag', 'Tisdag', 'Onsdag', 'Torsdag', 'Fredag', 'Lördag'];
  const todayCard = page.getByRole('region', {
    name: new RegExp(weekdays[new Date(`${today}T12:00:00Z`).getUTCDay()]!),
  });
  await expect(todayCard.getByText('Låst')).toBeVisible();
  await expect(todayCard.getByRole('button', { name: /Lägg till tid/ })).toHaveCount(0);
  await expect(todayCard.getByRole('button', { name: /Ändra/ })).toHaveCount(0);

  // a work order of Erik's: time today is refused with the reason
  await page.goto(`${app.url}/`);
  await page
    .getByRole('link', { name: /Larmet löser ut på natten/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: /Larmet löser ut på natten/ }).first()).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await page.getByRole('button', { name: 'Rapportera tid' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rapportera tid' });
  await dialog.getByLabel('Timmar och minuter').check();
  await fillDate(page, dialog.getByRole('group', { name: 'Datum' }), today);
  await dialog.getByLabel('Timmar', { exact: true }).fill('1');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByText('Tidrapporten ligger i en låst period och kan inte ändras').first()).toBeVisible();

  // the office opens the month again (asked first); the history keeps both
  await signIn(page, app, `/time/office?year=${year}&month=${month}`);
  await hydrated(page);
  await page.getByRole('button', { name: `Lås upp ${capitalized}` }).click();
  await page
    .getByRole('alertdialog', { name: 'Låsa upp månaden?' })
    .getByRole('button', { name: 'Lås upp', exact: true })
    .click();
  await expect(page.getByRole('status').getByText('Månaden är upplåst')).toBeVisible();
});
