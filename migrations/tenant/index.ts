import type { Migration } from '~/core/db/migrate';
import m0001 from './0001-identity';
import m0002 from './0002-identity-and-access';

/**
 * Migrations applied to every tenant schema, in order. App-module plugins add theirs after
 * these (see core/extension-points/registry), so every tenant schema has the same shape.
 */
export const tenantMigrations: readonly Migration[] = [m0001, m0002];
