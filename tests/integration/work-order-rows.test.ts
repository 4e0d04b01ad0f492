import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import { action as articlesRouteAction } from '~/app/routes/work-orders.$id.articles';
import { action as timeRouteAction } from '~/app/routes/work-orders.$id.time';
import { validateSession } from '~/core/auth/session.service';
import { sessionPolicy } from '~/core/unit-of-work';
import { tenantToday } from '~/core/calendar/tenant-today';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let tenantB: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'reader' | 'adminB', string>;
const ids: Record<string, string> = {};

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const insert = async (trx: Trx, table: string, row: Record<string, unknown>) =>
  ((await trx(table).insert(row).returning('id')) as { id: string }[])[0]!.id;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('wor-a');
  b = await createTestTenant('wor-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tenantB = (await getTenantBySlug(b.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert({
      display_name: 'Readers',
      permissions: ['workorders:read', 'workorders:edit'],
      work_order_limit: 'none',
    });
    ids.reader = (
      await ensureUser(trx, {
        email: `reader@${a.slug}.se`,
        name: 'Rut Läsare',
        password: PASSWORD,
        accessLevels: ['Readers'],
      })
    ).id;
    ids.admin = (await trx('users').where({ email: a.adminEmail }).first('id')).id;
    ids.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    ids.larm = await insert(trx, 'article_groups', { title: 'LARM', display_name: 'Larm' });
    ids.detector = await insert(trx, 'articles', {
      article_id: '1001',
      title: 'Rörelsedetektor',
      article_group_id: ids.larm,
      price: '1000.00',
      purchase_price: '600.00',
      unit: 'st',
    });
    ids.cable = await insert(trx, 'articles', {
      article_id: '9001',
      title: 'Kabel',
      price: '12.50',
      purchase_price: '4.10',
    });
    ids.siren = await insert(trx, 'articles', {
      article_id: '1002',
      title: 'Siren',
      price: '800.00',
      purchase_price: '300.00',
    });
    ids.work = await insert(trx, 'articles', {
      article_id: '5001',
      title: 'Arbete',
      price: '650.00',
      line_type: 'freetext',
      product_type: 'service',
    });
    ids.old = await insert(trx, 'articles', {
      article_id: '7001',
      title: 'Gammal central',
      price: '5000',
      status: 'inactive',
    });
    // Avtalskund: 10 % off LARM through its price list, and its own price for the siren
    ids.priceList = await insert(trx, 'price_lists', { title: 'Avtalskund' });
    await trx('price_list_groups').insert({
      price_list_id: ids.priceList,
      article_group_id: ids.larm,
      pricing_type: 'discount',
      value: '10',
    });
    ids.customer = await insert(trx, 'customers', {
      name: 'Brf Solrosen',
      customer_id: 'K2',
      price_list_id: ids.priceList,
    });
    await trx('customer_articles').insert({ customer_id: ids.customer, article_id: ids.siren, price: '650.00' });
    ids.bo = await insert(trx, 'business_objects', { serial_code: 'SN-R1', customer_id: ids.customer });
  });
  await withTenant(tenantB, async (trx) => {
    ids.articleB = await insert(trx, 'articles', { article_id: '1001', title: 'Annan', price: '1.00' });
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.reader = await signIn(a, `reader@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

/** A new order for the contract customer and object, assigned to the admin and the technician. */
async function newOrder(title = 'Service larm'): Promise<string> {
  const res = await call('POST', '/api/wo', tok.admin, {
    workOrder: { title, customerId: ids.customer, businessObjectId: ids.bo, assignees: [ids.admin, ids.tech] },
  });
  expect(res.status, res.text).toBe(200);
  return res.json<{ workOrder: { id: string } }>().workOrder.id;
}

interface ArticleRow {
  id: string;
  articleId: string;
  title: string;
  description: string | null;
  amount: string;
  price: string;
  discountType: string;
  discountValue: string;
  discount: string;
  total: string;
  purchasePrice: string | null;
  purchaseTotal: string | null;
  margin: string | null;
}
interface ArticlesPanel {
  rows: ArticleRow[];
  totals: { net: string; purchase: string | null; margin: string | null; marginPercent: string | null };
  canReport: boolean;
  canReadCost: boolean;
}

const putArticles = (id: string, rows: unknown[], token = tok.admin) =>
  call('PUT', `/api/wo/${id}/articles`, token, { rows });
async function saveArticles(id: string, rows: unknown[], token = tok.admin): Promise<ArticlesPanel> {
  const res = await putArticles(id, rows, token);
  expect(res.status, res.text).toBe(200);
  return res.json<ArticlesPanel>();
}
async function history(id: string) {
  const res = await call('GET', `/api/wo/history/${id}`, tok.admin);
  expect(res.status, res.text).toBe(200);
  return res.json<{ rows: { action: string; userName: string; data: Record<string, unknown> }[] }>().rows;
}

describe('[work order rows] articles', () => {
  it("prices a new row by the customer's price and price list, with totals and margin", async () => {
    const id = await newOrder();
    const panel = await saveArticles(id, [
      { articleId: ids.siren, amount: 2 }, // the customer's own price 650
      { articleId: ids.detector, amount: '3' }, // the price list: 1000 less 10 %
      { articleId: ids.cable, amount: '10.5' }, // no agreement: the article's price
    ]);
    expect(panel.rows.map((r) => [r.title, r.amount, r.price, r.discount, r.total])).toEqual([
      ['Siren', '2.000', '650.00', '', '1300.00'],
      ['Rörelsedetektor', '3.000', '1000.00', '10%', '2700.00'],
      ['Kabel', '10.500', '12.50', '', '131.25'],
    ]);
    expect(panel.rows[1]).toMatchObject({
      discountType: 'PERCENTAGE',
      discountValue: '10.00',
      purchasePrice: '600.00',
    });
    // purchase 600 + 1800 + 43.05; net 4131.25
    expect(panel.totals).toEqual({ net: '4131.25', purchase: '2443.05', margin: '1688.20', marginPercent: '40.86' });
    expect(panel.rows[0]).toMatchObject({ purchaseTotal: '600.00', margin: '700.00' });
    expect(panel).toMatchObject({ canReport: true, canReadCost: true });

    const get = await call('GET', `/api/wo/${id}/articles`, tok.admin);
    expect(get.status).toBe(200);
    expect(get.json<ArticlesPanel>()).toEqual(panel);
  });

  it('takes a typed discount (percent or an amount off each unit) and a given price', async () => {
    const id = await newOrder();
    const panel = await saveArticles(id, [
      { articleId: ids.cable, amount: 4, discount: '10%' },
      { articleId: ids.siren, amount: 2, discount: '50' },
      { articleId: ids.detector, amount: 1, price: '900', discount: '' },
    ]);
    // the detector's price is typed, its discount is not: the price list's 10 % still applies
    expect(panel.rows.map((r) => [r.price, r.discount, r.total])).toEqual([
      ['12.50', '10%', '45.00'],
      ['650.00', '50', '1200.00'],
      ['900.00', '10%', '810.00'],
    ]);
    expect(panel.totals.net).toBe('2055.00');

    const bad = await putArticles(id, [
      { articleId: ids.cable, amount: 1, discount: '120%' },
      { articleId: ids.cable, amount: 1, discount: 'tio' },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.json<{ fields: Record<string, string[]> }>().fields).toEqual({
      'rows.0.discount': ['ERROR_PERCENT_RANGE'],
      'rows.1.discount': ['ERROR_DISCOUNT_PATTERN'],
    });
  });

  it('replaces the rows: kept rows keep their price, missing rows go, rows without an article are dropped', async () => {
    const id = await newOrder();
    const first = await saveArticles(id, [
      { articleId: ids.siren, amount: 1 },
      { articleId: ids.cable, amount: 1 },
    ]);
    const [siren, cable] = first.rows;
    // the customer's price changes afterwards: the reported row keeps what it was priced at
    await withTenant(tenantA, (trx) =>
      trx('customer_articles').where({ customer_id: ids.customer, article_id: ids.siren }).update({ price: '700.00' }),
    );
    try {
      const panel = await saveArticles(id, [
        { id: siren!.id, amount: 3 },
        { amount: 5 }, // a new, empty row
        { articleId: '', amount: 2, description: 'tom rad' },
      ]);
      expect(panel.rows).toHaveLength(1);
      expect(panel.rows[0]).toMatchObject({ id: siren!.id, amount: '3.000', price: '650.00', total: '1950.00' });
      expect(panel.rows.some((r) => r.id === cable!.id)).toBe(false);
    } finally {
      await withTenant(tenantA, (trx) =>
        trx('customer_articles')
          .where({ customer_id: ids.customer, article_id: ids.siren })
          .update({ price: '650.00' }),
      );
    }
    const rows = await withTenant(tenantA, (trx) =>
      trx('work_order_articles').where({ work_order_id: id }).select('id'),
    );
    expect(rows).toHaveLength(1);
    // an empty list removes everything
    expect((await saveArticles(id, [])).rows).toEqual([]);
  });

  it('keeps a description only on a free-text article row', async () => {
    const id = await newOrder();
    const first = await saveArticles(id, [
      { articleId: ids.work, amount: 2, description: 'Felsökning av centralen' },
      { articleId: ids.cable, amount: 1, description: 'ignoreras' },
    ]);
    expect(first.rows.map((r) => [r.title, r.description])).toEqual([
      ['Arbete', 'Felsökning av centralen'],
      ['Kabel', null],
    ]);
    const kept = await saveArticles(id, [{ id: first.rows[0]!.id, amount: 3 }, { id: first.rows[1]!.id }]);
    expect(kept.rows[0]).toMatchObject({ description: 'Felsökning av centralen', amount: '3.000', total: '1950.00' });
    const changed = await saveArticles(id, [{ id: first.rows[0]!.id, description: 'Byte av batteri' }]);
    expect(changed.rows.map((r) => r.description)).toEqual(['Byte av batteri']);
  });

  it('writes add_articles history with what was added, changed and removed', async () => {
    const id = await newOrder();
    const first = await saveArticles(id, [{ articleId: ids.cable, amount: 1 }]);
    await saveArticles(id, [
      { id: first.rows[0]!.id, amount: 2 },
      { articleId: ids.siren, amount: 1 },
    ]);
    await saveArticles(id, [{ articleId: ids.detector, amount: 1 }]);
    const rows = (await history(id)).filter((h) => h.action === 'add_articles');
    expect(rows).toHaveLength(3);
    const [third, second, firstEvent] = rows;
    expect(firstEvent!.data).toEqual({
      added: [{ articleId: ids.cable, title: 'Kabel', amount: '1.000' }],
      removed: [],
      changed: [],
    });
    expect(second!.data).toMatchObject({
      added: [{ articleId: ids.siren, title: 'Siren', amount: '1.000' }],
      changed: [{ articleId: ids.cable, changes: [{ field: 'amount', old: '1.000', new: '2.000' }] }],
    });
    expect((third!.data.removed as unknown[]).length).toBe(2);
    expect(third!.userName).toBeTruthy();
    // saving the same rows again changes nothing and writes nothing
    const same = await call('GET', `/api/wo/${id}/articles`, tok.admin);
    await saveArticles(
      id,
      same.json<ArticlesPanel>().rows.map((r) => ({ id: r.id, amount: r.amount })),
    );
    expect((await history(id)).filter((h) => h.action === 'add_articles')).toHaveLength(3);
  });

  it('refuses a negative amount, an inactive or unknown article and a row id of another order', async () => {
    const id = await newOrder();
    const other = await saveArticles(await newOrder(), [{ articleId: ids.cable, amount: 1 }]);
    const negative = await putArticles(id, [
      { articleId: ids.cable, amount: 1 },
      { articleId: ids.cable, amount: -1 },
    ]);
    expect(negative.status).toBe(400);
    expect(negative.json<{ code: string; fields: Record<string, string[]> }>()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { 'rows.1.amount': ['AMOUNT_CANT_BE_NEGATIVE'] },
    });
    const res = await putArticles(id, [
      { articleId: ids.cable, amount: 0 },
      { articleId: ids.old, amount: 1 },
      { articleId: ids.articleB, amount: 1 },
      { id: other.rows[0]!.id, amount: 1 },
    ]);
    expect(res.status).toBe(400);
    expect(res.json<{ fields: Record<string, string[]> }>().fields).toEqual({
      'rows.1.articleId': ['ERROR_ARTICLE_INACTIVE'],
      'rows.2.articleId': ['ERROR_INVALID_VALUE'],
      'rows.3.id': ['ERROR_INVALID_VALUE'],
    });
    expect((await call('GET', `/api/wo/${id}/articles`, tok.admin)).json<ArticlesPanel>().rows).toEqual([]);
  });

  it('needs workorders:report_articles to change the rows (403)', async () => {
    const id = await newOrder();
    const res = await putArticles(id, [{ articleId: ids.cable, amount: 1 }], tok.reader);
    expect(res.status).toBe(403);
    expect(res.json<{ code: string }>().code).toBe('WARNING_PERMISSION_DENIED');
    const read = await call('GET', `/api/wo/${id}/articles`, tok.reader);
    expect(read.status).toBe(200);
    expect(read.json<ArticlesPanel>()).toMatchObject({ canReport: false, canReadCost: false });
  });

  it('shows no purchase prices or margin without workorders:read_cost', async () => {
    const id = await newOrder();
    const panel = await saveArticles(id, [{ articleId: ids.detector, amount: 1 }], tok.tech);
    expect(panel.canReadCost).toBe(false);
    expect(panel.rows[0]).toMatchObject({
      price: '1000.00',
      total: '900.00',
      purchasePrice: null,
      purchaseTotal: null,
      margin: null,
    });
    expect(panel.totals).toEqual({ net: '900.00', purchase: null, margin: null, marginPercent: null });
    const get = await call('GET', `/api/wo/${id}/articles`, tok.tech);
    expect(get.text).not.toContain('600.00');
    expect(get.text).not.toContain('300.00');
  });

  it('refuses a closed (409 WORK_ORDER_CLOSED) or locked (409 WORK_ORDER_LOCKED) order', async () => {
    const closed = await newOrder();
    await withTenant(tenantA, (trx) => trx('work_orders').where({ id: closed }).update({ closed_at: new Date() }));
    const r1 = await putArticles(closed, [{ articleId: ids.cable, amount: 1 }]);
    expect(r1.status).toBe(409);
    expect(r1.json<{ code: string }>().code).toBe('WORK_ORDER_CLOSED');
    expect((await call('GET', `/api/wo/${closed}/articles`, tok.admin)).json<ArticlesPanel>().canReport).toBe(false);

    const locked = await newOrder();
    expect((await call('POST', '/api/wo/lock', tok.admin, { workOrderId: locked })).status).toBe(200);
    const r2 = await putArticles(locked, [{ articleId: ids.cable, amount: 1 }]);
    expect(r2.status).toBe(409);
    expect(r2.json<{ code: string }>().code).toBe('WORK_ORDER_LOCKED');
  });

  it("answers 404 for another tenant's order", async () => {
    const id = await newOrder();
    const get = await call('GET', `/api/wo/${id}/articles`, tok.adminB, undefined, b.host);
    expect(get.status).toBe(404);
    expect(get.json<{ code: string }>().code).toBe('NOT_FOUND');
    const put = await call('PUT', `/api/wo/${id}/articles`, tok.adminB, { rows: [] }, b.host);
    expect(put.status).toBe(404);
    expect((await call('GET', '/api/wo/not-an-id/articles', tok.admin)).status).toBe(404);
  });
});

interface TimeRow {
  id: string;
  userId: string;
  userName: string;
  date: string;
  startTs: string | null;
  endTs: string | null;
  workMinutes: number;
  travelMinutes: number;
  distanceKm: number;
  comment: string | null;
  locked: boolean;
}
interface TimePanel {
  rows: TimeRow[];
  totals: { workMinutes: number; travelMinutes: number; distanceKm: number };
  users: { id: string; name: string }[];
  canReport: boolean;
}

const putTime = (body: Record<string, unknown>, token = tok.admin) => call('PUT', '/api/wo/time', token, body);
async function saveTime(body: Record<string, unknown>, token = tok.admin) {
  const res = await putTime(body, token);
  expect(res.status, res.text).toBe(200);
  return res.json<{ id: string; data: TimePanel }>();
}

describe('[work order rows] time', () => {
  it('reports time as start–end and as hours and minutes, with travel and distance', async () => {
    const id = await newOrder();
    const span = await saveTime(
      {
        workOrderId: id,
        startTs: '2026-03-05T07:30:00.000Z',
        endTs: '2026-03-05T11:45:00.000Z',
        travelMinutes: 30,
        distanceKm: '12,5',
        comment: 'Bytte detektor',
      },
      tok.tech,
    );
    const row = span.data.rows.find((r) => r.id === span.id)!;
    expect(row).toMatchObject({
      userId: ids.tech,
      userName: 'Tess Tekniker',
      date: '2026-03-05',
      startTs: '2026-03-05T07:30:00.000Z',
      endTs: '2026-03-05T11:45:00.000Z',
      workMinutes: 255,
      travelMinutes: 30,
      distanceKm: 12.5,
      comment: 'Bytte detektor',
      locked: false,
    });
    // the date follows the start in the tenant's zone (Stockholm): 23:30 UTC is the next day
    const late = await saveTime(
      { workOrderId: id, startTs: '2026-03-05T23:30:00Z', endTs: '2026-03-06T01:00:00Z' },
      tok.tech,
    );
    expect(late.data.rows.find((r) => r.id === late.id)!.date).toBe('2026-03-06');

    const hours = await saveTime(
      { workOrderId: id, date: '2026-03-06', hours: 2, minutes: 15, travelHours: 1 },
      tok.tech,
    );
    expect(hours.data.rows.find((r) => r.id === hours.id)).toMatchObject({
      date: '2026-03-06',
      startTs: null,
      endTs: null,
      workMinutes: 135,
      travelMinutes: 60,
    });
    expect(hours.data.totals).toEqual({ workMinutes: 255 + 90 + 135, travelMinutes: 90, distanceKm: 12.5 });
    // a technician without timereports_select reports only for themselves
    expect(hours.data.users).toEqual([{ id: ids.tech, name: 'Tess Tekniker' }]);
    expect(hours.data.canReport).toBe(true);

    // change a row: from span to hours
    const changed = await saveTime({ id: span.id, workOrderId: id, date: '2026-03-05', hours: 4 }, tok.tech);
    expect(changed.data.rows.find((r) => r.id === span.id)).toMatchObject({
      workMinutes: 240,
      startTs: null,
      travelMinutes: 0,
    });
    const get = await call('GET', `/api/wo/${id}/time`, tok.tech);
    expect(get.json<TimePanel>().rows).toHaveLength(3);
  });

  it('validates: end after start, at most 60 days, minutes 0–59, something reported', async () => {
    const id = await newOrder();
    const fields = async (body: Record<string, unknown>) => {
      const res = await putTime({ workOrderId: id, ...body });
      expect(res.status, res.text).toBe(400);
      return res.json<{ fields: Record<string, string[]> }>().fields;
    };
    expect(await fields({ startTs: '2026-03-05T10:00:00Z', endTs: '2026-03-05T09:00:00Z' })).toEqual({
      endTs: ['ERROR_END_BEFORE_START'],
    });
    expect(await fields({ startTs: '2026-01-01T00:00:00Z', endTs: '2026-03-05T00:00:00Z' })).toEqual({
      endTs: ['ERROR_TIME_SPAN_TOO_LONG'],
    });
    expect(await fields({ startTs: '2026-03-05T10:00:00Z' })).toEqual({ endTs: ['ERROR_REQUIRED_FIELD'] });
    expect(await fields({ hours: 1, minutes: 60 })).toEqual({ minutes: ['ERROR_MINUTES_RANGE'] });
    expect(await fields({ hours: 0, minutes: 0 })).toEqual({ hours: ['ERROR_REQUIRED_FIELD'] });
    expect(await fields({ hours: 1, distanceKm: -2 })).toEqual({ distanceKm: ['ERROR_NEGATIVE_AMOUNT'] });
  });

  it("needs workorders:timereports_select for another user's time (403) and workorders:report at all", async () => {
    const id = await newOrder();
    const denied = await putTime({ workOrderId: id, userId: ids.admin, hours: 1 }, tok.tech);
    expect(denied.status).toBe(403);
    expect(denied.json<{ code: string }>().code).toBe('WARNING_PERMISSION_DENIED');
    expect((await putTime({ workOrderId: id, hours: 1 }, tok.reader)).status).toBe(403);

    // the admin may report for the technician, and sees every active user to pick from
    const forTech = await saveTime({ workOrderId: id, userId: ids.tech, hours: 1 });
    expect(forTech.data.rows[0]).toMatchObject({ userId: ids.tech, workMinutes: 60 });
    expect(forTech.data.users.map((u) => u.id)).toEqual(expect.arrayContaining([ids.admin, ids.tech, ids.reader]));
    // …but the technician cannot change or delete the admin's own row
    const adminRow = await saveTime({ workOrderId: id, hours: 2 });
    expect((await putTime({ id: adminRow.id, workOrderId: id, hours: 3 }, tok.tech)).status).toBe(403);
    expect((await call('DELETE', `/api/wo/time/${adminRow.id}`, tok.tech)).status).toBe(403);
    // an unknown user is a field error
    const unknown = await putTime({ workOrderId: id, userId: '00000000-0000-4000-8000-000000000000', hours: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.json<{ fields: Record<string, string[]> }>().fields).toEqual({ userId: ['ERROR_INVALID_VALUE'] });
  });

  it('refuses to change or delete a locked time row (409 TIME_REPORT_LOCKED)', async () => {
    const id = await newOrder();
    const saved = await saveTime({ workOrderId: id, hours: 1 }, tok.tech);
    await withTenant(tenantA, (trx) => trx('work_order_time').where({ id: saved.id }).update({ locked: true }));
    const put = await putTime({ id: saved.id, workOrderId: id, hours: 2 }, tok.tech);
    expect(put.status).toBe(409);
    expect(put.json<{ code: string }>().code).toBe('TIME_REPORT_LOCKED');
    const del = await call('DELETE', `/api/wo/time/${saved.id}`, tok.admin);
    expect(del.status).toBe(409);
    expect(del.json<{ code: string }>().code).toBe('TIME_REPORT_LOCKED');
    const get = await call('GET', `/api/wo/${id}/time`, tok.tech);
    expect(get.json<TimePanel>().rows).toEqual([
      expect.objectContaining({ id: saved.id, workMinutes: 60, locked: true }),
    ]);
  });

  it('locks time before the locked period on the settings day; the order cannot be deleted with it', async () => {
    const settings = (body: Record<string, unknown>) => call('PATCH', '/api/instance/wo', tok.admin, body);
    const tooLate = await settings({ timeLockDay: 32 });
    expect(tooLate.status).toBe(400);
    expect(tooLate.json<{ fields: Record<string, string[]> }>().fields.timeLockDay).toEqual(['ERROR_INVALID_VALUE']);
    // day 1: from the first of every month, everything before it is locked
    expect((await settings({ timeLockDay: 1 })).status).toBe(200);
    try {
      // the tenant's month, as the lock rule reads it: its first day in Stockholm, not in UTC (at
      // 23:00 UTC on a month's last day Stockholm is in the next month already)
      const first = `${tenantToday({ tenant: tenantA, now: new Date() }).slice(0, 7)}-01`;
      const lastMonth = new Date(Date.parse(`${first}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      const id = await newOrder();
      const ok = await saveTime({ workOrderId: id, date: first, hours: 1 });
      const into = await putTime({ workOrderId: id, date: lastMonth, hours: 1 });
      expect(into.status).toBe(409);
      expect(into.json<{ code: string }>().code).toBe('TIME_REPORT_LOCKED');
      // a row that was reported before the period locked is locked now
      await withTenant(tenantA, (trx) => trx('work_order_time').where({ id: ok.id }).update({ date: lastMonth }));
      const get = await call('GET', `/api/wo/${id}/time`, tok.admin);
      expect(get.json<TimePanel>().rows).toEqual([expect.objectContaining({ id: ok.id, locked: true })]);
      expect((await putTime({ id: ok.id, workOrderId: id, hours: 2 })).status).toBe(409);
      const del = await call('DELETE', `/api/wo/${id}`, tok.admin);
      expect(del.status).toBe(409);
      expect(del.json<{ code: string }>().code).toBe('WORK_ORDER_HAS_LOCKED_TIME_REPORTS');
    } finally {
      expect((await settings({ timeLockDay: '' })).status).toBe(200);
    }
  });

  it('deletes a row and writes edit history with field "time"', async () => {
    const id = await newOrder();
    const saved = await saveTime({ workOrderId: id, date: '2026-03-05', hours: 1, minutes: 30 }, tok.tech);
    const del = await call('DELETE', `/api/wo/time/${saved.id}`, tok.tech);
    expect(del.status, del.text).toBe(200);
    expect(del.json<TimePanel>().rows).toEqual([]);
    const rows = (await history(id)).filter((h) => h.action === 'edit');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.data).toEqual({
      changes: [{ field: 'time', old: expect.objectContaining({ workMinutes: 90, date: '2026-03-05' }), new: null }],
    });
    expect(rows[1]!.data).toEqual({
      changes: [
        { field: 'time', old: null, new: expect.objectContaining({ userName: 'Tess Tekniker', workMinutes: 90 }) },
      ],
    });
    expect((await call('DELETE', `/api/wo/time/${saved.id}`, tok.tech)).status).toBe(404);
  });

  it("refuses time on a closed order (409) and answers 404 for another tenant's order or row", async () => {
    const id = await newOrder();
    const saved = await saveTime({ workOrderId: id, hours: 1 });
    await withTenant(tenantA, (trx) => trx('work_orders').where({ id }).update({ closed_at: new Date() }));
    const closed = await putTime({ workOrderId: id, hours: 1 });
    expect(closed.status).toBe(409);
    expect(closed.json<{ code: string }>().code).toBe('WORK_ORDER_CLOSED');
    expect((await call('DELETE', `/api/wo/time/${saved.id}`, tok.admin)).status).toBe(409);
    expect((await call('GET', `/api/wo/${id}/time`, tok.admin)).json<TimePanel>().canReport).toBe(false);

    expect((await call('GET', `/api/wo/${id}/time`, tok.adminB, undefined, b.host)).status).toBe(404);
    expect((await call('PUT', '/api/wo/time', tok.adminB, { workOrderId: id, hours: 1 }, b.host)).status).toBe(404);
    expect((await call('DELETE', `/api/wo/time/${saved.id}`, tok.adminB, undefined, b.host)).status).toBe(404);
  });
});

describe('[work order rows] the order screen routes /work-orders/:id/articles and /time', () => {
  type Json = Record<string, unknown>;
  /** Runs a route's action as React Router would, after the i18n middleware. */
  async function runAction(
    action: typeof articlesRouteAction | typeof timeRouteAction,
    path: 'articles' | 'time',
    token: string,
    id: string,
    form: Record<string, string>,
  ): Promise<{ status: number; body: Json }> {
    const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
    const context = new RouterContextProvider();
    context.set(tenantContext, tenantA);
    context.set(authContext, auth);
    context.set(requestContext, { ip: null, requestId: 'test', token });
    const url = `http://${a.host}/work-orders/${id}/${path}`;
    const body = new FormData();
    for (const [k, v] of Object.entries(form)) body.append(k, v);
    const request = new Request(url, { method: 'POST', body });
    let answer: unknown;
    await i18nextMiddleware({ request, context, params: { id }, url: new URL(url), pattern: '' } as never, async () => {
      answer = await action({ request, context, params: { id } } as never);
      return new Response(null);
    });
    const r = answer as { data?: Json; init?: { status?: number } | null };
    return { status: r.init?.status ?? 200, body: r.data as Json };
  }

  it("gives a new row the customer's default, group and price-list discount when the panel sends none typed, and clears a kept row's", async () => {
    // issue 11: the panel sends `discount: ''` for a row the person did not type a discount on
    const groupCustomer = await withTenant(tenantA, async (trx) => {
      const id = await insert(trx, 'customers', { name: 'Brf Kornet', customer_id: 'K3', default_discount: '5' });
      await trx('customer_article_group_discounts').insert({
        customer_id: id,
        article_group_id: ids.larm,
        discount_type: 'PERCENTAGE',
        discount_value: '15',
      });
      return id;
    });
    const res = await call('POST', '/api/wo', tok.admin, {
      workOrder: { title: 'Rabatter', customerId: groupCustomer },
    });
    const id = res.json<{ workOrder: { id: string } }>().workOrder.id;
    const saved = await runAction(articlesRouteAction, 'articles', tok.admin, id, {
      rows: JSON.stringify([
        { articleId: ids.detector, amount: '1', discount: '' }, // LARM group: 15 %
        { articleId: ids.cable, amount: '10', discount: '' }, // the customer's default: 5 %
      ]),
    });
    expect(saved.status).toBe(200);
    const rows = (saved.body.data as ArticlesPanel).rows;
    expect(rows.map((r) => [r.title, r.discount, r.total])).toEqual([
      ['Rörelsedetektor', '15%', '850.00'],
      ['Kabel', '5%', '118.75'],
    ]);
    // the contract customer's price list reaches the row the same way
    const listed = await newOrder();
    const panel = await saveArticles(listed, [{ articleId: ids.detector, amount: 1, discount: '' }]);
    expect(panel.rows.map((r) => [r.discount, r.total])).toEqual([['10%', '900.00']]);
    // erasing the discount of a kept row clears it; sending nothing keeps it
    const kept = await saveArticles(listed, [{ id: panel.rows[0]!.id, amount: 1 }]);
    expect(kept.rows[0]!.discount).toBe('10%');
    const cleared = await saveArticles(listed, [{ id: panel.rows[0]!.id, amount: 1, discount: '' }]);
    expect(cleared.rows.map((r) => [r.discount, r.total])).toEqual([['', '1000.00']]);
  });

  it('saves article rows posted as JSON and answers field errors by row', async () => {
    const id = await newOrder();
    const saved = await runAction(articlesRouteAction, 'articles', tok.tech, id, {
      rows: JSON.stringify([{ articleId: ids.detector, amount: '2' }, { amount: '1' }]),
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ ok: true, data: { totals: { net: '1800.00', purchase: null } } });
    expect((saved.body.data as ArticlesPanel).rows).toHaveLength(1);

    const negative = await runAction(articlesRouteAction, 'articles', tok.tech, id, {
      rows: JSON.stringify([{ articleId: ids.detector, amount: '-2' }]),
    });
    expect(negative).toEqual({
      status: 400,
      body: { code: 'VALIDATION_FAILED', fields: { 'rows.0.amount': ['AMOUNT_CANT_BE_NEGATIVE'] }, usedBy: undefined },
    });
    const broken = await runAction(articlesRouteAction, 'articles', tok.tech, id, { rows: '[{' });
    expect(broken).toMatchObject({ status: 400, body: { fields: { rows: ['ERROR_INVALID_VALUE'] } } });
  });

  it("takes start and end as wall-clock time in the tenant's zone, hours and minutes, and deletes", async () => {
    const id = await newOrder();
    const span = await runAction(timeRouteAction, 'time', tok.tech, id, {
      intent: 'save',
      mode: 'span',
      start: '2026-03-05T08:30',
      end: '2026-03-05T12:00',
      // ignored in span mode
      hours: '9',
      distanceKm: '7,5',
    });
    expect(span.status).toBe(200);
    const rows = (span.body.data as TimePanel).rows;
    expect(rows).toEqual([
      expect.objectContaining({
        date: '2026-03-05',
        startTs: '2026-03-05T07:30:00.000Z',
        endTs: '2026-03-05T11:00:00.000Z',
        workMinutes: 210,
        distanceKm: 7.5,
      }),
    ]);

    const hours = await runAction(timeRouteAction, 'time', tok.tech, id, {
      intent: 'save',
      mode: 'hours',
      id: rows[0]!.id,
      date: '2026-03-06',
      hours: '1',
      minutes: '45',
      start: '2026-03-05T08:30',
    });
    expect((hours.body.data as TimePanel).rows).toEqual([
      expect.objectContaining({ id: rows[0]!.id, date: '2026-03-06', startTs: null, workMinutes: 105 }),
    ]);

    const invalid = await runAction(timeRouteAction, 'time', tok.tech, id, {
      intent: 'save',
      mode: 'span',
      start: '2026-03-05T12:00',
      end: '2026-03-05T08:00',
    });
    expect(invalid).toMatchObject({ status: 400, body: { fields: { endTs: ['ERROR_END_BEFORE_START'] } } });

    await withTenant(tenantA, (trx) => trx('work_order_time').where({ id: rows[0]!.id }).update({ locked: true }));
    const locked = await runAction(timeRouteAction, 'time', tok.tech, id, { intent: 'delete', id: rows[0]!.id });
    expect(locked).toMatchObject({ status: 409, body: { code: 'TIME_REPORT_LOCKED' } });
    await withTenant(tenantA, (trx) => trx('work_order_time').where({ id: rows[0]!.id }).update({ locked: false }));
    const deleted = await runAction(timeRouteAction, 'time', tok.tech, id, { intent: 'delete', id: rows[0]!.id });
    expect(deleted).toMatchObject({ status: 200, body: { ok: true, intent: 'delete', data: { rows: [] } } });
  });
});

describe('[work-order rows] input declared at the boundary (issue 29)', () => {
  it('refuses a malformed body with 400 and the field, and /api/openapi.json shows the shapes', async () => {
    const id = await newOrder('Gränsen');
    const notRows = await call('PUT', `/api/wo/${id}/articles`, tok.admin, { rows: 'alla' });
    expect(notRows.status).toBe(400);
    expect(notRows.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { rows: ['ERROR_INVALID_VALUE'] } });
    const minutes = await putTime({ workOrderId: id, hours: 1, minutes: 75 });
    expect(minutes.status).toBe(400);
    expect(minutes.json().fields).toEqual({ minutes: ['ERROR_MINUTES_RANGE'] });

    const doc = (await call('GET', '/api/openapi.json')).json();
    const articles = doc.paths['/wo/{id}/articles'].put;
    expect(articles.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    const body = articles.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(['rows']);
    expect(body.properties.rows).toMatchObject({ type: 'array', maxItems: 1000 });
    const time = doc.paths['/wo/time'].put.requestBody.content['application/json'].schema;
    expect(time.required).toEqual(['workOrderId']);
  });
});
