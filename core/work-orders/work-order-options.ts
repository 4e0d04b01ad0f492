import type { Ctx } from '~/core/context';
import { REGIONS_READ, sessionRegion } from '~/core/regions/region.service';
import { notFound } from '~/core/errors/app-error';
import { isUuid } from '~/core/errors/validation';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { preparedInTenant } from '~/core/db/with-tenant';
import { SETTINGS_COLUMNS_SQL, settingsFromColumns } from './settings/settings.service';
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
  /** The active regions to filter by (none without the regions module; decision 067). */
  regions: string[];
  /** The session's region, which the list is filtered by unless another (or all) is chosen. */
  sessionRegion: string | null;
  canEditInternal: boolean;
  /** May put the order in a project or take it out (projects:edit, the PROJECTS module). */
  canSetProject: boolean;
}

export async function getWorkOrderOptions(ctx: Ctx): Promise<WorkOrderOptions> {
  requireAccess(ctx.auth, { permission: 'workorders:read' });
  // One prepared statement: the configuration, the active users, the departments and regions.
  const [row] = await preparedInTenant<
    Parameters<typeof settingsFromColumns>[0] & {
      users: OptionUser[];
      departments: { id: string; name: string }[];
      regions: string[];
    }
  >(
    ctx.trx,
    ctx.tenant,
    {
      name: 'work-order-options',
      sql: `select ${SETTINGS_COLUMNS_SQL},
        (select coalesce(json_agg(json_build_object('id', id, 'name', name, 'departmentId', department_id)
                  order by lower(name), id), '[]')
           from users where status <> 'inactive') as users,
        (select coalesce(json_agg(json_build_object('id', id, 'name', name) order by lower(name), id), '[]')
           from departments) as departments,
        (select coalesce(json_agg(name order by lower(name)), '[]') from regions where active) as regions`,
    },
    [],
  );
  return {
    settings: settingsFromColumns(row!),
    users: row!.users,
    departments: row!.departments,
    regions: hasAccess(ctx.auth, REGIONS_READ) ? row!.regions : [],
    sessionRegion: sessionRegion(ctx.auth),
    canEditInternal: hasAccess(ctx.auth, { permission: 'workorders:edit_internal_info' }),
    canSetProject: hasAccess(ctx.auth, { permission: 'projects:edit', module: 'projects' }),
  };
}

export interface CustomerAddressOption {
  id: string;
  street: string | null;
  postIndex: string | null;
  city: string | null;
  isPrimary: boolean;
  /** What the technician must know to get in (a door code, where the key is): shown on the order. */
  notes: string | null;
  contactName: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
}

/** One of the customer's contacts, offered for the order's contact fields. */
export interface CustomerContactOption {
  name: string;
  role: string | null;
  phone: string | null;
  email: string | null;
}

/**
 * A customer's addresses (primary first) and contacts, for the order form: the address comes from them or is
 * typed. Needs customers:read too; 404 for an unknown (or another tenant's) customer.
 */
export async function getCustomerForWorkOrder(
  ctx: Ctx,
  customerId: unknown,
): Promise<{ addresses: CustomerAddressOption[]; contacts: CustomerContactOption[] }> {
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
  const contacts: Record<string, unknown>[] = await ctx
    .trx('customer_contacts')
    .where({ customer_id: customerId })
    .orderBy(['sort_order', 'id'])
    .select('name', 'role', 'phone', 'email');
  return {
    contacts: contacts.map((c) => ({
      name: c.name as string,
      role: (c.role as string) ?? null,
      phone: (c.phone as string) ?? null,
      email: (c.email as string) ?? null,
    })),
    addresses: rows.map((r) => ({
      id: r.id as string,
      street: (r.street as string) ?? null,
      postIndex: (r.post_index as string) ?? null,
      city: (r.city as string) ?? null,
      isPrimary: r.is_primary === true,
      notes: (r.notes as string) ?? null,
      contactName: (r.contact_name as string) ?? null,
      contactEmail: (r.contact_email as string) ?? null,
      contactPhone: (r.contact_phone as string) ?? null,
    })),
  };
}
