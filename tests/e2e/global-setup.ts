import { makeDataTemplate, TEMPLATE_ENV } from './app-server';

/**
 * Once per run: the demo company's data directory, made by a first start of the app, for each spec
 * file's app to start from (see startApp). Migrating and seeding took about half of every start.
 */
export default async function globalSetup() {
  const template = await makeDataTemplate();
  process.env[TEMPLATE_ENV] = template.dir;
  return () => template.remove();
}
