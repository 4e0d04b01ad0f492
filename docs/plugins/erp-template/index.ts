import { createHash } from 'node:crypto';
import { z } from 'zod';
import { createErpHttp, ErpError, type ErpRequest, type ErpResponse } from '~/core/extension-points/erp-http';
import {
  defineErpProvider,
  type ErpArticle,
  type ErpArticleListing,
  type ErpCustomer,
  type ErpInvoice,
  type ErpInvoiceRow,
  type ErpProvider,
  type ErpSentInvoice,
  type ErpSession,
} from '~/core/extension-points/erp-provider';
import { formatDecimal, isZero, mul, round } from '~/core/pricing';

/*
 * TEMPLATE: an ERP plugin for "Acme Books", a fictional accounting service (docs/plugins/erp.md is
 * the guide; README.md beside this file says how to start from it). Copy the folder to
 * plugins/erp-<vendor>, then replace every Acme Books detail with your vendor's own.
 *
 * Acme Books' API (as fake.ts serves it; there its "documentation" is quoted):
 * - auth: an API key in the `X-Api-Key` header; the tenant pastes it in Settings → ERP;
 * - GET /company; GET/POST /customers (?number= finds one); GET/POST /items (?number=);
 *   POST /invoices, GET /invoices?externalRef=, GET /invoices/{id};
 * - lists answer {data, page, totalPages}; errors answer {"error": {"message": "…"}};
 * - 60 requests per minute per API key, 429 with Retry-After beyond it.
 *
 * Ordo's idempotency key travels in the invoice's `externalRef`, which Acme Books stores, lets us
 * search for exactly, and never prints.
 */

/** Boot options: PLUGIN_OPTIONS='{"acme-books":{"apiBaseUrl":"…"}}'. Every one has a default. */
const options = z.object({
  apiBaseUrl: z.url().default('https://api.acmebooks.example/v1'),
  /** Acme Books allows 60 requests per minute per API key. */
  requestsPerWindow: z.number().int().positive().default(60),
  /** The window of that limit; only tests shorten it. */
  windowMs: z.number().int().positive().default(60_000),
  timeoutMs: z.number().int().positive().default(30_000),
});

export type AcmeBooksOptions = z.infer<typeof options>;
type Json = Record<string, unknown>;
type Call = (req: Omit<ErpRequest, 'url' | 'headers'> & { path: string }) => Promise<ErpResponse>;

/**
 * Our limiter books a request when it leaves, Acme Books counts it when it arrives; requests that
 * leave together arrive a little apart, so a slightly longer window keeps us inside the vendor's.
 */
const RATE_SLACK_MS = 250;
const PAGE_SIZE = 100;

/** `{"error": {"message": "…"}}`, Acme Books' one error shape; else the start of the text. */
export function acmeMessage(body: unknown, text: string): string | null {
  const error = body && typeof body === 'object' ? (body as Json).error : undefined;
  if (error && typeof error === 'object') {
    const message = (error as Json).message;
    if (typeof message === 'string' && message) return message;
  }
  return text ? text.slice(0, 500) : null;
}

const nonEmpty = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';
/** Leaves out null, undefined and '' (Acme Books refuses null for a text field). */
const compact = (record: Json): Json =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== null && v !== undefined && v !== ''));

/** Ordo's customer as Acme Books' customer resource. */
export function acmeCustomer(customer: ErpCustomer): Json {
  return compact({
    number: customer.customerNumber,
    name: customer.name,
    type: customer.type === 'private' ? 'person' : 'company',
    // Acme Books keeps a person's identity number in the same field as a company's.
    orgNumber: customer.type === 'private' ? customer.personId : customer.organizationalNumber,
    vatNumber: customer.vatNumber,
    email: customer.email,
    phone: customer.phone,
    address: compact({
      street: customer.address.street,
      postalCode: customer.address.postIndex,
      city: customer.address.city,
    }),
    paymentTermsDays: customer.paymentTermDays,
  });
}

/** Ordo's article as Acme Books' item, at list price; each invoice line carries its own price. */
export function acmeItem(article: ErpArticle, salesAccount: string | undefined): Json {
  return compact({
    number: article.articleNumber,
    name: article.title || article.articleNumber,
    unit: article.unit,
    price: article.price,
    vatRate: Number(article.vatPercent),
    type: article.isService ? 'service' : 'goods',
    salesAccount,
  });
}

function acmeLine(row: ErpInvoiceRow, reverseVat: boolean): Json {
  if (row.kind === 'text') return { description: row.description };
  const discount: Json = {};
  if (row.discount && !isZero(row.discount.value)) {
    if (row.discount.type === 'PERCENTAGE') discount.discountPercent = row.discount.value;
    // Ordo's amount discount is per unit; Acme Books' discountAmount is taken off the line once.
    else discount.discountAmount = formatDecimal(round(mul(row.discount.value, row.amount), 2), 2);
  }
  return compact({
    // The mapping's id for an article row; rows without an article (fee, mileage, free rows) go as free lines.
    itemId: row.externalArticleId,
    description: row.description,
    quantity: row.amount,
    unit: row.unit,
    unitPrice: row.price,
    ...discount,
    // Under reverse VAT no line carries VAT (the core already sends 0 % rows; said again for clarity).
    vatRate: reverseVat ? 0 : Number(row.vatPercent),
    account: row.account,
  });
}

/** Ordo's invoice as Acme Books' invoice create body. */
export function acmeInvoice(invoice: ErpInvoice, customerId: string, externalRef: string): Json {
  const notes = [invoice.description, invoice.marking, ...invoice.notes].filter(nonEmpty).join('\n');
  return compact({
    externalRef,
    customerId,
    invoiceDate: invoice.invoiceDate,
    dueDate: invoice.dueDate,
    deliveryDate: invoice.deliveryDate,
    currency: invoice.currency,
    reverseCharge: invoice.reverseVat,
    ourReference: invoice.ourReference,
    yourReference: invoice.yourReference,
    orderNumber: invoice.customerOrderNumber,
    ocr: invoice.ocr,
    notes,
    // The fee is also a row of kind "fee" in `rows`: it goes as a free line, so it is not sent twice.
    lines: invoice.rows
      .filter((row) => row.kind !== 'text' || nonEmpty(row.description))
      .map((row) => acmeLine(row, invoice.reverseVat)),
  });
}

const sent = (invoice: Json): ErpSentInvoice => ({
  externalId: String(invoice.id),
  externalInvoiceNr: invoice.number === undefined || invoice.number === null ? null : String(invoice.number),
  state: 'success',
});

function create(o: AcmeBooksOptions): ErpProvider {
  const base = o.apiBaseUrl.replace(/\/+$/, '');
  const rateLimit = { requests: o.requestsPerWindow, perMs: o.windowMs + RATE_SLACK_MS };

  /**
   * Every request of a session: the key in its header, the vendor's limit kept. Acme Books counts
   * per API key, so the limiter is keyed by (a hash of) the key: two Ordo tenants sharing one key
   * share one window, and the key itself never sits in memory as a map key.
   */
  function api(session: ErpSession): Call {
    const apiKey = session.credentials?.apiKey;
    if (typeof apiKey !== 'string' || !apiKey) throw new ErpError('ERP_NOT_CONNECTED');
    const http = createErpHttp({
      key: `acme-books:${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`,
      rateLimit,
      timeoutMs: o.timeoutMs,
      vendorMessage: acmeMessage,
    });
    return ({ path, ...req }) => http.request({ ...req, url: `${base}${path}`, headers: { 'x-api-key': apiKey } });
  }

  /** Every row of a paged list. */
  async function all(call: Call, path: string, params: Record<string, string> = {}): Promise<Json[]> {
    const rows: Json[] = [];
    for (let page = 1; ; page++) {
      const q = new URLSearchParams({ ...params, page: String(page), pageSize: String(PAGE_SIZE) });
      const body = ((await call({ path: `${path}?${q.toString()}` })).body ?? {}) as Json;
      const data = Array.isArray(body.data) ? (body.data as Json[]) : [];
      rows.push(...data);
      if (page >= Number(body.totalPages ?? 1) || data.length === 0) return rows;
    }
  }

  /** The one record whose field is exactly `value` (a vendor's search may match more loosely). */
  async function findBy(call: Call, path: string, field: string, value: string): Promise<Json | null> {
    const hits = await all(call, path, { [field]: value });
    return hits.find((h) => String(h[field]) === value) ?? null;
  }

  async function ensureCustomer(call: Call, customer: ErpCustomer): Promise<string> {
    // Customer numbers are unique in Acme Books, so the number finds the card whatever the mapping
    // knew. An existing card is left as the company keeps it (Acme Books has no update call; a
    // vendor that has one would bring changed fields up to date here, as plugins/erp-fortnox does).
    const existing = await findBy(call, '/customers', 'number', customer.customerNumber);
    if (existing) return String(existing.id);
    const res = await call({ method: 'POST', path: '/customers', json: acmeCustomer(customer) });
    return String((res.body as Json).id);
  }

  return {
    capabilities: {
      sendInvoices: true,
      invoiceFile: false,
      readInvoice: true,
      listArticles: true,
      taxReduction: false,
      supplierInvoices: false,
    },
    // Settings → ERP shows one password field per name; the tenant's values arrive as session.credentials.
    auth: { type: 'api-key', fields: ['apiKey'] },

    async testConnection(session) {
      const res = await api(session)({ path: '/company' });
      const name = (res.body as Json | null)?.name;
      return { companyName: typeof name === 'string' && name ? name : null };
    },

    async ensureCustomer(session, customer) {
      return ensureCustomer(api(session), customer);
    },

    async ensureArticle(session, article) {
      const call = api(session);
      const existing = await findBy(call, '/items', 'number', article.articleNumber);
      // An existing item keeps the company's own texts, prices and accounts.
      if (existing) return String(existing.id);
      const res = await call({
        method: 'POST',
        path: '/items',
        json: acmeItem(article, session.accounts.sales[article.vatPercent]),
      });
      return String((res.body as Json).id);
    },

    async sendInvoice(session, invoice, idempotencyKey, { firstAttempt }) {
      if (invoice.taxReduction)
        // capabilities.taxReduction is false: say so rather than send an invoice without the reduction.
        throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
          vendorMessage: 'Acme Books does not take ROT, RUT or green reductions; make this invoice in Acme Books',
        });
      const call = api(session);
      // Any try but the first may follow one whose invoice Acme Books created but whose answer we
      // never recorded: look for the key before creating.
      if (!firstAttempt) {
        const found = await findBy(call, '/invoices', 'externalRef', idempotencyKey);
        if (found) return sent(found);
      }
      const customerId = invoice.customer.externalId ?? (await ensureCustomer(call, invoice.customer));
      const res = await call({
        method: 'POST',
        path: '/invoices',
        json: acmeInvoice(invoice, customerId, idempotencyKey),
      });
      return sent((res.body ?? {}) as Json);
    },

    async readInvoice(session, externalId) {
      const res = await api(session)({ path: `/invoices/${encodeURIComponent(externalId)}`, accept: [404] });
      if (res.status === 404) return { externalId, externalInvoiceNr: null, state: 'unknown' };
      return sent((res.body ?? {}) as Json);
    },

    async listArticles(session): Promise<ErpArticleListing[]> {
      return (await all(api(session), '/items')).map((item) => ({
        externalId: String(item.id),
        articleNumber: String(item.number ?? ''),
        title: String(item.name ?? ''),
        unit: typeof item.unit === 'string' && item.unit ? item.unit : null,
        price: typeof item.price === 'string' ? item.price : null,
      }));
    },
  };
}

export default defineErpProvider({
  id: 'acme-books',
  displayName: 'Acme Books',
  erpKind: 'acme-books',
  options,
  create,
});
