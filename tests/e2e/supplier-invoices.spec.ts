import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startApp, type RunningApp } from './app-server';
import { seriousViolations } from './axe';
import { fillDate, hydrated, pick, signIn } from './helpers';

/**
 * Issue 33 in the browser: the office adds the wholesaler with its organisation number, an
 * e-invoice (Peppol BIS 3, made by Ordo's own Schematron-checked writer:
 * tests/fixtures/supplier-invoices/wholesaler-invoice.template.xml) is uploaded and opens matched to
 * the work order its order reference names; the technician responsible for that order's project
 * approves the content and finance the payment; the cost shows on the order (re-invoiced at the
 * tenant's markup) and on the project, and each person's badge falls.
 */
const SLOW = 60_000;
const ERIK = 'erik.tekniker@nordlarm.se';
let app: RunningApp;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  app = await startApp();
});
test.afterAll(async () => {
  await app?.stop();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * What the top bar's badge says waits for the signed-in person: the supplier-invoice link, alone in
 * the bar (a technician's only finance area) or in the finance menu (the office's).
 */
async function badge(page: Page): Promise<number> {
  await hydrated(page);
  const nav = page.getByRole('navigation', { name: 'Huvudmeny' });
  const alone = nav.getByRole('link', { name: /^Leverantörsfakturor/ });
  let text: string;
  if (await alone.count()) text = (await alone.textContent()) ?? '';
  else {
    await nav.getByRole('button', { name: /^Ekonomi/ }).click();
    const item = page.getByRole('menu', { name: /^Ekonomi/ }).getByRole('menuitem', { name: /^Leverantörsfakturor/ });
    await expect(item).toBeVisible();
    text = (await item.textContent()) ?? '';
    await page.keyboard.press('Escape');
  }
  const m = /att attestera: (\d+)/.exec(text);
  return m ? Number(m[1]) : 0;
}

test('[supplier invoices] an e-invoice matched to a work order, content approved by the responsible technician and payment by finance, reaches the order and the project; the badges fall', async ({
  page,
}) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, app, '/inventory/suppliers/new');
  await expect(page.getByRole('heading', { name: 'Ny leverantör' })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  // the wholesaler, with the organisation number its e-invoices carry and the account they are booked on
  await page.getByLabel('Leverantörsnummer').fill('7301');
  await page.getByRole('textbox', { name: 'Namn', exact: true }).fill('Elgrossisten E2E');
  await page.getByLabel('Företagsnamn').fill('Elgrossisten Norr AB');
  await page.getByLabel('Organisationsnummer').fill('556732-1707');
  await page.getByLabel('Standardkonto i ekonomisystemet').fill('4010');
  await page.getByRole('button', { name: 'Skapa leverantör' }).click();
  await expect(page.getByRole('heading', { name: /7301 · Elgrossisten E2E/ })).toBeVisible({ timeout: SLOW });

  // the order the technician bought for: in a project Erik is responsible for (set up over the API, as the session)
  const api = page.request;
  const users = (await (await api.get(`${app.url}/api/users?q=erik`)).json()) as Json;
  const erik = users.users.find((u: Json) => u.email === ERIK);
  const customers = (await (await api.get(`${app.url}/api/customers?limit=1`)).json()) as Json;
  const customerId = customers.customers[0].id as string;
  const project = (await (
    await api.post(`${app.url}/api/projects`, {
      data: { project: { title: 'Passage E2E-inköp', responsibleUserId: erik.id, customerIds: [customerId] } },
    })
  ).json()) as Json;
  const order = (await (
    await api.post(`${app.url}/api/wo`, {
      data: {
        workOrder: { title: 'Detektorer E2E-inköp', customerId, projectId: project.project.id, assignees: [erik.id] },
      },
    })
  ).json()) as Json;
  const woNumber = order.workOrder.number as string;
  const articles = (await (await api.get(`${app.url}/api/articles?sort=articleId&limit=1`)).json()) as Json;
  const articleNumber = articles.articles[0].articleId as string;
  // the tenant's rule: material bought for an order is billed on it at 20 % markup
  expect((await api.put(`${app.url}/api/supplierinvoices/settings`, { data: { rebill: true, rebillMarkup: '20' } })).ok()).toBe(
    true,
  );

  const xml = readFileSync(path.resolve('tests/fixtures/supplier-invoices/wholesaler-invoice.template.xml'), 'utf8')
    .replace('E2E-INVOICE-NUMBER', 'F-7301')
    .replace('E2E-ORDER-REFERENCE', woNumber)
    .replace('E2E-ARTICLE-NUMBER', articleNumber);

  // Erik's badge before
  await signIn(page, app, '/supplierinvoices', ERIK);
  await expect(page.getByRole('heading', { name: 'Leverantörsfakturor', level: 1 })).toBeVisible({ timeout: SLOW });
  const erikBefore = await badge(page);

  // finance uploads the e-invoice: it opens matched to the order and its project
  await signIn(page, app, '/supplierinvoices');
  await expect(page.getByRole('heading', { name: 'Leverantörsfakturor', level: 1 })).toBeVisible({ timeout: SLOW });
  const financeBefore = await badge(page);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel('E-faktura (Peppol BIS 3, XML)').setInputFiles({
    name: 'F-7301.xml',
    mimeType: 'application/xml',
    buffer: Buffer.from(xml),
  });
  await page.getByRole('button', { name: 'Läs in' }).click();
  await expect(page.getByRole('heading', { name: 'Faktura F-7301 från Elgrossisten E2E' })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  const invoiceUrl = page.url();
  await expect(page.getByRole('link', { name: woNumber, exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: /Passage E2E-inköp/ })).toBeVisible();
  await expect(page.getByText('Erik Johansson')).toBeVisible();
  await expect(page.getByTestId('supplier-invoice-erp')).toContainText('tar inte emot leverantörsfakturor');
  // the content is Erik's to approve, not finance's
  await expect(page.getByRole('button', { name: 'Attestera innehållet' })).toHaveCount(0);
  // the page itself (React Aria's live announcer keeps references to the upload form it left behind)
  expect(await seriousViolations(page, '#main')).toEqual([]);

  // Erik approves the content; his badge falls
  await signIn(page, app, new URL(invoiceUrl).pathname, ERIK);
  await expect(page.getByRole('heading', { name: 'Faktura F-7301 från Elgrossisten E2E' })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  expect(await badge(page)).toBe(erikBefore + 1);
  await page.getByRole('button', { name: 'Attestera innehållet' }).click();
  await expect(page.getByText('Innehållet är attesterat.')).toBeVisible({ timeout: SLOW });
  await expect(page.getByRole('button', { name: 'Attestera betalningen' })).toHaveCount(0);
  await page.reload();
  expect(await badge(page)).toBe(erikBefore);

  // finance approves the payment; the invoice is approved and finance's badge falls back
  await signIn(page, app, new URL(invoiceUrl).pathname);
  await expect(page.getByRole('heading', { name: 'Faktura F-7301 från Elgrossisten E2E' })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  expect(await badge(page)).toBe(financeBefore + 1);
  await page.getByRole('button', { name: 'Attestera betalningen' }).click();
  await expect(page.getByText('Betalningen är attesterad.')).toBeVisible({ timeout: SLOW });
  await expect(page.getByText('Vidarefakturerad på ordern')).toBeVisible();
  await page.reload();
  expect(await badge(page)).toBe(financeBefore);

  // the cost on the order: the detectors as a billable row
  await page.getByRole('link', { name: woNumber, exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Detektorer E2E-inköp', level: 2 })).toBeVisible({ timeout: SLOW });
  await expect(page.getByRole('region', { name: 'Artiklar' }).getByText('Rörelsedetektor').first()).toBeVisible({
    timeout: SLOW,
  });

  // on the project: its supplier-invoice tab lists it, its costs count it
  await page.goto(`${app.url}/projects/${project.project.id}?tab=supplierinvoices`);
  await hydrated(page);
  const tab = page.getByTestId('project-supplier-invoices');
  await expect(tab.getByRole('link', { name: 'F-7301', exact: true })).toBeVisible({ timeout: SLOW });
  expect(await seriousViolations(page, '#main')).toEqual([]);
  await page.getByRole('tab', { name: 'Kostnader' }).click();
  const costs = page.getByTestId('project-costs');
  await expect(costs.getByText('Total kostnad').first()).toBeVisible({ timeout: SLOW });
  await expect(costs).toContainText(/899,00/);

  // the list at phone width
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(`${app.url}/supplierinvoices?status=approved`);
  await hydrated(page);
  await expect(page.getByRole('link', { name: /F-7301/ }).first()).toBeVisible({ timeout: SLOW });
  expect(await seriousViolations(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test('[supplier invoices] a PDF invoice typed beside its PDF, at phone width, opens with its totals and its PDF', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, app, '/supplierinvoices');
  await expect(page.getByRole('heading', { name: 'Leverantörsfakturor', level: 1 })).toBeVisible({ timeout: SLOW });
  const api = page.request;
  const made = await api.post(`${app.url}/api/suppliers`, {
    data: { supplier: { number: '7302', title: 'Dörrgrossen E2E', name: 'Dörrgrossen AB', erpAccount: '4010' } },
  });
  expect(made.status(), await made.text()).toBe(200);
  await page.getByRole('link', { name: 'Skriv av PDF-faktura' }).click();
  await expect(page.getByRole('heading', { name: 'Skriv av en PDF-faktura' })).toBeVisible({ timeout: SLOW });
  await hydrated(page);
  await page.getByLabel('Fakturans PDF').setInputFiles({
    name: 'D-5501.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  });
  await pick(page, page.getByRole('combobox', { name: 'Leverantör' }), '7302', /^7302/);
  await page.getByRole('textbox', { name: 'Fakturanummer' }).fill('D-5501');
  await fillDate(page, page.getByRole('group', { name: 'Fakturadatum' }), '2026-11-20');
  const first = page.getByRole('listitem', { name: 'Rad 1' });
  await first.getByRole('textbox', { name: 'Benämning' }).fill('Dörrstängare');
  await first.getByRole('textbox', { name: 'Antal' }).fill('2');
  await first.getByRole('textbox', { name: 'À-pris' }).fill('1 450,00');
  await page.getByRole('button', { name: 'Lägg till rad' }).click();
  const second = page.getByRole('listitem', { name: 'Rad 2' });
  await second.getByRole('textbox', { name: 'Benämning' }).fill('Skruv');
  await second.getByRole('textbox', { name: 'Antal' }).fill('1');
  await second.getByRole('textbox', { name: 'À-pris' }).fill('60');
  await second.getByLabel('Moms %').selectOption('12');
  // 2 × 1,450 + 60 = 2,960 net; VAT 2,900 × 25 % + 60 × 12 % = 725 + 7.20 = 732.20; 3,692.20 to pay
  await expect(page.getByText('Summa exkl. moms 2960.00, moms 732.20, att betala 3692.20')).toBeVisible();
  await expect(page.getByTitle('Förhandsvisning av PDF')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Spara fakturan' }).click();
  await expect(page.getByRole('heading', { name: /Faktura D-5501 från Dörrgrossen E2E/ })).toBeVisible({ timeout: SLOW });
  await expect(page.getByText(/3[\s\u00a0]?692,20/).first()).toBeVisible();
  await expect(page.getByTitle('Fakturans PDF')).toBeVisible();
  const pdf = await api.get(`${app.url}${await page.getByTitle('Fakturans PDF').getAttribute('src')}`);
  expect(pdf.headers()['content-type']).toMatch(/^application\/pdf/);
});
