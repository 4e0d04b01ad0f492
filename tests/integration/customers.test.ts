import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import { SmtpMailer, setMailer } from '~/core/mail/mailer';
import { mailSettled } from '~/core/mail/templates/deliver';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import type { Tenant } from '~/core/tenancy/tenant';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { startSmtpPeer, type SmtpPeer } from '~/tests/helpers/smtp';
import { customerOptions } from '~/core/customers/customer.service';
import { inTenant } from '~/core/unit-of-work';

let srv: TestServer;
let smtp: SmtpPeer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let admin: string;
let tech: string;
let prospector: string;
let adminB: string;
let groupId: string;
let articleId: string;
let foreignCustomer: string;

beforeAll(async () => {
  srv = await startTestServer();
  smtp = await startSmtpPeer();
  setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
  a = await createTestTenant('cust-a');
  b = await createTestTenant('cust-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    // Sales people who may only add potential customers (spec: customers:create_potential).
    await trx('access_levels').insert({
      display_name: 'Prospecting',
      description: 'Potential customers only',
      permissions: ['customers:read', 'customers:create_potential'],
      work_order_limit: 'user',
    });
    await ensureUser(trx, {
      email: `sales@${a.slug}.se`,
      name: 'Sune Säljare',
      password: PASSWORD,
      accessLevels: ['Prospecting'],
    });
    const [g] = await trx('article_groups').insert({ title: 'LARM', display_name: 'Larmutrustning' }).returning('id');
    groupId = g.id;
    const [art] = await trx('articles')
      .insert({
        article_id: 'DET-100',
        title: 'Rörelsedetektor',
        price: '890.00',
        purchase_price: '450.00',
        unit: 'st',
      })
      .returning('id');
    articleId = art.id;
  });
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  prospector = await signIn(a, `sales@${a.slug}.se`);
  adminB = await signIn(b, b.adminEmail);
  foreignCustomer = (
    await call('POST', '/api/customers', adminB, { customer: { customerId: '90001', name: 'Other AB' } }, b.host)
  ).json().id;
});
afterEach(async () => {
  await mailSettled();
  smtp.mails.length = 0;
});
afterAll(async () => {
  setMailer(undefined);
  await smtp?.close();
  await srv?.close();
});

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const solrosen = {
  customerId: '10001',
  name: 'Brf Solrosen',
  type: 'company',
  organizationalNumber: '769612-3456',
  vatNumber: 'SE769612345601',
  country: ' se ',
  peppolId: '0088:7300010000001',
  paymentTermDays: 30,
  bgAccount: '50501055',
  iban: 'SE45 5000 0000 0583 9825 7466',
  bic: 'eSSESESS',
  defaultDiscount: '12,5',
  invoiceLanguage: 'se',
  invoiceEmail: 'faktura@solrosen.se',
  broadcastEmail: 'styrelsen@solrosen.se',
  phone: '08-123 456 78',
  notes: 'Nyckel hos vaktmästaren',
  contacts: [{ name: 'Eva Ek', role: 'Ordförande', phone: '070-111 22 33', email: 'eva@solrosen.se' }],
  addresses: [
    { street: 'Solrosvägen 1', postIndex: '123 45', city: 'Stockholm' },
    { street: 'Solrosvägen 3', postIndex: '123 45', city: 'Stockholm', isPrimary: true },
  ],
};

async function createCustomer(customer: Record<string, unknown>, token = admin) {
  const res = await call('POST', '/api/customers', token, { customer });
  expect(res.status, res.text).toBe(200);
  return res.json().customer as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('[customers] POST /api/customers', () => {
  it('creates a customer with every field, its contacts and addresses (one primary)', async () => {
    const c = await createCustomer(solrosen);
    expect(c).toMatchObject({
      customerId: '10001',
      name: 'Brf Solrosen',
      type: 'company',
      status: 'active',
      potential: false,
      organizationalNumber: '769612-3456',
      country: 'SE',
      peppolId: '0088:7300010000001',
      paymentTermDays: 30,
      bgAccount: '5050-1055',
      iban: 'SE4550000000058398257466',
      bic: 'ESSESESS',
      defaultDiscount: 12.5,
      invoiceLanguage: 'se',
      sendToErp: true,
      ignoreErpInvoices: false,
      reverseVat: false,
      configuration: { invoice: { reverseVat: false }, ignoreErpInvoices: false },
    });
    expect(c.contacts).toEqual([
      {
        name: 'Eva Ek',
        role: 'Ordförande',
        phone: '070-111 22 33',
        email: 'eva@solrosen.se',
        customerName: 'Brf Solrosen',
      },
    ]);
    expect(c.addresses.map((x: { street: string; isPrimary: boolean }) => [x.street, x.isPrimary])).toEqual([
      ['Solrosvägen 1', false],
      ['Solrosvägen 3', true],
    ]);
    const got = (await call('GET', `/api/customers/${c.id}`, tech)).json().customer;
    expect(got).toEqual(c);
  });

  it('answers 400 with the field and its message key', async () => {
    const bad = async (customer: Record<string, unknown>) => {
      const res = await call('POST', '/api/customers', admin, { customer });
      expect(res.status).toBe(400);
      return res.json().fields;
    };
    expect(await bad({ customerId: '20001' })).toEqual({ name: ['ERROR_REQUIRED_FIELD'] });
    expect(await bad({ name: 'Utan nummer' })).toEqual({ customerId: ['ERROR_REQUIRED_FIELD'] });
    expect(await bad({ customerId: '20 001', name: 'X' })).toEqual({ customerId: ['ERROR_NO_SPACES'] });
    expect(
      await bad({
        customerId: '20001',
        name: 'X',
        invoiceEmail: 'not-an-address',
        iban: 'SE45 5000 0000 0583 9825 7467',
        bic: 'ESSE',
        bgAccount: '5050-1056',
        defaultDiscount: 120,
        paymentTermDays: 400,
        type: 'person',
        invoiceLanguage: 'de',
        country: 'Sverige',
        peppolId: '7300010000001',
      }),
    ).toEqual({
      invoiceEmail: ['ERROR_INVALID_EMAIL'],
      iban: ['ERROR_INVALID_IBAN'],
      bic: ['ERROR_INVALID_BIC'],
      bgAccount: ['ERROR_INVALID_BG_ACCOUNT'],
      defaultDiscount: ['ERROR_PERCENT_RANGE'],
      paymentTermDays: ['ERROR_INVALID_VALUE'],
      type: ['ERROR_INVALID_VALUE'],
      invoiceLanguage: ['ERROR_INVALID_VALUE'],
      country: ['ERROR_INVALID_VALUE'],
      peppolId: ['ERROR_PEPPOL_ID'],
    });
    expect(await bad({ customerId: '20001', name: 'X', contacts: [{ role: 'VD' }] })).toEqual({
      'contacts.0.name': ['ERROR_REQUIRED_FIELD'],
    });
    expect(await bad({ customerId: '20001', name: 'X', addresses: [{ city: 'Uppsala' }] })).toEqual({
      'addresses.0.street': ['ERROR_REQUIRED_FIELD'],
    });
    expect((await call('POST', '/api/customers', admin, {})).status).toBe(400);
  });

  it('answers 409 DUPLICATE_CUSTOMER_ID for a taken number, whatever its case', async () => {
    await createCustomer({ customerId: 'K-7', name: 'Kiosken' });
    const res = await call('POST', '/api/customers', admin, { customer: { customerId: 'k-7', name: 'Annan' } });
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({ code: 'DUPLICATE_CUSTOMER_ID' });
  });

  it('makes a single address primary by itself and refuses zero or two primaries among several', async () => {
    const one = await createCustomer({ customerId: '10010', name: 'Ett ställe', addresses: [{ street: 'Gatan 1' }] });
    expect(one.addresses[0].isPrimary).toBe(true);
    for (const flags of [
      [false, false],
      [true, true],
    ]) {
      const res = await call('POST', '/api/customers', admin, {
        customer: {
          customerId: '10011',
          name: 'Två ställen',
          addresses: flags.map((isPrimary, i) => ({ street: `Gatan ${i}`, isPrimary })),
        },
      });
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({
        code: 'ERROR_ONE_PRIMARY_ADDRESS',
        fields: { addresses: ['ERROR_ONE_PRIMARY_ADDRESS'] },
      });
    }
  });

  it('lets the technician read but not create (403)', async () => {
    expect((await call('POST', '/api/customers', tech, { customer: { customerId: '30001', name: 'X' } })).status).toBe(
      403,
    );
    expect((await call('GET', '/api/customers', tech)).status).toBe(200);
    expect((await call('GET', '/api/customers')).status).toBe(401);
  });

  it('lets customers:create_potential create potential customers only, without a number', async () => {
    const res = await call('POST', '/api/customers', prospector, {
      customer: { customerId: '40001', name: 'Riktig AB' },
    });
    expect(res.status).toBe(403);
    const c = await createCustomer({ name: 'Kanske AB', potential: true }, prospector);
    expect(c).toMatchObject({ potential: true, customerId: null });
  });
});

describe('[customers] GET /api/customers', () => {
  beforeAll(async () => {
    await createCustomer({
      customerId: '10101',
      name: 'ICA Nära Fyris',
      organizationalNumber: '556677-8899',
      addresses: [{ street: 'Fyrisgatan 2', city: 'Uppsala' }],
    });
    await createCustomer({ customerId: '10102', name: 'Anders Andersson', type: 'private', personId: '19700101-1234' });
    await createCustomer({ customerId: '10103', name: 'Gamla Bageriet', status: 'inactive' });
  });

  it('searches number, name and organisation number, case-insensitively', async () => {
    const q = async (text: string) =>
      (await call('GET', `/api/customers?q=${encodeURIComponent(text)}`, admin))
        .json()
        .customers.map((c: { name: string }) => c.name);
    expect(await q('fyris')).toEqual(['ICA Nära Fyris']);
    expect(await q('10102')).toEqual(['Anders Andersson']);
    expect(await q('556677')).toEqual(['ICA Nära Fyris']);
    expect(await q('100%')).toEqual([]);
  });

  it('finds a customer by its contacts’ names, in the list and the picker, and forgets a renamed contact', async () => {
    const c = await createCustomer({ customerId: '09104', name: 'Brf Kastanjen' });
    await call('PUT', `/api/customers/${c.id}/contacts`, admin, {
      contacts: [{ name: 'Pia Persson' }, { name: 'Olle Olsson' }],
    });
    const q = async (text: string) =>
      (await call('GET', `/api/customers?q=${encodeURIComponent(text)}`, admin))
        .json()
        .customers.map((x: { name: string }) => x.name);
    // The picker of a new work order asks the same service through its page route.
    const auth = await withTenant(tenantA, (trx) =>
      validateSession(trx, admin, new Date(), { idleMinutes: 30, absoluteHours: 12 }),
    );
    const picker = async (text: string) =>
      (await inTenant({ tenant: tenantA, auth, lang: 'sv' }, (ctx) => customerOptions(ctx, { q: text }))).options.map(
        (o) => o.label,
      );
    expect(await q('pia pers')).toEqual(['Brf Kastanjen']);
    expect(await q('OLSSON')).toEqual(['Brf Kastanjen']);
    // Two names are never read as one.
    expect(await q('persson olle')).toEqual([]);
    expect((await picker('olsson')).join()).toContain('Brf Kastanjen');
    await call('PUT', `/api/customers/${c.id}/contacts`, admin, { contacts: [{ name: 'Pia Persson' }] });
    expect(await q('olsson')).toEqual([]);
    expect(await picker('olsson')).toEqual([]);
    expect(await q('persson')).toEqual(['Brf Kastanjen']);
  });

  it('filters by status, type and potential, and shows the primary address', async () => {
    const list = async (query: string) => (await call('GET', `/api/customers?${query}&limit=200`, admin)).json();
    const inactive = await list('status=inactive');
    expect(inactive.customers.map((c: { name: string }) => c.name)).toEqual(['Gamla Bageriet']);
    const privates = await list('type=private&status=active');
    expect(privates.customers.map((c: { name: string }) => c.name)).toEqual(['Anders Andersson']);
    const potential = await list('potential=true');
    expect(potential.customers.map((c: { name: string }) => c.name)).toEqual(['Kanske AB']);
    const all = await list('status=all');
    expect(all.customers.find((c: { name: string }) => c.name === 'ICA Nära Fyris')).toMatchObject({
      address: 'Fyrisgatan 2, Uppsala',
      city: 'Uppsala',
    });
    expect(all.totalCount).toBe(all.customers.length);
    expect(await list('status=maybe')).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('sorts by name or number and pages with a total, in a fixed number of statements', async () => {
    const byNumberDesc = (await call('GET', '/api/customers?sort=customerId&dir=desc&potential=false', admin)).json();
    const numbers = byNumberDesc.customers.map((c: { customerId: string }) => c.customerId);
    expect(numbers[0]).toBe('K-7');
    expect(numbers.slice(1, 4)).toEqual(['10103', '10102', '10101']);
    const byName = (await call('GET', '/api/customers?limit=200', admin)).json();
    const names = byName.customers.map((c: { name: string }) => c.name.toLowerCase());
    expect(names).toEqual([...names].sort((x: string, y: string) => x.localeCompare(y, 'en')));
    const page1 = await call('GET', '/api/customers?limit=2&offset=0', admin);
    const page2 = await call('GET', '/api/customers?limit=2&offset=2', admin);
    expect(page1.json().totalCount).toBe(byName.totalCount);
    expect(page1.json().customers).toEqual(byName.customers.slice(0, 2));
    expect(page2.json().customers).toEqual(byName.customers.slice(2, 4));
    const many = await call('GET', '/api/customers?limit=200', admin);
    expect(Number(page1.headers['x-sql-statements'])).toBe(Number(many.headers['x-sql-statements']));
  });
});

describe('[customers] one customer', () => {
  it('answers 404 for another tenant’s id, an unknown id and a non-uuid', async () => {
    for (const id of [foreignCustomer, '00000000-0000-4000-8000-000000000000', 'abc']) {
      const res = await call('GET', `/api/customers/${id}`, admin);
      expect(res.status).toBe(404);
      expect(res.json()).toEqual({ code: 'NOT_FOUND' });
    }
    expect(
      (await call('PUT', '/api/customers', admin, { customer: { id: foreignCustomer, name: 'Mine' } })).status,
    ).toBe(404);
    expect((await call('DELETE', `/api/customers/${foreignCustomer}`, admin)).status).toBe(404);
    expect((await call('GET', `/api/customers/${foreignCustomer}/history`, admin)).status).toBe(404);
  });

  it('PUT changes only the fields given, keeps address ids and switches the primary', async () => {
    const c = await createCustomer({ ...solrosen, customerId: '10201', name: 'Brf Vallmon' });
    const [first, second] = c.addresses;
    const res = await call('PUT', '/api/customers', admin, {
      customer: {
        id: c.id,
        phone: '08-999 00 00',
        sendToErp: false,
        addresses: [
          { ...first, isPrimary: true },
          { ...second, isPrimary: false },
          { street: 'Nya gatan 5', city: 'Västerås' },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    const after = res.json().customer;
    expect(after).toMatchObject({
      name: 'Brf Vallmon',
      phone: '08-999 00 00',
      sendToErp: false,
      ignoreErpInvoices: true,
    });
    expect(after.contacts).toHaveLength(1);
    expect(after.addresses.map((x: { id: string; isPrimary: boolean }) => [x.id, x.isPrimary])).toEqual([
      [first.id, true],
      [second.id, false],
      [expect.any(String), false],
    ]);
    const twoPrimaries = await call('PUT', '/api/customers', admin, {
      customer: { id: c.id, addresses: after.addresses.map((x: object) => ({ ...x, isPrimary: true })) },
    });
    expect(twoPrimaries.json().code).toBe('ERROR_ONE_PRIMARY_ADDRESS');
    // An address id of another customer cannot be taken over.
    const other = await createCustomer({ customerId: '10202', name: 'Annan', addresses: [{ street: 'X 1' }] });
    const stolen = await call('PUT', '/api/customers', admin, {
      customer: { id: c.id, addresses: [{ ...other.addresses[0], isPrimary: true }] },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.json().fields).toEqual({ 'addresses.0.id': ['ERROR_INVALID_VALUE'] });
    // Removing every address is allowed.
    const none = await call('PUT', '/api/customers', admin, { customer: { id: c.id, addresses: [] } });
    expect(none.json().customer.addresses).toEqual([]);
  });

  it('PUT needs customers:edit, refuses a taken number and keeps a number for a real customer', async () => {
    const c = await createCustomer({ customerId: '10301', name: 'Skolan' });
    expect((await call('PUT', '/api/customers', tech, { customer: { id: c.id, name: 'Hack' } })).status).toBe(403);
    const dup = await call('PUT', '/api/customers', admin, { customer: { id: c.id, customerId: '10001' } });
    expect(dup.status).toBe(409);
    expect(dup.json().code).toBe('DUPLICATE_CUSTOMER_ID');
    const cleared = await call('PUT', '/api/customers', admin, { customer: { id: c.id, customerId: '' } });
    expect(cleared.json().fields).toEqual({ customerId: ['ERROR_REQUIRED_FIELD'] });
  });

  it('GET and PUT /customers/{id}/id change the number; GET /customers/id/propose proposes the next', async () => {
    const c = await createCustomer({ customerId: '10401', name: 'Nummerbyte' });
    expect((await call('GET', `/api/customers/${c.id}/id`, admin)).json()).toEqual({ customerId: '10401' });
    const res = await call('PUT', `/api/customers/${c.id}/id`, admin, { customerId: '10402' });
    expect(res.json()).toEqual({ customerId: '10402' });
    expect((await call('GET', `/api/customers/${c.id}/id`, tech)).json()).toEqual({ customerId: '10402' });
    const taken = await call('PUT', `/api/customers/${c.id}/id`, admin, { customerId: '10001' });
    expect(taken.status).toBe(409);
    expect((await call('PUT', `/api/customers/${c.id}/id`, admin, { customerId: '1 0' })).json().fields).toEqual({
      customerId: ['ERROR_NO_SPACES'],
    });
    expect((await call('PUT', `/api/customers/${c.id}/id`, tech, { customerId: '10403' })).status).toBe(403);
    const max = (await call('GET', '/api/customers?sort=customerId&dir=desc&limit=200', admin))
      .json()
      .customers.map((x: { customerId: string | null }) => x.customerId)
      .filter((n: string | null) => n && /^\d{5}$/.test(n))
      .map(Number)
      .reduce((m: number, n: number) => Math.max(m, n), 0);
    expect((await call('GET', '/api/customers/id/propose?length=5', admin)).json()).toEqual({ id: String(max + 1) });
    expect((await call('GET', '/api/customers/id/propose?length=7', admin)).json()).toEqual({ id: '1000000' });
  });

  it('GET and PUT /customers/{id}/conf carry invoice.reverseVat and ignoreErpInvoices', async () => {
    const c = await createCustomer({ customerId: '10501', name: 'Konfig AB' });
    const put = await call('PUT', `/api/customers/${c.id}/conf`, admin, {
      configuration: {
        invoice: { reverseVat: true, marking: 'Ref 12' },
        ignoreErpInvoices: true,
        ui: { color: 'red' },
      },
    });
    expect(put.status, put.text).toBe(200);
    const conf = (await call('GET', `/api/customers/${c.id}/conf`, tech)).json().configuration;
    expect(conf).toEqual({
      invoice: { reverseVat: true, marking: 'Ref 12' },
      ignoreErpInvoices: true,
      ui: { color: 'red' },
    });
    const customer = (await call('GET', `/api/customers/${c.id}`, admin)).json().customer;
    expect(customer).toMatchObject({ reverseVat: true, sendToErp: false, ignoreErpInvoices: true });
    await call('PUT', '/api/customers', admin, { customer: { id: c.id, sendToErp: true } });
    expect((await call('GET', `/api/customers/${c.id}/conf`, admin)).json().configuration.ignoreErpInvoices).toBe(
      false,
    );
    expect((await call('PUT', `/api/customers/${c.id}/conf`, admin, { configuration: 'x' })).status).toBe(400);
    expect((await call('PUT', `/api/customers/${c.id}/conf`, tech, { configuration: {} })).status).toBe(403);
  });

  it('GET and PUT /customers/{id}/contacts replace every contact at once', async () => {
    const c = await createCustomer({ ...solrosen, customerId: '10601', name: 'Kontakt AB' });
    const res = await call('PUT', `/api/customers/${c.id}/contacts`, admin, {
      contacts: [
        { name: 'Pia Persson', role: 'Fastighetsskötare', phone: '070-222 33 44' },
        { name: 'Olle Olsson', email: 'olle@kontakt.se' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const contacts = (await call('GET', `/api/customers/${c.id}/contacts`, tech)).json().contacts;
    expect(contacts.map((x: { name: string }) => x.name)).toEqual(['Pia Persson', 'Olle Olsson']);
    expect(contacts[1]).toEqual({
      name: 'Olle Olsson',
      role: null,
      phone: null,
      email: 'olle@kontakt.se',
      customerName: 'Kontakt AB',
    });
    const bad = await call('PUT', `/api/customers/${c.id}/contacts`, admin, {
      contacts: [{ name: 'X', email: 'nope' }, { name: '' }],
    });
    expect(bad.json().fields).toEqual({
      'contacts.0.email': ['ERROR_INVALID_EMAIL'],
      'contacts.1.name': ['ERROR_REQUIRED_FIELD'],
    });
    // Nothing changed on a refused save.
    expect((await call('GET', `/api/customers/${c.id}/contacts`, admin)).json().contacts).toHaveLength(2);
    expect((await call('PUT', `/api/customers/${c.id}/contacts`, tech, { contacts: [] })).status).toBe(403);
  });

  it('GET /customers/{id}/history shows who did what, newest first, in pages', async () => {
    const c = await createCustomer({ customerId: '10701', name: 'Historik AB' });
    await call('PUT', '/api/customers', admin, { customer: { id: c.id, name: 'Historik och Söner AB', notes: 'Ny' } });
    await call('PUT', `/api/customers/${c.id}/id`, admin, { customerId: '10702' });
    // Saving what is already there leaves no trace.
    const same = await call('PUT', '/api/customers', admin, {
      customer: { id: c.id, name: 'Historik och Söner AB', contacts: [], addresses: [] },
    });
    expect(same.status).toBe(200);
    const res = await call('GET', `/api/customers/${c.id}/history`, tech);
    expect(res.status).toBe(200);
    const { rows, totalCount } = res.json();
    expect(totalCount).toBe(3);
    expect(rows.map((r: { action: string }) => r.action)).toEqual(['edit.id', 'edit', 'create']);
    expect(rows[1]).toMatchObject({
      userName: expect.any(String),
      timestamp: expect.any(String),
      data: { changes: { name: { from: 'Historik AB', to: 'Historik och Söner AB' }, notes: true } },
    });
    const page = (await call('GET', `/api/customers/${c.id}/history?from=1&size=1`, admin)).json();
    expect(page.rows.map((r: { action: string }) => r.action)).toEqual(['edit']);
  });

  it('DELETE refuses a customer with objects (409 IN_USE) and deletes one without', async () => {
    const used = await createCustomer({ customerId: '10801', name: 'Har objekt' });
    await withTenant(tenantA, (trx) =>
      trx('business_objects').insert([
        { serial_code: 'OBJ-1', customer_id: used.id },
        { serial_code: 'OBJ-2', customer_id: used.id },
      ]),
    );
    const refused = await call('DELETE', `/api/customers/${used.id}`, admin);
    expect(refused.status).toBe(409);
    expect(refused.json()).toEqual({ code: 'IN_USE', usedBy: { objects: 2 } });
    const free = await createCustomer({ ...solrosen, customerId: '10802', name: 'Tas bort' });
    expect((await call('DELETE', `/api/customers/${free.id}`, tech)).status).toBe(403);
    expect((await call('DELETE', `/api/customers/${free.id}`, admin)).status).toBe(200);
    expect((await call('GET', `/api/customers/${free.id}`, admin)).status).toBe(404);
  });
});

describe('[customers] article-group discounts and customer prices', () => {
  let c: Record<string, string>;
  beforeAll(async () => {
    c = await createCustomer({ customerId: '10901', name: 'Rabatt AB' });
  });

  it('sets a discount as typed or with a type, lists it and removes it', async () => {
    const path = '/api/customers/articlegroupdiscounts';
    const set = await call('POST', path, admin, { customerId: c.id, articleGroupId: groupId, discountValue: '10%' });
    expect(set.status, set.text).toBe(200);
    expect(set.json().discounts).toEqual([
      {
        customerId: c.id,
        articleGroupId: groupId,
        articleGroup: 'LARM – Larmutrustning',
        discountType: 'PERCENTAGE',
        discountValue: '10.00',
      },
    ]);
    await call('PUT', path, admin, {
      customerId: c.id,
      articleGroupId: groupId,
      discountValue: 150,
      discountType: 'REGULAR',
    });
    const list = (await call('GET', `${path}?customerId=${c.id}`, tech)).json().discounts;
    expect(list).toMatchObject([{ discountType: 'REGULAR', discountValue: '150.00' }]);
    const err = async (body: Record<string, unknown>) =>
      (await call('PUT', path, admin, { customerId: c.id, articleGroupId: groupId, ...body })).json().fields;
    expect(await err({ discountValue: '120', discountType: 'PERCENTAGE' })).toEqual({
      discountValue: ['ERROR_PERCENT_RANGE'],
    });
    expect(await err({ discountValue: 'tio' })).toEqual({ discountValue: ['ERROR_DISCOUNT_PATTERN'] });
    expect(await err({ discountValue: '-5', discountType: 'REGULAR' })).toEqual({
      discountValue: ['ERROR_NEGATIVE_AMOUNT'],
    });
    expect(
      (await call('PUT', path, tech, { customerId: c.id, articleGroupId: groupId, discountValue: '5%' })).status,
    ).toBe(403);
    expect(
      (await call('PUT', path, admin, { customerId: foreignCustomer, articleGroupId: groupId, discountValue: '5%' }))
        .status,
    ).toBe(404);
    expect((await call('DELETE', `${path}?customerId=${c.id}&articleGroupId=${groupId}`, admin)).status).toBe(200);
    expect((await call('GET', `${path}?customerId=${c.id}`, admin)).json().discounts).toEqual([]);
    await call('PUT', path, admin, { customerId: c.id, articleGroupId: groupId, discountValue: '5%' });
    // An empty discount (or type NONE) clears it, as the spec's discount field does.
    const cleared = await call('PUT', path, admin, { customerId: c.id, articleGroupId: groupId, discountValue: '' });
    expect(cleared.json().discounts).toEqual([]);
  });

  it('sets, lists and removes the customer’s own article price', async () => {
    const set = await call('PUT', '/api/customers/articles', admin, { customerId: c.id, articleId, price: '749,50' });
    expect(set.status, set.text).toBe(200);
    const list = (await call('GET', `/api/customers/${c.id}/articles`, tech)).json().articles;
    expect(list).toEqual([
      {
        articleId,
        articleNumber: 'DET-100',
        title: 'Rörelsedetektor',
        unit: 'st',
        price: '749.50',
        listPrice: '890.00',
      },
    ]);
    const bad = async (price: unknown) =>
      (await call('PUT', '/api/customers/articles', admin, { customerId: c.id, articleId, price })).json().fields;
    expect(await bad('12 kr')).toEqual({ price: ['ERROR_PRICE_PATTERN'] });
    expect(await bad(-1)).toEqual({ price: ['ERROR_NEGATIVE_AMOUNT'] });
    expect(
      (
        await call('PUT', '/api/customers/articles', admin, { customerId: c.id, articleId: foreignCustomer, price: 1 })
      ).json().fields,
    ).toEqual({ articleId: ['ERROR_INVALID_VALUE'] });
    expect((await call('PUT', '/api/customers/articles', tech, { customerId: c.id, articleId, price: 1 })).status).toBe(
      403,
    );
    expect((await call('DELETE', `/api/customers/${c.id}/articles?articleId=${articleId}`, admin)).status).toBe(200);
    expect((await call('GET', `/api/customers/${c.id}/articles`, admin)).json().articles).toEqual([]);
    expect((await call('DELETE', `/api/customers/${c.id}/articles?articleId=${articleId}`, admin)).status).toBe(404);
  });
});

describe('[customers] customer-zone users', () => {
  let c: Record<string, string>;
  let english: Record<string, string>;
  beforeAll(async () => {
    c = await createCustomer({ customerId: '11001', name: 'Zon AB' });
    english = await createCustomer({ customerId: '11002', name: 'Zone Ltd', invoiceLanguage: 'en' });
  });

  const linkToken = (text: string) => {
    const m = /https?:\/\/\S+\/zone\/register\?t=([^&\s]+)&lang=(\w+)/.exec(text);
    if (!m) throw new Error(`no link in:\n${text}`);
    return { token: decodeURIComponent(m[1]!), lang: m[2]! };
  };
  const storedHash = (id: string) =>
    withTenant(
      tenantA,
      async (trx) => (await trx('customer_zone_users').where({ id }).first('invite_token_hash')).invite_token_hash,
    );

  it('creates a zone user as registered and mails a single-use invitation in the tenant’s language', async () => {
    const res = await call('POST', `/api/customers/${c.id}/zone/auth`, admin, {
      customerId: c.id,
      email: 'kund@zon.se',
      name: 'Karin Kund',
      status: 'STATUS_ACTIVE',
      hostname: a.host,
    });
    expect(res.status, res.text).toBe(200);
    const { id, user } = res.json();
    expect(user).toMatchObject({
      id,
      customerId: c.id,
      email: 'kund@zon.se',
      name: 'Karin Kund',
      status: 'STATUS_REGISTERED',
    });
    const mail = await smtp.waitForMail((m) => m.to.includes('kund@zon.se'));
    expect(mail.subject).toBe('cust-a AB bjuder in dig till kundzonen');
    expect(mail.text).toContain('kundzonen för Zon AB');
    const { token, lang } = linkToken(mail.text);
    expect(lang).toBe('se');
    expect(mail.text).toContain(`http://${a.host}:`);
    // Only the hash of the token is kept.
    expect(await storedHash(id)).toBe(hashToken(token));
    const list = (await call('GET', `/api/customers/${c.id}/zone/auth`, admin)).json().users;
    expect(list.map((u: { email: string }) => u.email)).toEqual(['kund@zon.se']);
  });

  it('mails in the customer’s invoice language when it has one', async () => {
    await call('POST', `/api/customers/${english.id}/zone/auth`, admin, {
      email: 'buyer@zone.co.uk',
      name: 'Bob Buyer',
    });
    const mail = await smtp.waitForMail((m) => m.to.includes('buyer@zone.co.uk'));
    expect(mail.subject).toBe('cust-a AB invites you to the customer zone');
    expect(linkToken(mail.text).lang).toBe('en');
  });

  it('refuses an address any zone user has (409 ZONE_USER_EMAIL_TAKEN) and bad input (400)', async () => {
    const dup = await call('POST', `/api/customers/${english.id}/zone/auth`, admin, {
      email: 'KUND@zon.se',
      name: 'Dubbel',
    });
    expect(dup.status).toBe(409);
    expect(dup.json().code).toBe('ZONE_USER_EMAIL_TAKEN');
    const bad = await call('POST', `/api/customers/${c.id}/zone/auth`, admin, { email: 'x', name: '' });
    expect(bad.json().fields).toEqual({ email: ['ERROR_INVALID_EMAIL'], name: ['ERROR_REQUIRED_FIELD'] });
    await mailSettled();
    expect(smtp.mails).toEqual([]);
  });

  it('resends with a new token (the old one stops matching) and sets STATUS_REGISTERED again', async () => {
    const [user] = (await call('GET', `/api/customers/${c.id}/zone/auth`, admin)).json().users;
    const before = await storedHash(user.id);
    await withTenant(tenantA, (trx) =>
      trx('customer_zone_users').where({ id: user.id }).update({ status: 'STATUS_ACTIVE' }),
    );
    const res = await call('POST', `/api/customers/${c.id}/zone/auth`, admin, { resend: 1, userId: user.id });
    expect(res.status, res.text).toBe(200);
    expect(res.json().user.status).toBe('STATUS_REGISTERED');
    const mail = await smtp.waitForMail((m) => m.to.includes('kund@zon.se'));
    const after = await storedHash(user.id);
    expect(after).toBe(hashToken(linkToken(mail.text).token));
    expect(after).not.toBe(before);
    const byEmail = await call('POST', `/api/customers/${c.id}/zone/auth`, admin, {
      resend: '1',
      email: 'kund@zon.se',
    });
    expect(byEmail.status).toBe(200);
    expect(
      (await call('POST', `/api/customers/${english.id}/zone/auth`, admin, { resend: 1, userId: user.id })).status,
    ).toBe(404);
  });

  it('edits name and e-mail, deletes, and keeps to its customer and tenant', async () => {
    const [user] = (await call('GET', `/api/customers/${c.id}/zone/auth`, admin)).json().users;
    const res = await call('PUT', `/api/customers/${c.id}/zone/auth/${user.id}`, admin, {
      name: 'Karin Kundsson',
      email: 'karin@zon.se',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json().user).toMatchObject({ name: 'Karin Kundsson', email: 'karin@zon.se' });
    // The pending invitation went to the old address: it no longer works.
    expect(await storedHash(user.id)).toBeNull();
    const taken = await call('PUT', `/api/customers/${c.id}/zone/auth/${user.id}`, admin, {
      email: 'buyer@zone.co.uk',
    });
    expect(taken.status).toBe(409);
    expect((await call('PUT', `/api/customers/${english.id}/zone/auth/${user.id}`, admin, { name: 'X' })).status).toBe(
      404,
    );
    expect((await call('GET', `/api/customers/${foreignCustomer}/zone/auth`, admin)).status).toBe(404);
    expect((await call('GET', `/api/customers/${c.id}/zone/auth`, tech)).status).toBe(403);
    expect((await call('POST', `/api/customers/${c.id}/zone/auth`, tech, { email: 't@t.se', name: 'T' })).status).toBe(
      403,
    );
    expect((await call('DELETE', `/api/customers/${c.id}/zone/auth/${user.id}`, admin)).status).toBe(200);
    expect((await call('GET', `/api/customers/${c.id}/zone/auth`, admin)).json().users).toEqual([]);
    const history = (await call('GET', `/api/customers/${c.id}/history`, admin))
      .json()
      .rows.map((r: { action: string }) => r.action);
    expect(history.slice(0, 5)).toEqual(['zone.delete', 'zone.edit', 'zone.resend', 'zone.resend', 'zone.invite']);
  });
});
