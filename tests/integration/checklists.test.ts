import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import {
  action as checklistsAction,
  loader as checklistsLoader,
  type ChecklistsActionResult,
  type ChecklistsLoaderResult,
} from '~/app/routes/work-orders.$id.checklists';
import { validateSession } from '~/core/auth/session.service';
import { sessionPolicy } from '~/core/unit-of-work';
import { withTenant } from '~/core/db/with-tenant';
import type { Permission } from '~/core/permissions/permissions';
import type { Tenant } from '~/core/tenancy/tenant';
import { inTenant } from '~/core/unit-of-work';
import { ensureUser } from '~/core/users/create-user';
import { buildWorkOrderDocumentModel, workOrderHtml } from '~/core/work-orders/documents.service';
import { getTenantBySlug } from '~/tenants/registry';
import { workOrderToDocx } from '~/core/documents/docx';
import { unzipEntry } from '~/tests/helpers/zip';
import { createTestTenant, PASSWORD, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';
import { testAuth } from '~/tests/helpers/auth';

let srv: TestServer;
let a: TestTenant;
let b: TestTenant;
let tenantA: Tenant;
let tenantB: Tenant;
const tok = {} as Record<'admin' | 'tech' | 'reader' | 'adminB', string>;
const ids: Record<string, string> = {};

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

interface Item {
  id: string;
  label: string;
  type: 'check' | 'text' | 'number';
  required: boolean;
}
interface Template {
  id: string;
  title: string;
  workTypeIds: string[];
  items: Item[];
}
interface OrderChecklists {
  workOrderId: string;
  checklists: (Omit<Template, 'workTypeIds'> & {
    values: Record<string, unknown>;
    updatedAt: string | null;
    updatedByName: string | null;
  })[];
  canFill: boolean;
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('chk-a');
  b = await createTestTenant('chk-b');
  tenantA = (await getTenantBySlug(a.slug))!;
  tenantB = (await getTenantBySlug(b.slug))!;
  await withTenant(tenantA, async (trx) => {
    await trx('access_levels').insert({
      display_name: 'Readers',
      permissions: ['workorders:read', 'workorders:edit', 'settings:read'],
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
    ids.admin = (await trx('users').where({ email: a.adminEmail }).first('id')).id;
    ids.tech = (await trx('users').where({ email: a.technicianEmail }).first('id')).id;
    ids.service = (await trx('work_types').where({ name: 'Service' }).first('id')).id;
    ids.installation = (await trx('work_types').where({ name: 'Installation' }).first('id')).id;
  });
  await withTenant(tenantB, async (trx) => {
    ids.serviceB = (await trx('work_types').where({ name: 'Service' }).first('id')).id;
  });
  tok.admin = await signIn(a, a.adminEmail);
  tok.tech = await signIn(a, a.technicianEmail);
  tok.reader = await signIn(a, `reader@${a.slug}.se`);
  tok.adminB = await signIn(b, b.adminEmail);
});
afterAll(() => srv.close());

/** A new order of a work type, assigned to the technician. */
async function newOrder(workTypeId: string, title = 'Service larm'): Promise<string> {
  const res = await call('POST', '/api/wo', tok.admin, { workOrder: { title, workTypeId, assignees: [ids.tech] } });
  expect(res.status, res.text).toBe(200);
  return res.json<{ workOrder: { id: string } }>().workOrder.id;
}

async function createTemplate(body: Record<string, unknown>): Promise<Template> {
  const res = await call('POST', '/api/instance/checklist', tok.admin, body);
  expect(res.status, res.text).toBe(200);
  return res.json<Template>();
}

const SERVICE_ITEMS = [
  { label: 'Batteri kontrollerat', type: 'check', required: true },
  { label: 'Anmärkning', type: 'text' },
  { label: 'Spänning (V)', type: 'number', required: true },
];

describe('[checklists] templates in the settings', () => {
  it('creates, lists, edits (items keep their ids, in the new order) and lists by work type', async () => {
    const tpl = await createTemplate({ title: 'Service larm', workTypeIds: [ids.service], items: SERVICE_ITEMS });
    expect(tpl.title).toBe('Service larm');
    expect(tpl.workTypeIds).toEqual([ids.service]);
    expect(tpl.items.map((i) => [i.label, i.type, i.required])).toEqual([
      ['Batteri kontrollerat', 'check', true],
      ['Anmärkning', 'text', false],
      ['Spänning (V)', 'number', true],
    ]);
    for (const item of tpl.items) expect(item.id).toMatch(/^[0-9a-f-]{36}$/);

    const [check, text, num] = tpl.items;
    const put = await call('PUT', '/api/instance/checklist', tok.admin, {
      id: tpl.id,
      title: 'Service larm ',
      workTypeIds: [ids.service, ids.installation],
      items: [{ ...num, label: 'Spänning' }, check, text, { label: 'Sabotagekontakt', type: 'check', required: false }],
    });
    expect(put.status, put.text).toBe(200);
    const edited = put.json<Template>();
    expect(edited.items.map((i) => i.label)).toEqual([
      'Spänning',
      'Batteri kontrollerat',
      'Anmärkning',
      'Sabotagekontakt',
    ]);
    expect(edited.items.slice(0, 3).map((i) => i.id)).toEqual([num!.id, check!.id, text!.id]);
    expect(edited.workTypeIds).toEqual([ids.service, ids.installation]);

    const list = await call('GET', '/api/instance/checklist', tok.reader);
    expect(list.status).toBe(200);
    const settings = list.json<{ checklists: Template[]; workTypes: { id: string; name: string }[] }>();
    expect(settings.checklists.map((c) => c.title)).toContain('Service larm');
    expect(settings.workTypes.map((t) => t.name)).toEqual(['Service', 'Installation']);

    const other = await createTemplate({
      title: 'Installation dörr',
      workTypeIds: [ids.installation],
      items: [{ label: 'Dörren stänger', type: 'check' }],
    });
    const byType = await call('GET', `/api/wo/checklist?workType=${ids.service}`, tok.tech);
    expect(byType.status, byType.text).toBe(200);
    expect(byType.json<Template[]>().map((c) => c.id)).toEqual([tpl.id]);
    const byInstallation = await call('GET', `/api/wo/checklist?workType=${ids.installation}`, tok.tech);
    expect(byInstallation.json<Template[]>().map((c) => c.title)).toEqual(['Installation dörr', 'Service larm']);
    expect((await call('GET', '/api/wo/checklist?workType=nope', tok.tech)).status).toBe(400);
    ids.doorTemplate = other.id;
  });

  it('validates the title, work types and items (400), and titles are unique regardless of case (409)', async () => {
    const bad = await call('POST', '/api/instance/checklist', tok.admin, {
      title: 'X',
      workTypeIds: [],
      items: [{ label: '', type: 'photo' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({
      code: 'VALIDATION_FAILED',
      fields: {
        title: ['ERROR_MIN_LENGTH_2'],
        workTypeIds: ['ERROR_AT_LEAST_ONE_WORK_TYPE'],
        'items.0.label': ['ERROR_REQUIRED_FIELD'],
        'items.0.type': ['ERROR_INVALID_VALUE'],
      },
    });
    const noItems = await call('POST', '/api/instance/checklist', tok.admin, {
      title: 'Tom',
      workTypeIds: [ids.service],
      items: [],
    });
    expect(noItems.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { items: ['ERROR_AT_LEAST_ONE_ITEM'] } });
    // a work type of another tenant is no work type here
    const foreign = await call('POST', '/api/instance/checklist', tok.admin, {
      title: 'Främmande',
      workTypeIds: [ids.serviceB],
      items: SERVICE_ITEMS,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.json()).toEqual({ code: 'VALIDATION_FAILED', fields: { workTypeIds: ['ERROR_INVALID_VALUE'] } });
    const dup = await call('POST', '/api/instance/checklist', tok.admin, {
      title: 'SERVICE LARM',
      workTypeIds: [ids.service],
      items: SERVICE_ITEMS,
    });
    expect(dup.status).toBe(409);
    expect(dup.json().code).toBe('ERROR_DUPLICATE_NAME');
  });

  it('an item id that is not the template’s is refused; PUT needs an existing id (404 for another tenant’s)', async () => {
    const res = await call('PUT', '/api/instance/checklist', tok.admin, {
      id: ids.doorTemplate,
      title: 'Installation dörr',
      workTypeIds: [ids.installation],
      items: [{ id: '00000000-0000-4000-8000-000000000000', label: 'Ny', type: 'check' }],
    });
    expect(res.status).toBe(400);
    expect(res.json().fields).toEqual({ 'items.0.id': ['ERROR_INVALID_VALUE'] });
    const foreign = await call(
      'PUT',
      '/api/instance/checklist',
      tok.adminB,
      { id: ids.doorTemplate, title: 'Kapad', workTypeIds: [ids.serviceB], items: SERVICE_ITEMS },
      b.host,
    );
    expect(foreign.status).toBe(404);
    expect(
      (await call('DELETE', `/api/instance/checklist/${ids.doorTemplate}`, tok.adminB, undefined, b.host)).status,
    ).toBe(404);
    expect((await call('DELETE', '/api/instance/checklist/not-a-uuid', tok.admin)).status).toBe(404);
  });

  it('a work type a template applies to is in use in the work-order settings until the template lets go', async () => {
    type Wt = { id: string | null; name: string; isDefault: boolean };
    const current = (await call('GET', '/api/instance/wo', tok.admin)).json<{ workTypes: Wt[] }>().workTypes;
    const keep = current.map(({ id, name, isDefault }) => ({ id, name, isDefault }));
    const added = await call('PATCH', '/api/instance/wo', tok.admin, {
      workTypes: [...keep, { id: null, name: 'Besiktning', isDefault: false }],
    });
    expect(added.status, added.text).toBe(200);
    const inspection = added.json<{ workTypes: Wt[] }>().workTypes.find((w) => w.name === 'Besiktning')!.id!;
    const tpl = await createTemplate({
      title: 'Besiktningsprotokoll',
      workTypeIds: [inspection],
      items: [{ label: 'Godkänd', type: 'check' }],
    });
    const refused = await call('PATCH', '/api/instance/wo', tok.admin, { workTypes: keep });
    expect(refused.status).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'IN_USE', usedBy: { checklistWorkTypes: 1 } });
    expect((await call('DELETE', `/api/instance/checklist/${tpl.id}`, tok.admin)).status).toBe(200);
    expect((await call('PATCH', '/api/instance/wo', tok.admin, { workTypes: keep })).status).toBe(200);
  });

  it('reading needs settings:read, changing instance:edit, and both the checklists module', async () => {
    expect((await call('GET', '/api/instance/checklist', tok.tech)).status).toBe(403);
    expect(
      (
        await call('POST', '/api/instance/checklist', tok.reader, {
          title: 'Nej',
          workTypeIds: [ids.service],
          items: SERVICE_ITEMS,
        })
      ).status,
    ).toBe(403);
    expect((await call('DELETE', `/api/instance/checklist/${ids.doorTemplate}`, tok.tech)).status).toBe(403);
    expect((await call('GET', '/api/instance/checklist')).status).toBe(401);
    await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'checklists' }).update({ enabled: false }));
    try {
      const res = await call('GET', '/api/instance/checklist', tok.reader);
      expect(res.status).toBe(403);
      expect(res.json()).toEqual({ code: 'WARNING_PERMISSION_DENIED' });
      expect((await call('GET', `/api/wo/checklist?workType=${ids.service}`, tok.tech)).status).toBe(403);
    } finally {
      await withTenant(tenantA, (trx) => trx('app_modules').where({ id: 'checklists' }).update({ enabled: true }));
    }
  });
});

describe('[checklists] filled in on a work order', () => {
  let tpl: Template;
  let wo: string;
  const itemId = (label: string) => tpl.items.find((i) => i.label === label)!.id;

  beforeAll(async () => {
    tpl = await createTemplate({
      title: 'Årlig kontroll',
      workTypeIds: [ids.service],
      items: [
        { label: 'Centralen testad', type: 'check', required: true },
        { label: 'Sirenen testad', type: 'check' },
        { label: 'Spänning', type: 'number', required: true },
        { label: 'Kommentar', type: 'text' },
      ],
    });
    wo = await newOrder(ids.service);
  });

  it("shows the work type's templates unfilled, then saves values keyed by item id and answers them", async () => {
    const before = await call('GET', `/api/wo/checklist/${wo}`, tok.tech);
    expect(before.status, before.text).toBe(200);
    const data = before.json<OrderChecklists>();
    expect(data.canFill).toBe(true);
    const annual = data.checklists.find((c) => c.id === tpl.id)!;
    expect(annual).toMatchObject({ values: {}, updatedAt: null, updatedByName: null });
    expect(data.checklists.map((c) => c.title)).not.toContain('Installation dörr');

    // required items may stay empty while filling; a number may come as text with a decimal comma
    const res = await call('PUT', '/api/wo/checklist', tok.tech, {
      workOrderId: wo,
      checklistId: tpl.id,
      values: { [itemId('Centralen testad')]: true, [itemId('Spänning')]: '12,5', [itemId('Kommentar')]: '  Ok  ' },
    });
    expect(res.status, res.text).toBe(200);
    const saved = res.json<OrderChecklists>().checklists.find((c) => c.id === tpl.id)!;
    expect(saved.values).toEqual({
      [itemId('Centralen testad')]: true,
      [itemId('Spänning')]: 12.5,
      [itemId('Kommentar')]: 'Ok',
    });
    expect(saved.updatedByName).toBe('Tess Tekniker');

    const one = await call('GET', `/api/wo/checklist/${wo}?checklistId=${tpl.id}`, tok.reader);
    expect(one.status).toBe(200);
    expect(one.json<OrderChecklists>().checklists).toHaveLength(1);
    expect(one.json<OrderChecklists>().checklists[0]!.values[itemId('Spänning')]).toBe(12.5);
    expect(one.json<OrderChecklists>().canFill).toBe(false); // the reader cannot report

    // saving again replaces: an emptied value is gone, an unticked check reads as false
    const again = await call('PUT', '/api/wo/checklist', tok.tech, {
      workOrderId: wo,
      checklistId: tpl.id,
      values: { [itemId('Centralen testad')]: false, [itemId('Spänning')]: 230, [itemId('Kommentar')]: '' },
    });
    expect(again.json<OrderChecklists>().checklists.find((c) => c.id === tpl.id)!.values).toEqual({
      [itemId('Centralen testad')]: false,
      [itemId('Spänning')]: 230,
    });
    const stored = await withTenant(tenantA, (trx) =>
      trx('work_order_checklists').where({ work_order_id: wo }).select('checklist_id', 'updated_by'),
    );
    expect(stored).toEqual([{ checklist_id: tpl.id, updated_by: ids.tech }]);
  });

  it('writes a history row on the order naming the changed items', async () => {
    const rows = await withTenant(tenantA, (trx) =>
      trx('history')
        .where({ entity: 'work_order', entity_id: wo, action: 'edit' })
        .orderBy('at')
        .select('data', 'user_id'),
    );
    const checklistRows = rows.filter((r) => (r.data as { checklistId?: string }).checklistId === tpl.id);
    expect(checklistRows).toHaveLength(2);
    expect(checklistRows[1]!.user_id).toBe(ids.tech);
    expect((checklistRows[1]!.data as { changes: unknown[] }).changes).toEqual([
      { field: 'Årlig kontroll: Centralen testad', old: true, new: false },
      { field: 'Årlig kontroll: Spänning', old: 12.5, new: 230 },
      { field: 'Årlig kontroll: Kommentar', old: 'Ok', new: null },
    ]);
  });

  it('refuses unknown items and values that do not suit their item (400), naming each', async () => {
    const res = await call('PUT', '/api/wo/checklist', tok.tech, {
      workOrderId: wo,
      checklistId: tpl.id,
      values: { nope: true, [itemId('Spänning')]: 'tolv', [itemId('Sirenen testad')]: 'kanske' },
    });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({
      code: 'VALIDATION_FAILED',
      fields: {
        'values.nope': ['ERROR_UNKNOWN_CHECKLIST_ITEM'],
        [`values.${itemId('Spänning')}`]: ['ERROR_NOT_A_NUMBER'],
        [`values.${itemId('Sirenen testad')}`]: ['ERROR_INVALID_VALUE'],
      },
    });
    const missing = await call('PUT', '/api/wo/checklist', tok.tech, { values: {} });
    expect(missing.status).toBe(400);
    expect(missing.json().fields).toEqual({
      workOrderId: ['ERROR_REQUIRED_FIELD'],
      checklistId: ['ERROR_REQUIRED_FIELD'],
    });
  });

  it("refuses a template of another work type (400), and unknown or another tenant's ids (404)", async () => {
    const wrongType = await call('PUT', '/api/wo/checklist', tok.tech, {
      workOrderId: wo,
      checklistId: ids.doorTemplate,
      values: {},
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json().fields).toEqual({ checklistId: ['ERROR_CHECKLIST_NOT_FOR_WORK_TYPE'] });
    const unknown = await call('PUT', '/api/wo/checklist', tok.tech, {
      workOrderId: wo,
      checklistId: '00000000-0000-4000-8000-000000000000',
      values: {},
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json().code).toBe('NOT_FOUND');
    const foreignOrder = await call(
      'PUT',
      '/api/wo/checklist',
      tok.adminB,
      { workOrderId: wo, checklistId: tpl.id, values: {} },
      b.host,
    );
    expect(foreignOrder.status).toBe(404);
    expect((await call('GET', `/api/wo/checklist/${wo}`, tok.adminB, undefined, b.host)).status).toBe(404);
    expect((await call('GET', `/api/wo/checklist/${wo}?checklistId=${ids.doorTemplate}`, tok.tech)).status).toBe(404);
    expect((await call('GET', '/api/wo/checklist/not-a-uuid', tok.tech)).status).toBe(404);
  });

  it('filling needs workorders:report (403) and an order in the user’s limit', async () => {
    const res = await call('PUT', '/api/wo/checklist', tok.reader, {
      workOrderId: wo,
      checklistId: tpl.id,
      values: {},
    });
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ code: 'WARNING_PERMISSION_DENIED' });
    // the technician sees only orders assigned to them
    const notMine = await call('POST', '/api/wo', tok.admin, {
      workOrder: { title: 'Annans', workTypeId: ids.service, assignees: [ids.admin] },
    });
    const otherId = notMine.json<{ workOrder: { id: string } }>().workOrder.id;
    expect((await call('GET', `/api/wo/checklist/${otherId}`, tok.tech)).status).toBe(404);
    expect(
      (await call('PUT', '/api/wo/checklist', tok.tech, { workOrderId: otherId, checklistId: tpl.id, values: {} }))
        .status,
    ).toBe(404);
  });

  it('a locked order cannot be filled in (409 WORK_ORDER_LOCKED) and says so', async () => {
    const locked = await newOrder(ids.service, 'Låst order');
    expect((await call('POST', '/api/wo/lock', tok.admin, { workOrderId: locked })).status).toBe(200);
    const res = await call('PUT', '/api/wo/checklist', tok.tech, {
      workOrderId: locked,
      checklistId: tpl.id,
      values: {},
    });
    expect(res.status).toBe(409);
    expect(res.json().code).toBe('WORK_ORDER_LOCKED');
    expect((await call('GET', `/api/wo/checklist/${locked}`, tok.tech)).json<OrderChecklists>().canFill).toBe(false);
  });

  it('a closed order cannot be filled in (409 WORK_ORDER_CLOSED)', async () => {
    const closed = await newOrder(ids.service, 'Stängd order');
    await withTenant(tenantA, (trx) => trx('work_orders').where({ id: closed }).update({ closed_at: new Date() }));
    const res = await call('PUT', '/api/wo/checklist', tok.tech, {
      workOrderId: closed,
      checklistId: tpl.id,
      values: {},
    });
    expect(res.status).toBe(409);
    expect(res.json().code).toBe('WORK_ORDER_CLOSED');
  });

  it('a filled template cannot be deleted (409 CHECKLIST_IN_USE); an unfilled one can', async () => {
    const inUse = await call('DELETE', `/api/instance/checklist/${tpl.id}`, tok.admin);
    expect(inUse.status).toBe(409);
    expect(inUse.json()).toMatchObject({ code: 'CHECKLIST_IN_USE', usedBy: { workOrders: 1 } });
    const spare = await createTemplate({
      title: 'Reserv',
      workTypeIds: [ids.service],
      items: [{ label: 'A', type: 'check' }],
    });
    const del = await call('DELETE', `/api/instance/checklist/${spare.id}`, tok.admin);
    expect(del.status, del.text).toBe(200);
    const left = await call('GET', '/api/instance/checklist', tok.admin);
    expect(left.json<{ checklists: Template[] }>().checklists.map((c) => c.id)).not.toContain(spare.id);
    const history = await withTenant(tenantA, (trx) =>
      trx('history').where({ entity: 'checklist', entity_id: spare.id }).orderBy('at').select('action'),
    );
    expect(history.map((h) => h.action)).toEqual(['create', 'delete']);
  });

  it('a filled template that no longer applies to the order’s work type stays on the order', async () => {
    const res = await call('PUT', '/api/instance/checklist', tok.admin, {
      id: tpl.id,
      title: tpl.title,
      workTypeIds: [ids.installation],
      items: tpl.items,
    });
    expect(res.status, res.text).toBe(200);
    const data = (await call('GET', `/api/wo/checklist/${wo}`, tok.tech)).json<OrderChecklists>();
    expect(data.checklists.map((c) => c.id)).toContain(tpl.id);
    const fresh = await newOrder(ids.service, 'Ny order');
    const freshData = (await call('GET', `/api/wo/checklist/${fresh}`, tok.tech)).json<OrderChecklists>();
    expect(freshData.checklists.map((c) => c.id)).not.toContain(tpl.id);
    await call('PUT', '/api/instance/checklist', tok.admin, {
      id: tpl.id,
      title: tpl.title,
      workTypeIds: [ids.service],
      items: tpl.items,
    });
  });
});

const authOf = (userId: string, perms: Permission[]) => testAuth(userId, perms, ['checklists']);

describe('[checklists] on the work-order document', () => {
  it('prints each filled checklist with its items: ✓/✗ for checks, texts and numbers; unfilled templates are left out', async () => {
    const tpl = await createTemplate({
      title: 'Dokumentkontroll',
      workTypeIds: [ids.installation],
      items: [
        { label: 'Larmet provat', type: 'check' },
        { label: 'Dörren smord', type: 'check' },
        { label: 'Batterispänning', type: 'number' },
        { label: 'Notering <b>fet</b>', type: 'text' },
        { label: 'Ej ifylld', type: 'text' },
      ],
    });
    const wo = await newOrder(ids.installation, 'Installation med checklista');
    const v = (label: string) => tpl.items.find((i) => i.label === label)!.id;
    const res = await call('PUT', '/api/wo/checklist', tok.tech, {
      workOrderId: wo,
      checklistId: tpl.id,
      values: {
        [v('Larmet provat')]: true,
        [v('Dörren smord')]: false,
        [v('Batterispänning')]: 13.8,
        [v('Notering <b>fet</b>')]: 'Kund <nöjd>',
      },
    });
    expect(res.status, res.text).toBe(200);
    const model = await inTenant({ tenant: tenantA, auth: authOf(ids.admin, ['workorders:read']), lang: 'sv' }, (ctx) =>
      buildWorkOrderDocumentModel(ctx, wo),
    );
    // 'Installation dörr' applies to the work type but nobody filled it: not printed
    expect(model.checklists.map((c) => c.title)).toEqual(['Dokumentkontroll']);
    expect(model.checklists[0]!.items.map((i) => [i.label, i.checked, i.value])).toEqual([
      ['Larmet provat', true, null],
      ['Dörren smord', false, null],
      ['Batterispänning', false, '13.8'],
      ['Notering <b>fet</b>', false, 'Kund <nöjd>'],
      ['Ej ifylld', false, null],
    ]);
    const html = workOrderHtml(model);
    const section = html.slice(html.indexOf('<h2>Dokumentkontroll</h2>'));
    expect(section).toMatch(/<td>Larmet provat<\/td>\s*<td class="num">✓<\/td>/);
    expect(section).toMatch(/<td>Dörren smord<\/td>\s*<td class="num">✗<\/td>/);
    expect(section).toMatch(/<td>Batterispänning<\/td>\s*<td class="num">13,8<\/td>/);
    // what users typed stays text
    expect(section).toContain('Notering &lt;b&gt;fet&lt;/b&gt;');
    expect(section).toContain('Kund &lt;nöjd&gt;');
    expect(section).toMatch(/<td>Ej ifylld<\/td>\s*<td class="text">–<\/td>/);
    expect(html).not.toContain('Installation dörr');

    // the Word file is built from the same model
    const xml = unzipEntry(await workOrderToDocx(model), 'word/document.xml')!;
    for (const text of ['Dokumentkontroll', 'Larmet provat', '✓', '✗', '13,8', 'Kund &lt;nöjd&gt;'])
      expect(xml).toContain(text);
  });
});

describe('[checklists] the order screen route /work-orders/:id/checklists', () => {
  /** Runs the route's loader (GET) or action (POST form) as React Router would, after the i18n middleware. */
  async function runRoute(token: string, id: string, form?: Record<string, string>): Promise<unknown> {
    const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
    const context = new RouterContextProvider();
    context.set(tenantContext, tenantA);
    context.set(authContext, auth);
    context.set(requestContext, { ip: null, requestId: 'test', token });
    const url = `http://${a.host}/work-orders/${id}/checklists`;
    const body = form ? new FormData() : undefined;
    for (const [k, v] of Object.entries(form ?? {})) body!.append(k, v);
    const request = new Request(url, form ? { method: 'POST', body } : undefined);
    let answer: unknown;
    await i18nextMiddleware({ request, context, params: { id }, url: new URL(url), pattern: '' } as never, async () => {
      const args = { request, context, params: { id } } as never;
      answer = form ? await checklistsAction(args) : await checklistsLoader(args);
      return new Response(null);
    });
    return answer;
  }
  const body = <T>(answer: unknown) => answer as { data: T; init: { status?: number } | null };

  it('loads the templates of the order with their values, and saves one checklist', async () => {
    const tpl = await createTemplate({
      title: 'Rutt',
      workTypeIds: [ids.service],
      items: [
        { label: 'Skylt uppsatt', type: 'check' },
        { label: 'Mätvärde', type: 'number' },
      ],
    });
    const wo = await newOrder(ids.service, 'Routeorder');
    const loaded = body<ChecklistsLoaderResult>(await runRoute(tok.tech, wo)).data;
    expect('data' in loaded && loaded.data.checklists.map((c) => c.title)).toContain('Rutt');
    const [check, num] = tpl.items;
    const saved = body<ChecklistsActionResult>(
      await runRoute(tok.tech, wo, {
        checklistId: tpl.id,
        values: JSON.stringify({ [check!.id]: true, [num!.id]: '4,2' }),
      }),
    ).data;
    expect(saved.ok).toBe(true);
    expect(saved.ok && saved.data.checklists.find((c) => c.id === tpl.id)!.values).toEqual({
      [check!.id]: true,
      [num!.id]: 4.2,
    });
    const bad = body<ChecklistsActionResult>(
      await runRoute(tok.tech, wo, { checklistId: tpl.id, values: JSON.stringify({ [num!.id]: 'x' }) }),
    );
    expect(bad.init?.status).toBe(400);
    expect(bad.data).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { [`values.${num!.id}`]: ['ERROR_NOT_A_NUMBER'] },
    });
    const reader = body<ChecklistsActionResult>(await runRoute(tok.reader, wo, { checklistId: tpl.id, values: '{}' }));
    expect(reader.init?.status).toBe(403);
    const missing = body<ChecklistsLoaderResult>(await runRoute(tok.tech, '00000000-0000-4000-8000-000000000000'));
    expect(missing.init?.status).toBe(404);
    expect(missing.data).toEqual({ error: 'FAILED_TO_FETCH' });
  });
});
