import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { claimOverdueDeviations } from '~/core/deviations/deviation-mail';
import { withTenant } from '~/core/db/with-tenant';
import { SmtpMailer, setMailer } from '~/core/mail/mailer';
import { mailSettled } from '~/core/mail/templates/deliver';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { startSmtpPeer, type SmtpPeer } from '~/tests/helpers/smtp';

/*
 * Deviations over the API (issue 34): raised with the relations of the record it came from, worked
 * (responsible, due date, solutions, the change and its approval), closed and reopened, every change
 * in the history; who may do what; another tenant's ids as not found; the dashboard's figures; the
 * mails (assignment, and overdue exactly once however often the job runs).
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let smtp: SmtpPeer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ids = {} as Record<'admin' | 'tech' | 'customer' | 'object' | 'wo' | 'customerB' | 'category', string>;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));
const callB = (method: string, path: string, body?: unknown) => call(method, path, tok.adminB, body, b.host);

const sql = async (text: string, bindings: unknown[] = []) =>
  withTenant(tenantA, async (trx) => (await trx.raw(text, bindings as never[])).rows as Json[]);

const raise = async (body: Json, token = tok.admin) => {
  const res = await call('POST', '/api/deviations', token, body);
  expect(res.status, res.text).toBe(200);
  return res.json() as { id: string; number: number };
};
const get = async (id: string, token = tok.admin) => {
  const res = await call('GET', `/api/deviations/${id}`, token);
  expect(res.status, res.text).toBe(200);
  return res.json() as Json;
};

beforeAll(async () => {
  srv = await startTestServer();
  smtp = await startSmtpPeer();
  setMailer(new SmtpMailer(smtp.url, 'Ordo <no-reply@ordo.test>'));
  a = await createTestTenant('dev-a');
  b = await createTestTenant('dev-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  const users = await sql('select id, email from users');
  ids.admin = users.find((u) => u.email === a.adminEmail)!.id;
  ids.tech = users.find((u) => u.email === a.technicianEmail)!.id;
  await sql(`update users set language = 'en' where id = ?`, [ids.tech]);
  const [customer] = await sql(`insert into customers (customer_id, name) values ('40001', 'Brf Linden') returning id`);
  ids.customer = customer!.id;
  const [object] = await sql(
    `insert into business_objects (serial_code, customer_id, location) values ('GATE-1', ?, 'Entré') returning id`,
    [ids.customer],
  );
  ids.object = object!.id;
  const wo = await call('POST', '/api/wo', tok.admin, {
    workOrder: { title: 'Grind service', customerId: ids.customer, businessObjectId: ids.object },
  });
  expect(wo.status, wo.text).toBe(200);
  ids.wo = wo.json().workOrder.id;
  await sql('insert into work_order_assignees (work_order_id, user_id) values (?, ?)', [ids.wo, ids.tech]);
  const cat = await call('POST', '/api/deviations/categories', tok.admin, { name: 'Safety', notifyUserIds: [] });
  expect(cat.status, cat.text).toBe(200);
  ids.category = cat.json().id;
  const rowB = await withTenant((await getTenantBySlug(b.slug))!, async (trx) =>
    (await trx.raw(`insert into customers (customer_id, name) values ('1', 'B:s kund') returning id`)).rows,
  );
  ids.customerB = rowB[0].id;
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

describe('[deviations] raising', () => {
  it('starts with the relations of the work order it is raised from, and they can be edited', async () => {
    const from = await call('GET', `/api/deviations/from/work_order/${ids.wo}`, tok.tech);
    expect(from.status, from.text).toBe(200);
    const rels = from.json() as Json[];
    expect(rels.map((r) => r.kind).sort()).toEqual(['customer', 'object', 'work_order']);
    expect(rels.find((r) => r.kind === 'object')!.label).toContain('GATE-1');

    const { id, number } = await raise(
      { title: 'Grind stänger inte', categoryId: ids.category, relations: rels.map(({ kind, targetId }) => ({ kind, targetId })) },
      tok.tech,
    );
    expect(number).toBeGreaterThan(0);
    const got = await get(id, tok.tech);
    expect(got.deviation).toMatchObject({ status: 'open', categoryName: 'Safety', title: 'Grind stänger inte' });
    expect(got.relations).toHaveLength(3);
    // the list's kinds (kept on the deviation, migration 0055) follow the relations as they change
    const listed = async (kind: string) =>
      ((await call('GET', `/api/deviations?status=all&relationKind=${kind}&size=200`, tok.admin)).json() as Json).deviations.find(
        (d: Json) => d.id === id,
      );
    const kinds = [...new Set(rels.map((r) => r.kind))].sort();
    expect((await listed(kinds[0]!))?.relationKinds).toEqual(kinds);

    const put = await call('PUT', `/api/deviations/${id}/relations`, tok.admin, {
      relations: [{ kind: 'customer', targetId: ids.customer }],
    });
    expect(put.status, put.text).toBe(200);
    expect((await get(id)).relations.map((r: Json) => r.kind)).toEqual(['customer']);
    expect((await listed('customer'))?.relationKinds).toEqual(['customer']);
    for (const gone of kinds.filter((k) => k !== 'customer')) expect(await listed(gone)).toBeUndefined();
    const hist = (await call('GET', `/api/deviations/${id}/history`, tok.admin)).json() as Json[];
    expect(hist.map((h) => h.action)).toEqual(['relations', 'create']);
  });

  it('starts from a failed service-report field with the report, its order, object and customer, the field named', async () => {
    const templates = (await call('GET', '/api/instance/servicereport', tok.admin)).json<Json>().templates as Json[];
    const tpl = templates.find((t) => t.builtIn === 'general')!;
    const page = tpl.pages[1];
    const followUp = page.fields.find((f: Json) => f.kind === 'yesno')!;
    const saved = await call('PUT', '/api/wo/servicereport', tok.tech, {
      workOrderId: ids.wo,
      serviceReportId: tpl.id,
      page: page.id,
      data: { [followUp.id]: 'no' },
    });
    expect(saved.status, saved.text).toBe(200);
    const report = saved.json<Json>();
    const field = `${page.id}.${followUp.id}`;
    expect(report.flagged).toEqual([field]);

    const from = await call('GET', `/api/deviations/from/service_report/${report.id}?field=${field}`, tok.tech);
    expect(from.status, from.text).toBe(200);
    const rels = from.json() as Json[];
    expect(rels.map((r) => r.kind).sort()).toEqual(['customer', 'object', 'service_report', 'work_order']);
    const onReport = rels.find((r) => r.kind === 'service_report')!;
    expect(onReport).toMatchObject({ targetId: report.id, field, fieldLabel: followUp.label, workOrderId: ids.wo });
    expect(onReport.label).toContain('Grind service');

    const { id } = await raise({ title: followUp.label, relations: rels.map(({ kind, targetId, field: f }) => ({ kind, targetId, field: f })) }, tok.tech);
    const got = await get(id, tok.tech);
    expect(got.relations.find((r: Json) => r.kind === 'service_report')).toMatchObject({ field, fieldLabel: followUp.label });
    const [row] = await sql(`select field from deviation_relations where deviation_id = ? and kind = 'service_report'`, [id]);
    expect(row!.field).toBe(field);
    // the report's deviations are listed by the relations' index
    const ofReport = (await call('GET', `/api/deviations?relationKind=service_report&relationId=${report.id}`, tok.admin)).json() as Json;
    expect(ofReport.deviations.map((d: Json) => d.id)).toEqual([id]);
  });

  it('refuses bad input with the fields, writing nothing', async () => {
    const before = (await sql('select count(*)::int as n from deviations'))[0]!.n;
    const res = await call('POST', '/api/deviations', tok.admin, { title: '', dueDate: '2026-02-31', relations: [{ kind: 'planet', targetId: 'x' }] });
    expect(res.status).toBe(400);
    const fields = res.json<Json>().fields;
    expect(fields.title).toEqual(['ERROR_REQUIRED_FIELD']);
    expect(fields.dueDate).toEqual(['ERROR_INVALID_DATE']);
    expect(Object.keys(fields)).toContain('relations.0.kind');
    const short = await call('POST', '/api/deviations/categories', tok.admin, { name: 'x' });
    expect(short.json<Json>().fields.name).toEqual(['ERROR_MIN_LENGTH_2']);
    const dup = await call('POST', '/api/deviations/categories', tok.admin, { name: 'SAFETY' });
    expect(dup.status).toBe(409);
    expect((await sql('select count(*)::int as n from deviations'))[0]!.n).toBe(before);
  });
});

describe('[deviations] working one to closed', () => {
  it('is assigned (mailed in their language), changed, approved, closed, reopened; each step in the history', async () => {
    const { id } = await raise({ title: 'Fel på larmsändare', relations: [{ kind: 'object', targetId: ids.object }] });
    const assign = await call('PATCH', '/api/deviations', tok.admin, {
      id,
      responsibleUserId: ids.tech,
      dueDate: '2026-12-01',
      shortTermSolution: 'Bytt batteri',
      changeNeeded: true,
    });
    expect(assign.status, assign.text).toBe(200);
    const mail = await smtp.waitForMail((m) => m.subject.startsWith('Deviation'));
    expect(mail.to).toEqual([a.technicianEmail]);
    expect(mail.text).toContain(`/deviations/${id}`);

    let d = (await get(id)).deviation;
    expect(d).toMatchObject({ responsibleUserId: ids.tech, dueDate: '2026-12-01', changeNeeded: true, changeState: 'started' });

    // a change not yet approved keeps it open
    const early = await call('POST', `/api/deviations/${id}/close`, tok.admin, { comment: 'klart' });
    expect([early.status, early.json<Json>().code]).toEqual([409, 'DEVIATION_CHANGE_NOT_APPROVED']);
    const skip = await call('PATCH', '/api/deviations', tok.admin, { id, changeState: 'approved' });
    expect([skip.status, skip.json<Json>().code]).toEqual([409, 'DEVIATION_CHANGE_STATE_INVALID']);
    for (const changeState of ['defined', 'needs_work', 'defined', 'approved'])
      expect((await call('PATCH', '/api/deviations', tok.admin, { id, changeState, longTermSolution: 'Ny sändartyp' })).status).toBe(200);
    d = (await get(id)).deviation;
    expect(d.changeState).toBe('approved');
    expect(d.approvedByName).toBeTruthy();
    expect(d.approvedAt).toBeTruthy();

    const close = await call('POST', `/api/deviations/${id}/close`, tok.admin, { comment: 'Åtgärdat' });
    expect(close.status, close.text).toBe(200);
    expect((await get(id)).deviation).toMatchObject({ status: 'closed', closeComment: 'Åtgärdat' });
    const edit = await call('PATCH', '/api/deviations', tok.admin, { id, title: 'Ändrad' });
    expect([edit.status, edit.json<Json>().code]).toEqual([409, 'DEVIATION_CLOSED']);
    const again = await call('POST', `/api/deviations/${id}/close`, tok.admin, { comment: 'igen' });
    expect(again.json<Json>().code).toBe('DEVIATION_ALREADY_CLOSED');

    expect((await call('POST', `/api/deviations/${id}/reopen`, tok.admin)).status).toBe(200);
    expect((await get(id)).deviation.status).toBe('open');
    const twice = await call('POST', `/api/deviations/${id}/reopen`, tok.admin);
    expect(twice.json<Json>().code).toBe('DEVIATION_NOT_CLOSED');

    const hist = (await call('GET', `/api/deviations/${id}/history`, tok.admin)).json() as Json[];
    expect(hist.map((h) => h.action).reverse()).toEqual([
      'create',
      'update',
      'update',
      'update',
      'update',
      'update',
      'close',
      'reopen',
    ]);
    expect(hist.find((h) => h.action === 'close')!.data).toEqual({ comment: 'Åtgärdat' });
  });
});

describe('[deviations] who may do what', () => {
  it('answers each call by its permission: the technician raises and reads, nothing more', async () => {
    const { id } = await raise({ title: 'Behörighet' });
    const cases: [string, string, unknown, number][] = [
      ['GET', '/api/deviations', undefined, 200],
      ['GET', `/api/deviations/${id}`, undefined, 200],
      ['GET', '/api/deviations/stats/category', undefined, 200],
      ['GET', '/api/deviations/stats/relation', undefined, 200],
      ['GET', '/api/deviations/stats/latest', undefined, 200],
      ['POST', '/api/deviations', { title: 'Tekniker' }, 200],
      ['PATCH', '/api/deviations', { id, title: 'x' }, 403],
      ['PUT', `/api/deviations/${id}/relations`, { relations: [] }, 403],
      ['POST', `/api/deviations/${id}/close`, { comment: 'x' }, 403],
      ['POST', `/api/deviations/${id}/reopen`, undefined, 403],
      ['DELETE', `/api/deviations/${id}`, undefined, 403],
      ['POST', '/api/deviations/categories', { name: 'Tekniker' }, 403],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await call(method, path, tok.tech, body);
      expect(`${method} ${path} → ${res.status}`).toBe(`${method} ${path} → ${status}`);
    }
    expect((await call('GET', '/api/deviations', undefined)).status).toBe(401);
    // the DEVIATIONS module off: nobody but a super user gets in
    await sql(`insert into app_modules (id, enabled) values ('deviations', false) on conflict (id) do update set enabled = false`);
    try {
      expect((await call('GET', '/api/deviations', tok.tech)).status).toBe(403);
    } finally {
      await sql(`update app_modules set enabled = true where id = 'deviations'`);
    }
    expect((await call('DELETE', `/api/deviations/${id}`, tok.admin)).status).toBe(200);
    expect((await call('GET', `/api/deviations/${id}`, tok.admin)).status).toBe(404);
  });

  it("treats another tenant's ids as not found, in every call", async () => {
    const { id } = await raise({ title: 'Bara A' });
    const cases: [string, string, unknown][] = [
      ['GET', `/api/deviations/${id}`, undefined],
      ['GET', `/api/deviations/${id}/history`, undefined],
      ['PATCH', '/api/deviations', { id, title: 'B' }],
      ['PUT', `/api/deviations/${id}/relations`, { relations: [] }],
      ['POST', `/api/deviations/${id}/close`, { comment: 'B' }],
      ['POST', `/api/deviations/${id}/reopen`, undefined],
      ['DELETE', `/api/deviations/${id}`, undefined],
      ['DELETE', `/api/deviations/categories/${ids.category}`, undefined],
      ['GET', `/api/deviations/from/work_order/${ids.wo}`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const res = await callB(method, path, body);
      expect(`${method} ${path} → ${res.status} ${res.json<Json>().code}`).toBe(`${method} ${path} → 404 NOT_FOUND`);
    }
    // B's customer cannot be a relation in A
    const rel = await call('PUT', `/api/deviations/${id}/relations`, tok.admin, { relations: [{ kind: 'customer', targetId: ids.customerB }] });
    expect(rel.status).toBe(404);
    expect((await get(id)).deviation.title).toBe('Bara A');
  });
});

describe('[deviations] the list and the dashboard', () => {
  it('filters in the URL’s terms and counts what is open by category, relation and month', async () => {
    const { id } = await raise({ title: 'Trasig dörrstängare', categoryId: ids.category, relations: [{ kind: 'customer', targetId: ids.customer }] });
    const list = (await call('GET', `/api/deviations?categoryId=${ids.category}&relationKind=customer&q=dörrstäng`, tok.admin)).json() as Json;
    expect(list.deviations.map((d: Json) => d.id)).toEqual([id]);
    const ofCustomer = (await call('GET', `/api/deviations?relationKind=customer&relationId=${ids.customer}`, tok.admin)).json() as Json;
    expect(ofCustomer.deviations.map((d: Json) => d.id)).toContain(id);

    const stats = (await call('GET', '/api/deviations/stats', tok.admin)).json() as Json;
    const safety = stats.byCategory.find((c: Json) => c.categoryId === ids.category).count;
    const customers = stats.byRelation.find((r: Json) => r.kind === 'customer').count;
    expect(stats.trend).toHaveLength(12);
    const thisMonth = stats.trend[11];
    expect(thisMonth.opened).toBeGreaterThanOrEqual(1);

    await call('POST', `/api/deviations/${id}/close`, tok.admin, { comment: 'Justerad' });
    const after = (await call('GET', '/api/deviations/stats', tok.admin)).json() as Json;
    expect(after.openCount).toBe(stats.openCount - 1);
    expect(after.byCategory.find((c: Json) => c.categoryId === ids.category)?.count ?? 0).toBe(safety - 1);
    expect(after.byRelation.find((r: Json) => r.kind === 'customer')?.count ?? 0).toBe(customers - 1);
    expect(after.trend[11].closed).toBe(thisMonth.closed + 1);
    const closed = (await call('GET', '/api/deviations?status=closed', tok.admin)).json() as Json;
    expect(closed.deviations.map((d: Json) => d.id)).toContain(id);
    // the dashboard's closed number of this month lands on the list closed in that month
    const month = after.trend[11].month as string;
    const [y, m] = month.split('-').map(Number) as [number, number];
    const monthEnd = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const closedInMonth = (
      await call('GET', `/api/deviations?status=closed&closedFrom=${month}-01&closedTo=${monthEnd}`, tok.admin)
    ).json() as Json;
    expect(closedInMonth.totalCount).toBe(after.trend[11].closed);
    expect(closedInMonth.deviations.map((d: Json) => d.id)).toContain(id);
    const closedBefore = (await call('GET', `/api/deviations?status=closed&closedTo=${after.trend[0].month}-01`, tok.admin)).json() as Json;
    expect(closedBefore.deviations.map((d: Json) => d.id)).not.toContain(id);
    // "no category" and "related to nothing" are filters too, counted as the dashboard counts them
    const bare = await raise({ title: 'Utan allt' });
    const stats2 = (await call('GET', '/api/deviations/stats', tok.admin)).json() as Json;
    const noCategory = (await call('GET', '/api/deviations?categoryId=none', tok.admin)).json() as Json;
    expect(noCategory.totalCount).toBe(stats2.byCategory.find((c: Json) => c.categoryId === null).count);
    expect(noCategory.deviations.map((d: Json) => d.id)).toContain(bare.id);
    const noRelation = (await call('GET', '/api/deviations?relationKind=none', tok.admin)).json() as Json;
    expect(noRelation.totalCount).toBe(stats2.byRelation.find((r: Json) => r.kind === null).count);
    expect(noRelation.deviations.map((d: Json) => d.id)).toContain(bare.id);
    expect(noRelation.deviations.every((d: Json) => d.relationKinds.length === 0)).toBe(true);
  });
});

describe('[deviations] files', () => {
  it('exports the filtered list as CSV and XLSX, and prints one deviation as a PDF', async () => {
    const { id, number } = await raise({ title: 'Exporteras; med semikolon', categoryId: ids.category });
    const csv = await call('GET', `/api/deviations/export?format=csv&categoryId=${ids.category}`, tok.admin);
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.text).toContain('"Exporteras; med semikolon"');
    expect(csv.text).toContain('Safety');
    const xlsx = await call('GET', '/api/deviations/export?format=xlsx&status=all', tok.admin);
    expect(xlsx.status).toBe(200);
    expect(xlsx.text.startsWith('PK')).toBe(true);
    expect((await call('GET', '/api/deviations/export?format=doc', tok.admin)).status).toBe(400);
    const pdf = await call('GET', `/api/deviations/${id}/pdf`, tok.admin);
    expect(pdf.status, pdf.text).toBe(200);
    expect(pdf.text.startsWith('%PDF')).toBe(true);
    expect(String(pdf.headers['content-disposition'])).toContain(String(number));
    expect((await callB('GET', `/api/deviations/${id}/pdf`)).status).toBe(404);
  });
});

describe('[deviations] the overdue mail', () => {
  it('is sent once per deviation, the day after its due date, however often the job runs', async () => {
    const { id } = await raise({ title: 'Förfallen', responsibleUserId: ids.tech, dueDate: '2026-03-09' });
    const { id: notYet } = await raise({ title: 'Inte än', responsibleUserId: ids.tech, dueDate: '2026-03-10' });
    await mailSettled();
    smtp.mails.length = 0;
    const now = new Date('2026-03-10T09:00:00Z');
    // a duplicated job: two runs at once, and one more after
    const runs = await Promise.all([1, 2].map(() => withTenant(tenantA, (trx) => claimOverdueDeviations(trx, tenantA, now))));
    const later = await withTenant(tenantA, (trx) => claimOverdueDeviations(trx, tenantA, now));
    await mailSettled();
    const overdue = smtp.mails.filter((m) => m.subject.includes('overdue'));
    expect(overdue.map((m) => m.subject)).toEqual([expect.stringContaining('Förfallen')]);
    expect(overdue[0]!.to).toEqual([a.technicianEmail]);
    expect(runs.reduce((s, n) => s + n, 0) + later).toBe(1);
    const [row] = await sql('select overdue_mailed_at from deviations where id = ?', [notYet]);
    expect(row!.overdue_mailed_at).toBeNull();
    // a new due date owes a new mail
    await call('PATCH', '/api/deviations', tok.admin, { id, dueDate: '2026-03-08' });
    expect((await sql('select overdue_mailed_at from deviations where id = ?', [id]))[0]!.overdue_mailed_at).toBeNull();
  });
});
