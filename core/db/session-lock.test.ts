import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '~/tests/helpers/db';
import { advisoryLockKey, type Database } from './database';
import { openTransaction } from './transaction-guard';
import { withControl } from './with-tenant';

/*
 * The lock an ERP token refresh runs under (issue 31 item 6; decision 052), on both engines: one
 * holder of a name at a time, other names free meanwhile, released when the work fails, and no
 * transaction open while it is held (the holder calls the vendor). On PostgreSQL it is an advisory
 * lock that another connection sees — so another process waits for it too.
 */

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('[db] session lock', () => {
  it('runs holders of one name one after the other, and another name meanwhile', async () => {
    const events: string[] = [];
    const hold = (key: string, who: string, ms: number) =>
      db.withSessionLock(key, async () => {
        events.push(`${who} in`);
        await sleep(ms);
        events.push(`${who} out`);
        return who;
      });
    const first = hold('test:lock:one', 'a', 300);
    await sleep(50);
    const results = await Promise.all([first, hold('test:lock:one', 'b', 10), hold('test:lock:other', 'c', 10)]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(events.indexOf('b in')).toBeGreaterThan(events.indexOf('a out'));
    expect(events.indexOf('c out')).toBeLessThan(events.indexOf('a out'));
  });

  it('is released when the work fails, and holds no transaction open meanwhile', async () => {
    await expect(
      db.withSessionLock('test:lock:fail', async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    let inTransaction: unknown = 'unknown';
    await db.withSessionLock('test:lock:fail', async () => {
      inTransaction = openTransaction();
      // the holder may use the pool meanwhile (re-read and save the credentials)
      await withControl((trx) => trx.raw('select 1'));
    });
    expect(inTransaction).toBeUndefined();
  });

  // PGlite is one process's database: there is no other connection to see the lock (the set on
  // PGlite leaves this case out rather than counting it skipped)
  if (process.env.TEST_DATABASE_URL)
    it('on PostgreSQL, is an advisory lock another connection sees', async () => {
      const other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await other.connect();
      try {
        const key = advisoryLockKey('test:lock:seen');
        const tryLock = async () =>
          (await other.query<{ got: boolean }>('select pg_try_advisory_lock($1::bigint) as got', [key])).rows[0]!.got;
        await db.withSessionLock('test:lock:seen', async () => {
          expect(await tryLock()).toBe(false);
        });
        expect(await tryLock()).toBe(true);
        await other.query('select pg_advisory_unlock($1::bigint)', [key]);
      } finally {
        await other.end();
      }
    });
});
