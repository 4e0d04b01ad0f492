import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureDemoTenant } from '~/tenants/demo';
import { DEMO_MODELS, objectKindOfTitle } from '~/tenants/demo-data/objects';
import { getTenantBySlug } from '~/tenants/registry';
import { startTestServer, type TestServer } from '~/tests/helpers/app';
import { uniqueSlug } from '~/tests/helpers/db';

/**
 * Issue 28 item 19 (demo parts): the demo company is honest data. Swedish postal codes are five
 * digits ("123 45"); an order about a camera is on a camera, one about a door on a door operator;
 * own-car mileage (821, 822) is never for a company car; and proposals start with real terms.
 */
let srv: TestServer;
let tenant: Tenant;

beforeAll(async () => {
  srv = await startTestServer();
  const slug = uniqueSlug('demodata');
  await ensureDemoTenant({ slug, hosts: [`${slug}.ordo.test`] });
  tenant = (await getTenantBySlug(slug))!;
}, 180_000);
afterAll(() => srv?.close());

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('[demo] honest demo data', () => {
  it('has only five-digit Swedish postal codes, written "123 45"', async () => {
    const codes: Row[] = await withTenant(tenant, async (trx) => [
      ...(await trx('customer_addresses').whereNotNull('post_index').select('post_index')),
      ...(await trx('work_orders').whereNotNull('post_index').distinct('post_index')),
    ]);
    expect(codes.length).toBeGreaterThan(40);
    expect(codes.map((c) => c.post_index).filter((p: string) => !/^\d{3} \d{2}$/.test(p))).toEqual([]);
  });

  it('puts an order about a camera on a camera and one about a door on a door operator', async () => {
    const kindOf = new Map<string, string>(DEMO_MODELS.map((m) => [m.code.toUpperCase(), m.kind]));
    const orders: Row[] = await withTenant(tenant, (trx) =>
      trx('work_orders as w')
        .join('business_objects as o', 'o.id', 'w.business_object_id')
        .join('models as m', 'm.id', 'o.model_id')
        .whereNull('w.object_agreement_id')
        .select('w.number', 'w.title', 'm.code'),
    );
    expect(orders.length).toBeGreaterThan(100);
    const wrong = orders
      .map((o) => ({
        number: o.number,
        title: o.title,
        wanted: objectKindOfTitle(o.title),
        is: kindOf.get(o.code.toUpperCase()),
      }))
      .filter((o) => o.wanted && o.is && o.wanted !== o.is);
    expect(wrong).toEqual([]);
    // the classification itself: the example is a camera order on a door operator
    expect(objectKindOfTitle('Kamera ur funktion')).toBe('camera');
    expect(objectKindOfTitle('Service dörrautomatik')).toBe('door');
  });

  it('pays own-car mileage only for a car the person owns, never for a company car', async () => {
    const trips: Row[] = await withTenant(tenant, (trx) =>
      trx('distance_reports as d')
        .join('compensation_tags as t', 't.id', 'd.tag_id')
        .whereIn('t.code', ['821', '822'])
        .select('d.vehicle', 'd.comment'),
    );
    expect(trips.length).toBeGreaterThan(10);
    expect(trips.filter((t) => /service|tjänste|firma|företag/i.test(`${t.vehicle} ${t.comment ?? ''}`))).toEqual([]);
  });

  it('starts a new proposal with the company’s terms', async () => {
    const s: Row = await withTenant(tenant, (trx) => trx('proposal_settings').first('general_terms', 'payment_terms'));
    expect(s.general_terms).toMatch(/Offerten gäller/);
    expect(s.payment_terms).toMatch(/30 dagar netto/);
  });
});
