import { AsyncLocalStorage } from 'node:async_hooks';
import { logger } from '~/core/log/logger';

/*
 * A unit of work does database work only (issue 30 item 1; decision 049). Printing a document,
 * sending mail, calling another server or the file store while a transaction is open holds a
 * database connection (and often a lock: the invoice-number counter) for as long as the slow
 * thing takes, and what the outside world was told cannot be rolled back with the transaction.
 *
 * Every transaction `withTenant`/`withControl` open runs inside this storage; the browser, the
 * mailer, outbound HTTP and the file store call `assertOutsideTransaction` first. Under the tests
 * (ORDO_TRANSACTION_GUARD=strict: vitest.config.ts, the browser tests' app) it throws, so a test
 * that reaches such a call inside a transaction fails; in production it logs an error with the
 * stack and goes on, so a path the tests missed is found in the logs rather than by a customer.
 */

interface OpenTransaction {
  /** What opened it: the schema, for the log line. */
  schema: string;
  /** Set once it committed or rolled back: a promise started inside and still running is outside now. */
  ended: boolean;
}

// On globalThis, as the database is (with-tenant.ts): app-module plugins bring their own copy of
// core, and their ERP calls must see the transactions the server bundle opened.
const OPEN = Symbol.for('ordo.openTransaction');
const holder = globalThis as { [OPEN]?: AsyncLocalStorage<OpenTransaction> };
const open = (holder[OPEN] ??= new AsyncLocalStorage<OpenTransaction>());

/** Runs `fn` as the body of a transaction: everything it awaits counts as inside. */
export async function insideTransaction<T>(schema: string, fn: () => Promise<T>): Promise<T> {
  const tx: OpenTransaction = { schema, ended: false };
  try {
    return await open.run(tx, fn);
  } finally {
    tx.ended = true;
  }
}

/** Runs `fn` as outside any transaction (what runs after a commit, though started from inside). */
export function outsideTransaction<T>(fn: () => T): T {
  return open.exit(fn);
}

/** The open transaction this code runs in, if any. */
export function openTransaction(): OpenTransaction | undefined {
  const tx = open.getStore();
  return tx && !tx.ended ? tx : undefined;
}

export class TransactionOpenError extends Error {
  constructor(what: string, schema: string) {
    super(`${what} while a transaction is open (schema ${schema}): do it after commit (decision 049)`);
    this.name = 'TransactionOpenError';
  }
}

function strict(): boolean {
  return process.env.ORDO_TRANSACTION_GUARD === 'strict';
}

/** Called first by what must never run inside a transaction: `what` names it ("SMTP send"). */
export function assertOutsideTransaction(what: string): void {
  const tx = openTransaction();
  if (!tx) return;
  const error = new TransactionOpenError(what, tx.schema);
  if (strict()) throw error;
  logger.error({ err: error }, 'slow or outside work inside a transaction');
}

/**
 * Outbound HTTP of any kind (an ERP, a sign-in provider, a logo) goes through the global fetch:
 * it checks first too. Installed once per process, when this module is first loaded.
 */
const FETCH_GUARDED = Symbol.for('ordo.fetchGuarded');
const globals = globalThis as { [FETCH_GUARDED]?: boolean; fetch: typeof fetch };
if (!globals[FETCH_GUARDED] && typeof globals.fetch === 'function') {
  globals[FETCH_GUARDED] = true;
  const unguarded = globals.fetch;
  globals.fetch = function guardedFetch(...args: Parameters<typeof fetch>) {
    // fetch answers with a promise, a refusal too
    try {
      assertOutsideTransaction('an outbound HTTP request');
    } catch (err) {
      return Promise.reject(err as Error);
    }
    return unguarded(...args);
  };
}
