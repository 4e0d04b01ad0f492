import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { hydrated, signIn } from './helpers';

let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

/**
 * Issue 11: a page's first load carries only the translation namespaces it shows; the others come
 * when the browser is idle, or when a screen asks for one before that.
 */
test('[i18n] a page preloads only the translations it uses; another screen gets its own, even before the idle load', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /hydrat/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  // The access levels' translations are held back, as on a slow line, until the test lets them go.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const accessRequests: string[] = [];
  await page.route(/\/assets\/locale-sv-access-[^/]+\.js$/, async (route) => {
    accessRequests.push(route.request().url());
    await held;
    await route.continue();
  });

  await signIn(page, app, '/');
  await expect(page.getByRole('heading', { name: /Välkommen/ })).toBeVisible({ timeout: 60_000 });
  const response = await page.goto(`${app.url}/settings`);
  // what the server's page names (the browser adds preloads of its own later, for lazy chunks)
  const html = await response!.text();
  const namespaces = [...html.matchAll(/<link rel="modulepreload"[^>]*href="[^"]*\/locale-([a-z]{2})-([a-z]+)-/g)].map(
    (m) => `${m[1]}/${m[2]}`,
  );
  await expect(page.getByRole('heading', { name: 'Inställningar', level: 1 })).toBeVisible();
  await hydrated(page);
  expect(namespaces).toContain('sv/common');
  expect(namespaces).toContain('sv/ui');
  // only Swedish, and not every namespace: no work-order rows, no access levels
  expect(namespaces.every((ns) => ns!.startsWith('sv/'))).toBe(true);
  expect(namespaces).not.toContain('sv/access');
  expect(namespaces).not.toContain('sv/workorderrows');

  // A screen whose namespace has not arrived yet shows its text once it does, never its keys.
  await page.getByRole('link', { name: 'Behörighetsnivåer' }).first().click();
  await expect(page).toHaveURL(/\/settings\/access-levels$/);
  await expect.poll(() => accessRequests.length).toBeGreaterThan(0);
  release();
  await expect(page.getByRole('heading', { name: 'Behörighetsnivåer', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Behörighetsnivåer' })).toBeVisible();
  // the access namespace's keys ("limit.none", "levels.title", …) never show as such
  await expect(page.locator('main')).not.toContainText(/(limit|levels?|group|perm|modules?|nav)\.[a-zA-Z]+/);
  expect(problems).toEqual([]);
});
