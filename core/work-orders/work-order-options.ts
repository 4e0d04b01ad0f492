import type { Ctx } from '~/core/context';
import { notFound } from '~/core/errors/app-error';
import { isUuid } from '~/core/errors/validation';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { getWorkOrderSettings } from './settings/settings.service';
import type { WorkOrderSettings } from './settings/settings.types';

export interface OptionUser {
  id: string;
  name: string;
  departmentId: string | null;
}

/** What the work-order list's filters and the order form choose from, read in a handful of statements. */
export interface WorkOrderOptions {
  settings: WorkOrderSettings;
  /** Active users, by name: assignees and the user filters. */
  users: OptionUser[];
  departments: { id: string; name: string }[];
  canEditInternal: boolean;
}

export async function getWorkOrderOptions(ctx: Ctx): Promise<WorkOrderOptions> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  // one after the other: they share the request's transaction (one connection)
  const settings = await getWorkOrderSettings(ctx);
  const users: Record<string, unknown>[] = await ctx
    .trx('users')
    .whereNot('status', 'inactive')
    .orderByRaw('lower(name), id')
    .select('id', 'name', 'department_id');
  const departments = await ctx.trx('departments').orderByRaw('lower(name), id').select('id', 'name');
  return {
    settings,
    users: users.map((u) => ({
      id: u.id as string,
      name: u.name as string,
      departmentId: (u.department_id as string | null) ?? null,
    })),
    departments: departments as { id: string; name: string }[],
    canEditInternal: hasAccess(ctx.auth, { permission: 'workorders:edit_internal_info' }),
  };
}

export interface CustomerAddressOption {
  id: string;
  street: string | null;
  postIndex: string | null;
  city: string | null;
  isPrimary: boolean;
  contactName: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
}

/**
 * A customer's addresses (primary first), for the order form: the address comes from them or is
 * typed. Needs customers:read too; 404 for an unknown (or another tenant's) customer.
 */
export async function getCustomerForWorkOrder(
  ctx: Ctx,
  customerId: unknown,
): Promise<{ addresses: CustomerAddressOption[] }> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  requireAccess(ctx.auth, { permission: 'customers:read' });
  if (!isUuid(customerId)) throw notFound();
  const customer = await ctx.trx('customers').where({ id: customerId }).first('id');
  if (!customer) throw notFound();
  const rows: Record<string, unknown>[] = await ctx
    .trx('customer_addresses')
    .where({ customer_id: customerId })
    .orderBy([{ column: 'is_primary', order: 'desc' }, 'sort_order', 'id'])
    .select('*');
  return {
    addresses: rows.map((r) => ({
      id: r.id as string,
      street: (r.street as string) ?? null,
      postIndex: (r.post_index as string) ?? null,
      city: (r.city as string) ?? null,
      isPrimary: r.is_primary === true,
      contactName: (r.contact_name as string) ?? null,
      contactEmail: (r.contact_email as string) ?? null,
      contactPhone: (r.contact_phone as string) ?? null,
    })),
  };
}
