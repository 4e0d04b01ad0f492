import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { parseCsv } from '~/core/import-export/csv';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { readPaxml } from '~/tests/helpers/paxml-reader';

/*
 * Issue 28 item 2, "Payroll pays impossible hours": a locked month of two technicians. Olle's
 * month is approved but he has no ERP employee number; Petra's is not approved. The export is
 * refused (409) naming Olle — never Olle's user id in the file — and Petra is named on the preview
 * as not approved. Once Olle has his number, the PAXml holds him alone, with his hours computed by
 * hand: worked time is the larger of own work and work-order time per day, plus absence.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let t: TestTenant;
let tenant: Tenant;
let admin: string;
const ids = {} as Record<'olle' | 'petra' | 'order', string>;
const { signIn, call } = testApi(() => ({ url: srv.url, host: t.host }));

const MONTH = '2026-04';
const exportPath = (format: string) => `/api/timereports/payroll/export?month=${MONTH}&format=${format}`;

beforeAll(async () => {
  srv = await startTestServer();
  t = await createTestTenant('pay-appr');
  tenant = (await getTenantBySlug(t.slug))!;
  admin = await signIn(t, t.adminEmail);
  const order = await call('POST', '/api/wo', admin, { workOrder: { title: 'Service passage' } });
  expect(order.status, order.text).toBe(200);
  ids.order = order.json<{ workOrder: { id: string } }>().workOrder.id;

  await withTenant(tenant, async (trx) => {
    ids.olle = ((await trx('users').where({ email: t.technicianEmail }).first('id')) as { id: string }).id;
    await trx('users').where({ id: ids.olle }).update({ name: 'Olle Tekniker', erp_employee_id: null });
    ids.petra = (
      (await trx('users')
        .insert({ email: `petra@${t.slug}.se`, name: 'Petra Tekniker', erp_employee_id: '2002' })
        .returning('id')) as { id: string }[]
    )[0]!.id;
    const tags = Object.fromEntries(
      ((await trx('time_report_tags').select('id', 'code')) as { id: string; code: string }[]).map((r) => [
        r.code,
        r.id,
      ]),
    );
    const own = (user_id: string, code: string, date: string, minutes: number) => ({
      user_id,
      tag_id: tags[code],
      date,
      minutes,
    });
    await trx('time_reports').insert([
      // Olle, 1 April: 8 h own work, 10 h work + 1 h travel on the order → 11 h worked
      own(ids.olle, 'ARB', '2026-04-01', 480),
      // 2 April: 5 h own work, 2 h of it on the order → 5 h
      own(ids.olle, 'ARB', '2026-04-02', 300),
      // 3 April: vacation, and 1.5 h + 15 min on the order in the evening → 8 h absence, 1.75 h worked
      own(ids.olle, 'SEM', '2026-04-03', 480),
      // Petra's time is not approved: not in the file
      own(ids.petra, 'ARB', '2026-04-01', 480),
      own(ids.petra, 'VAB', '2026-04-02', 480),
    ]);
    const onOrder = (user_id: string, date: string, work_minutes: number, travel_minutes: number) => ({
      work_order_id: ids.order,
      user_id,
      date,
      work_minutes,
      travel_minutes,
    });
    await trx('work_order_time').insert([
      onOrder(ids.olle, '2026-04-01', 600, 60),
      onOrder(ids.olle, '2026-04-02', 120, 0),
      onOrder(ids.olle, '2026-04-03', 90, 15),
      onOrder(ids.petra, '2026-04-01', 240, 30),
    ]);
    await trx.raw(`insert into time_period_locks (month, locked) values ('2026-04-01', true)`);
  });

  // The office approves Olle's April, as the month view's button does; Petra's waits.
  const approved = await call('POST', '/api/timereports/parent', admin, {
    userId: ids.olle,
    periodStart: '2026-04-01',
    periodEnd: '2026-04-30',
    status: 'approved',
  });
  expect(approved.status, approved.text).toBe(200);
}, 120_000);
afterAll(() => srv.close());

describe('[payroll] only approved time, by employee number', () => {
  it('previews only the approved person and names the rest as not approved', async () => {
    const res = await call('GET', `/api/timereports/payroll?month=${MONTH}`, admin);
    expect(res.status, res.text).toBe(200);
    const preview = res.json<Json>();
    expect((preview.people as Json[]).map((p) => [p.name, p.employeeNumber, p.totals.workHours])).toEqual([
      ['Olle Tekniker', null, 17.75],
    ]);
    expect(preview.totals).toMatchObject({ people: 1, workHours: 17.75, absenceHours: 8 });
    expect(preview.notApproved).toEqual([{ userId: ids.petra, name: 'Petra Tekniker' }]);
    expect(preview.missingEmployeeNumbers).toEqual([{ userId: ids.olle, name: 'Olle Tekniker' }]);
  });

  it('refuses the export while the approved person has no employee number (409, naming him)', async () => {
    for (const format of ['paxml', 'csv']) {
      const res = await call('GET', exportPath(format), admin);
      expect(res.status, res.text).toBe(409);
      expect(res.json<Json>()).toEqual({
        code: 'PAYROLL_EMPLOYEE_NUMBER_MISSING',
        people: [{ userId: ids.olle, name: 'Olle Tekniker' }],
      });
      expect(res.text).not.toContain('Petra');
    }
  });

  it('exports the approved person alone with his employee number and hand-computed hours', async () => {
    await withTenant(tenant, (trx) => trx('users').where({ id: ids.olle }).update({ erp_employee_id: '2001' }));

    const res = await call('GET', exportPath('paxml'), admin);
    expect(res.status, res.text).toBe(200);
    const doc = readPaxml(res.text).paxml as Json;
    const time = (doc.tidtransaktioner.tidtrans as Json[]).map((x) => [x['@anstid'], x.tidkod, x.datum, x.timmar]);
    expect(time).toEqual([
      // 1 April: max(own 8 h, order 10 h + 1 h) = 11 h — own 8 h, and the order's 2 h work and 1 h travel beyond it
      ['2001', 'ARB', '2026-04-01', '10'],
      ['2001', 'RE1', '2026-04-01', '1'],
      // 2 April: max(own 5 h, order 2 h) = 5 h
      ['2001', 'ARB', '2026-04-02', '5'],
      // 3 April: no own work, so the order's 1.5 h + 0.25 h, and the vacation day
      ['2001', 'ARB', '2026-04-03', '1.5'],
      ['2001', 'RE1', '2026-04-03', '0.25'],
      ['2001', 'SEM', '2026-04-03', '8'],
    ]);
    expect(res.text).not.toContain('2002');
    expect(res.text).not.toContain(ids.olle);
    expect(res.text).not.toContain(ids.petra);

    const csv = await call('GET', exportPath('csv'), admin);
    expect(csv.status, csv.text).toBe(200);
    const [, ...rows] = parseCsv(csv.text, ';');
    expect(new Set(rows.map((r) => `${r[0]} ${r[1]}`))).toEqual(new Set(['2001 Olle Tekniker']));
  });

  it('takes the second person once her month is approved too', async () => {
    const approved = await call('POST', '/api/timereports/parent', admin, {
      userId: ids.petra,
      periodStart: '2026-04-01',
      periodEnd: '2026-04-30',
      status: 'approved',
    });
    expect(approved.status, approved.text).toBe(200);
    const preview = (await call('GET', `/api/timereports/payroll?month=${MONTH}`, admin)).json<Json>();
    expect(preview.notApproved).toEqual([]);
    // Petra, 1 April: max(own 8 h, order 4 h + 0.5 h) = 8 h; 2 April VAB 8 h
    expect((preview.people as Json[]).map((p) => [p.name, p.totals.workHours, p.totals.absenceHours])).toEqual([
      ['Olle Tekniker', 17.75, 8],
      ['Petra Tekniker', 8, 8],
    ]);
  });
});
