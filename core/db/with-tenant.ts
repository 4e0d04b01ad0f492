import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { logger } from '~/core/log/logger';
import type { Database } from './database';
import { CONTROL_SCHEMA, assertSchemaName, quoteIdent } from './identifiers';
import { preparedStatement, scopeSettings, type TenantTransactionConfig } from './tenant-transaction';
import { insideTransaction, outsideTransaction } from './transaction-guard';

export type Trx = Knex.Transaction;

/** What `withTenant` needs of a tenant: where its data lives. */
export interface TenantScope {
  id: string;
  schemaName: string;
  cluster: string;
}

/**
 * The process's database, kept on globalThis: in production app-module plugins are imported at
 * boot outside the server bundle (decision 001) with their own copy of core, and a plugin's call
 * into core (loadActive → preparedInTenant) must find the same database as the bundle's.
 */
const DATABASE = Symbol.for('ordo.database');
const holder = globalThis as { [DATABASE]?: Database };

/** The process's database: set once at boot (or by a test), read by every unit of work. */
export function setDatabase(db: Database | undefined): void {
  holder[DATABASE] = db;
}

export function getDatabase(): Database {
  const current = holder[DATABASE];
  if (!current) throw new Error('The database is not open yet (setDatabase was not called)');
  return current;
}

function databaseFor(cluster: string): Database {
  // Scale-out: each cluster name maps to its own pool. One cluster exists today.
  if (cluster !== 'default') throw new Error(`Unknown database cluster ${JSON.stringify(cluster)}`);
  return getDatabase();
}

/** The tenant whose unit of work a transaction is (for what is bound to its tenant, e.g. sealed secrets). */
const tenantOfTrx = new WeakMap<Trx, string>();

/**
 * What a unit of work hands back to be done once it has committed, outside any transaction: a
 * document to print, a mail to send, a file to stream (issue 30 item 1; decision 049). The function
 * that opened the transaction (withTenant, withControl, and so every request's and job's unit of
 * work) runs it after the commit and answers with its result; after a rollback it never runs.
 */
export class AfterCommitWork<T> {
  constructor(readonly run: () => Promise<T>) {}
  /** The same work, its result passed on through `f` (a file into a reply). */
  map<U>(f: (value: T) => U | Promise<U>): AfterCommitWork<U> {
    return new AfterCommitWork(async () => f(await this.run()));
  }
}

/** Hands `fn` back to the unit of work's opener, to run once the transaction committed. */
export function thenAfterCommit<T>(fn: () => Promise<T>): AfterCommitWork<T> {
  return new AfterCommitWork(fn);
}

/** What a unit of work answers: its result, or what its after-commit work gave. */
export type Settled<T> = T extends AfterCommitWork<infer U> ? U : T;

async function settle<T>(result: T): Promise<Settled<T>> {
  if (result instanceof AfterCommitWork) return (await outsideTransaction(() => result.run())) as Settled<T>;
  return result as Settled<T>;
}

async function inSchema<T>(
  db: Database,
  schema: string,
  fn: (trx: Trx) => Promise<T>,
  tenantId?: string,
): Promise<Settled<T>> {
  const name = assertSchemaName(schema);
  const run = (trx: Trx) => {
    if (tenantId) tenantOfTrx.set(trx, tenantId);
    return fn(trx);
  };
  // Transaction-local settings: they end with the transaction and never leak to the next user of
  // this pooled connection (a session-level SET would). On PostgreSQL they travel with BEGIN
  // (tenant-transaction.ts); PGlite has no round trip to save.
  const result = await insideTransaction(name, () => {
    if (db.scopedBegin) return db.knex.transaction(run, { tenantSchema: name } as TenantTransactionConfig);
    return db.knex.transaction(async (trx) => {
      await trx.raw(scopeSettings(name));
      return run(trx);
    });
  });
  return settle(result);
}

/**
 * The id of the tenant a tenant transaction belongs to: known for withTenant's own transaction,
 * looked up by its schema for another (a savepoint inside it, a test's own transaction).
 */
export async function tenantIdOf(trx: Trx): Promise<string> {
  const known = tenantOfTrx.get(trx);
  if (known) return known;
  const row = await trx
    .withSchema(CONTROL_SCHEMA)
    .from('tenants')
    .whereRaw('schema_name = current_schema()')
    .first<{ id: string } | undefined>('id');
  if (!row) throw new Error('Not inside a tenant transaction');
  tenantOfTrx.set(trx, row.id);
  return row.id;
}

/**
 * Runs one unit of work for a tenant: a transaction whose search_path is the tenant's schema.
 * Everything inside sees only that tenant's tables; an error rolls all of it back.
 */
export function withTenant<T>(tenant: TenantScope, fn: (trx: Trx) => Promise<T>): Promise<Settled<T>> {
  return inSchema(databaseFor(tenant.cluster), tenant.schemaName, fn, tenant.id);
}

/**
 * Runs `fn` while no other process holds the tenant's lock `name` (on the tenant's database): for
 * work that must not run twice at once across processes and calls out while it runs, so it is no
 * unit of work — `fn` opens its own short ones (withTenant) for what it reads and writes.
 */
export function withTenantLock<T>(tenant: TenantScope, name: string, fn: () => Promise<T>): Promise<T> {
  return databaseFor(tenant.cluster).withSessionLock(`tenant:${tenant.id}:${name}`, fn);
}

/** Runs one unit of work on the control schema (the tenant registry, the outbox, embedded jobs). */
export function withControl<T>(fn: (trx: Trx) => Promise<T>): Promise<Settled<T>> {
  return inSchema(getDatabase(), CONTROL_SCHEMA, fn);
}

/**
 * One statement for a tenant outside any transaction, its tables qualified with the tenant's
 * schema (validated and quoted, handed to `sql`). Only for the hot path's single statements, such
 * as the session check that precedes every request's unit of work: a transaction for it would
 * add a begin and a commit round trip to each request. With a `name`, PostgreSQL keeps it as a
 * prepared statement per connection and tenant, so it is planned once, not on every request.
 */
export async function tenantStatement<R>(
  tenant: TenantScope,
  statement: { name?: string; sql: (schema: string) => string },
  bindings: readonly unknown[],
): Promise<R[]> {
  const schema = assertSchemaName(tenant.schemaName);
  const db = databaseFor(tenant.cluster);
  const sql = statement.sql(quoteIdent(schema));
  if (!statement.name || !db.scopedBegin) {
    const result = (await db.knex.raw(sql, bindings as Knex.RawBinding[])) as { rows: R[] };
    return result.rows;
  }
  return preparedStatement<R>(db, statementName(statement.name, schema), sql, bindings);
}

/** A prepared statement's name is per connection, per tenant schema, and at most 63 bytes. */
function statementName(name: string, schema: string): string {
  const key = `${name}:${schema}`;
  return key.length <= 63 ? key : `${name}:${createHash('sha256').update(schema).digest('hex').slice(0, 32)}`;
}

/**
 * A fixed statement inside a tenant's unit of work, kept prepared on the connection per tenant:
 * for statements whose planning costs more than their execution (the work-order list's names,
 * assignees and tags of a page of ids: ~2.5 ms planned, 0.2 ms run). Only for statements whose
 * text never changes and whose plan does not depend on the values (a lookup by ids).
 */
export async function preparedInTenant<R>(
  trx: Trx,
  tenant: TenantScope,
  statement: { name: string; sql: string },
  bindings: readonly unknown[],
): Promise<R[]> {
  const schema = assertSchemaName(tenant.schemaName);
  if (!databaseFor(tenant.cluster).scopedBegin)
    return ((await trx.raw(statement.sql, bindings as Knex.RawBinding[])) as { rows: R[] }).rows;
  return preparedStatement<R>({ knex: trx }, statementName(statement.name, schema), statement.sql, bindings);
}

/** Steps after commit still running: awaited by tests and at shutdown (`afterCommitSettled`). */
const pendingAfterCommit = new Set<Promise<unknown>>();

/**
 * Runs `fn` once the transaction has committed (never after a rollback), outside any transaction:
 * for what the rest of the world may only learn of committed data — a cache to forget, a queue to
 * tell. Its failure is logged, never thrown: the commit stands.
 */
export function afterCommit(trx: Trx, fn: () => unknown): void {
  const step: Promise<unknown> = trx.executionPromise
    .then(
      () =>
        outsideTransaction(async () => {
          try {
            await fn();
          } catch (err) {
            logger.warn({ err }, 'a step after commit failed');
          }
        }),
      () => undefined,
    )
    .finally(() => pendingAfterCommit.delete(step));
  pendingAfterCommit.add(step);
}

/** Resolves once every step handed to `afterCommit` so far (and those they started) has finished. */
export async function afterCommitSettled(): Promise<void> {
  while (pendingAfterCommit.size) await Promise.all([...pendingAfterCommit]);
}
