import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { fillDate, hydrated, signIn } from './helpers';

let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

test('[reminders] add a reminder on an order on a phone, see it listed, delete it after confirming', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 360, height: 780 });
  await signIn(page, app, '/');
  await expect(page.getByRole('heading', { name: /Välkommen/ })).toBeVisible({ timeout: 60_000 });
  const list = await page.request.get(`${app.url}/api/wo?list=open&size=1`);
  expect(list.status()).toBe(200);
  const wo = (await list.json()).workOrders[0] as { id: string };
  await page.goto(`${app.url}/work-orders/${wo.id}`);
  await hydrated(page);

  const panel = page.getByRole('region', { name: 'Påminnelser' });
  await expect(panel.getByText('Inga påminnelser på den här ordern.')).toBeVisible({ timeout: 60_000 });
  await panel.getByRole('button', { name: 'Lägg till påminnelse' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ny påminnelse' });
  // without a time the server says so next to the field
  await fillDate(page, dialog.getByRole('group', { name: 'När', exact: true }), '');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog.getByText('Fältet är obligatoriskt')).toBeVisible();
  const year = new Date().getFullYear() + 1;
  await fillDate(page, dialog.getByRole('group', { name: 'När', exact: true }), `${year}-03-05T08:30`);
  await dialog.getByRole('textbox', { name: 'Meddelande' }).fill('Ring kunden före besöket');
  await dialog.getByRole('button', { name: 'Spara' }).click();
  await expect(dialog).toBeHidden();

  await expect(panel.getByText('Ring kunden före besöket')).toBeVisible();
  await expect(panel.getByText(`${year}-03-05 08:30`)).toBeVisible();
  await expect(panel.getByText('Inte skickad än')).toBeVisible();

  await panel.getByRole('button', { name: /Ta bort påminnelsen till/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Ta bort' }).click();
  await expect(panel.getByText('Inga påminnelser på den här ordern.')).toBeVisible();
  // and it stays gone after a reload
  await page.reload();
  await hydrated(page);
  await expect(
    page.getByRole('region', { name: 'Påminnelser' }).getByText('Inga påminnelser på den här ordern.'),
  ).toBeVisible({
    timeout: 60_000,
  });
});
