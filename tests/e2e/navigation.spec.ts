import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { hydrated, openProposal, signIn } from './helpers';

/**
 * Issue 29 items 2 and 3: every area a person may open is reachable from the top bar at 1,024 and
 * 1,280 px and on a phone (the links in menus, decision 038), and every page names itself in its title.
 */
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

/** A link of the shell (app/components/shell/nav.ts): its menu (none: alone in the bar), name, and where it leads. */
interface Area {
  menu: string | null;
  name: string;
  path: RegExp;
}

const ADMIN_AREAS: Area[] = [
  { menu: null, name: 'Arbetsordrar', path: /^\/$/ },
  { menu: null, name: 'Projekt', path: /^\/projects$/ },
  { menu: null, name: 'Tidrapportering', path: /^\/time$/ },
  { menu: 'Försäljning', name: 'Offerter', path: /^\/proposals$/ },
  { menu: 'Försäljning', name: 'Försäljningsordrar', path: /^\/sales$/ },
  { menu: 'Försäljning', name: 'Avtal', path: /^\/agreements$/ },
  { menu: 'Försäljning', name: 'Kontrakt', path: /^\/contracts$/ },
  { menu: 'Ekonomi', name: 'Fakturor', path: /^\/invoices$/ },
  { menu: 'Ekonomi', name: 'Leverantörsfakturor', path: /^\/supplierinvoices$/ },
  { menu: 'Ekonomi', name: 'Rapporter', path: /^\/reports$/ },
  { menu: 'Ekonomi', name: 'Översikt', path: /^\/dashboard$/ },
  { menu: 'Ekonomi', name: 'Statistik', path: /^\/statistics$/ },
  // the registers open the first tab the person may read
  { menu: 'Register och filer', name: 'Register', path: /^\/inventory(\/customers)?$/ },
  { menu: 'Register och filer', name: 'Filarkiv', path: /^\/drive$/ },
  // findings recorded, worked and followed (issue 34)
  { menu: 'Register och filer', name: 'Avvikelser', path: /^\/deviations$/ },
];

// a technician (tenants/seed.ts): their work orders, their time and the registers they need on site
const TECHNICIAN_AREAS: Area[] = [
  { menu: null, name: 'Arbetsordrar', path: /^\/$/ },
  { menu: null, name: 'Tidrapportering', path: /^\/time$/ },
  { menu: 'Register och filer', name: 'Register', path: /^\/inventory(\/customers)?$/ },
  { menu: 'Register och filer', name: 'Filarkiv', path: /^\/drive$/ },
  // the supplier invoices they are responsible for (issue 33): their one finance area, alone in the bar
  { menu: null, name: 'Leverantörsfakturor', path: /^\/supplierinvoices$/ },
  // the deviations they raise on site and work (issue 34: the seeded level creates and reads them)
  { menu: 'Register och filer', name: 'Avvikelser', path: /^\/deviations$/ },
];

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Huvudmeny' });
/**
 * An accessible name that is `name`, or `name` followed by a count badge: once the agreement sweep
 * has made invoices to do (an app that lives ten minutes runs it), "Avtal" is named "Avtal 3
 * (avtalsfakturor att göra: 3)" and its menu "Försäljning 3 (att göra: 3)".
 */
const named = (name: string) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`);
const isPhone = (page: Page) => (page.viewportSize()?.width ?? 0) < 1024;

/** Opens what holds `area` (its menu; on a phone the menu button) and returns the link. */
async function reveal(page: Page, area: Area) {
  if (isPhone(page)) {
    const menu = page.getByRole('button', { name: 'Meny' });
    // closed since the last link was followed; a click now opens it (never toggles it shut)
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    const nav = mainNav(page);
    return area.menu
      ? nav.getByRole('region', { name: named(area.menu) }).getByRole('link', { name: named(area.name) })
      : nav.getByRole('link', { name: named(area.name) });
  }
  if (!area.menu) return mainNav(page).getByRole('link', { name: named(area.name) });
  await mainNav(page).getByRole('button', { name: named(area.menu) }).click();
  return page.getByRole('menu', { name: named(area.menu) }).getByRole('menuitem', { name: named(area.name) });
}

/** Every link in the bar, the menus opened one after the other: the names the person can reach. */
async function reachableNames(page: Page): Promise<string[]> {
  if (isPhone(page)) {
    await page.getByRole('button', { name: 'Meny' }).click();
    const names = await mainNav(page).getByRole('link').allInnerTexts();
    await page.getByRole('button', { name: 'Meny' }).click();
    return names.map((n) => n.trim());
  }
  // read once the bar has its links (allInnerTexts does not wait: a slow first render read none)
  await expect(mainNav(page).getByRole('link').first()).toBeVisible();
  const names = (await mainNav(page).getByRole('link').allInnerTexts()).map((n) => n.trim());
  const menus = await mainNav(page).getByRole('button').allInnerTexts();
  for (const menu of menus.map(withoutCount)) {
    await mainNav(page).getByRole('button', { name: named(menu) }).click();
    // the open menu is its own chunk: wait for it before reading its items
    const open = page.getByRole('menu', { name: named(menu) });
    await expect(open.getByRole('menuitem').first()).toBeVisible();
    names.push(...(await open.getByRole('menuitem').allInnerTexts()).map((n) => n.trim()));
    await page.keyboard.press('Escape');
    await expect(open).toBeHidden();
  }
  return names;
}

/**
 * The visible text of a link without its count badge ("Avtal3" is "Avtal"; "Avtal\n3\n(avtalsfakturor
 * att göra: 3)" too, once the agreement sweep has made invoices to do).
 */
const withoutCount = (name: string) =>
  name
    .split('\n')[0]!
    .replace(/\d+\+?$/, '')
    .trim();

for (const width of [1024, 1280, 390]) {
  test(`[shell] at ${width} px every area of the admin is visible in the bar or its menus, and leads to its page`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 800 });
    await signIn(page, app, '/time');
    await page.waitForURL((u) => u.pathname === '/time');
    await hydrated(page);
    expect((await reachableNames(page)).map(withoutCount).sort()).toEqual(ADMIN_AREAS.map((a) => a.name).sort());
    // the bar fits: nothing is pushed out of the window sideways
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

    for (const area of ADMIN_AREAS) {
      const link = await reveal(page, area);
      await expect(link).toBeVisible();
      await link.click();
      await page.waitForURL((u) => area.path.test(u.pathname));
      await hydrated(page);
    }
  });
}

test('[shell] a technician reaches only their areas, on a wide screen and on a phone', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, app, '/time', 'erik.tekniker@nordlarm.se');
  await page.waitForURL((u) => u.pathname === '/time');
  await hydrated(page);
  expect((await reachableNames(page)).sort()).toEqual(TECHNICIAN_AREAS.map((a) => a.name).sort());
  await page.setViewportSize({ width: 390, height: 800 });
  expect((await reachableNames(page)).sort()).toEqual(TECHNICIAN_AREAS.map((a) => a.name).sort());
  const drive = await reveal(page, TECHNICIAN_AREAS[3]!);
  await drive.click();
  await page.waitForURL((u) => u.pathname === '/drive');
});

test('[shell] the open menus pass the accessibility check and work from the keyboard', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, app, '/time');
  await page.waitForURL((u) => u.pathname === '/time');
  await hydrated(page);
  const sales = mainNav(page).getByRole('button', { name: 'Försäljning' });
  await sales.focus();
  await page.keyboard.press('ArrowDown');
  const menu = page.getByRole('menu', { name: 'Försäljning' });
  await expect(menu.getByRole('menuitem', { name: 'Offerter' })).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.pathname === '/sales');

  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByRole('button', { name: 'Meny' }).click();
  await expect(mainNav(page).getByRole('link', { name: 'Offerter' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('[shell] the document title names the page, and on a record the record', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, app, '/proposals');
  await page.waitForURL((u) => u.pathname === '/proposals');
  await expect(page).toHaveTitle('Offerter · Nordlarm Säkerhet AB · Ordo');
  await page.goto(`${app.url}/settings/users`);
  await expect(page).toHaveTitle('Användare – Inställningar · Nordlarm Säkerhet AB · Ordo');
  await page.goto(`${app.url}/`);
  await expect(page).toHaveTitle('Arbetsordrar · Nordlarm Säkerhet AB · Ordo');
  // a record: a demo proposal, by its number
  await page.goto(`${app.url}/proposals`);
  await hydrated(page);
  await openProposal(page, 'Inbrottslarm trapphus');
  await expect(page).toHaveTitle(/^Offert \d+ · Nordlarm Säkerhet AB · Ordo$/);
  // a client-side move updates it too
  await hydrated(page);
  await page.getByRole('navigation', { name: 'Huvudmeny' }).getByRole('link', { name: 'Tidrapportering' }).click();
  await expect(page).toHaveTitle('Tidrapportering · Nordlarm Säkerhet AB · Ordo');
});
