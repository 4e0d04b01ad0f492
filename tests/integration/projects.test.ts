import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { runRouteAs } from '~/tests/helpers/route-loader';
import * as listRoute from '~/app/routes/projects';
import * as newRoute from '~/app/routes/projects.new';
import * as projectRoute from '~/app/routes/projects.$id';
import * as optionsRoute from '~/app/routes/projects.options';
import * as settingsRoute from '~/app/routes/settings.projects';

/*
 * Projects (issue 18): the project itself through the API — create with the next number, the
 * list state of spec section 3, general info with versions, customers/suppliers/objects, work
 * orders joining as contract work or extra work, close (refused with open work orders, spec
 * section 8), reopen, delete, the project's settings and the company's, and who may see what.
 */

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;
let adminB: string;
let solrosen: string;
let kvarnen: string;
let supplier: string;
let bo: string;
let customerB: string;
let adminId: string;
let techId: string;
const ids: Record<string, string> = {};

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('prj-a');
  b = await createTestTenant('prj-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    // a project's region is a name of the regions register (migration 0070)
    await trx('regions').insert([{ name: 'Norr' }, { name: 'Syd' }]);
    const rows = (await trx('customers')
      .insert([
        { customer_id: '10001', name: 'Brf Solrosen' },
        { customer_id: '10002', name: 'Kvarnen Fastigheter AB' },
      ])
      .returning('id')) as { id: string }[];
    [solrosen, kvarnen] = rows.map((r) => r.id) as [string, string];
    supplier = (
      (await trx('suppliers').insert({ number: '2001', title: 'Elgrossisten AB' }).returning('id')) as {
        id: string;
      }[]
    )[0]!.id;
    bo = (
      (await trx('business_objects')
        .insert({ serial_code: 'LARM-1', customer_id: solrosen, location: 'Entré' })
        .returning('id')) as { id: string }[]
    )[0]!.id;
    adminId = ((await trx('users').whereRaw('lower(email) = ?', [a.adminEmail]).first('id')) as { id: string }).id;
    techId = ((await trx('users').whereRaw('lower(email) = ?', [a.technicianEmail]).first('id')) as { id: string }).id;
  });
  customerB = await withTenant((await getTenantBySlug(b.slug))!, async (trx) => {
    const [row] = (await trx('customers').insert({ customer_id: '10001', name: 'Other AB' }).returning('id')) as {
      id: string;
    }[];
    return row!.id;
  });
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

const ok = async (method: string, path: string, token: string, body?: unknown) => {
  const res = await call(method, path, token, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(200);
  return res.json();
};
const refused = async (
  method: string,
  path: string,
  token: string,
  body: unknown,
  status: number,
  code?: string,
  host?: string,
) => {
  const res = await call(method, path, token, body, host);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(status);
  if (code) expect(res.json<{ code: string }>().code).toBe(code);
  return res;
};

const numbers = (list: { projects: { number: number }[] }) => list.projects.map((p) => p.number);

const newOrder = async (projectId: string | null, patch: Record<string, unknown> = {}, token = admin) =>
  (
    await ok('POST', '/api/wo', token, {
      workOrder: {
        title: 'Montage',
        customerId: solrosen,
        assignees: [adminId],
        ...(projectId ? { projectId } : {}),
        ...patch,
      },
    })
  ).workOrder as { id: string; number: string };

describe('[projects] create, read and change', () => {
  it('creates with the next number, the asker responsible, and its customers, suppliers and objects', async () => {
    const { project } = await ok('POST', '/api/projects', admin, {
      project: {
        title: 'Nybygge Kvarnen',
        name: 'KV-7',
        startDate: '2026-10-01',
        endDate: '2027-03-31',
        region: 'Norr',
        estimatedHours: '1 320,5',
        estimatedCost: '250000',
        contractSum: '480 000',
        externalUrl: 'https://byggplats.example/kv7',
        customerIds: [kvarnen, solrosen],
        supplierIds: [supplier],
        businessObjectIds: [bo],
      },
    });
    expect(project).toMatchObject({
      number: 1001,
      title: 'Nybygge Kvarnen',
      name: 'KV-7',
      status: 'ongoing',
      startDate: '2026-10-01',
      endDate: '2027-03-31',
      responsibleUserId: adminId,
      region: 'Norr',
      estimatedHours: '1320.50',
      estimatedCost: '250000.00',
      contractSum: '480000.00',
      externalUrl: 'https://byggplats.example/kv7',
      customerName: 'Kvarnen Fastigheter AB',
      version: 1,
      workOrders: 0,
      hours: '0.00',
    });
    expect(project.customers.map((c: { name: string }) => c.name)).toEqual(['Kvarnen Fastigheter AB', 'Brf Solrosen']);
    expect(project.customers[0]).toMatchObject({ number: '10002', email: null });
    expect(project.suppliers).toEqual([{ id: supplier, number: '2001', name: 'Elgrossisten AB' }]);
    expect(project.businessObjects).toEqual([{ id: bo, number: 'LARM-1', name: 'Entré' }]);
    expect(project.totals).toMatchObject({ contractSum: '480000.00', invoiced: '0.00', leftToInvoice: '480000.00' });
    ids.kv = project.id;
    expect((await ok('GET', `/api/projects/${project.id}`, admin)).project).toEqual(project);

    const second = (
      await ok('POST', '/api/projects', admin, {
        project: {
          title: 'Kameror Solrosen',
          responsibleUserId: techId,
          startDate: '2026-01-10',
          endDate: '2026-02-20',
        },
      })
    ).project;
    expect(second).toMatchObject({ number: 1002, responsibleUserId: techId, contractSum: '0.00', customers: [] });
    ids.cam = second.id;
    const third = (await ok('POST', '/api/projects', admin, { project: { title: 'Passersystem utan datum' } })).project;
    ids.undated = third.id;
  });

  it('refuses bad input with field messages and writes nothing', async () => {
    const res = await refused(
      'POST',
      '/api/projects',
      admin,
      {
        project: {
          title: '',
          startDate: '2026-05-01',
          endDate: '2026-04-01',
          contractSum: '-5',
          externalUrl: 'ftp://x',
        },
      },
      400,
    );
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      fields: {
        'project.title': ['ERROR_REQUIRED_FIELD'],
        'project.endDate': ['ERROR_STOP_DATE_BEFORE_START_DATE'],
        'project.externalUrl': ['ERROR_INVALID_URL'],
        'project.contractSum': ['ERROR_NEGATIVE_AMOUNT'],
      },
    });
    // no project object at all: the dates check has nothing to read
    for (const method of ['POST', 'PUT'])
      expect((await refused(method, '/api/projects', admin, { project: 'x' }, 400)).json()).toEqual({
        code: 'VALIDATION_FAILED',
        fields: { project: ['ERROR_INVALID_VALUE'] },
      });
    // another tenant's customer is not found, and no project is made
    await refused('POST', '/api/projects', admin, { project: { title: 'X', customerIds: [customerB] } }, 404);
    const n = await withTenant(tenantA, async (trx) =>
      Number(((await trx('projects').count({ n: '*' })) as { n: string }[])[0]!.n),
    );
    expect(n).toBe(3);
  });

  it('lists by the list state: type, search, region, responsible user, period and sort', async () => {
    // a quarter holding 2026-11-15: Oct–Dec; the January project is outside, the undated one inside
    const q4 = await ok('GET', '/api/projects?date=2026-11-15', admin);
    expect(q4.period).toEqual({ from: '2026-10-01', to: '2026-12-31' });
    expect(numbers(q4)).toEqual([1001, 1003]);
    expect(numbers(await ok('GET', '/api/projects?date=2026-01-15', admin))).toEqual([1002, 1003]);
    expect(numbers(await ok('GET', '/api/projects?period=all', admin))).toEqual([1001, 1002, 1003]);
    expect(numbers(await ok('GET', '/api/projects?period=month&date=2027-03-05', admin))).toEqual([1001, 1003]);
    expect(numbers(await ok('GET', '/api/projects?period=all&searchValue=kv-7', admin))).toEqual([1001]);
    // a customer's name finds its projects
    expect(numbers(await ok('GET', '/api/projects?period=all&searchValue=fastigheter', admin))).toEqual([1001]);
    expect(numbers(await ok('GET', '/api/projects?period=all&activeRegion=norr', admin))).toEqual([1001]);
    expect(numbers(await ok('GET', `/api/projects?period=all&responsibleUserId=${techId}`, admin))).toEqual([1002]);
    expect(numbers(await ok('GET', '/api/projects?period=all&sort=time', admin))).toEqual([1002, 1001, 1003]);
    expect(numbers(await ok('GET', '/api/projects?period=all&sort=alphanumeric&desc=true', admin))).toEqual([
      1003, 1002, 1001,
    ]);
    expect(numbers(await ok('GET', '/api/projects/ongoing?period=all', admin))).toEqual([1001, 1002, 1003]);
    expect(numbers(await ok('GET', '/api/projects/closed?period=all', admin))).toEqual([]);
    const page = await ok('GET', '/api/projects?period=all&limit=2&offset=2', admin);
    expect(page.totalCount).toBe(3);
    expect(numbers(page)).toEqual([1003]);
    expect((await ok('GET', '/api/projects/regions', admin)).regions).toEqual(['Norr']);
    expect((await ok('GET', '/api/projects/q?q=kamer', admin)).projects).toEqual([
      { id: ids.cam, number: '1002', name: 'Kameror Solrosen' },
    ]);
    expect(numbers(await ok('GET', '/api/projects/month/2026/2', admin))).toEqual([1002]);
    await refused('GET', '/api/projects/month/2026/13', admin, undefined, 400);
  });

  it('saves the general info naming its version; a stale version is refused', async () => {
    const { project } = await ok('GET', `/api/projects/${ids.cam}`, admin);
    const saved = (
      await ok('PUT', '/api/projects', admin, {
        project: {
          id: ids.cam,
          version: project.version,
          title: 'Kameror Solrosen etapp 2',
          contractSum: '120000',
          region: 'Syd',
        },
      })
    ).project;
    expect(saved).toMatchObject({
      title: 'Kameror Solrosen etapp 2',
      contractSum: '120000.00',
      region: 'Syd',
      version: 2,
    });
    // fields left out of a PUT are cleared: the form always sends them all
    expect(saved.startDate).toBeNull();
    await refused(
      'PUT',
      '/api/projects',
      admin,
      { project: { id: ids.cam, version: project.version, title: 'Gammal' } },
      409,
      'PROJECT_CHANGED',
    );
  });

  it('adds and removes customers, suppliers and objects; the invoiced customer must be one of them', async () => {
    let { project } = await ok('POST', `/api/projects/${ids.cam}/customers`, admin, { customerId: solrosen });
    ({ project } = await ok('POST', `/api/projects/${ids.cam}/customers`, admin, { customerId: kvarnen }));
    // adding one twice changes nothing
    ({ project } = await ok('POST', `/api/projects/${ids.cam}/customers`, admin, { customerId: solrosen }));
    expect(project.customers.map((c: { id: string }) => c.id)).toEqual([solrosen, kvarnen]);
    ({ project } = await ok('POST', `/api/projects/${ids.cam}/bos`, admin, { businessObjectId: bo }));
    ({ project } = await ok('POST', `/api/projects/${ids.cam}/suppliers`, admin, { supplierId: supplier }));
    expect(project.businessObjects).toHaveLength(1);
    expect(project.suppliers).toHaveLength(1);
    await refused('POST', `/api/projects/${ids.cam}/customers`, admin, { customerId: customerB }, 404);
    ({ project } = await ok('PUT', `/api/projects/${ids.cam}/conf`, admin, {
      hourlyPrice: '750',
      hourlyCost: '420,50',
      invoiceCustomerId: kvarnen,
    }));
    expect(project).toMatchObject({ hourlyPrice: '750.00', hourlyCost: '420.50', invoiceCustomerId: kvarnen });
    await refused('PUT', `/api/projects/${ids.cam}/conf`, admin, { invoiceCustomerId: customerB }, 404);
    // taking the invoiced customer off falls back to the first one
    ({ project } = await ok('DELETE', `/api/projects/${ids.cam}/customers?customerId=${kvarnen}`, admin));
    expect(project.invoiceCustomerId).toBeNull();
    ({ project } = await ok('DELETE', `/api/projects/${ids.cam}/suppliers?supplierId=${supplier}`, admin));
    expect(project.suppliers).toEqual([]);
    await refused('DELETE', `/api/projects/${ids.cam}/suppliers?supplierId=${supplier}`, admin, undefined, 404);
  });
});

describe('[projects] work orders, close, reopen and delete', () => {
  it('a work order joins as contract work (included) or as extra work (pending, open)', async () => {
    const wo1 = await newOrder(ids.kv, { title: 'Larmcentral' });
    const wo2 = await newOrder(ids.kv, { title: 'Kortläsare', projectExtra: true });
    ids.wo1 = wo1.id;
    ids.wo2 = wo2.id;
    const { workOrders } = await ok('GET', `/api/projects/${ids.kv}/workorders`, admin);
    expect(
      workOrders.map((w: { title: string; projectExtraStatus: string | null; projectInvoiceStatus: string }) => [
        w.title,
        w.projectExtraStatus,
        w.projectInvoiceStatus,
      ]),
    ).toEqual([
      ['Larmcentral', null, 'included'],
      ['Kortläsare', 'pending', 'open'],
    ]);
    const { project } = await ok('GET', `/api/projects/${ids.kv}`, admin);
    expect(project).toMatchObject({ workOrders: 2, openWorkOrders: 2, pendingExtraWork: 1 });
    // the order shows its project
    expect((await ok('GET', `/api/wo/${wo1.id}`, admin)).workOrder.projectId).toBe(ids.kv);
    // an order moved into a project without a contract sum is open (backlog)
    const wo3 = await newOrder(null, { title: 'Flyttad' });
    await ok('PATCH', '/api/wo', admin, { workOrder: { id: wo3.id, projectId: ids.undated } });
    expect((await ok('GET', `/api/projects/${ids.undated}/workorders`, admin)).workOrders[0]).toMatchObject({
      title: 'Flyttad',
      projectInvoiceStatus: 'open',
    });
    await ok('PATCH', '/api/wo', admin, { workOrder: { id: wo3.id, projectId: null } });
    expect((await ok('GET', `/api/projects/${ids.undated}/workorders`, admin)).workOrders).toEqual([]);
    // a contract order marked as extra work later leaves the contract sum: it waits to be invoiced
    const later = await newOrder(ids.kv, { title: 'Tillägg i efterhand' });
    await ok('POST', '/api/wo/projectextra', admin, { workOrderId: later.id, status: 'pending' });
    const moved = (await ok('GET', `/api/projects/${ids.kv}/workorders`, admin)).workOrders.find(
      (w: { id: string }) => w.id === later.id,
    );
    expect(moved).toMatchObject({ projectExtraStatus: 'pending', projectInvoiceStatus: 'open' });
    await withTenant(tenantA, (trx) => trx('work_orders').where({ id: later.id }).update({ closed_at: new Date() }));
    // another tenant's project is not found
    await refused('POST', '/api/wo', adminB, { workOrder: { title: 'X', projectId: ids.kv } }, 404, undefined, b.host);
  });

  it('a technician cannot create extra work or put orders in projects', async () => {
    await refused(
      'POST',
      '/api/wo',
      tech,
      { workOrder: { title: 'ÄTA', customerId: solrosen, projectId: ids.kv, projectExtra: true } },
      403,
    );
  });

  it('refuses to close with open work orders (spec section 8), then closes, locks and reopens', async () => {
    await refused('POST', `/api/projects/${ids.kv}/close`, admin, {}, 409, 'PROJECT_HAS_OPEN_WORK_ORDERS');
    await withTenant(tenantA, (trx) =>
      trx('work_orders').whereIn('id', [ids.wo1, ids.wo2]).update({ closed_at: new Date() }),
    );
    const { project } = await ok('POST', `/api/projects/${ids.kv}/close`, admin, {});
    expect(project).toMatchObject({ status: 'closed', openWorkOrders: 0 });
    expect(project.closedAt).not.toBeNull();
    await refused('POST', `/api/projects/${ids.kv}/close`, admin, {}, 409, 'PROJECT_CLOSED');
    await refused(
      'PUT',
      '/api/projects',
      admin,
      { project: { id: ids.kv, version: project.version, title: 'Ändrad' } },
      409,
      'PROJECT_CLOSED',
    );
    await refused('POST', `/api/projects/${ids.kv}/customers`, admin, { customerId: solrosen }, 409, 'PROJECT_CLOSED');
    // no new work orders in a closed project
    const res = await call('POST', '/api/wo', admin, {
      workOrder: { title: 'Sen', customerId: solrosen, assignees: [adminId], projectId: ids.kv },
    });
    expect(res.status).toBe(409);
    expect(numbers(await ok('GET', '/api/projects/closed?period=all', admin))).toEqual([1001]);
    const reopened = (await ok('POST', `/api/projects/${ids.kv}/reopen`, admin, {})).project;
    expect(reopened).toMatchObject({ status: 'ongoing', closedAt: null });
    await refused('POST', `/api/projects/${ids.kv}/reopen`, admin, {}, 409, 'PROJECT_NOT_CLOSED');
  });

  it('deletes only a project nothing belongs to', async () => {
    await refused('DELETE', `/api/projects/${ids.kv}`, admin, undefined, 409, 'PROJECT_IN_USE');
    await ok('DELETE', `/api/projects/${ids.undated}`, admin);
    await refused('GET', `/api/projects/${ids.undated}`, admin, undefined, 404);
  });
});

describe('[projects] settings and access', () => {
  it('reads and saves the company settings; the reset day is 1–31', async () => {
    const { settings } = await ok('GET', '/api/projects/settings', admin);
    expect(settings).toMatchObject({ costResetDay: 1, hourlyPrice: '0.00', extraWorkLinkDays: 14, nextNumber: 1004 });
    const saved = (
      await ok('PUT', '/api/projects/settings', admin, {
        costResetDay: 25,
        hourlyPrice: '695',
        hourlyCost: '410',
        extraWorkLinkDays: 30,
      })
    ).settings;
    expect(saved).toMatchObject({
      costResetDay: 25,
      hourlyPrice: '695.00',
      hourlyCost: '410.00',
      extraWorkLinkDays: 30,
    });
    await refused(
      'PUT',
      '/api/projects/settings',
      admin,
      { costResetDay: 32, hourlyPrice: '1', hourlyCost: '1', extraWorkLinkDays: 5 },
      400,
    );
  });

  it("another tenant's project is not found; without projects:read it is refused", async () => {
    await refused('GET', `/api/projects/${ids.kv}`, adminB, undefined, 404, undefined, b.host);
    await refused(
      'PUT',
      '/api/projects',
      adminB,
      { project: { id: ids.kv, version: 1, title: 'X' } },
      404,
      undefined,
      b.host,
    );
    await refused('POST', `/api/projects/${ids.kv}/close`, adminB, {}, 404, undefined, b.host);
    await refused('DELETE', `/api/projects/${ids.kv}`, adminB, undefined, 404, undefined, b.host);
    await refused('GET', `/api/projects/not-a-uuid`, admin, undefined, 404);
    expect(
      (await call('GET', '/api/projects?period=all', adminB, undefined, b.host)).json<{ projects: unknown[] }>()
        .projects,
    ).toEqual([]);
    await refused('GET', '/api/projects', tech, undefined, 403);
    await refused('GET', `/api/projects/${ids.kv}`, tech, undefined, 403);
    await refused('POST', '/api/projects', tech, { project: { title: 'X' } }, 403);
  });

  it('keeps files on a project through the FileStore listing of its kind', async () => {
    const res = await call('GET', `/api/file/generic/project/${ids.kv}`, admin);
    expect(res.status, res.text).toBe(200);
    expect(res.json<{ files: unknown[] }>().files).toEqual([]);
    await refused('GET', `/api/file/generic/project/${ids.kv}`, adminB, undefined, 404, undefined, b.host);
  });
});

describe('[projects] the pages', () => {
  const as = (token: string) => ({ tenant: tenantA, host: a.host, token });

  it('the list loader keeps the list state from the URL and names the period', async () => {
    const res = await runRouteAs(
      listRoute.loader,
      as(admin),
      '/projects?period=all&activeType=ongoing&searchValue=kv-7&sort=bogus',
    );
    expect(res.body).toMatchObject({ sort: 'alphanumeric', period: 'all', range: null, totalCount: 1 });
    expect(res.body!.projects.map((p: { number: number }) => p.number)).toEqual([1001]);
    const quarter = await runRouteAs(listRoute.loader, as(admin), '/projects?date=2026-11-02');
    expect(quarter.body!.range).toEqual({ from: '2026-10-01', to: '2026-12-31' });
  });

  it('a new project is made from the form with its first customer and opens; a bad one answers its fields', async () => {
    const bad = await runRouteAs(newRoute.action, as(admin), '/projects/new', { form: { title: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body!.fields['project.title']).toEqual(['ERROR_REQUIRED_FIELD']);
    const made = await runRouteAs(newRoute.action, as(admin), '/projects/new', {
      form: { title: 'Formulärprojekt', contractSum: '12 500,50', customerId: solrosen, responsibleUserId: 'none' },
    });
    expect(made.status).toBe(302);
    const id = /\/projects\/([0-9a-f-]{36})\?created=1/.exec(made.location ?? '')![1]!;
    const page = await runRouteAs(projectRoute.loader, as(admin), `/projects/${id}`, { params: { id } });
    expect(page.body!.project).toMatchObject({
      title: 'Formulärprojekt',
      contractSum: '12500.50',
      responsibleUserId: null,
      customers: [{ id: solrosen }],
    });
    expect(page.body!.can).toMatchObject({ edit: true, delete: true, createExtra: true });
    // the page's close is refused while an order is open, with the reason
    await newOrder(id, { title: 'Öppen' });
    const close = await runRouteAs(projectRoute.action, as(admin), `/projects/${id}`, {
      form: { intent: 'close' },
      params: { id },
    });
    expect(close.status).toBe(409);
    expect(close.body).toMatchObject({ code: 'PROJECT_HAS_OPEN_WORK_ORDERS', intent: 'close' });
    // another tenant's project is the not-found page
    const other = await runRouteAs(projectRoute.loader, as(admin), '/projects/x', {
      params: { id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(other.status).toBe(404);
  });

  it('the work-order form finds projects by number or title, and the settings page saves', async () => {
    const found = await runRouteAs(optionsRoute.loader, as(admin), '/projects/options?q=kameror');
    expect(found.body!.options).toEqual([{ id: ids.cam, label: '1002 · Kameror Solrosen etapp 2' }]);
    const saved = await runRouteAs(settingsRoute.action, as(admin), '/settings/projects', {
      form: { costResetDay: '15', hourlyPrice: '700', hourlyCost: '400', extraWorkLinkDays: '10' },
    });
    expect(saved.body).toEqual({ ok: true });
    expect((await ok('GET', '/api/projects/settings', admin)).settings).toMatchObject({
      costResetDay: 15,
      hourlyPrice: '700.00',
      extraWorkLinkDays: 10,
    });
    const refused = await runRouteAs(settingsRoute.action, as(admin), '/settings/projects', {
      form: { costResetDay: '0', hourlyPrice: '700', hourlyCost: '400', extraWorkLinkDays: '10' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body!.fields.costResetDay).toEqual(['ERROR_INVALID_VALUE']);
  });
});
