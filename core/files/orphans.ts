/**
 * Stored bytes no row names (issue 37 item 5): an upload stores its bytes before the transaction that
 * records them, so a process that dies in between, or a transaction that rolls back after the bytes
 * went in, leaves an object behind that nothing will ever read or delete. The sweep walks a tenant's
 * keys in the FileStore (`<schema>/…`), keeps those stored less than ORPHAN_GRACE_MS ago (an upload
 * may still be on its way to its commit), asks the tenant's schema which of the rest a row names, and
 * deletes the others after that read has committed (decision 049: no store call inside a transaction).
 *
 * "A row names it" means any column called `storage_key` or `thumb_key` in the tenant's schema holds
 * it (files, receipts, catalogue imports…), found from the catalogue on each run: a table added later
 * with such a column is protected without touching this file.
 */
import type { Knex } from 'knex';
import { withTenant, type TenantScope } from '~/core/db/with-tenant';
import type { FileStore, StoredKey } from './file-store';
import { getFileStore } from './store';

/** An object younger than this is left alone: its upload may not have committed yet. */
export const ORPHAN_GRACE_MS = 24 * 3600_000;

/** The names of the columns that hold FileStore keys, in every table of a tenant's schema. */
export const KEY_COLUMNS = ['storage_key', 'thumb_key'] as const;

/** Keys asked about per statement. */
const BATCH = 500;

export interface OrphanSweep {
  /** Keys old enough to be looked at. */
  examined: number;
  /** Keys deleted because no row named them, and their bytes. */
  removed: string[];
  bytes: number;
}

/** The tenant schema's `(table, column)` pairs that hold keys. */
async function keyColumns(trx: Knex.Transaction): Promise<{ table: string; column: string }[]> {
  const { rows } = (await trx.raw(
    `select table_name as table, column_name as column from information_schema.columns
      where table_schema = current_schema() and column_name = any(?::text[])
      order by table_name, column_name`,
    [[...KEY_COLUMNS]],
  )) as { rows: { table: string; column: string }[] };
  return rows;
}

/** Of `keys`, those no key column of the schema holds: one statement. */
async function unnamed(trx: Knex.Transaction, keys: string[]): Promise<string[]> {
  const columns = await keyColumns(trx);
  const tests = columns.map(() => 'not exists (select 1 from ?? where ?? = k)').join(' and ');
  const bindings = columns.flatMap((c) => [c.table, `${c.table}.${c.column}`]);
  const { rows } = (await trx.raw(`select k from unnest(?::text[]) as k${tests ? ` where ${tests}` : ''}`, [
    keys,
    ...bindings,
  ])) as { rows: { k: string }[] };
  return rows.map((r) => r.k);
}

/**
 * Deletes the tenant's stored objects that no row names and that were stored before `now - graceMs`.
 * Safe to run at any time and twice at once: a key is only deleted once a committed read found no
 * row for it, and deleting a missing key is not an error.
 */
export async function sweepOrphanFiles(
  tenant: TenantScope,
  {
    now = new Date(),
    graceMs = ORPHAN_GRACE_MS,
    store = getFileStore(),
  }: {
    now?: Date;
    graceMs?: number;
    store?: FileStore;
  } = {},
): Promise<OrphanSweep> {
  const before = now.getTime() - graceMs;
  const result: OrphanSweep = { examined: 0, removed: [], bytes: 0 };
  const flush = async (batch: StoredKey[]) => {
    if (!batch.length) return;
    result.examined += batch.length;
    const gone = new Set(
      await withTenant(tenant, (trx) =>
        unnamed(
          trx,
          batch.map((k) => k.key),
        ),
      ),
    );
    for (const k of batch) {
      if (!gone.has(k.key)) continue;
      await store.delete(k.key);
      result.removed.push(k.key);
      result.bytes += k.size;
    }
  };
  let batch: StoredKey[] = [];
  for await (const k of store.list(tenant.schemaName)) {
    if (k.storedAt.getTime() > before) continue;
    batch.push(k);
    if (batch.length >= BATCH) {
      await flush(batch);
      batch = [];
    }
  }
  await flush(batch);
  return result;
}
