import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import { OutboxMailer, readOutbox, setMailer } from '~/core/mail/mailer';
import { mailSettled } from '~/core/mail/templates/deliver';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { startSmtpPeer, type SmtpPeer } from '~/tests/helpers/smtp';

/**
 * Issue 36 item 6 (decision 066): POST /instance/mail/auth against a real local SMTP server that
 * requires a login. A refused login or an unreachable server stores nothing and answers a code the
 * page translates; a working account is stored with its password sealed, never answered, and from
 * then on the tenant's mail leaves through it — the other tenant's still through the platform.
 */
let srv: TestServer;
let own: SmtpPeer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'office' | 'adminB', string>;
const SECRET = 'hemligt-lösen-42';
let reader: string;
let tenantBId: string;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

const account = (extra: Json = {}) => ({
  host: '127.0.0.1',
  port: own.port,
  security: 'none',
  user: 'nordlarm',
  password: SECRET,
  from: 'Nordlarm <info@nordlarm.test>',
  ...extra,
});

/** A port on this machine where nobody listens. */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(async () => {
  srv = await startTestServer();
  own = await startSmtpPeer({ users: { nordlarm: SECRET } });
  setMailer(new OutboxMailer('Ordo <no-reply@ordo.test>'));
  a = await createTestTenant('mailauth-a');
  b = await createTestTenant('mailauth-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await ensureUser(trx, {
      email: `office@${a.slug}.se`,
      name: 'Olga Kontor',
      password: PASSWORD,
      accessLevels: ['Office'],
    });
    reader = `reader@${a.slug}.se`;
    await trx('access_levels').insert({
      display_name: 'Readers',
      permissions: ['dashboard:read'],
      work_order_limit: 'none',
    });
    const u = await ensureUser(trx, {
      email: reader,
      name: 'Rut Läsare',
      password: PASSWORD,
      accessLevels: ['Readers'],
    });
    await trx('user_notifications').insert({ user_id: u.id, type: 'MESSAGE', mail: true });
  });
  const tenantB = (await getTenantBySlug(b.slug))!;
  tenantBId = tenantB.id;
  await withTenant(tenantB, async (trx) => {
    await trx('access_levels').insert({
      display_name: 'Readers',
      permissions: ['dashboard:read'],
      work_order_limit: 'none',
    });
    const u = await ensureUser(trx, {
      email: `reader@${b.slug}.se`,
      name: 'Bo Läsare',
      password: PASSWORD,
      accessLevels: ['Readers'],
    });
    await trx('user_notifications').insert({ user_id: u.id, type: 'MESSAGE', mail: true });
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.office = await signIn(a, `office@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterEach(async () => {
  await mailSettled();
});
afterAll(async () => {
  setMailer(undefined);
  await own?.close();
  await srv?.close();
});

describe('[mail account] POST /instance/mail/auth', () => {
  it('only instance:edit sets it; instance:read reads it; a technician neither', async () => {
    expect((await call('POST', '/api/instance/mail/auth', tok.tech, account())).status).toBe(403);
    // Office has instance:read but not instance:edit (tenants/seed.ts)
    expect((await call('POST', '/api/instance/mail/auth', tok.office, account())).status).toBe(403);
    expect((await call('GET', '/api/instance/mail', tok.office)).json()).toMatchObject({ configured: false });
    expect((await call('GET', '/api/instance/mail', tok.tech)).status).toBe(403);
    expect(own.mails).toEqual([]);
  });

  it('refuses a wrong password (MAIL_LOGIN_REFUSED) and an unreachable server (MAIL_SERVER_UNREACHABLE), storing nothing', async () => {
    const wrong = await call('POST', '/api/instance/mail/auth', tok.admin, account({ password: 'fel' }));
    expect(wrong.status, wrong.text).toBe(409);
    expect(wrong.json().code).toBe('MAIL_LOGIN_REFUSED');
    const down = await call('POST', '/api/instance/mail/auth', tok.admin, account({ port: await closedPort() }));
    expect(down.status, down.text).toBe(409);
    expect(down.json().code).toBe('MAIL_SERVER_UNREACHABLE');
    // no password given and none stored yet
    const none = await call('POST', '/api/instance/mail/auth', tok.admin, account({ password: '' }));
    expect(none.status).toBe(400);
    expect(none.json().fields.password).toContain('ERROR_REQUIRED_FIELD');
    expect(await withTenant(tenantA, (trx) => trx('mail_account').count('* as n'))).toEqual([{ n: '0' }]);
    expect(own.mails).toEqual([]);
  });

  it('refuses what is not an account field by field', async () => {
    for (const [body, field] of [
      [account({ host: 'smtp://x' }), 'host'],
      [account({ port: 70000 }), 'port'],
      [account({ security: 'ssl3' }), 'security'],
      [account({ from: 'not an address' }), 'from'],
      [account({ user: '' }), 'user'],
      [account({ testTo: 'nobody' }), 'testTo'],
    ] as const) {
      const res = await call('POST', '/api/instance/mail/auth', tok.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields)).toContain(field);
    }
  });

  it('stores a working account after a real test mail, seals the password and never answers it', async () => {
    const res = await call('POST', '/api/instance/mail/auth', tok.admin, account({ testTo: 'chef@nordlarm.se' }));
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toContain(SECRET);
    expect(res.json()).toMatchObject({
      configured: true,
      host: '127.0.0.1',
      port: own.port,
      security: 'none',
      user: 'nordlarm',
      from: 'Nordlarm <info@nordlarm.test>',
      hasPassword: true,
    });
    expect(res.json().verifiedAt).toEqual(expect.any(String));
    const test = await own.waitForMail((m) => m.to.includes('chef@nordlarm.se'));
    expect(test.from).toBe('info@nordlarm.test');
    expect(test.subject).toBe('Testmejl från Ordo');
    const [row] = await withTenant(tenantA, (trx) => trx('mail_account').select('password_sealed'));
    expect(row.password_sealed).toMatch(/^v2\./);
    expect(row.password_sealed).not.toContain(SECRET);
    const read = await call('GET', '/api/instance/mail', tok.admin);
    expect(read.text).not.toContain(SECRET);
    expect(read.text).not.toContain('password_sealed');
    // the other tenant has no account
    expect((await call('GET', '/api/instance/mail', tok.adminB, undefined, b.host)).json()).toMatchObject({
      configured: false,
    });
  });

  it("sends the tenant's mail through its own account from then on; the other tenant's through the platform", async () => {
    const before = own.mails.length;
    const post = await call('POST', '/api/messageboard', tok.admin, { title: 'Via eget konto' });
    expect(post.status, post.text).toBe(200);
    const mail = await own.waitForMail((m) => m.to.includes(reader) && m.subject.includes('Via eget konto'));
    expect(mail.from).toBe('info@nordlarm.test');
    expect(own.mails.length).toBe(before + 1);
    await mailSettled();
    expect((await readOutbox({ limit: 50, tenantId: tenantA.id })).filter((m) => m.to.includes(reader))).toEqual([]);

    // tenant B's mail still leaves through the platform (here: its outbox)
    const other = await call('POST', '/api/messageboard', tok.adminB, { title: 'B:s nyhet' }, b.host);
    expect(other.status).toBe(200);
    await mailSettled();
    expect(own.mails.length).toBe(before + 1);
    const bMails = await readOutbox({ limit: 50, tenantId: tenantBId });
    expect(bMails.filter((m) => m.subject.includes('B:s nyhet')).map((m) => m.to)).toEqual([[`reader@${b.slug}.se`]]);
  });

  it('"send test mail" uses the stored account; a changed password that the server refuses keeps the old account', async () => {
    const test = await call('POST', '/api/instance/mail/test', tok.admin, { testTo: 'igen@nordlarm.se' });
    expect(test.status, test.text).toBe(200);
    expect(test.json()).toEqual({ ok: true, to: 'igen@nordlarm.se' });
    await own.waitForMail((m) => m.to.includes('igen@nordlarm.se'));

    const refused = await call('POST', '/api/instance/mail/auth', tok.admin, account({ password: 'nytt-fel' }));
    expect(refused.json().code).toBe('MAIL_LOGIN_REFUSED');
    // a save without a password keeps the stored one (and the server takes it)
    const kept = await call(
      'POST',
      '/api/instance/mail/auth',
      tok.admin,
      account({ password: undefined, from: 'Nordlarm Service <service@nordlarm.test>' }),
    );
    expect(kept.status, kept.text).toBe(200);
    expect(kept.json().from).toBe('Nordlarm Service <service@nordlarm.test>');
    expect((await call('POST', '/api/instance/mail/test', tok.tech, {})).status).toBe(403);
  });

  it('DELETE /instance/mail forgets it: mail goes through the platform again', async () => {
    expect((await call('DELETE', '/api/instance/mail', tok.admin)).json()).toMatchObject({ configured: false });
    const before = own.mails.length;
    await call('POST', '/api/messageboard', tok.admin, { title: 'Via plattformen' });
    await mailSettled();
    expect(own.mails.length).toBe(before);
    const kept = await readOutbox({ limit: 50, tenantId: tenantA.id });
    expect(kept.filter((m) => m.to.includes(reader) && m.subject.includes('Via plattformen'))).toHaveLength(1);
    expect((await call('POST', '/api/instance/mail/test', tok.admin, {})).json().code).toBe('MAIL_ACCOUNT_MISSING');
    const history = await withTenant(tenantA, (trx) =>
      trx('history')
        .where({ entity: 'instance' })
        .whereIn('action', ['edit.mail', 'delete.mail'])
        .orderBy('id')
        .pluck('action'),
    );
    expect(history).toEqual(['edit.mail', 'edit.mail', 'delete.mail']);
  });
});
