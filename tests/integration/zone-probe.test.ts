import { generate, generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CALLS } from '~/core/api/catalogue';
import { isZoneCall } from '~/core/api/define-call';
import { mfaSecretContext } from '~/core/auth/mfa.service';
import { issueOneTimeToken } from '~/core/auth/one-time-token.service';
import { ZONE } from '~/core/auth/principal';
import { hashToken, newToken } from '~/core/auth/session.service';
import { seal } from '~/core/crypto/secret-box';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request, type HttpResponse } from '~/tests/helpers/http';

/**
 * Issue 35's probe (decision 061): a zone user signs in and asks every zone call for records of
 * another customer of its tenant and of another tenant (none answers with them), and every staff
 * call of the catalogue (all refused). Both walks iterate API_CALLS, so a new call is probed as
 * soon as it is added.
 */

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let tenantB: Tenant;

interface Seeded {
  customerId: string;
  objectId: string;
  workOrderId: string;
  fileId: string;
  invoiceId: string;
  deviationId: string;
  agreementId: string;
  proposalId: string;
}

let own: Seeded;
let neighbour: Seeded;
let foreign: Seeded;

const ZONE_EMAIL = 'styrelsen@brf-solglantan.se';
const ZONE_PASSWORD = 'Solgläntan-styrelse-2026';
const INVITE = newToken();

const PROPOSAL_NUMBERS: Record<string, number> = { own: 1, neighbour: 2, foreign: 3 };

/** A customer with one of everything the zone shows, each marked with `label` in its text. */
async function seedCustomer(trx: Trx, label: string): Promise<Seeded> {
  const [c] = await trx('customers').insert({ customer_id: `C-${label}`, name: `Kund ${label}` }).returning('id');
  const [o] = await trx('business_objects')
    .insert({ serial_code: `OBJ-${label}`, customer_id: c.id, location: `Plats ${label}` })
    .returning('id');
  const status = await trx('work_order_statuses').where({ is_default: true }).first('id');
  const type = await trx('work_types').orderBy('sort_order').first('id');
  const [w] = await trx('work_orders')
    .insert({
      number: `WO-${label}`,
      title: `Service ${label}`,
      customer_id: c.id,
      business_object_id: o.id,
      status_id: status.id,
      work_type_id: type.id,
      planned_start: new Date('2026-12-01T08:00:00Z'),
    })
    .returning('id');
  const [f] = await trx('files')
    .insert({
      owner_type: 'wo',
      owner_id: w.id,
      kind: 'file',
      name: `Servicerapport ${label}.pdf`,
      storage_key: `zone-probe/${label}-${newToken()}`,
      content_type: 'application/pdf',
      size: 10,
      published_customer_id: c.id,
      published_at: new Date(),
    })
    .returning('id');
  const [i] = await trx('invoices')
    .insert({
      status: 'finalized',
      invoice_nr: `INV-${label}`,
      customer_id: c.id,
      work_order_id: w.id,
      invoice_date: '2026-11-01',
    })
    .returning('id');
  const [d] = await trx('deviations')
    .insert({ title: `Avvikelse ${label}`, occurred_on: '2026-11-02' })
    .returning('id');
  await trx('deviation_relations').insert({ deviation_id: d.id, kind: 'object', target_id: o.id });
  const [ag] = await trx('agreements')
    .insert({ code: `AG-${label}`, title: `Avtal ${label}`, wo_interval: 'year_1' })
    .returning('id');
  const [oa] = await trx('object_agreements')
    .insert({ business_object_id: o.id, agreement_id: ag.id, valid_from: '2026-01-01', wo_scheduled_to: '2027-01-01' })
    .returning('id');
  // a proposal the office sent (decision 063): the zone shows it and takes its answer
  const [p] = await trx('proposals')
    .insert({ sequence_number: PROPOSAL_NUMBERS[label] ?? 9, title: `Offert ${label}`, customer_id: c.id, sent_at: new Date() })
    .returning('id');
  return {
    proposalId: p.id,
    customerId: c.id,
    objectId: o.id,
    workOrderId: w.id,
    fileId: f.id,
    invoiceId: i.id,
    deviationId: d.id,
    agreementId: oa.id,
  };
}

const zoneHeaders = (token: string) => ({ authorization: `Bearer ${token}` });

async function call(t: TestTenant, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const j = body === undefined ? { headers: {} as Record<string, string> } : jsonBody(body);
  return request(srv.url, { method, path, host: t.host, ...j, headers: { ...j.headers, ...headers } });
}

async function zoneSignIn(email = ZONE_EMAIL, password = ZONE_PASSWORD): Promise<HttpResponse> {
  return call(a, 'POST', '/api/zone/authenticate', {}, { email, password });
}

let zoneToken: string;

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('zone-a');
  b = await createTestTenant('zone-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tenantB = (await getTenantBySlug(b.slug))!;
  await withTenant(tenantA, async (trx) => {
    own = await seedCustomer(trx, 'own');
    neighbour = await seedCustomer(trx, 'neighbour');
    // the office lets this customer keep its details and people (decision 064): those calls answer too
    await trx('customers').where({ id: own.customerId }).update({ zone_self_service: true });
    await trx('customer_zone_users').insert({
      customer_id: own.customerId,
      email: ZONE_EMAIL,
      name: 'Styrelsen',
      status: 'STATUS_REGISTERED',
      invite_token_hash: hashToken(INVITE),
      invite_expires_at: new Date(Date.now() + 86_400_000),
      invited_at: new Date(),
    });
  });
  await withTenant(tenantB, async (trx) => {
    foreign = await seedCustomer(trx, 'foreign');
  });
});
afterAll(() => srv.close());

describe('[zone] sign-in of its own', () => {
  it('an invited user cannot sign in before setting a password; the invitation sets it by the staff policy', async () => {
    expect((await zoneSignIn()).status).toBe(401);
    const check = await call(a, 'POST', '/api/zone/registration/rt', {}, { token: INVITE });
    expect(check.json()).toMatchObject({ valid: true, email: ZONE_EMAIL, name: 'Styrelsen' });
    // the staff password policy: too short, and a common password
    const weak = await call(a, 'POST', '/api/zone/registration/comp', {}, { token: INVITE, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.json().fields.password).toBeDefined();
    const done = await call(a, 'POST', '/api/zone/registration/comp', {}, { token: INVITE, password: ZONE_PASSWORD });
    expect(done.status).toBe(200);
    await withTenant(tenantA, async (trx) => {
      const row = await trx('customer_zone_users').where({ email: ZONE_EMAIL }).first();
      expect(row.status).toBe('STATUS_ACTIVE');
      expect(row.invite_token_hash).toBeNull();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
    });
    // the link is used up
    expect((await call(a, 'POST', '/api/zone/registration/rt', {}, { token: INVITE })).json().code).toBe(
      'TOKEN_EXPIRED',
    );
  });

  it('signs in with a zone session carrying its customer, and records the last sign-in', async () => {
    const res = await zoneSignIn();
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.data.customer).toEqual({ id: own.customerId, name: 'Kund own' });
    zoneToken = body.token;
    const keep = await call(a, 'GET', '/api/zone/keepalive', zoneHeaders(zoneToken));
    expect(keep.json().user.email).toBe(ZONE_EMAIL);
    await withTenant(tenantA, async (trx) => {
      const row = await trx('customer_zone_users').where({ email: ZONE_EMAIL }).first('last_sign_in_at');
      expect(row.last_sign_in_at).not.toBeNull();
      expect(await trx('zone_sessions').where({ token_hash: hashToken(zoneToken) }).first('id')).toBeDefined();
      // a zone session is not a staff session
      expect(await trx('sessions').where({ token_hash: hashToken(zoneToken) }).first()).toBeUndefined();
    });
  });

  it('the same e-mail and password on another tenant, or a wrong password, is the same rejection', async () => {
    expect((await call(b, 'POST', '/api/zone/authenticate', {}, { email: ZONE_EMAIL, password: ZONE_PASSWORD })).status).toBe(401);
    const wrong = await zoneSignIn(ZONE_EMAIL, 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.json().code).toBe('INVALID_EMAIL_OR_PASSWORD');
  });

  it('a staff sign-in with the zone user’s credentials fails, and the staff token is refused by zone calls', async () => {
    const staff = await call(a, 'POST', '/api/authenticate', {}, { email: ZONE_EMAIL, password: ZONE_PASSWORD });
    expect(staff.status).toBe(401);
    const admin = await call(a, 'POST', '/api/authenticate', {}, { email: a.adminEmail, password: PASSWORD });
    const staffToken = admin.json().token as string;
    for (const c of API_CALLS.filter((x) => x.access.permission === 'zone')) {
      const path = `/api${c.path.replace(/:(\w+)/g, own.objectId)}`;
      const res = await call(a, c.method, path, zoneHeaders(staffToken));
      expect(res.status, `${c.method} ${c.path} with a staff token`).toBe(401);
      // and with the staff cookie, as a browser would send it
      const byCookie = await call(a, c.method, path, { cookie: `__Host-ordo_session=${staffToken}` });
      expect(byCookie.status, `${c.method} ${c.path} with the staff cookie`).toBe(401);
    }
  });
});

describe('[zone] the probe: only its own customer, never a staff call', () => {
  const allIds = (s: Seeded) => Object.values(s);

  it('every zone list answers its own records and none of another customer or tenant', async () => {
    // every read without an id (signing out is the walk's end, not a read)
    const lists = API_CALLS.filter(
      (c) => c.access.permission === 'zone' && c.method === 'GET' && !c.path.includes(':') && c.path !== '/zone/logout',
    );
    expect(lists.length).toBeGreaterThanOrEqual(6);
    const seen = new Set<string>();
    for (const c of lists) {
      for (const query of ['', '?status=closed']) {
        const res = await call(a, 'GET', `/api${c.path}${query}`, zoneHeaders(zoneToken));
        expect(res.status, c.path).toBe(200);
        for (const id of [...allIds(neighbour), ...allIds(foreign)]) expect(res.text, `${c.path} leaks ${id}`).not.toContain(id);
        expect(res.text).not.toMatch(/neighbour|foreign/);
        for (const id of allIds(own)) if (res.text.includes(id)) seen.add(id);
      }
    }
    // the lists did show the customer's own records: the probe above can fail
    for (const id of [
      own.objectId,
      own.workOrderId,
      own.fileId,
      own.invoiceId,
      own.deviationId,
      own.agreementId,
      own.proposalId,
    ])
      expect(seen, id).toContain(id);
  });

  it('every zone call with an id answers 404 for any record of another customer or another tenant', async () => {
    const byId = API_CALLS.filter((c) => c.access.permission === 'zone' && c.path.includes(':'));
    expect(byId.length).toBeGreaterThanOrEqual(3);
    for (const c of byId) {
      for (const id of [...allIds(neighbour), ...allIds(foreign)]) {
        const res = await call(a, c.method, `/api${c.path.replace(/:(\w+)/g, id)}`, zoneHeaders(zoneToken));
        expect(res.status, `${c.method} ${c.path} with ${id}`).toBe(404);
        expect(res.text).not.toMatch(/neighbour|foreign/);
      }
    }
    // calls that name a record in their body: a service request for another customer's installation
    for (const objectId of [neighbour.objectId, foreign.objectId]) {
      const res = await call(a, 'POST', '/api/zone/requests', zoneHeaders(zoneToken), { objectId, description: 'probe' });
      expect(res.status, `POST /zone/requests with ${objectId}`).toBe(404);
    }
    await withTenant(tenantA, async (trx) =>
      expect(await trx('work_orders').where({ description: 'probe' }).first('id')).toBeUndefined(),
    );
    // its own installation is found (the 404s above are not everything's answer)
    const mine = await call(a, 'GET', `/api/zone/objects/${own.objectId}`, zoneHeaders(zoneToken));
    expect(mine.status).toBe(200);
    expect(mine.json().history.items.map((w: { id: string }) => w.id)).toEqual([own.workOrderId]);
    expect(mine.json().deviations.map((d: { id: string }) => d.id)).toEqual([own.deviationId]);
  });

  it('every staff call of the catalogue refuses a zone session (401), by bearer token and by cookie', async () => {
    const staffCalls = API_CALLS.filter((c) => !isZoneCall(c) && c.access.permission !== 'public');
    expect(staffCalls.length).toBeGreaterThan(100);
    for (const c of staffCalls) {
      const path = `/api${c.path.replace(/:(\w+)/g, own.customerId)}`;
      const body = ['POST', 'PUT', 'PATCH'].includes(c.method) ? {} : undefined;
      const res = await call(a, c.method, path, zoneHeaders(zoneToken), body);
      expect(res.status, `${c.method} ${c.path}`).toBe(401);
      expect(res.json().code).toBe('INVALID_SESSION');
      const byCookie = await call(a, c.method, path, { cookie: `__Host-ordo_zone=${zoneToken}` });
      expect(byCookie.status, `${c.method} ${c.path} by cookie`).toBe(401);
    }
  });
});

describe('[zone] recovery, second factor, throttling and the end of a session', () => {
  it('a recovery link sets a new password, ends the zone sessions, and the user signs in with it', async () => {
    expect((await call(a, 'POST', '/api/zone/pw', {}, { email: ZONE_EMAIL })).status).toBe(200);
    const token = await withTenant(tenantA, async (trx) => {
      // the mailed link is a zone user's token (its own table); the test issues one it can read
      expect(await trx('zone_user_tokens').where({ purpose: 'recovery' }).first('id')).toBeDefined();
      const user = await trx('customer_zone_users').where({ email: ZONE_EMAIL }).first('id');
      return issueOneTimeToken(trx, { userId: user.id, purpose: 'recovery', now: new Date(), validHours: 1 }, ZONE);
    });
    // a staff recovery call does not know a zone user's link
    expect((await call(a, 'POST', '/api/pw/rt', {}, { token })).json().code).toBe('TOKEN_EXPIRED');
    expect((await call(a, 'POST', '/api/zone/pw/rt', {}, { token })).json().valid).toBe(true);
    const next = 'Solgläntan-nytt-2026!';
    expect((await call(a, 'POST', '/api/zone/pw/comp', {}, { token, password: next })).status).toBe(200);
    expect((await call(a, 'GET', '/api/zone/keepalive', zoneHeaders(zoneToken))).status).toBe(401);
    expect((await zoneSignIn(ZONE_EMAIL, ZONE_PASSWORD)).status).toBe(401);
    const again = await zoneSignIn(ZONE_EMAIL, next);
    expect(again.status).toBe(200);
    zoneToken = again.json().token;
    // sign out: the token stops working at once
    expect((await call(a, 'GET', '/api/zone/logout', zoneHeaders(zoneToken))).status).toBe(200);
    expect((await call(a, 'GET', '/api/zone/objects', zoneHeaders(zoneToken))).status).toBe(401);
    zoneToken = (await zoneSignIn(ZONE_EMAIL, next)).json().token;
  });

  it('with TOTP on, the password alone gives a challenge and the code a zone session', async () => {
    const secret = generateSecret();
    await withTenant(tenantA, async (trx) => {
      const user = await trx('customer_zone_users').where({ email: ZONE_EMAIL }).first('id');
      await trx('zone_user_mfa').insert({
        user_id: user.id,
        secret_sealed: seal(secret, mfaSecretContext(tenantA.id, user.id, ZONE)),
        enabled_at: new Date(),
      });
    });
    const first = await zoneSignIn(ZONE_EMAIL, 'Solgläntan-nytt-2026!');
    expect(first.json()).toMatchObject({ status: 'action', action: 'MFA' });
    const wrong = await call(a, 'POST', '/api/zone/authenticate/mfa', {}, { token: first.json().token, mfaCode: '000000' });
    expect(wrong.status).toBe(400);
    const code = await generate({ secret });
    const ok = await call(a, 'POST', '/api/zone/authenticate/mfa', {}, { token: first.json().token, mfaCode: code });
    expect(ok.status).toBe(200);
    expect(ok.json().data.customer.id).toBe(own.customerId);
    // the staff second step does not know a zone challenge
    const second = await zoneSignIn(ZONE_EMAIL, 'Solgläntan-nytt-2026!');
    const staffStep = await call(a, 'POST', '/api/authenticate/mfa', {}, { token: second.json().token, mfaCode: code });
    expect(staffStep.status).toBe(409);
  });

  it('an inactive zone user cannot sign in, and their open session ends', async () => {
    await withTenant(tenantA, (trx) =>
      trx('customer_zone_users').where({ email: ZONE_EMAIL }).update({ status: 'STATUS_INACTIVE' }),
    );
    expect((await call(a, 'GET', '/api/zone/objects', zoneHeaders(zoneToken))).status).toBe(401);
    expect((await zoneSignIn(ZONE_EMAIL, 'Solgläntan-nytt-2026!')).status).toBe(401);
  });

  it('ten failed zone sign-ins block the address for the zone and for staff (429)', async () => {
    const email = `probe-${Date.now()}@example.se`;
    const headers = {};
    for (let i = 0; i < 10; i++) await call(a, 'POST', '/api/zone/authenticate', headers, { email, password: 'nope-nope' });
    const blocked = await call(a, 'POST', '/api/zone/authenticate', headers, { email, password: 'nope-nope' });
    expect(blocked.status).toBe(429);
    expect(blocked.json().code).toBe('IP_BLOCKED_TRY_AGAIN_LATER');
  });
});
