/** The schema every test tenant is copied from (tests/global-setup.ts), and its name's stand-in in the script. */
export const TEMPLATE_SCHEMA = 't_tenant_template';
export const TEMPLATE_TOKEN = '__ordo_tenant_schema__';
