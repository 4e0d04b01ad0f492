import fs from 'node:fs';
import { setSchemaTemplate } from '~/core/db/migrate';
import { TEMPLATE_TOKEN } from './tenant-template';

// Every test file: a tenant schema with exactly the template's migrations is made from its script
// (core/db/migrate.ts `fromTemplate`); any other list of migrations runs them one by one as before.
const file = process.env.ORDO_TENANT_TEMPLATE_SQL;
if (file && fs.existsSync(file)) {
  const script = fs.readFileSync(file, 'utf8');
  const names = JSON.parse(process.env.ORDO_TENANT_TEMPLATE_NAMES ?? '[]') as string[];
  setSchemaTemplate({ names, sql: (schema) => script.replaceAll(TEMPLATE_TOKEN, schema) });
}
