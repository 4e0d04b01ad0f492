import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { ADMIN, hydrated, signIn } from './helpers';

let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

test('[articles] create an article with a proposed ID, find it, take in stock, and price it with a price list', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // A group for the article.
  await signIn(page, app, '/settings/articles/groups');
  await expect(page.getByRole('heading', { name: 'Artikelgrupper' })).toBeVisible();
  await hydrated(page);
  await page.getByRole('textbox', { name: 'ID', exact: true }).fill('SKYDD');
  await page.getByRole('textbox', { name: 'Namn', exact: true }).fill('Brandskydd');
  await page.getByRole('button', { name: 'Lägg till' }).click();
  await expect(page.getByRole('row', { name: /SKYDD/ })).toContainText('Brandskydd');
  // The same ID again is refused next to the field.
  await page.getByRole('textbox', { name: 'ID', exact: true }).fill('skydd');
  await page.getByRole('button', { name: 'Lägg till' }).click();
  await expect(page.getByText('Det finns redan en artikelgrupp med samma ID!')).toBeVisible();

  // A new article: the ID is proposed, the rest typed.
  await page.goto(`${app.url}/inventory/articles/new`);
  await expect(page.getByRole('heading', { name: 'Ny artikel' })).toBeVisible();
  await hydrated(page);
  await page.getByRole('button', { name: 'Föreslå' }).click();
  await expect(page.getByRole('textbox', { name: 'Artikelnr' })).toHaveValue(/^\d{5}$/);
  const articleId = await page.getByRole('textbox', { name: 'Artikelnr' }).inputValue();
  await page.getByRole('textbox', { name: 'Benämning' }).fill('Rökdetektor optisk');
  await page.getByRole('button', { name: /Artikelgrupp/ }).click();
  await page.getByRole('option', { name: 'SKYDD – Brandskydd' }).click();
  await page.getByLabel('Försäljningspris').fill('x');
  await page.getByRole('button', { name: 'Skapa artikel' }).click();
  await expect(page.getByText('Ange priset med siffror.')).toBeVisible();
  await page.getByLabel('Försäljningspris').fill('499');
  await page.getByLabel('Inköpspris').fill('210,50');
  await page.getByRole('button', { name: 'Skapa artikel' }).click();
  await expect(page.getByRole('heading', { name: `${articleId} · Rökdetektor optisk` })).toBeVisible();
  await expect(page.getByText('Artikeln är skapad.')).toBeVisible();
  const articleUrl = page.url().replace(/\?.*$/, '');
  const id = articleUrl.split('/').pop()!;

  // Found by search in the register.
  await page.goto(`${app.url}/inventory/articles`);
  await hydrated(page);
  await page.getByLabel('Sök artikel').fill('rökdetekt');
  await page.getByRole('button', { name: 'Sök', exact: true }).click();
  await expect(page.getByText('1–1 av 1')).toBeVisible();
  await page.getByRole('row', { name: /Rökdetektor optisk/ }).click();
  await expect(page.getByRole('heading', { name: `${articleId} · Rökdetektor optisk` })).toBeVisible();
  await hydrated(page);

  // Stock: take in 5, then taking out 10 is refused.
  await page.getByRole('textbox', { name: 'Antal' }).fill('5');
  await page.getByRole('button', { name: 'Lägg in i lager' }).click();
  await expect(page.getByTestId('stock-amount')).toHaveText('5');
  await expect(page.getByRole('table', { name: 'Lagerrörelser' })).toContainText('+5');
  await page.getByRole('textbox', { name: 'Antal' }).fill('10');
  await page.getByRole('button', { name: 'Ta ut ur lager' }).click();
  await expect(page.getByText('Det finns inte så många i lager.')).toBeVisible();
  await expect(page.getByTestId('stock-amount')).toHaveText('5');

  // A price list giving 15 % off the group.
  await page.goto(`${app.url}/settings/articles/pricelists`);
  await hydrated(page);
  await page.getByRole('textbox', { name: 'Namn', exact: true }).fill('Brandavtal');
  await page.getByRole('button', { name: 'Skapa prislista' }).click();
  await expect(page.getByRole('heading', { name: 'Brandavtal' })).toBeVisible();
  const priceListId = page.url().replace(/\?.*$/, '').split('/').pop()!;
  await hydrated(page);
  await page.getByRole('button', { name: /Prissättning för SKYDD/ }).click();
  await page.getByRole('option', { name: 'Rabatt' }).click();
  await page.getByLabel('Procent för SKYDD').fill('150');
  await page.getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByText('Procent måste vara mellan 0 och 100.')).toBeVisible();
  await page.getByLabel('Procent för SKYDD').fill('15');
  await page.getByRole('button', { name: 'Spara' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sparat' })).toBeVisible();

  // The article page shows the list's price, and the price lookup for a customer on the list agrees.
  await page.goto(articleUrl);
  await expect(page.getByRole('row', { name: /Brandavtal/ })).toContainText('499,00');
  await expect(page.getByRole('row', { name: /Brandavtal/ })).toContainText('15 %');
  const token = (await (await page.request.post(`${app.url}/api/authenticate`, { data: ADMIN })).json())
    .token as string;
  const headers = { authorization: `Bearer ${token}` };
  const customer = await page.request.post(`${app.url}/api/customers`, {
    headers,
    data: { customer: { name: 'Brf Eken', customerId: '88001', priceListId } },
  });
  expect(customer.status(), await customer.text()).toBe(200);
  const customerId = (await customer.json()).id as string;
  const lookup = await page.request.get(`${app.url}/api/articles/${id}?customerId=${customerId}`, { headers });
  expect(await lookup.json()).toEqual({
    salesPrice: '499.00',
    priceType: 'CUSTOMER_PRICE_LIST',
    discountType: 'PERCENTAGE',
    discountValue: '15.00',
  });

  // Without a price list the article's own price applies.
  const plain = await page.request.get(`${app.url}/api/articles/${id}`, { headers });
  expect(await plain.json()).toMatchObject({ salesPrice: '499.00', priceType: 'ARTICLE_PRICE', discountType: 'NONE' });
});

test('[articles] the register and an article page fit a phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signIn(page, app, '/inventory/articles');
  await expect(page.getByRole('heading', { name: 'Artiklar', exact: true })).toBeVisible();
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.goto(`${app.url}/inventory/articles/new`);
  await expect(page.getByRole('heading', { name: 'Ny artikel' })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
});
