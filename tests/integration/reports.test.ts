import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import * as exportRoute from '~/app/routes/reports.export';
import * as reportsRoute from '~/app/routes/reports';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import { parseCsv } from '~/core/import-export/csv';
import type { Tenant } from '~/core/tenancy/tenant';
import { sessionPolicy } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { insertAgreementType, insertObjectsWithAgreements } from '~/tests/helpers/agreements';
import { testApi } from '~/tests/helpers/api';
import { getBinary } from '~/tests/helpers/binary';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { readXlsx } from '~/tests/helpers/xlsx-reader';

/*
 * Reports (issue 17 part 6): the closed work orders of a period with filters, paging, sums and the
 * work-order limit; the agreement invoices per type and month; the time per person, project and work
 * type; the CSV and XLSX exports; reports:read; another tenant's data unseen.
 */

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const id: Record<string, string> = {};
const tok: Record<string, string> = {};
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const MARCH = 'startTime=2025-03-01&endTime=2025-03-31';

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('rep-a');
  b = await createTestTenant('rep-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert({
      display_name: 'Rapporter egna',
      description: 'Reports, own work orders only',
      permissions: ['reports:read', 'workorders:read'],
      work_order_limit: 'user',
    });
    id.u2 = (
      await ensureUser(trx, {
        email: `u2@${a.slug}.se`,
        name: 'Ulla Tvåa',
        password: PASSWORD,
        accessLevels: ['Rapporter egna'],
      })
    ).id;
    const user = async (email: string) =>
      ((await trx('users').whereRaw('lower(email) = ?', [email]).first('id')) as { id: string }).id;
    id.admin = await user(a.adminEmail);
    id.tech = await user(a.technicianEmail);
    const [c1, c2] = (await trx('customers')
      .insert([
        { customer_id: '20001', name: 'Brf Solrosen' },
        { customer_id: '20002', name: 'Kvarnen AB' },
      ])
      .returning('id')) as { id: string }[];
    id.c1 = c1!.id;
    id.c2 = c2!.id;
    const [tA, tB] = (await trx('work_types')
      .insert([{ name: 'Rapport A' }, { name: 'Rapport B' }])
      .returning('id')) as { id: string }[];
    id.typeA = tA!.id;
    id.typeB = tB!.id;
    const status = (await trx('work_order_statuses').where({ is_closing: true }).first('id')) as { id: string };
    const [article] = (await trx('articles').insert({ article_id: 'R-1', title: 'Detektor' }).returning('id')) as {
      id: string;
    }[];
    const [project] = (await trx('projects').insert({ number: 1001, title: 'Nybygge' }).returning('id')) as {
      id: string;
    }[];
    id.project = project!.id;
    const order = async (key: string, o: Record<string, unknown>, assignees: string[]) => {
      const [row] = (await trx('work_orders')
        .insert({ number: `R-${key}`, status_id: status.id, create_user_id: id.admin, ...o })
        .returning('id')) as { id: string }[];
      id[key] = row!.id;
      if (assignees.length)
        await trx('work_order_assignees').insert(assignees.map((u) => ({ work_order_id: row!.id, user_id: id[u] })));
    };
    await order(
      'wo1',
      { title: 'Service larm Solrosen', customer_id: id.c1, work_type_id: id.typeA, closed_at: '2025-03-03T10:00:00Z' },
      ['tech'],
    );
    await order(
      'wo2',
      {
        title: 'Byte kortläsare',
        customer_id: id.c2,
        work_type_id: id.typeB,
        closed_at: '2025-03-10T10:00:00Z',
        create_user_id: id.u2,
        project_id: id.project,
      },
      ['u2'],
    );
    await order(
      'wo3',
      { title: 'Service kamera', customer_id: id.c1, work_type_id: id.typeB, closed_at: '2025-03-20T12:00:00Z' },
      ['tech', 'u2'],
    );
    // 2025-03-31 22:30 UTC is 1 April 00:30 in Stockholm: after March
    await order(
      'wo4',
      { title: 'Service april', customer_id: id.c1, work_type_id: id.typeA, closed_at: '2025-03-31T22:30:00Z' },
      ['tech'],
    );
    // 2025-02-28 23:30 UTC is 1 March 00:30 in Stockholm: in March
    await order(
      'wo7',
      { title: 'Nattlarm', customer_id: id.c2, work_type_id: id.typeA, closed_at: '2025-02-28T23:30:00Z' },
      ['admin'],
    );
    await order('wo5', { title: 'Öppen order', customer_id: id.c1, work_type_id: id.typeA, project_id: id.project }, [
      'tech',
    ]);
    await order(
      'wo6',
      {
        title: 'Service borttagen',
        customer_id: id.c1,
        work_type_id: id.typeA,
        closed_at: '2025-03-05T10:00:00Z',
        deleted_at: '2025-03-06T10:00:00Z',
      },
      ['tech'],
    );
    await order('now', { title: 'Stängd nyss', customer_id: id.c1, work_type_id: id.typeA, closed_at: new Date() }, [
      'tech',
    ]);
    await order(
      'old',
      {
        title: 'Stängd förra veckan',
        customer_id: id.c1,
        work_type_id: id.typeA,
        closed_at: new Date(Date.now() - 8 * 86_400_000),
      },
      ['tech'],
    );
    const row = (wo: string, amount: number, price: number) => ({
      work_order_id: id[wo],
      article_id: article!.id,
      title: 'Detektor',
      amount,
      price,
      total: amount * price,
    });
    await trx('work_order_articles').insert([
      row('wo1', 1, 100.5),
      row('wo1', 2, 100),
      row('wo2', 1, 50),
      row('wo6', 1, 999),
    ]);
    const time = (wo: string, user: string, date: string, work: number, travel = 0) => ({
      work_order_id: id[wo],
      user_id: id[user],
      date,
      work_minutes: work,
      travel_minutes: travel,
    });
    await trx('work_order_time').insert([
      time('wo1', 'tech', '2025-03-03', 60, 30),
      time('wo1', 'u2', '2025-03-03', 45),
      time('wo2', 'u2', '2025-03-10', 120),
      time('wo3', 'tech', '2025-03-20', 30),
      time('wo5', 'tech', '2025-03-25', 15, 15),
      // in the recycle bin, and after the period: not counted
      time('wo6', 'tech', '2025-03-05', 999),
      time('wo4', 'tech', '2025-04-01', 50),
    ]);
    const tag = async (code: string) =>
      ((await trx('time_report_tags').where({ code }).first('id')) as { id: string }).id;
    const arb = await tag('ARB');
    const sem = await tag('SEM');
    id.arb = arb;
    id.sem = sem;
    await trx('time_reports').insert([
      { user_id: id.tech, tag_id: arb, date: '2025-03-04', minutes: 240 },
      { user_id: id.tech, tag_id: sem, date: '2025-03-05', minutes: 480 },
      { user_id: id.u2, tag_id: arb, date: '2025-03-06', minutes: 60 },
      { user_id: id.u2, tag_id: arb, date: '2025-04-01', minutes: 100 },
    ]);

    // agreement invoices: two objects on "Larmavtal", one on "Dörravtal"
    const larm = await insertAgreementType(trx, { code: 'LARM', title: 'Larmavtal' });
    const door = await insertAgreementType(trx, { code: 'DORR', title: 'Dörravtal' });
    id.larm = larm;
    id.door = door;
    await insertObjectsWithAgreements(trx, { agreementId: larm, count: 2, start: '2025-01-01', prefix: 'L' });
    await insertObjectsWithAgreements(trx, { agreementId: door, count: 1, start: '2025-01-01', prefix: 'D' });
    const oas = (await trx('object_agreements').orderBy('agreement_id').select('id', 'agreement_id')) as {
      id: string;
      agreement_id: string;
    }[];
    const [oa1, oa2] = oas.filter((o) => o.agreement_id === larm).map((o) => o.id);
    const oa3 = oas.find((o) => o.agreement_id === door)!.id;
    const invoice = (oa: string, from: string, net: number, status = 'finalized') => ({
      object_agreement_id: oa,
      period_from: from,
      period_to: from.slice(0, 8) + '28',
      invoice_date: from,
      status,
      total_price: net,
      total_price_vat: net * 1.25,
    });
    await trx('invoices').insert([
      invoice(oa1!, '2025-01-01', 1000),
      invoice(oa1!, '2025-02-01', 1000),
      invoice(oa2!, '2025-01-01', 500),
      invoice(oa2!, '2025-03-01', 500, 'void'),
      invoice(oa3, '2025-03-01', 300, 'draft'),
      invoice(oa1!, '2025-04-01', 1000),
    ]);
  });
  // tenant B: its own closed order, time and agreement invoice in March
  await withTenant((await getTenantBySlug(b.slug))!, async (trx) => {
    const status = (await trx('work_order_statuses').where({ is_closing: true }).first('id')) as { id: string };
    const type = (await trx('work_types').where({ is_default: true }).first('id')) as { id: string };
    const admin = (await trx('users').whereRaw('lower(email) = ?', [b.adminEmail]).first('id')) as { id: string };
    const [wo] = (await trx('work_orders')
      .insert({
        number: 'B-1',
        title: 'Service i B',
        status_id: status.id,
        work_type_id: type.id,
        closed_at: '2025-03-15T10:00:00Z',
        create_user_id: admin.id,
      })
      .returning('id')) as { id: string }[];
    await trx('work_order_time').insert({
      work_order_id: wo!.id,
      user_id: admin.id,
      date: '2025-03-15',
      work_minutes: 77,
    });
    const t = await insertAgreementType(trx, { code: 'B', title: 'B-avtal' });
    await insertObjectsWithAgreements(trx, { agreementId: t, count: 1, start: '2025-01-01', prefix: 'B' });
    const oa = (await trx('object_agreements').first('id')) as { id: string };
    await trx('invoices').insert({
      object_agreement_id: oa.id,
      period_from: '2025-03-01',
      period_to: '2025-03-31',
      invoice_date: '2025-03-01',
      total_price: 9999,
      total_price_vat: 12498.75,
    });
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.u2 = await signIn(a, `u2@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

const get = async (path: string, token = tok.admin!, host?: string) => {
  const res = await call('GET', path, token, undefined, host);
  expect(res.status, `${path}: ${res.text}`).toBe(200);
  return res.json();
};
const numbers = (r: { workOrders: { number: string }[] }) => r.workOrders.map((w) => w.number);

const download = (path: string, token: string) => getBinary(srv.url, path, a.host, token);

describe('[reports] closed work orders', () => {
  it('lists the period’s closed orders newest first, in the tenant’s days, with their sums', async () => {
    const r = await get(`/api/wo/history/closed?${MARCH}`);
    expect(r.startTime).toBe('2025-03-01');
    expect(r.endTime).toBe('2025-03-31');
    // not the open one, not the one in the recycle bin, not the one closed on 1 April in Stockholm
    expect(numbers(r)).toEqual(['R-wo3', 'R-wo2', 'R-wo1', 'R-wo7']);
    expect(r.totalCount).toBe(4);
    const wo1 = r.workOrders.find((w: { number: string }) => w.number === 'R-wo1');
    expect(wo1).toMatchObject({
      id: id.wo1,
      title: 'Service larm Solrosen',
      customerName: 'Brf Solrosen',
      workType: 'Rapport A',
      closedAt: '2025-03-03T10:00:00.000Z',
      assignees: [{ id: id.tech, name: 'Tess Tekniker' }],
      totalPrice: '300.50',
      workMinutes: 105,
      travelMinutes: 30,
    });
    expect(r.workOrders[0]).toMatchObject({ number: 'R-wo3', totalPrice: '0.00', workMinutes: 30 });
    expect(r.totals).toEqual({ totalPrice: '350.50', workMinutes: 255, travelMinutes: 30 });
  });

  it('filters by customer, work type, title, creator and assignee', async () => {
    expect(numbers(await get(`/api/wo/history/closed?${MARCH}&customerId=${id.c2}`))).toEqual(['R-wo2', 'R-wo7']);
    expect(numbers(await get(`/api/wo/history/closed?${MARCH}&workType=${id.typeB}`))).toEqual(['R-wo3', 'R-wo2']);
    expect(numbers(await get(`/api/wo/history/closed?${MARCH}&title=SERVICE`))).toEqual(['R-wo3', 'R-wo1']);
    expect(numbers(await get(`/api/wo/history/closed?${MARCH}&createUserId=${id.u2}`))).toEqual(['R-wo2']);
    expect(numbers(await get(`/api/wo/history/closed?${MARCH}&scheduledUserId=${id.tech}`))).toEqual([
      'R-wo3',
      'R-wo1',
    ]);
    const both = await get(`/api/wo/history/closed?${MARCH}&customerId=${id.c1}&workType=${id.typeA}`);
    expect(numbers(both)).toEqual(['R-wo1']);
    expect(both.totals).toEqual({ totalPrice: '300.50', workMinutes: 105, travelMinutes: 30 });
    // a LIKE wildcard is a character, not "anything"
    expect((await get(`/api/wo/history/closed?${MARCH}&title=%25`)).totalCount).toBe(0);
  });

  it('pages with limit and offset, the count and sums over the whole period', async () => {
    const first = await get(`/api/wo/history/closed?${MARCH}&limit=2`);
    expect(numbers(first)).toEqual(['R-wo3', 'R-wo2']);
    expect(first.totalCount).toBe(4);
    expect(first.totals.workMinutes).toBe(255);
    const second = await get(`/api/wo/history/closed?${MARCH}&limit=2&offset=2`);
    expect(numbers(second)).toEqual(['R-wo1', 'R-wo7']);
    expect((await get(`/api/wo/history/closed?${MARCH}&limit=2&offset=4`)).workOrders).toEqual([]);
  });

  it('is this week by default', async () => {
    const r = await get('/api/wo/history/closed');
    expect(numbers(r)).toContain('R-now');
    expect(numbers(r)).not.toContain('R-old');
  });

  it('keeps to the user’s work-order limit', async () => {
    // u2 sees the orders they are assigned to only
    expect(numbers(await get(`/api/wo/history/closed?${MARCH}`, tok.u2))).toEqual(['R-wo3', 'R-wo2']);
    const r = await get(`/api/wo/history/closed?${MARCH}`, tok.u2);
    expect(r.totalCount).toBe(2);
    expect(r.totals).toEqual({ totalPrice: '50.00', workMinutes: 150, travelMinutes: 0 });
  });

  it('refuses a period reversed or longer than 366 days, and bad filters', async () => {
    const long = await call('GET', '/api/wo/history/closed?startTime=2024-01-01&endTime=2025-01-01', tok.admin);
    expect(long.status).toBe(400);
    expect(long.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { endTime: ['ERROR_REPORT_PERIOD_TOO_LONG'] },
    });
    // 366 days (a leap year) is fine
    expect(
      (await call('GET', '/api/wo/history/closed?startTime=2024-01-01&endTime=2024-12-31', tok.admin)).status,
    ).toBe(200);
    const reversed = await call('GET', '/api/wo/history/closed?startTime=2025-03-02&endTime=2025-03-01', tok.admin);
    expect(reversed.json()).toMatchObject({ fields: { endTime: ['ERROR_REPORT_PERIOD_REVERSED'] } });
    const bad = await call('GET', `/api/wo/history/closed?${MARCH}&customerId=nope&startTime=2025-02-30`, tok.admin);
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({ customerId: ['ERROR_INVALID_VALUE'], startTime: ['ERROR_INVALID_DATE'] });
  });
});

describe('[reports] agreement invoices', () => {
  it('sums the period’s agreement invoices per type and month, void ones left out', async () => {
    const r = await get('/api/reports/agreement-invoices?startTime=2025-01-01&endTime=2025-03-31');
    expect(r).toMatchObject({ startTime: '2025-01-01', endTime: '2025-03-31', count: 4 });
    expect(r.totalPrice).toBe('2800.00');
    expect(r.totalPriceVat).toBe('3500.00');
    expect(r.months).toEqual([
      { month: '2025-01', count: 2, totalPrice: '1500.00', totalPriceVat: '1875.00' },
      { month: '2025-02', count: 1, totalPrice: '1000.00', totalPriceVat: '1250.00' },
      { month: '2025-03', count: 1, totalPrice: '300.00', totalPriceVat: '375.00' },
    ]);
    expect(r.types).toEqual([
      {
        agreementId: id.larm,
        code: 'LARM',
        title: 'Larmavtal',
        count: 3,
        totalPrice: '2500.00',
        totalPriceVat: '3125.00',
      },
      {
        agreementId: id.door,
        code: 'DORR',
        title: 'Dörravtal',
        count: 1,
        totalPrice: '300.00',
        totalPriceVat: '375.00',
      },
    ]);
    expect(r.rows.map((x: { month: string; code: string; count: number }) => [x.month, x.code, x.count])).toEqual([
      ['2025-01', 'LARM', 2],
      ['2025-02', 'LARM', 1],
      ['2025-03', 'DORR', 1],
    ]);
  });

  it('shows every month of the period, also those without invoices', async () => {
    const r = await get('/api/reports/agreement-invoices?startTime=2024-11-01&endTime=2025-01-31');
    expect(r.months.map((m: { month: string; count: number }) => [m.month, m.count])).toEqual([
      ['2024-11', 0],
      ['2024-12', 0],
      ['2025-01', 2],
    ]);
  });
});

describe('[reports] time', () => {
  type TimeRow = { kind: string; key: string | null; label: string | null; [k: string]: unknown };
  const minutes = (r: TimeRow) => [r.workMinutes, r.travelMinutes, r.ownMinutes, r.absenceMinutes, r.totalMinutes];

  it('sums work-order and own time per person', async () => {
    const r = await get(`/api/reports/time?groupBy=person&${MARCH}`);
    expect(r.groupBy).toBe('person');
    expect(r.rows.map((x: TimeRow) => [x.label, ...minutes(x)])).toEqual([
      ['Tess Tekniker', 105, 45, 240, 480, 870],
      ['Ulla Tvåa', 165, 0, 60, 0, 225],
    ]);
    expect(r.totals).toEqual({
      workMinutes: 270,
      travelMinutes: 45,
      ownMinutes: 300,
      absenceMinutes: 480,
      totalMinutes: 1095,
    });
  });

  it('groups work-order time by work type, own time by tag', async () => {
    const r = await get(`/api/reports/time?groupBy=workType&${MARCH}`);
    expect(r.rows.map((x: TimeRow) => [x.kind, x.key, ...minutes(x)])).toEqual([
      ['workType', id.typeA, 120, 45, 0, 0, 165],
      ['workType', id.typeB, 150, 0, 0, 0, 150],
      ['tag', id.sem, 0, 0, 0, 480, 480],
      ['tag', id.arb, 0, 0, 300, 0, 300],
    ]);
    expect(r.rows[0].label).toBe('Rapport A');
    expect(r.rows[3]).toMatchObject({ label: null, tagCode: 'ARB', tagType: 'work' });
  });

  it('groups work-order time by project, the orders without one together', async () => {
    const r = await get(`/api/reports/time?groupBy=project&${MARCH}`);
    // a project is named by its number and title
    expect(r.rows[0].label).toBe('1001 · Nybygge');
    expect(r.rows.filter((x: TimeRow) => x.kind !== 'tag').map((x: TimeRow) => [x.kind, x.key, ...minutes(x)])).toEqual(
      [
        ['project', id.project, 135, 15, 0, 0, 150],
        ['noProject', null, 135, 30, 0, 0, 165],
      ],
    );
  });

  it('is person and this month by default, and refuses a bad grouping or a long period', async () => {
    const r = await get('/api/reports/time');
    expect(r.groupBy).toBe('person');
    expect(r.startTime.slice(8)).toBe('01');
    expect(r.startTime.slice(0, 7)).toBe(r.endTime.slice(0, 7));
    expect((await call('GET', '/api/reports/time?groupBy=customer', tok.admin)).json().fields).toEqual({
      groupBy: ['ERROR_INVALID_VALUE'],
    });
    const long = await call('GET', '/api/reports/time?startTime=2024-01-01&endTime=2025-03-01', tok.admin);
    expect(long.json().fields).toEqual({ endTime: ['ERROR_REPORT_PERIOD_TOO_LONG'] });
  });
});

describe('[reports] exports', () => {
  it('exports the closed orders as CSV with the page’s filter', async () => {
    const res = await download(
      `/api/reports/closed-work-orders/export?format=csv&${MARCH}&customerId=${id.c1}`,
      tok.admin,
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('closed-work-orders-2025-03-01_2025-03-31.csv');
    const rows = parseCsv(res.body.toString('utf8'));
    expect(rows).toHaveLength(3);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['R-wo3', 'R-wo1']);
    const wo1 = rows[2]!;
    expect(wo1.slice(1, 5)).toEqual(['Service larm Solrosen', 'Brf Solrosen', 'Rapport A', '2025-03-03 11:00']);
    // 105 minutes of work, 30 of travel, 300.50: decimal commas
    expect(wo1.slice(-3)).toEqual(['1,75', '0,50', '300,50']);
  });

  it('exports the time report as an XLSX workbook with numbers as numbers', async () => {
    const res = await download(`/api/reports/time/export?format=xlsx&groupBy=person&${MARCH}`, tok.admin);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toContain('time-person-2025-03-01_2025-03-31.xlsx');
    // opened by exceljs, a reader independent of the writer
    const [sheet, ...more] = await readXlsx(res.body);
    expect(more).toHaveLength(0);
    expect(sheet!.name).toBe('Tid');
    expect(sheet!.rows.flat()).toContain('Tess Tekniker');
    // in the user's language (the tenant's, Swedish); 870 minutes = 14.5 hours
    expect(sheet!.rows[0]![5]).toBe('Totalt (tim)');
    expect(sheet!.rows[1]![5]).toBe(14.5);
    expect(sheet!.bold).toContain('F1');
  });

  it('exports the closed orders as XLSX with the closing time as a date cell', async () => {
    const res = await download(
      `/api/reports/closed-work-orders/export?format=xlsx&${MARCH}&customerId=${id.c1}`,
      tok.admin,
    );
    expect(res.status).toBe(200);
    const [sheet] = await readXlsx(res.body);
    const wo1 = sheet!.rows[2]!;
    expect(wo1.slice(1, 4)).toEqual(['Service larm Solrosen', 'Brf Solrosen', 'Rapport A']);
    // closed 11:00 Stockholm time: the cell shows that wall clock
    expect(wo1[4]).toEqual(new Date('2025-03-03T11:00:00Z'));
    expect(sheet!.formats.E3).toBe('yyyy-mm-dd hh:mm');
    expect(wo1.slice(-3)).toEqual([1.75, 0.5, 300.5]);
  });

  it('exports the time by work type with the tags by their meaning, in the user’s language', async () => {
    const res = await download(`/api/reports/time/export?format=csv&groupBy=workType&${MARCH}`, tok.admin!);
    const rows = parseCsv(res.body.toString('utf8'));
    expect(rows[0]).toEqual([
      'Arbetstyp',
      'Arbete (tim)',
      'Resa (tim)',
      'Egen tid (tim)',
      'Frånvaro (tim)',
      'Totalt (tim)',
    ]);
    expect(rows.slice(1)).toEqual([
      ['Rapport A', '2,00', '0,75', '0,00', '0,00', '2,75'],
      ['Rapport B', '2,50', '0,00', '0,00', '0,00', '2,50'],
      ['Frånvaro: Semester', '0,00', '0,00', '0,00', '8,00', '8,00'],
      ['Egen tid: Arbetstid', '0,00', '0,00', '5,00', '0,00', '5,00'],
    ]);
  });

  it('exports the agreement invoices per type and month', async () => {
    const res = await download(
      '/api/reports/agreement-invoices/export?format=csv&startTime=2025-01-01&endTime=2025-03-31',
      tok.admin,
    );
    expect(res.status).toBe(200);
    const rows = parseCsv(res.body.toString('utf8'));
    expect(rows.slice(1)).toEqual([
      ['2025-01', 'LARM', 'Larmavtal', '2', '1500,00', '1875,00'],
      ['2025-02', 'LARM', 'Larmavtal', '1', '1000,00', '1250,00'],
      ['2025-03', 'DORR', 'Dörravtal', '1', '300,00', '375,00'],
    ]);
  });

  it('refuses an unknown format or report', async () => {
    expect((await call('GET', `/api/reports/time/export?format=pdf`, tok.admin)).json()).toMatchObject({
      fields: { format: ['ERROR_INVALID_VALUE'] },
    });
    expect((await call('GET', `/api/reports/nothing/export?format=csv`, tok.admin)).status).toBe(400);
  });
});

describe('[reports] access and tenancy', () => {
  it.each([
    '/api/wo/history/closed',
    '/api/reports/agreement-invoices',
    '/api/reports/time',
    '/api/reports/time/export?format=csv',
  ])('%s needs reports:read', async (path) => {
    const res = await call('GET', path, tok.tech);
    expect(res.status).toBe(403);
    expect(res.json().code).toBe('WARNING_PERMISSION_DENIED');
    expect((await call('GET', path)).status).toBe(401);
  });

  it('shows nothing of another tenant', async () => {
    const mine = await get(`/api/wo/history/closed?${MARCH}`, tok.adminB, b.host);
    expect(numbers(mine)).toEqual(['B-1']);
    const time = await get(`/api/reports/time?${MARCH}`, tok.adminB, b.host);
    expect(time.totals.totalMinutes).toBe(77);
    const invoices = await get(`/api/reports/agreement-invoices?${MARCH}`, tok.adminB, b.host);
    expect(invoices.totalPrice).toBe('9999.00');
    // and A sees none of B's
    expect(numbers(await get(`/api/wo/history/closed?${MARCH}`))).not.toContain('B-1');
    expect((await get(`/api/reports/time?${MARCH}`)).totals.totalMinutes).toBe(1095);
    // B's token on A's host is no session there
    expect((await call('GET', `/api/wo/history/closed?${MARCH}`, tok.adminB)).status).toBe(401);
  });
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Handler = (args: never) => unknown;

/** A loader or guard run as React Router runs it: the session's auth, after the i18n middleware. */
async function runRoute(handler: Handler, token: string, url: string) {
  const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
  const context = new RouterContextProvider();
  context.set(tenantContext, tenantA);
  context.set(authContext, auth);
  context.set(requestContext, { ip: null, requestId: 'test', token });
  const full = new URL(url, `http://${a.host}`);
  const request = new Request(full);
  let answer: unknown;
  await i18nextMiddleware({ request, context, params: {}, url: full, pattern: '' } as never, async () => {
    try {
      answer = await handler({ request, context, params: {} } as never);
    } catch (e) {
      answer = e;
    }
    return new Response(null);
  });
  if (answer instanceof Response) return { status: answer.status, body: undefined, response: answer };
  const r = answer as { type?: string; data?: Json; init?: { status?: number } | null };
  if (r?.type === 'DataWithResponseInit') return { status: r.init?.status ?? 200, body: r.data, response: null };
  return { status: 200, body: answer as Json, response: null };
}

async function guardStatus(middleware: readonly unknown[], token: string, url: string) {
  const guard = middleware[0] as (a: unknown, next: () => Promise<Response>) => Promise<unknown>;
  const res = await runRoute(
    ((args: object) => guard({ ...args, params: {} }, async () => new Response(null))) as Handler,
    token,
    url,
  );
  return res.status;
}

describe('[reports] the page', () => {
  it('opens with reports:read only', async () => {
    expect(await guardStatus(reportsRoute.middleware, tok.admin!, '/reports')).toBe(200);
    expect(await guardStatus(reportsRoute.middleware, tok.tech!, '/reports')).toBe(403);
    expect(await guardStatus(exportRoute.middleware, tok.tech!, '/reports/export')).toBe(403);
  });

  it('shows the closed orders with the filter choices, this week by default', async () => {
    const page = await runRoute(reportsRoute.loader as Handler, tok.admin!, '/reports');
    expect(page.body).toMatchObject({ tab: 'closed', errors: null });
    expect(page.body!.closed.workOrders.map((w: { number: string }) => w.number)).toContain('R-now');
    expect(page.body!.options.workTypes.map((w: { name: string }) => w.name)).toEqual(
      expect.arrayContaining(['Rapport A', 'Rapport B']),
    );
    expect(page.body!.presets.map((p: { id: string }) => p.id)).toEqual(['thisWeek', 'lastWeek', 'thisMonth']);
    const filtered = await runRoute(
      reportsRoute.loader as Handler,
      tok.admin!,
      `/reports?${MARCH}&customerId=${id.c2}&limit=20`,
    );
    expect(filtered.body!.closed.workOrders.map((w: { number: string }) => w.number)).toEqual(['R-wo2', 'R-wo7']);
    expect(filtered.body!.options.customer).toEqual({ id: id.c2, label: '20002 – Kvarnen AB' });
  });

  it('shows a refused period beside the form instead of failing', async () => {
    const page = await runRoute(
      reportsRoute.loader as Handler,
      tok.admin!,
      '/reports?tab=time&startTime=2024-01-01&endTime=2025-06-01',
    );
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ tab: 'time', time: null, errors: { endTime: ['ERROR_REPORT_PERIOD_TOO_LONG'] } });
  });

  it('opens the agreement and time tabs', async () => {
    const agreements = await runRoute(
      reportsRoute.loader as Handler,
      tok.admin!,
      '/reports?tab=agreements&startTime=2025-01-01&endTime=2025-03-31',
    );
    expect(agreements.body!.agreements.totalPrice).toBe('2800.00');
    const time = await runRoute(
      reportsRoute.loader as Handler,
      tok.admin!,
      `/reports?tab=time&groupBy=workType&${MARCH}`,
    );
    expect(time.body!.time.groupBy).toBe('workType');
    expect(time.body!.time.totals.totalMinutes).toBe(1095);
  });

  it('downloads through the resource route, and sends a refused export back with the reason', async () => {
    const file = await runRoute(
      exportRoute.loader as Handler,
      tok.admin!,
      `/reports/export?report=time&format=xlsx&groupBy=person&${MARCH}`,
    );
    expect(file.status).toBe(200);
    expect(file.response!.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const body = Buffer.from(await file.response!.arrayBuffer());
    expect((await readXlsx(body))[0]!.rows.flat()).toContain('Ulla Tvåa');
    const refused = await runRoute(
      exportRoute.loader as Handler,
      tok.admin!,
      '/reports/export?report=time&tab=time&format=csv&startTime=2024-01-01&endTime=2025-06-01',
    );
    expect(refused.status).toBe(302);
    const back = new URL(refused.response!.headers.get('location')!, 'http://x');
    expect(back.pathname).toBe('/reports');
    expect(back.searchParams.get('tab')).toBe('time');
    expect(back.searchParams.get('exportError')).toBe('ERROR_REPORT_PERIOD_TOO_LONG');
    expect(back.searchParams.get('format')).toBeNull();
  });
});
