import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as exportRoute from '~/app/routes/time.payroll.export';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import { PAYROLL_CSV_COLUMNS } from '~/core/time-reports/payroll/payroll-csv';
import { parseCsv } from '~/core/import-export/csv';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { runLoaderAs } from '~/tests/helpers/route-loader';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { readPaxml } from '~/tests/helpers/paxml-reader';

/*
 * The payroll export of a locked month (issue 17 part 5) over the API: two people's March —
 * their own work, absence (SEM, VAB), attendance (left out), work-order time (one order in the
 * recycle bin), the distance log and compensation — previewed, refused while the month is open,
 * then exported once it is locked. The PAXml file is read back with an independent parser and
 * validated against the committed PAXml 2.0 schema with libxml2 (xmllint-wasm); the CSV's columns
 * and rows are checked; another tenant's March never shows. Last, a hundred people's month
 * exports within the time budget.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let tenantB: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ids = {} as Record<'admin' | 'tech' | 'adminB' | 'order' | 'binned', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const MONTH = '2026-03';
const PREVIEW = `/api/timereports/payroll?month=${MONTH}`;
const exportPath = (format: string, month = MONTH) => `/api/timereports/payroll/export?month=${month}&format=${format}`;

const idOf = async (trx: Trx, table: string, where: Record<string, unknown>) =>
  ((await trx(table).where(where).first('id')) as { id: string }).id;
const tagIds = async (trx: Trx, table: string) =>
  Object.fromEntries(
    ((await trx(table).select('id', 'code')) as { id: string; code: string }[]).map((t) => [t.code, t.id]),
  );

async function newOrder(token: string, title: string): Promise<string> {
  const res = await call('POST', '/api/wo', token, { workOrder: { title } });
  expect(res.status, res.text).toBe(200);
  return res.json<{ workOrder: { id: string } }>().workOrder.id;
}

/** The office approves a person's month (its parent report), as the month view's button does. */
async function approve(token: string, userId: string, host?: string, month = MONTH) {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  const res = await call(
    'POST',
    '/api/timereports/parent',
    token,
    { userId, periodStart: `${month}-01`, periodEnd: end, status: 'approved' },
    host,
  );
  expect(res.status, res.text).toBe(200);
}

async function lock(tenant: Tenant, month: string, locked = true) {
  await withTenant(tenant, (trx) =>
    trx.raw(
      `insert into time_period_locks (month, locked) values (?, ?) on conflict (month) do update set locked = excluded.locked`,
      [`${month}-01`, locked],
    ),
  );
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('pay-a');
  b = await createTestTenant('pay-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tenantB = (await getTenantBySlug(b.slug))!;
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  ids.order = await newOrder(tok.admin, 'Service larm');
  ids.binned = await newOrder(tok.admin, 'Felregistrerad');

  await withTenant(tenantA, async (trx) => {
    ids.admin = await idOf(trx, 'users', { email: a.adminEmail });
    ids.tech = await idOf(trx, 'users', { email: a.technicianEmail });
    await trx('users').where({ id: ids.admin }).update({ name: 'Anna Admin' });
    // Tess has an employee number; Anna has none yet (the export is refused until she has one).
    await trx.raw(`update users set erp_employee_id = '1001' where id = ?`, [ids.tech]);
    const t = await tagIds(trx, 'time_report_tags');
    const c = await tagIds(trx, 'compensation_tags');
    const own = (user: string, tag: string, date: string, minutes: number, extra: Json = {}) => ({
      user_id: user,
      tag_id: t[tag],
      date,
      minutes,
      ...extra,
    });
    await trx('time_reports').insert([
      own(ids.tech, 'ARB', '2026-03-02', 510, { start_time: '07:00', end_time: '15:30' }),
      own(ids.tech, 'ARB', '2026-03-03', 480),
      own(ids.tech, 'SEM', '2026-03-04', 480),
      own(ids.tech, 'SEM', '2026-03-05', 480),
      own(ids.tech, 'VAB', '2026-03-06', 240),
      // attendance is presence, not paid time
      own(ids.tech, 'JOUR', '2026-03-06', 840),
      // outside the month
      own(ids.tech, 'ARB', '2026-02-27', 480),
      own(ids.tech, 'ARB', '2026-04-01', 480),
      own(ids.admin, 'ARB', '2026-03-10', 300),
    ]);
    await trx('work_order_time').insert([
      {
        work_order_id: ids.order,
        user_id: ids.tech,
        date: '2026-03-02',
        work_minutes: 90,
        travel_minutes: 30,
        distance_km: 25,
      },
      // a day on orders only: all of it is worked time
      { work_order_id: ids.order, user_id: ids.tech, date: '2026-03-09', work_minutes: 120, travel_minutes: 30 },
      // the order is in the recycle bin: not paid
      { work_order_id: ids.binned, user_id: ids.tech, date: '2026-03-02', work_minutes: 600, travel_minutes: 60 },
    ]);
    await trx('work_orders').where({ id: ids.binned }).update({ deleted_at: new Date() });
    await trx('distance_reports').insert([
      { user_id: ids.admin, date: '2026-03-10', distance_km: '42.4', tag_id: c['821'], comment: 'Lund & åter' },
      // untagged: the first distance code (821)
      { user_id: ids.admin, date: '2026-03-11', distance_km: '10.0' },
    ]);
    await trx('compensation_reports').insert([
      // two days of allowance at the tag's price
      { user_id: ids.tech, tag_id: c['811'], date: '2026-03-12', quantity: '2', amount: '0' },
      {
        user_id: ids.tech,
        tag_id: c['892'],
        date: '2026-03-12',
        quantity: '1',
        amount: '149.90',
        comment: 'Parkering <P-hus> & "fika"',
      },
    ]);
  });

  // Another tenant's March, locked: it must never show in A's figures or files.
  await withTenant(tenantB, async (trx) => {
    ids.adminB = await idOf(trx, 'users', { email: b.adminEmail });
    await trx('users').where({ id: ids.adminB }).update({ name: 'Bertil Annat Bolag', erp_employee_id: '7' });
    const t = await tagIds(trx, 'time_report_tags');
    await trx('time_reports').insert({ user_id: ids.adminB, tag_id: t.SEM, date: '2026-03-02', minutes: 480 });
  });
  await lock(tenantB, MONTH);

  // The office approved both people's March (only approved time goes to payroll), and Bertil's in B.
  for (const userId of [ids.admin, ids.tech]) await approve(tok.admin, userId);
  await approve(tok.adminB, ids.adminB, b.host);
}, 120_000);
afterAll(() => srv.close());

/** The XSD as committed (windows-1252, as published), handed to libxml2 as UTF-8 text. */
function paxmlSchema(): string {
  const bytes = readFileSync(path.resolve(import.meta.dirname, '../../core/time-reports/payroll/paxml-2.0.xsd'));
  return new TextDecoder('windows-1252').decode(bytes).replace(/encoding="windows-1252"/, 'encoding="UTF-8"');
}

interface XmlLint {
  validateXML(options: {
    xml: { fileName: string; contents: string }[];
    schema: { fileName: string; contents: string }[];
  }): Promise<{ valid: boolean; errors: readonly { rawMessage: string }[] }>;
}

/** libxml2's xmllint compiled to WebAssembly (the devDependency xmllint-wasm). */
async function xmllint(): Promise<XmlLint> {
  const name = 'xmllint-wasm';
  try {
    const mod = (await import(/* @vite-ignore */ name)) as Partial<XmlLint> & { default?: XmlLint };
    return mod.validateXML ? (mod as XmlLint) : mod.default!;
  } catch (e) {
    throw new Error(
      'Validating PAXml against its XSD needs the devDependency xmllint-wasm (npm i -D xmllint-wasm@^5)',
      {
        cause: e,
      },
    );
  }
}

async function validateAgainstXsd(xml: string) {
  const lint = await xmllint();
  return lint.validateXML({
    xml: [{ fileName: 'payroll.xml', contents: xml }],
    schema: [{ fileName: 'paxml.xsd', contents: paxmlSchema() }],
  });
}

const runExportRoute = (url: string) =>
  runLoaderAs(exportRoute.loader, { tenant: tenantA, host: a.host, token: tok.admin }, url);

describe('payroll export', () => {
  it('previews the month per person while it is open, and refuses to export it (409)', async () => {
    const res = await call('GET', PREVIEW, tok.admin);
    expect(res.status, res.text).toBe(200);
    const preview = res.json<Json>();
    expect(preview).toMatchObject({ month: MONTH, from: '2026-03-01', to: '2026-03-31', locked: false });

    const [anna, tess, ...others] = preview.people as Json[];
    expect(others).toEqual([]);
    expect(tess).toEqual({
      userId: ids.tech,
      name: 'Tess Tekniker',
      employeeNumber: '1001',
      // own 510 + 480 (the order's 90 + 30 of 2 March are part of the 510, not on top of it), and a
      // day on the order only: 120 work + 30 travel (RE1); the binned order's time is not paid
      work: [
        { code: 'ARB', hours: 18.5 },
        { code: 'RE1', hours: 0.5 },
      ],
      absence: [
        { code: 'SEM', hours: 16 },
        { code: 'VAB', hours: 4 },
      ],
      compensation: [
        { code: '811', kind: 'compensation', unit: 'day', quantity: 2, amount: 580 },
        { code: '892', kind: 'compensation', unit: 'pcs', quantity: 1, amount: 149.9 },
      ],
      totals: { workHours: 19, absenceHours: 20, amount: 729.9, distanceKm: 0 },
    });
    expect(anna).toEqual({
      userId: ids.admin,
      name: 'Anna Admin',
      employeeNumber: null,
      work: [{ code: 'ARB', hours: 5 }],
      absence: [],
      compensation: [{ code: '821', kind: 'distance', unit: 'km', quantity: 52.4, amount: 131 }],
      totals: { workHours: 5, absenceHours: 0, amount: 131, distanceKm: 52.4 },
    });
    expect(preview.totals).toEqual({ people: 2, workHours: 24, absenceHours: 20, amount: 860.9, distanceKm: 52.4 });
    expect(preview.notApproved).toEqual([]);
    expect(preview.missingEmployeeNumbers).toEqual([{ userId: ids.admin, name: 'Anna Admin' }]);

    for (const format of ['paxml', 'csv']) {
      const refused = await call('GET', exportPath(format), tok.admin);
      expect(refused.status, refused.text).toBe(409);
      expect(refused.json<{ code: string }>().code).toBe('PAYROLL_MONTH_NOT_LOCKED');
    }
    // the page's download goes back to the page with the reason
    const web = await runExportRoute(`/time/payroll/export?month=${MONTH}&format=paxml`);
    expect(web.status).toBe(302);
    const back = new URL(web.headers.get('Location')!, 'http://x');
    expect(back.pathname).toBe('/time/payroll');
    expect(Object.fromEntries(back.searchParams)).toEqual({ exportError: 'PAYROLL_MONTH_NOT_LOCKED', month: MONTH });

    // unlocked by hand after a lock is open again
    await lock(tenantA, MONTH, false);
    expect((await call('GET', exportPath('paxml'), tok.admin)).status).toBe(409);
  });

  it('needs timereports:read and a month and format it can read', async () => {
    expect((await call('GET', PREVIEW, tok.tech)).status).toBe(403);
    expect((await call('GET', exportPath('paxml'), tok.tech)).status).toBe(403);
    expect((await call('GET', PREVIEW)).status).toBe(401);

    const bad = await call('GET', '/api/timereports/payroll?month=2026-13', tok.admin);
    expect(bad.status).toBe(400);
    expect(bad.json<Json>().fields).toEqual({ month: ['ERROR_INVALID_VALUE'] });
    const missing = await call('GET', '/api/timereports/payroll', tok.admin);
    expect(missing.json<Json>().fields).toEqual({ month: ['ERROR_REQUIRED_FIELD'] });
    const format = await call('GET', exportPath('pdf'), tok.admin);
    expect(format.status).toBe(400);
    expect(format.json<Json>().fields).toEqual({ format: ['ERROR_INVALID_VALUE'] });
  });

  it('exports the locked month as PAXml 2.0 that the schema accepts', async () => {
    await lock(tenantA, MONTH);
    expect((await call('GET', PREVIEW, tok.admin)).json<Json>().locked).toBe(true);

    // Anna has no employee number: never written as her user id, the export is refused naming her
    for (const format of ['paxml', 'csv']) {
      const refused = await call('GET', exportPath(format), tok.admin);
      expect(refused.status, refused.text).toBe(409);
      expect(refused.json<Json>()).toEqual({
        code: 'PAYROLL_EMPLOYEE_NUMBER_MISSING',
        people: [{ userId: ids.admin, name: 'Anna Admin' }],
      });
    }
    const web = await runExportRoute(`/time/payroll/export?month=${MONTH}&format=paxml`);
    expect(web.status).toBe(302);
    expect(new URL(web.headers.get('Location')!, 'http://x').searchParams.get('exportError')).toBe(
      'PAYROLL_EMPLOYEE_NUMBER_MISSING',
    );
    await withTenant(tenantA, (trx) => trx('users').where({ id: ids.admin }).update({ erp_employee_id: '1000' }));

    const res = await call('GET', exportPath('paxml'), tok.admin);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.headers['content-disposition']).toContain('filename="paxml-2026-03.xml"');
    const xml = res.text;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);

    const doc = readPaxml(xml).paxml as Json;
    expect(doc.header).toMatchObject({ format: 'LÖNIN', version: '2.0', foretagnamn: 'pay-a AB', programnamn: 'Ordo' });
    const time = (doc.tidtransaktioner.tidtrans as Json[]).map((t) => [t['@anstid'], t.tidkod, t.datum, t.timmar]);
    expect(time).toEqual([
      ['1000', 'ARB', '2026-03-10', '5'],
      ['1001', 'ARB', '2026-03-02', '8.5'],
      ['1001', 'ARB', '2026-03-03', '8'],
      ['1001', 'SEM', '2026-03-04', '8'],
      ['1001', 'SEM', '2026-03-05', '8'],
      ['1001', 'VAB', '2026-03-06', '4'],
      ['1001', 'ARB', '2026-03-09', '2'],
      ['1001', 'RE1', '2026-03-09', '0.5'],
    ]);
    const salary = (doc.lonetransaktioner.lonetrans as Json[]).map(({ '@postid': _postid, ...l }) => l);
    expect(salary).toEqual([
      {
        '@anstid': '1000',
        lonart: '821',
        datum: '2026-03-10',
        antal: '42.4',
        apris: '2.5',
        belopp: '106',
        kommentar: 'Lund & åter',
      },
      { '@anstid': '1000', lonart: '821', datum: '2026-03-11', antal: '10', apris: '2.5', belopp: '25' },
      { '@anstid': '1001', lonart: '811', datum: '2026-03-12', antal: '2', apris: '290', belopp: '580' },
      {
        '@anstid': '1001',
        lonart: '892',
        datum: '2026-03-12',
        antal: '1',
        belopp: '149.9',
        kommentar: 'Parkering <P-hus> & "fika"',
      },
    ]);
    const postids = [...(doc.tidtransaktioner.tidtrans as Json[]), ...(doc.lonetransaktioner.lonetrans as Json[])].map(
      (t) => Number(t['@postid']),
    );
    expect(new Set(postids).size).toBe(postids.length);

    // Another tenant's March is not in the file.
    expect(xml).not.toContain(ids.adminB);
    expect(xml).not.toContain('Bertil');

    const checked = await validateAgainstXsd(xml);
    expect(checked.errors.map((e) => e.rawMessage)).toEqual([]);
    expect(checked.valid).toBe(true);
    // … and the validator does say no: a time code PAXml does not have
    const broken = await validateAgainstXsd(xml.replace('<tidkod>VAB</tidkod>', '<tidkod>XYZ</tidkod>'));
    expect(broken.valid).toBe(false);
  });

  it('exports the locked month as CSV: semicolons, BOM, decimal commas', async () => {
    const res = await call('GET', exportPath('csv'), tok.admin);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('filename="payroll-2026-03.csv"');
    expect(
      res.text.startsWith('\uFEFFemployeeNumber;name;type;code;date;quantity;unit;unitPrice;amount;comment\r\n'),
    ).toBe(true);
    const [head, ...rows] = parseCsv(res.text, ';');
    expect(head).toEqual([...PAYROLL_CSV_COLUMNS]);
    expect(rows).toEqual([
      ['1000', 'Anna Admin', 'work', 'ARB', '2026-03-10', '5', 'h', '', '', ''],
      ['1000', 'Anna Admin', 'distance', '821', '2026-03-10', '42,4', 'km', '2,5', '106', 'Lund & åter'],
      ['1000', 'Anna Admin', 'distance', '821', '2026-03-11', '10', 'km', '2,5', '25', ''],
      ['1001', 'Tess Tekniker', 'work', 'ARB', '2026-03-02', '8,5', 'h', '', '', ''],
      ['1001', 'Tess Tekniker', 'work', 'ARB', '2026-03-03', '8', 'h', '', '', ''],
      ['1001', 'Tess Tekniker', 'absence', 'SEM', '2026-03-04', '8', 'h', '', '', ''],
      ['1001', 'Tess Tekniker', 'absence', 'SEM', '2026-03-05', '8', 'h', '', '', ''],
      ['1001', 'Tess Tekniker', 'absence', 'VAB', '2026-03-06', '4', 'h', '', '', ''],
      ['1001', 'Tess Tekniker', 'work', 'ARB', '2026-03-09', '2', 'h', '', '', ''],
      ['1001', 'Tess Tekniker', 'work', 'RE1', '2026-03-09', '0,5', 'h', '', '', ''],
      ['1001', 'Tess Tekniker', 'compensation', '811', '2026-03-12', '2', 'day', '290', '580', ''],
      [
        '1001',
        'Tess Tekniker',
        'compensation',
        '892',
        '2026-03-12',
        '1',
        'pcs',
        '',
        '149,9',
        'Parkering <P-hus> & "fika"',
      ],
    ]);
    expect(res.text).not.toContain('Bertil');

    // the page's download is the same file
    const web = await runExportRoute(`/time/payroll/export?month=${MONTH}&format=csv`);
    expect(web.status).toBe(200);
    expect(web.headers.get('Content-Disposition')).toBe('attachment; filename="payroll-2026-03.csv"');
    expect(Buffer.from(await web.arrayBuffer()).toString('utf8')).toBe(res.text);
  });

  it('shows the other tenant only its own month', async () => {
    const res = await call('GET', PREVIEW, tok.adminB, undefined, b.host);
    expect(res.status, res.text).toBe(200);
    const preview = res.json<Json>();
    expect(preview.locked).toBe(true);
    expect((preview.people as Json[]).map((p) => [p.name, p.absence])).toEqual([
      ['Bertil Annat Bolag', [{ code: 'SEM', hours: 8 }]],
    ]);
    const xml = (await call('GET', exportPath('paxml'), tok.adminB, undefined, b.host)).text;
    expect(xml).not.toContain('Tess');
    expect(xml).not.toContain(ids.admin);
    // A's token does not open B's host
    expect((await call('GET', PREVIEW, tok.admin, undefined, b.host)).status).toBe(401);
  });

  // its time is a bench's (tests/bench/time-bench.ts, beside the raw SQL of its rows); here: a bounded
  // number of statements, not one per person or per day
  it('exports a hundred people’s month in a bounded number of statements', async () => {
    const c = await createTestTenant('pay-bulk');
    const tenantC = (await getTenantBySlug(c.slug))!;
    const token = await signIn(c, c.adminEmail);
    const order = (await call('POST', '/api/wo', token, { workOrder: { title: 'Service' } }, c.host)).json<{
      workOrder: { id: string };
    }>().workOrder.id;
    const days = Array.from({ length: 22 }, (_, i) => `2026-03-${String(i + 2).padStart(2, '0')}`).filter(
      (d) => ![0, 6].includes(new Date(`${d}T12:00:00Z`).getUTCDay()),
    );
    await withTenant(tenantC, async (trx) => {
      const users = (await trx('users')
        .insert(
          Array.from({ length: 100 }, (_, i) => ({
            email: `person${i}@bulk.se`,
            name: `Person ${String(i).padStart(3, '0')}`,
            configuration: { employeeNumber: String(2000 + i) },
          })),
        )
        .returning('id')) as { id: string }[];
      const t = await tagIds(trx, 'time_report_tags');
      const comp = await tagIds(trx, 'compensation_tags');
      const rows = users.flatMap(({ id }, i) =>
        days.map((date, d) => ({ user_id: id, tag_id: (i + d) % 11 === 0 ? t.SEM : t.ARB, date, minutes: 420 })),
      );
      for (let i = 0; i < rows.length; i += 1000) await trx('time_reports').insert(rows.slice(i, i + 1000));
      const orderRows = users.flatMap(({ id }) =>
        days.map((date) => ({ work_order_id: order, user_id: id, date, work_minutes: 60, travel_minutes: 15 })),
      );
      for (let i = 0; i < orderRows.length; i += 1000)
        await trx('work_order_time').insert(orderRows.slice(i, i + 1000));
      await trx('distance_reports').insert(
        users.flatMap(({ id }) =>
          days.slice(0, 5).map((date) => ({ user_id: id, date, distance_km: '23.5', tag_id: comp['821'] })),
        ),
      );
      await trx('compensation_reports').insert(
        users.map(({ id }) => ({ user_id: id, tag_id: comp['811'], date: days[3], quantity: '1', amount: '0' })),
      );
      await trx('time_report_parents').insert(
        users.map(({ id }) => ({
          user_id: id,
          period_start: '2026-03-01',
          period_end: '2026-03-31',
          status: 'approved',
          approved_at: new Date(),
        })),
      );
      await trx.raw(`insert into time_period_locks (month, locked) values ('2026-03-01', true)`);
    });

    const res = await call('GET', exportPath('paxml'), token, undefined, c.host);
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    const doc = readPaxml(res.text).paxml as Json;
    expect(new Set((doc.tidtransaktioner.tidtrans as Json[]).map((t) => t['@anstid'])).size).toBe(100);
    // the fewer of two asks (a cache that ran out on a slow machine is read again: not the export's work)
    const again = await call('GET', exportPath('paxml'), token, undefined, c.host);
    const statements = Math.min(Number(res.headers['x-sql-statements']), Number(again.headers['x-sql-statements']));
    expect(statements).toBeGreaterThan(0);
    expect(statements, `${statements} statements for 100 people`).toBeLessThan(25);
  }, 120_000);
});
