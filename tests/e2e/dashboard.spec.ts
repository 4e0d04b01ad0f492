import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { hydrated, signIn } from './helpers';

/**
 * Issue 36 item 1 in the browser (decision 062): a person whose start page is the dashboard signs in
 * and lands on it; every card of the spec is there with its chart; the period switch changes the
 * address; the price per hour and debit factor are saved; a card leads to its list. The page passes
 * axe and fits a phone, and reports its own load time.
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

const CARDS = [
  'Öppna arbetsordrar att fakturera',
  'Avtalsfakturering',
  'Öppna projekt, kvar att fakturera',
  'Ledtid',
  'Upparbetad intäkt',
  'Fakturerat mot ej fakturerat',
  'Nya och förlorade objekt',
  'Leverantörsordrar med fel arbetsorderreferens',
];

test('[dashboard] the start page after signing in: every card with its chart, the period in the address, prices, and a card leads to its list', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page, app, '/profile');
  await expect(page.getByRole('heading', { name: 'Inställningar för mig', level: 2 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await page.getByRole('button', { name: /Startsida/ }).click();
  await page.getByRole('option', { name: 'Översikt' }).click();
  await page.getByRole('region', { name: 'Inställningar för mig' }).getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sparat' }).first()).toBeVisible({ timeout: SLOW });

  // signing in from the login page itself lands on the dashboard
  await page.context().clearCookies();
  await page.goto(`${app.url}/login`);
  await hydrated(page);
  await page.getByLabel('E-post').fill('admin@nordlarm.se');
  await page.getByLabel('Lösenord').fill('ordo-demo-2026');
  await page.getByRole('button', { name: 'Logga in' }).click();
  await expect(page).toHaveURL(`${app.url}/dashboard`, { timeout: SLOW });
  await hydrated(page);
  const cards = page.getByRole('main').getByRole('listitem');
  for (const name of CARDS) await expect(cards.filter({ hasText: name })).toHaveCount(1);
  await expect(page.getByTestId('column-chart')).toHaveCount(CARDS.length);
  await expect(page.getByRole('link', { name: 'Senaste 12 månaderna' })).toHaveAttribute('aria-current', 'page');
  // React Aria's live announcer still holds the login button's "pending" note, naming an element
  // that is gone with the login page; the dashboard as a person opens it is what axe checks
  await page.reload();
  await hydrated(page);
  expect(await seriousViolations(page)).toEqual([]);

  // the period switch: this year, in the address, marked as chosen
  await page.getByRole('link', { name: 'I år' }).click();
  await expect(page).toHaveURL(`${app.url}/dashboard?period=year`);
  await expect(page.getByRole('link', { name: 'I år' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText(new RegExp(`^Från ${new Date().getFullYear()}-01-01 till`))).toBeVisible();

  // the open orders' price per hour and debit factor (the admin holds dashboard:open_workorders_kpi_edit)
  const prices = page.getByRole('region', { name: 'Värdering av öppna arbetsordrar' });
  await prices.getByLabel('Debiteringsfaktor').fill('11');
  await prices.getByRole('button', { name: 'Spara priser' }).click();
  await expect(prices.getByLabel('Debiteringsfaktor')).toHaveAttribute('aria-invalid', 'true', { timeout: SLOW });
  await prices.getByLabel('Timpris (exkl. moms)').fill('850,50');
  await prices.getByLabel('Debiteringsfaktor').fill('1,2');
  await prices.getByRole('button', { name: 'Spara priser' }).click();
  await expect(cards.filter({ hasText: CARDS[0] })).toContainText('850,50', { timeout: SLOW });
  await expect(cards.filter({ hasText: CARDS[0] })).toContainText('debiteringsfaktor 1,20');

  // a phone: nothing wider than the screen
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });

  // the card leads to the list behind it
  await cards.filter({ hasText: CARDS[0] }).getByRole('link').click();
  await expect(page).toHaveURL(/\/\?list=open/, { timeout: SLOW });
  await expect(
    page.getByRole('navigation', { name: 'Listor' }).getByRole('link', { name: 'Öppna', exact: true }),
  ).toHaveAttribute('aria-current', 'page', { timeout: SLOW });

  // the pages measured themselves and say so once the page is hidden: a beacon a page shown since
  // it loaded (POST /instance/m), each counted. (Headless Chromium never hides a page, so the test
  // tells the page it was, as switching tabs or locking the phone does; Playwright does not show a
  // beacon's body — what it holds is the hook's unit test.)
  const beacons: Promise<number | undefined>[] = [];
  page.on('requestfinished', (r) => {
    if (r.url().endsWith('/api/instance/m')) beacons.push(r.response().then((res) => res?.status()));
  });
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  // the dashboard's first load and reload, the period switch, the price saves, the card's list
  await expect.poll(() => beacons.length, { timeout: SLOW }).toBeGreaterThanOrEqual(4);
  expect(new Set(await Promise.all(beacons))).toEqual(new Set([200]));
});
