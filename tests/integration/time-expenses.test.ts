/**
 * Issue 17, part 2: trips (odometer chains and kilometres), compensations priced by their tag,
 * receipts, the compensation tags, who may read and write whose rows, month locks, the distance
 * module, and another tenant's ids — through the API.
 */
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import * as settingsRoute from '~/app/routes/settings.compensation-types';
import * as expensesRoute from '~/app/routes/time.expenses';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { weekExpenses } from '~/core/time-reports/expenses-week.service';
import { inTenant, sessionPolicy } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { request } from '~/tests/helpers/http';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
const tok = {} as Record<'admin' | 'tech' | 'editor' | 'reader' | 'nobody' | 'adminB', string>;
const ids = {} as Record<'admin' | 'tech' | 'editor' | 'reader' | 'adminB', string>;
const tag = {} as Record<string, string>;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

async function sql(t: TestTenant, text: string, bindings: unknown[] = []) {
  const tenant = await getTenantBySlug(t.slug);
  return withTenant(
    tenant!,
    async (trx) => (await trx.raw(text, bindings as never[])).rows as Record<string, unknown>[],
  );
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('exp-a');
  b = await createTestTenant('exp-b');
  await withTenant((await getTenantBySlug(a.slug))!, async (trx) => {
    await trx('access_levels').insert([
      // writes anyone's rows, reads only their own
      { display_name: 'Löneredigerare', description: '', permissions: ['timereports:edit'], work_order_limit: 'none' },
      // reads anyone's trips and compensations, writes none of theirs
      {
        display_name: 'Reseläsare',
        description: '',
        permissions: ['distancereports:read', 'compensationreports:read'],
        work_order_limit: 'none',
      },
      { display_name: 'Ingen tid', description: '', permissions: ['workorders:read'], work_order_limit: 'none' },
    ]);
    for (const [email, level] of [
      ['editor', 'Löneredigerare'],
      ['reader', 'Reseläsare'],
      ['nobody', 'Ingen tid'],
    ] as const)
      await ensureUser(trx, { email: `${email}@${a.slug}.se`, name: email, password: PASSWORD, accessLevels: [level] });
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.editor = await signIn(a, `editor@${a.slug}.se`);
  tok.reader = await signIn(a, `reader@${a.slug}.se`);
  tok.nobody = await signIn(a, `nobody@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
  const users = await sql(a, `select id, email from users`);
  const idOf = (email: string) => users.find((u) => u.email === email)!.id as string;
  ids.admin = idOf(a.adminEmail);
  ids.tech = idOf(a.technicianEmail);
  ids.editor = idOf(`editor@${a.slug}.se`);
  ids.reader = idOf(`reader@${a.slug}.se`);
  ids.adminB = (await sql(b, `select id from users limit 1`))[0]!.id as string;
  for (const t of await sql(a, `select id, code from compensation_tags`)) tag[t.code as string] = t.id as string;
});
afterAll(() => srv.close());

const ok = async (method: string, path: string, token: string, body?: unknown) => {
  const res = await call(method, path, token, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(200);
  return res.json();
};
const fieldsOf = (res: { json: () => unknown }) => (res.json() as { fields: Record<string, string[]> }).fields;

type Trip = { id: string; readingKm: number | null; reportedDistanceKm: number; previousReadingKm: number | null };
const trip = async (token: string, body: Record<string, unknown>): Promise<Trip> =>
  (await ok('POST', '/api/timereports/distance', token, body)).distanceReport;

describe('[time] trips by odometer and by kilometres', () => {
  it('measures a reading from the previous one of the same vehicle; a lower one is refused', async () => {
    const first = await trip(tok.tech, { date: '2026-11-23', readingKm: '10 000' });
    expect(first).toMatchObject({ readingKm: 10000, reportedDistanceKm: 0, previousReadingKm: null, vehicle: '' });
    const second = await trip(tok.tech, { date: '2026-11-24', readingKm: '10050,5', comment: 'Kund i Solna' });
    expect(second).toMatchObject({ readingKm: 10050.5, reportedDistanceKm: 50.5, previousReadingKm: 10000 });
    // another vehicle has its own chain
    const van = await trip(tok.tech, {
      date: '2026-11-24',
      vehicle: ' abc 123 ',
      readingKm: 500,
      reportedDistanceKm: 12,
    });
    expect(van).toMatchObject({ vehicle: 'ABC 123', reportedDistanceKm: 12, previousReadingKm: null });

    const below = await call('POST', '/api/timereports/distance', tok.tech, { date: '2026-11-25', readingKm: 10_049 });
    expect(below.status).toBe(400);
    expect(fieldsOf(below)).toEqual({ readingKm: ['ERROR_READING_BELOW_PREVIOUS'] });
    // a reading entered for an earlier day is measured against that day's previous one
    const earlier = await call('POST', '/api/timereports/distance', tok.tech, { date: '2026-11-23', readingKm: 9_990 });
    expect(fieldsOf(earlier)).toEqual({ readingKm: ['ERROR_READING_BELOW_PREVIOUS'] });

    const last = await ok('POST', '/api/timereports/distance/last', tok.tech, {});
    expect(last.lastReading).toEqual({ readingKm: 500, date: '2026-11-24', vehicle: 'ABC 123' });
    const lastCar = await ok('POST', '/api/timereports/distance/last', tok.tech, { vehicle: '' });
    expect(lastCar.lastReading).toEqual({ readingKm: 10050.5, date: '2026-11-24', vehicle: '' });
  });

  it('a reading put between two recomputes the next trip; one above the next is refused; deleting re-links', async () => {
    const a1 = await trip(tok.admin, { date: '2026-11-02', readingKm: 1000 });
    const a3 = await trip(tok.admin, { date: '2026-11-04', readingKm: 1100 });
    expect(a3.reportedDistanceKm).toBe(100);
    const a2 = await trip(tok.admin, { date: '2026-11-03', readingKm: 1040 });
    expect(a2.reportedDistanceKm).toBe(40);
    const list = async () =>
      (await ok('GET', '/api/timereports/distance?startTime=2026-11-01&endTime=2026-11-05', tok.admin))
        .distanceReports as Trip[];
    expect((await list()).map((t) => t.reportedDistanceKm)).toEqual([0, 40, 60]);

    const above = await call('POST', '/api/timereports/distance', tok.admin, { date: '2026-11-03', readingKm: 1200 });
    expect(fieldsOf(above)).toEqual({ readingKm: ['ERROR_READING_ABOVE_NEXT'] });
    const moved = await call('PUT', '/api/timereports/distance', tok.admin, {
      id: a2.id,
      date: '2026-11-03',
      readingKm: 1101,
    });
    expect(fieldsOf(moved)).toEqual({ readingKm: ['ERROR_READING_ABOVE_NEXT'] });

    await ok('PUT', '/api/timereports/distance', tok.admin, { id: a2.id, date: '2026-11-03', readingKm: 1070 });
    expect((await list()).map((t) => t.reportedDistanceKm)).toEqual([0, 70, 30]);
    // the middle reading becomes kilometres: the last trip measures from the first again
    await ok('PUT', '/api/timereports/distance', tok.admin, { id: a2.id, date: '2026-11-03', reportedDistanceKm: 5 });
    expect((await list()).map((t) => t.reportedDistanceKm)).toEqual([0, 5, 100]);
    await ok('PUT', '/api/timereports/distance', tok.admin, { id: a2.id, date: '2026-11-03', readingKm: 1040 });
    await ok('DELETE', `/api/timereports/distance/${a2.id}`, tok.admin);
    expect((await list()).map((t) => t.reportedDistanceKm)).toEqual([0, 100]);
    expect((await list())[1]!.previousReadingKm).toBe(1000);
    // each recomputation of the last trip is in its history: 60, 30, 100, 60, 100
    const history = await sql(
      a,
      `select action from history where entity = 'distance_report' and entity_id = ? order by at`,
      [a3.id],
    );
    expect(history.map((h) => h.action)).toEqual(['add', 'edit', 'edit', 'edit', 'edit', 'edit']);
    expect((await list())[0]!.id).toBe(a1.id);
  });

  it('takes kilometres directly, one decimal, and requires one or the other', async () => {
    const direct = await trip(tok.tech, { date: '2026-11-26', reportedDistanceKm: '18,5' });
    expect(direct).toMatchObject({ readingKm: null, reportedDistanceKm: 18.5 });
    const twoDecimals = await call('POST', '/api/timereports/distance', tok.tech, {
      date: '2026-11-26',
      reportedDistanceKm: 1.25,
    });
    expect(fieldsOf(twoDecimals)).toEqual({ reportedDistanceKm: ['ERROR_INVALID_VALUE'] });
    const neither = await call('POST', '/api/timereports/distance', tok.tech, { date: '2026-11-26' });
    expect(fieldsOf(neither)).toEqual({ reportedDistanceKm: ['ERROR_REQUIRED_FIELD'] });
    const compensationTag = await call('POST', '/api/timereports/distance', tok.tech, {
      date: '2026-11-26',
      reportedDistanceKm: 3,
      tagId: tag['892'],
    });
    expect(fieldsOf(compensationTag)).toEqual({ tagId: ['ERROR_INVALID_VALUE'] });
    const paid = await trip(tok.tech, { date: '2026-11-26', reportedDistanceKm: 3, tagId: tag['821'] });
    expect(paid).toMatchObject({ tagCode: '821' });
  });

  it('lists the week with its days, total and last reading; a span over 60 days is refused', async () => {
    const week = await ok('GET', '/api/timereports/distance/week/2026/48', tok.tech);
    expect(week.days).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect(week.distanceReports.map((r: Trip) => r.reportedDistanceKm)).toEqual([0, 50.5, 12, 18.5, 3]);
    expect(week.totalKm).toBe(84);
    expect(week.lastReading).toMatchObject({ readingKm: 500 });
    expect((await call('GET', '/api/timereports/distance/week/2026/54', tok.tech)).status).toBe(400);

    const long = await call('GET', '/api/timereports/distance?startTime=2026-09-01&endTime=2026-11-30', tok.tech);
    expect(long.status).toBe(400);
    expect(fieldsOf(long)).toEqual({ endTime: ['ERROR_TIME_SPAN_TOO_LONG'] });
    expect(
      (await call('GET', '/api/timereports/distance?startTime=2026-10-01&endTime=2026-11-29', tok.tech)).status,
    ).toBe(200);
    expect(
      (await call('GET', '/api/timereports/distance?startTime=2026-10-01&endTime=2026-11-30', tok.tech)).status,
    ).toBe(400);
  });
});

type Compensation = {
  id: string;
  quantity: number;
  amount: number;
  tagCode: string;
  data: { receiptFileIds: string[] } & Record<string, unknown>;
  receipts: { id: string; name: string }[];
};
const compensate = async (token: string, body: Record<string, unknown>): Promise<Compensation> =>
  (await ok('POST', '/api/timereports/compensation', token, body)).compensationReport;

describe('[time] compensations', () => {
  it('prices distance and travel by the tag, takes an expense’s amount, and refuses what is missing', async () => {
    const mileage = await compensate(tok.tech, {
      tagId: tag['821'],
      date: '2026-11-24',
      data: { quantity: '123,4', amount: 1, purpose: 'Service Solna' },
    });
    expect(mileage).toMatchObject({ quantity: 123.4, amount: 308.5, tagCode: '821' });
    expect(mileage.data).toEqual({ quantity: 123.4, amount: 308.5, receiptFileIds: [], purpose: 'Service Solna' });
    const days = await compensate(tok.tech, { tagId: tag['811'], date: '2026-11-25', data: { quantity: 2 } });
    expect(days).toMatchObject({ quantity: 2, amount: 580 });
    const unpriced = await compensate(tok.tech, {
      tagId: tag['8118'],
      date: '2026-11-25',
      data: { quantity: 1, amount: 100 },
    });
    expect(unpriced).toMatchObject({ quantity: 1, amount: 100 });
    const expense = await compensate(tok.tech, {
      tagId: tag['892'],
      date: '2026-11-26',
      comment: 'Parkering',
      data: { amount: 123.45 },
    });
    expect(expense).toMatchObject({ quantity: 1, amount: 123.45 });

    const noAmount = await call('POST', '/api/timereports/compensation', tok.tech, {
      tagId: tag['892'],
      date: '2026-11-26',
      data: {},
    });
    expect(fieldsOf(noAmount)).toEqual({ 'data.amount': ['ERROR_REQUIRED_FIELD'] });
    const noKm = await call('POST', '/api/timereports/compensation', tok.tech, {
      tagId: tag['821'],
      date: '2026-11-26',
    });
    expect(fieldsOf(noKm)).toEqual({ 'data.quantity': ['ERROR_REQUIRED_FIELD'] });
    const noTag = await call('POST', '/api/timereports/compensation', tok.tech, {
      date: '2026-11-26',
      data: { amount: 1 },
    });
    expect(fieldsOf(noTag)).toEqual({ tagId: ['ERROR_REQUIRED_FIELD'] });

    const week = await ok('GET', '/api/timereports/week/compensation/2026/48', tok.tech);
    expect(week.compensationReports.map((r: Compensation) => r.amount)).toEqual([308.5, 580, 100, 123.45]);
    expect(week.totalAmount).toBe(1111.95);

    // the price is the tag's at the time of the change: an edit reprices
    await sql(a, `update compensation_tags set unit_price = 3 where code = '821'`);
    const repriced = (
      await ok('PUT', '/api/timereports/compensation', tok.tech, {
        id: mileage.id,
        tagId: tag['821'],
        date: '2026-11-24',
        data: { quantity: 10 },
      })
    ).compensationReport;
    expect(repriced).toMatchObject({ quantity: 10, amount: 30 });
    await sql(a, `update compensation_tags set unit_price = 2.5 where code = '821'`);
  });

  it('an inactive tag is refused for new reports but kept on the old ones', async () => {
    const kept = await compensate(tok.tech, { tagId: tag['8113'], date: '2026-11-27', data: { quantity: 1 } });
    await ok('PUT', '/api/timereports/conf/compensation/tags', tok.admin, {
      id: tag['8113'],
      code: '8113',
      type: 'travel',
      unitPrice: 145,
      active: false,
    });
    const refused = await call('POST', '/api/timereports/compensation', tok.tech, {
      tagId: tag['8113'],
      date: '2026-11-27',
      data: { quantity: 1 },
    });
    expect(fieldsOf(refused)).toEqual({ tagId: ['ERROR_TAG_INACTIVE'] });
    await ok('PUT', '/api/timereports/compensation', tok.tech, {
      id: kept.id,
      tagId: tag['8113'],
      date: '2026-11-27',
      comment: 'Halvdag',
      data: { quantity: 1 },
    });
    await ok('PUT', '/api/timereports/conf/compensation/tags', tok.admin, {
      id: tag['8113'],
      code: '8113',
      type: 'travel',
      unitPrice: 145,
      active: true,
    });
  });

  it('links uploaded receipts, only the person’s own, and deletes them with the report', async () => {
    const boundary = '----ordoreceipt';
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="kvitto.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = (token: string, query = '') =>
      request(srv.url, {
        method: 'POST',
        path: `/api/timereports/compensation/receipt${query}`,
        host: a.host,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(body.length),
        },
        body,
      });
    const up = await upload(tok.tech);
    expect(up.status, up.text).toBe(200);
    const [receipt] = up.json<{ files: { id: string; name: string }[] }>().files;
    expect(receipt).toMatchObject({ name: 'kvitto.pdf', contentType: 'application/pdf' });
    // someone else's receipts: only with timereports:edit
    expect((await upload(tok.tech, `?userId=${ids.admin}`)).status).toBe(403);
    const adminsUpload = await upload(tok.admin);
    const adminsReceipt = adminsUpload.json<{ files: { id: string }[] }>().files[0]!.id;

    const foreign = await call('POST', '/api/timereports/compensation', tok.tech, {
      tagId: tag['892'],
      date: '2026-11-27',
      data: { amount: 50, receiptFileIds: [adminsReceipt] },
    });
    expect(fieldsOf(foreign)).toEqual({ 'data.receiptFileIds': ['ERROR_INVALID_VALUE'] });
    const withReceipt = await compensate(tok.tech, {
      tagId: tag['892'],
      date: '2026-11-27',
      data: { amount: 50, receiptFileIds: [receipt!.id] },
    });
    expect(withReceipt.receipts).toEqual([
      { id: receipt!.id, name: 'kvitto.pdf', contentType: 'application/pdf', size: pdf.length },
    ]);
    const twice = await call('POST', '/api/timereports/compensation', tok.tech, {
      tagId: tag['892'],
      date: '2026-11-27',
      data: { amount: 50, receiptFileIds: [receipt!.id] },
    });
    expect(fieldsOf(twice)).toEqual({ 'data.receiptFileIds': ['ERROR_INVALID_VALUE'] });

    const download = await call('GET', `/api/timereports/compensation/receipt/${receipt!.id}`, tok.tech);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect((await call('GET', `/api/timereports/compensation/receipt/${adminsReceipt}`, tok.tech)).status).toBe(403);
    expect((await call('GET', `/api/timereports/compensation/receipt/${receipt!.id}`, tok.reader)).status).toBe(200);
    expect(
      (await call('GET', `/api/timereports/compensation/receipt/${receipt!.id}`, tok.adminB, undefined, b.host)).status,
    ).toBe(404);

    await ok('DELETE', `/api/timereports/compensation/${withReceipt.id}`, tok.tech);
    expect((await call('GET', `/api/timereports/compensation/receipt/${receipt!.id}`, tok.tech)).status).toBe(404);
    expect(await sql(a, `select id from files where id = ?`, [receipt!.id])).toEqual([]);
  });
});

describe('[time] who may see and change whose trips and compensations', () => {
  it('one’s own with timereports:read_own; another’s read with distance/compensation read, written with timereports:edit', async () => {
    const other = `?userId=${ids.tech}`;
    // the technician sees only their own
    expect((await call('GET', `/api/timereports/distance/week/2026/48?userId=${ids.admin}`, tok.tech)).status).toBe(
      403,
    );
    expect((await call('GET', `/api/timereports/week/compensation/2026/48?userId=${ids.admin}`, tok.tech)).status).toBe(
      403,
    );
    expect(
      (
        await call('POST', '/api/timereports/distance', tok.tech, {
          userId: ids.admin,
          date: '2026-11-27',
          reportedDistanceKm: 1,
        })
      ).status,
    ).toBe(403);
    // the reader reads the technician's, changes nothing of theirs
    expect(
      (await ok('GET', `/api/timereports/distance/week/2026/48${other}`, tok.reader)).distanceReports,
    ).toHaveLength(5);
    expect(
      (await ok('GET', `/api/timereports/week/compensation/2026/48${other}`, tok.reader)).compensationReports.length,
    ).toBeGreaterThan(0);
    expect(
      (
        await call('POST', '/api/timereports/distance', tok.reader, {
          userId: ids.tech,
          date: '2026-11-27',
          reportedDistanceKm: 1,
        })
      ).status,
    ).toBe(403);
    // and has no own rows to report: no timereports:read_own
    expect((await call('GET', '/api/timereports/distance/week/2026/48', tok.reader)).status).toBe(403);
    // the editor writes the technician's rows without reading the lists
    const written = await trip(tok.editor, { userId: ids.tech, date: '2026-11-27', reportedDistanceKm: 7 });
    expect(written).toMatchObject({ userId: ids.tech, reportedDistanceKm: 7 });
    expect((await call('GET', `/api/timereports/distance/week/2026/48${other}`, tok.editor)).status).toBe(403);
    const theirs = await compensate(tok.editor, {
      userId: ids.tech,
      tagId: tag['892'],
      date: '2026-11-27',
      data: { amount: 9 },
    });
    await ok('DELETE', `/api/timereports/compensation/${theirs.id}`, tok.editor);
    // the technician cannot change a row of the admin's by its id
    const adminsTrip = await trip(tok.admin, { date: '2026-11-27', reportedDistanceKm: 2 });
    expect((await call('DELETE', `/api/timereports/distance/${adminsTrip.id}`, tok.tech)).status).toBe(403);
    expect(
      (
        await call('PUT', '/api/timereports/distance', tok.tech, {
          id: adminsTrip.id,
          date: '2026-11-27',
          reportedDistanceKm: 3,
        })
      ).status,
    ).toBe(403);
    // without any time permission nothing opens
    expect((await call('GET', '/api/timereports/week/compensation/2026/48', tok.nobody)).status).toBe(403);
    expect((await call('GET', '/api/timereports/conf/compensation/tags', tok.nobody)).status).toBe(200);
  });

  it('another tenant’s ids and people are not found', async () => {
    const mine = await trip(tok.tech, { date: '2026-11-27', reportedDistanceKm: 4 });
    const comp = await compensate(tok.tech, { tagId: tag['892'], date: '2026-11-27', data: { amount: 4 } });
    const hostB = b.host;
    expect((await call('DELETE', `/api/timereports/distance/${mine.id}`, tok.adminB, undefined, hostB)).status).toBe(
      404,
    );
    expect(
      (
        await call(
          'PUT',
          '/api/timereports/distance',
          tok.adminB,
          { id: mine.id, date: '2026-11-27', reportedDistanceKm: 1 },
          hostB,
        )
      ).status,
    ).toBe(404);
    expect(
      (await call('DELETE', `/api/timereports/compensation/${comp.id}`, tok.adminB, undefined, hostB)).status,
    ).toBe(404);
    expect(
      (
        await call(
          'PUT',
          '/api/timereports/compensation',
          tok.adminB,
          { id: comp.id, tagId: tag['892'], date: '2026-11-27', data: { amount: 1 } },
          hostB,
        )
      ).status,
    ).toBe(404);
    // a tag of tenant A named in tenant B
    const tagB = await call(
      'POST',
      '/api/timereports/compensation',
      tok.adminB,
      { tagId: tag['892'], date: '2026-11-27', data: { amount: 1 } },
      hostB,
    );
    expect(fieldsOf(tagB)).toEqual({ tagId: ['ERROR_INVALID_VALUE'] });
    expect(
      (await call('DELETE', `/api/timereports/conf/compensation/tags/${tag['892']}`, tok.adminB, undefined, hostB))
        .status,
    ).toBe(404);
    // a person of tenant B named in tenant A
    expect((await call('GET', `/api/timereports/distance/week/2026/48?userId=${ids.adminB}`, tok.admin)).status).toBe(
      404,
    );
    expect(
      (
        await call('POST', '/api/timereports/compensation', tok.admin, {
          userId: ids.adminB,
          tagId: tag['892'],
          date: '2026-11-27',
          data: { amount: 1 },
        })
      ).status,
    ).toBe(404);
    expect((await call('DELETE', '/api/timereports/distance/not-an-id', tok.admin)).status).toBe(404);
  });

  it('trips need the distance module; compensations do not', async () => {
    await sql(a, `update app_modules set enabled = false where id = 'distance_reports'`);
    try {
      const week = await call('GET', '/api/timereports/distance/week/2026/48', tok.tech);
      expect(week.status).toBe(403);
      expect(week.json()).toEqual({ code: 'WARNING_PERMISSION_DENIED' });
      expect(
        (await call('POST', '/api/timereports/distance', tok.tech, { date: '2026-11-27', reportedDistanceKm: 1 }))
          .status,
      ).toBe(403);
      expect((await call('POST', '/api/timereports/distance/last', tok.tech, {})).status).toBe(403);
      expect((await call('GET', '/api/timereports/week/compensation/2026/48', tok.tech)).status).toBe(200);
    } finally {
      await sql(a, `update app_modules set enabled = true where id = 'distance_reports'`);
    }
  });
});

describe('[time] locked months', () => {
  it('refuse adding, changing and deleting trips and compensations, checking the old and the new date', async () => {
    const tripOct = await trip(tok.tech, { date: '2026-10-15', reportedDistanceKm: 10 });
    const compOct = await compensate(tok.tech, { tagId: tag['892'], date: '2026-10-15', data: { amount: 10 } });
    const tripNov = await trip(tok.tech, { date: '2026-11-27', reportedDistanceKm: 10 });
    const compNov = await compensate(tok.tech, { tagId: tag['892'], date: '2026-11-27', data: { amount: 10 } });
    await sql(a, `insert into time_period_locks (month, locked) values ('2026-10-01', true)`);
    try {
      const locked = async (method: string, path: string, body?: unknown) => {
        const res = await call(method, path, tok.tech, body);
        expect(res.status, `${method} ${path}`).toBe(409);
        expect(res.json<{ code: string }>().code).toBe('TIME_REPORT_LOCKED');
      };
      await locked('POST', '/api/timereports/distance', { date: '2026-10-20', reportedDistanceKm: 1 });
      await locked('POST', '/api/timereports/compensation', {
        tagId: tag['892'],
        date: '2026-10-20',
        data: { amount: 1 },
      });
      await locked('PUT', '/api/timereports/distance', { id: tripOct.id, date: '2026-11-27', reportedDistanceKm: 1 });
      await locked('PUT', '/api/timereports/distance', { id: tripNov.id, date: '2026-10-31', reportedDistanceKm: 1 });
      await locked('PUT', '/api/timereports/compensation', {
        id: compOct.id,
        tagId: tag['892'],
        date: '2026-11-27',
        data: { amount: 1 },
      });
      await locked('PUT', '/api/timereports/compensation', {
        id: compNov.id,
        tagId: tag['892'],
        date: '2026-10-31',
        data: { amount: 1 },
      });
      await locked('DELETE', `/api/timereports/distance/${tripOct.id}`);
      await locked('DELETE', `/api/timereports/compensation/${compOct.id}`);
      const list = await ok('GET', '/api/timereports/distance?startTime=2026-10-15&endTime=2026-10-15', tok.tech);
      expect(list.distanceReports.map((r: { locked: boolean }) => r.locked)).toEqual([true]);
      // November stays open
      await ok('DELETE', `/api/timereports/distance/${tripNov.id}`, tok.tech);
      await ok('DELETE', `/api/timereports/compensation/${compNov.id}`, tok.tech);
    } finally {
      await sql(a, `delete from time_period_locks where month = '2026-10-01'`);
    }
  });
});

describe('[settings] compensation types', () => {
  const PATH = '/api/timereports/conf/compensation/tags';

  it('lists the seeded codes, adds, edits, refuses a duplicate code, and deletes an unused one', async () => {
    const { tags } = await ok('GET', PATH, tok.tech);
    expect(tags.map((t: { code: string }) => t.code)).toEqual([
      '821',
      '822',
      '831',
      '8310',
      '832',
      '8320',
      '811',
      '8113',
      '8118',
      '892',
    ]);
    expect(tags[0]).toMatchObject({ code: '821', type: 'distance', unitPrice: 2.5, active: true, name: null });

    const added = (
      await ok('POST', PATH, tok.admin, {
        code: 'PARK',
        name: 'Parkering',
        type: 'expense',
        unitPrice: 12,
        payrollCode: '893',
      })
    ).tag;
    expect(added).toMatchObject({
      code: 'PARK',
      type: 'expense',
      unitPrice: null,
      payrollCode: '893',
      active: true,
      sortOrder: 21,
    });
    const dup = await call('POST', PATH, tok.admin, { code: 'park', type: 'expense' });
    expect(dup.status).toBe(409);
    expect(dup.json<{ code: string }>().code).toBe('DUPLICATE_COMPENSATION_TAG');
    const bad = await call('POST', PATH, tok.admin, { code: 'a b', type: 'other', unitPrice: '1,234' });
    expect(Object.keys(fieldsOf(bad)).sort()).toEqual(['code', 'type', 'unitPrice']);

    const edited = (await ok('PUT', PATH, tok.admin, { id: added.id, code: 'PARK', type: 'travel', unitPrice: '50,5' }))
      .tag;
    expect(edited).toMatchObject({ type: 'travel', unitPrice: 50.5, name: null });
    expect((await call('POST', PATH, tok.tech, { code: 'X1', type: 'expense' })).status).toBe(403);

    await ok('DELETE', `${PATH}/${added.id}`, tok.admin);
    expect((await call('DELETE', `${PATH}/${added.id}`, tok.admin)).status).toBe(404);
    const history = await sql(
      a,
      `select action from history where entity = 'compensation_tag' and entity_id = ? order by at`,
      [added.id],
    );
    expect(history.map((h) => h.action)).toEqual(['add', 'edit', 'delete']);
  });

  it('a tag in use is not deleted (409 IN_USE) and keeps its type; it can be set inactive', async () => {
    const res = await call('DELETE', `${PATH}/${tag['892']}`, tok.admin);
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ code: 'IN_USE', usedBy: { compensationReports: expect.any(Number) } });
    const typeChange = await call('PUT', PATH, tok.admin, { id: tag['892'], code: '892', type: 'travel' });
    expect(fieldsOf(typeChange)).toEqual({ type: ['ERROR_TYPE_IN_USE'] });
    const inactive = (await ok('PUT', PATH, tok.admin, { id: tag['892'], code: '892', type: 'expense', active: false }))
      .tag;
    expect(inactive.active).toBe(false);
    expect((await ok('GET', `${PATH}?active=1`, tok.tech)).tags.map((t: { code: string }) => t.code)).not.toContain(
      '892',
    );
    await ok('PUT', PATH, tok.admin, { id: tag['892'], code: '892', type: 'expense', active: true });
  });
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Handler = (args: never) => unknown;

async function authOf(token: string) {
  const tenant = (await getTenantBySlug(a.slug)) as Tenant;
  return { tenant, auth: await withTenant(tenant, (trx) => validateSession(trx, token, new Date(), sessionPolicy())) };
}

/** A loader or action run as React Router runs it: the session's auth, after the i18n middleware. */
async function runRoute(
  handler: Handler,
  token: string,
  url: string,
  form?: Record<string, string | string[]>,
): Promise<{ status: number; body: Json | undefined }> {
  const { tenant, auth } = await authOf(token);
  const context = new RouterContextProvider();
  context.set(tenantContext, tenant);
  context.set(authContext, auth);
  context.set(requestContext, { ip: null, requestId: 'test', token });
  const full = new URL(url, `http://${a.host}`);
  let body: FormData | undefined;
  if (form) {
    body = new FormData();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
  }
  const request = new Request(full, { method: body ? 'POST' : 'GET', body });
  let answer: unknown;
  await i18nextMiddleware({ request, context, params: {}, url: full, pattern: '' } as never, async () => {
    try {
      answer = await handler({ request, context, params: {} } as never);
    } catch (e) {
      answer = e;
    }
    return new Response(null);
  });
  const r = answer as { type?: string; data?: Json; init?: { status?: number } | null };
  if (r?.type === 'DataWithResponseInit') return { status: r.init?.status ?? 200, body: r.data };
  return { status: 200, body: answer as Json };
}

describe('[time] the panels’ resource route, the week’s loader helper and the settings page', () => {
  it('saves and deletes trips and compensations from the panels’ forms and answers the last reading', async () => {
    const action = expensesRoute.action as Handler;
    const km = await runRoute(action, tok.tech, '/time/expenses', {
      intent: 'saveDistance',
      userId: ids.tech,
      date: '2026-11-28',
      mode: 'km',
      readingKm: '99999',
      reportedDistanceKm: '12,5',
      vehicle: '',
      tagId: '',
      comment: 'Lördagsjour',
    });
    expect(km).toEqual({ status: 200, body: { ok: true, intent: 'saveDistance' } });
    const odometer = await runRoute(action, tok.tech, '/time/expenses', {
      intent: 'saveDistance',
      date: '2026-11-28',
      mode: 'reading',
      readingKm: '',
      reportedDistanceKm: '',
    });
    expect(odometer.status).toBe(400);
    expect(odometer.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { reportedDistanceKm: ['ERROR_REQUIRED_FIELD'] },
    });
    const expense = await runRoute(action, tok.tech, '/time/expenses', {
      intent: 'saveCompensation',
      userId: ids.tech,
      date: '2026-11-28',
      tagId: tag['892']!,
      quantity: '',
      amount: '45,50',
      comment: 'Färja',
      receiptFileIds: [],
    });
    expect(expense).toEqual({ status: 200, body: { ok: true, intent: 'saveCompensation' } });
    const refused = await runRoute(action, tok.tech, '/time/expenses', {
      intent: 'saveCompensation',
      userId: ids.admin,
      date: '2026-11-28',
      tagId: tag['892']!,
      amount: '1',
    });
    expect(refused).toMatchObject({ status: 403, body: { code: 'WARNING_PERMISSION_DENIED' } });

    const { tenant, auth } = await authOf(tok.tech);
    const week = await inTenant({ tenant, auth, lang: 'sv' }, (ctx) =>
      weekExpenses(ctx, { year: 2026, week: 48, userId: ids.tech }),
    );
    expect(week.distanceEnabled).toBe(true);
    expect(week.compensationEnabled).toBe(true);
    const saturday = week.distance.rows.find((r) => r.comment === 'Lördagsjour')!;
    expect(saturday).toMatchObject({ readingKm: null, reportedDistanceKm: 12.5 });
    expect(week.distance.canEdit).toBe(true);
    expect(week.distance.lastReading).toMatchObject({ readingKm: 500 });
    const ferry = week.compensation.rows.find((r) => r.comment === 'Färja')!;
    expect(ferry).toMatchObject({ amount: 45.5, tagCode: '892' });
    expect(week.compensation.tags.map((t) => t.code)).toContain('821');
    expect(week.compensation.totalAmount).toBe(
      week.compensation.rows.reduce((sum, r) => Math.round((sum + r.amount) * 100) / 100, 0),
    );

    // the technician looking at the admin's week sees neither part, and the page still opens
    const others = await inTenant({ tenant, auth, lang: 'sv' }, (ctx) =>
      weekExpenses(ctx, { year: 2026, week: 48, userId: ids.admin }),
    );
    expect(others).toMatchObject({ distanceEnabled: false, compensationEnabled: false });
    expect(others.distance.rows).toEqual([]);
    expect(others.compensation.canEdit).toBe(false);

    expect(
      (await runRoute(action, tok.tech, '/time/expenses', { intent: 'deleteDistance', id: saturday.id })).body,
    ).toEqual({ ok: true, intent: 'deleteDistance' });
    expect(
      (await runRoute(action, tok.tech, '/time/expenses', { intent: 'deleteCompensation', id: ferry.id })).body,
    ).toEqual({ ok: true, intent: 'deleteCompensation' });

    const last = await runRoute(expensesRoute.loader as Handler, tok.tech, '/time/expenses?vehicle=abc%20123');
    expect(last.body).toEqual({ lastReading: { readingKm: 500, date: '2026-11-24', vehicle: 'ABC 123' } });
  });

  it('the settings page lists the types, and offers to set a used one inactive when deleting it is refused', async () => {
    const page = await runRoute(settingsRoute.loader as Handler, tok.admin, '/settings/compensation-types');
    expect(page.body!.canEdit).toBe(true);
    expect(page.body!.tags).toHaveLength(10);
    const readOnly = await runRoute(settingsRoute.loader as Handler, tok.reader, '/settings/compensation-types');
    expect(readOnly.body!.canEdit).toBe(false);

    const action = settingsRoute.action as Handler;
    const used = await runRoute(action, tok.admin, '/settings/compensation-types', {
      intent: 'delete',
      id: tag['892']!,
    });
    expect(used).toMatchObject({
      status: 409,
      body: { code: 'IN_USE', usedBy: { compensationReports: expect.any(Number) } },
    });
    const off = await runRoute(action, tok.admin, '/settings/compensation-types', {
      intent: 'deactivate',
      id: tag['892']!,
    });
    expect(off.body).toEqual({ ok: true, intent: 'deactivate' });
    const on = await runRoute(action, tok.admin, '/settings/compensation-types', {
      intent: 'activate',
      id: tag['892']!,
    });
    expect(on.body).toEqual({ ok: true, intent: 'activate' });
    const history = await sql(
      a,
      `select action from history where entity = 'compensation_tag' and entity_id = ? order by at`,
      [tag['892']],
    );
    expect(history.map((h) => h.action).slice(-2)).toEqual(['deactivate', 'activate']);

    const added = await runRoute(action, tok.admin, '/settings/compensation-types', {
      intent: 'save',
      id: '',
      code: '8119',
      name: '',
      type: 'travel',
      unitPrice: '72,50',
      payrollCode: '',
      active: 'true',
      sortOrder: '',
    });
    expect(added.body).toEqual({ ok: true, intent: 'save' });
    const [row] = await sql(a, `select unit_price::text as price, active from compensation_tags where code = '8119'`);
    expect(row).toEqual({ price: '72.50', active: true });
    expect(
      (await runRoute(action, tok.tech, '/settings/compensation-types', { intent: 'delete', id: tag['892']! })).status,
    ).toBe(403);
  });
});
