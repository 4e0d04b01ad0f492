import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Auth, Ctx } from '~/core/context';
import type { Database } from '~/core/db/database';
import { withTenant } from '~/core/db/with-tenant';
import { loadRegistry } from '~/core/extension-points/registry';
import type { Permission } from '~/core/permissions/permissions';
import { getTenantBySlug } from '~/tenants/registry';
import { provisionTenant } from '~/tenants/provision';
import { insertAgreementType } from '~/tests/helpers/agreements';
import { openTestDatabase, uniqueSlug } from '~/tests/helpers/db';
import { getDashboardKpis } from './kpi.service';

let db: Database;
let slug: string;
beforeAll(async () => {
  db = await openTestDatabase();
  await loadRegistry({});
  slug = uniqueSlug('kpi');
  await provisionTenant({
    slug,
    name: 'Kpi AB',
    hosts: [`${slug}.ordo.test`],
    adminEmail: `a@${slug}.se`,
    adminPassword: 'password-1',
  });
});
afterAll(() => db.close());

const auth = (perms: Permission[], modules: string[]): Auth => ({
  sessionId: 's',
  user: {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'x@kpi.se',
    fullName: 'X',
    shortName: null,
    initials: 'X',
    userType: 'normal',
    language: null,
    startPage: 'dashboard',
  },
  perms: new Set(perms),
  modules: new Set(modules),
  limit: 'none',
  mustEnrollMfa: false,
});

describe('[dashboard] key figures', () => {
  it('counts open orders, draft invoices, lead time and new objects; needs dashboard:read and the module', async () => {
    const tenant = (await getTenantBySlug(slug))!;
    await withTenant(tenant, async (trx) => {
      const now = new Date('2026-11-20T12:00:00Z');
      const ctx: Ctx = { trx, tenant, auth: auth(['dashboard:read'], ['dashboard']), lang: 'sv', now };
      const empty = await getDashboardKpis(ctx);
      expect(empty).toEqual({
        openWorkOrders: 0,
        toInvoice: { count: 0, total: '0.00' },
        leadTimeDays: null,
        newObjects: 0,
        agreementInvoicing: { due: { count: 0, amount: '0.00' }, invoiced: { count: 0, amount: '0.00' } },
      });

      const [status] = await trx('work_order_statuses').where({ is_default: true }).select('id');
      const [type] = await trx('work_types').where({ is_default: true }).select('id');
      const base = { status_id: status.id, work_type_id: type.id };
      const [closed] = await trx('work_orders')
        .insert([
          {
            ...base,
            number: 'K-1',
            title: 'Stängd',
            intake_ts: '2026-11-10T12:00:00Z',
            closed_at: '2026-11-13T00:00:00Z',
          },
          { ...base, number: 'K-2', title: 'Öppen' },
          { ...base, number: 'K-3', title: 'Borttagen', deleted_at: now },
        ])
        .returning('id');
      await trx('invoices').insert({
        work_order_id: closed.id,
        status: 'draft',
        invoice_date: '2026-11-13',
        total_price: '1250.50',
      });
      await trx('business_objects').insert({ serial_code: 'KPI-1' });

      expect(await getDashboardKpis(ctx)).toEqual({
        openWorkOrders: 1,
        toInvoice: { count: 1, total: '1250.50' },
        leadTimeDays: 2.5,
        newObjects: 1,
        agreementInvoicing: { due: { count: 0, amount: '0.00' }, invoiced: { count: 0, amount: '0.00' } },
      });

      // agreement invoicing this month (November): a monthly agreement due on the 1st and one held
      // back (inactive object), October's invoice made on 1 November, a void one not counted
      const agreementId = await insertAgreementType(trx, { code: 'KPI-M', invoiceInterval: 'month_1', invoiceDay: 1 });
      const [customer] = await trx('customers').insert({ customer_id: 'K1', name: 'Kund' }).returning('id');
      const objects = await trx('business_objects')
        .insert([
          { serial_code: 'KPI-A', customer_id: customer.id },
          { serial_code: 'KPI-B', customer_id: customer.id, status: 'inactive' },
        ])
        .returning('id');
      const agreements = await trx('object_agreements')
        .insert(
          objects.map((o: { id: string }) => ({
            business_object_id: o.id,
            agreement_id: agreementId,
            valid_from: '2026-10-01',
            invoice_scheduled_to: '2026-11-01',
            invoice_period_from: '2026-10-01',
            total_price: '395.00',
          })),
        )
        .returning('id');
      await trx('object_agreement_rows').insert({
        object_agreement_id: agreements[0].id,
        kind: 'invoice',
        title: 'Larmcentral',
        amount: '2',
        price: '100',
        discount_type: 'PERCENTAGE',
        discount_value: '10',
      });
      await trx('invoices').insert([
        {
          object_agreement_id: agreements[0].id,
          status: 'finalized',
          invoice_date: '2026-11-01',
          period_from: '2026-10-01',
          period_to: '2026-10-31',
          total_price: '395.00',
        },
        {
          object_agreement_id: agreements[1].id,
          status: 'void',
          invoice_date: '2026-11-02',
          period_from: '2026-10-01',
          period_to: '2026-10-31',
          total_price: '395.00',
        },
      ]);
      expect((await getDashboardKpis(ctx)).agreementInvoicing).toEqual({
        due: { count: 1, amount: '575.00' },
        invoiced: { count: 1, amount: '395.00' },
      });
      await expect(getDashboardKpis({ ...ctx, auth: auth(['dashboard:read'], []) })).rejects.toMatchObject({
        status: 403,
      });
      await expect(getDashboardKpis({ ...ctx, auth: auth([], ['dashboard']) })).rejects.toMatchObject({ status: 403 });
      throw Object.assign(new Error('rollback'), { rollback: true });
    }).catch((e: { rollback?: boolean }) => {
      if (!e.rollback) throw e;
    });
  });
});
