import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { getTenantBySlug } from '~/tenants/registry';
import type { Tenant } from '~/core/tenancy/tenant';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;
let adminB: string;

const IBAN = 'SE45 5000 0000 0583 9825 7466';

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('sup-a');
  b = await createTestTenant('sup-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

async function history(id: string) {
  return withTenant(tenantA, (trx) =>
    trx('history').where({ entity: 'supplier', entity_id: id }).orderBy('id').select('action', 'data'),
  );
}

describe('[suppliers] POST /api/suppliers', () => {
  it('creates a supplier from {supplier}, normalising IBAN and BIC, and writes history', async () => {
    const res = await call('POST', '/api/suppliers', admin, {
      supplier: {
        number: '2001',
        title: 'Ahlsell',
        name: 'Ahlsell Sverige AB',
        iban: IBAN,
        bic: 'esse se ss',
        erpAccount: '2440',
        tags: ['el', 'El', 'larm'],
      },
    });
    expect(res.status).toBe(200);
    const s = res.json();
    expect(s).toMatchObject({
      number: '2001',
      title: 'Ahlsell',
      iban: 'SE4550000000058398257466',
      bic: 'ESSESESS',
      erpAccount: '2440',
      tags: ['el', 'larm'],
      status: 'active',
      contacts: [],
    });
    expect((await history(s.id)).map((h) => h.action)).toEqual(['create']);
  });

  it("accepts the catalogue's {title, name} and proposes the next 4-digit number", async () => {
    const res = await call('POST', '/api/suppliers', admin, { title: 'Elektroskandia', name: 'Elektroskandia AB' });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ number: '2002', title: 'Elektroskandia', tags: [] });
  });

  it('refuses an invalid IBAN and BIC with their message keys (400)', async () => {
    const res = await call('POST', '/api/suppliers', admin, {
      supplier: { title: 'Fel Bank AB', iban: 'SE45 5000 0000 0583 9825 7467', bic: 'ESSEXXSS' },
    });
    expect(res.status).toBe(400);
    expect(res.json().fields).toEqual({ iban: ['ERROR_INVALID_IBAN'], bic: ['ERROR_INVALID_BIC'] });
    const wrongLength = await call('POST', '/api/suppliers', admin, { title: 'X', iban: 'SE45500000000583982574' });
    expect(wrongLength.json().fields.iban).toEqual(['ERROR_INVALID_IBAN']);
  });

  it('refuses a missing title, spaces in the number, letters in the ERP account and bad tags', async () => {
    const res = await call('POST', '/api/suppliers', admin, {
      supplier: { number: '20 03', erpAccount: '24a0', tags: ['x'] },
    });
    expect(res.status).toBe(400);
    expect(res.json().fields).toEqual({
      title: ['ERROR_REQUIRED_FIELD'],
      number: ['ERROR_NO_SPACES'],
      erpAccount: ['ERROR_DIGITS_ONLY'],
      'tags.0': ['ERROR_TAG_INVALID'],
    });
  });

  it('answers 409 DUPLICATE_SUPPLIER_NUMBER for a taken number, whatever its case', async () => {
    await call('POST', '/api/suppliers', admin, { supplier: { number: 'SOL-1', title: 'Solar' } });
    const res = await call('POST', '/api/suppliers', admin, { supplier: { number: 'sol-1', title: 'Solar igen' } });
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ code: 'DUPLICATE_SUPPLIER_NUMBER' });
  });

  it('needs suppliers:edit (403) and a session (401)', async () => {
    expect((await call('POST', '/api/suppliers', tech, { title: 'Nope' })).status).toBe(403);
    expect((await call('POST', '/api/suppliers', 'not-a-token', { title: 'Nope' })).status).toBe(401);
  });
});

describe('[suppliers] GET /api/suppliers, /q, /{id}, /id/propose', () => {
  it('lists with search, status, tag, sort and paging in SQL, with the total', async () => {
    const all = (await call('GET', '/api/suppliers?status=all&sort=number', admin)).json();
    expect(all.suppliers.map((s: { number: string }) => s.number)).toEqual(['2001', '2002', 'SOL-1']);
    expect(all.totalCount).toBe(3);
    const page = (await call('GET', '/api/suppliers?status=all&sort=number&desc=true&limit=1&offset=1', admin)).json();
    expect(page.suppliers.map((s: { number: string }) => s.number)).toEqual(['2002']);
    expect(page.totalCount).toBe(3);
    const byName = (await call('GET', '/api/suppliers?q=sverige', admin)).json();
    expect(byName.suppliers.map((s: { title: string }) => s.title)).toEqual(['Ahlsell']);
    const byTag = (await call('GET', '/api/suppliers?tag=larm', admin)).json();
    expect(byTag.suppliers.map((s: { title: string }) => s.title)).toEqual(['Ahlsell']);
    const bad = await call('GET', '/api/suppliers?limit=500', admin);
    expect(bad.status).toBe(400);
  });

  it('answers the picker search with at most 200 and the count', async () => {
    const res = (await call('GET', '/api/suppliers/q?q=ahl', admin)).json();
    expect(res.total).toBe(1);
    expect(res.suppliers[0]).toMatchObject({ number: '2001', title: 'Ahlsell' });
  });

  it('reads one supplier; another tenant or a non-uuid id is 404', async () => {
    const { suppliers } = (await call('GET', '/api/suppliers?q=ahlsell', admin)).json();
    const id = suppliers[0].id;
    expect((await call('GET', `/api/suppliers/${id}`, admin)).json().iban).toBe('SE4550000000058398257466');
    expect((await call('GET', `/api/suppliers/${id}`, adminB, undefined, b.host)).status).toBe(404);
    expect((await call('GET', '/api/suppliers/nope', admin)).status).toBe(404);
    expect((await call('GET', `/api/suppliers/${id}`, tech)).status).toBe(403);
  });

  it('proposes the next free number of the asked length', async () => {
    expect((await call('GET', '/api/suppliers/id/propose?length=4', admin)).json()).toEqual({ id: '2003' });
    expect((await call('GET', '/api/suppliers/id/propose?length=6', admin)).json()).toEqual({ id: '100000' });
    expect((await call('GET', '/api/suppliers/id/propose?length=0', admin)).status).toBe(400);
  });
});

describe('[suppliers] PUT /api/suppliers and /{id}/contacts', () => {
  let id: string;
  beforeAll(async () => {
    id = (await call('POST', '/api/suppliers', admin, { supplier: { number: '3001', title: 'Axis' } })).json().id;
  });

  it('changes only the fields given and records what changed', async () => {
    const res = await call('PUT', '/api/suppliers', admin, {
      supplier: { id, name: 'Axis Communications AB', bic: 'NDEASESS', status: 'inactive' },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      number: '3001',
      title: 'Axis',
      name: 'Axis Communications AB',
      status: 'inactive',
    });
    const h = await history(id);
    expect(h.map((x) => x.action)).toEqual(['create', 'edit']);
    expect(Object.keys(h[1]!.data.changed).sort()).toEqual(['bic', 'name', 'status']);
  });

  it('refuses a bad IBAN, a taken number, and another tenant’s id', async () => {
    expect((await call('PUT', '/api/suppliers', admin, { supplier: { id, iban: 'SE00' } })).json().fields).toEqual({
      iban: ['ERROR_INVALID_IBAN'],
    });
    const taken = await call('PUT', '/api/suppliers', admin, { supplier: { id, number: '2001' } });
    expect(taken.status).toBe(409);
    expect(taken.json().code).toBe('DUPLICATE_SUPPLIER_NUMBER');
    // The refused change left the supplier as it was.
    expect((await call('GET', `/api/suppliers/${id}`, admin)).json().number).toBe('3001');
    expect((await call('PUT', '/api/suppliers', adminB, { supplier: { id, title: 'X' } }, b.host)).status).toBe(404);
    expect((await call('PUT', '/api/suppliers', tech, { supplier: { id, title: 'X' } })).status).toBe(403);
  });

  it('replaces the contacts in order, validating each', async () => {
    const bad = await call('PUT', `/api/suppliers/${id}/contacts`, admin, {
      contacts: [{ name: '' }, { name: 'Ok', email: 'not-an-email' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({
      'contacts.0.name': ['ERROR_REQUIRED_FIELD'],
      'contacts.1.email': ['ERROR_INVALID_EMAIL'],
    });
    const res = await call('PUT', `/api/suppliers/${id}/contacts`, admin, {
      contacts: [
        { name: 'Karin Lund', role: 'Säljare', phone: '046-27 01 800', email: 'karin.lund@axis.com' },
        { name: 'Order', email: 'order@axis.com' },
      ],
    });
    expect(res.status).toBe(200);
    const again = await call('PUT', `/api/suppliers/${id}/contacts`, admin, {
      contacts: [
        { name: 'Order', email: 'order@axis.com' },
        { name: 'Karin Lund', role: 'Säljare' },
      ],
    });
    expect(again.status).toBe(200);
    const s = (await call('GET', `/api/suppliers/${id}`, admin)).json();
    expect(s.contacts.map((c: { name: string }) => c.name)).toEqual(['Order', 'Karin Lund']);
    expect((await history(id)).map((h) => h.action)).toContain('contacts');
    expect((await call('PUT', `/api/suppliers/${id}/contacts`, adminB, { contacts: [] }, b.host)).status).toBe(404);
  });
});

describe('[suppliers] DELETE /api/suppliers/{id}', () => {
  it('answers 409 IN_USE with the count while articles name the supplier, then deletes', async () => {
    const id = (
      await call('POST', '/api/suppliers', admin, { supplier: { number: '4001', title: 'Securitas' } })
    ).json().id;
    const articleIds = await withTenant(tenantA, async (trx) => {
      const rows = await trx('articles')
        .insert([
          { article_id: 'KAM-1', title: 'Kamera', price: 1000, purchase_price: 600 },
          { article_id: 'KAM-2', title: 'Kamera 2', price: 1000, purchase_price: 600 },
        ])
        .returning('id');
      await trx('article_suppliers').insert(
        rows.map((r: { id: string }, i: number) => ({
          article_id: r.id,
          supplier_id: id,
          supplier_article_number: `S-${i}`,
          purchase_price: '599.50',
        })),
      );
      return rows.map((r: { id: string }) => r.id);
    });
    expect((await call('DELETE', `/api/suppliers/${id}`, tech)).status).toBe(403);
    expect((await call('DELETE', `/api/suppliers/${id}`, adminB, undefined, b.host)).status).toBe(404);
    const inUse = await call('DELETE', `/api/suppliers/${id}`, admin);
    expect(inUse.status).toBe(409);
    expect(inUse.json()).toMatchObject({ code: 'IN_USE', usedBy: { articles: 2 } });
    await withTenant(tenantA, (trx) => trx('article_suppliers').whereIn('article_id', articleIds).delete());
    expect((await call('DELETE', `/api/suppliers/${id}`, admin)).status).toBe(200);
    expect((await call('GET', `/api/suppliers/${id}`, admin)).status).toBe(404);
    expect((await history(id)).map((h) => h.action)).toEqual(['create', 'delete']);
  });
});

describe('[suppliers] demo data', () => {
  it('seeds six suppliers with a contact each, once, readable through the API', async () => {
    const { seedDemoSuppliers } = await import('~/tenants/demo-data/suppliers');
    const tenantB = (await getTenantBySlug(b.slug))!;
    await withTenant(tenantB, (trx) => seedDemoSuppliers(trx));
    await withTenant(tenantB, (trx) => seedDemoSuppliers(trx));
    const list = (await call('GET', '/api/suppliers?sort=number', adminB, undefined, b.host)).json();
    expect(list.totalCount).toBe(6);
    expect(list.suppliers[0]).toMatchObject({ number: '2001', title: 'Ahlsell', tags: ['el', 'grossist'] });
    const one = (await call('GET', `/api/suppliers/${list.suppliers[3].id}`, adminB, undefined, b.host)).json();
    expect(one.contacts).toHaveLength(1);
  });
});
