import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZCreateCustomer } from '~/core/customers/customer.schema';
import { withTenant } from '~/core/db/with-tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer } from '~/tests/helpers/app';
import { DEMO_CUSTOMERS, seedDemoCustomers } from './customers';

describe('[customers] demo data', () => {
  it('passes the same checks as a customer typed in the app', () => {
    for (const c of DEMO_CUSTOMERS) {
      const { groupDiscounts: _g, prices: _p, zoneUsers: _z, contract: _c, addresses, ...fields } = c;
      const parsed = ZCreateCustomer.safeParse({
        ...fields,
        addresses: addresses.map((a, i) => ({ ...a, isPrimary: i === 0 })),
      });
      expect(parsed.error?.issues ?? [], c.name).toEqual([]);
    }
    const numbers = DEMO_CUSTOMERS.map((c) => c.customerId).filter(Boolean);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers).toContain('10015');
  });

  describe('seeding', () => {
    let srv: TestServer;
    beforeAll(async () => {
      srv = await startTestServer();
    });
    afterAll(() => srv.close());

    it('inserts every customer with one primary address, once', async () => {
      const tenant = (await getTenantBySlug((await createTestTenant('demo-cust')).slug))!;
      await withTenant(tenant, (trx) => seedDemoCustomers(trx));
      await withTenant(tenant, (trx) => seedDemoCustomers(trx));
      const counts = await withTenant(tenant, async (trx) => ({
        customers: Number((await trx('customers').count({ n: '*' }))[0]!.n),
        primaries: Number((await trx('customer_addresses').where({ is_primary: true }).count({ n: '*' }))[0]!.n),
        history: Number((await trx('history').where({ entity: 'customer' }).count({ n: '*' }))[0]!.n),
      }));
      expect(counts).toEqual({
        customers: DEMO_CUSTOMERS.length,
        primaries: DEMO_CUSTOMERS.filter((c) => c.addresses.length).length,
        history: DEMO_CUSTOMERS.length,
      });
    });
  });
});
