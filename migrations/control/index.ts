import type { Migration } from '~/core/db/migrate';
import m0001 from './0001-tenant-registry';
import m0002 from './0002-embedded-jobs';
import m0003 from './0003-extensions';

/** The control schema's migrations, in order. Append; never edit one that has shipped. */
export const controlMigrations: readonly Migration[] = [m0001, m0002, m0003];
