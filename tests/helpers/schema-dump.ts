import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';

/**
 * A tenant schema as one SQL script (pg_dump, rows included) with the schema's name replaced by
 * `token`, to make copies of it under other names (tests/global-setup.ts for the unit tests' tenants,
 * tests/e2e/global-setup.ts for the browser tests' demo companies). Session settings would outlive
 * the script on a pooled connection: the script sets none; psql's meta-commands (pg_dump's
 * \restrict) are not SQL.
 */
export function dumpSchemaScript(url: string, schema: string, token: string): string {
  const dump = execFileSync(
    'pg_dump',
    [
      `--dbname=${url}`,
      `--schema=${schema}`,
      '--inserts',
      '--no-owner',
      '--no-privileges',
      '--no-comments',
      '--no-publications',
      '--no-subscriptions',
      '--no-security-labels',
      '--no-tablespaces',
    ],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  return dump
    .split('\n')
    .filter((line) => !/^(SET |SELECT pg_catalog\.set_config|--|\\)/.test(line))
    .join('\n')
    .replaceAll(schema, token);
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * The script for one copy named `schema`: every id in it replaced by a new one, the same id by the
 * same new one (references stay intact), as migrating and seeding again would give them. The same
 * id in two tenants would hide the "another tenant's id is not found" rule from the tests. Answers
 * the old-to-new map too, for what lives beside the rows (stored files named by id).
 */
export function copyOfSchemaScript(
  script: string,
  token: string,
  schema: string,
): { sql: string; ids: Map<string, string> } {
  const ids = new Map<string, string>();
  const sql = script.replaceAll(token, schema).replace(UUID, (id) => {
    let next = ids.get(id);
    if (!next) ids.set(id, (next = randomUUID()));
    return next;
  });
  return { sql, ids };
}
