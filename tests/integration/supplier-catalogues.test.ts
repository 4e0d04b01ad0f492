import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { multipart, request } from '~/tests/helpers/http';
import { articleFromCatalogue } from '~/core/supplier-catalogues/article-from-catalogue';
import type { CatalogueArticle } from '~/core/supplier-catalogues/catalogue.service';

/*
 * Supplier catalogues (issue 33 item 6; decision 056) over HTTP: a wholesaler's CSV (Windows-1252,
 * semicolons, headings) uploaded, its first rows shown with a guessed mapping, confirmed and loaded
 * by the job, searched with totalCount and pages; a discount file applied to the purchase prices
 * (hand-computed); an XLSX that replaces the catalogue with the kept mapping; a bad file refused;
 * another tenant's supplier 404; a picked catalogue article onto a work order's rows with its
 * purchase price, recommended price and ref, and onto a proposal's rows, kept through its saves,
 * its copy and its sales order and work order; an article made from a product of the price list.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ids: Record<string, string> = {};

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const insert = async (trx: Trx, table: string, row: Record<string, unknown>) =>
  ((await trx(table).insert(row).returning('id')) as { id: string }[])[0]!.id;

function upload(path: string, file: { name: string; body: Buffer; type?: string }, token = tok.admin, host = a.host) {
  const m = multipart([{ name: 'file', filename: file.name, body: file.body, type: file.type }]);
  return request(srv.url, {
    method: 'POST',
    path,
    host,
    body: m.body,
    headers: { 'content-type': m.type, authorization: `Bearer ${token}` },
  });
}

/** The test supplier's catalogue searched for `q` (anywhere in number or name). */
const search = (q: string) =>
  call('GET', `/api/supplierinventory/query/articles?supplierId=${ids.supplier}&q=${encodeURIComponent(q)}`, tok.admin);

async function waitForImport(supplierId: string, kind: 'prices' | 'discounts', importId: string): Promise<Json> {
  const until = Date.now() + 60_000;
  for (;;) {
    const res = await call('GET', `/api/supplierinventory/${supplierId}`, tok.admin);
    expect(res.status, res.text).toBe(200);
    const latest = res.json().latest[kind] as Json | null;
    if (latest?.id === importId && ['done', 'failed', 'replaced'].includes(latest.status)) return res.json();
    if (Date.now() > until) throw new Error(`the import did not finish: ${res.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** 24 good rows (articles E1000…E1023) and one with a price that is not a number, after headings. */
function priceCsv(): Buffer {
  const lines = ['Artikelnr;Benämning;Enhet;Nettopris;Rek. pris;Rabattgrupp'];
  for (let i = 0; i < 24; i++)
    lines.push(
      `E${1000 + i};${i === 3 ? 'Rörelsedetektor "Öga" 12 m' : `Kabel ${i} m`};st;${i === 3 ? '199,90' : `${10 + i},50`};${i === 3 ? '349' : ''};${i % 2 ? 'B' : 'A'}`,
    );
  lines.splice(6, 0, 'E9999;Trasig rad;st;abc;;A');
  return iconv.encode(lines.join('\r\n') + '\r\n', 'windows-1252');
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('cat-a');
  b = await createTestTenant('cat-b');
  const tenantA = (await getTenantBySlug(a.slug))!;
  const tenantB = (await getTenantBySlug(b.slug))!;
  await withTenant(tenantA, async (trx) => {
    ids.supplier = await insert(trx, 'suppliers', { number: '2001', title: 'Elgross AB' });
    ids.other = await insert(trx, 'suppliers', { number: '2002', title: 'Larmdepån' });
    ids.freetext = await insert(trx, 'articles', {
      article_id: '9000',
      title: 'Fritext',
      price: '0',
      line_type: 'freetext',
    });
    ids.customer = await insert(trx, 'customers', { name: 'Brf Lönnen', customer_id: 'K9' });
    ids.object = await insert(trx, 'business_objects', { serial_code: 'DS-1', customer_id: ids.customer });
  });
  await withTenant(tenantB, async (trx) => {
    ids.supplierB = await insert(trx, 'suppliers', { number: '2001', title: 'B:s grossist' });
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv?.close());

describe('[supplier catalogues] price files', () => {
  it('shows the first rows of an uploaded CSV with a mapping guessed from its headings', async () => {
    const res = await upload(`/api/supplierinventory/upload/${ids.supplier}`, {
      name: 'elgross.csv',
      body: priceCsv(),
    });
    expect(res.status, res.text).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      kind: 'prices',
      fileName: 'elgross.csv',
      format: 'csv',
      columnCount: 6,
      mappingKept: false,
    });
    // the headings and the first 10 rows; Windows-1252 decoded
    expect(body.rows).toHaveLength(11);
    expect(body.rows[0]).toEqual(['Artikelnr', 'Benämning', 'Enhet', 'Nettopris', 'Rek. pris', 'Rabattgrupp']);
    expect(body.rows[4][1]).toBe('Rörelsedetektor "Öga" 12 m');
    expect(body.mapping).toEqual({
      header: true,
      columns: { articleNumber: 0, title: 1, unit: 2, purchasePrice: 3, recommendedPrice: 4, discountGroup: 5 },
    });
    ids.upload = body.uploadId;
  });

  it('refuses a mapping without the article number, then loads the file in the background', async () => {
    const missing = await call('POST', `/api/supplierinventory/upload/${ids.supplier}/confirm`, tok.admin, {
      uploadId: ids.upload,
      header: true,
      columns: { title: 1, purchasePrice: 9 },
    });
    expect(missing.status, missing.text).toBe(400);
    expect(missing.json().fields).toMatchObject({
      'columns.articleNumber': ['ERROR_REQUIRED_FIELD'],
      'columns.purchasePrice': ['ERROR_INVALID_VALUE'],
    });

    const res = await call('POST', `/api/supplierinventory/upload/${ids.supplier}/confirm`, tok.admin, {
      uploadId: ids.upload,
      header: true,
      columns: { articleNumber: 0, title: 1, unit: 2, purchasePrice: 3, recommendedPrice: 4, discountGroup: 5 },
    });
    expect(res.status, res.text).toBe(200);
    expect(['queued', 'running', 'done']).toContain(res.json().import.status);
    const state = await waitForImport(ids.supplier, 'prices', res.json().import.id);
    expect(state).toMatchObject({ articleCount: 24, discountCount: 0 });
    expect(state.importedAt).toBeTruthy();
    expect(state.latest.prices).toMatchObject({
      status: 'done',
      rowsDone: 24,
      rowsFailed: 1,
      // the bad row is the file's 7th (headings are the 1st)
      errors: [{ row: 7, reason: 'PURCHASE_PRICE_INVALID', value: 'abc' }],
    });
    expect(state.latest.prices.bytesDone).toBe(state.latest.prices.fileSize);

    // a second confirm starts nothing
    const again = await call('POST', `/api/supplierinventory/upload/${ids.supplier}/confirm`, tok.admin, {
      uploadId: ids.upload,
      columns: { articleNumber: 0, title: 1 },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.json().import.status).toBe('done');
  });

  it('searches the catalogue: anywhere in number or title, totalCount, pages by article number', async () => {
    const all = await call(
      'GET',
      `/api/supplierinventory/query/articles?supplierId=${ids.supplier}&pageSize=5&page=2`,
      tok.admin,
    );
    expect(all.status, all.text).toBe(200);
    expect(all.json().totalCount).toBe(24);
    expect(all.json().articles.map((x: Json) => x.articleNumber)).toEqual([
      'E1005',
      'E1006',
      'E1007',
      'E1008',
      'E1009',
    ]);

    const found = await search('öga');
    expect(found.json()).toMatchObject({ totalCount: 1 });
    expect(found.json().articles[0]).toEqual({
      id: expect.any(String),
      supplierId: ids.supplier,
      supplierTitle: 'Elgross AB',
      articleNumber: 'E1003',
      articleTitle: 'Rörelsedetektor "Öga" 12 m',
      articleDescription: null,
      unit: 'st',
      purchasePrice: '199.90',
      listPurchasePrice: '199.90',
      discountGroup: 'B',
      discountPercent: null,
      recommendedSalesPrice: '349.00',
      ref: {
        type: 'supplier-inventory',
        supplierId: ids.supplier,
        articleNumber: 'E1003',
        id: found.json().articles[0].id,
      },
    });

    const byNumber = await search('e101');
    expect(byNumber.json().totalCount).toBe(10);
    const none = await call('GET', `/api/supplierinventory/query/articles?supplierId=${ids.other}&q=kabel`, tok.admin);
    expect(none.json()).toEqual({ articles: [], totalCount: 0, totalCountCapped: false });
    const bad = await call(
      'GET',
      `/api/supplierinventory/query/articles?supplierId=${ids.supplier}&pageSize=500`,
      tok.admin,
    );
    expect(bad.status).toBe(400);
  });

  it('applies a discount file to the purchase prices: list × (1 − percent / 100), rounded to öre', async () => {
    const csv = Buffer.from('Rabattgrupp;Rabatt %\nA;10\nB;35\n', 'utf8');
    const res = await upload(`/api/supplierinventory/upload/${ids.supplier}/discount`, {
      name: 'rabatter.csv',
      body: csv,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({
      kind: 'discounts',
      mapping: { header: true, columns: { discountGroup: 0, percent: 1 } },
    });
    const ok = await call('POST', `/api/supplierinventory/upload/${ids.supplier}/discount/confirm`, tok.admin, {
      uploadId: res.json().uploadId,
      header: true,
      columns: { discountGroup: 0, percent: 1 },
    });
    expect(ok.status, ok.text).toBe(200);
    const state = await waitForImport(ids.supplier, 'discounts', ok.json().import.id);
    expect(state).toMatchObject({ discountCount: 2, articleCount: 24 });

    const found = await search('E1003');
    // group B, 35 %: 199.90 × 0.65 = 129.935 → 129.94
    expect(found.json().articles[0]).toMatchObject({
      purchasePrice: '129.94',
      listPurchasePrice: '199.90',
      discountPercent: '35.000',
    });
    const a0 = await search('E1000');
    // group A, 10 %: 10.50 × 0.9 = 9.45
    expect(a0.json().articles[0]).toMatchObject({ purchasePrice: '9.45', listPurchasePrice: '10.50' });
  });

  it('searches every catalogue for the article pickers (/sbsc/products), at most 10 and an exact number first', async () => {
    const res = await call('GET', '/api/sbsc/products?q=kabel', tok.tech);
    expect(res.status, res.text).toBe(200);
    expect(res.json().products).toHaveLength(10);
    const exact = await call('GET', '/api/sbsc/products?q=e1003', tok.tech);
    expect(exact.json().products[0]).toMatchObject({ articleNumber: 'E1003', supplierTitle: 'Elgross AB' });
    expect((await call('GET', '/api/sbsc/products?q=e', tok.tech)).json().products).toEqual([]);
  });

  it('refuses a file that is neither CSV nor XLSX, and a CSV it cannot read, with a translated error', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    const res = await upload(`/api/supplierinventory/upload/${ids.supplier}`, { name: 'prices.csv', body: png });
    expect(res.status, res.text).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'SUPPLIER_CATALOGUE_FILE_UNREADABLE',
      fields: { file: ['SUPPLIER_CATALOGUE_FILE_UNREADABLE'] },
    });
    const broken = await upload(`/api/supplierinventory/upload/${ids.supplier}`, {
      name: 'broken.csv',
      body: Buffer.from('Artikelnr;Benämning\n"E1;oavslutat citat\n'),
    });
    expect(broken.status, broken.text).toBe(400);
    expect(broken.json().code).toBe('SUPPLIER_CATALOGUE_FILE_UNREADABLE');
    // nothing recorded for either
    const state = await call('GET', `/api/supplierinventory/${ids.supplier}`, tok.admin);
    expect(state.json().articleCount).toBe(24);
  });

  it("answers 404 for another tenant's supplier, and 403 to who may not upload", async () => {
    const search = await call(
      'GET',
      `/api/supplierinventory/query/articles?supplierId=${ids.supplier}`,
      tok.adminB,
      undefined,
      b.host,
    );
    expect(search.status).toBe(404);
    const state = await call('GET', `/api/supplierinventory/${ids.supplier}`, tok.adminB, undefined, b.host);
    expect(state.status).toBe(404);
    const up = await upload(
      `/api/supplierinventory/upload/${ids.supplier}`,
      { name: 'x.csv', body: priceCsv() },
      tok.adminB,
      b.host,
    );
    expect(up.status).toBe(404);
    const confirm = await call(
      'POST',
      `/api/supplierinventory/upload/${ids.supplier}/confirm`,
      tok.adminB,
      { uploadId: ids.upload },
      b.host,
    );
    expect(confirm.status).toBe(404);
    const tech = await upload(
      `/api/supplierinventory/upload/${ids.supplier}`,
      { name: 'x.csv', body: priceCsv() },
      tok.tech,
    );
    expect(tech.status).toBe(403);
  });

  it('replaces the catalogue with an XLSX file, offered the mapping kept from the last file', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Prislista');
    sheet.addRow(['Artikelnr', 'Benämning', 'Enhet', 'Nettopris', 'Rek. pris', 'Rabattgrupp']);
    for (let i = 0; i < 30; i++) sheet.addRow([`X${2000 + i}`, `Dörrstängare ${i}`, 'st', 100 + i + 0.25, 250, 'A']);
    const body = Buffer.from(await book.xlsx.writeBuffer());
    const res = await upload(`/api/supplierinventory/upload/${ids.supplier}`, { name: 'ny.xlsx', body });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({ format: 'xlsx', columnCount: 6, mappingKept: true });
    expect(res.json().rows[1]).toEqual(['X2000', 'Dörrstängare 0', 'st', '100.25', '250', 'A']);
    const ok = await call('POST', `/api/supplierinventory/upload/${ids.supplier}/confirm`, tok.admin, {
      uploadId: res.json().uploadId,
      ...res.json().mapping,
    });
    expect(ok.status, ok.text).toBe(200);
    const state = await waitForImport(ids.supplier, 'prices', ok.json().import.id);
    expect(state).toMatchObject({
      articleCount: 30,
      latest: { prices: { status: 'done', rowsDone: 30, rowsFailed: 0 } },
    });
    const old = await search('kabel');
    expect(old.json().totalCount).toBe(0);
    const found = await search('x2005');
    // group A's 10 % still applies: 105.25 × 0.9 = 94.725 → 94.73
    expect(found.json().articles[0]).toMatchObject({
      articleTitle: 'Dörrstängare 5',
      listPurchasePrice: '105.25',
      purchasePrice: '94.73',
      recommendedSalesPrice: '250.00',
    });
    // the replaced catalogue's rows are gone from the table, not only hidden
    const tenantA = (await getTenantBySlug(a.slug))!;
    const left = await withTenant(tenantA, (trx) => trx('supplier_catalogue_articles').count({ n: '*' }).first());
    expect(Number(left!.n)).toBe(30);
  });

  it('leaves the catalogue as it was when a file breaks after its first rows, and says why', async () => {
    const lines = ['Artikelnr;Benämning;Nettopris'];
    for (let i = 0; i < 40; i++) lines.push(`Y${i};Halv fil ${i};1,00`);
    lines.push('Y99;"oavslutat citat;1,00', 'Y100;Sista;1,00');
    const res = await upload(`/api/supplierinventory/upload/${ids.supplier}`, {
      name: 'trasig.csv',
      body: Buffer.from(lines.join('\n') + '\n'),
    });
    expect(res.status, res.text).toBe(200);
    const ok = await call('POST', `/api/supplierinventory/upload/${ids.supplier}/confirm`, tok.admin, {
      uploadId: res.json().uploadId,
      header: true,
      columns: { articleNumber: 0, title: 1, purchasePrice: 2 },
    });
    expect(ok.status, ok.text).toBe(200);
    const state = await waitForImport(ids.supplier, 'prices', ok.json().import.id);
    expect(state.latest.prices).toMatchObject({ status: 'failed', error: 'SUPPLIER_CATALOGUE_FILE_UNREADABLE' });
    expect(state.articleCount).toBe(30);
    expect((await search('halv fil')).json().totalCount).toBe(0);
    expect((await search('x2005')).json().totalCount).toBe(1);
    const tenantA = (await getTenantBySlug(a.slug))!;
    const left = await withTenant(tenantA, (trx) => trx('supplier_catalogue_articles').count({ n: '*' }).first());
    expect(Number(left!.n)).toBe(30);
  });

  it('shows a load whose worker stopped (nothing written for 10 minutes) as failed, so a new file can come', async () => {
    const tenantA = (await getTenantBySlug(a.slug))!;
    const id = await withTenant(tenantA, (trx) =>
      insert(trx, 'supplier_catalogue_imports', {
        supplier_id: ids.other,
        kind: 'prices',
        status: 'running',
        storage_key: 'gone',
        file_name: 'halv.csv',
        file_size: 1000,
        file_format: 'csv',
        preview: JSON.stringify({ rows: [['A', 'B']] }),
        rows_done: 5000,
        started_at: new Date(Date.now() - 30 * 60_000),
        progressed_at: new Date(Date.now() - 11 * 60_000),
      }),
    );
    const state = await call('GET', `/api/supplierinventory/${ids.other}`, tok.admin);
    expect(state.json().latest.prices).toMatchObject({ id, status: 'failed', error: 'stalled', rowsDone: 5000 });
  });

  it('puts a picked catalogue article on a work order with purchase price, recommended price and ref', async () => {
    const wo = await call('POST', '/api/wo', tok.admin, {
      workOrder: { title: 'Byte dörrstängare', customerId: ids.customer },
    });
    expect(wo.status, wo.text).toBe(200);
    const woId = wo.json().workOrder.id as string;
    const pick = (await call('GET', '/api/sbsc/products?q=x2005', tok.admin)).json().products[0] as Json;
    const res = await call('PUT', `/api/wo/${woId}/articles`, tok.admin, {
      rows: [{ supplierArticleId: pick.id, amount: '2' }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json().rows).toEqual([
      expect.objectContaining({
        articleId: ids.freetext,
        title: 'Dörrstängare 5',
        amount: '2.000',
        price: '250.00',
        purchasePrice: '94.73',
        discount: '',
        total: '500.00',
        ref: { type: 'supplier-inventory', supplierId: ids.supplier, articleNumber: 'X2005', id: pick.id },
      }),
    ]);
    // kept as it is on the next save, and read back the same
    const saved = res.json().rows[0] as Json;
    const again = await call('PUT', `/api/wo/${woId}/articles`, tok.admin, { rows: [{ id: saved.id, amount: '3' }] });
    expect(again.json().rows[0]).toMatchObject({
      amount: '3.000',
      purchasePrice: '94.73',
      price: '250.00',
      ref: saved.ref,
    });

    const gone = await call('PUT', `/api/wo/${woId}/articles`, tok.admin, {
      rows: [{ id: saved.id }, { supplierArticleId: '999999999' }],
    });
    expect(gone.status, gone.text).toBe(400);
    expect(gone.json().fields).toEqual({ 'rows.1.supplierArticleId': ['SUPPLIER_CATALOGUE_ARTICLE_GONE'] });
  });

  it('puts a picked catalogue article on a proposal and keeps it through saves, the copy, the sales order and its work order', async () => {
    const pick = (await call('GET', '/api/sbsc/products?q=x2005', tok.admin)).json().products[0] as Json;
    const ref = { type: 'supplier-inventory', supplierId: ids.supplier, articleNumber: 'X2005', id: pick.id };
    const made = (await call('POST', '/api/proposals', tok.admin, { customerId: ids.customer })).json() as Json;
    const draft = (await call('GET', `/api/proposals/${made.id}`, tok.admin)).json() as Json;
    const res = await call('PUT', '/api/proposals', tok.admin, {
      proposal: {
        ...draft,
        title: 'Dörrstängare trapphus',
        businessObjectId: ids.object,
        rows: [{ supplierArticleId: pick.id, articleAmount: '2' }, { comment: 'Monteras vecka 12' }],
      },
    });
    expect(res.status, res.text).toBe(200);
    // the free-text article's row with the catalogue's name, its discounted purchase price and its
    // recommended price; no customer discount
    const row = {
      articleId: ids.freetext,
      articleTitle: 'Dörrstängare 5',
      articleAmount: '2',
      articlePrice: '250.00',
      articlePurchasePrice: '94.73',
      articleDiscountType: null,
      articleTotalPrice: '500.00',
      ref,
    };
    const saved = res.json() as Json;
    expect(saved.rows[0]).toMatchObject(row);
    expect(saved.rows[1]).toMatchObject({ comment: 'Monteras vecka 12', ref: null });
    expect(saved).toMatchObject({ totalPrice: '500.00', totalPurchasePrice: '189.46' });

    // the screen's next save sends the rows back as it got them (with a changed amount); the proposal
    // saves by deleting and inserting its rows, and the picked row keeps its name, prices and ref
    const again = await call('PUT', '/api/proposals', tok.admin, {
      proposal: { ...saved, rows: [{ ...saved.rows[0], articleAmount: '3' }, saved.rows[1]] },
    });
    expect(again.status, again.text).toBe(200);
    const three = { ...row, articleAmount: '3', articleTotalPrice: '750.00' };
    expect(again.json().rows[0]).toMatchObject(three);
    // a save without rows keeps them as they are
    const fields = await call('PUT', '/api/proposals', tok.admin, {
      proposal: { id: saved.id, version: again.json().version, title: 'Dörrstängare trapphus A' },
    });
    expect(fields.status, fields.text).toBe(200);
    expect(fields.json().rows[0]).toMatchObject(three);

    // a copy has the same row
    const copy = await call('POST', `/api/proposals/${saved.id}/copy`, tok.admin);
    expect(copy.status, copy.text).toBe(200);
    expect(copy.json().rows[0]).toMatchObject(three);
    expect(copy.json().rows[0].id).not.toBe(saved.rows[0].id);

    // accepted: the sales order's rows, and the work order made of the sales order
    const accepted = await call('POST', '/api/proposals/close', tok.admin, {
      proposalId: saved.id,
      status: 'accepted',
    });
    expect(accepted.status, accepted.text).toBe(200);
    const so = (await call('GET', `/api/salesorders/${accepted.json().salesOrderId}`, tok.admin)).json() as Json;
    expect(so.rows[0]).toMatchObject(three);
    // the sales order's rows are saved as the proposal's: the picked row stays as it is
    const soSaved = await call('PUT', '/api/salesorders', tok.admin, {
      salesOrder: { id: so.id, version: so.version, rows: so.rows },
    });
    expect(soSaved.status, soSaved.text).toBe(200);
    expect(soSaved.json().rows[0]).toMatchObject(three);
    const wo = await call('POST', `/api/salesorders/${so.id}/workorder`, tok.admin, {});
    expect(wo.status, wo.text).toBe(200);
    const woRows = (await call('GET', `/api/wo/${wo.json().workOrderId}/articles`, tok.admin)).json().rows as Json[];
    expect(woRows).toEqual([
      expect.objectContaining({
        articleId: ids.freetext,
        title: 'Dörrstängare 5',
        amount: '3.000',
        price: '250.00',
        purchasePrice: '94.73',
        total: '750.00',
        ref,
      }),
    ]);
  });

  it('refuses a proposal row whose catalogue article is gone, on that row', async () => {
    const made = (await call('POST', '/api/proposals', tok.admin, { customerId: ids.customer })).json() as Json;
    const draft = (await call('GET', `/api/proposals/${made.id}`, tok.admin)).json() as Json;
    const res = await call('PUT', '/api/proposals', tok.admin, {
      proposal: { ...draft, rows: [{ comment: 'x' }, { supplierArticleId: '999999999' }] },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json().fields).toEqual({ 'rows.1.supplierArticleId': ['SUPPLIER_CATALOGUE_ARTICLE_GONE'] });
  });

  it('makes an article of a price-list product (the article screen), which later picks of it then become', async () => {
    // the article screen searches every price list and fills its form in with the product
    const found = await call('GET', '/api/sbsc/products?q=dörrstängare%205', tok.admin);
    expect(found.status, found.text).toBe(200);
    const product = (found.json().products as CatalogueArticle[]).find((p) => p.articleNumber === 'X2005')!;
    expect(product).toMatchObject({
      supplierTitle: 'Elgross AB',
      purchasePrice: '94.73',
      recommendedSalesPrice: '250.00',
    });
    const form = {
      articleId: '',
      title: '',
      unit: null,
      description: null,
      price: '',
      purchasePrice: '',
      recommendedPrice: null,
    };
    const created = await call('POST', '/api/articles', tok.admin, { article: articleFromCatalogue(product, form) });
    expect(created.status, created.text).toBe(200);
    const id = ((created.json().article ?? created.json()) as Json).id as string;
    const article = (await call('GET', `/api/articles/details/${id}`, tok.admin)).json() as Json;
    expect(article.article ?? article).toMatchObject({
      articleId: 'X2005',
      title: 'Dörrstängare 5',
      price: '250.00',
      purchasePrice: '94.73',
      recommendedPrice: '250.00',
    });

    // a row picker's pick of the product is now a row of that article, not of the free-text one
    const wo = (
      await call('POST', '/api/wo', tok.admin, { workOrder: { title: 'Ny stängare', customerId: ids.customer } })
    ).json().workOrder.id as string;
    const rows = await call('PUT', `/api/wo/${wo}/articles`, tok.admin, { rows: [{ supplierArticleId: product.id }] });
    expect(rows.status, rows.text).toBe(200);
    expect(rows.json().rows[0]).toMatchObject({
      articleId: id,
      articleNumber: 'X2005',
      price: '250.00',
      ref: product.ref,
    });
  });
});
