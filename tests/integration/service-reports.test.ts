import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { afterCommitSettled } from '~/core/db/with-tenant';
import { setOutboxQueue } from '~/core/jobs/outbox';
import { getTenantBySlug } from '~/tenants/registry';
import { getBinary } from '~/tests/helpers/binary';
import { pdfText } from '~/tests/helpers/pdf-text';
import { testAuth } from '~/tests/helpers/auth';
import { inTenant } from '~/core/unit-of-work';
import { nextInspectionOf, reportsOfObject } from '~/core/service-reports/service-report.service';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

/*
 * Issue 32: service-report templates in the settings and a report's life cycle through the API:
 * filled page by page (per door automatic), signed and locked, reopened with
 * workorders:reopen_servicereport (refused without it) keeping the signed version, and another
 * tenant's ids answered as not found.
 */

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'adminB', string>;
const ids: Record<string, string> = {};

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

interface Field {
  id: string;
  kind: string;
  label: string;
  required: boolean;
  min: number | null;
  max: number | null;
}
interface Template {
  id: string;
  title: string;
  perDoor: boolean;
  onDemand: boolean;
  active: boolean;
  builtIn: string | null;
  workTypeIds: string[];
  pages: { id: string; title: string; fields: Field[] }[];
}
interface Report {
  id: string;
  templateId: string;
  doorAutomaticId: string | null;
  data: Record<string, Record<string, unknown>>;
  version: number;
  signedAt: string | null;
  signedName: string | null;
  technicianName: string | null;
  flagged: string[];
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('srep-a');
  b = await createTestTenant('srep-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    ids.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    ids.service = (await trx('work_types').where({ name: 'Service' }).first('id')).id;
    ids.installation = (await trx('work_types').where({ name: 'Installation' }).first('id')).id;
    ids.customer = (await trx('customers').insert({ name: 'Brf Solrosen', customer_id: '5001' }).returning('id'))[0].id;
    ids.object = (
      await trx('business_objects')
        .insert({ serial_code: 'OBJ-1', location: 'Storgatan 1, Lund', customer_id: ids.customer })
        .returning('id')
    )[0].id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.adminB = await signIn(b, b.adminEmail);
  for (const n of ['1', '2']) {
    const res = await call('POST', '/api/doorautomatics', tok.admin, {
      title: `Entrédörr ${n}`,
      businessObjectId: ids.object,
    });
    expect(res.status, res.text).toBe(200);
    ids[`door${n}`] = res.json<{ id: string }>().id;
  }
});
afterAll(() => srv.close());

async function newOrder(workTypeId = ids.service!, withDoors = false): Promise<string> {
  const res = await call('POST', '/api/wo', tok.admin, {
    workOrder: {
      title: 'Besiktning',
      workTypeId,
      assignees: [ids.tech],
      customerId: ids.customer,
      businessObjectId: ids.object,
    },
  });
  expect(res.status, res.text).toBe(200);
  const id = res.json<{ workOrder: { id: string } }>().workOrder.id;
  if (withDoors) {
    const doors = await call('PUT', `/api/wo/doorautomatics/${id}`, tok.admin, {
      doorAutomatics: [ids.door1, ids.door2],
    });
    expect(doors.status, doors.text).toBe(200);
  }
  return id;
}

const templates = async () =>
  (await call('GET', '/api/instance/servicereport', tok.admin)).json<{ templates: Template[] }>().templates;
const builtIn = async (key: string) => (await templates()).find((t) => t.builtIn === key)!;
const fieldOf = (t: Template, page: number, kind: string, label?: RegExp) =>
  t.pages[page]!.fields.find((f) => f.kind === kind && (!label || label.test(f.label)))!;

describe('[service reports] templates', () => {
  it('every tenant starts with the three built-in templates, on demand and editable', async () => {
    const list = await templates();
    expect(list.map((t) => t.builtIn).sort()).toEqual(['general', 'intrusion_alarm', 'powered_door']);
    const door = list.find((t) => t.builtIn === 'powered_door')!;
    expect(door.perDoor).toBe(true);
    expect(door.onDemand).toBe(true);
    expect(door.pages.flatMap((p) => p.fields).some((f) => f.kind === 'measure' && f.max === 150)).toBe(true);
  });

  it('the session names the on-demand templates (spec: onDemandServiceReports)', async () => {
    const res = await call('POST', '/api/authenticate', undefined, { email: a.technicianEmail, password: PASSWORD });
    expect(res.status, res.text).toBe(200);
    const listed = res.json<{ data: { onDemandServiceReports: { id: string; title: string }[] } }>().data
      .onDemandServiceReports;
    expect(listed.map((t) => t.title).sort()).toEqual(
      (await templates())
        .filter((t) => t.onDemand && t.active)
        .map((t) => t.title)
        .sort(),
    );
    expect(listed).toHaveLength(3);
  });

  it('creates one for a work type; GET /wo/servicereport?workType offers it with the on-demand ones', async () => {
    const res = await call('POST', '/api/instance/servicereport', tok.admin, {
      title: 'Installationsprotokoll',
      workTypeIds: [ids.installation],
      pages: [{ title: 'Kontroll', fields: [{ kind: 'yesno', label: 'Provad', required: true }] }],
    });
    expect(res.status, res.text).toBe(200);
    const tpl = res.json<Template>();
    ids.installTpl = tpl.id;
    const forInstall = (await call('GET', `/api/wo/servicereport?workType=${ids.installation}`, tok.tech)).json<
      Template[]
    >();
    expect(forInstall.map((t) => t.id)).toContain(tpl.id);
    expect(forInstall.filter((t) => t.onDemand)).toHaveLength(3);
    const forService = (await call('GET', `/api/wo/servicereport?workType=${ids.service}`, tok.tech)).json<
      Template[]
    >();
    expect(forService.map((t) => t.id)).not.toContain(tpl.id);

    // edited: the field keeps its id, a new one gets one
    const edited = await call('PUT', '/api/instance/servicereport', tok.admin, {
      ...tpl,
      pages: [
        {
          ...tpl.pages[0],
          fields: [...tpl.pages[0]!.fields, { kind: 'measure', label: 'Spänning', unit: 'V', min: 12 }],
        },
      ],
    });
    expect(edited.status, edited.text).toBe(200);
    const fields = edited.json<Template>().pages[0]!.fields;
    expect(fields[0]!.id).toBe(tpl.pages[0]!.fields[0]!.id);
    expect(fields).toHaveLength(2);
  });

  it('refuses bad templates with the field that is wrong, and duplicates by title', async () => {
    const bad = await call('POST', '/api/instance/servicereport', tok.admin, {
      title: 'Fel',
      onDemand: true,
      pages: [{ title: 'S', fields: [{ kind: 'measure', label: 'M', min: 5, max: 1 }] }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json<{ fields: Record<string, string[]> }>().fields).toEqual({
      'pages.0.fields.0.max': ['ERROR_MIN_ABOVE_MAX'],
    });
    const dup = await call('POST', '/api/instance/servicereport', tok.admin, {
      title: 'installationsprotokoll',
      onDemand: true,
      pages: [{ title: 'S', fields: [{ kind: 'text', label: 'T' }] }],
    });
    expect(dup.status).toBe(409);
    // a technician cannot change the settings
    expect((await call('POST', '/api/instance/servicereport/delete', tok.tech, { id: ids.installTpl })).status).toBe(
      403,
    );
  });
});

describe('[service reports] a report through its life', () => {
  it('fills a door inspection per door, signs, locks, reopens with the permission only', async () => {
    const wo = await newOrder(ids.service, true);
    const tpl = await builtIn('powered_door');
    const force = fieldOf(tpl, 2, 'measure', /stängningskraft/i);
    const base = { workOrderId: wo, serviceReportId: tpl.id };

    // the order offers it with its two doors
    const panel = (await call('GET', `/api/wo/servicereport/${wo}`, tok.tech)).json<{
      templates: Template[];
      doors: { id: string }[];
      canFill: boolean;
      canReopen: boolean;
    }>();
    expect(panel.doors.map((d) => d.id)).toEqual([ids.door1, ids.door2]);
    expect(panel.templates.map((t) => t.id)).toContain(tpl.id);
    expect([panel.canFill, panel.canReopen]).toEqual([true, false]);

    // a per-door template needs one of the order's doors
    const noDoor = await call('PUT', '/api/wo/servicereport', tok.tech, { ...base, page: 2, data: {} });
    expect(noDoor.status).toBe(400);
    expect(noDoor.json<{ fields: object }>().fields).toEqual({ doorautomaticId: ['ERROR_REQUIRED_FIELD'] });

    // page by page: page 3 then page 1, each save leaves the other page alone
    const p3 = await call('PUT', '/api/wo/servicereport', tok.tech, {
      ...base,
      doorautomaticId: ids.door1,
      page: tpl.pages[2]!.id,
      data: { [force.id]: '162,5' },
    });
    expect(p3.status, p3.text).toBe(200);
    expect(p3.json<Report>().flagged).toEqual([`${tpl.pages[2]!.id}.${force.id}`]);
    const doorType = fieldOf(tpl, 0, 'choice', /Dörrtyp/);
    const mode = fieldOf(tpl, 0, 'choice', /Driftläge/);
    const p1 = await call('PUT', '/api/wo/servicereport', tok.tech, {
      ...base,
      doorautomaticId: ids.door1,
      page: 0,
      data: { [doorType.id]: 'Skjutdörr', [mode.id]: 'Full energi' },
    });
    expect(p1.status, p1.text).toBe(200);
    const r1 = p1.json<Report>();
    expect(r1.data[tpl.pages[2]!.id]).toEqual({ [force.id]: 162.5 });
    expect(r1.data[tpl.pages[0]!.id]).toEqual({ [doorType.id]: 'Skjutdörr', [mode.id]: 'Full energi' });

    // a bad value is refused, naming its field
    const bad = await call('PUT', '/api/wo/servicereport', tok.tech, {
      ...base,
      doorautomaticId: ids.door1,
      page: 0,
      data: { [doorType.id]: 'Hissdörr' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json<{ fields: object }>().fields).toEqual({ [`data.${doorType.id}`]: ['ERROR_INVALID_VALUE'] });

    // signing with required fields left empty names them; nothing is signed
    const early = await call('POST', '/api/wo/servicereport', tok.tech, {
      ...base,
      doorautomaticId: ids.door1,
      signature: { name: 'Kim Kund' },
    });
    expect(early.status).toBe(400);
    const missing = Object.keys(early.json<{ fields: object }>().fields);
    expect(missing.length).toBeGreaterThan(0);
    expect(missing.every((k) => k.startsWith('pages.'))).toBe(true);

    // fill every required field, answering yes; then sign
    const filled: Record<string, unknown>[] = [];
    for (const [i, page] of tpl.pages.entries()) {
      const data: Record<string, unknown> = {};
      for (const f of page.fields.filter((x) => x.required)) {
        if (f.kind === 'yesno') data[f.id] = 'yes';
        else if (f.kind === 'measure') data[f.id] = f.id === force.id ? 162.5 : (f.max ?? f.min ?? 0);
        else if (f.kind === 'choice') data[f.id] = i === 0 && f.id === doorType.id ? 'Skjutdörr' : 'Full energi';
      }
      const res = await call('PUT', '/api/wo/servicereport', tok.tech, {
        ...base,
        doorautomaticId: ids.door1,
        page: i,
        data,
      });
      expect(res.status, res.text).toBe(200);
      filled.push(data);
    }
    const image = `data:image/png;base64,${Buffer.from('png').toString('base64')}`;
    const signed = await call('POST', '/api/wo/servicereport', tok.tech, {
      ...base,
      doorautomaticId: ids.door1,
      emailTargets: ['Kund@Example.se'],
      signature: { name: 'Kim Kund', image },
    });
    expect(signed.status, signed.text).toBe(200);
    const s = signed.json<Report & { emailTargets: string[]; signature: string }>();
    expect([s.signedName, s.technicianName, s.signature, s.emailTargets]).toEqual([
      'Kim Kund',
      expect.any(String),
      image,
      ['kund@example.se'],
    ]);
    expect(s.signedAt).not.toBeNull();

    // locked: saving or signing again is refused
    const locked = await call('PUT', '/api/wo/servicereport', tok.tech, {
      ...base,
      doorautomaticId: ids.door1,
      page: 0,
      data: {},
    });
    expect([locked.status, locked.json<{ code: string }>().code]).toEqual([409, 'SERVICE_REPORT_SIGNED']);

    // generate: the PDF is kept on the order, printed with the signer and the marked value, and mailed through the outbox
    const payloads: { to: string[]; subject: string; document: { template: string; filename: string } }[] = [];
    setOutboxQueue({ enqueue: async (_def: unknown, data: unknown) => void payloads.push(data as never) } as never);
    let generated: { fileId: string; fileName: string; emailedTo: string[] };
    try {
      const gen = await call('POST', `/api/wo/${wo}/servicereport/${s.id}/generate?email=true`, tok.tech, {});
      expect(gen.status, gen.text).toBe(200);
      generated = gen.json();
      await afterCommitSettled();
    } finally {
      setOutboxQueue(null);
    }
    expect(generated.emailedTo).toEqual(['kund@example.se']);
    expect(payloads.map((p) => [p.to, p.document.template, p.document.filename])).toEqual([
      [['kund@example.se'], 'service-report', generated.fileName],
    ]);
    const pdf = await getBinary(srv.url, `/api/file/${generated.fileId}?download=1`, a.host, tok.tech);
    expect(pdf.status, pdf.body.toString()).toBe(200);
    const text = await pdfText(pdf.body);
    expect(text).toContain('Kim Kund');
    expect(text).toContain('162,5 N');
    expect(text).toMatch(/Utanför\s+≤\s*150 N/);
    const listed = (
      await call('GET', `/api/wo/servicereport/${wo}?serviceReportId=${tpl.id}&doorautomaticId=${ids.door1}`, tok.tech)
    ).json<{
      reports: (Report & { fileId: string })[];
    }>();
    expect(listed.reports[0]!.fileId).toBe(generated.fileId);
    // the Word export of the same report
    const word = await getBinary(srv.url, `/api/wo/${wo}/servicereport/${s.id}/word`, a.host, tok.tech);
    expect([word.status, word.headers['content-type']]).toEqual([
      200,
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ]);
    // an unsigned report is not printed
    const draft = await call('PUT', '/api/wo/servicereport', tok.tech, {
      ...base,
      doorautomaticId: ids.door2,
      page: 0,
      data: {},
    });
    const unsigned = await call(
      'POST',
      `/api/wo/${wo}/servicereport/${draft.json<Report>().id}/generate`,
      tok.tech,
      {},
    );
    expect([unsigned.status, unsigned.json<{ code: string }>().code]).toEqual([409, 'SERVICE_REPORT_NOT_SIGNED']);
    // another tenant cannot print it
    expect((await call('POST', `/api/wo/${wo}/servicereport/${s.id}/generate`, tok.adminB, {}, b.host)).status).toBe(
      404,
    );

    // the second door's report is its own
    const door2 = await call('PUT', '/api/wo/servicereport', tok.tech, {
      ...base,
      doorautomaticId: ids.door2,
      page: 2,
      data: { [force.id]: 90 },
    });
    expect(door2.status, door2.text).toBe(200);
    expect(door2.json<Report>().flagged).toEqual([]);

    // reopening needs workorders:reopen_servicereport
    const reopen = { ...base, doorautomaticId: ids.door1 };
    expect((await call('POST', '/api/wo/servicereport/reopen', tok.tech, reopen)).status).toBe(403);
    const reopened = await call('POST', '/api/wo/servicereport/reopen', tok.admin, reopen);
    expect(reopened.status, reopened.text).toBe(200);
    expect([reopened.json<Report>().version, reopened.json<Report>().signedAt]).toEqual([2, null]);
    const again = await call('POST', '/api/wo/servicereport/reopen', tok.admin, reopen);
    expect([again.status, again.json<{ code: string }>().code]).toEqual([409, 'SERVICE_REPORT_NOT_SIGNED']);
    // the signed version is kept, and the values stay on the reopened one
    const versions = await withTenant(tenantA, (trx) =>
      trx('service_report_versions').where({ report_id: s.id }).select('version', 'signed_name', 'data'),
    );
    expect(versions.map((v) => [v.version, v.signed_name])).toEqual([[1, 'Kim Kund']]);
    expect(versions[0].data).toEqual(reopened.json<Report>().data);
    // a page is saved whole: the page's other answers are sent with the corrected force
    const edit = await call('PUT', '/api/wo/servicereport', tok.tech, {
      ...reopen,
      page: 2,
      data: { ...filled[2], [force.id]: 140 },
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.json<Report>().flagged).toEqual([]);
    const resigned = await call('POST', '/api/wo/servicereport', tok.tech, {
      ...reopen,
      signature: { name: 'Kim Kund' },
    });
    expect(resigned.status, resigned.text).toBe(200);
    expect(resigned.json<Report>().version).toBe(2);

    // narrowed reads: one template, one door, one page
    const one = (
      await call(
        'GET',
        `/api/wo/servicereport/${wo}?serviceReportId=${tpl.id}&doorautomaticId=${ids.door2}&page=2`,
        tok.tech,
      )
    ).json<{ reports: Report[] }>();
    expect(one.reports).toHaveLength(1);
    expect(one.reports[0]!.data).toEqual({ [tpl.pages[2]!.id]: { [force.id]: 90 } });

    // "same as last time" on the next order at the object finds the signed report of this door
    const next = await newOrder(ids.service, true);
    const last = await call(
      'GET',
      `/api/wo/servicereport/${next}/last?serviceReportId=${tpl.id}&doorautomaticId=${ids.door1}&businessObjectId=${ids.object}`,
      tok.tech,
    );
    expect(last.status, last.text).toBe(200);
    expect(last.json<{ report: Report }>().report.data[tpl.pages[2]!.id]).toMatchObject({ [force.id]: 140 });
    const none = await call(
      'GET',
      `/api/wo/servicereport/${next}/last?serviceReportId=${tpl.id}&doorautomaticId=${ids.door2}`,
      tok.tech,
    );
    expect(none.json<{ report: Report | null }>().report).toBeNull();

    // a template in use is not deleted: deactivated instead, and then no longer offered
    const del = await call('POST', '/api/instance/servicereport/delete', tok.admin, { id: tpl.id, type: 'delete' });
    expect([del.status, del.json<{ code: string }>().code]).toEqual([409, 'SERVICE_REPORT_TEMPLATE_IN_USE']);
    const off = await call('POST', '/api/instance/servicereport/delete', tok.admin, { id: tpl.id, type: 'deactivate' });
    expect(off.json()).toEqual({ id: tpl.id, deleted: false, active: false });
    const offered = (await call('GET', `/api/wo/servicereport?workType=${ids.service}`, tok.tech)).json<Template[]>();
    expect(offered.map((t) => t.id)).not.toContain(tpl.id);
    // the order that has it still shows it
    const still = (await call('GET', `/api/wo/servicereport/${wo}`, tok.tech)).json<{ templates: Template[] }>();
    expect(still.templates.map((t) => t.id)).toContain(tpl.id);
    await call('POST', '/api/instance/servicereport/delete', tok.admin, { id: tpl.id, type: 'activate' });
  });

  it('a template of another work type is refused; an unused one is deleted', async () => {
    const wo = await newOrder(ids.service);
    const res = await call('PUT', '/api/wo/servicereport', tok.tech, {
      workOrderId: wo,
      serviceReportId: ids.installTpl,
      page: 0,
      data: {},
    });
    expect(res.status).toBe(400);
    expect(res.json<{ fields: object }>().fields).toEqual({ serviceReportId: ['ERROR_SERVICE_REPORT_NOT_FOR_ORDER'] });
    const del = await call('POST', '/api/instance/servicereport/delete', tok.admin, { id: ids.installTpl });
    expect(del.json()).toEqual({ id: ids.installTpl, deleted: true, active: false });
  });

  it("another tenant's ids answer as not found", async () => {
    const wo = await newOrder(ids.service);
    const general = await builtIn('general');
    const saved = await call('PUT', '/api/wo/servicereport', tok.tech, {
      workOrderId: wo,
      serviceReportId: general.id,
      page: 0,
      data: { [general.pages[0]!.fields[1]!.id]: 'Bytt batteri' },
    });
    expect(saved.status, saved.text).toBe(200);
    const B = (m: string, p: string, body?: unknown) => call(m, p, tok.adminB, body, b.host);
    expect((await B('GET', `/api/wo/servicereport/${wo}`)).status).toBe(404);
    expect((await B('GET', `/api/wo/servicereport/${wo}/last?serviceReportId=${general.id}`)).status).toBe(404);
    expect(
      (await B('PUT', '/api/wo/servicereport', { workOrderId: wo, serviceReportId: general.id, page: 0, data: {} }))
        .status,
    ).toBe(404);
    expect(
      (await B('POST', '/api/wo/servicereport/reopen', { workOrderId: wo, serviceReportId: general.id })).status,
    ).toBe(404);
    expect((await B('POST', '/api/instance/servicereport/delete', { id: general.id })).status).toBe(404);
    expect(
      (
        await B('PUT', '/api/instance/servicereport', {
          id: general.id,
          title: 'X1',
          onDemand: true,
          pages: general.pages,
        })
      ).status,
    ).toBe(404);
  });
});

describe('[service reports] on the object', () => {
  it('its service log lists the reports, newest first, with the PDF; the next inspection follows the agreement', async () => {
    const reader = { tenant: tenantA, auth: testAuth(ids.tech!, ['bo:read'], ['servicereports']), lang: 'sv' as const };
    const listed = await inTenant(reader, (ctx) => reportsOfObject(ctx, ids.object!));
    const signed = listed.filter((r) => r.signedAt);
    expect(signed.length).toBeGreaterThan(0);
    expect(listed.map((r) => r.signedAt ?? r.updatedAt)).toEqual(
      [...listed.map((r) => r.signedAt ?? r.updatedAt)].sort().reverse(),
    );
    // a reopened and signed-again report has no PDF until it is printed again; then the log links it
    const latest = signed[0]!;
    expect(latest.fileId).toBeNull();
    const gen = await call('POST', `/api/wo/${latest.workOrderId}/servicereport/${latest.id}/generate`, tok.tech, {});
    expect(gen.status, gen.text).toBe(200);
    const again = await inTenant(reader, (ctx) => reportsOfObject(ctx, ids.object!));
    expect(again.find((r) => r.id === latest.id)!.fileId).toBe(gen.json<{ fileId: string }>().fileId);

    // no agreement: nothing is due; an agreement every 12 months: a year after the last signing
    expect(await inTenant(reader, (ctx) => nextInspectionOf(ctx, ids.object!))).toBeNull();
    await withTenant(tenantA, async (trx) => {
      const [agreement] = await trx('agreements')
        .insert({ code: 'DA-12', title: 'Dörrservice', wo_interval: 'year_1' })
        .returning('id');
      await trx('object_agreements').insert({
        business_object_id: ids.object,
        agreement_id: agreement.id,
        valid_from: '2026-01-01',
      });
    });
    const next = await inTenant(reader, (ctx) => nextInspectionOf(ctx, ids.object!));
    expect(next).toMatchObject({ intervalMonths: 12, agreement: 'Dörrservice', overdue: false });
    const [y, m, d] = next!.lastSigned!.split('-');
    expect(next!.due).toBe(`${Number(y) + 1}-${m}-${d}`);
    // without the module the object shows none of it
    const without = { ...reader, auth: testAuth(ids.tech!, ['bo:read'], []) };
    await expect(inTenant(without, (ctx) => reportsOfObject(ctx, ids.object!))).rejects.toMatchObject({ status: 403 });
  });
});

describe('[service reports] publishing to the customer zone when the tenant says so', () => {
  /** A general report filled and signed on a new order (with the shared customer, or none). */
  async function signedReport(withCustomer = true): Promise<{ wo: string; reportId: string }> {
    let wo: string;
    if (withCustomer) wo = await newOrder(ids.service);
    else {
      const res = await call('POST', '/api/wo', tok.admin, {
        workOrder: { title: 'Utan kund', workTypeId: ids.service, assignees: [ids.tech] },
      });
      expect(res.status, res.text).toBe(200);
      wo = res.json<{ workOrder: { id: string } }>().workOrder.id;
    }
    const tpl = await builtIn('general');
    const base = { workOrderId: wo, serviceReportId: tpl.id };
    const done = fieldOf(tpl, 0, 'longtext', /^Utfört arbete/);
    const status = fieldOf(tpl, 1, 'choice');
    for (const [page, data] of [
      [0, { [done.id]: 'Bytt batteri' }],
      [1, { [status.id]: 'I drift utan anmärkning' }],
    ] as const) {
      const res = await call('PUT', '/api/wo/servicereport', tok.tech, { ...base, page, data });
      expect(res.status, res.text).toBe(200);
    }
    const signed = await call('POST', '/api/wo/servicereport', tok.tech, { ...base, signature: { name: 'Kim Kund' } });
    expect(signed.status, signed.text).toBe(200);
    return { wo, reportId: signed.json<Report>().id };
  }
  async function generate(wo: string, reportId: string) {
    const res = await call('POST', `/api/wo/${wo}/servicereport/${reportId}/generate`, tok.tech, {});
    expect(res.status, res.text).toBe(200);
    await afterCommitSettled();
    return res.json<{ fileId: string; published: boolean }>();
  }
  const fileRow = (id: string) =>
    withTenant(tenantA, (trx) =>
      trx('files').where({ id }).first('published_at', 'published_customer_id', 'published_by', 'owner_id'),
    );
  const publishedTo = async (customerId: string) =>
    (await call('GET', `/api/file/published/${customerId}`, tok.admin)).json<{ files: { id: string }[] }>().files;
  const setting = (on: boolean, token = tok.admin) =>
    call('PUT', '/api/instance/servicereport/settings', token, { publishToCustomerZone: on });

  it('off by default: the PDF stays on the order, unpublished', async () => {
    const settings = await call('GET', '/api/instance/servicereport/settings', tok.admin);
    expect(settings.json()).toEqual({ publishToCustomerZone: false, customerZoneOn: true });
    const { wo, reportId } = await signedReport();
    const gen = await generate(wo, reportId);
    expect(gen.published).toBe(false);
    expect(await fileRow(gen.fileId)).toMatchObject({ owner_id: wo, published_at: null, published_customer_id: null });
    expect((await publishedTo(ids.customer!)).map((f) => f.id)).not.toContain(gen.fileId);
  });

  it("on: generate publishes the PDF to the order's customer, as publishing by hand does", async () => {
    // the setting is the settings' (instance:edit), not a technician's
    expect((await setting(true, tok.tech)).status).toBe(403);
    const saved = await setting(true);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json()).toEqual({ publishToCustomerZone: true, customerZoneOn: true });

    const { wo, reportId } = await signedReport();
    const gen = await generate(wo, reportId);
    expect(gen.published).toBe(true);
    const row = await fileRow(gen.fileId);
    expect(row).toMatchObject({ published_customer_id: ids.customer, published_by: ids.tech });
    expect(row.published_at).not.toBeNull();
    expect((await publishedTo(ids.customer!)).map((f) => f.id)).toContain(gen.fileId);
    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity_id: wo, action: 'servicereport.generate' }).first('data'),
    );
    expect(history.data.publishedTo).toBe(ids.customer);

    // the same file published by hand lands in the same place; unpublished by hand it leaves the zone
    const off = await call('POST', `/api/file/drive/${gen.fileId}/unpublish`, tok.admin, {});
    expect(off.status, off.text).toBe(200);
    expect((await publishedTo(ids.customer!)).map((f) => f.id)).not.toContain(gen.fileId);
    const byHand = await call('POST', `/api/file/drive/${gen.fileId}/publish`, tok.admin, {});
    expect(byHand.status, byHand.text).toBe(200);
    expect((await fileRow(gen.fileId)).published_customer_id).toBe(row.published_customer_id);
  });

  it('on, but an order without a customer or the customer zone off: nothing is published', async () => {
    // by hand such a file is refused (FILE_NO_CUSTOMER); generating still keeps the PDF on the order
    const lone = await signedReport(false);
    const gen = await generate(lone.wo, lone.reportId);
    expect(gen.published).toBe(false);
    expect((await fileRow(gen.fileId)).published_at).toBeNull();
    const byHand = await call('POST', `/api/file/drive/${gen.fileId}/publish`, tok.admin, {});
    expect([byHand.status, byHand.json<{ code: string }>().code]).toEqual([400, 'FILE_NO_CUSTOMER']);

    const { wo, reportId } = await signedReport();
    await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'customerzone' }).update({ enabled: false }));
    try {
      const settings = await call('GET', '/api/instance/servicereport/settings', tok.admin);
      expect(settings.json()).toEqual({ publishToCustomerZone: true, customerZoneOn: false });
      const zoneOff = await generate(wo, reportId);
      expect(zoneOff.published).toBe(false);
      expect((await fileRow(zoneOff.fileId)).published_at).toBeNull();
    } finally {
      await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'customerzone' }).update({ enabled: true }));
      await setting(false);
    }
  });
});
