import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * Issue 28 item 12: an ERP that cannot work yet says so. Fortnox installed without the app's client
 * id (PLUGIN_OPTIONS has none) offers no sign-in — the settings name what the operator must set and
 * the round trip is refused instead of sending the browser to Fortnox with an empty client_id — and
 * an invoice offers no "send to Fortnox" while Fortnox is not connected; the API refuses it too.
 */

let srv: TestServer;
let a: TestTenant;
let tenantA: Tenant;
let token: string;
let customerId: string;
let articleId: string;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  // Fortnox installed, but the operator gave it no client id or secret
  await loadRegistry({});
  a = await createTestTenant('erp-noconf');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx.raw(
      `insert into app_modules (id, enabled) values ('erp', true) on conflict (id) do update set enabled = true`,
    );
    customerId = (await trx('customers').insert({ customer_id: '50001', name: 'Brf Linden' }).returning('id'))[0].id;
    articleId = (
      await trx('articles')
        .insert({ article_id: 'DET-1', title: 'Detektor', price: '300.00', unit: 'st' })
        .returning('id')
    )[0].id;
  });
  token = await signIn(a, a.adminEmail);
});
afterAll(async () => {
  await srv?.close();
});

describe('[erp] an ERP that is not configured or not connected', () => {
  it('names the missing PLUGIN_OPTIONS and refuses the sign-in instead of sending an empty client_id', async () => {
    const put = await call('PUT', '/api/instance/erp', token, { kind: 'fortnox' });
    expect(put.status, put.text).toBe(200);
    const fortnox = put.json().kinds.find((k: { id: string }) => k.id === 'fortnox');
    expect(fortnox.missingOptions).toEqual(['fortnox.clientId', 'fortnox.clientSecret']);
    const start = await call('POST', '/api/instance/erp/auth', token, { origin: 'https://x.ordo.test' });
    expect(start.status, start.text).toBe(409);
    expect(start.json().code).toBe('ERP_NOT_CONFIGURED');
    expect(start.text).not.toContain('client_id');
  });

  it('an invoice offers no sending while the ERP is not connected, and the API refuses it', async () => {
    // made while the tenant had no ERP: the close queues nothing
    await call('PUT', '/api/instance/erp', token, { kind: 'none' });
    const res = await call('POST', '/api/wo', token, { workOrder: { title: 'Byte av detektor', customerId } });
    expect(res.status, res.text).toBe(200);
    const wo = res.json().workOrder;
    await withTenant(tenantA, (trx) =>
      trx('work_order_articles').insert({
        work_order_id: wo.id,
        article_id: articleId,
        title: 'Detektor',
        amount: '1',
        price: '300.00',
        total: 0,
      }),
    );
    const closed = await call('POST', '/api/wo/close', token, { workOrderId: wo.id });
    expect(closed.status, closed.text).toBe(200);
    const id = closed.json().invoice.id as string;

    await call('PUT', '/api/instance/erp', token, { kind: 'fortnox' });
    const invoice = await call('GET', `/api/invoice/${id}`, token);
    expect(invoice.status, invoice.text).toBe(200);
    expect(invoice.json().applyTypes).toEqual(expect.arrayContaining(['pdf', 'email']));
    expect(invoice.json().applyTypes).not.toContain('erp');

    const apply = await call('POST', '/api/invoice/apply', token, { invoiceId: id, type: 'erp' });
    expect(apply.status, apply.text).toBe(409);
    expect(apply.json().code).toBe('ERP_NOT_CONNECTED');
    expect(await withTenant(tenantA, (trx) => trx('erp_deliveries').where({ invoice_id: id }).first())).toBeUndefined();

    // a delivery that failed with Fortnox shows as failed while Fortnox is in use …
    await withTenant(tenantA, (trx) =>
      trx('erp_deliveries').insert({
        invoice_id: id,
        kind: 'fortnox',
        idempotency_key: `test-${id}`,
        status: 'failed',
        error_code: 'ERP_NOT_CONNECTED',
        attempts: 8,
        next_attempt_at: new Date(),
        created_at: new Date(),
        updated_at: new Date(),
      }),
    );
    const failed = (await call('GET', `/api/invoice/${id}`, token)).json();
    expect(failed.delivery).toMatchObject({ status: 'failed', errorCode: 'ERP_NOT_CONNECTED' });
    const listed = (await call('GET', '/api/invoices', token)).json().invoices.find((i: { id: string }) => i.id === id);
    expect(listed.erp).toBe('failed');
    // … and its failure badge is gone once the tenant switches to another ERP
    await call('PUT', '/api/instance/erp', token, { kind: 'none' });
    expect((await call('GET', `/api/invoice/${id}`, token)).json().delivery).toBeNull();
    const after = (await call('GET', '/api/invoices', token)).json().invoices.find((i: { id: string }) => i.id === id);
    expect(after.erp).toBe('none');
  });
});
