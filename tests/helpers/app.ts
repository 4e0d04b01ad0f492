import fs from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseConfig, setConfig, type Config } from '~/core/config/env';
import type { Database } from '~/core/db/database';
import { loadRegistry } from '~/core/extension-points/registry';
import { provisionTenant } from '~/tenants/provision';
import { getTenantBySlug } from '~/tenants/registry';
import { withTenant } from '~/core/db/with-tenant';
import { ensureUser } from '~/core/users/create-user';
import { createApp } from '~/server/app';
import { setFileStore } from '~/core/files/store';
import { openTestDatabase, uniqueSlug } from './db';

export const PASSWORD = 'correct-horse-battery';

export interface TestTenant {
  slug: string;
  host: string;
  adminEmail: string;
  technicianEmail: string;
}

/** A tenant with an admin and a technician, both with PASSWORD. */
export async function createTestTenant(prefix: string): Promise<TestTenant> {
  const slug = uniqueSlug(prefix);
  const host = `${slug}.ordo.test`;
  const adminEmail = `admin@${slug}.se`;
  const technicianEmail = `tech@${slug}.se`;
  await provisionTenant({ slug, name: `${prefix} AB`, hosts: [host], adminEmail, adminPassword: PASSWORD });
  const tenant = await getTenantBySlug(slug);
  await withTenant(tenant!, async (trx) => {
    await ensureUser(trx, {
      email: technicianEmail,
      name: 'Tess Tekniker',
      password: PASSWORD,
      accessLevels: ['Technician'],
    });
    // Optional sign-in features are app modules (spec section 1); test tenants have them on.
    await trx.raw(
      `insert into app_modules (id, enabled) values ('mfa', true), ('microsoft_auth', true)
       on conflict (id) do update set enabled = true`,
    );
  });
  return { slug, host, adminEmail, technicianEmail };
}

export interface TestServer {
  config: Config;
  db: Database;
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** The Express app (host → tenant, API) on an ephemeral port, on the test database. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const config = setConfig(
    parseConfig({
      NODE_ENV: 'test',
      SECRET_KEY: process.env.SECRET_KEY,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-app-')),
      DEFAULT_TENANT: 'no-such-default',
      ...env,
    }),
  );
  // The test files of a worker share one module graph (vitest isolate: false), and the file store is
  // made once from the configuration of whoever asked first: this server's files go under its own
  // DATA_DIR, where its tests look for them.
  setFileStore(undefined);
  await loadRegistry({});
  const db = await openTestDatabase();
  const app = createApp({ config, queue: null });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // As the real server (server/app.ts): the test client keeps its sockets, and one closed by the
  // server after 5 idle seconds (a long setup between two calls) could be taken just as it closed
  // (ECONNRESET on the next call).
  server.keepAliveTimeout = 65_000;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    config,
    db,
    url: `http://127.0.0.1:${port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await db.close();
    },
  };
}
