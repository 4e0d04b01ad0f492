import { generate } from 'otplib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '~/core/auth/password';
import { withTenant, type Trx } from '~/core/db/with-tenant';
import { getFileStore } from '~/core/files/store';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, multipart, request, type Part } from '~/tests/helpers/http';

/**
 * What a customer does in its zone (issue 35 item 3, decision 064): asks for service (a new
 * unplanned work order of its own installation, photos as the order's files), sets up TOTP for
 * its own sign-in, and — where the office allows it — keeps its company's contact details and its
 * zone users. Real PostgreSQL, the HTTP API as a client would call it.
 */

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let tenantB: Tenant;
let png: Buffer;

const ZONE_PASSWORD = 'Brf-Eken-styrelse-2026';
let own: { customerId: string; objectId: string; otherObjectId: string };
let neighbour: { customerId: string; objectId: string; userId: string };
let foreignObjectId: string;
let boardToken: string;
let colleagueId: string;
let staffToken: string;

async function customerWithObjects(trx: Trx, label: string) {
  const [c] = await trx('customers')
    .insert({ customer_id: `Z-${label}`, name: `Brf ${label}` })
    .returning('id');
  await trx('customer_addresses').insert({
    customer_id: c.id,
    street: `${label}vägen 1`,
    post_index: '12345',
    city: 'Ekby',
    is_primary: true,
  });
  const objects = await trx('business_objects')
    .insert([
      { serial_code: `PORT-${label}`, customer_id: c.id, location: 'Garageport' },
      { serial_code: `LARM-${label}`, customer_id: c.id, location: 'Entré' },
    ])
    .returning('id');
  return { customerId: c.id as string, objectId: objects[0].id as string, otherObjectId: objects[1].id as string };
}

async function zoneUser(trx: Trx, customerId: string, email: string, name: string) {
  const [u] = await trx('customer_zone_users')
    .insert({
      customer_id: customerId,
      email,
      name,
      status: 'STATUS_ACTIVE',
      password_hash: await hashPassword(ZONE_PASSWORD),
    })
    .returning('id');
  return u.id as string;
}

type Headers = Record<string, string>;
const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });

function call(t: TestTenant, method: string, path: string, headers: Headers = {}, body?: unknown) {
  const j = body === undefined ? { headers: {} as Headers } : jsonBody(body);
  return request(srv.url, { method, path, host: t.host, ...j, headers: { ...j.headers, ...headers } });
}

function upload(token: string, parts: Part[]) {
  const form = multipart(parts);
  return request(srv.url, {
    method: 'POST',
    path: '/api/zone/requests',
    host: a.host,
    body: form.body,
    headers: { ...bearer(token), 'content-type': form.type },
  });
}

async function zoneSignIn(email: string, password = ZONE_PASSWORD): Promise<string> {
  const res = await call(a, 'POST', '/api/zone/authenticate', {}, { email, password });
  expect(res.status, res.text).toBe(200);
  return res.json().token as string;
}

const workOrders = () => withTenant(tenantA, (trx) => trx('work_orders').count<{ count: string }[]>('* as count'));

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('zreq-a');
  b = await createTestTenant('zreq-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tenantB = (await getTenantBySlug(b.slug))!;
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#aa3322' } })
    .png()
    .toBuffer();
  await withTenant(tenantA, async (trx) => {
    own = await customerWithObjects(trx, 'Eken');
    const n = await customerWithObjects(trx, 'Granen');
    await zoneUser(trx, own.customerId, 'styrelsen@eken.se', 'Styrelsen Eken');
    colleagueId = await zoneUser(trx, own.customerId, 'vicevard@eken.se', 'Vicevärden Eken');
    neighbour = {
      customerId: n.customerId,
      objectId: n.objectId,
      userId: await zoneUser(trx, n.customerId, 'styrelsen@granen.se', 'Styrelsen Granen'),
    };
  });
  await withTenant(tenantB, async (trx) => {
    foreignObjectId = (await customerWithObjects(trx, 'Aspen')).objectId;
  });
  boardToken = await zoneSignIn('styrelsen@eken.se');
  staffToken = (await call(a, 'POST', '/api/authenticate', {}, { email: a.adminEmail, password: PASSWORD })).json()
    .token as string;
});
afterAll(() => srv.close());

describe('[zone] ask for service', () => {
  it('becomes an unplanned work order of the customer and installation, with the customer’s words and who asked', async () => {
    const words = 'Garageporten stannar halvvägs\nDen går upp en meter och stannar, sedan i förrgår.';
    const res = await call(a, 'POST', '/api/zone/requests', bearer(boardToken), {
      objectId: own.objectId,
      description: words,
    });
    expect(res.status, res.text).toBe(200);
    const { request: made } = res.json();
    expect(made).toMatchObject({
      title: 'Garageporten stannar halvvägs',
      description: words,
      requestedBy: 'Styrelsen Eken',
      objectId: own.objectId,
      objectSerialCode: 'PORT-Eken',
      plannedStart: null,
      closed: false,
      photos: 0,
    });
    const row = await withTenant(tenantA, async (trx) => {
      const wo = await trx('work_orders').where({ id: made.id }).first();
      const status = await trx('work_order_statuses').where({ id: wo.status_id }).first();
      const type = await trx('work_types').where({ id: wo.work_type_id }).first();
      const history = await trx('history').where({ entity_id: made.id, action: 'create' }).first();
      const plans = await trx('work_order_schedules').where({ work_order_id: made.id });
      return { wo, status, type, history, plans };
    });
    expect(row.wo).toMatchObject({
      customer_id: own.customerId,
      business_object_id: own.objectId,
      description: words,
      priority: 'medium',
      contact_name: 'Styrelsen Eken',
      contact_email: 'styrelsen@eken.se',
      street: 'Ekenvägen 1',
      city: 'Ekby',
      zone_requested_name: 'Styrelsen Eken',
      create_user_id: null,
      closed_at: null,
      planned_start: null,
    });
    expect(row.wo.zone_requested_by).toBeTruthy();
    // the work-order create rules' defaults: the default status (not a closing one), the default type
    expect(row.status.is_default).toBe(true);
    expect(row.status.is_closing).toBe(false);
    expect(row.type.is_default).toBe(true);
    expect(row.plans).toEqual([]);
    expect(row.history.user_id).toBeNull();
    expect(JSON.parse(JSON.stringify(row.history.data))).toMatchObject({
      zoneRequest: { name: 'Styrelsen Eken', email: 'styrelsen@eken.se' },
    });

    // the office finds it among the unplanned orders of its planning board, and opens it
    const board = await call(
      a,
      'GET',
      `/api/wo/calendar?period=week&date=2026-12-09&q=${encodeURIComponent('stannar halvvägs')}`,
      bearer(staffToken),
    );
    expect(board.status, board.text).toBe(200);
    expect(board.json().unscheduled.map((o: { id: string }) => o.id)).toContain(made.id);
    const opened = await call(a, 'GET', `/api/wo/${made.id}`, bearer(staffToken));
    expect(opened.json().workOrder.description).toBe(words);
  });

  it('takes photos with the request (images only), stored as the order’s files', async () => {
    const res = await upload(boardToken, [
      { name: 'objectId', body: own.otherObjectId },
      { name: 'description', body: 'Larmet piper i entrén varje natt' },
      { name: 'photos', filename: 'entre.png', body: png, type: 'image/png' },
      { name: 'photos', filename: 'panel.png', body: png, type: 'image/png' },
      // a form's file input left empty is no photo
      { name: 'photos', filename: '', body: '', type: 'application/octet-stream' },
    ]);
    expect(res.status, res.text).toBe(200);
    const made = res.json().request;
    expect(made.photos).toBe(2);
    const files = await withTenant(tenantA, (trx) =>
      trx('files').where({ owner_type: 'wo', owner_id: made.id }).orderBy('sort_order'),
    );
    expect(files.map((f) => [f.name, f.content_type])).toEqual([
      ['entre.png', 'image/png'],
      ['panel.png', 'image/png'],
    ]);
    expect(files[0].thumb_key).toBeTruthy();
    // the bytes are in the file store, and the office downloads them
    expect(await getFileStore().stat(files[0].storage_key)).toEqual({ size: png.length });
    const download = await call(a, 'GET', `/api/file/${files[0].id}`, bearer(staffToken));
    expect(download.status).toBe(200);
  });

  it('refuses what is not a picture, and bad input, with the field named and nothing written', async () => {
    const before = await workOrders();
    const pdf = await upload(boardToken, [
      { name: 'objectId', body: own.objectId },
      { name: 'description', body: 'Se bifogat' },
      { name: 'photos', filename: 'bild.png', body: Buffer.from('%PDF-1.4\n%%EOF\n'), type: 'image/png' },
    ]);
    expect(pdf.status).toBe(400);
    expect(pdf.json().fields).toEqual({ photos: ['FILE_NOT_AN_IMAGE'] });

    const empty = await call(a, 'POST', '/api/zone/requests', bearer(boardToken), {
      objectId: own.objectId,
      description: '  ',
    });
    expect(empty.status).toBe(400);
    expect(empty.json().fields.description).toEqual(['ERROR_REQUIRED_FIELD']);
    const long = await call(a, 'POST', '/api/zone/requests', bearer(boardToken), {
      objectId: own.objectId,
      description: 'x'.repeat(4001),
    });
    expect(long.json().fields.description).toEqual(['ERROR_MAX_LENGTH']);
    const noObject = await upload(boardToken, [{ name: 'description', body: 'Något är fel' }]);
    expect(noObject.status).toBe(400);
    expect(noObject.json().fields.objectId).toEqual(['ERROR_REQUIRED_FIELD']);
    expect((await workOrders())[0]!.count).toBe(before[0]!.count);
  });

  it('another customer’s installation, of this company or another, is not found (404), and nothing is written', async () => {
    const before = await workOrders();
    for (const objectId of [neighbour.objectId, foreignObjectId, 'not-an-id']) {
      const res = await call(a, 'POST', '/api/zone/requests', bearer(boardToken), { objectId, description: 'Trasig' });
      expect(res.status, objectId).toBe(404);
    }
    const withPhoto = await upload(boardToken, [
      { name: 'objectId', body: neighbour.objectId },
      { name: 'description', body: 'Trasig' },
      { name: 'photos', filename: 'x.png', body: png, type: 'image/png' },
    ]);
    expect(withPhoto.status).toBe(404);
    expect((await workOrders())[0]!.count).toBe(before[0]!.count);
    // the photo that came with the refused request left no file row
    const orphan = await withTenant(tenantA, (trx) => trx('files').where({ name: 'x.png' }).first());
    expect(orphan).toBeUndefined();
  });

  it('the customer follows its requests — any of its people’s — and sees no one else’s', async () => {
    const granen = await zoneSignIn('styrelsen@granen.se');
    const theirs = await call(a, 'POST', '/api/zone/requests', bearer(granen), {
      objectId: neighbour.objectId,
      description: 'Grannens ärende',
    });
    expect(theirs.status).toBe(200);
    const colleague = await zoneSignIn('vicevard@eken.se');
    const list = await call(a, 'GET', '/api/zone/requests', bearer(colleague));
    expect(list.status).toBe(200);
    const items = list.json().items as { id: string; title: string; requestedBy: string }[];
    expect(items.map((i) => i.title)).toEqual(['Larmet piper i entrén varje natt', 'Garageporten stannar halvvägs']);
    expect(list.text).not.toContain('Grannens');

    // the office plans and then closes it: the customer sees the planned date and the status follow
    const id = items[1]!.id;
    await withTenant(tenantA, async (trx) => {
      const closing = await trx('work_order_statuses').where({ is_closing: true }).first('id');
      await trx('work_orders')
        .where({ id })
        .update({ planned_start: new Date('2026-12-08T07:00:00Z'), status_id: closing.id, closed_at: new Date() });
    });
    const after = (await call(a, 'GET', '/api/zone/requests', bearer(boardToken))).json().items[1];
    expect(after).toMatchObject({ id, plannedStart: '2026-12-08T07:00:00.000Z', closed: true });

    // the installations the form offers: the customer's own
    const objects = (await call(a, 'GET', '/api/zone/requests/objects', bearer(boardToken))).json().objects;
    expect(objects.map((o: { id: string }) => o.id).sort()).toEqual([own.objectId, own.otherObjectId].sort());
  });

  it('needs the “customer work orders” module: without it the calls are refused (403)', async () => {
    await withTenant(tenantA, (trx) =>
      trx('app_modules').where({ id: 'customer_workorders' }).update({ enabled: false }),
    );
    try {
      expect((await call(a, 'GET', '/api/zone/requests', bearer(boardToken))).status).toBe(403);
      const post = await call(a, 'POST', '/api/zone/requests', bearer(boardToken), {
        objectId: own.objectId,
        description: 'Utan modul',
      });
      expect(post.status).toBe(403);
      expect((await call(a, 'GET', '/api/zone/keepalive', bearer(boardToken))).json().appModules).not.toContain(
        'customer_workorders',
      );
    } finally {
      await withTenant(tenantA, (trx) =>
        trx.raw(`insert into app_modules (id, enabled) values ('customer_workorders', true)
                 on conflict (id) do update set enabled = true`),
      );
    }
  });
});

describe('[zone] TOTP for a zone user', () => {
  it('turns on with a code from the app, then sign-in asks for it; turns off with the password', async () => {
    const token = await zoneSignIn('vicevard@eken.se');
    expect((await call(a, 'GET', '/api/zone/mfa', bearer(token))).json()).toEqual({ enabled: false, available: true });
    const start = await call(a, 'POST', '/api/zone/mfa/start', bearer(token), {});
    expect(start.status).toBe(200);
    const { secret, uri, qrSvg } = start.json();
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(qrSvg).toContain('<svg');
    // nothing changes until a code confirms it
    expect((await call(a, 'GET', '/api/zone/mfa', bearer(token))).json().enabled).toBe(false);
    const wrong = await call(a, 'POST', '/api/zone/mfa/confirm', bearer(token), { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.json().fields.code).toEqual(['TWO_FACTOR_CODE_INCORRECT']);
    const ok = await call(a, 'POST', '/api/zone/mfa/confirm', bearer(token), { code: await generate({ secret }) });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json().recoveryCodes).toHaveLength(10);
    expect((await call(a, 'GET', '/api/zone/mfa', bearer(token))).json().enabled).toBe(true);
    await withTenant(tenantA, async (trx) => {
      // the secret is sealed at rest, in the zone's own table
      const row = await trx('zone_user_mfa').where({ user_id: colleagueId }).first();
      expect(row.secret_sealed).not.toContain(secret);
      expect(await trx('user_mfa').where({ user_id: colleagueId }).first()).toBeUndefined();
    });

    // sign-in now asks for the code
    const first = await call(
      a,
      'POST',
      '/api/zone/authenticate',
      {},
      { email: 'vicevard@eken.se', password: ZONE_PASSWORD },
    );
    expect(first.json()).toMatchObject({ status: 'action', action: 'MFA' });
    const second = await call(
      a,
      'POST',
      '/api/zone/authenticate/mfa',
      {},
      {
        token: first.json().token,
        mfaCode: ok.json().recoveryCodes[0],
      },
    );
    expect(second.status).toBe(200);

    // off: the password first
    const bad = await call(a, 'POST', '/api/zone/mfa/disable', bearer(token), { password: 'fel-lösenord' });
    expect(bad.status).toBe(400);
    expect(bad.json().fields.password).toEqual(['ERROR_WRONG_CURRENT_PASSWORD']);
    expect((await call(a, 'POST', '/api/zone/mfa/disable', bearer(token), { password: ZONE_PASSWORD })).status).toBe(
      200,
    );
    expect((await call(a, 'GET', '/api/zone/mfa', bearer(token))).json().enabled).toBe(false);
    const plain = await call(
      a,
      'POST',
      '/api/zone/authenticate',
      {},
      { email: 'vicevard@eken.se', password: ZONE_PASSWORD },
    );
    expect(plain.json().status).toBe('success');
  });

  it('is not offered without the mfa module', async () => {
    await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'mfa' }).update({ enabled: false }));
    try {
      expect((await call(a, 'GET', '/api/zone/mfa', bearer(boardToken))).json().available).toBe(false);
      expect((await call(a, 'POST', '/api/zone/mfa/start', bearer(boardToken), {})).status).toBe(403);
    } finally {
      await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'mfa' }).update({ enabled: true }));
    }
  });
});

describe('[zone] the customer’s own details and people', () => {
  it('without the office’s leave: the details are shown, changing them or the users is refused (403)', async () => {
    const res = await call(a, 'GET', '/api/zone/company', bearer(boardToken));
    expect(res.json().company).toMatchObject({ name: 'Brf Eken', selfService: false });
    expect((await call(a, 'PUT', '/api/zone/company', bearer(boardToken), { phone: '08-123' })).status).toBe(403);
    expect((await call(a, 'GET', '/api/zone/users', bearer(boardToken))).status).toBe(403);
    const invite = await call(a, 'POST', '/api/zone/users', bearer(boardToken), { name: 'X', email: 'x@eken.se' });
    expect(invite.status).toBe(403);
    expect((await call(a, 'DELETE', `/api/zone/users/${colleagueId}`, bearer(boardToken))).status).toBe(403);
  });

  it('the office turns it on for that customer (customers:… zone users right), and the history says so', async () => {
    const tech = (
      await call(a, 'POST', '/api/authenticate', {}, { email: a.technicianEmail, password: PASSWORD })
    ).json().token as string;
    expect(
      (await call(a, 'PUT', `/api/customers/${own.customerId}/zone/config`, bearer(tech), { selfService: true }))
        .status,
    ).toBe(403);
    const res = await call(a, 'PUT', `/api/customers/${own.customerId}/zone/config`, bearer(staffToken), {
      selfService: true,
    });
    expect(res.json()).toEqual({ selfService: true });
    expect((await call(a, 'GET', `/api/customers/${own.customerId}/zone/config`, bearer(staffToken))).json()).toEqual({
      selfService: true,
    });
    // another tenant's customer id is not found
    const otherAdmin = (
      await call(b, 'POST', '/api/authenticate', {}, { email: b.adminEmail, password: PASSWORD })
    ).json().token as string;
    expect(
      (await call(b, 'PUT', `/api/customers/${own.customerId}/zone/config`, bearer(otherAdmin), { selfService: true }))
        .status,
    ).toBe(404);
  });

  it('edits the contact details: bad input is refused with the field named and nothing changed', async () => {
    const bad = await call(a, 'PUT', '/api/zone/company', bearer(boardToken), {
      phone: '08-555 123',
      invoiceEmail: 'inte-en-adress',
    });
    expect(bad.status).toBe(400);
    expect(bad.json().fields.invoiceEmail).toEqual(['ERROR_INVALID_EMAIL']);
    const unchanged = await withTenant(tenantA, (trx) => trx('customers').where({ id: own.customerId }).first());
    expect(unchanged.phone).toBeNull();

    const ok = await call(a, 'PUT', '/api/zone/company', bearer(boardToken), {
      phone: '08-555 123',
      email: 'info@eken.se',
      invoiceEmail: 'faktura@eken.se',
      broadcastEmail: 'utskick@eken.se',
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json().company).toMatchObject({
      phone: '08-555 123',
      email: 'info@eken.se',
      invoiceEmail: 'faktura@eken.se',
      broadcastEmail: 'utskick@eken.se',
    });
    // the office sees it on the customer, and the history names the zone user
    const customer = (await call(a, 'GET', `/api/customers/${own.customerId}`, bearer(staffToken))).json();
    expect(JSON.stringify(customer)).toContain('faktura@eken.se');
    const history = await withTenant(tenantA, (trx) =>
      trx('history')
        .where({ entity: 'customer', entity_id: own.customerId, action: 'edit' })
        .orderBy('at', 'desc')
        .first(),
    );
    expect(JSON.parse(JSON.stringify(history.data)).byZoneUser.name).toBe('Styrelsen Eken');
    // the neighbour's details are untouched (the zone names no customer: its session's)
    const other = await withTenant(tenantA, (trx) => trx('customers').where({ id: neighbour.customerId }).first());
    expect(other.invoice_email).toBeNull();
  });

  it('invites, re-invites and removes the company’s zone users by the office’s rules, never itself', async () => {
    const users = (await call(a, 'GET', '/api/zone/users', bearer(boardToken))).json().users;
    expect(users.map((u: { email: string; self: boolean }) => [u.email, u.self])).toEqual([
      ['styrelsen@eken.se', true],
      ['vicevard@eken.se', false],
    ]);
    const invited = await call(a, 'POST', '/api/zone/users', bearer(boardToken), {
      name: 'Kassören Eken',
      email: 'kassor@eken.se',
    });
    expect(invited.status, invited.text).toBe(200);
    const newId = invited.json().user.id as string;
    const row = await withTenant(tenantA, (trx) => trx('customer_zone_users').where({ id: newId }).first());
    expect(row).toMatchObject({ customer_id: own.customerId, status: 'STATUS_REGISTERED' });
    expect(row.invite_token_hash).toBeTruthy();
    // an address any zone user has, of any customer: 409; bad input: 400
    const taken = await call(a, 'POST', '/api/zone/users', bearer(boardToken), {
      name: 'Dubblett',
      email: 'STYRELSEN@granen.se',
    });
    expect(taken.status).toBe(409);
    expect(taken.json().code).toBe('ZONE_USER_EMAIL_TAKEN');
    const bad = await call(a, 'POST', '/api/zone/users', bearer(boardToken), { name: '', email: 'x' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['email', 'name']);

    const resent = await call(a, 'POST', `/api/zone/users/${newId}/resend`, bearer(boardToken), {});
    expect(resent.status).toBe(200);
    const after = await withTenant(tenantA, (trx) => trx('customer_zone_users').where({ id: newId }).first());
    expect(after.invite_token_hash).not.toBe(row.invite_token_hash);

    // never itself; another customer's user is not found
    const me = users.find((u: { self: boolean }) => u.self).id as string;
    const self = await call(a, 'DELETE', `/api/zone/users/${me}`, bearer(boardToken));
    expect(self.status).toBe(409);
    expect(self.json().code).toBe('ZONE_USER_CANNOT_REMOVE_SELF');
    expect((await call(a, 'POST', `/api/zone/users/${me}/resend`, bearer(boardToken), {})).status).toBe(409);
    expect((await call(a, 'DELETE', `/api/zone/users/${neighbour.userId}`, bearer(boardToken))).status).toBe(404);
    expect((await call(a, 'POST', `/api/zone/users/${neighbour.userId}/resend`, bearer(boardToken), {})).status).toBe(
      404,
    );

    // removing a colleague ends their session at once; what they asked for still says who asked
    const colleague = await zoneSignIn('vicevard@eken.se');
    const asked = await call(a, 'POST', '/api/zone/requests', bearer(colleague), {
      objectId: own.objectId,
      description: 'Porten gnisslar',
    });
    expect(asked.status).toBe(200);
    expect((await call(a, 'DELETE', `/api/zone/users/${colleagueId}`, bearer(boardToken))).status).toBe(200);
    expect((await call(a, 'GET', '/api/zone/keepalive', bearer(colleague))).status).toBe(401);
    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity: 'customer', entity_id: own.customerId, action: 'zone.delete' }).first(),
    );
    expect(JSON.parse(JSON.stringify(history.data))).toMatchObject({
      email: 'vicevard@eken.se',
      byZoneUser: { name: 'Styrelsen Eken' },
    });
    const order = await withTenant(tenantA, (trx) =>
      trx('work_orders').where({ id: asked.json().request.id }).first('zone_requested_by', 'zone_requested_name'),
    );
    expect(order).toEqual({ zone_requested_by: null, zone_requested_name: 'Vicevärden Eken' });
  });
});
