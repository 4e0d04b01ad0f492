/**
 * knex's PostgreSQL client with one change: a transaction opened for a schema begins with
 * `BEGIN; select set_config('search_path', …, true), …` sent as ONE simple-protocol message, not
 * as two statements with a round trip each. On a loaded 2-core machine every round trip is a
 * wake-up of a database backend and of this process (issue 11: a signed-in request made four);
 * the settings are still transaction-local, so nothing leaks to the next user of the connection.
 */
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import { assertSchemaName, quoteIdent } from './identifiers';
import { countStatement } from './query-counter';

const require = createRequire(import.meta.url);
// knex's dialect classes are not part of its typed surface: the shapes used here are declared below.
type TransactionClass = new (
  client: unknown,
  container: unknown,
  config: unknown,
  outerTx: unknown,
) => {
  userParams?: { schema?: string };
  query(conn: unknown, sql: string): Promise<unknown>;
  begin(conn: unknown): Promise<unknown>;
};
type ClientClass = new (config: Knex.Config) => { transaction(...args: unknown[]): unknown };
const ClientPG = require('knex/lib/dialects/postgres/index.js') as ClientClass;
const TransactionPG = require('knex/lib/dialects/postgres/execution/pg-transaction.js') as TransactionClass;

/** The statement that opens a tenant's unit of work: its schema and the planner's cost of a page read. */
export function scopeSettings(schema: string): string {
  // A literal, not a bind parameter: a simple-protocol message carries none. The name is validated
  // (t_[a-z0-9_]+) and quoted; the quoted identifier is then a plain string literal.
  const ident = quoteIdent(assertSchemaName(schema)).replace(/'/g, "''");
  // random_page_cost: storage is SSD, where an index read costs about what a sequential one does;
  // with the default (4) the planner prefers scanning a 20,000-row register to its trigram index.
  // plan_cache_mode stays PostgreSQL's `auto` (decision 047): knex's parameterised statements are
  // unnamed, so each is planned for its values (forcing generic plans made the work-order list's
  // filters up to 7x slower); a named prepared statement (preparedInTenant) is planned for its
  // values five times per connection and generically from then on when that plan is no costlier.
  // jit off: a unit of work's statements run in milliseconds, and compiling one the planner costs
  // high (the dashboard's cards over 100,000 orders) took 8 s of LLVM for 0.3 s of execution.
  return `select set_config('search_path', '${ident}', true), set_config('random_page_cost', '1.1', true), set_config('jit', 'off', true)`;
}

/** `knex.transaction(fn, { tenantSchema })`: knex passes its config through to the transaction. */
export interface TenantTransactionConfig extends Knex.TransactionConfig {
  tenantSchema?: string;
}

class TenantTransaction extends TransactionPG {
  private tenantSchema: string | undefined;
  constructor(client: unknown, container: unknown, config: TenantTransactionConfig | undefined, outerTx: unknown) {
    // knex acquires the connection (an await) before it calls begin(), so this is set by then
    super(client, container, config, outerTx);
    this.tenantSchema = config?.tenantSchema;
  }
  begin(conn: unknown) {
    const schema = this.tenantSchema;
    return schema ? this.query(conn, `BEGIN; ${scopeSettings(schema)};`) : super.begin(conn);
  }
}

class TenantClient extends ClientPG {
  transaction(...args: unknown[]) {
    const [container, config, outerTx] = args;
    return new TenantTransaction(this, container, config as TenantTransactionConfig | undefined, outerTx);
  }
}

/** For `knexFactory({ client })` on PostgreSQL. */
export const tenantAwarePgClient = TenantClient as unknown as typeof Knex.Client;

/** `?` placeholders (knex's) as `$n` (PostgreSQL's), once per statement text. */
const numbered = new Map<string, string>();
function toNumbered(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    if (numbered.size > 1_000) numbered.clear();
    numbered.set(sql, text);
  }
  return text;
}

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a named prepared statement on a pooled connection (node-postgres prepares it on the
 * connection's first use of the name). Counted like every other statement.
 */
export async function preparedStatement<R>(
  db: { knex: Knex } | { knex: Knex.Transaction },
  name: string,
  sql: string,
  bindings: readonly unknown[],
): Promise<R[]> {
  const client = db.knex.client as unknown as {
    acquireConnection(): Promise<PgConnection>;
    releaseConnection(conn: PgConnection): Promise<void>;
  };
  if (name.length > 63) throw new Error(`A prepared statement's name is at most 63 bytes: ${name}`);
  const conn = await client.acquireConnection();
  try {
    countStatement();
    const result = await conn.query({ name, text: toNumbered(sql), values: [...bindings] });
    return result.rows as R[];
  } finally {
    await client.releaseConnection(conn);
  }
}
