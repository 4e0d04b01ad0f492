import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'nobody', string>;
const id = {} as Record<string, string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const create = async (workOrder: Record<string, unknown>) => {
  const res = await call('POST', '/api/wo', tok.admin, { workOrder });
  expect(res.status, res.text).toBe(200);
  return res.json().workOrder.id as string;
};

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('wol-a');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    const [d1, d2] = await trx('departments')
      .insert([{ name: 'Väst' }, { name: 'Öst' }])
      .returning('id');
    Object.assign(id, { d1: d1.id, d2: d2.id });
    await trx('access_levels').insert({
      display_name: 'Ingenting',
      permissions: ['customers:read'],
      work_order_limit: 'none',
    });
    await ensureUser(trx, {
      email: `nobody@${a.slug}.se`,
      name: 'Nils Ingen',
      password: PASSWORD,
      accessLevels: ['Ingenting'],
    });
    id.u2 = (await ensureUser(trx, { email: `ulf@${a.slug}.se`, name: 'Ulf Östman', accessLevels: [] })).id;
    id.admin = (await trx('users').where({ email: a.adminEmail }).first('id')).id;
    id.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    await trx('users').where({ id: id.tech }).update({ department_id: d1.id });
    await trx('users').where({ id: id.u2 }).update({ department_id: d2.id });
    const [priv, comp] = await trx('customers')
      .insert([
        { customer_id: '20001', name: 'Sven Svensson', type: 'private' },
        { customer_id: '20002', name: 'Mälardalens Fastigheter AB', type: 'company' },
      ])
      .returning('id');
    Object.assign(id, { priv: priv.id, comp: comp.id });
    const [bo] = await trx('business_objects')
      .insert({ serial_code: 'SER-7788', customer_id: comp.id })
      .returning('id');
    id.bo = bo.id;
    const [tA, tB] = await trx('tags')
      .insert([
        { name: 'Larm', color: '#dc2626' },
        { name: 'Kamera', color: '#2563eb' },
      ])
      .returning('id');
    Object.assign(id, { tA: tA.id, tB: tB.id });
    const statuses = await trx('work_order_statuses').select('id', 'name');
    id.wip = statuses.find((s) => s.name === 'Pågående').id;
    id.done = statuses.find((s) => s.name === 'Klar').id;
    const types = await trx('work_types').select('id', 'name');
    id.install = types.find((t) => t.name === 'Installation').id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.nobody = await signIn(a, `nobody@${a.slug}.se`);

  id.o1 = await create({
    title: 'Inbrottslarm kontor',
    customerId: id.comp,
    businessObjectId: id.bo,
    tags: [id.tA],
    assignees: [id.tech],
    plannedStart: '2026-12-01T07:00:00Z',
    street: 'Solvägen 3',
    city: 'Västerås',
  });
  id.o2 = await create({
    title: 'Kameraservice villa',
    customerId: id.priv,
    workTypeId: id.install,
    statusId: id.wip,
    tags: [id.tB],
    assignees: [id.u2],
  });
  id.o3 = await create({ title: 'Passagesystem utan folk' });
  id.o4 = await create({ title: 'Stängd denna vecka' });
  id.o5 = await create({ title: 'Stängd i oktober' });
  id.o6 = await create({ title: 'ÄTA extra kabel' });
  id.o7 = await create({ title: 'Borttagen order' });
  await withTenant(tenantA, async (trx) => {
    // intake order o1 newest … o7 oldest; o2 created by the technician; o3 without assignees
    const base = Date.now();
    for (const [i, key] of ['o1', 'o2', 'o3', 'o4', 'o5', 'o6', 'o7'].entries())
      await trx('work_orders')
        .where({ id: id[key] })
        .update({ intake_ts: new Date(base - (i + 1) * 3_600_000) });
    await trx('work_orders').where({ id: id.o2 }).update({ create_user_id: id.tech });
    await trx('work_order_assignees').where({ work_order_id: id.o3 }).delete();
    await trx('work_orders').where({ id: id.o4 }).update({ closed_at: trx.fn.now(), status_id: id.done });
    await trx('work_orders').where({ id: id.o5 }).update({ closed_at: '2026-10-10T10:00:00Z', status_id: id.done });
    await trx('work_orders').where({ id: id.o6 }).update({ project_extra_status: 'pending' });
    await trx('work_orders').where({ id: id.o7 }).update({ deleted_at: trx.fn.now() });
    // filler orders so a page of 10 and a page of 100 differ
    const [status] = await trx('work_order_statuses').where({ is_default: true }).select('id');
    const [type] = await trx('work_types').where({ is_default: true }).select('id');
    const fillers = await trx('work_orders')
      .insert(
        Array.from({ length: 15 }, (_, i) => ({
          number: `F-${i + 1}`,
          title: `Fyllnad ${i + 1}`,
          status_id: status.id,
          work_type_id: type.id,
          create_user_id: id.admin,
          intake_ts: new Date(base - (20 + i) * 3_600_000),
        })),
      )
      .returning('id');
    await trx('work_order_assignees').insert(
      fillers.map((f: { id: string }) => ({ work_order_id: f.id, user_id: id.admin })),
    );
  });
});
afterAll(() => srv.close());

const ids = async (query: string, token = tok.admin) => {
  const res = await call('GET', `/api/wo?size=200&${query}`, token);
  expect(res.status, res.text).toBe(200);
  const body = res.json() as { workOrders: { id: string }[]; totalCount: number };
  expect(body.totalCount).toBe(body.workOrders.length);
  return body.workOrders.map((w) => w.id);
};
const named = (...keys: string[]) => keys.map((k) => id[k]);
/** The ids among o1…o7 (fillers left out). */
const ours = async (query: string, token = tok.admin) => {
  const all = new Set(named('o1', 'o2', 'o3', 'o4', 'o5', 'o6', 'o7'));
  return (await ids(query, token)).filter((x) => all.has(x));
};

describe('[work-order lists] which list', () => {
  it('open (default): neither closed nor deleted', async () => {
    expect(await ours('')).toEqual(named('o1', 'o2', 'o3', 'o6'));
    expect(await ours('list=open')).toEqual(named('o1', 'o2', 'o3', 'o6'));
  });
  it('closed: this ISO week by default, the period given otherwise', async () => {
    expect(await ids('list=closed')).toEqual(named('o4'));
    expect(await ids('list=closed&closedFrom=2026-10-05&closedTo=2026-10-11')).toEqual(named('o5'));
    expect(await ids('list=closed&closedFrom=2026-10-11&closedTo=2026-10-11')).toEqual([]);
  });
  it('recently closed, ATA, history and recycle bin', async () => {
    expect(await ids('list=recentlyClosed')).toEqual(named('o4'));
    expect(await ids('list=ata')).toEqual(named('o6'));
    expect(await ours('list=history')).toEqual(named('o1', 'o2', 'o3', 'o4', 'o5', 'o6'));
    expect(await ids('list=recycleBin')).toEqual(named('o7'));
  });
  it('refuses an unknown list or sort', async () => {
    expect((await call('GET', '/api/wo?list=everything', tok.admin)).status).toBe(400);
    expect((await call('GET', '/api/wo?sort=random', tok.admin)).status).toBe(400);
  });
});

describe('[work-order lists] filters', () => {
  it('workTypes (and workType), status', async () => {
    expect(await ours(`workTypes=${id.install}`)).toEqual(named('o2'));
    expect(await ours(`workType=${id.install}`)).toEqual(named('o2'));
    expect(await ours(`status=${id.wip}`)).toEqual(named('o2'));
  });
  it('tags: any of those given', async () => {
    expect(await ours(`tags=${id.tA}`)).toEqual(named('o1'));
    expect(await ours(`tags=${id.tA},${id.tB}`)).toEqual(named('o1', 'o2'));
    expect(await ours(`tags=${id.tA}&tags=${id.tB}`)).toEqual(named('o1', 'o2'));
  });
  it('tags follow the order when its tags are replaced', async () => {
    const retag = (tags: string[]) =>
      withTenant(tenantA, async (trx) => {
        await trx('work_order_tags').where({ work_order_id: id.o1 }).del();
        await trx('work_order_tags').insert(tags.map((tag_id) => ({ work_order_id: id.o1, tag_id })));
      });
    await retag([id.tB]);
    expect(await ours(`tags=${id.tA}`)).toEqual([]);
    expect(await ours(`tags=${id.tB}`)).toEqual(named('o1', 'o2'));
    await retag([id.tA]);
    expect(await ours(`tags=${id.tA}`)).toEqual(named('o1'));
    expect(await ours(`tags=${id.tB}`)).toEqual(named('o2'));
  });
  it('search: title, address, customer name and number, object serial, number', async () => {
    expect(await ids('search=solväg')).toEqual(named('o1'));
    expect(await ids('search=MÄLARDAL')).toEqual(named('o1'));
    expect(await ids('search=SER-77')).toEqual(named('o1'));
    expect(await ids('search=20001')).toEqual(named('o2'));
    expect(await ids('search=kameraserv')).toEqual(named('o2'));
    expect(await ids('search=100%25')).toEqual([]);
  });
  it('assignees (and assignee), onlyMine, unassigned, ignoredUsers, departments', async () => {
    expect(await ours(`assignees=${id.u2}`)).toEqual(named('o2'));
    expect(await ours(`assignee=${id.tech}`)).toEqual(named('o1'));
    expect(await ours('onlyMine=true', tok.tech)).toEqual(named('o1'));
    expect(await ours('onlyMine=true')).toEqual(named('o6'));
    expect(await ids('unassigned=true')).toEqual(named('o3'));
    expect(await ours(`ignoredUsers=${id.tech}`)).toEqual(named('o2', 'o3', 'o6'));
    expect(await ours(`departments=${id.d1}`)).toEqual(named('o1'));
    expect(await ours(`departments=${id.d1},${id.d2}`)).toEqual(named('o1', 'o2'));
  });
  it('departments follow a person who moves to another department and an assignee who leaves', async () => {
    const moveTech = (department: string) =>
      withTenant(tenantA, (trx) => trx('users').where({ id: id.tech }).update({ department_id: department }));
    await moveTech(id.d2);
    expect(await ours(`departments=${id.d1}`)).toEqual([]);
    expect(await ours(`departments=${id.d2}`)).toEqual(named('o1', 'o2'));
    await moveTech(id.d1);
    expect(await ours(`departments=${id.d1}`)).toEqual(named('o1'));
    const [row] = await withTenant(tenantA, (trx) =>
      trx('work_order_assignees').where({ work_order_id: id.o1, user_id: id.tech }).del().returning('*'),
    );
    expect(await ours(`departments=${id.d1}`)).toEqual([]);
    await withTenant(tenantA, (trx) => trx('work_order_assignees').insert(row));
    expect(await ours(`departments=${id.d1}`)).toEqual(named('o1'));
  });
  it('createUserId, customerType, scheduleStatus', async () => {
    expect(await ids(`createUserId=${id.tech}`)).toEqual(named('o2'));
    expect(await ours('customerType=private')).toEqual(named('o2'));
    expect(await ours('customerType=company')).toEqual(named('o1'));
    expect(await ours('scheduleStatus=scheduled')).toEqual(named('o1'));
    expect(await ours('scheduleStatus=notScheduled')).toEqual(named('o2', 'o3', 'o6'));
    expect(await ours('scheduleStatus=both')).toEqual(named('o1', 'o2', 'o3', 'o6'));
  });
  it('includeScheduled, showRegular, showPotential, project', async () => {
    const project = await withTenant(tenantA, async (trx) =>
      String(
        (
          (await trx('projects').insert({ number: 1001, title: 'Filterprojekt' }).returning('id')) as { id: string }[]
        )[0]!.id,
      ),
    );
    await withTenant(tenantA, async (trx) => {
      await trx('customers').where({ id: id.priv }).update({ potential: true });
      await trx('work_orders').where({ id: id.o3 }).update({ project_id: project });
    });
    try {
      expect(await ours('includeScheduled=false')).toEqual(named('o2', 'o3', 'o6'));
      expect(await ours('includeScheduled=true')).toEqual(named('o1', 'o2', 'o3', 'o6'));
      // o2's customer is potential, o1's regular; o3 and o6 have no customer
      expect(await ours('showPotential=false')).toEqual(named('o1'));
      expect(await ours('showRegular=false')).toEqual(named('o2'));
      expect(await ours('showRegular=false&showPotential=false')).toEqual(named('o3', 'o6'));
      expect(await ids(`project=${project}`)).toEqual(named('o3'));
      expect((await call('GET', '/api/wo?project=nope', tok.admin)).status).toBe(400);
    } finally {
      await withTenant(tenantA, async (trx) => {
        await trx('customers').where({ id: id.priv }).update({ potential: false });
        await trx('work_orders').where({ id: id.o3 }).update({ project_id: null });
      });
    }
  });
  it('combines filters', async () => {
    expect(await ids(`search=villa&customerType=private&workTypes=${id.install}&tags=${id.tB}`)).toEqual(named('o2'));
    expect(await ids(`search=villa&customerType=company`)).toEqual([]);
  });
  it("applies the technician's limit on top of the filters", async () => {
    expect(await ids('', tok.tech)).toEqual(named('o1'));
    expect(await ids(`tags=${id.tB}`, tok.tech)).toEqual([]);
  });
});

describe('[work-order lists] sort, pages, statements', () => {
  it('sorts by intake (newest first), title, number, customer, planned start and update', async () => {
    expect((await ids('')).slice(0, 4)).toEqual(named('o1', 'o2', 'o3', 'o6'));
    const byTitle = await ours('sort=title');
    expect(byTitle).toEqual(named('o1', 'o2', 'o3', 'o6'));
    const titles = (await call('GET', '/api/wo?size=200&sort=title', tok.admin))
      .json()
      .workOrders.map((w: { title: string }) => w.title.toLowerCase());
    expect(titles).toEqual([...titles].sort((x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)));
    expect((await ids('sort=customer')).slice(0, 2)).toEqual(named('o1', 'o2')); // Mälardalens, Sven
    expect((await ids('sort=plannedStart'))[0]).toBe(id.o1);
    await call('PATCH', '/api/wo', tok.admin, { workOrder: { id: id.o3, summary: 'uppdaterad' } });
    expect((await ids('sort=updated'))[0]).toBe(id.o3);
    const numbers = (await call('GET', '/api/wo?size=200&sort=number', tok.admin))
      .json()
      .workOrders.map((w: { number: string }) => w.number);
    const natural = (x: string, y: string) => x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
    expect(numbers).toEqual([...numbers].sort(natural));
    expect(numbers.indexOf('F-9')).toBeLessThan(numbers.indexOf('F-10'));
  });

  it('pages by from and size with the total', async () => {
    const all = (await call('GET', '/api/wo?size=200', tok.admin)).json();
    expect(all.totalCount).toBe(19);
    const p1 = (await call('GET', '/api/wo?size=5&from=0', tok.admin)).json();
    const p2 = (await call('GET', '/api/wo?size=5&from=5', tok.admin)).json();
    expect(p1.totalCount).toBe(19);
    expect(p1.workOrders.map((w: { id: string }) => w.id)).toEqual(
      all.workOrders.slice(0, 5).map((w: { id: string }) => w.id),
    );
    expect(p2.workOrders.map((w: { id: string }) => w.id)).toEqual(
      all.workOrders.slice(5, 10).map((w: { id: string }) => w.id),
    );
    expect((await call('GET', '/api/wo?size=201', tok.admin)).status).toBe(400);
  });

  it('runs the same number of statements for a page of 10 as for 100, with filters too', async () => {
    const once = async (q: string) => {
      const res = await call('GET', `/api/wo?${q}`, tok.admin);
      expect(res.status).toBe(200);
      return Number(res.headers['x-sql-statements']);
    };
    // the fewer of two asks: a request that found a cache expired (the tenant's plugins, kept 30 s,
    // ran out while a loaded machine was slow) reads it again, which is not the list's own work
    const count = async (q: string) => Math.min(await once(q), await once(q));
    const ten = await count('size=10');
    expect(ten).toBeGreaterThan(0);
    expect(await count('size=100')).toBe(ten);
    const filters = `tags=${id.tA}&departments=${id.d1}&search=a&customerType=company&scheduleStatus=scheduled`;
    expect(await count(`size=10&${filters}`)).toBe(await count(`size=100&${filters}`));
  });
});

describe('[work-order lists] search and my orders', () => {
  it('GET /wo/q finds by number, title, customer, object serial and address, not the recycle bin', async () => {
    const q = async (text: string) =>
      (await call('GET', `/api/wo/q?q=${encodeURIComponent(text)}`, tok.admin))
        .json()
        .workOrders.map((w: { id: string }) => w.id);
    expect(await q('SER-7788')).toEqual(named('o1'));
    expect(await q('Sven Svensson')).toEqual(named('o2'));
    expect(await q('västerås')).toEqual(named('o1'));
    expect(await q('Borttagen')).toEqual([]);
    expect(await q('Stängd')).toEqual(named('o4', 'o5'));
    expect(await q('F-12')).toHaveLength(1);
    expect(await q('')).toEqual([]);
  });
  it('GET /wo/my: my open orders', async () => {
    const mine = (await call('GET', '/api/wo/my', tok.tech)).json();
    expect(mine.workOrders.map((w: { id: string }) => w.id)).toEqual(named('o1'));
    expect(mine.workOrders[0]).toMatchObject({ customerName: 'Mälardalens Fastigheter AB', tags: [{ name: 'Larm' }] });
  });
  it('needs workorders:read', async () => {
    for (const path of ['/api/wo', '/api/wo/q?q=a', '/api/wo/my', `/api/wo/${id.o1}`, `/api/wo/history/${id.o1}`])
      expect((await call('GET', path, tok.nobody)).status, path).toBe(403);
  });
});
