import type { Page } from '@playwright/test';
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

/** Types into a search picker and picks the option that appears. */
async function pick(page: Page, label: string, text: string, option: RegExp) {
  const box = page.getByRole('combobox', { name: label });
  await box.fill(text);
  await page.getByRole('option', { name: option }).click();
}

test('[objects] a model and an object with its customer, an access code revealed and logged, the QR label and /qr', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/inventory/models');
  await expect(page.getByRole('heading', { name: 'Modeller' })).toBeVisible();
  await hydrated(page);
  // The customer comes through the customers API (same session cookie); objects are ours to test.
  const customer = await page.request.post(`${app.url}/api/customers`, {
    data: { customer: { customerId: '90001', name: 'Brf Testgården', type: 'company' } },
  });
  expect(customer.status(), await customer.text()).toBe(200);

  await page.getByRole('button', { name: 'Ny modell' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Kod').fill('E2E GFX');
  await dialog.getByLabel('Namn').fill('Galaxy Flex E2E');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  // A code with a space is refused next to the field.
  await expect(dialog.getByText('ID får inte innehålla mellanslag.')).toBeVisible();
  await dialog.getByLabel('Kod').fill('E2E-GFX');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  const modelRow = page.getByRole('row', { name: 'E2E-GFX' });
  await expect(modelRow).toContainText('Galaxy Flex E2E');
  await expect(modelRow).toContainText('Aktiv');

  await page.goto(`${app.url}/inventory/objects/new`);
  await hydrated(page);
  await page.getByLabel('Serienummer').fill('E2E-0001');
  await pick(page, 'Modell', 'Flex E2E', /Galaxy Flex E2E/);
  await pick(page, 'Kund', 'Testgården', /Brf Testgården/);
  await page.getByLabel('Placering', { exact: true }).fill('Teknikrum, källarplan');
  await page.getByRole('button', { name: 'Skapa objekt' }).click();
  await expect(page.getByRole('heading', { name: 'E2E-0001' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Objektet är skapat.' })).toBeVisible();
  await expect(page.getByText('Galaxy Flex E2E · Teknikrum, källarplan')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Brf Testgården' })).toBeVisible();
  await hydrated(page);

  await page.getByRole('tab', { name: 'Koder' }).click();
  await page.getByLabel('Ny kodgrupp').fill('Larmkoder');
  await page.getByRole('button', { name: 'Lägg till grupp' }).click();
  const addCode = page.getByRole('form', { name: 'Ny kod i Larmkoder' });
  await addCode.getByLabel('Kodens namn').fill('Huvudkod');
  await addCode.getByLabel('Kod', { exact: true }).fill('4711-E2E');
  await addCode.getByRole('button', { name: 'Lägg till kod' }).click();
  await expect(page.getByText('••••••')).toBeVisible();
  // The value is not in the page until someone asks for it.
  expect(await page.content()).not.toContain('4711-E2E');
  await page.getByRole('button', { name: 'Visa Huvudkod' }).click();
  await expect(page.getByText('4711-E2E')).toBeVisible();
  await page.getByRole('button', { name: 'Dölj Huvudkod' }).click();
  await expect(page.getByText('4711-E2E')).toHaveCount(0);

  await page.getByRole('link', { name: 'Säkerhetslogg' }).click();
  await expect(page.getByRole('heading', { name: 'Säkerhetslogg' })).toBeVisible();
  const viewed = page.getByRole('row').filter({ hasText: 'Kod visad' });
  await expect(viewed).toHaveCount(1);
  for (const text of ['E2E-0001', 'Larmkoder › Huvudkod', 'Maria Lindqvist']) await expect(viewed).toContainText(text);
  await expect(page.getByRole('row').filter({ hasText: 'Kod tillagd' })).toContainText('E2E-0001');
  await expect(page.getByRole('row').filter({ hasText: 'Grupp tillagd' })).toContainText('Larmkoder');
  // The value never reaches the log.
  expect(await page.content()).not.toContain('4711-E2E');

  await page.getByRole('link', { name: 'E2E-0001' }).first().click();
  await expect(page.getByRole('heading', { name: 'E2E-0001' })).toBeVisible();
  await page.getByRole('link', { name: 'Skriv ut etikett' }).first().click();
  const label = page.locator('#qr-label');
  await expect(label.locator('svg')).toBeVisible();
  await expect(label).toContainText('E2E-0001');
  await expect(label).toContainText('Galaxy Flex E2E');
  await expect(label).toContainText('Nordlarm Säkerhet AB');
  const url = (await page.getByText(/Koden leder till/).textContent())!.replace('Koden leder till ', '');
  const ref = new URL(url).searchParams.get('id')!;
  expect(new URL(url).searchParams.get('source')).toBe('qr');

  await page.goto(`${app.url}/qr/${ref}`);
  await expect(page.getByRole('heading', { name: 'E2E-0001' })).toBeVisible();
  await expect(page).toHaveURL(/\/inventory\/objects\/[0-9a-f-]{36}$/);
  await page.goto(`${app.url}/qr/unknown-ref`);
  await expect(page.getByRole('heading', { name: 'QR-referensen hittades inte.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Till objekten' })).toBeVisible();
});

/** A moment as the demo company (Sweden, YYYY-MM-DD) writes it, whatever zone the test runs in. */
function stockholm(iso: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Stockholm',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}

test('[objects] the object history, the security log and the profile write times in the company’s zone, seen from São Paulo', async ({
  browser,
}) => {
  // The server runs in UTC and this browser three hours behind it; the company is in Stockholm.
  const context = await browser.newContext({ timezoneId: 'America/Sao_Paulo', locale: 'sv-SE' });
  const page = await context.newPage();
  await signIn(page, app, '/inventory/objects/security-log');
  await expect(page.getByRole('heading', { name: 'Säkerhetslogg' })).toBeVisible();
  await hydrated(page);
  const checkTimes = async (scope: string) => {
    const times = page.locator('main time[datetime]');
    await expect(times.first()).toBeVisible();
    const pairs = await times.evaluateAll((els) =>
      els.map((e) => ({ iso: e.getAttribute('datetime')!, text: e.textContent ?? '' })),
    );
    expect(pairs.length, scope).toBeGreaterThan(0);
    for (const p of pairs) expect(p.text, `${scope}: ${p.iso}`).toContain(stockholm(p.iso));
  };
  await checkTimes('security log');

  await page.getByRole('link', { name: 'E2E-0001' }).first().click();
  await expect(page.getByRole('heading', { name: 'E2E-0001' })).toBeVisible();
  await hydrated(page);
  await page.getByRole('tab', { name: 'Historik' }).click();
  await checkTimes('object history');

  await page.goto(`${app.url}/profile`);
  await hydrated(page);
  await checkTimes('profile');
  await context.close();
});

test('[objects] the security documentation downloads as Word with a signature, chosen pages only', async ({ page }) => {
  await signIn(page, app, '/inventory/objects');
  await expect(page).toHaveURL(/\/inventory\/objects$/);
  await hydrated(page);
  const res = await page.request.get(`${app.url}/api/bo?q=50001`);
  const bo = ((await res.json()) as { bos: { id: string; serialCode: string }[] }).bos.find(
    (b) => b.serialCode === '50001',
  )!;
  await page.goto(`${app.url}/inventory/objects/${bo.id}?tab=security`);
  await hydrated(page);
  await page.getByText('Exportera dokumentation').click();
  await page.getByLabel('Format').selectOption('docx');
  await page.getByLabel('Underskrift (namn)').fill('Maria Lindqvist');
  await page.getByRole('checkbox', { name: 'Objekt och kund' }).uncheck();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Ladda ner' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.docx$/);
  const file = await download.path();
  const { readFileSync } = await import('node:fs');
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
});

test('[objects] the admin sets what objects are called and how long a proposed id is; a new object follows', async ({
  page,
}) => {
  await signIn(page, app, '/settings');
  await expect(page.getByRole('heading', { name: 'Inställningar' })).toBeVisible();
  await hydrated(page);
  const section = page.getByRole('form', { name: 'Objekt' });
  await section.getByRole('textbox', { name: /Minsta längd/ }).fill('0');
  await section.getByRole('button', { name: 'Spara' }).click();
  await expect(section.getByText('Ogiltigt värde')).toBeVisible();
  await hydrated(page);
  await section.getByRole('button', { name: /Objekten är/ }).click();
  await page.getByRole('option', { name: 'Hissar' }).click();
  await section.getByRole('textbox', { name: /Minsta längd/ }).fill('7');
  await section.getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByRole('status')).toContainText('Sparat');
  await page.reload();
  await expect(page.getByRole('form', { name: 'Objekt' }).getByRole('textbox', { name: /Minsta längd/ })).toHaveValue(
    '7',
  );
  await expect(page.getByRole('form', { name: 'Objekt' }).getByRole('button', { name: /Objekten är/ })).toContainText(
    'Hissar',
  );
  const proposed = await page.request.get(`${app.url}/api/bo/id/propose`);
  expect(((await proposed.json()) as { id: string }).id.length).toBeGreaterThanOrEqual(7);
});
