import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErpFakeControl } from '~/tests/erp-contract/erp-contract';

/*
 * TEMPLATE: a local fake of the Acme Books API on a node:http port, for the shared ERP contract
 * suite (contract.test.ts). Replace it with a fake of your vendor built from its published
 * documentation: field names, wrappers, error bodies, status codes, search and paging exactly as
 * documented, and the validation the vendor does, so a mapping mistake fails here and not at a
 * tenant. List your sources here, and mark what you had to guess (docs/plugins/erp.md, "A fake of
 * the vendor"; tests/fakes/fortnox.ts is the full example).
 *
 * Acme Books' documentation (fictional; a real fake quotes its vendor's pages here):
 * - Authentication: every request carries `X-Api-Key: <key>`; a missing or unknown key is
 *   401 {"error": {"message": "Invalid API key"}}. Keys do not expire.
 * - Rate limit: 60 requests per rolling minute per API key, counted when a request arrives; beyond
 *   it 429 with `Retry-After` in seconds.
 * - Errors: {"error": {"message": "…"}} with 400 (invalid body), 401, 404, 409 (a number in use),
 *   429, 5xx. Unknown fields in a body are refused with 400.
 * - Lists: {"data": [...], "page": 1, "totalPages": 1}; `page` (from 1) and `pageSize` (1–100,
 *   default 50). Filters match exactly: /customers?number=, /items?number=, /invoices?externalRef=.
 * - GET /company → {"name", "orgNumber"}.
 * - Customer: {id, number, name, type: company|person, orgNumber, vatNumber, email, phone,
 *   address: {street, postalCode, city}, paymentTermsDays}; number and name required, number unique.
 * - Item: {id, number, name, unit, price, vatRate: 0|6|12|25, type: service|goods, salesAccount};
 *   number and name required, number unique; amounts are decimal strings ("200.00").
 * - Invoice (POST /invoices): {externalRef (≤ 100, optional), customerId, invoiceDate, dueDate,
 *   deliveryDate, currency: SEK|EUR, reverseCharge, ourReference, yourReference, orderNumber, ocr,
 *   notes, lines: [{itemId, description, quantity, unit, unitPrice, discountPercent, discountAmount,
 *   vatRate, account}]}. A line with only a description is a text line; a priced line without
 *   itemId is a free line. Answer 201 with the invoice, its `id`, its `number` and its totals.
 */

type Json = Record<string, unknown>;

export interface AcmeBooksFake extends ErpFakeControl {
  /** http://127.0.0.1:PORT, the plugin's apiBaseUrl. */
  url: string;
  /** The one API key the fake accepts. */
  apiKey: string;
}

export interface AcmeBooksFakeOptions {
  apiKey?: string;
  /** The limit per API key; Acme Books' is 60 requests per 60 s. */
  rateLimit?: { requests: number; perMs: number };
}

class Refusal {
  constructor(
    readonly status: number,
    readonly message: string,
  ) {}
}
function refuse(message: string, status = 400): never {
  throw new Refusal(status, message);
}

const CUSTOMER_FIELDS = new Set([
  'number',
  'name',
  'type',
  'orgNumber',
  'vatNumber',
  'email',
  'phone',
  'address',
  'paymentTermsDays',
]);
const ADDRESS_FIELDS = new Set(['street', 'postalCode', 'city']);
const ITEM_FIELDS = new Set(['number', 'name', 'unit', 'price', 'vatRate', 'type', 'salesAccount']);
const INVOICE_FIELDS = new Set([
  'externalRef',
  'customerId',
  'invoiceDate',
  'dueDate',
  'deliveryDate',
  'currency',
  'reverseCharge',
  'ourReference',
  'yourReference',
  'orderNumber',
  'ocr',
  'notes',
  'lines',
]);
const LINE_FIELDS = new Set([
  'itemId',
  'description',
  'quantity',
  'unit',
  'unitPrice',
  'discountPercent',
  'discountAmount',
  'vatRate',
  'account',
]);
const VAT_RATES = [0, 6, 12, 25];
const DECIMAL = /^-?\d+(\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function onlyFields(record: Json, allowed: Set<string>, what: string) {
  for (const key of Object.keys(record)) if (!allowed.has(key)) refuse(`Unknown field "${key}" in ${what}`);
}
function text(record: Json, field: string, what: string, required = false, max = 250): string | null {
  const v = record[field];
  if (v === undefined) return required ? refuse(`${what}.${field} is required`) : null;
  if (typeof v !== 'string') refuse(`${what}.${field} must be a string`);
  if (required && !v.trim()) refuse(`${what}.${field} is required`);
  if (v.length > max) refuse(`${what}.${field} is longer than ${max} characters`);
  return v;
}
function decimal(record: Json, field: string, what: string, required = false): number | null {
  const v = record[field];
  if (v === undefined) return required ? refuse(`${what}.${field} is required`) : null;
  if (typeof v !== 'string' || !DECIMAL.test(v)) refuse(`${what}.${field} must be a decimal string such as "12.50"`);
  return Number(v);
}
function vatRate(record: Json, what: string): number {
  const v = record.vatRate;
  if (typeof v !== 'number' || !VAT_RATES.includes(v)) refuse(`${what}.vatRate must be one of 0, 6, 12, 25`);
  return v;
}
const ore = (amount: number) => Math.round(amount * 100);
const money = (oreAmount: number) => (oreAmount / 100).toFixed(2);

export async function startAcmeBooksFake(options: AcmeBooksFakeOptions = {}): Promise<AcmeBooksFake> {
  const apiKey = options.apiKey ?? `acme_${randomBytes(16).toString('hex')}`;
  const limit = options.rateLimit ?? { requests: 60, perMs: 60_000 };
  const company = { name: 'Acme Books Demo AB', orgNumber: '559999-0001' };

  const customers = new Map<string, Json>();
  const items = new Map<string, Json>();
  const invoices = new Map<string, Json>();
  let nextInvoiceNumber = 10001;

  let pendingFailure: { status: number; retryAfterSeconds?: number } | null = null;
  let dropNextCreate = false;
  let requests = 0;
  let rateLimited = 0;
  const windows = new Map<string, number[]>();

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: `fake Acme Books failed: ${(err as Error).message}` } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    // The vendor counts a request when it arrives, before its body is read.
    const arrived = Date.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    requests += 1;

    if (pendingFailure) {
      const failure = pendingFailure;
      pendingFailure = null;
      const headers: Record<string, string> =
        failure.status === 429 ? { 'retry-after': String(failure.retryAfterSeconds ?? 1) } : {};
      return send(res, failure.status, { error: { message: `Injected ${failure.status}` } }, headers);
    }

    const key = req.headers['x-api-key'];
    if (key !== apiKey) return send(res, 401, { error: { message: 'Invalid API key' } });

    const starts = (windows.get(apiKey) ?? []).filter((t) => arrived - t < limit.perMs);
    if (starts.length >= limit.requests) {
      windows.set(apiKey, starts);
      rateLimited += 1;
      const waitMs = starts[0]! + limit.perMs - arrived;
      return send(
        res,
        429,
        { error: { message: 'Rate limit exceeded' } },
        { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) },
      );
    }
    starts.push(arrived);
    windows.set(apiKey, starts);

    let body: Json = {};
    if (raw.trim()) {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) refuse('The body must be a JSON object');
        body = parsed as Json;
      } catch (err) {
        if (err instanceof Refusal) return send(res, err.status, { error: { message: err.message } });
        return send(res, 400, { error: { message: 'The body is not valid JSON' } });
      }
    }
    try {
      const u = new URL(req.url ?? '/', url);
      const answer = route(req.method ?? 'GET', u.pathname.replace(/\/+$/, '') || '/', u.searchParams, body);
      if (answer === 'drop') {
        // Stored, and the answer lost on the way (a crash, a cut connection).
        res.socket?.destroy();
        return;
      }
      send(res, answer.status, answer.body);
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      send(res, err.status, { error: { message: err.message } });
    }
  }

  type Answer = { status: number; body: unknown } | 'drop';

  function list(records: Json[], query: URLSearchParams, filters: string[]): Answer {
    let found = records;
    for (const field of filters) {
      const value = query.get(field);
      if (value !== null) found = found.filter((r) => String(r[field] ?? '') === value);
    }
    const page = query.has('page') ? Number(query.get('page')) : 1;
    const size = query.has('pageSize') ? Number(query.get('pageSize')) : 50;
    if (!Number.isInteger(page) || page < 1) refuse('page must be a whole number from 1');
    if (!Number.isInteger(size) || size < 1 || size > 100) refuse('pageSize must be between 1 and 100');
    const totalPages = Math.max(1, Math.ceil(found.length / size));
    return { status: 200, body: { data: found.slice((page - 1) * size, page * size), page, totalPages } };
  }

  function route(method: string, path: string, query: URLSearchParams, body: Json): Answer {
    const [resource, id, ...rest] = path.split('/').slice(1).map(decodeURIComponent);
    if (rest.length) refuse('Not found', 404);
    if (method === 'GET' && resource === 'company' && !id) return { status: 200, body: company };
    if (resource === 'customers' && !id) {
      if (method === 'GET') return list([...customers.values()], query, ['number']);
      if (method === 'POST') return { status: 201, body: createCustomer(body) };
    }
    if (resource === 'items' && !id) {
      if (method === 'GET') return list([...items.values()], query, ['number']);
      if (method === 'POST') return { status: 201, body: createItem(body) };
    }
    if (resource === 'invoices' && !id) {
      if (method === 'GET') return list([...invoices.values()], query, ['externalRef']);
      if (method === 'POST') {
        const invoice = createInvoice(body);
        if (dropNextCreate) {
          dropNextCreate = false;
          return 'drop';
        }
        return { status: 201, body: invoice };
      }
    }
    if (resource === 'invoices' && id && method === 'GET') {
      const invoice = invoices.get(id);
      return invoice ? { status: 200, body: invoice } : refuse(`No invoice ${id}`, 404);
    }
    return refuse(`No such endpoint: ${method} ${path}`, 404);
  }

  function createCustomer(c: Json): Json {
    onlyFields(c, CUSTOMER_FIELDS, 'customer');
    const number = text(c, 'number', 'customer', true, 20)!;
    text(c, 'name', 'customer', true);
    if (c.type !== undefined && c.type !== 'company' && c.type !== 'person')
      refuse('customer.type must be company or person');
    if (c.address !== undefined) {
      if (!c.address || typeof c.address !== 'object') refuse('customer.address must be an object');
      onlyFields(c.address as Json, ADDRESS_FIELDS, 'customer.address');
    }
    if ([...customers.values()].some((x) => x.number === number))
      refuse(`Customer number ${number} is already in use`, 409);
    const customer = { id: `cus_${customers.size + 1}`, type: 'company', ...c };
    customers.set(customer.id, customer);
    return customer;
  }

  function createItem(i: Json): Json {
    onlyFields(i, ITEM_FIELDS, 'item');
    const number = text(i, 'number', 'item', true, 40)!;
    text(i, 'name', 'item', true);
    decimal(i, 'price', 'item');
    vatRate(i, 'item');
    if (i.type !== 'service' && i.type !== 'goods') refuse('item.type must be service or goods');
    if ([...items.values()].some((x) => x.number === number)) refuse(`Item number ${number} is already in use`, 409);
    const item = { id: `itm_${items.size + 1}`, ...i };
    items.set(item.id, item);
    return item;
  }

  function createInvoice(input: Json): Json {
    onlyFields(input, INVOICE_FIELDS, 'invoice');
    text(input, 'externalRef', 'invoice', false, 100);
    const customerId = text(input, 'customerId', 'invoice', true)!;
    if (!customers.has(customerId)) refuse(`Customer ${customerId} does not exist`);
    for (const field of ['invoiceDate', 'dueDate', 'deliveryDate']) {
      const date = text(input, field, 'invoice', field !== 'deliveryDate');
      if (date !== null && !DATE.test(date)) refuse(`invoice.${field} must be a date (YYYY-MM-DD)`);
    }
    if (input.currency !== 'SEK' && input.currency !== 'EUR') refuse('invoice.currency must be SEK or EUR');
    if (!Array.isArray(input.lines) || input.lines.length === 0) refuse('invoice.lines must hold at least one line');
    let net = 0;
    const vatBase = new Map<number, number>();
    const lines = (input.lines as unknown[]).map((l, n) => {
      const what = `lines[${n}]`;
      if (!l || typeof l !== 'object') refuse(`${what} must be an object`);
      const line = l as Json;
      onlyFields(line, LINE_FIELDS, what);
      text(line, 'description', what, line.unitPrice === undefined, 500);
      if (line.unitPrice === undefined) {
        if (Object.keys(line).length !== 1) refuse(`${what}: a text line has only a description`);
        return { ...line };
      }
      if (line.itemId !== undefined && !items.has(String(line.itemId)))
        refuse(`Item ${String(line.itemId)} does not exist`);
      const quantity = decimal(line, 'quantity', what, true)!;
      const unitPrice = decimal(line, 'unitPrice', what, true)!;
      const percent = decimal(line, 'discountPercent', what) ?? 0;
      if (percent < 0 || percent > 100) refuse(`${what}.discountPercent must be between 0 and 100`);
      const amountOff = decimal(line, 'discountAmount', what) ?? 0;
      const rate = vatRate(line, what);
      if (input.reverseCharge === true && rate !== 0)
        refuse(`${what}: a reverse-charge invoice has no VAT on its lines`);
      const total = ore(quantity * unitPrice * (1 - percent / 100)) - ore(amountOff);
      net += total;
      vatBase.set(rate, (vatBase.get(rate) ?? 0) + total);
      return { ...line, total: money(total) };
    });
    const vat = [...vatBase].reduce((s, [rate, base]) => s + Math.round((base * rate) / 100), 0);
    const number = String(nextInvoiceNumber++);
    const invoice: Json = {
      id: `inv_${number}`,
      number,
      status: 'open',
      ...input,
      lines,
      netTotal: money(net),
      vatTotal: money(vat),
      total: money(net + vat),
    };
    invoices.set(invoice.id as string, invoice);
    return invoice;
  }

  return {
    url,
    apiKey,
    invoiceCount(idempotencyKey) {
      if (idempotencyKey === undefined) return invoices.size;
      return [...invoices.values()].filter((i) => i.externalRef === idempotencyKey).length;
    },
    customerCount: () => customers.size,
    articleCount: () => items.size,
    invoice: (externalId) => invoices.get(externalId) ?? null,
    // API keys do not expire: nothing to do (an OAuth2 fake makes its access tokens answer 401).
    expireAccessTokens() {},
    failNext(status, retryAfterSeconds) {
      pendingFailure = { status, retryAfterSeconds };
    },
    dropNextCreateResponse() {
      dropNextCreate = true;
    },
    requestCount: () => requests,
    rateLimitedCount: () => rateLimited,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
