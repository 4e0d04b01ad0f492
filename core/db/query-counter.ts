import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

/**
 * Counts SQL statements per request (the benchmark reports them; a request must run a bounded
 * number). The count lives in async-local storage, so concurrent requests never mix.
 */
const store = new AsyncLocalStorage<{ statements: number }>();

export function countQueries<T>(fn: () => T): { result: T; counter: { statements: number } } {
  const counter = { statements: 0 };
  return { result: store.run(counter, fn), counter };
}

export function withQueryCounter<T>(counter: { statements: number }, fn: () => T): T {
  return store.run(counter, fn);
}

/** One more statement for the request in progress (statements run outside knex call this). */
export function countStatement(): void {
  const c = store.getStore();
  if (c) c.statements++;
}

export function attachQueryCounter(knex: Knex): void {
  knex.on('query', countStatement);
}
