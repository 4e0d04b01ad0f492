/**
 * Issue 13's performance: opening, saving and listing proposals and sales orders runs a bounded
 * number of SQL statements, the same for a proposal of 3 rows as for one of 30 (never one per
 * row). API calls are counted by the server's X-Sql-Statements header (as the bench reports
 * them); the page loaders and the proposal screen's save action by core/db/query-counter around
 * the route module's function, as the server counts a page request.
 */
import { RouterContextProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContext, requestContext, tenantContext } from '~/app/context';
import { i18nextMiddleware } from '~/app/middleware/i18n.server';
import { action as proposalAction, loader as proposalLoader } from '~/app/routes/proposals.$id';
import { loader as proposalListLoader } from '~/app/routes/proposals';
import { loader as salesOrderLoader } from '~/app/routes/sales.$id';
import { validateSession } from '~/core/auth/session.service';
import { countQueries } from '~/core/db/query-counter';
import { withTenant } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { sessionPolicy } from '~/core/unit-of-work';
import { getTenantBySlug } from '~/tenants/registry';
import { createTestTenant, startTestServer, type TestServer, type TestTenant } from '~/tests/helpers/app';
import { testApi } from '~/tests/helpers/api';

let srv: TestServer;
let a: TestTenant;
let tenantA: Tenant;
let token: string;
const articles: string[] = [];
let customer: string;
let bo: string;

const { signIn, call } = testApi(() => ({ url: srv.url, host: a.host }));

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** An API call that must answer 200: its body and its statements. */
async function counted(method: string, path: string, body?: unknown): Promise<{ json: Json; statements: number }> {
  const res = await call(method, path, token, body);
  expect(res.status, `${method} ${path}: ${res.text}`).toBe(200);
  const statements = Number(res.headers['x-sql-statements']);
  expect(statements, `${method} ${path}`).toBeGreaterThan(0);
  return { json: res.json() as Json, statements };
}

/** A route module's loader or action as the server runs it (tenant, session, language), with its statements. */
async function route(
  fn: (args: never) => Promise<unknown>,
  url: string,
  params: Record<string, string>,
  body?: unknown,
): Promise<{ answer: unknown; statements: number }> {
  const auth = await withTenant(tenantA, (trx) => validateSession(trx, token, new Date(), sessionPolicy()));
  const context = new RouterContextProvider();
  context.set(tenantContext, tenantA);
  context.set(authContext, auth);
  context.set(requestContext, { ip: null, requestId: 'test', token });
  const full = `http://${a.host}${url}`;
  const request = new Request(
    full,
    body === undefined
      ? undefined
      : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
  );
  let answer: unknown;
  const { result, counter } = countQueries(() =>
    i18nextMiddleware({ request, context, params, url: new URL(full), pattern: '' } as never, async () => {
      answer = await fn({ request, context, params } as never);
      return new Response(null);
    }),
  );
  await result;
  expect(counter.statements, url).toBeGreaterThan(0);
  return { answer, statements: counter.statements };
}

/** `n` rows as the screen sends them: articles (some new to the proposal, unpriced), comments and summaries. */
function rows(n: number, stored: Json[] = []): Json[] {
  return Array.from({ length: n }, (_, i) => {
    const id = stored[i]?.id as string | undefined;
    if (i % 10 === 4) return { id, comment: `Kommentar ${i}` };
    if (i % 10 === 9) return { id, isSummaryRow: true };
    return {
      id,
      articleId: articles[i % articles.length],
      articleAmount: String(1 + (i % 3)),
      // every third row typed, the rest priced for the customer (one statement for all of them)
      ...(i % 3 === 0 ? { articlePrice: '100' } : {}),
      ...(i % 4 === 0 ? { articleDiscountType: 'percentage', articleDiscountValue: '5' } : {}),
    };
  });
}

interface Figures {
  create: number;
  firstSave: number;
  open: number;
  loader: number;
  save: number;
  actionSave: number;
  list: number;
  listLoader: number;
  salesOrderCreate: number;
  salesOrderFirstSave: number;
  salesOrderOpen: number;
  salesOrderLoader: number;
  salesOrderSave: number;
}

/** Every counted operation for a proposal and a sales order of `n` rows. */
async function figures(n: number): Promise<Figures> {
  const f = {} as Figures;
  // a fresh session, warmed: its once-a-minute touch and the access levels' first read are not the rows'
  token = await signIn(a, a.adminEmail);
  await counted('GET', '/api/keepalive');
  const made = await counted('POST', '/api/proposals', { customerId: customer });
  f.create = made.statements;
  const id = made.json.id as string;
  let p = (await counted('GET', `/api/proposals/${id}`)).json;
  const first = await counted('PUT', '/api/proposals', {
    proposal: { ...p, title: `Offert ${n} rader`, businessObjectId: bo, tags: ['Larm'], rows: rows(n) },
  });
  f.firstSave = first.statements;
  expect(first.json.rows).toHaveLength(n);

  const opened = await counted('GET', `/api/proposals/${id}`);
  f.open = opened.statements;
  p = opened.json;
  expect(p.rows).toHaveLength(n);
  const loaded = await route(proposalLoader, `/proposals/${id}`, { id });
  f.loader = loaded.statements;
  expect((loaded.answer as { proposal: Json }).proposal.rows).toHaveLength(n);

  // the screen's autosave: the stored rows (by id) with one changed and the order kept
  const again = rows(n, p.rows as Json[]);
  const saved = await counted('PUT', '/api/proposals', { proposal: { ...p, title: `Offert ${n}`, rows: again } });
  f.save = saved.statements;
  expect(saved.json.rows).toHaveLength(n);
  p = saved.json;
  const viaAction = await route(
    proposalAction,
    `/proposals/${id}`,
    { id },
    {
      intent: 'save',
      proposal: { ...p, title: `Offert ${n} (sidan)`, rows: rows(n, p.rows as Json[]) },
    },
  );
  f.actionSave = viaAction.statements;
  const actionBody = (viaAction.answer as { data: Json }).data;
  expect(actionBody, JSON.stringify(actionBody)).toMatchObject({ ok: true, intent: 'save' });
  expect(actionBody.proposal.rows).toHaveLength(n);

  const list = await counted('GET', `/api/proposals?limit=${n}`);
  f.list = list.statements;
  expect(list.json.proposals).toHaveLength(n);
  const page = await route(proposalListLoader, `/proposals?limit=${n}`, {});
  f.listLoader = page.statements;

  const so = await counted('POST', '/api/salesorders', { customerId: customer, title: `Order ${n}` });
  f.salesOrderCreate = so.statements;
  const soFirst = await counted('PUT', '/api/salesorders', {
    salesOrder: { id: so.json.id, version: so.json.version, rows: rows(n) },
  });
  f.salesOrderFirstSave = soFirst.statements;
  const soOpened = await counted('GET', `/api/salesorders/${so.json.id}`);
  f.salesOrderOpen = soOpened.statements;
  expect(soOpened.json.rows).toHaveLength(n);
  const soLoaded = await route(salesOrderLoader, `/sales/${so.json.id}`, { id: so.json.id as string });
  f.salesOrderLoader = soLoaded.statements;
  expect((soLoaded.answer as { salesOrder: Json }).salesOrder.rows).toHaveLength(n);
  const soSaved = await counted('PUT', '/api/salesorders', {
    salesOrder: {
      id: so.json.id,
      version: soOpened.json.version,
      title: `Order ${n} ändrad`,
      rows: rows(n, soOpened.json.rows as Json[]),
    },
  });
  f.salesOrderSave = soSaved.statements;
  expect(soSaved.json.rows).toHaveLength(n);
  return f;
}

beforeAll(async () => {
  srv = await startTestServer();
  a = await createTestTenant('prop-sql');
  tenantA = (await getTenantBySlug(a.slug))!;
  await withTenant(tenantA, async (trx) => {
    const [c] = await trx('customers').insert({ customer_id: '4001', name: 'Brf Linden' }).returning('id');
    customer = c.id;
    const [o] = await trx('business_objects').insert({ serial_code: 'SQL-1', customer_id: customer }).returning('id');
    bo = o.id;
    const made = await trx('articles')
      .insert(
        Array.from({ length: 12 }, (_, i) => ({
          article_id: `90${String(i).padStart(2, '0')}`,
          title: `Artikel ${i}`,
          unit: 'st',
          price: 100 + i * 10,
          purchase_price: 50 + i,
        })),
      )
      .returning('id');
    articles.push(...made.map((r: { id: string }) => r.id));
    await trx('tags').insert({ name: 'Larm' });
    await trx('customer_articles').insert({ customer_id: customer, article_id: articles[1], price: '77.00' });
    await trx('proposal_settings').update({ monthly_price: true });
    // 40 more proposals of 3 and 30 rows, so a list page of 3 and one of 30 are both full
    await trx.raw(
      `insert into proposals (sequence_number, title, customer_id, total_price)
       select 10000 + n, 'Lista ' || n, ?, n * 100 from generate_series(1, 40) n`,
      [customer],
    );
    await trx.raw(
      `insert into proposal_rows (proposal_id, sort_order, article_id, article_title, amount, price, total_price)
       select p.id, k, ?, 'Artikel', 1, 100, 100
       from proposals p, generate_series(1, 30) k
       where p.sequence_number > 10000 and (k <= 3 or p.sequence_number % 2 = 0)`,
      [articles[0]],
    );
  });
}, 120_000);
afterAll(() => srv?.close());

describe('[proposals] statements per request', () => {
  it('are the same for 3 rows as for 30: open (API and page), save (API and page), list, and a sales order', async () => {
    const three = await figures(3);
    const thirty = await figures(30);
    console.log(JSON.stringify({ three, thirty })); // the counts, for the record
    expect(thirty).toEqual(three);
  });
});
