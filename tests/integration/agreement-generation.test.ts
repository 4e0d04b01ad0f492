import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDue } from '~/core/agreements/agreement-runs';
import { withTenant } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import type { Tenant } from '~/core/tenancy/tenant';
import { getTenantBySlug } from '~/tenants/registry';
import { includedArticlesOf } from '~/core/agreements/object-agreement.service';
import type { Auth } from '~/core/context';
import { PERMISSIONS } from '~/core/permissions/permissions';
import { inTenant } from '~/core/unit-of-work';
import { insertAgreementType } from '~/tests/helpers/agreements';
import { testApi } from '~/tests/helpers/api';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';

/*
 * Generating agreement invoices and service work orders (issue 16 item 3), end to end on one
 * tenant: an agreement put on an object through the API, a run that catches up on the year's due
 * quarters and makes the year's service visit (work type, checklist, dispatch rule, history
 * agreement.create), the rows and period text on the invoice, a second run that makes nothing, the
 * double-invoicing warning, the spec's skipped cases, a customer set not to send to the ERP, and
 * making the next work order on demand.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let srv: TestServer;
let a: TestTenant;
let tenant: Tenant;
let admin: string;
let tech: string;
const ref = {} as Record<
  | 'customer'
  | 'quiet'
  | 'object'
  | 'inactive'
  | 'ended'
  | 'quietObject'
  | 'type'
  | 'priceArticle'
  | 'extra'
  | 'workType'
  | 'techId'
  | 'checklist',
  string
>;
const now = new Date('2026-11-25T09:00:00Z');

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

/** The tenant's admin as a service sees them (for core calls made without HTTP). */
const adminAuth = (): Auth => ({
  sessionId: 'test',
  user: {
    id: ref.techId,
    email: a.adminEmail,
    fullName: 'Admin',
    shortName: null,
    initials: 'AD',
    userType: 'normal',
    language: null,
    startPage: 'workorders',
  },
  perms: new Set(PERMISSIONS),
  modules: new Set(),
  limit: 'none',
  mustEnrollMfa: false,
});

beforeAll(async () => {
  srv = await startTestServer();
  await loadRegistry({
    fortnox: { clientId: 'x', clientSecret: 'y', authBaseUrl: 'http://127.0.0.1:9', apiBaseUrl: 'http://127.0.0.1:9' },
  });
  a = await createTestTenant('agr-gen');
  tenant = (await getTenantBySlug(a.slug))!;
  admin = await signIn(a, a.adminEmail);
  tech = await signIn(a, a.technicianEmail);
  await withTenant(tenant, async (trx) => {
    await trx.raw(
      `insert into app_modules (id, enabled) values ('dispatch_rules', true), ('checklists', true)
       on conflict (id) do update set enabled = true`,
    );
    const [c, q] = await trx('customers')
      .insert([
        { customer_id: '7001', name: 'Brf Linden', email: 'styrelsen@linden.se' },
        { customer_id: '7002', name: 'Tyst Kund AB', send_to_erp: false },
      ])
      .returning('id');
    ref.customer = c.id;
    ref.quiet = q.id;
    await trx('customer_addresses').insert({
      customer_id: c.id,
      street: 'Lindgatan 1',
      post_index: '753 20',
      city: 'Uppsala',
      is_primary: true,
    });
    const objects = await trx('business_objects')
      .insert([
        { serial_code: 'LARM-1', customer_id: c.id },
        { serial_code: 'LARM-2', customer_id: c.id, status: 'inactive' },
        { serial_code: 'LARM-3', customer_id: c.id },
        { serial_code: 'LARM-4', customer_id: q.id },
      ])
      .returning('id');
    [ref.object, ref.inactive, ref.ended, ref.quietObject] = objects.map((o: { id: string }) => o.id);
    const articles = await trx('articles')
      .insert([
        { article_id: 'AVT-SERV', title: 'Serviceavtal', price: '1000', unit: 'st' },
        { article_id: 'LARMC', title: 'Larmcentral', price: '150', unit: 'mån' },
      ])
      .returning('id');
    [ref.priceArticle, ref.extra] = articles.map((x: { id: string }) => x.id);
    const [wt] = await trx('work_types').insert({ name: 'Årsservice' }).returning('id');
    ref.workType = wt.id;
    const [cl] = await trx('checklists')
      .insert({ title: 'Årlig service', items: JSON.stringify([]) })
      .returning('id');
    ref.checklist = cl.id;
    await trx('checklist_work_types').insert({ checklist_id: cl.id, work_type_id: wt.id });
    const techRow = await trx('users').where({ email: a.technicianEmail }).first('id');
    ref.techId = techRow.id;
    await trx('dispatch_rules').insert(
      [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start_time: '00:00', end_time: '23:59', user_id: techRow.id })),
    );
    ref.type = await insertAgreementType(trx, {
      code: 'SERV-Q',
      title: 'Serviceavtal',
      invoiceInterval: 'quarter',
      invoiceDay: 0,
      woInterval: 'year_1',
      woDay: 15,
      priceModel: 'fixed',
      price: '1500',
      workTypeId: wt.id,
      priceArticleId: articles[0].id,
    });
  });
  for (const [object, extra] of [
    [ref.object, {}],
    [ref.inactive, {}],
    [ref.ended, { validTo: '2026-05-31' }],
    [ref.quietObject, {}],
  ] as const) {
    const put = await call('PUT', `/api/bo/${object}/agreement`, admin, {
      agreement: { agreementId: ref.type, validFrom: '2026-01-01', totalPrice: '1500', ...extra },
    });
    expect(put.status, put.text).toBe(200);
  }
});
afterAll(() => srv.close());

async function invoicesOf(objectId: string): Promise<Json[]> {
  return withTenant(tenant, (trx) =>
    trx('invoices as i')
      .join('object_agreements as oa', 'oa.id', 'i.object_agreement_id')
      .where('oa.business_object_id', objectId)
      .orderBy('i.period_from')
      .select('i.*', trx.raw('i.period_from::text as pf'), trx.raw('i.period_to::text as pt')),
  );
}

describe('[agreements] generation', () => {
  it('starts the next invoice and work order at the first period of the agreement', async () => {
    const got = (await call('GET', `/api/bo/${ref.object}/agreement`, admin)).json().agreement;
    expect(got).toMatchObject({
      invoiceScheduledTo: '2026-01-01',
      invoicePeriodFrom: '2026-01-01',
      woScheduledTo: '2026-01-01',
      totalPrice: '1500.00',
      nextInvoice: { from: '2026-01-01', to: '2026-03-31', generateOn: '2026-01-31' },
      nextWorkOrder: { from: '2026-01-01', to: '2026-12-31', generateOn: '2026-01-15' },
      warnings: [],
    });
    const row = await call('POST', `/api/bo/${ref.object}/agreement/invoice`, admin, {
      row: { articleId: ref.extra, amount: 3 },
    });
    expect(row.status, row.text).toBe(200);
    expect(row.json().row).toMatchObject({ title: 'Larmcentral', price: '150.00', amount: '3.000', total: '450.00' });
    // an article the agreement includes is priced with its discount on this object's work orders
    await withTenant(tenant, (trx) =>
      trx('agreement_articles').insert({
        agreement_id: ref.type,
        article_id: ref.extra,
        discount_type: 'PERCENTAGE',
        discount_value: '25',
      }),
    );
    const priced = await call('GET', `/api/articles/${ref.extra}?businessObjectId=${ref.object}`, admin);
    expect(priced.json()).toMatchObject({
      salesPrice: '150.00',
      priceType: 'AGREEMENT',
      discountType: 'PERCENTAGE',
      discountValue: '25.00',
    });
    const elsewhere = await call('GET', `/api/articles/${ref.extra}?customerId=${ref.customer}`, admin);
    expect(elsewhere.json()).toMatchObject({ priceType: 'ARTICLE_PRICE' });
    // the object's own discount for the article comes before its type's
    const current = (await call('GET', `/api/bo/${ref.object}/agreement`, admin)).json().agreement;
    const own = await call('PUT', `/api/bo/${ref.object}/agreement`, admin, {
      agreement: {
        agreementId: ref.type,
        validFrom: '2026-01-01',
        totalPrice: '1500',
        version: current.version,
        articles: [{ articleId: ref.extra, discountType: 'REGULAR', discountValue: '50' }],
      },
    });
    expect(own.status, own.text).toBe(200);
    expect(own.json().agreement.articles).toEqual([
      { articleId: ref.extra, discountType: 'REGULAR', discountValue: '50.00' },
    ]);
    const ownPrice = await call('GET', `/api/articles/${ref.extra}?businessObjectId=${ref.object}`, admin);
    expect(ownPrice.json()).toMatchObject({ priceType: 'AGREEMENT', discountType: 'REGULAR', discountValue: '50.00' });
    const views = await inTenant({ tenant, auth: adminAuth(), lang: 'sv' }, (ctx) =>
      includedArticlesOf(ctx, own.json().agreement),
    );
    expect(views.map((v) => [v.articleNumber, v.source, v.discountType, v.discountValue])).toEqual([
      ['LARMC', 'object', 'REGULAR', '50.00'],
    ]);
    const woRow = await call('POST', `/api/bo/${ref.object}/agreement/wo`, admin, {
      row: { articleId: ref.extra, amount: 1, price: 0 },
    });
    expect(woRow.status, woRow.text).toBe(200);
  });

  it('makes every due quarter once and the year’s service visit, then nothing on a second run', async () => {
    await withTenant(tenant, (trx) => trx('erp_connection').update({ kind: 'fortnox' }));
    const done = await generateDue(tenant, { now });
    // every quarter of 2026 is due: each is invoiced on the last day of its first month (Q4 on 31 October)
    const invoices = await invoicesOf(ref.object);
    expect(invoices.map((i) => [i.pf, i.pt])).toEqual([
      ['2026-01-01', '2026-03-31'],
      ['2026-04-01', '2026-06-30'],
      ['2026-07-01', '2026-09-30'],
      ['2026-10-01', '2026-12-31'],
    ]);
    expect(invoices.every((i) => i.status === 'finalized' && i.invoice_nr)).toBe(true);
    const q3 = invoices[2]!;
    expect(q3).toMatchObject({
      total_price: '1950.00',
      vat_total: '487.50',
      rounding: '0.50',
      total_price_vat: '2438.00',
    });
    const rows: Json[] = await withTenant(tenant, (trx) =>
      trx('invoice_rows').where({ invoice_id: q3.id }).orderBy('sort_order'),
    );
    expect(rows.map((r) => [r.kind, r.title, r.total])).toEqual([
      ['text', 'Period 2026-07-01 – 2026-09-30 (Q3 2026)', '0.00'],
      // the agreement's price is a fee on the invoice, not material (issue 28 item 4)
      ['agreement_fee', 'Serviceavtal – LARM-1', '1500.00'],
      ['article', 'Larmcentral', '450.00'],
    ]);
    expect(rows[1]!.article_id).toBe(ref.priceArticle);
    // the invoice screen shows it, with its history
    const shown = await call('GET', `/api/invoice/${q3.id}`, admin);
    expect(shown.status).toBe(200);
    // on its way to the ERP; the customer set not to send gets the invoice, a warning, no delivery
    const deliveries: Json[] = await withTenant(tenant, (trx) =>
      trx('erp_deliveries').whereIn(
        'invoice_id',
        invoices.map((i) => i.id),
      ),
    );
    expect(deliveries).toHaveLength(4);
    const quiet = await invoicesOf(ref.quietObject);
    expect(quiet).toHaveLength(4);
    expect(done.warnings.filter((w) => w.warning === 'CUSTOMER_SET_NOT_TO_SEND_TO_ERP')).toHaveLength(4);
    // the inactive object makes nothing; the ended agreement stops after its to-date
    expect(await invoicesOf(ref.inactive)).toEqual([]);
    expect((await invoicesOf(ref.ended)).map((i) => i.pf)).toEqual(['2026-01-01', '2026-04-01']);
    expect(done.skipped.map((s) => [s.serialCode, s.reason]).sort()).toEqual(
      [
        ['LARM-2', 'OBJECT_INACTIVE'],
        ['LARM-2', 'OBJECT_INACTIVE'],
        ['LARM-3', 'AGREEMENT_ENDED'],
      ].sort(),
    );

    // the service visit of 2026, made on 15 January's run (caught up now)
    const orders: Json[] = await withTenant(tenant, (trx) =>
      trx('work_orders')
        .where({ business_object_id: ref.object })
        .select('*', trx.raw('agreement_period_from::text as apf')),
    );
    expect(orders).toHaveLength(1);
    const wo = orders[0]!;
    expect(wo).toMatchObject({
      // the visit, not the agreement's whole year (issue 28 item 16)
      title: expect.stringMatching(/^Serviceavtal – servicebesök vecka \d{1,2} 2026$/),
      work_type_id: ref.workType,
      customer_id: ref.customer,
      apf: '2026-01-01',
    });
    const assignees: Json[] = await withTenant(tenant, (trx) =>
      trx('work_order_assignees').where({ work_order_id: wo.id }),
    );
    expect(assignees.map((x) => x.user_id)).toEqual([ref.techId]);
    const history = (await call('GET', `/api/wo/history/${wo.id}`, admin)).json();
    expect(JSON.stringify(history)).toContain('agreement.create');
    const checklists = (await call('GET', `/api/wo/checklist/${wo.id}`, admin)).json();
    expect(JSON.stringify(checklists)).toContain('Årlig service');
    const woArticles: Json[] = await withTenant(tenant, (trx) =>
      trx('work_order_articles').where({ work_order_id: wo.id }),
    );
    expect(woArticles.map((r) => [r.article_id, r.amount])).toEqual([[ref.extra, '1.000']]);

    const again = await generateDue(tenant, { now });
    expect([again.invoices, again.workOrders]).toEqual([0, 0]);
    expect(await invoicesOf(ref.object)).toHaveLength(4);

    const after = (await call('GET', `/api/bo/${ref.object}/agreement`, admin)).json().agreement;
    expect(after).toMatchObject({
      invoiceScheduledTo: '2027-01-01',
      woScheduledTo: '2027-01-01',
      lastInvoiced: { from: '2026-10-01', to: '2026-12-31' },
    });
  });

  it('warns before invoicing a period again and, once confirmed, still makes no second invoice for it', async () => {
    const current = (await call('GET', `/api/bo/${ref.object}/agreement`, admin)).json().agreement;
    const back = {
      agreementId: ref.type,
      validFrom: '2026-01-01',
      totalPrice: '1500',
      invoiceScheduledTo: '2026-04-01',
    };
    const refused = await call('PUT', `/api/bo/${ref.object}/agreement`, admin, {
      agreement: { ...back, version: current.version },
    });
    expect(refused.status).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'AGREEMENT_DOUBLE_INVOICING' });
    const stale = await call('PUT', `/api/bo/${ref.object}/agreement`, admin, {
      agreement: { ...back, version: current.version - 1, confirmDoubleInvoicing: true },
    });
    expect(stale.status).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'AGREEMENT_CHANGED' });
    const confirmed = await call('PUT', `/api/bo/${ref.object}/agreement`, admin, {
      agreement: { ...back, version: current.version, confirmDoubleInvoicing: true },
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    const done = await generateDue(tenant, { now, kinds: ['invoice'] });
    expect(done.invoices).toBe(0);
    expect(done.skipped.filter((s) => s.reason === 'ALREADY_GENERATED').map((s) => s.periodFrom)).toEqual([
      '2026-04-01',
      '2026-07-01',
      '2026-10-01',
    ]);
    expect(await invoicesOf(ref.object)).toHaveLength(4);
    expect((await call('GET', `/api/bo/${ref.object}/agreement`, admin)).json().agreement.invoiceScheduledTo).toBe(
      '2027-01-01',
    );
  });

  it('makes the next work order on demand, once per call, for those allowed', async () => {
    const oa = (await call('GET', `/api/bo/${ref.object}/agreement`, admin)).json().agreement;
    const denied = await call('POST', '/api/bo/agreement/wo/schedule', tech, { objectAgreementIds: [oa.id] });
    expect(denied.status).toBe(403);
    const first = await call('POST', '/api/bo/agreement/wo/schedule', admin, { objectAgreementIds: [oa.id] });
    expect(first.status, first.text).toBe(200);
    expect(first.json().created).toMatchObject([{ objectAgreementId: oa.id, periodFrom: '2027-01-01' }]);
    // the customer's primary address, as an order made by hand gets (issue 28 item 11)
    const made = (await call('GET', `/api/wo/${first.json().created[0].workOrderId}`, admin)).json().workOrder;
    expect(made).toMatchObject({ street: 'Lindgatan 1', postIndex: '753 20', city: 'Uppsala' });
    const second = await call('POST', '/api/bo/agreement/wo/schedule', admin, { objectAgreementIds: [oa.id] });
    expect(second.json().created).toMatchObject([{ periodFrom: '2028-01-01' }]);
    expect(second.json().created[0].number).not.toBe(first.json().created[0].number);
    const inactive = (await call('GET', `/api/bo/${ref.inactive}/agreement`, admin)).json().agreement;
    const skipped = await call('POST', '/api/bo/agreement/wo/schedule', admin, { objectAgreementIds: [inactive.id] });
    expect(skipped.json()).toMatchObject({ created: [], skipped: [{ reason: 'OBJECT_INACTIVE' }] });
    const unknown = await call('POST', '/api/bo/agreement/wo/schedule', admin, {
      objectAgreementIds: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.status).toBe(404);
  });

  it('names a visit generated in the last days of December by its ISO week (week 53 of 2026)', async () => {
    const [objectId, typeId] = await withTenant(tenant, async (trx) => {
      const [o] = await trx('business_objects')
        .insert({ serial_code: 'LARM-53', customer_id: ref.customer })
        .returning('id');
      const t = await insertAgreementType(trx, { code: 'MON', invoiceInterval: null, woInterval: 'month_1', woDay: 0 });
      return [o.id as string, t];
    });
    const put = await call('PUT', `/api/bo/${objectId}/agreement`, admin, {
      agreement: { agreementId: typeId, validFrom: '2026-12-01' },
    });
    expect(put.status, put.text).toBe(200);
    await generateDue(tenant, { now: new Date('2027-01-02T10:00:00Z'), kinds: ['wo'] });
    const orders: Json[] = await withTenant(tenant, (trx) =>
      trx('work_orders').where({ business_object_id: objectId }),
    );
    expect(orders).toHaveLength(1);
    expect(orders[0]!.description).toMatch(/ 53 2026$/);
  });

  it('assigns a service order nobody is dispatched to: whoever last served the object, else who started the run', async () => {
    const rules: Json[] = await withTenant(tenant, (trx) => trx('dispatch_rules').select('*'));
    await withTenant(tenant, (trx) => trx('dispatch_rules').del());
    try {
      const starter = (await withTenant(tenant, (trx) => trx('users').where({ email: a.adminEmail }).first('id'))).id;
      const [fresh, served, typeId] = await withTenant(tenant, async (trx) => {
        const objs = await trx('business_objects')
          .insert([
            { serial_code: 'LARM-NEW', customer_id: ref.customer },
            { serial_code: 'LARM-OLD', customer_id: ref.customer },
          ])
          .returning('id');
        const status = await trx('work_order_statuses').where({ is_closing: false }).first('id');
        const [old] = await trx('work_orders')
          .insert({
            number: 'X-1',
            title: 'Förra besöket',
            customer_id: ref.customer,
            business_object_id: objs[1].id,
            status_id: status.id,
            work_type_id: ref.workType,
            intake_ts: new Date('2026-06-01T08:00:00Z'),
          })
          .returning('id');
        await trx('work_order_assignees').insert({ work_order_id: old.id, user_id: ref.techId });
        const t = await insertAgreementType(trx, {
          code: 'ASSIGN',
          title: 'Larmservice',
          invoiceInterval: null,
          woInterval: 'year_1',
          woDay: 15,
        });
        return [objs[0].id as string, objs[1].id as string, t];
      });
      for (const id of [fresh, served]) {
        const put = await call('PUT', `/api/bo/${id}/agreement`, admin, {
          agreement: { agreementId: typeId, validFrom: '2026-01-01' },
        });
        expect(put.status, put.text).toBe(200);
      }
      await generateDue(tenant, { now: new Date('2026-01-20T10:00:00Z'), kinds: ['wo'], assignTo: starter });
      const assigneeOf = async (objectId: string) =>
        withTenant(tenant, (trx) =>
          trx('work_orders as w')
            .join('work_order_assignees as a', 'a.work_order_id', 'w.id')
            .where({ 'w.business_object_id': objectId })
            .whereNotNull('w.object_agreement_id')
            .select('a.user_id', 'w.title'),
        );
      const f = await assigneeOf(fresh);
      expect(f).toEqual([
        { user_id: starter, title: expect.stringMatching(/^Larmservice – servicebesök vecka 3 2026$/) },
      ]);
      expect((await assigneeOf(served)).map((r: Json) => r.user_id)).toEqual([ref.techId]);
    } finally {
      await withTenant(tenant, (trx) => trx('dispatch_rules').insert(rules));
    }
  });
});
