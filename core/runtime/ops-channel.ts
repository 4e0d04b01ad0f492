import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded database is one process's: while the server runs, the operators' CLI cannot open it.
 * For what an operator must read then (the mail outbox: sign-in links when no relay is set), the
 * server leaves `ordo.server.json` in DATA_DIR (0600: the owner of the data directory only) with
 * its port and a random token, and answers `GET /_ops/...` from the loopback address with that
 * token. The file goes when the server stops.
 */
export const OPS_FILE = 'ordo.server.json';

export interface OpsChannel {
  pid: number;
  port: number;
  token: string;
}

export const newOpsToken = () => randomBytes(32).toString('base64url');

export function openOpsChannel(dataDir: string, port: number, token: string): () => void {
  const file = path.join(dataDir, OPS_FILE);
  const channel: OpsChannel = { pid: process.pid, port, token };
  fs.writeFileSync(file, JSON.stringify(channel), { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    try {
      const now = JSON.parse(fs.readFileSync(file, 'utf8')) as OpsChannel;
      if (now.pid === process.pid) fs.unlinkSync(file);
    } catch {
      /* already gone */
    }
  };
  process.once('exit', close);
  return close;
}

export function readOpsChannel(dataDir: string): OpsChannel | null {
  try {
    const c = JSON.parse(fs.readFileSync(path.join(dataDir, OPS_FILE), 'utf8')) as OpsChannel;
    return typeof c.port === 'number' && typeof c.token === 'string' ? c : null;
  } catch {
    return null;
  }
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Whether a request may use the channel: from this machine, with the token. */
export function opsAllowed(token: string, remoteAddress: string | undefined, authorization: string | undefined) {
  if (!remoteAddress || !LOOPBACK.has(remoteAddress)) return false;
  const given = Buffer.from(/^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}
