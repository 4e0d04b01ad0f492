import type { Knex } from 'knex';
import type { Database } from './database';
import { CONTROL_SCHEMA, assertSchemaName, quoteIdent } from './identifiers';

export type Trx = Knex.Transaction;

/** What `withTenant` needs of a tenant: where its data lives. */
export interface TenantScope {
  id: string;
  schemaName: string;
  cluster: string;
}

let current: Database | undefined;

/** The process's database: set once at boot (or by a test), read by every unit of work. */
export function setDatabase(db: Database | undefined): void {
  current = db;
}

export function getDatabase(): Database {
  if (!current) throw new Error('The database is not open yet (setDatabase was not called)');
  return current;
}

function knexFor(cluster: string): Knex {
  // Scale-out: each cluster name maps to its own pool. One cluster exists today.
  if (cluster !== 'default') throw new Error(`Unknown database cluster ${JSON.stringify(cluster)}`);
  return getDatabase().knex;
}

async function inSchema<T>(knex: Knex, schema: string, fn: (trx: Trx) => Promise<T>): Promise<T> {
  const name = assertSchemaName(schema);
  return knex.transaction(async (trx) => {
    // Transaction-local: the setting ends with the transaction and never leaks to the next
    // user of this pooled connection (a session-level SET would).
    // random_page_cost: storage is SSD, where an index read costs about what a sequential one does;
    // with the default (4) the planner prefers scanning a 20,000-row register to its trigram index.
    await trx.raw(`select set_config('search_path', ?, true), set_config('random_page_cost', '1.1', true)`, [
      quoteIdent(name),
    ]);
    return fn(trx);
  });
}

/**
 * Runs one unit of work for a tenant: a transaction whose search_path is the tenant's schema.
 * Everything inside sees only that tenant's tables; an error rolls all of it back.
 */
export function withTenant<T>(tenant: TenantScope, fn: (trx: Trx) => Promise<T>): Promise<T> {
  return inSchema(knexFor(tenant.cluster), tenant.schemaName, fn);
}

/** Runs one unit of work on the control schema (the tenant registry, the outbox, embedded jobs). */
export function withControl<T>(fn: (trx: Trx) => Promise<T>): Promise<T> {
  return inSchema(getDatabase().knex, CONTROL_SCHEMA, fn);
}
