import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('hol-a');
  b = await createTestTenant('hol-b');
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

const PATH = '/api/timereports/conf/holidays';

describe('company holidays', () => {
  it('adds, lists by year, renames and deletes; one per date; the board shows them', async () => {
    const add = await call('POST', PATH, tok.admin, { date: '2026-12-25', name: 'Juldagen' });
    expect(add.status, add.text).toBe(200);
    const { holiday } = add.json<{ holiday: { id: string; date: string; name: string } }>();
    expect(holiday).toMatchObject({ date: '2026-12-25', name: 'Juldagen' });
    await call('POST', PATH, tok.admin, { date: '2027-01-01', name: 'Nyårsdagen' });

    const again = await call('POST', PATH, tok.admin, { date: '2026-12-25', name: 'Igen' });
    expect(again.status).toBe(409);
    expect(again.json<{ code: string }>().code).toBe('DUPLICATE_COMPANY_HOLIDAY');

    const bad = await call('POST', PATH, tok.admin, { date: '2026-02-30', name: '' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json<{ fields: Record<string, string[]> }>().fields).sort()).toEqual(['date', 'name']);

    const list = await call('GET', `${PATH}?year=2026`, tok.tech);
    expect(list.json<{ holidays: { name: string }[] }>().holidays.map((h) => h.name)).toEqual(['Juldagen']);

    const board = await call('GET', '/api/wo/calendar?period=month&date=2026-12-01', tok.admin);
    expect(board.json<{ holidays: unknown[] }>().holidays).toEqual([{ date: '2026-12-25', name: 'Juldagen' }]);

    const renamed = await call('PUT', PATH, tok.admin, { id: holiday.id, date: '2026-12-25', name: 'Juldag' });
    expect(renamed.json<{ holiday: { name: string } }>().holiday.name).toBe('Juldag');
    expect((await call('PUT', PATH, tok.admin, { id: holiday.id, date: '2027-01-01', name: 'Krock' })).status).toBe(
      409,
    );

    expect((await call('DELETE', `${PATH}/${holiday.id}`, tok.adminB, undefined, b.host)).status).toBe(404);
    expect((await call('DELETE', `${PATH}/${holiday.id}`, tok.admin)).status).toBe(200);
    expect((await call('DELETE', `${PATH}/${holiday.id}`, tok.admin)).status).toBe(404);
    expect((await call('GET', `${PATH}?year=2026`, tok.admin)).json<{ holidays: unknown[] }>().holidays).toEqual([]);
  });

  it('only instance:edit changes them', async () => {
    expect((await call('POST', PATH, tok.tech, { date: '2026-06-19', name: 'Midsommarafton' })).status).toBe(403);
  });
});
