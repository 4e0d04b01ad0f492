import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashToken, validateSession } from '~/core/auth/session.service';
import { issueOneTimeToken } from '~/core/auth/one-time-token.service';
import type { Ctx } from '~/core/context';
import { withTenant } from '~/core/db/with-tenant';
import { SmtpMailer, setMailer } from '~/core/mail/mailer';
import { mailSettled } from '~/core/mail/templates/deliver';
import { sessionPolicy } from '~/core/unit-of-work';
import { inviteUser } from '~/core/users/invite.service';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { jsonBody, request } from '~/tests/helpers/http';
import { startSmtpPeer, type ReceivedMail, type SmtpPeer } from '~/tests/helpers/smtp';

let srv: TestServer;
let smtp: SmtpPeer;
let t: TestTenant;
const NEW_PASSWORD = 'granite ridge lantern';

beforeAll(async () => {
  srv = await startTestServer();
  smtp = await startSmtpPeer();
  setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
  t = await createTestTenant('recovery');
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

const post = (path: string, body: unknown, headers: Record<string, string> = {}, host = t.host) => {
  const j = jsonBody(body);
  return request(srv.url, { method: 'POST', path, host, body: j.body, headers: { ...j.headers, ...headers } });
};
const keepalive = (token: string) =>
  request(srv.url, { path: '/api/keepalive', host: t.host, headers: { authorization: `Bearer ${token}` } });

async function signIn(email: string, password = PASSWORD) {
  return post('/api/authenticate', { email, password, hostname: t.host });
}

function linkIn(mail: ReceivedMail): URL {
  const m = /https?:\/\/\S+\/login\?\S+/.exec(mail.text);
  if (!m) throw new Error(`no link in the mail:\n${mail.text}`);
  return new URL(m[0]);
}

async function tenant() {
  return (await getTenantBySlug(t.slug))!;
}

async function userId(email: string): Promise<string> {
  return withTenant(await tenant(), async (trx) => (await trx('users').where({ email }).first('id')).id);
}

/** A recovery mail for `email`: asks for it and reads the link's token off the SMTP peer. */
async function recoveryToken(email: string): Promise<string> {
  const before = smtp.mails.length;
  const res = await post('/api/pw', { email, hostname: t.host });
  expect(res.status).toBe(200);
  const mail = await smtp.waitForMail((m) => smtp.mails.indexOf(m) >= before && m.to.includes(email));
  return linkIn(mail).searchParams.get('t')!;
}

describe('[auth] POST /api/pw (password-recovery request)', () => {
  it('mails an active user a one-hour link to the login page, in the tenant language, on the host asked for', async () => {
    const res = await post('/api/pw', { email: t.adminEmail.toUpperCase(), hostname: t.host });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({});
    const mail = await smtp.waitForMail((m) => m.to.includes(t.adminEmail));
    expect(mail.subject).toBe('Återställ ditt lösenord till recovery AB');
    expect(mail.text).toContain('Länken gäller i en timme');
    const link = linkIn(mail);
    expect(link.origin).toBe(`http://${t.host}:${srv.config.PORT}`);
    expect(link.pathname).toBe('/login');
    expect(link.searchParams.get('lang')).toBe('se');
    expect(link.searchParams.get('t')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain('Välj nytt lösenord');

    // only the hash is stored, valid for one hour
    const row = await withTenant(await tenant(), (trx) =>
      trx('user_tokens')
        .where({ token_hash: hashToken(link.searchParams.get('t')!) })
        .first('purpose', 'expires_at', 'created_at'),
    );
    expect(row.purpose).toBe('recovery');
    expect(new Date(row.expires_at).getTime() - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(new Date(row.expires_at).getTime() - Date.now()).toBeLessThanOrEqual(60 * 60_000);
  });

  it('answers an unknown address exactly like a known one, sends nothing, and audits both', async () => {
    const known = await post('/api/pw', { email: t.technicianEmail, hostname: t.host });
    const unknown = await post('/api/pw', { email: 'ghost@nowhere.se', hostname: t.host });
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    await smtp.waitForMail((m) => m.to.includes(t.technicianEmail));
    await mailSettled();
    expect(smtp.mails.map((m) => m.to).flat()).toEqual([t.technicianEmail]);

    const events = await withTenant(await tenant(), (trx) =>
      trx('auth_events')
        .where({ event: 'password.recovery.requested' })
        .whereIn('email', [t.technicianEmail, 'ghost@nowhere.se'])
        .select('email', 'user_id'),
    );
    expect(events).toEqual(
      expect.arrayContaining([
        { email: 'ghost@nowhere.se', user_id: null },
        { email: t.technicianEmail, user_id: expect.any(String) },
      ]),
    );
  });

  it('takes about the same time for an unknown address as for a known one', async () => {
    const email = `timing@${t.slug}.se`;
    await withTenant(await tenant(), (trx) =>
      ensureUser(trx, { email, name: 'Tim Ing', password: PASSWORD, accessLevels: [] }),
    );
    const time = async (email: string) => {
      const start = performance.now();
      await post('/api/pw', { email, hostname: t.host });
      return performance.now() - start;
    };
    await time('warm-up@nowhere.se');
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time(email));
      unknown.push(await time(`ghost${i}@nowhere.se`));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
    // The mail leaves after the answer; what remains is a few statements more for a known user.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(150);
  });

  it('never puts a host the tenant does not own in the link', async () => {
    await post('/api/pw', { email: t.adminEmail, hostname: 'evil.example' });
    const mail = await smtp.waitForMail((m) => m.to.includes(t.adminEmail));
    expect(linkIn(mail).hostname).toBe(t.host);
  });

  it('refuses a malformed address with a field error', async () => {
    const res = await post('/api/pw', { email: 'not-an-email' });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { email: ['ERROR_INVALID_EMAIL'] } });
  });
});

describe('[auth] POST /api/pw/rt and /api/pw/comp (password recovery)', () => {
  it('checks a token: valid, or 400 TOKEN_EXPIRED for an unknown or missing one', async () => {
    const token = await recoveryToken(t.adminEmail);
    const ok = await post('/api/pw/rt', { token });
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ valid: true });
    for (const body of [{ token: 'no-such-token' }, {}, { token: 42 }]) {
      const bad = await post('/api/pw/rt', body);
      expect(bad.status).toBe(400);
      expect(bad.json()).toEqual({ code: 'TOKEN_EXPIRED' });
    }
  });

  it('turns spaces in a token back into plus signs', async () => {
    const tokenWithPlus = 'abc+def+ghi+0123456789+ABCDEFGHIJKLMNOPQRSTU';
    const user = await userId(t.adminEmail);
    await withTenant(await tenant(), (trx) =>
      trx('user_tokens').insert({
        user_id: user,
        purpose: 'recovery',
        token_hash: hashToken(tokenWithPlus),
        expires_at: new Date(Date.now() + 3_600_000),
      }),
    );
    const mangled = tokenWithPlus.replace(/\+/g, ' ');
    expect((await post('/api/pw/rt', { token: mangled })).json()).toEqual({ valid: true });
    const done = await post('/api/pw/comp', { token: mangled, password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    // put the test password back for the other tests
    const again = await recoveryToken(t.adminEmail);
    expect((await post('/api/pw/comp', { token: again, password: PASSWORD })).status).toBe(200);
  });

  it('answers 400 TOKEN_EXPIRED for an expired token, on check and on completion', async () => {
    const user = await userId(t.adminEmail);
    const token = await withTenant(await tenant(), (trx) =>
      issueOneTimeToken(trx, {
        userId: user,
        purpose: 'recovery',
        now: new Date(Date.now() - 61 * 60_000),
        validHours: 1,
      }),
    );
    const check = await post('/api/pw/rt', { token });
    expect(check.status).toBe(400);
    expect(check.json()).toEqual({ code: 'TOKEN_EXPIRED' });
    const done = await post('/api/pw/comp', { token, password: NEW_PASSWORD });
    expect(done.status).toBe(400);
    expect(done.json()).toEqual({ code: 'TOKEN_EXPIRED' });
  });

  it('refuses a common or short password and leaves the token usable', async () => {
    const token = await recoveryToken(t.technicianEmail);
    const common = await post('/api/pw/comp', { token, password: 'Password1' });
    expect(common.status).toBe(400);
    expect(common.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { password: ['PASSWORD_TOO_COMMON'] } });
    const short = await post('/api/pw/comp', { token, password: 'abc' });
    expect(short.json().fields).toEqual({ password: ['ERROR_PASSWORD_MIN_LENGTH'] });
    const mismatch = await post('/api/pw/comp', { token, password: NEW_PASSWORD, repeat: 'something else' });
    expect(mismatch.json().fields).toEqual({ repeat: ['ERROR_PASSWORDS_DO_NOT_MATCH'] });
    expect((await post('/api/pw/rt', { token })).status).toBe(200);
  });

  it('sets the password, uses the token up, ends every other session and audits it', async () => {
    const old = (await signIn(t.technicianEmail)).json().token as string;
    expect((await keepalive(old)).status).toBe(200);
    const token = await recoveryToken(t.technicianEmail);
    const other = await recoveryToken(t.technicianEmail);

    const res = await post('/api/pw/comp', { token, password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'success', signedIn: true, user: { email: t.technicianEmail } });
    expect((await keepalive(body.token)).status).toBe(200);
    expect((await keepalive(old)).status).toBe(401);

    // single use, and the other open link died with it
    const reuse = await post('/api/pw/comp', { token, password: 'another fine password' });
    expect(reuse.status).toBe(400);
    expect(reuse.json()).toEqual({ code: 'TOKEN_EXPIRED' });
    expect((await post('/api/pw/rt', { token: other })).json()).toEqual({ code: 'TOKEN_EXPIRED' });

    expect((await signIn(t.technicianEmail)).status).toBe(401);
    expect((await signIn(t.technicianEmail, NEW_PASSWORD)).status).toBe(200);
    const user = await userId(t.technicianEmail);
    const events = await withTenant(await tenant(), (trx) =>
      trx('auth_events')
        .where({ user_id: user })
        .whereIn('event', ['password.recovery.requested', 'password.recovered'])
        .pluck('event'),
    );
    expect(events).toContain('password.recovery.requested');
    expect(events).toContain('password.recovered');
  });

  it('never signs in a user with MFA: the password is set, the session is not', async () => {
    const mfaUser = await userId(t.adminEmail);
    await withTenant(await tenant(), (trx) =>
      trx('user_mfa').insert({ user_id: mfaUser, secret_sealed: 'sealed', enabled_at: new Date() }),
    );
    try {
      const token = await recoveryToken(t.adminEmail);
      const res = await post('/api/pw/comp', { token, password: NEW_PASSWORD });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ status: 'success', signedIn: false });
    } finally {
      await withTenant(await tenant(), (trx) => trx('user_mfa').where({ user_id: mfaUser }).delete());
      const back = await recoveryToken(t.adminEmail);
      await post('/api/pw/comp', { token: back, password: PASSWORD });
    }
  });
});

describe('[auth] invitation and registration', () => {
  /** Runs `fn` as the tenant's admin, signed in through the API. */
  async function asAdmin<T>(fn: (ctx: Ctx) => Promise<T>) {
    const res = await signIn(t.adminEmail);
    expect(res.status, res.text).toBe(200);
    const session = res.json().token as string;
    const tn = await tenant();
    return withTenant(tn, async (trx) => {
      const now = new Date();
      const auth = await validateSession(trx, session, now, sessionPolicy());
      return fn({ trx, tenant: tn, auth, lang: 'sv', now });
    });
  }

  it('invites, registers with the mailed link, and the new user signs in', async () => {
    const email = `nina@${t.slug}.se`;
    const levels = await withTenant(await tenant(), (trx) =>
      trx('access_levels').where({ display_name: 'Technician' }).pluck('id'),
    );
    const invited = await asAdmin((ctx) =>
      inviteUser(ctx, { email, name: 'Nina Nilsson', accessLevelIds: levels, language: 'en' }),
    );
    expect(invited.created).toBe(true);
    const mail = await smtp.waitForMail((m) => m.to.includes(email));
    expect(mail.subject).toBe('You are invited to recovery AB in Ordo');
    const link = linkIn(mail);
    expect(link.searchParams.get('lang')).toBe('en');
    const token = link.searchParams.get('rt')!;

    // invited, not yet registered: cannot sign in, and has no password
    expect((await signIn(email, NEW_PASSWORD)).status).toBe(401);
    const check = await post('/api/registration/rt', { token });
    expect(check.status).toBe(200);
    expect(check.json()).toEqual({ valid: true, email, name: 'Nina Nilsson' });

    const common = await post('/api/registration/comp', { token, password: 'qwertyuiop' });
    expect(common.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { password: ['PASSWORD_TOO_COMMON'] } });

    const done = await post('/api/registration/comp', { token, password: NEW_PASSWORD });
    expect(done.status).toBe(200);
    const signedIn = await signIn(email, NEW_PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(signedIn.json().data.perms).toContain('workorders:read');

    const reuse = await post('/api/registration/comp', { token, password: 'yet another passphrase' });
    expect(reuse.status).toBe(400);
    expect(reuse.json()).toEqual({ code: 'TOKEN_EXPIRED' });
    expect((await post('/api/registration/rt', { token })).json()).toEqual({ code: 'TOKEN_EXPIRED' });
    const user = await userId(email);
    const row = await withTenant(await tenant(), async (trx) => ({
      status: (await trx('users').where({ id: user }).first('status')).status,
      events: await trx('auth_events').where({ user_id: user, event: 'registration.completed' }).count({ n: '*' }),
    }));
    expect(row.status).toBe('active');
    expect(Number(row.events[0]!.n)).toBe(1);
  });

  it('re-sends to a user still invited (the older link stops working) and refuses a registered address', async () => {
    const email = `olle@${t.slug}.se`;
    await asAdmin((ctx) => inviteUser(ctx, { email, name: 'Olle Ek', accessLevelIds: [] }));
    const first = linkIn(await smtp.waitForMail((m) => m.to.includes(email))).searchParams.get('rt')!;
    expect(smtp.mails[0]!.subject).toBe('Du är inbjuden till recovery AB i Ordo');
    smtp.mails.length = 0;
    const again = await asAdmin((ctx) => inviteUser(ctx, { email, name: 'Olle Ek', accessLevelIds: [] }));
    expect(again.created).toBe(false);
    const second = linkIn(await smtp.waitForMail((m) => m.to.includes(email))).searchParams.get('rt')!;
    expect(second).not.toBe(first);
    expect((await post('/api/registration/rt', { token: first })).status).toBe(400);
    expect((await post('/api/registration/rt', { token: second })).status).toBe(200);

    await expect(
      asAdmin((ctx) => inviteUser(ctx, { email: t.technicianEmail, name: 'X', accessLevelIds: [] })),
    ).rejects.toMatchObject({
      code: 'USER_EMAIL_TAKEN',
      status: 409,
    });
  });

  it('needs users:edit to invite', async () => {
    const session = (await signIn(t.adminEmail)).json().token as string;
    const tn = await tenant();
    await expect(
      withTenant(tn, async (trx) => {
        const auth = await validateSession(trx, session, new Date(), sessionPolicy());
        const withoutEdit = { ...auth!, perms: new Set([...auth!.perms].filter((p) => p !== 'users:edit')) };
        return inviteUser(
          { trx, tenant: tn, auth: withoutEdit, lang: 'sv', now: new Date() },
          {
            email: `x@${t.slug}.se`,
            name: 'X',
            accessLevelIds: [],
          },
        );
      }),
    ).rejects.toMatchObject({ status: 403 });
  });
});
