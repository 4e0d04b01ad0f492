import { request } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { ADMIN, hydrated, signIn } from './helpers';

/** Anna works in the office: door automatics are hers to read, and she is not a super user. */
const OFFICE = 'anna.kontor@nordlarm.se';
const SLOW = 60_000;
const SERIAL = 'E2E-7001';
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
  // An object to install the door automatic at, made through the API like an integration would.
  const api = await request.newContext();
  const auth = await api.post(`${app.url}/api/authenticate`, { data: ADMIN });
  const { token } = (await auth.json()) as { token: string };
  const bo = await api.post(`${app.url}/api/bo`, {
    headers: { authorization: `Bearer ${token}` },
    data: { bo: { serialCode: SERIAL, location: 'Storgatan 5, Lund' } },
  });
  expect(bo.status()).toBe(200);
  await api.dispose();
});
test.afterAll(async () => {
  await app?.stop();
});

test('[door automatics] create a door automatic for an object; its ID comes from the object', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/inventory');
  const tabs = page.getByRole('navigation', { name: 'Register' });
  await tabs.getByRole('link', { name: 'Dörrautomatik' }).click();
  await expect(page.getByRole('heading', { name: 'Dörrautomatik', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await page.getByRole('link', { name: 'Ny dörrautomatik' }).click();
  await expect(page.getByRole('heading', { name: 'Ny dörrautomatik' })).toBeVisible({ timeout: SLOW });
  await hydrated(page);

  // No title and no object: both are refused next to their fields.
  await page.getByRole('button', { name: 'Skapa dörrautomatik' }).click();
  await expect(page.getByText('Fältet är obligatoriskt').first()).toBeVisible();

  const picker = page.getByRole('combobox', { name: 'Objekt' });
  await picker.click();
  await picker.pressSequentially(SERIAL, { delay: 30 });
  await page.getByRole('option', { name: new RegExp(SERIAL) }).click();
  await page.getByRole('button', { name: 'Föreslå ID' }).click();
  await expect(page.getByLabel('Dörrautomatik-ID')).toHaveValue(`${SERIAL}-1`);
  await page.getByLabel('Benämning').fill('Entrédörr');
  await page.getByLabel('Fabrikat').fill('ASSA ABLOY');
  await page.getByLabel('Modell').fill('SW200');
  await page.getByRole('button', { name: 'Skapa dörrautomatik' }).click();

  await expect(page.getByRole('heading', { name: `${SERIAL}-1 · Entrédörr` })).toBeVisible({ timeout: SLOW });
  await expect(page.getByText('Dörrautomatiken är skapad.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Historik' })).toBeVisible();
  await expect(page.getByText('Skapad ·')).toBeVisible();

  // The object's list shows it.
  await page.getByRole('link', { name: `Dörrautomatik på ${SERIAL}` }).click();
  await expect(page.getByRole('row', { name: new RegExp(`${SERIAL}-1`) })).toContainText('ASSA ABLOY SW200');
});

test('[door automatics] with the module off the tab is gone and the page does not exist', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/inventory/doorautomatics', OFFICE);
  await expect(page.getByRole('heading', { name: 'Dörrautomatik', level: 1 })).toBeVisible({ timeout: SLOW });

  await signIn(page, app, '/settings/modules');
  await expect(page.getByRole('heading', { name: 'Appmoduler', level: 1 })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  const module = page.getByRole('switch', { name: 'Dörrautomatik' });
  await expect(module).toBeChecked();
  await module.locator('xpath=ancestor::label[1]').click();
  await expect(page.getByRole('status')).toContainText('Dörrautomatik är avslagen', { timeout: SLOW });

  await signIn(page, app, '/inventory', OFFICE);
  await expect(page.getByRole('navigation', { name: 'Register' })).toBeVisible({ timeout: SLOW });
  await expect(
    page.getByRole('navigation', { name: 'Register' }).getByRole('link', { name: 'Dörrautomatik' }),
  ).toHaveCount(0);
  const res = await page.goto(`${app.url}/inventory/doorautomatics`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Sidan finns inte' })).toBeVisible();

  // Back on, it is there again.
  await signIn(page, app, '/settings/modules');
  await hydrated(page);
  await page.getByRole('switch', { name: 'Dörrautomatik' }).locator('xpath=ancestor::label[1]').click();
  await expect(page.getByRole('status')).toContainText('Dörrautomatik är påslagen', { timeout: SLOW });
  await signIn(page, app, '/inventory/doorautomatics', OFFICE);
  await expect(page.getByRole('heading', { name: 'Dörrautomatik', level: 1 })).toBeVisible({ timeout: SLOW });
});

test('[door automatics] a work order at an object is linked to its door automatics from the order page', async ({
  page,
}) => {
  await signIn(page, app, '/inventory/objects');
  await expect(page).toHaveURL(/\/inventory\/objects$/);
  const bos = (
    (await (await page.request.get(`${app.url}/api/bo?q=50001`)).json()) as {
      bos: { id: string; serialCode: string }[];
    }
  ).bos;
  const bo = bos.find((b) => b.serialCode === '50001')!;
  const created = await page.request.post(`${app.url}/api/wo`, {
    data: { workOrder: { title: 'Service av entrédörrar', businessObjectId: bo.id } },
  });
  expect(created.status(), await created.text()).toBe(200);
  const id = ((await created.json()) as { workOrder: { id: string } }).workOrder.id;

  await page.goto(`${app.url}/work-orders/${id}`);
  await hydrated(page);
  const panel = page.getByRole('region', { name: 'Dörrautomatik' });
  const first = panel.getByRole('checkbox').first();
  await expect(first).not.toBeChecked();
  await first.check();
  await panel.getByRole('button', { name: 'Spara dörrautomatiker' }).click();
  await expect(page.getByRole('status')).toContainText('Sparat');
  const answer = await page.request.get(`${app.url}/api/wo/doorautomatics/${id}`);
  expect(answer.status(), await answer.text()).toBe(200);
  const linked = (await answer.json()) as {
    doorAutomatics: { number: string }[];
  };
  expect(linked.doorAutomatics.map((d) => d.number)).toEqual([expect.stringMatching(/^50001-/)]);
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole('region', { name: 'Dörrautomatik' }).getByRole('checkbox').first()).toBeChecked();
});
