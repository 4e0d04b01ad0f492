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

test('[documents] the admin sets the company details, and the order downloads as PDF and Word with them', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await signIn(page, app, '/settings');
  await expect(page.getByRole('heading', { name: 'Företagsuppgifter' })).toBeVisible();
  await hydrated(page);
  const form = page.getByRole('form', { name: 'Företagsuppgifter' });
  await form.getByLabel('Momsregistreringsnummer').fill('SE556677889901');
  await form.getByLabel('E-post').fill('inte-en-adress');
  await form.getByRole('button', { name: 'Spara' }).click();
  await expect(form.getByText('Ange en giltig e-postadress')).toBeVisible();
  await form.getByLabel('E-post').fill('info@nordlarm.se');
  await form.getByLabel('Bankgiro').fill('123-4567');
  await form.getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByText('Sparat')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: 'Företagsuppgifter' }).getByLabel('Bankgiro')).toHaveValue('123-4567');

  const list = await page.request.get(`${app.url}/api/wo?list=open&size=1`);
  expect(list.status()).toBe(200);
  const wo = (await list.json()).workOrders[0] as { id: string; number: string };
  const pdf = await page.request.get(`${app.url}/work-orders/${wo.id}/document?format=pdf`);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-disposition']).toBe(`attachment; filename="work-order-${wo.number}.pdf"`);
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  const word = await page.request.get(`${app.url}/work-orders/${wo.id}/document?format=docx`);
  expect(word.status()).toBe(200);
  expect((await word.body()).subarray(0, 2).toString()).toBe('PK');
});
