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
 * The demo's open orders have positions (as a geocoder would give them), all but a few. This machine
 * has no internet, so no tile loads: exactly the "no tiles reachable" case of issue 6.
 */
test('[work orders] map tab: markers and list without tiles, the search stays on the map', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, app, '/work-orders/map');
  await expect(page.getByRole('heading', { name: /Välkommen/ })).toBeVisible({ timeout: 60_000 });
  await hydrated(page);

  const list = page.getByRole('list', { name: 'Arbetsordrar på kartan' });
  // the demo's open orders: this morning's, this week's booked and the overdue ones
  await expect(list.getByRole('link', { name: /Larmet löser ut på natten/ })).toBeVisible();
  expect(await list.getByRole('link').count()).toBeGreaterThan(20);
  await expect(page.getByText(/Arbetsordrar utan plats, som inte visas på kartan: \d+/)).toBeVisible();

  // Leaflet draws the markers (clustered) even though every tile fails, and says so.
  const map = page.getByRole('region', { name: 'Karta över arbetsordrar' });
  await expect(map).toHaveAttribute('data-markers', /^([2-9]\d|\d{3,})$/, { timeout: 60_000 });
  await expect(map.locator('.leaflet-marker-icon').first()).toBeVisible();
  await expect(page.getByText('Kartbilderna kunde inte laddas; markörerna och listan fungerar ändå.')).toBeVisible({
    timeout: 30_000,
  });

  // Spec section 4: setting the search filter on the map keeps the map.
  await page.getByRole('searchbox', { name: 'Sök' }).fill('kameror');
  await expect(page).toHaveURL(/\/work-orders\/map\?.*search=kameror/);
  await expect(list.getByRole('link')).toHaveCount(1);
  await expect(list.getByRole('link', { name: /Installera kameror vid lastkaj/ })).toBeVisible();
  await expect(map).toHaveAttribute('data-markers', '1');

  // The one marker's popup names the order and links to it.
  // the other markers fade out of their clusters first
  await expect(map.locator('.leaflet-marker-icon')).toHaveCount(1, { timeout: 30_000 });
  const popup = map.locator('.leaflet-popup');
  // On a loaded machine the cluster layer may still be redrawing the marker after its zoom, which
  // closes a popup opened a moment too early: click again until the popup stays, as a person would.
  await expect(async () => {
    await map.locator('.leaflet-marker-icon').first().click();
    await expect(popup.getByText('ICA Nära Fyris')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(popup.getByRole('link', { name: 'Installera kameror vid lastkaj' })).toBeVisible();
  await popup.getByRole('link', { name: 'Installera kameror vid lastkaj' }).click();
  await expect(page).toHaveURL(/\/work-orders\/[0-9a-f-]{36}/);
  await expect(page.getByRole('heading', { name: 'Installera kameror vid lastkaj', level: 2 })).toBeVisible({
    timeout: 60_000,
  });
});
