import { createHash } from 'node:crypto';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Config } from '~/core/config/env';
import { logger } from '~/core/log/logger';
import { lockDataDir } from './data-dir-lock';
import { attachQueryCounter } from './query-counter';
import { tenantAwarePgClient } from './tenant-transaction';

export type DatabaseKind = 'postgres' | 'pglite';

export interface Database {
  kind: DatabaseKind;
  /** Whether a transaction can open with its schema in the same message (PostgreSQL, not PGlite). */
  scopedBegin: boolean;
  knex: Knex;
  /** Human-readable location for messages (never includes a password). */
  describe: string;
  /**
   * Runs `fn` while this process holds the lock named `key`, which every process on this database
   * waits for (sessionLock below); for work that calls out while it holds the lock (an ERP token
   * refresh), so never inside a transaction.
   */
  withSessionLock<T>(key: string, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** How long a process waits for a session lock before giving up (then its caller tries again later). */
export const SESSION_LOCK_TIMEOUT_MS = 60_000;

/** A lock name as PostgreSQL's advisory-lock key: 64 bits of its SHA-256. */
export function advisoryLockKey(key: string): string {
  return createHash('sha256').update(key).digest().readBigInt64BE(0).toString();
}

/**
 * A PostgreSQL session-level advisory lock on a connection of its own, opened for the lock and
 * closed after it (issue 31 item 6; decision 052). Not `pg_advisory_xact_lock`: that lock lives as
 * long as a transaction, and a transaction held open across the caller's outbound HTTP call breaks
 * decision 049 (a pooled connection and its snapshot held for as long as the vendor takes). Not a
 * pooled connection either: the caller needs the pool while it holds the lock (to re-read and save
 * the credentials), and waiters blocked in pg_advisory_lock on pooled connections could empty the
 * pool and wait for each other. A connection of its own also ends the lock whatever happens to this
 * process: PostgreSQL releases a session lock when its connection closes (a crash included), and
 * `lock_timeout` bounds the wait behind a holder that hangs.
 */
async function sessionLock<T>(
  url: string,
  key: string,
  fn: () => Promise<T>,
  timeoutMs = SESSION_LOCK_TIMEOUT_MS,
): Promise<T> {
  const client = new pg.Client({
    connectionString: url,
    application_name: 'ordo-lock',
    lock_timeout: timeoutMs,
  });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1::bigint)', [advisoryLockKey(key)]);
    try {
      return await fn();
    } finally {
      await client.query('select pg_advisory_unlock($1::bigint)', [advisoryLockKey(key)]).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The embedded database serves one process (its data directory is locked, data-dir-lock.ts), so a
 * lock within the process is the lock: callers of one key run one after the other.
 */
function processLock(): Database['withSessionLock'] {
  const tails = new Map<string, Promise<unknown>>();
  return async (key, fn) => {
    const before = tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = before.then(() => mine);
    tails.set(key, tail);
    await before;
    try {
      return await fn();
    } finally {
      release();
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

/** How long a process waits for another to finish migrating a schema (a data migration may take minutes). */
export const MIGRATION_LOCK_TIMEOUT_MS = 15 * 60_000;

type MigrationLock = <T>(schema: string, fn: () => Promise<T>) => Promise<T>;
const migrationLocks = new WeakMap<Knex, MigrationLock>();

/**
 * The lock under which `knex`'s database migrates `schema`: several processes starting at once (two
 * web processes and a worker) each migrate every schema, and knex's own migration lock makes the
 * second fail instead of wait. On PostgreSQL a session lock every process waits for; on the embedded
 * database (one process) a lock within the process. None for a knex opened elsewhere.
 */
export function migrationLockOf(knex: Knex): MigrationLock | undefined {
  return migrationLocks.get(knex);
}

/** A pooled connection lives at most this long; one that touched many tenant schemas caches their catalogs. */
const MAX_CONNECTION_AGE_MS = 30 * 60_000;

function quietLog(): Knex.Config['log'] {
  return {
    warn(message: string) {
      if (!String(message).includes('recycled')) logger.warn({ knex: message }, 'knex warning');
    },
    error: (message: string) => logger.error({ knex: message }, 'knex error'),
    deprecate: () => {},
    debug: () => {},
  };
}

export async function openPostgres(url: string, options: { poolMax?: number } = {}): Promise<Database> {
  const knex = knexFactory({
    client: tenantAwarePgClient,
    connection: { connectionString: url, application_name: 'ordo' },
    pool: {
      min: 0,
      max: options.poolMax ?? 10,
      idleTimeoutMillis: 30_000,
      afterCreate(conn: { __knex__disposed?: string }, done: (err: Error | null, conn: unknown) => void) {
        // tarn validates on acquire; knex refuses a connection marked disposed, so it is replaced.
        setTimeout(() => (conn.__knex__disposed = 'recycled after max age'), MAX_CONNECTION_AGE_MS).unref();
        done(null, conn);
      },
    },
    acquireConnectionTimeout: 30_000,
    log: quietLog(),
  });
  attachQueryCounter(knex);
  migrationLocks.set(knex, (schema, fn) => sessionLock(url, `migrate:${schema}`, fn, MIGRATION_LOCK_TIMEOUT_MS));
  const u = new URL(url);
  return {
    kind: 'postgres',
    scopedBegin: true,
    knex,
    describe: `PostgreSQL at ${u.hostname}:${u.port || 5432}${u.pathname}`,
    withSessionLock: (key, fn) => sessionLock(url, key, fn),
    close: () => knex.destroy(),
  };
}

export async function openPglite(dataDir: string): Promise<Database> {
  const dir = path.resolve(dataDir, 'pg');
  const release = lockDataDir(path.resolve(dataDir));
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    // Extensions the migrations create (migrations/control/0003-extensions) must be loaded here.
    const pglite = await PGlite.create(dir, { extensions: { pg_trgm } });
    const knex = knexFactory({
      client: 'pg',
      // PGlite is a single connection: the pool holds exactly one, and waiting for it needs room.
      connection: () => createPgConfig(pglite) as unknown as Knex.PgConnectionConfig,
      pool: { min: 1, max: 1, idleTimeoutMillis: 2_147_483_647 },
      acquireConnectionTimeout: 120_000,
      log: quietLog(),
    });
    attachQueryCounter(knex);
    const inProcess = processLock();
    migrationLocks.set(knex, (schema, fn) => inProcess(`migrate:${schema}`, fn));
    return {
      kind: 'pglite',
      scopedBegin: false,
      knex,
      describe: `embedded PGlite in ${dir}`,
      withSessionLock: processLock(),
      async close() {
        await knex.destroy();
        await pglite.close();
        release();
      },
    };
  } catch (e) {
    release();
    throw e;
  }
}

export async function openDatabase(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>): Promise<Database> {
  return config.DATABASE_URL ? openPostgres(config.DATABASE_URL) : openPglite(config.DATA_DIR);
}

/**
 * Waits for the database to answer, retrying with a clear message, so that a server started
 * before its database (compose, a reboot) comes up by itself; gives up after `attempts`.
 */
export async function waitForDatabase(db: Database, attempts = 30, delayMs = 2000): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      await db.knex.raw('select 1');
      return;
    } catch (e) {
      const reason = (e as Error).message;
      if (i >= attempts) {
        throw new Error(`The database (${db.describe}) is not reachable: ${reason}`);
      }
      logger.warn(
        { attempt: i, attempts, reason },
        `The database (${db.describe}) is not reachable yet; retrying in ${delayMs / 1000} s`,
      );
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
}
