import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import { action as remindersAction, loader as remindersLoader } from '~/app/routes/work-orders.$id.reminders';
import { validateSession } from '~/core/auth/session.service';
import { sessionPolicy } from '~/core/unit-of-work';
import { runJob } from '~/core/jobs/define-job';
import { EmbeddedQueue } from '~/core/jobs/embedded-queue';
import { coreJobs, registerCoreSchedules } from '~/core/jobs/purge-sessions.job';
import { SmtpMailer, setMailer, type Mailer, type MailMessage } from '~/core/mail/mailer';
import { withControl, withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { ensureUser } from '~/core/users/create-user';
import type { RemindersPanelData } from '~/core/work-orders/reminders.service';
import { sendDueRemindersJob } from '~/core/work-orders/reminders.job';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { startSmtpPeer, type SmtpPeer } from '~/tests/helpers/smtp';

let srv: TestServer;
let smtp: SmtpPeer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'reader' | 'adminB', string>;
const ids: Record<string, string> = {};

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

beforeAll(async () => {
  srv = await startTestServer();
  smtp = await startSmtpPeer();
  setMailer(new SmtpMailer(smtp.url, 'ordo@ordo.test'));
  a = await createTestTenant('rem-a');
  b = await createTestTenant('rem-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert({
      display_name: 'Readers',
      permissions: ['workorders:read'],
      work_order_limit: 'none',
    });
    ids.reader = (
      await ensureUser(trx, {
        email: `reader@${a.slug}.se`,
        name: 'Rut Läsare',
        password: PASSWORD,
        accessLevels: ['Readers'],
      })
    ).id;
    ids.gone = (
      await ensureUser(trx, {
        email: `gone@${a.slug}.se`,
        name: 'Gustav Gången',
        password: PASSWORD,
        accessLevels: ['Readers'],
      })
    ).id;
    await trx('users').where({ id: ids.gone }).update({ status: 'inactive' });
    const admin = await trx('users').where({ email: a.adminEmail }).first('id', 'name');
    ids.admin = admin.id;
    ids.adminName = admin.name;
    ids.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    // the technician reads mail in English; the tenant's language is Swedish
    await trx('users').where({ id: ids.tech }).update({ language: 'en' });
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.reader = await signIn(a, `reader@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(async () => {
  setMailer(undefined);
  await smtp?.close();
  await srv?.close();
});

/** A new order, assigned to the technician unless told otherwise. */
async function newOrder(title = 'Service larm', assignees = [ids.tech]): Promise<{ id: string; number: string }> {
  const res = await call('POST', '/api/wo', tok.admin, { workOrder: { title, assignees } });
  expect(res.status, res.text).toBe(200);
  return res.json<{ workOrder: { id: string; number: string } }>().workOrder;
}

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

async function addReminder(workOrderId: string, body: Record<string, unknown>, token = tok.admin) {
  const res = await call('POST', `/api/wo/${workOrderId}/reminder`, token, body);
  expect(res.status, res.text).toBe(200);
  return res.json<{ id: string; data: RemindersPanelData }>();
}

const sweep = (now = new Date()) => runJob(sendDueRemindersJob, {}, { jobId: 'test', attempt: 1, now });
/** The mails about one order (its number is in the subject), to one address. */
const mailsAbout = (number: string, email: string) =>
  smtp.mails.filter((m) => m.to.includes(email) && m.subject.includes(` ${number} `));

describe('[reminders] the API', () => {
  it('adds, lists, edits and deletes a reminder, writing history for each change', async () => {
    const wo = await newOrder();
    const due = inMinutes(24 * 60);
    const added = await addReminder(wo.id, { userId: ids.admin, dueAt: due, message: '  Ring kunden  ' });
    expect(added.data.reminders).toEqual([
      expect.objectContaining({
        id: added.id,
        workOrderId: wo.id,
        userId: ids.admin,
        dueAt: due,
        message: 'Ring kunden',
        createdBy: ids.admin,
        sentAt: null,
      }),
    ]);
    expect(added.data.canEdit).toBe(true);
    expect(added.data.users.map((u) => u.id)).toEqual(expect.arrayContaining([ids.admin, ids.tech, ids.reader]));
    expect(added.data.users.map((u) => u.id)).not.toContain(ids.gone);

    const later = await addReminder(wo.id, { userId: ids.tech, dueAt: inMinutes(48 * 60) });
    const soon = await addReminder(wo.id, { userId: ids.tech, dueAt: inMinutes(60), message: '' });
    const list = await call('GET', `/api/wo/${wo.id}/reminder`, tok.tech);
    expect(list.status).toBe(200);
    // soonest first
    expect(list.json<RemindersPanelData>().reminders.map((r) => r.id)).toEqual([soon.id, added.id, later.id]);

    const newDue = inMinutes(3 * 24 * 60);
    const edited = await call('PUT', `/api/wo/${wo.id}/reminder`, tok.tech, {
      reminderId: added.id,
      dueAt: newDue,
      message: 'Ring kunden igen',
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json<{ data: RemindersPanelData }>().data.reminders.find((r) => r.id === added.id)).toMatchObject({
      userId: ids.admin, // kept when left out
      dueAt: newDue,
      message: 'Ring kunden igen',
    });

    const deleted = await call('DELETE', `/api/wo/${wo.id}/reminder/${later.id}`, tok.admin);
    expect(deleted.status).toBe(200);
    expect(deleted.json<RemindersPanelData>().reminders.map((r) => r.id)).toEqual([soon.id, added.id]);

    const history = (await call('GET', `/api/wo/history/${wo.id}`, tok.admin)).json<{
      rows: { action: string; data: { changes?: { field: string; old: unknown; new: unknown }[] } }[];
    }>().rows;
    const changes = history.flatMap((h) => h.data?.changes ?? []).filter((c) => c.field === 'reminder');
    expect(changes).toHaveLength(5); // three added, one edited, one deleted
    expect(changes).toContainEqual({
      field: 'reminder',
      old: { name: ids.adminName, dueAt: due, message: 'Ring kunden' },
      new: { name: ids.adminName, dueAt: newDue, message: 'Ring kunden igen' },
    });
    expect(changes).toContainEqual({
      field: 'reminder',
      old: expect.objectContaining({ name: 'Tess Tekniker' }),
      new: null,
    });
  });

  it('reminds an assignee when nobody is named: the one adding it if assigned, else the first assignee', async () => {
    const wo = await newOrder('Default', [ids.tech]);
    expect((await addReminder(wo.id, { dueAt: inMinutes(60) })).data.reminders[0]!.userId).toBe(ids.tech);
    const mine = await newOrder('Mine', [ids.admin, ids.tech]);
    const panel = (await addReminder(mine.id, { dueAt: inMinutes(60) })).data;
    expect(panel.reminders[0]!.userId).toBe(ids.admin);
    expect(panel.defaultUserId).toBe(ids.admin);
  });

  it('refuses bad input with field errors (400)', async () => {
    const wo = await newOrder();
    const post = (body: Record<string, unknown>) => call('POST', `/api/wo/${wo.id}/reminder`, tok.admin, body);
    const fields = async (body: Record<string, unknown>) => {
      const res = await post(body);
      expect(res.status, res.text).toBe(400);
      return res.json<{ code: string; fields: Record<string, string[]> }>().fields;
    };
    expect(await fields({ message: 'x' })).toEqual({ dueAt: ['ERROR_REQUIRED_FIELD'] });
    expect(await fields({ dueAt: 'tomorrow' })).toEqual({ dueAt: ['ERROR_INVALID_VALUE'] });
    // a date-time without its zone would be read in the server's zone
    expect(await fields({ dueAt: '2030-01-01T10:00' })).toEqual({ dueAt: ['ERROR_INVALID_VALUE'] });
    expect(await fields({ dueAt: inMinutes(-60) })).toEqual({ dueAt: ['ERROR_REMINDER_DUE_IN_PAST'] });
    expect(await fields({ dueAt: inMinutes(60), message: 'x'.repeat(1001) })).toEqual({
      message: ['ERROR_MAX_LENGTH'],
    });
    expect(await fields({ dueAt: inMinutes(60), userId: ids.gone })).toEqual({ userId: ['ERROR_INVALID_VALUE'] });
    expect(await fields({ dueAt: inMinutes(60), userId: 'nobody' })).toEqual({ userId: ['ERROR_INVALID_VALUE'] });
    // another tenant's user is no user of this one
    const userB = await withTenant((await getTenantBySlug(b.slug))!, (trx) =>
      trx('users').where({ email: b.adminEmail }).first('id'),
    );
    expect(await fields({ dueAt: inMinutes(60), userId: userB.id })).toEqual({ userId: ['ERROR_INVALID_VALUE'] });
    expect((await addReminder(wo.id, { dueAt: inMinutes(60), message: 'x'.repeat(1000) })).data.reminders).toHaveLength(
      1,
    );
    // an edit names the reminder in `reminderId` (the path's id is the order's)
    const noId = await call('PUT', `/api/wo/${wo.id}/reminder`, tok.admin, { dueAt: inMinutes(60) });
    expect(noId.status).toBe(400);
    expect(noId.json<{ fields: Record<string, string[]> }>().fields).toEqual({ reminderId: ['ERROR_REQUIRED_FIELD'] });
    // nothing was stored by the refused ones
    expect(
      (await call('GET', `/api/wo/${wo.id}/reminder`, tok.admin)).json<RemindersPanelData>().reminders,
    ).toHaveLength(1);
  });

  it('needs workorders:read to list and workorders:edit to change (403), and the reminders module', async () => {
    const wo = await newOrder('Rights', [ids.tech]);
    const r = await addReminder(wo.id, { dueAt: inMinutes(60) });
    const list = await call('GET', `/api/wo/${wo.id}/reminder`, tok.reader);
    expect(list.status).toBe(200);
    expect(list.json<RemindersPanelData>()).toMatchObject({ canEdit: false, users: [], defaultUserId: null });
    expect((await call('POST', `/api/wo/${wo.id}/reminder`, tok.reader, { dueAt: inMinutes(60) })).status).toBe(403);
    const put = await call('PUT', `/api/wo/${wo.id}/reminder`, tok.reader, { reminderId: r.id, dueAt: inMinutes(90) });
    expect(put.status).toBe(403);
    expect((await call('DELETE', `/api/wo/${wo.id}/reminder/${r.id}`, tok.reader)).status).toBe(403);
    expect((await call('GET', `/api/wo/${wo.id}/reminder`)).status).toBe(401);

    await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'reminders' }).update({ enabled: false }));
    try {
      // the technician is a normal user (user type super would bypass module gating)
      const tech = await signIn(a, a.technicianEmail);
      expect((await call('GET', `/api/wo/${wo.id}/reminder`, tech)).status).toBe(403);
      expect((await call('POST', `/api/wo/${wo.id}/reminder`, tech, { dueAt: inMinutes(60) })).status).toBe(403);
    } finally {
      await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'reminders' }).update({ enabled: true }));
    }
  });

  it("answers 404 for another tenant's order or reminder, another order's reminder and an order outside the limit", async () => {
    const wo = await newOrder();
    const other = await newOrder('Other');
    const r = await addReminder(wo.id, { dueAt: inMinutes(60) });
    // another tenant
    expect((await call('GET', `/api/wo/${wo.id}/reminder`, tok.adminB, undefined, b.host)).status).toBe(404);
    expect((await call('POST', `/api/wo/${wo.id}/reminder`, tok.adminB, { dueAt: inMinutes(60) }, b.host)).status).toBe(
      404,
    );
    expect((await call('DELETE', `/api/wo/${wo.id}/reminder/${r.id}`, tok.adminB, undefined, b.host)).status).toBe(404);
    // the reminder of another order
    const put = await call('PUT', `/api/wo/${other.id}/reminder`, tok.admin, {
      reminderId: r.id,
      dueAt: inMinutes(90),
    });
    expect(put.status).toBe(404);
    expect((await call('DELETE', `/api/wo/${other.id}/reminder/${r.id}`, tok.admin)).status).toBe(404);
    expect((await call('DELETE', `/api/wo/${wo.id}/reminder/not-an-id`, tok.admin)).status).toBe(404);
    // the technician sees only orders assigned to them
    const notMine = await newOrder('Not mine', [ids.admin]);
    expect((await call('GET', `/api/wo/${notMine.id}/reminder`, tok.tech)).status).toBe(404);
    expect((await call('POST', `/api/wo/${notMine.id}/reminder`, tok.tech, { dueAt: inMinutes(60) })).status).toBe(404);
    // an order in the recycle bin takes no reminders
    expect((await call('DELETE', `/api/wo/${other.id}`, tok.admin)).status).toBe(200);
    expect((await call('POST', `/api/wo/${other.id}/reminder`, tok.admin, { dueAt: inMinutes(60) })).status).toBe(404);
  });
});

describe('[reminders] mailing at the due time', () => {
  it('mails a due reminder once, across two sweeps, in the reminded person’s language; a future one waits', async () => {
    const wo = await newOrder('Byt batteri');
    const due = await addReminder(wo.id, { userId: ids.tech, dueAt: inMinutes(-1), message: 'Ta med stege' });
    const future = await addReminder(wo.id, { userId: ids.tech, dueAt: inMinutes(60) });
    await sweep();
    await sweep();
    const mails = mailsAbout(wo.number, a.technicianEmail);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`Reminder: work order ${wo.number} Byt batteri`);
    expect(mails[0]!.text).toContain('Hello Tess Tekniker,');
    expect(mails[0]!.text).toContain('Ta med stege');
    expect(mails[0]!.text).toContain(`/work-orders/${wo.id}`);

    const panel = (await call('GET', `/api/wo/${wo.id}/reminder`, tok.admin)).json<RemindersPanelData>();
    expect(panel.reminders.find((r) => r.id === due.id)!.sentAt).not.toBeNull();
    expect(panel.reminders.find((r) => r.id === future.id)!.sentAt).toBeNull();

    // an hour later the other one is due, and it too goes once
    await sweep(new Date(Date.now() + 61 * 60_000));
    await sweep(new Date(Date.now() + 62 * 60_000));
    expect(mailsAbout(wo.number, a.technicianEmail)).toHaveLength(2);
  });

  it('never mails a reminder twice when two sweeps run at once', async () => {
    const wo = await newOrder('Samtidigt');
    await addReminder(wo.id, { userId: ids.reader, dueAt: inMinutes(-1) });
    await Promise.all([sweep(), sweep(), sweep()]);
    const mails = mailsAbout(wo.number, `reader@${a.slug}.se`);
    expect(mails.map((m) => m.subject)).toEqual([`Påminnelse: arbetsorder ${wo.number} Samtidigt`]);
  });

  it('tries again at the next sweep when the relay fails, and sends nothing for an order in the recycle bin', async () => {
    const wo = await newOrder('Relä');
    const r = await addReminder(wo.id, { userId: ids.admin, dueAt: inMinutes(-1) });
    const sent: MailMessage[] = [];
    let failures = 1;
    const flaky: Mailer = {
      kind: 'smtp',
      async send(m) {
        if (m.tenantId === tenantA.id && failures-- > 0) throw new Error('relay down');
        sent.push(m);
        return { id: 'x' };
      },
      async close() {},
    };
    setMailer(flaky);
    try {
      await sweep();
      let panel = (await call('GET', `/api/wo/${wo.id}/reminder`, tok.admin)).json<RemindersPanelData>();
      expect(panel.reminders[0]!.sentAt).toBeNull(); // released for the next sweep
      await sweep();
      expect(sent.filter((m) => m.to.includes(a.adminEmail))).toHaveLength(1);
      panel = (await call('GET', `/api/wo/${wo.id}/reminder`, tok.admin)).json<RemindersPanelData>();
      expect(panel.reminders[0]!.sentAt).not.toBeNull();

      // a sent reminder: editing it is refused unless its due time moves ahead, which arms it again
      const put = (dueAt: string) =>
        call('PUT', `/api/wo/${wo.id}/reminder`, tok.admin, { reminderId: r.id, dueAt, message: 'igen' });
      const refused = await put(panel.reminders[0]!.dueAt);
      expect(refused.status).toBe(409);
      expect(refused.json<{ code: string }>().code).toBe('REMINDER_ALREADY_SENT');
      const rearmed = await put(inMinutes(30));
      expect(rearmed.status, rearmed.text).toBe(200);
      expect(rearmed.json<{ data: RemindersPanelData }>().data.reminders[0]).toMatchObject({
        sentAt: null,
        message: 'igen',
      });

      const binned = await newOrder('Papperskorg');
      await addReminder(binned.id, { userId: ids.admin, dueAt: inMinutes(-1) });
      expect((await call('DELETE', `/api/wo/${binned.id}`, tok.admin)).status).toBe(200);
      const count = sent.length;
      await sweep();
      expect(sent.slice(count).filter((m) => m.subject.includes('Papperskorg'))).toEqual([]);
    } finally {
      setMailer(new SmtpMailer(smtp.url, 'ordo@ordo.test'));
    }
  });

  it('leaves reminders of a tenant with the reminders module off until it is on again', async () => {
    const wo = await newOrder('Modul av');
    await addReminder(wo.id, { userId: ids.admin, dueAt: inMinutes(-1) });
    await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'reminders' }).update({ enabled: false }));
    try {
      await sweep();
      expect(mailsAbout(wo.number, a.adminEmail)).toEqual([]);
    } finally {
      await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'reminders' }).update({ enabled: true }));
    }
    await sweep();
    expect(mailsAbout(wo.number, a.adminEmail).map((m) => m.subject)).toEqual([
      `Påminnelse: arbetsorder ${wo.number} Modul av`,
    ]);
  });
});

describe('[reminders] the sweep schedule', () => {
  it('is a core job, scheduled every minute under one key however often the schedules are registered', async () => {
    expect(coreJobs).toContain(sendDueRemindersJob);
    const queue = new EmbeddedQueue();
    await registerCoreSchedules(queue);
    await registerCoreSchedules(queue);
    const rows = await withControl((trx) => trx('jobs').where({ repeat_key: 'send-due-reminders' }));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ job_id: 'workorders.send-due-reminders' });
    expect(Number(rows[0].repeat_every_ms)).toBe(60_000);
  });
});

describe('[reminders] the order screen route /work-orders/:id/reminders', () => {
  type Json = Record<string, unknown>;
  /** Runs the route's loader or action as React Router would, after the i18n middleware. */
  async function runRoute(
    token: string,
    id: string,
    form?: Record<string, string>,
  ): Promise<{ status: number; body: Json }> {
    const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
    const context = new RouterContextProvider();
    context.set(tenantContext, tenantA);
    context.set(authContext, auth);
    context.set(requestContext, { ip: null, requestId: 'test', token });
    const url = `http://${a.host}/work-orders/${id}/reminders`;
    const body = new FormData();
    for (const [k, v] of Object.entries(form ?? {})) body.append(k, v);
    const request = form ? new Request(url, { method: 'POST', body }) : new Request(url);
    let answer: unknown;
    await i18nextMiddleware({ request, context, params: { id }, url: new URL(url), pattern: '' } as never, async () => {
      const args = { request, context, params: { id } } as never;
      answer = form ? await remindersAction(args) : await remindersLoader(args);
      return new Response(null);
    });
    const r = answer as { data?: Json; init?: { status?: number } | null };
    return { status: r.init?.status ?? 200, body: r.data as Json };
  }

  it("takes the due time as wall-clock time in the tenant's zone, edits and deletes by intent", async () => {
    const wo = await newOrder('Skärm');
    const y = new Date().getFullYear() + 1;
    const saved = await runRoute(tok.tech, wo.id, { intent: 'save', due: `${y}-03-05T08:30`, message: 'Kolla' });
    expect(saved.status).toBe(200);
    const [r] = (saved.body.data as RemindersPanelData).reminders;
    // Stockholm is UTC+1 in March
    expect(r).toMatchObject({ dueAt: `${y}-03-05T07:30:00.000Z`, userId: ids.tech, message: 'Kolla' });

    const edited = await runRoute(tok.tech, wo.id, {
      intent: 'save',
      id: r!.id,
      due: `${y}-07-01T09:00`,
      userId: ids.admin,
    });
    expect((edited.body.data as RemindersPanelData).reminders[0]).toMatchObject({
      dueAt: `${y}-07-01T07:00:00.000Z`,
      userId: ids.admin,
      message: '',
    });
    const invalid = await runRoute(tok.tech, wo.id, { intent: 'save', due: '' });
    expect(invalid).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_FAILED', fields: { dueAt: ['ERROR_REQUIRED_FIELD'] } },
    });

    const loaded = await runRoute(tok.tech, wo.id);
    expect(loaded.status).toBe(200);
    expect(loaded.body).toMatchObject({ config: { country: 'SE' }, timeZone: 'Europe/Stockholm' });
    expect((loaded.body.data as RemindersPanelData).reminders).toHaveLength(1);

    const deleted = await runRoute(tok.tech, wo.id, { intent: 'delete', id: r!.id });
    expect(deleted).toMatchObject({ status: 200, body: { ok: true, intent: 'delete', data: { reminders: [] } } });
    // the reader may look but not change
    expect((await runRoute(tok.reader, wo.id, { intent: 'save', due: `${y}-03-05T08:30` })).status).toBe(403);
    expect((await runRoute(tok.reader, wo.id)).status).toBe(200);
    // an order of another tenant (or none): the panel says it failed instead of breaking the page
    expect(await runRoute(tok.tech, '00000000-0000-4000-8000-000000000000')).toEqual({
      status: 404,
      body: { error: 'FAILED_TO_FETCH' },
    });
  });
});

describe('[reminders] input declared at the boundary (issue 29)', () => {
  it('refuses a malformed body with 400 and the field, and /api/openapi.json shows the shapes', async () => {
    const wo = await newOrder('Gränsen');
    const dateOnly = await call('POST', `/api/wo/${wo.id}/reminder`, tok.admin, { dueAt: '2030-01-01' });
    expect(dateOnly.status).toBe(400);
    expect(dateOnly.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { dueAt: ['ERROR_INVALID_VALUE'] } });
    const long = await call('POST', `/api/wo/${wo.id}/reminder`, tok.admin, {
      dueAt: inMinutes(60),
      message: 'x'.repeat(1001),
    });
    expect(long.json().fields).toEqual({ message: ['ERROR_MAX_LENGTH'] });

    const doc = (await call('GET', '/api/openapi.json')).json();
    const edit = doc.paths['/wo/{id}/reminder'].put.requestBody.content['application/json'].schema;
    expect(Object.keys(edit.properties).sort()).toEqual(['dueAt', 'message', 'reminderId', 'userId']);
    expect(edit.required).toContain('reminderId');
    expect(doc.paths['/wo/{id}/reminder/{rid}'].delete.parameters.map((p: { name: string }) => p.name)).toEqual([
      'id',
      'rid',
    ]);
  });
});
