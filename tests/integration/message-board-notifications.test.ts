import { generate } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validateSession } from '~/core/auth/session.service';
import { confirmMfaEnrollment, startMfaEnrollment } from '~/core/auth/mfa.service';
import { addDays, tenantDate } from '~/core/calendar/dates';
import { withTenant } from '~/core/db/with-tenant';
import { OutboxMailer, readOutbox, setMailer } from '~/core/mail/mailer';
import { mailSettled } from '~/core/mail/templates/deliver';
import { NOTIFICATION_TYPES } from '~/core/notifications/notification-types';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/**
 * Issue 36 items 3 and 5 (decision 066): the message board's posts and permissions, the close
 * dialog's order-finish broadcast on the board, and the notification choices that every staff
 * mail of a spec type honours — counted in the operators' mail outbox, per recipient.
 */
let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'office' | 'tech' | 'reader1' | 'reader2' | 'adminB', string>;
const email = {} as Record<'office' | 'reader1' | 'reader2' | 'tech', string>;
const id = {} as Record<'office' | 'reader1' | 'reader2' | 'tech' | 'customer', string>;
let foreignPost: string;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
const sql = (q: string, bindings: unknown[] = []) =>
  withTenant(tenantA, async (trx) => (await trx.raw(q, bindings as never[])).rows as Json[]);

/** The tenant's mail kept in the outbox since `since` (the row id), by recipient. */
async function mailsTo(address: string, since: number): Promise<{ subject: string; text: string | null }[]> {
  await mailSettled();
  const all = await readOutbox({ limit: 500, tenantId: tenantA.id });
  return all.filter((m) => Number(m.id) > since && m.to.includes(address));
}
async function outboxMark(): Promise<number> {
  await mailSettled();
  const [last] = await readOutbox({ limit: 1 });
  return last ? Number(last.id) : 0;
}

beforeAll(async () => {
  srv = await startTestServer();
  setMailer(new OutboxMailer('Ordo <no-reply@ordo.test>'));
  a = await createTestTenant('board-a');
  b = await createTestTenant('board-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert({
      display_name: 'Readers',
      permissions: ['dashboard:read', 'workorders:read'],
      work_order_limit: 'none',
    });
    for (const [key, level] of [
      ['office', 'Office'],
      ['reader1', 'Readers'],
      ['reader2', 'Readers'],
    ] as const) {
      email[key] = `${key}@${a.slug}.se`;
      id[key] = (
        await ensureUser(trx, { email: email[key], name: `Person ${key}`, password: PASSWORD, accessLevels: [level] })
      ).id;
    }
    email.tech = a.technicianEmail;
    id.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    const [c] = await trx('customers')
      .insert({ customer_id: '30001', name: 'Brf Björken', broadcast_email: 'larm@bjorken.se' })
      .returning('id');
    id.customer = c.id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.office = await signIn(a, email.office);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.reader1 = await signIn(a, email.reader1);
  tok.reader2 = await signIn(a, email.reader2);
  tok.adminB = await signIn(b, b.adminEmail);
  const other = await call('POST', '/api/messageboard', tok.adminB, { title: 'Annan firmas nyhet' }, b.host);
  expect(other.status, other.text).toBe(200);
  foreignPost = other.json().id;
});
afterEach(async () => {
  await mailSettled();
});
afterAll(async () => {
  setMailer(undefined);
  await srv?.close();
});

describe('[message board] posts on the dashboard', () => {
  it('is written by message_board_post:edit, read by dashboard readers, changed and deleted; history for each', async () => {
    const made = await call('POST', '/api/messageboard', tok.office, {
      title: 'Julstängt',
      text: 'Kontoret är stängt 24–26 december.',
    });
    expect(made.status, made.text).toBe(200);
    const post = made.json() as Json;
    expect(post).toMatchObject({
      kind: 'post',
      title: 'Julstängt',
      expiresOn: null,
      author: 'Person office',
      workOrder: null,
    });

    const seen = await call('GET', '/api/messageboard', tok.reader1);
    expect(seen.status).toBe(200);
    expect((seen.json() as Json).posts.map((p: Json) => p.title)).toContain('Julstängt');
    // the other tenant's post is not on this board
    expect((seen.json() as Json).posts.map((p: Json) => p.id)).not.toContain(foreignPost);

    // a technician has neither the dashboard nor the right to post
    expect((await call('GET', '/api/messageboard', tok.tech)).status).toBe(403);
    expect((await call('POST', '/api/messageboard', tok.tech, { title: 'x' })).status).toBe(403);
    // a reader reads but does not write
    expect((await call('POST', '/api/messageboard', tok.reader1, { title: 'x' })).status).toBe(403);
    expect((await call('DELETE', `/api/messageboard/${post.id}`, tok.reader1)).status).toBe(403);
    expect((await call('GET', '/api/messageboard', '')).status).toBe(401);

    const lastDay = addDays(tenantDate(new Date(), 'SE'), 3);
    const changed = await call('PUT', `/api/messageboard/${post.id}`, tok.office, {
      title: 'Julstängt kontor',
      text: 'Stängt 24–26/12.',
      expiresOn: lastDay,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json()).toMatchObject({ title: 'Julstängt kontor', expiresOn: lastDay });

    expect((await call('DELETE', `/api/messageboard/${post.id}`, tok.office)).status).toBe(200);
    expect((await call('GET', '/api/messageboard', tok.reader1)).json().posts.map((p: Json) => p.id)).not.toContain(
      post.id,
    );
    const history = await sql(
      `select action from history where entity = 'message_board_post' and entity_id = ? order by at, id`,
      [post.id],
    );
    expect(history.map((h) => h.action)).toEqual(['create', 'edit', 'delete']);
  });

  it("answers 404 for another tenant's post and for an id that is no id; the other tenant's post is untouched", async () => {
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await call(
        method,
        `/api/messageboard/${foreignPost}`,
        tok.office,
        method === 'PUT' ? { title: 'Kapad' } : undefined,
      );
      expect(res.status, `${method} ${res.text}`).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
      expect(
        (await call(method, '/api/messageboard/not-an-id', tok.office, method === 'PUT' ? { title: 'x' } : undefined))
          .status,
      ).toBe(404);
    }
    const theirs = await call('GET', '/api/messageboard', tok.adminB, undefined, b.host);
    expect(theirs.json().posts).toEqual([expect.objectContaining({ id: foreignPost, title: 'Annan firmas nyhet' })]);
  });

  it('refuses bad input with translated field codes and writes nothing; hides a post after its last day', async () => {
    const before = (await sql('select count(*)::int as n from message_board_posts'))[0]!.n;
    const cases: [Json, string, string][] = [
      [{ title: '  ' }, 'title', 'ERROR_REQUIRED_FIELD'],
      [{ title: 'x'.repeat(201) }, 'title', 'ERROR_MAX_LENGTH'],
      [{ title: 'Ok', text: 'x'.repeat(5001) }, 'text', 'ERROR_MAX_LENGTH'],
      [{ title: 'Ok', expiresOn: '2026-02-30' }, 'expiresOn', 'ERROR_INVALID_DATE'],
      [{ title: 'Ok', expiresOn: addDays(tenantDate(new Date(), 'SE'), -1) }, 'expiresOn', 'MESSAGE_EXPIRY_IN_PAST'],
    ];
    for (const [body, field, code] of cases) {
      const res = await call('POST', '/api/messageboard', tok.office, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json().fields[field]).toContain(code);
    }
    expect((await sql('select count(*)::int as n from message_board_posts'))[0]!.n).toBe(before);

    const today = tenantDate(new Date(), 'SE');
    await sql(
      `insert into message_board_posts (title, expires_on) values ('Igår slut', ?::date), ('Sista dagen idag', ?::date)`,
      [addDays(today, -1), today],
    );
    const titles = (await call('GET', '/api/messageboard', tok.reader1)).json().posts.map((p: Json) => p.title);
    expect(titles).toContain('Sista dagen idag');
    expect(titles).not.toContain('Igår slut');
  });

  it('is the broadcast module: without it nobody but a super user posts or reads', async () => {
    await sql(`update app_modules set enabled = false where id = 'broadcast'`);
    try {
      expect((await call('GET', '/api/messageboard', tok.reader1)).status).toBe(403);
      expect((await call('POST', '/api/messageboard', tok.office, { title: 'x' })).status).toBe(403);
    } finally {
      await sql(`update app_modules set enabled = true where id = 'broadcast'`);
    }
  });

  it("shows the close dialog's order-finish broadcast, linked to its order", async () => {
    const made = await call('POST', '/api/wo', tok.office, {
      workOrder: { title: 'Byte av centralapparat', customerId: id.customer },
    });
    expect(made.status, made.text).toBe(200);
    const wo = made.json().workOrder as Json;
    const closed = await call('POST', '/api/wo/close', tok.office, { workOrderId: wo.id, withoutInvoice: true });
    expect(closed.status, closed.text).toBe(200);
    const sent = await call('POST', '/api/wo/broadcast', tok.office, {
      workOrder: { id: wo.id },
      event: 'finished',
      status: 'send',
    });
    expect(sent.status, sent.text).toBe(200);
    const posts = (await call('GET', '/api/messageboard', tok.reader1)).json().posts as Json[];
    const finish = posts.find((p) => p.kind === 'order_finish' && p.workOrder?.id === wo.id);
    expect(finish).toMatchObject({ title: 'Byte av centralapparat', workOrder: { number: String(wo.number) } });
    expect(finish!.expiresOn).toBe(addDays(tenantDate(new Date(), 'SE'), 14));
    // "ignore" puts nothing on the board
    const count = posts.length;
    await call('POST', '/api/wo/broadcast', tok.office, {
      workOrder: { id: wo.id },
      event: 'finished',
      status: 'ignore',
    });
    expect((await call('GET', '/api/messageboard', tok.reader1)).json().posts).toHaveLength(count);
  });
});

describe('[notifications] each person chooses what reaches them by mail', () => {
  it('answers every spec type with its default; a person saves their own, the company its defaults; bad input refused', async () => {
    const mine = await call('GET', '/api/users/conf/notifications', tok.tech);
    expect(mine.status).toBe(200);
    const types = mine.json().types as Json[];
    expect(types.map((t) => t.type)).toEqual([...NOTIFICATION_TYPES]);
    expect(types.find((t) => t.type === 'MFA_REGISTERED')).toEqual({
      type: 'MFA_REGISTERED',
      mail: true,
      default: true,
      own: false,
    });
    expect(types.find((t) => t.type === 'MESSAGE')).toMatchObject({ mail: false, default: false });

    for (const body of [{ MESSAGE: 'maybe' }, { FOO: true }, { MESSAGE: 3 }]) {
      const res = await call('PUT', '/api/users/conf/notifications', tok.tech, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    // only admins set the company's defaults
    expect((await call('PUT', '/api/instance/notifications', tok.tech, { MESSAGE: true })).status).toBe(403);
    expect((await call('GET', '/api/instance/notifications', tok.tech)).status).toBe(403);
    expect((await call('GET', '/api/instance/notifications', tok.admin)).json().types).toContainEqual({
      type: 'MESSAGE',
      mail: false,
      builtIn: false,
    });
    // the other tenant's defaults are its own
    const theirs = await call('PUT', '/api/instance/notifications', tok.adminB, { WORKORDER_CLOSE: true }, b.host);
    expect(theirs.status).toBe(200);
    expect((await call('GET', '/api/instance/notifications', tok.admin)).json().types).toContainEqual({
      type: 'WORKORDER_CLOSE',
      mail: false,
      builtIn: false,
    });
  });

  it('MESSAGE: a new post mails exactly the readers who take it — by their own choice or the company default — never the author', async () => {
    expect((await call('PUT', '/api/users/conf/notifications', tok.reader1, { MESSAGE: true })).status).toBe(200);
    let mark = await outboxMark();
    expect(
      (await call('POST', '/api/messageboard', tok.office, { title: 'Ny larmcentral', text: 'Från måndag.' })).status,
    ).toBe(200);
    const toReader1 = await mailsTo(email.reader1, mark);
    expect(toReader1).toHaveLength(1);
    expect(toReader1[0]!.subject).toBe('Nytt meddelande: Ny larmcentral');
    expect(toReader1[0]!.text).toContain('Från måndag.');
    expect(await mailsTo(email.reader2, mark)).toEqual([]);
    expect(await mailsTo(email.office, mark)).toEqual([]);
    // the technician does not read the board: no mail, whatever they choose
    await call('PUT', '/api/users/conf/notifications', tok.tech, { MESSAGE: true });
    expect(await mailsTo(email.tech, mark)).toEqual([]);

    // the company turns MESSAGE on: reader2 (no choice of their own) follows; reader1 now opts out
    expect((await call('PUT', '/api/instance/notifications', tok.admin, { MESSAGE: true })).status).toBe(200);
    const r1 = await call('PUT', '/api/users/conf/notifications', tok.reader1, { MESSAGE: false });
    expect(r1.json().types.find((t: Json) => t.type === 'MESSAGE')).toEqual({
      type: 'MESSAGE',
      mail: false,
      default: true,
      own: true,
    });
    mark = await outboxMark();
    await call('POST', '/api/messageboard', tok.office, { title: 'Andra nyheten' });
    expect(await mailsTo(email.reader1, mark)).toEqual([]);
    expect(await mailsTo(email.reader2, mark)).toHaveLength(1);
    await call('PUT', '/api/instance/notifications', tok.admin, { MESSAGE: false });
  });

  it('WORKORDER_CLOSE and WORK_ORDER_REVISIT: the assignees who chose them, not the one who acted', async () => {
    await call('PUT', '/api/users/conf/notifications', tok.reader1, {
      WORKORDER_CLOSE: true,
      WORK_ORDER_REVISIT: true,
    });
    await call('PUT', '/api/users/conf/notifications', tok.reader2, { WORK_ORDER_REVISIT: false });
    const made = await call('POST', '/api/wo', tok.office, {
      workOrder: { title: 'Serviceorder', customerId: id.customer },
    });
    const wo = made.json().workOrder as Json;
    await sql(
      `insert into work_order_assignees (work_order_id, user_id) values (?, ?), (?, ?) on conflict do nothing`,
      [wo.id, id.reader1, wo.id, id.reader2],
    );
    let mark = await outboxMark();
    const closed = await call('POST', '/api/wo/close', tok.office, { workOrderId: wo.id, withoutInvoice: true });
    expect(closed.status, closed.text).toBe(200);
    const closeMails = await mailsTo(email.reader1, mark);
    expect(closeMails).toHaveLength(1);
    expect(closeMails[0]!.subject).toBe(`Arbetsorder ${wo.number} är stängd: Serviceorder`);
    expect(await mailsTo(email.reader2, mark)).toEqual([]);
    expect(await mailsTo(email.office, mark)).toEqual([]);

    mark = await outboxMark();
    const copy = await call('POST', '/api/wo/copy', tok.admin, { workOrderId: wo.id, options: {} });
    expect(copy.status, copy.text).toBe(200);
    const revisit = await mailsTo(email.reader1, mark);
    expect(revisit).toHaveLength(1);
    expect(revisit[0]!.subject).toContain(`från arbetsorder ${wo.number}`);
    expect(await mailsTo(email.reader2, mark)).toEqual([]);
  });

  it('MFA_REGISTERED: on by default, so a person turning MFA on is told once; one who opted out is not', async () => {
    const policy = { idleMinutes: 30, absoluteHours: 12 };
    const enrol = async (token: string) => {
      const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), policy));
      const { secret } = await inTenant({ tenant: tenantA, auth, lang: 'sv' }, (ctx) => startMfaEnrollment(ctx));
      const code = await generate({ secret });
      await inTenant({ tenant: tenantA, auth, lang: 'sv' }, (ctx) => confirmMfaEnrollment(ctx, { code }));
    };
    await call('PUT', '/api/users/conf/notifications', tok.reader2, { MFA_REGISTERED: false });
    const mark = await outboxMark();
    await enrol(tok.reader1);
    await enrol(tok.reader2);
    const told = await mailsTo(email.reader1, mark);
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toBe('Tvåstegsinloggning är påslagen för ditt konto');
    expect(await mailsTo(email.reader2, mark)).toEqual([]);
  });
});
