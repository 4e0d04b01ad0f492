import fs from 'node:fs';
import { setSchemaTemplate } from '~/core/db/migrate';
import { copyOfSchemaScript } from './helpers/schema-dump';
import { TEMPLATE_TOKEN } from './tenant-template';

// Every test file: a tenant schema with exactly the template's migrations is made from its script
// (core/db/migrate.ts `fromTemplate`); any other list of migrations runs them one by one as before.
// The rows the migrations wrote get ids of their own in each copy, as migrating would give them:
// the same id in two tenants would hide the "another tenant's id is not found" rule from the tests.
// (No migration writes a fixed id, so every id in the script was generated.)
const file = process.env.ORDO_TENANT_TEMPLATE_SQL;
if (file && fs.existsSync(file)) {
  const script = fs.readFileSync(file, 'utf8');
  const names = JSON.parse(process.env.ORDO_TENANT_TEMPLATE_NAMES ?? '[]') as string[];
  setSchemaTemplate({
    names,
    sql: (schema) => copyOfSchemaScript(script, TEMPLATE_TOKEN, schema).sql,
  });
}
