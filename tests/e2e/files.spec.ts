import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import sharp from 'sharp';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { hydrated, signIn } from './helpers';

/**
 * Issue 12 in the browser: three photos onto a work order from a phone (with progress and
 * thumbnails), a PDF previewed on an object (zoom), a file published and seen on its customer, and
 * the drive (folder, link with its required fields, upload into the folder). The file browser is
 * also checked with axe once it holds files.
 */
let app: RunningApp;
let photos: { name: string; mimeType: string; buffer: Buffer }[];
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
  photos = await Promise.all(
    ['#c0392b', '#27ae60', '#2980b9'].map(async (colour, i) => ({
      name: `bild-${i + 1}.jpg`,
      mimeType: 'image/jpeg',
      buffer: await sharp({ create: { width: 1600, height: 1200, channels: 3, background: colour } })
        .jpeg()
        .toBuffer(),
    })),
  );
});
test.afterAll(async () => {
  await app?.stop();
});

async function firstId(page: Page, api: string, key: string): Promise<string> {
  const res = await page.request.get(`${app.url}${api}`);
  expect(res.status()).toBe(200);
  return ((await res.json())[key] as { id: string }[])[0]!.id;
}

async function noSeriousViolations(page: Page, selector: string) {
  expect(await seriousViolations(page, selector)).toEqual([]);
}

test('[files] three photos onto a work order from a 360 px phone, with thumbnails', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 360, height: 780 });
  await signIn(page, app, '/');
  await expect(page.getByRole('heading', { level: 1, name: /Välkommen|Welcome/ })).toBeVisible({ timeout: 60_000 });
  const wo = await firstId(page, '/api/wo?list=open&size=1', 'workOrders');
  await page.goto(`${app.url}/work-orders/${wo}`);
  await hydrated(page);
  const files = page.getByRole('region', { name: /^(Filer|Files)/ });
  await expect(files.getByText(/Inga filer än|No files yet/)).toBeVisible({ timeout: 60_000 });
  const chooser = page.waitForEvent('filechooser');
  await files.getByRole('button', { name: /Ladda upp|Upload/ }).click();
  await (await chooser).setFiles(photos);
  await expect(page.getByText(/Uppladdade filer: 3|Files uploaded: 3/)).toBeVisible({ timeout: 30_000 });
  for (const p of photos) await expect(files.getByRole('button', { name: p.name, exact: true })).toBeVisible();
  await expect(files.locator('img[src$="/thumbnail"]')).toHaveCount(3);
  // every thumbnail really loaded (a broken image has no natural width)
  await expect
    .poll(() =>
      files
        .locator('img[src$="/thumbnail"]')
        .evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0)),
    )
    .toBe(true);
  await expect(files.getByRole('heading', { name: /\(3\)/ })).toBeVisible();
  // the page fits the phone: nothing wider than the screen
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await noSeriousViolations(page, 'section[aria-labelledby]');

  // a photo opens in the preview
  await files.getByRole('button', { name: 'bild-2.jpg', exact: true }).click();
  const preview = page.getByRole('dialog', { name: 'bild-2.jpg' });
  await expect(preview.getByRole('img', { name: 'bild-2.jpg' })).toBeVisible();
  await preview.getByRole('button', { name: /Stäng|Close/ }).click();

  // deleting asks first and the list follows
  await files.getByRole('button', { name: /Åtgärder för bild-3.jpg|Actions for bild-3.jpg/ }).click();
  await page.getByRole('menuitem', { name: /Ta bort|Delete/ }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /Ta bort|Delete/ })
    .click();
  await expect(files.getByRole('button', { name: 'bild-3.jpg', exact: true })).toBeHidden();
  await expect(files.getByRole('heading', { name: /\(2\)/ })).toBeVisible();
});

test('[files] a PDF on an object previews in the page, with zoom', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/inventory/objects');
  await page.waitForURL((u) => u.pathname === '/inventory/objects');
  const bo = await firstId(page, '/api/bo?limit=1', 'bos');
  await page.goto(`${app.url}/inventory/objects/${bo}?tab=files`);
  await hydrated(page);
  await page.getByRole('tab', { name: /^(Filer|Files)$/ }).click();
  const files = page.getByRole('region', { name: /^(Filer|Files)/ });
  const chooser = page.waitForEvent('filechooser');
  await files.getByRole('button', { name: /Ladda upp|Upload/ }).click();
  await (await chooser).setFiles([{ name: 'Serviceprotokoll.pdf', mimeType: 'application/pdf', buffer: pdf }]);
  await files.getByRole('button', { name: 'Serviceprotokoll.pdf', exact: true }).click();
  const preview = page.getByRole('dialog', { name: 'Serviceprotokoll.pdf' });
  const pageImage = preview.getByRole('img', { name: /1/ });
  await expect(pageImage).toBeVisible({ timeout: 30_000 });
  const width = async () => (await pageImage.boundingBox())!.width;
  const before = await width();
  await expect(preview.getByText('100 %')).toBeVisible();
  await preview.getByRole('button', { name: /Zooma in|Zoom in/ }).click();
  await expect(preview.getByText('120 %')).toBeVisible();
  await expect.poll(width).toBeGreaterThan(before * 1.1);
  // zoom stops at 60 %
  for (let i = 0; i < 3; i++) await preview.getByRole('button', { name: /Zooma ut|Zoom out/ }).click();
  await expect(preview.getByText('60 %')).toBeVisible();
  await expect(preview.getByRole('button', { name: /Zooma ut|Zoom out/ })).toBeDisabled();
});

test('[files] a file published from a customer is listed on the customer', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/inventory/customers');
  await page.waitForURL((u) => u.pathname === '/inventory/customers');
  const customer = await firstId(page, '/api/customers?limit=1', 'customers');
  await page.goto(`${app.url}/inventory/customers/${customer}`);
  await hydrated(page);
  const files = page.getByRole('region', { name: /^(Filer|Files)/ });
  const zone = page.getByRole('region', { name: /I kundzonen|In the customer zone/ });
  await expect(zone.getByText(/Inget är publicerat|Nothing is published/)).toBeVisible({ timeout: 60_000 });
  const chooser = page.waitForEvent('filechooser');
  await files.getByRole('button', { name: /Ladda upp|Upload/ }).click();
  await (await chooser).setFiles([{ name: 'Brandskyddsintyg.pdf', mimeType: 'application/pdf', buffer: pdf }]);
  await files
    .getByRole('button', { name: /Åtgärder för Brandskyddsintyg.pdf|Actions for Brandskyddsintyg.pdf/ })
    .click();
  await page.getByRole('menuitem', { name: /Publicera i kundzonen|Publish to customer zone/ }).click();
  // the dialog says who will see it before publishing (decision 063)
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('zone-audience')).toContainText(/Vem ser filen|Who will see it/);
  await dialog.getByRole('button', { name: /Publicera i kundzonen|Publish to customer zone/ }).click();
  await expect(files.getByText(/^(Publicerad|Published)$/)).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId('published-files').getByRole('link', { name: 'Brandskyddsintyg.pdf' })).toBeVisible({
    timeout: 60_000,
  });
});

test('[files] the drive: a folder, a link that needs both fields, a file in the folder, found by search', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, app, '/drive');
  await page.waitForURL((u) => u.pathname === '/drive');
  await hydrated(page);
  const files = page.getByRole('region', { name: /^(Filer|Files)/ });
  await files.getByRole('button', { name: /Ny mapp|New folder/ }).click();
  const folderDialog = page.getByRole('dialog', { name: /Ny mapp|New folder/ });
  await folderDialog.getByRole('textbox').fill('Leverantörsavtal');
  await folderDialog.getByRole('button', { name: /Skapa|Create/ }).click();
  await files.getByRole('button', { name: 'Leverantörsavtal', exact: true }).click();
  await expect(files.getByText(/Mappen är tom|This folder is empty/)).toBeVisible();

  await files.getByRole('button', { name: /Lägg till länk|Add link/ }).click();
  const linkDialog = page.getByRole('dialog', { name: /Lägg till länk|Add link/ });
  await linkDialog.getByRole('button', { name: /Spara|Save/ }).click();
  await expect(linkDialog.getByText(/obligatoriskt|required/i).first()).toBeVisible();
  await linkDialog.getByRole('textbox', { name: /Namn|Name/ }).fill('Axis support');
  await linkDialog.getByRole('textbox', { name: /Länk|Link/ }).fill('https://www.axis.com/support');
  await linkDialog.getByRole('button', { name: /Spara|Save/ }).click();
  await expect(files.getByRole('link', { name: 'Axis support' })).toBeVisible();

  const chooser = page.waitForEvent('filechooser');
  await files.getByRole('button', { name: /Ladda upp|Upload/ }).click();
  await (await chooser).setFiles([{ name: 'Manual Axis P3265.pdf', mimeType: 'application/pdf', buffer: pdf }]);
  await expect(files.getByRole('button', { name: 'Manual Axis P3265.pdf', exact: true })).toBeVisible();
  await files
    .getByRole('navigation')
    .getByRole('button', { name: /^(Filer|Files)$/ })
    .click();
  await expect(files.getByRole('button', { name: 'Manual Axis P3265.pdf', exact: true })).toBeHidden();
  await files.getByRole('searchbox').fill('p3265');
  await expect(files.getByRole('button', { name: 'Manual Axis P3265.pdf', exact: true })).toBeVisible();
  await expect(
    page.getByRole('region', { name: /Senaste|Recent/ }).getByRole('link', { name: 'Manual Axis P3265.pdf' }),
  ).toBeVisible();
  await noSeriousViolations(page, 'main');
});
