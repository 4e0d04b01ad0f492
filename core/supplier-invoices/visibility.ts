import type { Knex } from 'knex';
import type { Ctx } from '~/core/context';

/*
 * Who sees which supplier invoice (issue 33; decision 054): supplier_invoices:read_all (or a super
 * user) sees every one; supplier_invoices:read alone sees the invoices the user is responsible for.
 * One place for the invoice calls and for the invoice's files (core/files/owners.ts).
 */

/** The kind of file owner a supplier invoice is (its PDF): `/file/generic/supplier_invoice/{id}`. */
export const SUPPLIER_INVOICE_FILES = 'supplier_invoice';

export const canReadAllSupplierInvoices = (ctx: Pick<Ctx, 'auth'>) =>
  ctx.auth?.user.userType === 'super' || Boolean(ctx.auth?.perms.has('supplier_invoices:read_all'));

/** Restricts a query on `supplier_invoices as si` to what the asker may see. */
export function visibleSupplierInvoices(ctx: Pick<Ctx, 'auth'>, query: Knex.QueryBuilder): Knex.QueryBuilder {
  if (canReadAllSupplierInvoices(ctx)) return query;
  return query.where('si.responsible_user_id', ctx.auth!.user.id);
}
