import type { Config } from '~/core/config/env';
import { openDatabase, waitForDatabase, type Database } from '~/core/db/database';
import { CONTROL_SCHEMA } from '~/core/db/identifiers';
import { migrateSchema } from '~/core/db/migrate';
import { setDatabase } from '~/core/db/with-tenant';
import { loadRegistry, PLUGINS_DIR, type ModuleImporter, type Registry } from '~/core/extension-points/registry';
import { logger } from '~/core/log/logger';
import { controlMigrations } from '~/migrations/control';
import { closeRedis } from '~/core/redis/client';
import { closeBrowser } from '~/core/documents/pdf';
import { shareErpRateLimits } from '~/core/invoicing/erp-rate-limit';

export interface Runtime {
  config: Config;
  db: Database;
  registry: Registry;
  close(): Promise<void>;
}

/**
 * What every entry point (server, worker, CLI) needs first: the database (waiting for it when it
 * is not up yet), the control schema up to date, and the plugins loaded with valid options.
 */
export async function openRuntime(
  config: Config,
  options: { waitAttempts?: number; importModule?: ModuleImporter } = {},
): Promise<Runtime> {
  const registry = await loadRegistry(config.PLUGIN_OPTIONS, PLUGINS_DIR, options.importModule);
  const db = await openDatabase(config);
  try {
    await waitForDatabase(db, options.waitAttempts ?? 30);
    setDatabase(db);
    await migrateSchema(db.knex, CONTROL_SCHEMA, controlMigrations);
  } catch (e) {
    await db.close().catch(() => {});
    throw e;
  }
  logger.debug({ database: db.describe }, 'database ready');
  // several processes share the vendors' limits through Redis; without it, each keeps its own
  shareErpRateLimits(config.REDIS_URL);
  return {
    config,
    db,
    registry,
    async close() {
      setDatabase(undefined);
      shareErpRateLimits(undefined);
      await closeBrowser();
      await closeRedis();
      await db.close();
    },
  };
}

/** Runs `fn` over items with at most `limit` at a time (migrating many tenants). */
export async function eachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(workers);
}
