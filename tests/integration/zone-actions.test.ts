import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newToken } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import { SmtpMailer, setMailer } from '~/core/mail/mailer';
import { mailSettled } from '~/core/mail/templates/deliver';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { createArticle, saveNewProposal } from '~/tests/helpers/proposals';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from '~/tests/helpers/smtp';

/*
 * Issue 35 items 3–5 (decision 063): what a customer does in its zone — answers the proposals sent
 * to it (accept with name and signature, decline with a reason) and the extra work awaiting it —
 * and the mails its zone users get, once per event, when a file is published, a proposal sent or
 * a visit planned; and the office's "who will see it".
 */

let srv: TestServer;
let smtp: SmtpPeer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let tenantB: Tenant;
const tok = {} as Record<'admin' | 'zone' | 'adminB', string>;
const ref = {} as Record<'customer' | 'neighbour' | 'project' | 'admin' | 'emptyCustomer' | 'article', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BOARD = 'styrelsen@brf-linden.se';
const CHAIR = 'ordforande@brf-linden.se';
const INVITED = 'kassor@brf-linden.se';
const ZONE_PASSWORD = 'Linden-styrelse-2026!';
/** A tiny PNG as the signature pad sends it. */
const SIGNATURE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** An active zone user of a customer: invited, then the password set through the invitation. */
async function activeZoneUser(customerId: string, email: string, name: string, language: string | null = null) {
  const invite = newToken();
  await withTenant(tenantA, (trx) =>
    trx('customer_zone_users').insert({
      customer_id: customerId,
      email,
      name,
      language,
      status: 'STATUS_REGISTERED',
      invite_token_hash: hashToken(invite),
      invite_expires_at: new Date(Date.now() + 86_400_000),
      invited_at: new Date(),
    }),
  );
  const done = await call('POST', '/api/zone/registration/comp', undefined, { token: invite, password: ZONE_PASSWORD });
  expect(done.status, done.text).toBe(200);
}

const zoneMails = (to: string) => smtp.mails.filter((m: ReceivedMail) => m.to.includes(to));

beforeAll(async () => {
  srv = await startTestServer();
  smtp = await startSmtpPeer();
  setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
  a = await createTestTenant('zoneact-a');
  b = await createTestTenant('zoneact-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tenantB = (await getTenantBySlug(b.slug))!;
  for (const t of [tenantA, tenantB])
    await withTenant(t, (trx) =>
      trx.raw(
        `insert into app_modules (id, enabled) values ('customerzone', true), ('crm', true), ('projects', true)
         on conflict (id) do update set enabled = true`,
      ),
    );
  await withTenant(tenantA, async (trx) => {
    const [c, n, e] = await trx('customers')
      .insert([
        { customer_id: '40001', name: 'Brf Linden', invoice_language: 'en' },
        { customer_id: '40002', name: 'Brf Granne' },
        { customer_id: '40003', name: 'Brf Tom' },
      ])
      .returning('id');
    ref.customer = c.id;
    ref.neighbour = n.id;
    ref.emptyCustomer = e.id;
    const [p] = await trx('projects').insert({ number: 2001, title: 'Nytt larm i hus C' }).returning('id');
    ref.project = p.id;
    ref.admin = (await trx('users').where({ email: a.adminEmail }).first('id')).id;
  });
  // the board in English (the customer's language), the chair in Swedish (their own), a third only invited
  await activeZoneUser(ref.customer, BOARD, 'Styrelsen');
  await activeZoneUser(ref.customer, CHAIR, 'Ordföranden', 'se');
  await withTenant(tenantA, (trx) =>
    trx('customer_zone_users').insert({ customer_id: ref.customer, email: INVITED, name: 'Kassören' }),
  );
  tok.admin = await signIn(a, a.adminEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  ref.article = await createArticle(call, tok.admin, 'KL-1', 'Kortläsare', '1500');
  const zone = await call('POST', '/api/zone/authenticate', undefined, { email: BOARD, password: ZONE_PASSWORD });
  expect(zone.status, zone.text).toBe(200);
  tok.zone = zone.json().token;
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

/** A saved proposal of `customerId` with one row; `sent` marks it e-mailed in SQL (the e-mail call is tested once below). */
async function proposal(customerId: string, opts: { sent?: boolean; validTo?: string } = {}): Promise<string> {
  const p = await saveNewProposal(call, tok.admin, customerId, {
    title: 'Nytt passersystem',
    rows: [{ articleId: ref.article, articleAmount: '2' }],
  });
  expect(p.totalPrice).toBe('3000.00');
  const id = p.id as string;
  const change = { ...(opts.sent === false ? {} : { sent_at: new Date() }), ...(opts.validTo ? { valid_to: opts.validTo } : {}) };
  if (Object.keys(change).length) await withTenant(tenantA, (trx) => trx('proposals').where({ id }).update(change));
  return id;
}

describe('[zone] proposals: read and answered online', () => {
  it('a proposal e-mailed to the customer shows in its zone, and its zone users are told once each', async () => {
    const id = await proposal(ref.customer, { sent: false });
    // not sent yet: not in the zone
    expect((await call('GET', `/api/zone/proposals/${id}`, tok.zone)).status).toBe(404);
    const sent = await call('POST', '/api/proposals/pdf/email', tok.admin, { proposal: id, emailTarget: ['inkop@brf-linden.se'] });
    expect(sent.status, sent.text).toBe(200);
    await mailSettled();
    const board = zoneMails(BOARD);
    expect(board).toHaveLength(1);
    expect(board[0]!.subject).toMatch(/^Proposal \d+ from /);
    expect(board[0]!.text).toContain(`/zone/proposals/${id}?lang=en`);
    expect(zoneMails(CHAIR)).toHaveLength(1);
    expect(zoneMails(CHAIR)[0]!.subject).toMatch(/^Offert \d+ från /);
    // an invited person has no zone yet
    expect(zoneMails(INVITED)).toHaveLength(0);
    // sent again: the contact gets it again, the zone users are not told twice
    smtp.mails.length = 0;
    expect((await call('POST', '/api/proposals/pdf/email', tok.admin, { proposal: id, emailTarget: ['inkop@brf-linden.se'] })).status).toBe(200);
    await mailSettled();
    expect(zoneMails('inkop@brf-linden.se')).toHaveLength(1);
    expect(zoneMails(BOARD)).toHaveLength(0);
    expect(zoneMails(CHAIR)).toHaveLength(0);

    const list = (await call('GET', '/api/zone/proposals', tok.zone)).json<Json>();
    expect(list.items.map((p: Json) => p.id)).toContain(id);
    const one = (await call('GET', `/api/zone/proposals/${id}`, tok.zone)).json<Json>().proposal;
    expect(one).toMatchObject({ status: 'open', title: 'Nytt passersystem', answer: null });
    expect(one.document.rows.map((r: Json) => r.title)).toEqual(['Kortläsare']);
    expect(Number(one.document.total)).toBe(3000);
    // what the customer is shown never holds purchase prices
    expect(JSON.stringify(one)).not.toMatch(/purchase/i);
  });

  it('accepts with name and signature as the office accepts: a sales order, the answer kept, the seller mailed', async () => {
    const id = await proposal(ref.customer);
    // the signature is required, and nothing is written without it
    const unsigned = await call('POST', `/api/zone/proposals/${id}/accept`, tok.zone, { name: 'Eva Ek' });
    expect(unsigned.status).toBe(400);
    expect(unsigned.json().fields).toEqual({ signature: ['ERROR_REQUIRED_FIELD'] });
    const nameless = await call('POST', `/api/zone/proposals/${id}/accept`, tok.zone, { name: ' ', signature: SIGNATURE });
    expect(nameless.json().fields).toEqual({ name: ['ERROR_REQUIRED_FIELD'] });
    // a staff session is not a zone session
    expect((await call('POST', `/api/zone/proposals/${id}/accept`, tok.admin, { name: 'Eva Ek', signature: SIGNATURE })).status).toBe(401);
    await withTenant(tenantA, async (trx) => {
      expect((await trx('proposals').where({ id }).first('status')).status).toBe('active');
      expect(await trx('proposal_zone_answers').where({ proposal_id: id }).first()).toBeUndefined();
    });

    const res = await call('POST', `/api/zone/proposals/${id}/accept`, tok.zone, { name: 'Eva Ek', signature: SIGNATURE });
    expect(res.status, res.text).toBe(200);
    expect(res.json().proposal).toMatchObject({ status: 'accepted', answer: { answer: 'accepted', name: 'Eva Ek' } });
    await withTenant(tenantA, async (trx) => {
      const p = await trx('proposals').where({ id }).first();
      expect(p.status).toBe('accepted');
      expect(p.sales_order_id).not.toBeNull();
      expect(p.close_ts).not.toBeNull();
      // the customer closed it, not an office user
      expect(p.close_user_id).toBeNull();
      const so = await trx('sales_orders').where({ id: p.sales_order_id }).first();
      expect(so.customer_id).toBe(ref.customer);
      const answer = await trx('proposal_zone_answers').where({ proposal_id: id }).first();
      expect(answer).toMatchObject({ answer: 'accepted', signed_name: 'Eva Ek', zone_user_email: BOARD, signature: SIGNATURE });
      const history = await trx('history').where({ entity: 'proposal', entity_id: id }).orderBy('at').pluck('action');
      expect(history).toEqual(expect.arrayContaining(['accept', 'zone.accept']));
    });
    // the office sees it accepted
    const office = (await call('GET', `/api/proposals/${id}`, tok.admin)).json<Json>();
    expect((office.proposal ?? office).status).toBe('accepted');
    await mailSettled();
    const seller = zoneMails(a.adminEmail);
    expect(seller).toHaveLength(1);
    expect(seller[0]!.text).toContain('Eva Ek');
    expect(seller[0]!.text).toContain(`/proposals/${id}`);

    // twice: a clear refusal, nothing changed
    const again = await call('POST', `/api/zone/proposals/${id}/accept`, tok.zone, { name: 'Eva Ek', signature: SIGNATURE });
    expect(again.status).toBe(409);
    expect(again.json().code).toBe('PROPOSAL_NOT_ACTIVE');
    const decline = await call('POST', `/api/zone/proposals/${id}/decline`, tok.zone, { name: 'Eva Ek' });
    expect(decline.json().code).toBe('PROPOSAL_NOT_ACTIVE');
  });

  it('declines with a reason; twice is refused; the seller is told why', async () => {
    const id = await proposal(ref.customer);
    const res = await call('POST', `/api/zone/proposals/${id}/decline`, tok.zone, {
      name: 'Eva Ek',
      reason: 'För dyrt i år',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json().proposal).toMatchObject({ status: 'declined', answer: { answer: 'declined', reason: 'För dyrt i år' } });
    await withTenant(tenantA, async (trx) => {
      expect((await trx('proposals').where({ id }).first('status')).status).toBe('declined');
    });
    await mailSettled();
    expect(zoneMails(a.adminEmail)[0]!.text).toContain('För dyrt i år');
    const again = await call('POST', `/api/zone/proposals/${id}/decline`, tok.zone, { name: 'Eva Ek' });
    expect(again.status).toBe(409);
    expect(again.json().code).toBe('PROPOSAL_NOT_ACTIVE');
  });

  it('a proposal past its valid-to date cannot be accepted', async () => {
    const id = await proposal(ref.customer, { validTo: '2020-01-31' });
    expect((await call('GET', `/api/zone/proposals/${id}`, tok.zone)).json().proposal.status).toBe('expired');
    const res = await call('POST', `/api/zone/proposals/${id}/accept`, tok.zone, { name: 'Eva Ek', signature: SIGNATURE });
    expect(res.status).toBe(409);
    expect(res.json().code).toBe('PROPOSAL_EXPIRED');
  });

  it("another customer's proposal, or another tenant's, is not found, body or not", async () => {
    const neighbours = await proposal(ref.neighbour);
    const foreign = await withTenant(tenantB, async (trx) => {
      const [c] = await trx('customers').insert({ customer_id: '1', name: 'Annan kund' }).returning('id');
      const [p] = await trx('proposals')
        .insert({ sequence_number: 1, title: 'Annans', customer_id: c.id, sent_at: new Date() })
        .returning('id');
      return p.id as string;
    });
    for (const id of [neighbours, foreign]) {
      expect((await call('GET', `/api/zone/proposals/${id}`, tok.zone)).status).toBe(404);
      expect((await call('GET', `/api/zone/proposals/${id}/pdf`, tok.zone)).status).toBe(404);
      for (const body of [{}, { name: 'Eva Ek', signature: SIGNATURE }]) {
        expect((await call('POST', `/api/zone/proposals/${id}/accept`, tok.zone, body)).status).toBe(404);
        expect((await call('POST', `/api/zone/proposals/${id}/decline`, tok.zone, body)).status).toBe(404);
      }
    }
    await withTenant(tenantA, async (trx) => {
      expect((await trx('proposals').where({ id: neighbours }).first('status')).status).toBe('active');
    });
  });
});

describe('[zone] extra work (ÄTA) approved in the zone as by the e-mailed link', () => {
  async function pendingOrder(customerId: string): Promise<string> {
    const res = await call('POST', '/api/wo', tok.admin, { workOrder: { title: 'Extra dörrstängare', customerId } });
    expect(res.status, res.text).toBe(200);
    const id = res.json().workOrder.id as string;
    await withTenant(tenantA, async (trx) => {
      await trx('work_orders').where({ id }).update({ project_id: ref.project, project_extra_status: 'pending' });
      await trx('work_order_articles').insert({
        work_order_id: id,
        article_id: ref.article,
        title: 'Dörrstängare',
        amount: '2',
        price: '850.00',
        total: '1700.00',
      });
    });
    return id;
  }

  it('lists the pending extra work with its amount, approves it once, and refuses another customer’s', async () => {
    const id = await pendingOrder(ref.customer);
    const neighbours = await pendingOrder(ref.neighbour);
    const list = (await call('GET', '/api/zone/extrawork', tok.zone)).json<Json>();
    expect(list.items.map((i: Json) => i.workOrderId)).toEqual([id]);
    expect(list.items[0].view.total).toBe('1700.00');
    expect(list.items[0].view.articles.map((r: Json) => r.title)).toEqual(['Dörrstängare']);

    const nameless = await call('POST', `/api/zone/extrawork/${id}/answer`, tok.zone, { answer: 'accepted' });
    expect(nameless.status).toBe(400);
    expect(nameless.json().fields).toEqual({ name: ['ERROR_REQUIRED_FIELD'] });
    for (const body of [{}, { answer: 'accepted', name: 'Eva Ek' }])
      expect((await call('POST', `/api/zone/extrawork/${neighbours}/answer`, tok.zone, body)).status).toBe(404);
    expect((await call('POST', `/api/zone/extrawork/${id}/answer`, tok.admin, { answer: 'accepted', name: 'Eva Ek' })).status).toBe(401);

    const res = await call('POST', `/api/zone/extrawork/${id}/answer`, tok.zone, { answer: 'accepted', name: 'Eva Ek' });
    expect(res.status, res.text).toBe(200);
    await withTenant(tenantA, async (trx) => {
      expect((await trx('work_orders').where({ id }).first('project_extra_status')).project_extra_status).toBe('accepted');
      expect((await trx('work_orders').where({ id: neighbours }).first('project_extra_status')).project_extra_status).toBe(
        'pending',
      );
      const h = await trx('history').where({ entity: 'work_order', entity_id: id, action: 'edit' }).orderBy('at', 'desc').first();
      expect(h.data).toMatchObject({ via: 'customerZone', answeredBy: `Eva Ek (${BOARD})` });
    });
    const again = await call('POST', `/api/zone/extrawork/${id}/answer`, tok.zone, { answer: 'declined', name: 'Eva Ek' });
    expect(again.status).toBe(409);
    expect(again.json().code).toBe('EXTRA_WORK_NOT_PENDING');
    expect((await call('GET', '/api/zone/extrawork', tok.zone)).json().items).toEqual([]);
  });
});

describe('[zone] notifications: a published file and a planned visit, one mail per zone user, never twice', () => {
  it('a file published to the customer mails each active zone user once, in their language', async () => {
    const fileId = await withTenant(tenantA, async (trx) => {
      const [f] = await trx('files')
        .insert({
          owner_type: 'customer',
          owner_id: ref.customer,
          kind: 'file',
          name: 'Servicerapport 2026.pdf',
          storage_key: `zone-actions/${newToken()}`,
          content_type: 'application/pdf',
          size: 10,
        })
        .returning('id');
      return f.id as string;
    });
    // who will see it, asked before publishing
    const audience = (await call('GET', `/api/file/drive/${fileId}/audience`, tok.admin)).json<Json>();
    expect(audience.customer).toEqual({ id: ref.customer, name: 'Brf Linden' });
    expect(audience.users.map((u: Json) => [u.email, u.status])).toEqual([
      [INVITED, 'STATUS_REGISTERED'],
      [CHAIR, 'STATUS_ACTIVE'],
      [BOARD, 'STATUS_ACTIVE'],
    ]);
    expect((await call('POST', `/api/file/drive/${fileId}/publish`, tok.admin, {})).status).toBe(200);
    await mailSettled();
    expect(zoneMails(BOARD).map((m) => m.subject)).toEqual([expect.stringContaining('published Servicerapport 2026.pdf')]);
    expect(zoneMails(CHAIR).map((m) => m.subject)).toEqual([expect.stringContaining('har publicerat Servicerapport 2026.pdf')]);
    expect(zoneMails(INVITED)).toEqual([]);
    // taken out and published again: the same file, no second mail
    smtp.mails.length = 0;
    expect((await call('POST', `/api/file/drive/${fileId}/unpublish`, tok.admin, {})).status).toBe(200);
    expect((await call('POST', `/api/file/drive/${fileId}/publish`, tok.admin, {})).status).toBe(200);
    await mailSettled();
    expect(smtp.mails).toEqual([]);
  });

  it('"who will see it" says so when the customer has no zone users, and is the publisher’s to ask', async () => {
    const fileId = await withTenant(tenantA, async (trx) => {
      const [f] = await trx('files')
        .insert({
          owner_type: 'drive',
          kind: 'file',
          name: 'Prislista.pdf',
          storage_key: `zone-actions/${newToken()}`,
          content_type: 'application/pdf',
          size: 10,
        })
        .returning('id');
      return f.id as string;
    });
    const none = (await call('GET', `/api/file/drive/${fileId}/audience?customerId=${ref.emptyCustomer}`, tok.admin)).json();
    expect(none).toEqual({ customer: { id: ref.emptyCustomer, name: 'Brf Tom' }, users: [] });
    // a drive file before its customer is chosen: nobody yet
    expect((await call('GET', `/api/file/drive/${fileId}/audience`, tok.admin)).json()).toEqual({ customer: null, users: [] });
    // another tenant's file is not found
    expect((await call('GET', `/api/file/drive/${fileId}/audience`, tok.adminB, undefined, b.host)).status).toBe(404);
  });

  it('a visit planned on a work order of the customer mails its zone users once; a new day is a new visit', async () => {
    const res = await call('POST', '/api/wo', tok.admin, { workOrder: { title: 'Årlig service', customerId: ref.customer } });
    const id = res.json().workOrder.id as string;
    const plan = await call('POST', '/api/wo/schedule', tok.admin, {
      workOrderId: id,
      userId: ref.admin,
      date: '2026-12-07',
      startTime: '08:00',
    });
    expect(plan.status, plan.text).toBe(200);
    await mailSettled();
    expect(zoneMails(BOARD)).toHaveLength(1);
    expect(zoneMails(BOARD)[0]!.text).toContain('Årlig service');
    expect(zoneMails(CHAIR)).toHaveLength(1);
    // re-planned within the same day: nothing new to tell
    smtp.mails.length = 0;
    const { schedule, version } = plan.json<Json>();
    const moved = await call('PUT', `/api/wo/schedule/${schedule.id}`, tok.admin, {
      version: schedule.version ?? version,
      startTime: '09:00',
      endTime: '11:00',
    });
    expect(moved.status, moved.text).toBe(200);
    await mailSettled();
    expect(smtp.mails).toEqual([]);
    // to another day: a new visit
    const later = await call('PUT', `/api/wo/schedule/${schedule.id}`, tok.admin, {
      version: moved.json<Json>().schedule.version,
      date: '2026-12-09',
    });
    expect(later.status, later.text).toBe(200);
    await mailSettled();
    expect(zoneMails(BOARD)).toHaveLength(1);
    expect(zoneMails(CHAIR)).toHaveLength(1);
  });
});
