/**
 * The kinds of record that carry files (spec section 2: customers, objects, models, articles,
 * door automatics, work orders, proposals, projects, supplier invoices' PDFs, deviations) and the drive, with who may see and change
 * each kind's files (spec section 6: `<kind>:files` and `<kind>:files:read`). App modules add
 * their own kinds (AppModule.fileOwners); door automatics is one.
 *
 * Files on records are the `files` app module; the drive is the `drive` module.
 */
import type { Auth, Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { getRegistry, pluginFileOwners } from '~/core/extension-points/registry';
import type { AppModuleId } from '~/core/modules/app-modules';
import { hasAccess, requireAccess, type Access } from '~/core/permissions/access';
import type { Permission } from '~/core/permissions/permissions';
import { SUPPLIER_INVOICE_FILES, visibleSupplierInvoices } from '~/core/supplier-invoices/visibility';
import { applyLimit } from '~/core/work-orders/work-order-read';

export interface FileOwnerKind {
  kind: string;
  /** The table whose `id` an owner id must be; null for the drive (no owner). */
  table: string | null;
  read: Permission[];
  upload: Permission;
  edit: Permission;
  remove: Permission;
  /** Folders and links. */
  organise: Permission;
  module: AppModuleId;
  /** A plugin's kind: its records exist only while its module is on, too. */
  recordModule?: AppModuleId;
  /** How the customer a published file is for is found: the owner's own column, or itself. */
  customer?: 'self' | 'customer_id';
}

const record = (
  kind: string,
  table: string | null,
  edit: Permission,
  read: Permission[],
  customer?: FileOwnerKind['customer'],
): FileOwnerKind => ({
  kind,
  table,
  read: [edit, ...read],
  upload: edit,
  edit,
  remove: edit,
  organise: edit,
  module: 'files',
  customer,
});

const CORE: FileOwnerKind[] = [
  record('customer', 'customers', 'customers:files', ['customers:files:read'], 'self'),
  record('bo', 'business_objects', 'bo:files', ['bo:files:read'], 'customer_id'),
  record('model', 'models', 'models:files', ['models:files:read']),
  record('article', 'articles', 'articles:files', ['articles:files:read']),
  record('wo', 'work_orders', 'workorders:files', ['workorders:read'], 'customer_id'),
  { ...record('proposal', 'proposals', 'proposal:files', ['proposal:read'], 'customer_id'), module: 'crm' },
  // a project's files: the project must exist here, and the PROJECTS module be on
  { ...record('project', 'projects', 'projects:files', ['projects:read']), recordModule: 'projects' },
  // a supplier invoice's PDF: seen by whoever sees the invoice (requireOwner)
  {
    ...record(SUPPLIER_INVOICE_FILES, 'supplier_invoices', 'supplier_invoices:edit', ['supplier_invoices:read']),
    module: 'supplier_invoices',
  },
  // a deviation's photos and files: seen by whoever reads deviations, changed by whoever edits them
  { ...record('deviation', 'deviations', 'deviations:edit', ['deviations:read']), module: 'deviations' },
  {
    kind: 'drive',
    table: null,
    read: ['drive:read'],
    upload: 'drive:files:upload',
    edit: 'drive:files:edit',
    remove: 'drive:files:delete',
    organise: 'drive:edit',
    module: 'drive',
  },
];

/** Every kind, the plugins' included. */
export function fileOwnerKinds(): FileOwnerKind[] {
  const plugins = pluginFileOwners(getRegistry()).map((o) => ({
    ...record(o.kind, o.table, o.edit, [o.read]),
    recordModule: o.moduleId,
  }));
  return [...CORE, ...plugins];
}

/** A kind by its name in a call; an unknown (or not yet built) kind is not found. */
export function fileOwnerKind(kind: unknown): FileOwnerKind {
  const found = typeof kind === 'string' ? fileOwnerKinds().find((k) => k.kind === kind) : undefined;
  if (!found || (found.kind !== 'drive' && !found.table)) throw notFound();
  return found;
}

export type FileAction = 'read' | 'upload' | 'edit' | 'remove' | 'organise';

function accessFor(k: FileOwnerKind, action: Exclude<FileAction, 'read'>): Access {
  return { permission: k[action], module: k.module };
}

export function canFiles(auth: Auth | null, k: FileOwnerKind, action: FileAction): boolean {
  if (k.recordModule && !hasAccess(auth, { permission: 'signed-in', module: k.recordModule })) return false;
  if (action === 'read') return k.read.some((p) => hasAccess(auth, { permission: p, module: k.module }));
  return hasAccess(auth, accessFor(k, action));
}

/** 403 without the right for `action` on this kind's files (401 without a session). */
export function requireFiles(auth: Auth | null, k: FileOwnerKind, action: FileAction): asserts auth is Auth {
  // a plugin's records do not exist while its module is off
  if (k.recordModule && !hasAccess(auth, { permission: 'signed-in', module: k.recordModule })) throw notFound();
  if (action === 'read') {
    requireAccess(auth, { permission: 'signed-in' });
    if (!canFiles(auth, k, 'read')) requireAccess(auth, { permission: k.read[0]!, module: k.module });
    return;
  }
  requireAccess(auth, accessFor(k, action));
}

/**
 * The owner id of a record of this kind, checked to exist in the tenant; a work order also within
 * the user's work-order limit. Another tenant's id, or an order outside the limit, is not found.
 */
export async function requireOwner(ctx: Ctx, k: FileOwnerKind, ownerId: unknown): Promise<string | null> {
  if (k.kind === 'drive') return null;
  if (typeof ownerId !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ownerId))
    throw notFound();
  const row =
    k.kind === 'wo'
      ? await applyLimit(ctx, ctx.trx('work_orders as w').where('w.id', ownerId)).first('w.id')
      : k.kind === SUPPLIER_INVOICE_FILES
        ? await visibleSupplierInvoices(ctx, ctx.trx('supplier_invoices as si').where('si.id', ownerId)).first('si.id')
        : await ctx.trx(k.table!).where({ id: ownerId }).first('id');
  if (!row) throw notFound();
  return ownerId;
}

/** The customer a file of this owner is published to; null when the owner has none. */
export async function ownerCustomer(ctx: Ctx, k: FileOwnerKind, ownerId: string | null): Promise<string | null> {
  if (!ownerId || !k.customer) return null;
  if (k.customer === 'self') return ownerId;
  const row = await ctx.trx(k.table!).where({ id: ownerId }).first('customer_id');
  return (row?.customer_id as string | null) ?? null;
}

export const noCustomer = () => new AppError('FILE_NO_CUSTOMER', 400);
