import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auth, Ctx } from '~/core/context';
import { withTenant } from '~/core/db/with-tenant';
import type { Permission, WorkOrderLimit } from '~/core/permissions/permissions';
import type { Tenant } from '~/core/tenancy/tenant';
import { listObjectWorkOrders, workOrderPrefill } from '~/core/work-orders/object-work-orders';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer } from '~/tests/helpers/app';

let srv: TestServer;
let tenant: Tenant;
let adminId: string;
let techId: string;
let bo1: string;
let bo2: string;
let customer: string;

beforeAll(async () => {
  srv = await startTestServer();
  const t = await createTestTenant('obj-wo');
  tenant = (await getTenantBySlug(t.slug))!;
  await withTenant(tenant, async (trx) => {
    adminId = (await trx('users').where({ email: t.adminEmail }).first('id')).id;
    techId = (await trx('users').where({ email: t.technicianEmail }).first('id')).id;
    const [c] = await trx('customers').insert({ customer_id: '20001', name: 'Brf Eken' }).returning('id');
    const [a, b] = await trx('business_objects')
      .insert([
        { serial_code: 'OBJ-1', customer_id: c.id },
        { serial_code: 'OBJ-2', customer_id: c.id },
      ])
      .returning('id');
    bo1 = a.id;
    customer = c.id;
    bo2 = b.id;
    const status = (await trx('work_order_statuses').where({ is_default: true }).first('id')).id;
    const type = (await trx('work_types').where({ is_default: true }).first('id')).id;
    const day = (n: number) => new Date(Date.UTC(2026, 0, n, 9));
    const order = (n: number, extra: Record<string, unknown> = {}) => ({
      number: `T-${n}`,
      title: `Order ${n}`,
      status_id: status,
      work_type_id: type,
      business_object_id: bo1,
      intake_ts: day(n),
      create_user_id: adminId,
      ...extra,
    });
    const rows = [
      // 12 open orders on bo1, intake on Jan 1..12
      ...Array.from({ length: 12 }, (_, i) => order(i + 1)),
      // 3 closed: taken in early, closed in an order different from their intake
      order(20, { intake_ts: day(1), closed_at: day(25) }),
      order(21, { intake_ts: day(2), closed_at: day(23) }),
      order(22, { intake_ts: day(3), closed_at: day(24) }),
      // in the recycle bin, and on another object: never listed
      order(30, { intake_ts: day(28), deleted_at: day(29) }),
      order(31, { intake_ts: day(28), business_object_id: bo2 }),
    ];
    const ids: { id: string; number: string }[] = await trx('work_orders').insert(rows).returning(['id', 'number']);
    // the technician is assigned to Order 5 and Order 21 only
    await trx('work_order_assignees').insert(
      ids.filter((r) => ['T-5', 'T-21'].includes(r.number)).map((r) => ({ work_order_id: r.id, user_id: techId })),
    );
  });
});
afterAll(() => srv.close());

function as(userId: string, perms: Permission[], limit: WorkOrderLimit = 'none') {
  return <T>(fn: (ctx: Ctx) => Promise<T>) =>
    withTenant(tenant, (trx) => {
      const auth = {
        sessionId: 'test',
        user: {
          id: userId,
          email: 'x@x.se',
          fullName: 'X',
          shortName: null,
          initials: 'X',
          userType: 'normal',
          language: null,
          startPage: 'workorders',
        },
        perms: new Set(perms),
        modules: new Set<string>(),
        limit,
        mustEnrollMfa: false,
      } satisfies Auth;
      return fn({ trx, tenant, auth, lang: 'sv', now: new Date() });
    });
}

describe('[qr] listObjectWorkOrders', () => {
  it('lists the newest 10 open orders and the most recently closed ones, with their counts', async () => {
    const result = await as(adminId, ['workorders:read'])((ctx) => listObjectWorkOrders(ctx, bo1));
    expect(result.open.totalCount).toBe(12);
    expect(result.open.workOrders.map((w) => w.title)).toEqual(
      [12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((n) => `Order ${n}`),
    );
    expect(result.closed.totalCount).toBe(3);
    expect(result.closed.workOrders.map((w) => w.title)).toEqual(['Order 20', 'Order 22', 'Order 21']);
    expect(result.closed.workOrders[0]).toMatchObject({
      number: 'T-20',
      statusName: 'Ny',
      closedAt: '2026-01-25T09:00:00.000Z',
      intakeTs: '2026-01-01T09:00:00.000Z',
    });
  });

  it('takes the size asked for', async () => {
    const result = await as(adminId, ['workorders:read'])((ctx) => listObjectWorkOrders(ctx, bo1, 2));
    expect(result.open.workOrders.map((w) => w.number)).toEqual(['T-12', 'T-11']);
    expect(result.open.totalCount).toBe(12);
    expect(result.closed.workOrders.map((w) => w.number)).toEqual(['T-20', 'T-22']);
  });

  it('applies the work-order limit', async () => {
    const result = await as(techId, ['workorders:read'], 'user')((ctx) => listObjectWorkOrders(ctx, bo1));
    expect(result.open).toEqual({ workOrders: [expect.objectContaining({ number: 'T-5' })], totalCount: 1 });
    expect(result.closed).toEqual({ workOrders: [expect.objectContaining({ number: 'T-21' })], totalCount: 1 });
  });

  it('is empty for an object without orders or an unknown one, and 404 for a malformed id', async () => {
    const read = as(adminId, ['workorders:read']);
    const empty = { open: { workOrders: [], totalCount: 0 }, closed: { workOrders: [], totalCount: 0 } };
    expect((await read((ctx) => listObjectWorkOrders(ctx, bo2))).open.workOrders.map((w) => w.number)).toEqual([
      'T-31',
    ]);
    expect(await read((ctx) => listObjectWorkOrders(ctx, '00000000-0000-4000-8000-000000000000'))).toEqual(empty);
    await expect(read((ctx) => listObjectWorkOrders(ctx, 'nope'))).rejects.toMatchObject({ status: 404 });
  });

  it('needs workorders:read', async () => {
    await expect(as(adminId, ['bo:read'])((ctx) => listObjectWorkOrders(ctx, bo1))).rejects.toMatchObject({
      status: 403,
    });
  });
});

describe('[qr] workOrderPrefill', () => {
  const create = as(adminId, ['workorders:create']);
  it('reads the object and its own customer', async () => {
    expect(await create((ctx) => workOrderPrefill(ctx, { businessObjectId: bo1, customerId: 'ignored' }))).toEqual({
      businessObjectId: bo1,
      businessObjectSerialCode: 'OBJ-1',
      customerId: customer,
      customerName: 'Brf Eken',
    });
  });

  it('leaves out unknown ids and needs workorders:create', async () => {
    const none = { businessObjectId: null, businessObjectSerialCode: null, customerId: null, customerName: null };
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await create((ctx) => workOrderPrefill(ctx, { businessObjectId: unknown, customerId: 'x' }))).toEqual(none);
    expect(await create((ctx) => workOrderPrefill(ctx, { customerId: customer }))).toMatchObject({
      customerName: 'Brf Eken',
      businessObjectId: null,
    });
    await expect(
      as(adminId, ['workorders:read'])((ctx) => workOrderPrefill(ctx, { businessObjectId: bo1 })),
    ).rejects.toMatchObject({ status: 403 });
  });
});
