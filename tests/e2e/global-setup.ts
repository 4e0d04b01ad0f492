import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { dumpSchemaScript } from '../helpers/schema-dump';
import {
  makeDataTemplate,
  SHARED_ENV,
  sharedAppEnv,
  startSharedSetupApp,
  TEMPLATE_ENV,
  type SharedSetup,
} from './app-server';

/** The demo company's schema (tenants/demo.ts) and the stand-in for its name in the script. */
const DEMO_SCHEMA = 't_demo';
const DEMO_TOKEN = '__ordo_e2e_demo_schema__';
/**
 * The Redis database the browser tests' apps use: their queues apart from the unit tests' (0), and
 * apart from another checkout's run on the same machine (another test database: one of 1-15 by its
 * name). Two runs on one Redis database share one queue, and one run's apps took the other's jobs
 * (an agreement run that another run's app "ran" on its own database stayed queued).
 */
function redisDbFor(database: string): number {
  let hash = 0;
  for (const c of database) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return 1 + (hash % 15);
}

/**
 * Once per run: the demo company's data directory, made by a first start of the app, for each spec
 * file with an app of its own to start from (see startApp). Migrating and seeding took about half
 * of every start.
 *
 * With PostgreSQL (TEST_DATABASE_URL; E2E_SHARED_APPS=0 turns it off), also what the apps the workers share run on (issue 30 item 7):
 * a database of their own (`<database>_e2e`, made anew), a Redis database of their own (emptied), one key and one
 * data directory; the app started there once with the demo company, which is then dumped as the
 * script each spec file's demo company is copied from.
 */
export default async function globalSetup() {
  const started = Date.now();
  const removals: (() => void)[] = [];
  const [template] = await Promise.all([makeDataTemplate(), prepareShared(removals)]);
  removals.push(template.remove);
  process.env[TEMPLATE_ENV] = template.dir;
  console.log(`  browser tests: set up in ${Math.round((Date.now() - started) / 100) / 10} s`);
  return () => removals.forEach((remove) => remove());
}

async function prepareShared(removals: (() => void)[]): Promise<void> {
  const testUrl = process.env.TEST_DATABASE_URL;
  // E2E_SHARED_APPS=0: every spec file starts an app of its own on PGlite, as before (decision 048)
  if (!testUrl || process.env.E2E_SHARED_APPS === '0') return;
  const url = new URL(testUrl);
  const database = `${url.pathname.slice(1) || 'test'}_e2e`;
  const admin = new pg.Client({ connectionString: testUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${database}" with (force)`);
    await admin.query(`create database "${database}"`);
  } finally {
    await admin.end();
  }
  const databaseUrl = Object.assign(new URL(testUrl), { pathname: `/${database}` }).toString();
  const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  redis.pathname = `/${redisDbFor(database)}`;
  const redisUrl = redis.toString();
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    await client.flushdb();
  } finally {
    client.disconnect();
  }
  const secretKey = randomBytes(32).toString('base64url');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordo-e2e-shared-'));
  removals.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  // the demo company, made as a production server with DEMO=1 makes it
  const env = sharedAppEnv({ databaseUrl, redisUrl, secretKey });
  await startSharedSetupApp(dataDir, { ...env, DEMO: '1' });

  // beside the data directory, not in it: the apps own that
  const demoScriptFile = `${dataDir}.sql`;
  fs.writeFileSync(demoScriptFile, dumpSchemaScript(databaseUrl, DEMO_SCHEMA, DEMO_TOKEN));
  removals.push(() => fs.rmSync(demoScriptFile, { force: true }));
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  let demoTenant: SharedSetup['demoTenant'];
  try {
    const { rows } = await db.query(`select display_name, config from control.tenants where schema_name = $1`, [
      DEMO_SCHEMA,
    ]);
    demoTenant = rows[0];
  } finally {
    await db.end();
  }
  const shared: SharedSetup = {
    databaseUrl,
    redisUrl,
    secretKey,
    dataDir,
    demoScriptFile,
    demoToken: DEMO_TOKEN,
    demoSchema: DEMO_SCHEMA,
    demoTenant,
  };
  process.env[SHARED_ENV] = JSON.stringify(shared);
}
