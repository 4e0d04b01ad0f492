import { RouterContextProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import { action as publicAction, loader as publicLoader } from '~/app/routes/extra-work.$token';
import { action as panelAction, loader as panelLoader } from '~/app/routes/projects.$id.extra-work';
import { validateSession } from '~/core/auth/session.service';
import { withTenant } from '~/core/db/with-tenant';
import { SmtpMailer, setMailer } from '~/core/mail/mailer';
import { mailSettled } from '~/core/mail/templates/deliver';
import type { Tenant } from '~/core/tenancy/tenant';
import { sessionPolicy } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { startSmtpPeer, type SmtpPeer, type ReceivedMail } from '~/tests/helpers/smtp';

/*
 * Extra work (ATA) approved by the customer through an e-mailed link (issue 18): the staff call
 * mails a link on the tenant's host over SMTP, the signed-out page shows the order and takes the
 * answer once; expired, superseded and answered links are refused alike.
 */

let srv: TestServer;
let smtp: SmtpPeer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'ata' | 'adminB', string>;
const ref = {} as Record<'customer' | 'project' | 'closedProject' | 'article' | 'tech', string> & {
  discountProject?: string;
};
let foreignOrder: string;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  srv = await startTestServer();
  smtp = await startSmtpPeer();
  setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
  a = await createTestTenant('ata-a');
  b = await createTestTenant('ata-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert({
      display_name: 'ATA makers',
      permissions: ['workorders:read', 'workorders:create_project_extra_work'],
      work_order_limit: 'none',
    });
    await ensureUser(trx, {
      email: `ata@${a.slug}.se`,
      name: 'Åsa Projekt',
      password: PASSWORD,
      accessLevels: ['ATA makers'],
    });
    ref.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    const [customer] = await trx('customers')
      .insert({ customer_id: '30001', name: 'Brf Eken', invoice_language: 'en' })
      .returning('id');
    ref.customer = customer.id;
    const [project, closed] = await trx('projects')
      .insert([
        { number: 1001, title: 'Nytt larm i hus B' },
        { number: 1002, title: 'Avslutat projekt', status: 'closed', closed_at: new Date() },
      ])
      .returning('id');
    ref.project = project.id;
    ref.closedProject = closed.id;
    const [article] = await trx('articles')
      .insert({ article_id: 'KAB-1', title: 'Larmkabel', price: '12.50', unit: 'm' })
      .returning('id');
    ref.article = article.id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.ata = await signIn(a, `ata@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
  const res = await call('POST', '/api/wo', tok.adminB, { workOrder: { title: 'Annans order' } }, b.host);
  foreignOrder = res.json().workOrder.id;
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

/** A work order of `project` (none: outside any project) with an article row and time, its ATA status set in SQL. */
async function order(opts: { project?: string | null; status?: 'pending' | 'accepted' | 'declined' | null } = {}) {
  const res = await call('POST', '/api/wo', tok.admin, {
    workOrder: {
      title: 'Extra detektorer',
      description: 'Två extra detektorer i trapphuset',
      customerId: ref.customer,
    },
  });
  expect(res.status, res.text).toBe(200);
  const wo = res.json().workOrder as Json & { id: string; number: string };
  await withTenant(tenantA, async (trx) => {
    await trx('work_orders')
      .where({ id: wo.id })
      .update({
        project_id: opts.project === undefined ? ref.project : opts.project,
        project_extra_status: opts.status === undefined ? 'pending' : opts.status,
      });
    await trx('work_order_articles').insert({
      work_order_id: wo.id,
      article_id: ref.article,
      title: 'Larmkabel',
      amount: '20',
      price: '12.50',
      total: '250.00',
    });
    await trx('work_order_time').insert({
      work_order_id: wo.id,
      user_id: ref.tech,
      date: '2026-03-02',
      work_minutes: 150,
      travel_minutes: 30,
    });
  });
  return wo;
}

const send = (workOrderId: string, token = tok.ata, email = 'styrelsen@eken.se') =>
  call('POST', '/api/wo/projectextra/link', token, { workOrderId, email, message: 'Hör av er vid frågor.' });

/** The token of the link in the mail to `email` (waits for it). */
async function mailedToken(email = 'styrelsen@eken.se'): Promise<{ mail: ReceivedMail; token: string; link: string }> {
  await mailSettled();
  const mail = await smtp.waitForMail((m) => m.to.includes(email));
  const link = /https?:\/\/\S+\/extra-work\/[A-Za-z0-9_-]{43}\S*/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  const token = /\/extra-work\/([A-Za-z0-9_-]{43})/.exec(link!)![1]!;
  smtp.mails.length = 0;
  return { mail, token, link: link! };
}

type RouteAnswer = { status: number; body: Json };

/** The signed-out page's loader or action, as React Router runs it (the i18n middleware around it). */
async function publicPage(token: string, form?: Record<string, string>, ip = '203.0.113.7'): Promise<RouteAnswer> {
  const context = new RouterContextProvider();
  context.set(tenantContext, tenantA);
  context.set(authContext, null);
  context.set(requestContext, { ip, requestId: 'test', token: null });
  const url = `http://${a.host}/extra-work/${token}?lang=en`;
  let body: FormData | undefined;
  if (form) {
    body = new FormData();
    for (const [k, v] of Object.entries(form)) body.append(k, v);
  }
  const request = new Request(url, form ? { method: 'POST', body } : undefined);
  let answer: unknown;
  await i18nextMiddleware(
    { request, context, params: { token }, url: new URL(url), pattern: '' } as never,
    async () => {
      const args = { request, context, params: { token } } as never;
      answer = form ? await publicAction(args) : await publicLoader(args);
      return new Response(null);
    },
  );
  const r = answer as { data?: Json; init?: { status?: number } | null };
  return { status: r.init?.status ?? 200, body: r.data! };
}

/** The project panel's resource route, signed in with `token`. */
async function panel(
  token: string,
  projectId: string,
  workOrderId: string,
  form?: Record<string, string>,
): Promise<RouteAnswer> {
  const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
  const context = new RouterContextProvider();
  context.set(tenantContext, tenantA);
  context.set(authContext, auth);
  context.set(requestContext, { ip: null, requestId: 'test', token });
  const url = `http://${a.host}/projects/${projectId}/extra-work?workOrderId=${workOrderId}`;
  let body: FormData | undefined;
  if (form) {
    body = new FormData();
    for (const [k, v] of Object.entries({ workOrderId, ...form })) body.append(k, v);
  }
  const request = new Request(url, form ? { method: 'POST', body } : undefined);
  let answer: unknown;
  const params = { id: projectId };
  await i18nextMiddleware({ request, context, params, url: new URL(url), pattern: '' } as never, async () => {
    const args = { request, context, params } as never;
    answer = form ? await panelAction(args) : await panelLoader(args);
    return new Response(null);
  });
  const r = answer as { data?: Json; init?: { status?: number } | null };
  return { status: r.init?.status ?? 200, body: r.data! };
}

const woStatus = (id: string) =>
  withTenant(
    tenantA,
    async (trx) => (await trx('work_orders').where({ id }).first('project_extra_status')).project_extra_status,
  );

describe('[projects] extra work approval by e-mailed link', () => {
  it('mails a link on the tenant host; the page shows the order; approving accepts it once', async () => {
    const wo = await order();
    const res = await send(wo.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json().link).toMatchObject({ email: 'styrelsen@eken.se', state: 'open', answer: null });

    const { mail, token, link } = await mailedToken();
    expect(mail.subject).toContain('1001 Nytt larm i hus B');
    // the customer's invoice language (en), the order, its article and its time
    expect(mail.text).toContain(`Work order ${wo.number}: Extra detektorer`);
    expect(mail.text).toContain('Två extra detektorer i trapphuset');
    expect(mail.text).toContain('Larmkabel: 20 m × 12,50 kr = 250,00 kr');
    expect(mail.text).toContain('2 h 30 min work, 30 min travel');
    expect(mail.text).toContain('Hör av er vid frågor.');
    expect(new URL(link).hostname).toBe(a.host);
    expect(link).toContain('?lang=en');
    // only the hash is kept
    const stored = await withTenant(tenantA, (trx) => trx('project_extra_work_links').where({ work_order_id: wo.id }));
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);

    const page = await publicPage(token);
    expect(page.status).toBe(200);
    expect(page.body.page).toMatchObject({
      state: 'open',
      view: {
        company: 'ata-a AB',
        project: { number: 1001, title: 'Nytt larm i hus B' },
        workOrder: { number: wo.number, title: 'Extra detektorer', description: 'Två extra detektorer i trapphuset' },
        articles: [{ title: 'Larmkabel', unit: 'm', amount: '20', price: '12.50', total: '250.00' }],
        total: '250.00',
        time: { workMinutes: 150, travelMinutes: 30 },
      },
    });

    const noName = await publicPage(token, { answer: 'accepted', name: ' ' });
    expect(noName.status).toBe(400);
    expect(noName.body.fields).toEqual({ name: ['ERROR_REQUIRED_FIELD'] });
    expect(await woStatus(wo.id)).toBe('pending');

    const yes = await publicPage(token, { answer: 'accepted', name: 'Karin Ek' });
    expect(yes.status).toBe(200);
    expect(yes.body.result).toMatchObject({ state: 'answered', answer: 'accepted', name: 'Karin Ek' });
    expect(await woStatus(wo.id)).toBe('accepted');
    const [row] = await withTenant(tenantA, (trx) => trx('project_extra_work_links').where({ work_order_id: wo.id }));
    expect(row).toMatchObject({ answer: 'accepted', answered_name: 'Karin Ek', answered_ip: '203.0.113.7' });
    expect(row.answered_at).toBeTruthy();
    // the order's history names who answered, without a staff user
    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity: 'work_order', entity_id: wo.id, action: 'edit' }).orderBy('at', 'desc'),
    );
    const data = typeof history[0].data === 'string' ? JSON.parse(history[0].data) : history[0].data;
    expect(history[0].user_id).toBeNull();
    expect(data).toMatchObject({
      answeredBy: 'Karin Ek',
      changes: [{ field: 'projectExtraStatus', old: 'pending', new: 'accepted' }],
    });

    // a second use: the same page as any unusable link
    const again = await publicPage(token, { answer: 'declined', name: 'Karin Ek' });
    expect(again.status).toBe(410);
    expect(again.body.result).toEqual({ state: 'gone', company: 'ata-a AB' });
    expect((await publicPage(token)).status).toBe(410);
    expect(await woStatus(wo.id)).toBe('accepted');

    // the staff list: the answer, never the token
    const list = await call('GET', `/api/wo/projectextra/link?workOrderId=${wo.id}`, tok.admin);
    expect(list.status, list.text).toBe(200);
    expect(list.json()).toMatchObject({
      projectExtraStatus: 'accepted',
      links: [
        {
          email: 'styrelsen@eken.se',
          state: 'answered',
          answer: 'accepted',
          answeredName: 'Karin Ek',
          sentByName: 'Åsa Projekt',
        },
      ],
    });
    expect(list.text).not.toContain(token);
    expect(list.text).not.toContain('token');
  });

  it('declines', async () => {
    const wo = await order();
    expect((await send(wo.id)).status).toBe(200);
    const { token } = await mailedToken();
    const no = await publicPage(token, { answer: 'declined', name: 'Per Ek' });
    expect(no.body.result).toMatchObject({ state: 'answered', answer: 'declined' });
    expect(await woStatus(wo.id)).toBe('declined');
  });

  it('refuses an expired link', async () => {
    const wo = await order();
    expect((await send(wo.id)).status).toBe(200);
    const { token } = await mailedToken();
    await withTenant(tenantA, (trx) =>
      trx('project_extra_work_links')
        .where({ work_order_id: wo.id })
        .update({ expires_at: trx.raw(`now() - interval '1 minute'`) }),
    );
    const page = await publicPage(token);
    expect(page.status).toBe(410);
    expect(page.body.page).toEqual({ state: 'gone', company: 'ata-a AB' });
    expect((await publicPage(token, { answer: 'accepted', name: 'Karin Ek' })).status).toBe(410);
    expect(await woStatus(wo.id)).toBe('pending');
    const list = await call('GET', `/api/wo/projectextra/link?workOrderId=${wo.id}`, tok.ata);
    expect(list.json().links[0].state).toBe('expired');
  });

  it('a newer link supersedes the older one', async () => {
    const wo = await order();
    expect((await send(wo.id)).status).toBe(200);
    const first = await mailedToken();
    expect((await send(wo.id, tok.ata, 'ordf@eken.se')).status).toBe(200);
    const second = await mailedToken('ordf@eken.se');
    expect((await publicPage(first.token)).status).toBe(410);
    expect((await publicPage(first.token, { answer: 'accepted', name: 'Karin Ek' })).status).toBe(410);
    expect((await publicPage(second.token)).body.page.state).toBe('open');
    const list = await call('GET', `/api/wo/projectextra/link?workOrderId=${wo.id}`, tok.ata);
    expect(list.json().links.map((l: Json) => [l.email, l.state])).toEqual([
      ['ordf@eken.se', 'open'],
      ['styrelsen@eken.se', 'superseded'],
    ]);
    expect((await publicPage(second.token, { answer: 'accepted', name: 'Karin Ek' })).body.result.state).toBe(
      'answered',
    );
  });

  it('a link stops working when staff answer first', async () => {
    const wo = await order();
    expect((await send(wo.id)).status).toBe(200);
    const { token } = await mailedToken();
    const staff = await call('POST', '/api/wo/projectextra', tok.admin, { workOrderId: wo.id, status: 'declined' });
    expect(staff.status, staff.text).toBe(200);
    expect((await publicPage(token)).status).toBe(410);
  });

  it('an unknown or malformed token shows the same page', async () => {
    for (const token of ['A'.repeat(43), 'nope']) {
      const page = await publicPage(token);
      expect(page.status).toBe(410);
      expect(page.body.page).toEqual({ state: 'gone', company: 'ata-a AB' });
    }
  });

  it('refuses orders that are not pending extra work of an ongoing project', async () => {
    const notExtra = await order({ status: null });
    const r1 = await send(notExtra.id);
    expect(r1.status).toBe(409);
    expect(r1.json().code).toBe('WORK_ORDER_NOT_PENDING_EXTRA_WORK');
    const accepted = await order({ status: 'accepted' });
    expect((await send(accepted.id)).json().code).toBe('WORK_ORDER_NOT_PENDING_EXTRA_WORK');
    const noProject = await order({ project: null, status: null });
    const r2 = await send(noProject.id);
    expect(r2.status).toBe(409);
    expect(r2.json().code).toBe('WORK_ORDER_NOT_IN_PROJECT');
    const closed = await order({ project: ref.closedProject });
    const r3 = await send(closed.id);
    expect(r3.status).toBe(409);
    expect(r3.json().code).toBe('PROJECT_CLOSED');
    const bad = await call('POST', '/api/wo/projectextra/link', tok.ata, {
      workOrderId: notExtra.id,
      email: 'inte-en-adress',
    });
    expect(bad.status).toBe(400);
    expect(bad.json().fields).toEqual({ email: ['ERROR_INVALID_EMAIL'] });
    await mailSettled();
    expect(smtp.mails).toEqual([]);
  });

  it("another tenant's work order is 404; a technician without the right is 403", async () => {
    const foreign = await send(foreignOrder);
    expect(foreign.status).toBe(404);
    expect(foreign.json().code).toBe('NOT_FOUND');
    expect((await call('GET', `/api/wo/projectextra/link?workOrderId=${foreignOrder}`, tok.admin)).status).toBe(404);
    const wo = await order();
    expect((await send(wo.id, tok.tech)).status).toBe(403);
    await mailSettled();
    expect(smtp.mails).toEqual([]);
  });

  it('blocks an address after repeated failed answers', async () => {
    const ip = '198.51.100.9';
    for (let i = 0; i < 10; i++) {
      const r = await publicPage('B'.repeat(43), { answer: 'accepted', name: 'Gissare' }, ip);
      expect(r.status).toBe(410);
    }
    const blocked = await publicPage('B'.repeat(43), { answer: 'accepted', name: 'Gissare' }, ip);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('IP_BLOCKED_TRY_AGAIN_LATER');
  });
});

describe('[projects] what the extra work comes to (issue 28 item 14)', () => {
  it('the mail, the page and the office panel show the discount, the labour and one amount; the mail goes to the contact', async () => {
    const wo = await order();
    await withTenant(tenantA, async (trx) => {
      const [project] = await trx('projects')
        .insert({ number: 1003, title: 'Passage hus C', hourly_price: 700 })
        .returning('id');
      await trx('customers')
        .where({ id: ref.customer })
        .update({ invoice_email: 'faktura@eken.se', email: 'info@eken.se' });
      await trx('customer_contacts').insert([
        { customer_id: ref.customer, name: 'Utan e-post', sort_order: 0 },
        { customer_id: ref.customer, name: 'Karin Ek', email: 'karin@eken.se', sort_order: 1 },
      ]);
      await trx('work_orders').where({ id: wo.id }).update({ project_id: project.id });
      await trx('work_order_articles').where({ work_order_id: wo.id }).delete();
      await trx('work_order_time').where({ work_order_id: wo.id }).update({ work_minutes: 60, travel_minutes: 30 });
      await trx('work_order_articles').insert({
        work_order_id: wo.id,
        article_id: ref.article,
        title: 'Kortläsare',
        amount: '1',
        price: '4150.00',
        discount_type: 'PERCENTAGE',
        discount_value: '10',
        total: '3735.00',
      });
      ref.discountProject = project.id;
    });

    // the office panel: the amount (1 h × 700 + 3 735) and the customer's contact, not the invoice mailbox
    const loaded = await panel(tok.admin, ref.discountProject!, wo.id);
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(200);
    expect(loaded.body).toMatchObject({ amount: '4435.00', defaultEmail: 'karin@eken.se' });
    // the order's own contact comes first
    await withTenant(tenantA, (trx) =>
      trx('work_orders').where({ id: wo.id }).update({ contact_email: 'platschef@eken.se' }),
    );
    expect((await panel(tok.admin, ref.discountProject!, wo.id)).body.defaultEmail).toBe('platschef@eken.se');

    expect((await send(wo.id, tok.ata, 'karin@eken.se')).status).toBe(200);
    const { mail, token } = await mailedToken('karin@eken.se');
    expect(mail.text).toContain('Labour: 1,00 h × 700,00 kr = 700,00 kr');
    expect(mail.text).toContain('Kortläsare: 1 m × 4 150,00 kr, discount 10 % = 3 735,00 kr');
    expect(mail.text).toContain('Total excluding VAT: 4 435,00 kr');
    expect(mail.html).toContain('discount 10 %');

    const page = await publicPage(token);
    expect(page.body.page.view).toMatchObject({
      labour: { hours: '1.00', price: '700.00', total: '700.00' },
      articles: [
        { title: 'Kortläsare', price: '4150.00', discount: { type: 'PERCENTAGE', value: '10.00' }, total: '3735.00' },
      ],
      total: '4435.00',
    });
  });
});

describe('[projects] the extra-work panel route /projects/:id/extra-work', () => {
  it('sends, lists and sets the status for one of the project’s orders', async () => {
    const wo = await order();
    const sent = await panel(tok.admin, ref.project, wo.id, {
      intent: 'send',
      email: 'styrelsen@eken.se',
      message: '',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({
      ok: true,
      intent: 'send',
      projectExtraStatus: 'pending',
      links: [{ state: 'open' }],
    });
    const { link } = await mailedToken();
    expect(new URL(link).hostname).toBe(a.host);

    const loaded = await panel(tok.admin, ref.project, wo.id);
    expect(loaded.body.links).toHaveLength(1);

    const accepted = await panel(tok.admin, ref.project, wo.id, { intent: 'status', status: 'accepted' });
    expect(accepted.body).toMatchObject({ ok: true, projectExtraStatus: 'accepted' });

    // the order is not the named project's
    const elsewhere = await panel(tok.admin, ref.closedProject, wo.id, { intent: 'status', status: 'declined' });
    expect(elsewhere.status).toBe(404);
    expect((await panel(tok.admin, ref.closedProject, wo.id)).status).toBe(404);
    const refused = await panel(tok.tech, ref.project, wo.id, { intent: 'send', email: 'styrelsen@eken.se' });
    expect([403, 404]).toContain(refused.status);
  });
});
