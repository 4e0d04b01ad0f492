import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '~/core/db/database';
import { htmlToPdf } from '~/core/documents/pdf';
import { LocalFileStore } from '~/core/files/local-store';
import { getFileStore, setFileStore } from '~/core/files/store';
import { SmtpMailer } from '~/core/mail/mailer';
import { openTestDatabase } from '~/tests/helpers/db';
import { TransactionOpenError, openTransaction } from './transaction-guard';
import { afterCommit, afterCommitSettled, thenAfterCommit, withControl } from './with-tenant';

/*
 * Issue 30 item 1 (decision 049): a unit of work does database work only. Under the tests the guard
 * is strict (vitest.config.ts), so a browser, SMTP, outbound HTTP or file-store call made while a
 * transaction is open fails; the same call after commit (thenAfterCommit, afterCommit) goes through.
 */

let db: Database;
let server: Server;
let url: string;
let dir: string;

beforeAll(async () => {
  db = await openTestDatabase();
  server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-guard-'));
  setFileStore(new LocalFileStore(dir));
});

afterAll(async () => {
  setFileStore(undefined);
  await new Promise((resolve) => server.close(resolve));
  await db?.knex.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const refused = { name: 'TransactionOpenError' };

describe('the transaction guard', () => {
  it('is strict under the tests', () => {
    expect(process.env.ORDO_TRANSACTION_GUARD).toBe('strict');
  });

  it('refuses a PDF, an SMTP send, outbound HTTP and every file-store call while a transaction is open', async () => {
    const seen = await withControl(async () => {
      expect(openTransaction()?.schema).toBe('control');
      const outcomes = await Promise.allSettled([
        (async () => htmlToPdf('<p>x</p>'))(),
        (async () =>
          new SmtpMailer('smtp://127.0.0.1:1', 'x@ordo.test').send({ to: ['a@b.se'], subject: 's', text: 't' }))(),
        fetch(url),
        (async () => getFileStore().put('t/a', Readable.from(['x'])))(),
        (async () => getFileStore().get('t/a'))(),
        (async () => getFileStore().stat('t/a'))(),
        (async () => getFileStore().delete('t/a'))(),
        (async () => getFileStore().list('t'))(),
      ]);
      return outcomes.map((o) => (o.status === 'rejected' ? (o.reason as Error) : null));
    });
    expect(seen).toHaveLength(8);
    for (const error of seen) {
      expect(error).toBeInstanceOf(TransactionOpenError);
      expect(error).toMatchObject(refused);
    }
    expect(seen.map((e) => /while a transaction is open/.test(String(e?.message)))).toEqual(Array(8).fill(true));
  });

  it('lets the same calls through once the transaction committed: after-commit work, afterCommit, and after the await', async () => {
    const body = await withControl(async () => thenAfterCommit(async () => (await fetch(url)).text()));
    expect(body).toBe('ok');
    let stored: number | null = null;
    await withControl(async (trx) => {
      afterCommit(trx, async () => {
        await getFileStore().put('t/b', Readable.from(['bytes']));
        stored = (await getFileStore().stat('t/b'))?.size ?? null;
      });
    });
    await afterCommitSettled();
    expect(stored).toBe(5);
    expect(openTransaction()).toBeUndefined();
    expect(await (await fetch(url)).text()).toBe('ok');
  });

  it('never runs after-commit work of a transaction that rolled back', async () => {
    let ran = false;
    await expect(
      withControl(async (trx) => {
        afterCommit(trx, () => {
          ran = true;
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await afterCommitSettled();
    expect(ran).toBe(false);
  });
});
