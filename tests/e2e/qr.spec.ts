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

test('[qr] a scanned label opens the object with its orders; a new order starts with the object and customer', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, app, '/inventory/objects');
  await expect(page).toHaveURL(/\/inventory\/objects$/);
  await hydrated(page);
  // The demo object 50001 (Brf Solrosen) carries the demo order "Årlig service inbrottslarm"; its
  // QR reference is random, so it is read through the API with the same session.
  const res = await page.request.get(`${app.url}/api/bo?q=50001`);
  expect(res.status(), await res.text()).toBe(200);
  const bo = ((await res.json()) as { bos: { serialCode: string; qrRef: string }[] }).bos.find(
    (b) => b.serialCode === '50001',
  )!;
  expect(bo.qrRef).toBeTruthy();

  await page.goto(`${app.url}/qr/${bo.qrRef}`);
  await expect(page.getByRole('heading', { name: '50001', exact: true })).toBeVisible();
  const orders = page.getByRole('region', { name: 'Arbetsordrar' });
  await expect(orders.getByRole('heading', { name: /Öppna/ })).toBeVisible();
  await expect(orders.getByRole('heading', { name: /Avslutade/ })).toBeVisible();
  await expect(orders.getByRole('link', { name: /Årlig service inbrottslarm/ })).toBeVisible();

  await hydrated(page);
  await orders.getByRole('link', { name: 'Ny arbetsorder' }).click();
  await expect(page).toHaveURL(/\/work-orders\/new\?businessObjectId=[0-9a-f-]{36}&customerId=[0-9a-f-]{36}$/);
  await hydrated(page);
  await expect(page.getByRole('combobox', { name: 'Kund', exact: true })).toHaveValue(/Brf Solrosen/);
  await expect(page.getByRole('combobox', { name: 'Objekt' })).toHaveValue(/50001/);

  // Saved, the new order is on the object page among its open orders.
  await page.getByRole('textbox', { name: 'Titel' }).fill('Skannad etikett: kontroll');
  await page
    .getByRole('group', { name: /Tilldelade/ })
    .getByRole('checkbox')
    .first()
    .check();
  await page.getByRole('button', { name: 'Skapa arbetsorder' }).click();
  await expect(page).toHaveURL(/\/work-orders\/[0-9a-f-]{36}/);
  await page.goto(`${app.url}/qr/${bo.qrRef}`);
  await expect(
    page.getByRole('region', { name: 'Arbetsordrar' }).getByRole('link', { name: /Skannad etikett: kontroll/ }),
  ).toBeVisible();

  await page.goto(`${app.url}/qr/unknown`);
  await expect(page.getByRole('heading', { name: 'QR-referensen hittades inte.' })).toBeVisible();
});
