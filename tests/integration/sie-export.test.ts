import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sieRoute from '~/app/routes/invoices.sie';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { getBinary } from '~/tests/helpers/binary';
import { runLoaderAs } from '~/tests/helpers/route-loader';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { formatOre, readSie } from '~/tests/helpers/sie-reader';

/*
 * The SIE 4I export (issue 15 item 3) end to end on PostgreSQL: invoices made the way the product
 * makes them (orders closed, drafts edited and finalized through the API) — four VAT rates and a
 * fee on one invoice, reverse VAT, ROT, a credit with negative rows — plus a void invoice, a draft
 * and an invoice outside the period, which the file must leave out. The downloaded bytes are read
 * back with the independent reader: every verification balances to the öre and each account's
 * total is what the invoices, as the API shows them, add up to.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ref = {} as Record<'eken' | 'anna' | 'bygg' | 'detector', string>;
/** The final invoices of November, in the order they were finalized (their numbers ascend). */
const november: Json[] = [];
const left = {} as Record<'void' | 'draft' | 'december', Json>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const getBytes = (path: string, token: string) => getBinary(srv.url, path, a.host, token);

interface RowInput {
  kind?: string;
  articleTitle: string;
  amount: string;
  price: string;
  vatPercent: string;
  work?: 'labour' | 'material';
}

/**
 * An invoice as the product makes one: an order closed on `invoiceDate` leaves a draft (the
 * tenant reviews invoices), the draft gets its rows and tax settings, then its number.
 */
async function invoice(
  customerId: string,
  invoiceDate: string,
  rows: RowInput[],
  extra: Json = {},
  finalize = true,
): Promise<Json> {
  const created = await call('POST', '/api/wo', tok.admin, { workOrder: { title: 'Service', customerId } });
  expect(created.status, created.text).toBe(200);
  const wo = created.json().workOrder as Json;
  await withTenant(tenantA, (trx) =>
    trx('work_order_articles').insert({
      work_order_id: wo.id,
      article_id: ref.detector,
      title: 'Rörelsedetektor',
      amount: '1',
      price: '199.90',
      total: 0,
      sort_order: 1,
    }),
  );
  const closed = await call('POST', '/api/wo/close', tok.admin, { workOrderId: wo.id, invoiceDate });
  expect(closed.status, closed.text).toBe(200);
  const draft = closed.json().invoice as Json;
  const current = (await call('GET', `/api/invoice/${draft.id}`, tok.admin)).json() as Json;
  const put = await call('PUT', '/api/invoice', tok.admin, { id: draft.id, version: current.version, rows, ...extra });
  expect(put.status, put.text).toBe(200);
  if (!finalize) return { ...put.json(), workOrderId: wo.id };
  const fin = await call('POST', `/api/invoice/${draft.id}/finalize`, tok.admin);
  expect(fin.status, fin.text).toBe(200);
  return { ...fin.json(), workOrderId: wo.id };
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('sie-a');
  b = await createTestTenant('sie-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    const [eken, anna, bygg] = await trx('customers')
      .insert([
        { customer_id: '40001', name: 'Brf Eken' },
        { customer_id: '40002', name: 'Åsa "Anna" Öberg', type: 'private', person_id: '19121212-1212' },
        { customer_id: '40003', name: 'Bygg & Montage AB' },
      ])
      .returning('id');
    [ref.eken, ref.anna, ref.bygg] = [eken.id, anna.id, bygg.id];
    ref.detector = (
      await trx('articles')
        .insert({ article_id: 'DET-1', title: 'Rörelsedetektor', price: '199.90', unit: 'st' })
        .returning('id')
    )[0].id;
    await trx('invoice_settings').update({ review_before_sending: true, bill_time: false });
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);

  // four VAT rates, a text row and the fee: 2678.06 → 2678.00
  november.push(
    await invoice(ref.eken, '2026-11-10', [
      { kind: 'labour', articleTitle: 'Arbete', amount: '1.75', price: '650', vatPercent: '25', work: 'labour' },
      { articleTitle: 'Rörelsedetektor', amount: '3', price: '199.90', vatPercent: '25' },
      { kind: 'text', articleTitle: 'Service enligt avtal', amount: '0', price: '0', vatPercent: '25' },
      { articleTitle: 'Kaffe', amount: '2', price: '45.50', vatPercent: '12' },
      { articleTitle: 'Manual', amount: '1', price: '99.90', vatPercent: '6' },
      { articleTitle: 'Utbildning', amount: '1', price: '250', vatPercent: '0' },
      { kind: 'fee', articleTitle: 'Fakturaavgift', amount: '1', price: '39', vatPercent: '25' },
    ]),
  );
  // a void invoice: final, then its order reopened before it left
  left.void = await invoice(ref.eken, '2026-11-11', [
    { articleTitle: 'Rörelsedetektor', amount: '10', price: '199.90', vatPercent: '25' },
  ]);
  const reopened = await call('POST', '/api/wo/reopen', tok.admin, { workOrderId: left.void.workOrderId });
  expect(reopened.status, reopened.text).toBe(200);
  // reverse VAT (construction): 6234.56 → 6235.00
  november.push(
    await invoice(
      ref.bygg,
      '2026-11-12',
      [
        { kind: 'labour', articleTitle: 'Montage', amount: '10', price: '500', vatPercent: '25', work: 'labour' },
        { articleTitle: 'Material', amount: '1', price: '1234.56', vatPercent: '12' },
      ],
      { reverseVat: true },
    ),
  );
  // ROT: the customer pays 7250 − 1800, Skatteverket the 1800
  november.push(
    await invoice(
      ref.anna,
      '2026-11-20',
      [
        { kind: 'labour', articleTitle: 'Arbete', amount: '8', price: '600', vatPercent: '25', work: 'labour' },
        { articleTitle: 'Material', amount: '1', price: '1000', vatPercent: '25' },
      ],
      { taxReduction: 'ROT', propertyDesignation: 'Stockholm Eken 1:2' },
    ),
  );
  // a credit: negative rows, −749.63 → −750.00
  november.push(
    await invoice(ref.eken, '2026-11-30', [
      { articleTitle: 'Rörelsedetektor, retur', amount: '-3', price: '199.90', vatPercent: '25' },
    ]),
  );
  left.draft = await invoice(
    ref.eken,
    '2026-11-15',
    [{ articleTitle: 'Rörelsedetektor', amount: '1', price: '199.90', vatPercent: '25' }],
    {},
    false,
  );
  left.december = await invoice(ref.eken, '2026-12-01', [
    { articleTitle: 'Rörelsedetektor', amount: '1', price: '199.90', vatPercent: '25' },
  ]);
}, 120_000);
afterAll(async () => {
  await srv?.close();
});

const ore = (money: string) => BigInt(money.replace('.', ''));

/** Each account's total as the invoices (as the API shows them) add up: the books worked out apart. */
function expectedTotals(invoices: Json[]): Map<string, string> {
  const totals = new Map<string, bigint>();
  const book = (account: string, amount: bigint) => totals.set(account, (totals.get(account) ?? 0n) + amount);
  const sales: Record<string, string> = { '25': '3001', '12': '3002', '6': '3003', '0': '3004' };
  const vat: Record<string, string> = { '25': '2611', '12': '2621', '6': '2631' };
  for (const inv of invoices) {
    book('1510', ore(inv.figures.toPay));
    if (inv.figures.taxReduction) book('1513', ore(inv.figures.taxReduction.amount));
    for (const r of inv.articles as Json[]) {
      if (r.isText) continue;
      const account = r.kind === 'fee' ? '3540' : inv.reverseVat ? '3231' : sales[r.vatPercent]!;
      book(account, -ore(r.totalPrice));
    }
    for (const v of inv.figures.vat as Json[]) if (vat[v.percent]) book(vat[v.percent]!, -ore(v.vat));
    book('3740', -ore(inv.figures.rounding));
  }
  return new Map([...totals].filter(([, o]) => o !== 0n).map(([k, o]) => [k, formatOre(o)]));
}

describe('[invoicing] SIE 4I export of a period', () => {
  it('downloads the final invoices of the period as balanced verifications in PC8', async () => {
    const res = await getBytes('/api/invoices/sie?from=2026-11-01&to=2026-11-30', tok.admin);
    expect(res.status, res.body.toString('latin1')).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=IBM437');
    expect(res.headers['content-disposition']).toContain('filename="FAKT_20261101_20261130.SI"');
    // PC8, not UTF-8: "Ö" is the single byte 0x99
    expect(res.body.includes(Buffer.from([0x99]))).toBe(true);
    expect(res.body.includes(Buffer.from('Ö', 'utf8'))).toBe(false);

    const file = readSie(res.body);
    expect(file.header['#FLAGGA']).toEqual(['0']);
    expect(file.header['#FORMAT']).toEqual(['PC8']);
    expect(file.header['#SIETYP']).toEqual(['4']);
    expect(file.header['#PROGRAM']?.[0]).toBe('Ordo');
    expect(file.header['#GEN']?.[0]).toMatch(/^\d{8}$/);
    expect(file.header['#FNAMN']).toEqual(['sie-a AB']);
    expect(file.header['#KPTYP']).toEqual(['EUBAS97']);

    // the four final invoices of November, in invoice-number order; not the void, the draft or December's
    expect((await call('GET', `/api/invoice/${left.void.id}`, tok.admin)).json().status).toBe('void');
    expect((await call('GET', `/api/invoice/${left.draft.id}`, tok.admin)).json().status).toBe('draft');
    const numbers = november.map((i) => String(i.invoiceNr));
    expect(numbers.map(Number)).toEqual([...numbers.map(Number)].sort((x, y) => x - y));
    expect(file.verifications.map((v) => [v.series, v.number])).toEqual(numbers.map((n) => ['A', n]));
    expect(file.verifications.map((v) => v.number)).not.toContain(String(left.void.invoiceNr));
    expect(file.verifications.map((v) => v.number)).not.toContain(String(left.december.invoiceNr));
    expect(file.verifications.map((v) => v.date)).toEqual(['2026-11-10', '2026-11-12', '2026-11-20', '2026-11-30']);
    expect(file.verifications.map((v) => v.text)).toEqual([
      `Faktura ${numbers[0]} Brf Eken`,
      `Faktura ${numbers[1]} Bygg & Montage AB`,
      `Faktura ${numbers[2]} Åsa "Anna" Öberg`,
      `Kreditfaktura ${numbers[3]} Brf Eken`,
    ]);

    for (const v of file.verifications)
      expect(formatOre(v.transactions.reduce((s, t) => s + t.ore, 0n)), `#VER ${v.number}`).toBe('0.00');

    const totals = new Map<string, bigint>();
    for (const v of file.verifications)
      for (const t of v.transactions) totals.set(t.account, (totals.get(t.account) ?? 0n) + t.ore);
    const got = new Map([...totals].map(([k, o]) => [k, formatOre(o)]));
    expect(got).toEqual(expectedTotals(november));
    // and by hand: 2678 + 6235 + 5450 − 750 from the customers, 1800 from Skatteverket
    expect(got.get('1510')).toBe('13613.00');
    expect(got.get('1513')).toBe('1800.00');
    expect(got.get('3231')).toBe('-6234.56');
    expect(got.get('3540')).toBe('-39.00');
    // −0.06 on the first, +0.44 on the reverse VAT one, −0.37 on the credit → 3740 totals −0.01
    expect(got.get('3740')).toBe('-0.01');
    // every account used is declared with its BAS name
    expect([...file.accounts.keys()].sort()).toEqual([...totals.keys()].sort());
    expect(file.accounts.get('1510')).toBe('Kundfordringar');
  });

  it('books on the accounts the tenant chose in Settings → ERP', async () => {
    await withTenant(tenantA, (trx) =>
      trx('erp_connection').update({
        accounts: JSON.stringify({ sales: { '25': '3010', reverse: '3232' }, fee: '3590' }),
      }),
    );
    try {
      const res = await getBytes('/api/invoices/sie?from=2026-11-01&to=2026-11-30&series=F', tok.admin);
      expect(res.status).toBe(200);
      const file = readSie(res.body);
      expect(new Set(file.verifications.map((v) => v.series))).toEqual(new Set(['F']));
      const accounts = new Set(file.verifications.flatMap((v) => v.transactions.map((t) => t.account)));
      expect(accounts).toEqual(
        new Set(['1510', '1513', '3010', '3002', '3003', '3004', '3232', '3590', '2611', '2621', '2631', '3740']),
      );
      // the tenant's own accounts are in its chart under its names: not declared
      expect(file.accounts.has('3010')).toBe(false);
      expect(file.accounts.get('3002')).toBe('Försäljning inom Sverige, 12 % moms');
      for (const v of file.verifications) expect(v.transactions.reduce((s, t) => s + t.ore, 0n)).toBe(0n);
    } finally {
      await withTenant(tenantA, (trx) => trx('erp_connection').update({ accounts: JSON.stringify({ sales: {} }) }));
    }
  });

  it('gives another tenant its own invoices only: none here', async () => {
    const res = await getBytes('/api/invoices/sie?from=2026-11-01&to=2026-11-30', tok.adminB);
    // the token is tenant B's on tenant A's host: not a session here
    expect(res.status).toBe(401);
    const own = await new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const url = new URL('/api/invoices/sie?from=2026-11-01&to=2026-11-30', srv.url);
      http
        .get(
          {
            hostname: url.hostname,
            port: url.port,
            path: url.pathname + url.search,
            headers: { host: b.host, authorization: `Bearer ${tok.adminB}` },
          },
          (r) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => resolve({ status: r.statusCode ?? 0, body: Buffer.concat(chunks) }));
          },
        )
        .on('error', reject);
    });
    expect(own.status).toBe(200);
    expect(readSie(own.body).verifications).toEqual([]);
  });

  it('refuses a reversed or too long period, a date that does not exist, and a viewer without invoices:read', async () => {
    const reversed = await call('GET', '/api/invoices/sie?from=2026-11-30&to=2026-11-01', tok.admin);
    expect(reversed.status).toBe(400);
    expect(reversed.json()).toMatchObject({ code: 'SIE_PERIOD_REVERSED', fields: { to: ['SIE_PERIOD_REVERSED'] } });
    const long = await call('GET', '/api/invoices/sie?from=2026-01-01&to=2027-01-01', tok.admin);
    expect(long.status).toBe(400);
    expect(long.json().code).toBe('SIE_PERIOD_TOO_LONG');
    expect((await call('GET', '/api/invoices/sie?from=2026-01-01&to=2026-12-31', tok.admin)).status).toBe(200);
    const bad = await call('GET', '/api/invoices/sie?from=2026-02-30&to=2026-03-31', tok.admin);
    expect(bad.status).toBe(400);
    expect(bad.json().fields.from).toEqual(['ERROR_INVALID_DATE']);
    const series = await call('GET', '/api/invoices/sie?from=2026-11-01&to=2026-11-30&series=A%20B', tok.admin);
    expect(series.status).toBe(400);
    expect((await call('GET', '/api/invoices/sie?from=2026-11-01&to=2026-11-30', tok.tech)).status).toBe(403);
  });
});

const runSieRoute = (url: string) =>
  runLoaderAs(sieRoute.loader, { tenant: tenantA, host: a.host, token: tok.admin }, url);

describe('[invoicing] SIE export from the invoice list', () => {
  it('downloads the same file as the API', async () => {
    const res = await runSieRoute('/invoices/sie?from=2026-11-01&to=2026-11-30');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="FAKT_20261101_20261130.SI"');
    const web = Buffer.from(await res.arrayBuffer());
    const api = await getBytes('/api/invoices/sie?from=2026-11-01&to=2026-11-30', tok.admin);
    expect(web.equals(api.body)).toBe(true);
  });

  it('goes back to the list with the reason and the chosen period when the period is refused', async () => {
    const res = await runSieRoute('/invoices/sie?from=2026-01-01&to=2027-06-30&series=B');
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('Location')!, 'http://x');
    expect(back.pathname).toBe('/invoices');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      sieError: 'SIE_PERIOD_TOO_LONG',
      sieFrom: '2026-01-01',
      sieTo: '2027-06-30',
      sieSeries: 'B',
    });
  });
});
