import type { Trx } from '~/core/db/with-tenant';
import type {
  ErpCustomerCandidate,
  ErpCustomerConflict,
  ErpCustomerConflictReason,
} from '~/core/extension-points/erp-provider';

/*
 * A customer's first delivery that met the ERP's own customers and could not tell which one is
 * Ordo's (issue 31 item 10; ErpCustomerConflict in the ERP contract): the delivery stops with
 * ERP_CUSTOMER_CONFLICT, the ERP's candidates are kept here, and the office resolves it in
 * Settings → ERP (resolveErpCustomerConflict) — this card of the ERP is the customer (a link: the
 * mapping names it, and the next delivery brings what Ordo owns up to date there), or none is (the
 * next delivery has a new card made). Either way the deliveries the conflict stopped go again.
 */

export const ERP_CUSTOMER_CONFLICT = 'ERP_CUSTOMER_CONFLICT';

type Row = Record<string, unknown>;

export interface ErpCustomerConflictView {
  customerId: string;
  customerName: string;
  customerNumber: string | null;
  organizationalNumber: string | null;
  reason: ErpCustomerConflictReason;
  candidates: ErpCustomerCandidate[];
  vendorMessage: string | null;
  /** The office chose "a new customer", which the next delivery makes. */
  createNew: boolean;
  createdAt: string;
}

/** Keeps what the ERP answered, in the unit of work that records the stopped delivery. */
export async function recordCustomerConflict(
  trx: Trx,
  kind: string,
  customerId: string,
  conflict: Pick<ErpCustomerConflict, 'reason' | 'candidates' | 'vendorMessage'>,
  now: Date,
): Promise<void> {
  await trx('erp_customer_conflicts')
    .insert({
      kind,
      customer_id: customerId,
      reason: conflict.reason,
      candidates: JSON.stringify(conflict.candidates),
      vendor_message: conflict.vendorMessage,
      resolution: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict(['kind', 'customer_id'])
    .merge(['reason', 'candidates', 'vendor_message', 'resolution', 'updated_at']);
}

/** Whether the office chose a new customer for this one (the delivery then has one made). */
export async function customerToCreate(trx: Trx, kind: string, customerId: string): Promise<boolean> {
  const row: Row | undefined = await trx('erp_customer_conflicts')
    .where({ kind, customer_id: customerId })
    .first('resolution');
  return Boolean((row?.resolution as { createNew?: boolean } | null)?.createNew);
}

/** Forgets the conflict once the ERP has the customer (matched, linked or made). */
export async function clearCustomerConflict(trx: Trx, kind: string, customerId: string): Promise<void> {
  await trx('erp_customer_conflicts').where({ kind, customer_id: customerId }).delete();
}

/** The open conflicts of the tenant's ERP, oldest first, with Ordo's customer as the office knows it. */
export async function listCustomerConflicts(trx: Trx, kind: string): Promise<ErpCustomerConflictView[]> {
  const rows: Row[] = await trx('erp_customer_conflicts as x')
    .join('customers as c', 'c.id', 'x.customer_id')
    .where('x.kind', kind)
    .orderBy([{ column: 'x.created_at' }, { column: 'x.customer_id' }])
    .select(
      'x.*',
      'c.name as customer_name',
      'c.customer_id as customer_number',
      'c.organizational_number',
      'c.person_id',
      'c.type as customer_type',
    );
  return rows.map((r) => ({
    customerId: r.customer_id as string,
    customerName: (r.customer_name as string) ?? '',
    customerNumber: r.customer_number === null || r.customer_number === undefined ? null : String(r.customer_number),
    organizationalNumber:
      ((r.customer_type === 'private' ? r.person_id : r.organizational_number) as string | null) ?? null,
    reason: r.reason as ErpCustomerConflictReason,
    candidates: r.candidates as ErpCustomerCandidate[],
    vendorMessage: (r.vendor_message as string) ?? null,
    createNew: Boolean((r.resolution as { createNew?: boolean } | null)?.createNew),
    createdAt: new Date(r.created_at as string).toISOString(),
  }));
}
