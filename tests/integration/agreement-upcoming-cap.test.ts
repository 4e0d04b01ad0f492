import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPCOMING_COUNT_CAP } from '~/core/agreements/agreement-invoices.service';
import { withTenant } from '~/core/db/with-tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { insertAgreementType, insertObjectsWithAgreements } from '~/tests/helpers/agreements';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * The upcoming list counts through the index up to its cap (issue 16's 50 ms target on 50,000 due
 * agreements): past it, the answer says `more` and the page shows "10000+".
 */

let srv: TestServer;
let a: TestTenant;
let admin: string;
const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('agr-cap');
  admin = await signIn(a, a.adminEmail);
  const tenant = (await getTenantBySlug(a.slug))!;
  await withTenant(tenant, async (trx) => {
    const type = await insertAgreementType(trx, { code: 'CAP', invoiceInterval: 'month_1', woInterval: null });
    await insertObjectsWithAgreements(trx, {
      agreementId: type,
      count: UPCOMING_COUNT_CAP + 5,
      start: '2026-01-01',
      prefix: 'C',
    });
  });
});
afterAll(() => srv.close());

describe('[agreements] the upcoming list’s count', () => {
  it('stops at the cap and says there are more', async () => {
    const all = await call('GET', '/api/agreements/invoices/upcoming?from=2026-01-01&to=2026-01-31&limit=10', admin);
    expect(all.status, all.text).toBe(200);
    expect(all.json()).toMatchObject({ totalCount: UPCOMING_COUNT_CAP, more: true });
    expect(all.json().invoices).toHaveLength(10);
    const some = await call(
      'GET',
      '/api/agreements/invoices/upcoming?from=2026-01-01&to=2026-01-31&q=C1000&limit=50',
      admin,
    );
    // C1000 and C10000–C10005
    expect(some.json()).toMatchObject({ totalCount: 7, more: false });
  });
});
