import { z } from 'zod';
import { daysBetween } from '~/core/calendar/dates';
import { createErpHttp, ErpError, type ErpErrorCode } from '~/core/extension-points/erp-http';
import {
  defineErpProvider,
  ErpStop,
  supplierRowAccounts,
  type ErpArticle,
  type ErpCredentials,
  type ErpCustomer,
  type ErpInvoice,
  type ErpInvoiceRow,
  type ErpProvider,
  type ErpSentInvoice,
  type ErpSession,
  type ErpSupplier,
  type ErpSupplierInvoice,
} from '~/core/extension-points/erp-provider';
import { compare, divide, formatDecimal, isZero, sub, sum } from '~/core/pricing';

/*
 * Erply (the classic API, https://learn-api.erply.com; tests/fakes/erply.ts lists the sources). Every
 * request is a POST to https://{clientCode}.erply.com/api/ with the form fields clientCode, sessionKey,
 * request (the call's name) and the call's parameters; every answer is HTTP 200 with
 * {status: {responseStatus: "ok" | "error", errorCode, errorField, …}, records}.
 *
 * Connecting: the tenant types Erply's client code and an API user's name and password (Settings → ERP).
 * verifyUser trades them for a session key (valid sessionLength seconds, an hour by default), which is
 * kept in the tenant's credentials through saveCredentials and used until Erply says it expired
 * (1054/1055/1056), then renewed once — Erply asks integrations not to log in for every call.
 *
 * Limits: 6000 requests per hour per Erply account (error 1002 until the next full hour); the limiter is
 * keyed by the client code, what Erply counts. (Erply's front servers also allow 150 requests per 30 s
 * per IP and answer 429; createErpHttp waits those out.)
 *
 * Idempotency: saveSalesDocument carries the key as temporaryUUID, which Erply remembers 24 h and
 * which cannot be looked up; Erply's advice is to repeat the call when unsure (a repeat within the
 * 24 h is refused with 1206). So a retry within the window repeats the call, and on 1206 finds the
 * document by its customer and date (documented filters) and compares the key, kept as the text
 * attribute ordoIdempotencyKey; a retry after the window stops as "needs checking" (ErpStop) with the
 * key, since a repeat could book it twice (issue 31 item 8). Purchase documents have no temporaryUUID:
 * getPurchaseDocuments finds them by attribute (searchAttributeName/searchAttributeValue), the
 * attribute compared again. Customers, suppliers and
 * products are found by Ordo's number the same way (attributes ordoCustomerNumber/ordoSupplierNumber,
 * the product's code). Erply numbers a confirmed invoice itself; Ordo's number is kept as attribute
 * ordoInvoiceNr. ROT/RUT do not exist in Erply (Baltic market): such invoices are refused.
 *
 * PLUGIN_OPTIONS='{"erply":{…}}': nothing is required; apiBaseUrl (with {clientCode}) points elsewhere
 * (a fake), requestsPerHour/hourMs lower the limit, productGroupID picks the group new products go to.
 */

type Json = Record<string, unknown>;
type Form = Record<string, string | number | null | undefined>;

const options = z.object({
  /** The API endpoint; {clientCode} is replaced by the tenant's client code. */
  apiBaseUrl: z.string().min(1).default('https://{clientCode}.erply.com/api/'),
  /** Erply's hourly quota per account (6000 by default since 2022). */
  requestsPerHour: z.number().int().positive().default(6000),
  /** The quota's window; lowered only by tests. */
  hourMs: z.number().int().positive().default(3_600_000),
  /** Requested session length in seconds (Erply: 1…86400, default 3600). */
  sessionLength: z.number().int().min(60).max(86_400).default(3600),
  /** INVWAYBILL is Erply's ordinary sales invoice. */
  invoiceType: z.enum(['INVWAYBILL', 'INVOICE', 'CASHINVOICE']).default('INVWAYBILL'),
  /** PRCINVOICEONLY books accounts payable without taking goods into stock. */
  purchaseInvoiceType: z.enum(['PRCINVOICEONLY', 'PRCINVOICE']).default('PRCINVOICEONLY'),
  /** The product group new products are created in (saveProduct requires one); 0: the account's first. */
  productGroupID: z.number().int().nonnegative().default(0),
  timeoutMs: z.number().int().positive().default(30_000),
});
export type ErplyOptions = z.infer<typeof options>;

export const IDEMPOTENCY_ATTRIBUTE = 'ordoIdempotencyKey';
export const CUSTOMER_NUMBER_ATTRIBUTE = 'ordoCustomerNumber';
export const SUPPLIER_NUMBER_ATTRIBUTE = 'ordoSupplierNumber';
export const INVOICE_NR_ATTRIBUTE = 'ordoInvoiceNr';

/**
 * learn-api.erply.com/reliability/idempotency: a temporaryUUID "will be remembered for a set period
 * (24H)". An hour less, for the clocks and the time a try takes.
 */
const TEMPORARY_UUID_WINDOW_MS = 23 * 3600_000;

/** A client code goes into a host name: letters and digits only. */
const CLIENT_CODE = /^[A-Za-z0-9]{1,32}$/;
const SESSION_ERRORS = new Set([1054, 1055, 1056]);
/** Erply's server is busy or under maintenance: trying later helps. */
const TRANSIENT_ERRORS = new Set([1000, 1003, 1008, 1021, 1204, 1205]);
/** The account, the user or its rights: the tenant must fix the connection. */
const AUTH_ERRORS = new Set([
  1001, 1009, 1050, 1051, 1052, 1053, 1054, 1055, 1056, 1057, 1058, 1060, 1061, 1062, 1063, 1064, 1065, 1067, 1068,
]);

/** Erply's own texts for the codes an integration meets (learn-api.erply.com error codes). */
const ERROR_TEXTS: Record<number, string> = {
  1000: 'API is under maintenance, please try again in a couple of minutes.',
  1001: 'Account not found. (It may also mean that input parameter "clientCode" is missing.)',
  1002: 'Hourly request quota has been exceeded for this account. Please resume next hour.',
  1003: 'Cannot connect to account database.',
  1005: 'API call name (input parameter "request") not specified, or unknown API call.',
  1006: 'This API call is not available on this account. (Account needs upgrading, or an extra module needs to be installed.)',
  1008: 'Database error: the database is under regular maintenance, or the API URL is not correct.',
  1009: 'This API call requires authentication parameters (a session key, authentication key, or service key), but none were found.',
  1010: 'Required parameters are missing.',
  1011: 'Invalid classifier ID, there is no such item.',
  1012: 'A parameter must have a unique value.',
  1013: 'Inconsistent parameter set (for example, both product and service IDs specified for an invoice row).',
  1014: 'Incorrect data type or format.',
  1015: 'Malformed request (eg. parameters containing invalid characters).',
  1016: 'Invalid value.',
  1017: 'Document has been confirmed and its contents and warehouse ID cannot be edited any more.',
  1021: 'Another instance of the same report is currently running. Please wait and try again in a minute.',
  1023: 'Request has product rows in wrong order, or some rows are missing.',
  1050: 'Username/password missing.',
  1051: 'Login failed.',
  1052: 'User has been temporarily blocked because of repeated unsuccessful login attempts.',
  1053: 'No password has been set for this user, therefore the user cannot be logged in.',
  1054: 'API session has expired. Please call API "verifyUser" again (with correct credentials) to receive a new session key.',
  1055: 'Supplied session key is invalid; session not found.',
  1056: 'Supplied session key is too old. User switching is no longer possible with this session key, please perform a full re-authentication via API "verifyUser".',
  1057: 'Your time-limited demo account has expired.',
  1060: 'No viewing rights (in this module/for this item).',
  1061: 'No adding rights (in this module).',
  1062: 'No editing rights (in this module/for this item).',
  1064: 'User does not have access to this location (store, warehouse).',
  1065: 'This user account does not have API access. (It may be limited to POS or Erply backend operations only.)',
  1204: 'The same document is being processed by another request.',
  1205: 'The document is being edited by another request; try again.',
  1206: 'A document with this temporaryUUID has already been created.',
};

interface ErplyStatus {
  request?: string;
  responseStatus?: string;
  errorCode?: number | string;
  errorField?: string | null;
  recordsTotal?: number;
}

export class ErplyRefusal extends Error {
  constructor(
    readonly errorCode: number,
    readonly errorField: string | null,
    readonly request: string,
  ) {
    super(`Erply error ${errorCode}`);
  }
}

/** What people read: the call, Erply's code and field, and Erply's text for the code. */
export function erplyMessage(request: string, code: number, field: string | null): string {
  const text = ERROR_TEXTS[code] ?? 'see https://learn-api.erply.com/error-codes';
  return `${request}: Erply error ${code}${field ? ` (errorField: ${field})` : ''}: ${text}`;
}

/** Erply's refusal as Ordo's ErpError. */
export function erpErrorOf(refusal: ErplyRefusal, hourMs: number, now = Date.now()): ErpError {
  const { errorCode: code, errorField: field, request } = refusal;
  const vendorMessage = erplyMessage(request, code, field);
  const cause = refusal;
  if (code === 1002)
    // "all API calls will return API error code 1002 until the beginning of next hour"
    return new ErpError('ERP_RATE_LIMITED', {
      retryable: true,
      vendorMessage,
      retryAfterMs: hourMs - (now % hourMs),
      cause,
    });
  if (TRANSIENT_ERRORS.has(code)) return new ErpError('ERP_UNREACHABLE', { retryable: true, vendorMessage, cause });
  const erpCode: ErpErrorCode = AUTH_ERRORS.has(code) ? 'ERP_AUTH_FAILED' : 'INVOICE_WAS_NOT_CREATED_IN_ERP';
  return new ErpError(erpCode, { vendorMessage, cause });
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);
const cut = (v: string | null | undefined, max: number) => (v ? v.slice(0, max) : undefined);
const attributeOf = (record: Json, name: string): string | null => {
  const list = Array.isArray(record.attributes) ? (record.attributes as Json[]) : [];
  const hit = list.find((a) => a.attributeName === name);
  return hit ? String(hit.attributeValue ?? '') : null;
};
/** Text attribute number n of a save call. */
const attribute = (n: number, name: string, value: string): Form => ({
  [`attributeName${n}`]: name,
  [`attributeType${n}`]: 'text',
  [`attributeValue${n}`]: value,
});

interface Api {
  /** One Erply call; answers its records or throws ErpError. */
  call(request: string, params?: Form): Promise<{ records: Json[]; status: ErplyStatus }>;
  /** The records of every page. */
  all(request: string, params?: Form, pageSize?: number): Promise<Json[]>;
}

function create(o: ErplyOptions): ErpProvider {
  // Erply counts when a request arrives, we when it leaves: a little slack keeps us inside its window.
  const rateLimit = { requests: o.requestsPerHour, perMs: o.hourMs + Math.max(250, Math.round(o.hourMs * 0.01)) };

  function credentialsOf(session: ErpSession) {
    const c = session.credentials;
    const clientCode = str(c?.clientCode)?.trim();
    const username = str(c?.username);
    const password = str(c?.password);
    if (!clientCode || !username || !password) throw new ErpError('ERP_NOT_CONNECTED');
    if (!CLIENT_CODE.test(clientCode))
      throw new ErpError('ERP_AUTH_FAILED', { vendorMessage: 'The Erply client code has only letters and digits' });
    return { clientCode, username, password };
  }

  /**
   * Runs `work` with a session key: the cached one while it is valid for another minute, else a new
   * one from verifyUser, saved before use; when Erply answers that the session expired, once more.
   */
  async function withApi<T>(session: ErpSession, work: (api: Api) => Promise<T>): Promise<T> {
    const { clientCode, username, password } = credentialsOf(session);
    const url = o.apiBaseUrl.replace('{clientCode}', clientCode);
    const http = createErpHttp({
      key: `erply:${clientCode}`,
      rateLimit,
      timeoutMs: o.timeoutMs,
      vendorMessage: (_body, text) =>
        text
          ? text
              .replace(/<[^>]*>/g, ' ')
              .replace(/\s+/g, ' ')
              .trim()
              .slice(0, 300)
          : null,
    });

    async function post(request: string, params: Form, sessionKey: string | null) {
      const form: Record<string, string> = { clientCode, request };
      if (sessionKey) form.sessionKey = sessionKey;
      for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) form[k] = String(v);
      const res = await http.request({ method: 'POST', url, form });
      const body = (res.body ?? null) as { status?: ErplyStatus; records?: unknown } | null;
      if (!body?.status || typeof body.status !== 'object')
        throw new ErpError('ERP_UNREACHABLE', {
          retryable: true,
          status: res.status,
          vendorMessage: `${request}: Erply answered without a status: ${res.text.slice(0, 200)}`,
        });
      if (body.status.responseStatus === 'error')
        throw new ErplyRefusal(Number(body.status.errorCode), str(body.status.errorField), request);
      return { records: Array.isArray(body.records) ? (body.records as Json[]) : [], status: body.status };
    }

    const stored = session.credentials!;
    let sessionKey =
      str(stored.sessionKey) && Date.parse(String(stored.sessionExpiresAt ?? '')) - Date.now() > 60_000
        ? String(stored.sessionKey)
        : null;

    async function login(): Promise<string> {
      const { records } = await post('verifyUser', { username, password, sessionLength: o.sessionLength }, null);
      const user = records[0] ?? {};
      const key = str(user.sessionKey);
      if (!key) throw new ErpError('ERP_AUTH_FAILED', { vendorMessage: 'verifyUser: Erply answered no sessionKey' });
      const seconds = Number(user.sessionLength) > 0 ? Number(user.sessionLength) : 3600;
      const next: ErpCredentials = {
        ...session.credentials,
        sessionKey: key,
        sessionExpiresAt: new Date(Date.now() + seconds * 1000).toISOString(),
      };
      await session.saveCredentials(next);
      session.credentials = next;
      return key;
    }

    const api: Api = {
      async call(request, params = {}) {
        try {
          sessionKey ??= await login();
          try {
            return await post(request, params, sessionKey);
          } catch (err) {
            if (!(err instanceof ErplyRefusal) || !SESSION_ERRORS.has(err.errorCode)) throw err;
            sessionKey = await login();
            return await post(request, params, sessionKey);
          }
        } catch (err) {
          if (err instanceof ErplyRefusal) throw erpErrorOf(err, o.hourMs);
          throw err;
        }
      },
      async all(request, params = {}, pageSize = 100) {
        const rows: Json[] = [];
        for (let pageNo = 1; ; pageNo++) {
          const { records, status } = await api.call(request, { ...params, recordsOnPage: pageSize, pageNo });
          rows.push(...records);
          if (records.length < pageSize || rows.length >= Number(status.recordsTotal ?? 0)) return rows;
        }
      },
    };
    return work(api);
  }

  /** The one record of a lookup whose field is exactly the value (Erply's name search is looser). */
  async function first(api: Api, request: string, params: Form, matches: (r: Json) => boolean) {
    const { records } = await api.call(request, params);
    return records.find(matches) ?? null;
  }

  async function ensureCustomer(api: Api, customer: ErpCustomer, knownExternalId: string | null): Promise<string> {
    if (knownExternalId && /^\d+$/.test(knownExternalId)) {
      const known = await first(
        api,
        'getCustomers',
        { customerID: knownExternalId },
        (c) => String(c.customerID ?? c.id) === knownExternalId,
      );
      if (known) return knownExternalId;
    }
    // The number decides: Ordo customers may share a registry code (departments of one company).
    const existing = await first(
      api,
      'getCustomers',
      { searchAttributeName: CUSTOMER_NUMBER_ATTRIBUTE, searchAttributeValue: customer.customerNumber },
      (c) => attributeOf(c, CUSTOMER_NUMBER_ATTRIBUTE) === customer.customerNumber,
    );
    if (existing) return String(existing.customerID ?? existing.id);
    const person = customer.type === 'private';
    const words = customer.name.trim().split(/\s+/);
    const { records } = await api.call('saveCustomer', {
      ...(person
        ? { firstName: cut(words.slice(0, -1).join(' '), 255), lastName: cut(words.at(-1) ?? customer.name, 255) }
        : { companyName: cut(customer.name, 255) }),
      // "code": a company's registry code or a person's national ID.
      code: cut(person ? customer.personId : customer.organizationalNumber, 100),
      vatNumber: person ? undefined : cut(customer.vatNumber, 100),
      email: cut(customer.email, 100),
      phone: cut(customer.phone, 100),
      paymentDays: customer.paymentTermDays,
      ...attribute(1, CUSTOMER_NUMBER_ATTRIBUTE, customer.customerNumber),
    });
    const id = records[0]?.customerID;
    if (id === undefined || id === null)
      throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
        vendorMessage: 'saveCustomer: Erply answered no customerID',
      });
    return String(id);
  }

  async function vatRates(api: Api): Promise<Json[]> {
    return api.all('getVatRates', { active: 1 }, 1000);
  }

  /** The VAT rate a row goes out with: reverse VAT takes the account's reverse-charge rate, else its 0 %. */
  function vatrateID(rates: Json[], percent: string, reverse: boolean): string {
    const active = rates.filter((r) => String(r.active ?? '1') === '1');
    const plain = (p: string) =>
      active.find((r) => Number(r.isReverseVat ?? 0) !== 1 && compare(String(r.rate), p) === 0);
    const found = reverse ? (active.find((r) => Number(r.isReverseVat ?? 0) === 1) ?? plain('0')) : plain(percent);
    if (!found)
      throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
        vendorMessage: reverse
          ? 'Erply has no active reverse-charge or 0 % VAT rate; add one in Erply (Settings → VAT rates)'
          : `Erply has no active VAT rate of ${percent} %; add it in Erply (Settings → VAT rates)`,
      });
    return String(found.id);
  }

  async function productGroup(api: Api): Promise<number> {
    if (o.productGroupID) return o.productGroupID;
    const { records } = await api.call('getProductGroups');
    const id = Number(records[0]?.productGroupID ?? records[0]?.id);
    if (!id)
      throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
        vendorMessage: 'Erply has no product group to create products in; add one in Erply',
      });
    return id;
  }

  async function ensureArticle(api: Api, article: ErpArticle, knownExternalId: string | null): Promise<string> {
    if (knownExternalId && /^\d+$/.test(knownExternalId)) {
      const known = await first(
        api,
        'getProducts',
        { productID: knownExternalId },
        (p) => String(p.productID) === knownExternalId,
      );
      if (known) return knownExternalId;
    }
    const existing = await first(
      api,
      'getProducts',
      { code: article.articleNumber },
      (p) => p.code === article.articleNumber,
    );
    if (existing) return String(existing.productID);
    const rates = await vatRates(api);
    const { records } = await api.call('saveProduct', {
      groupID: await productGroup(api),
      type: 'PRODUCT',
      code: article.articleNumber.slice(0, 50),
      name: cut(article.title, 255) ?? article.articleNumber,
      netPrice: article.price,
      vatrateID: vatrateID(rates, article.vatPercent, false),
      // Labour and other services are non-stock products (Erply phases its separate services out).
      nonStockProduct: article.isService ? 1 : 0,
    });
    const id = records[0]?.productID;
    if (id === undefined || id === null)
      throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
        vendorMessage: 'saveProduct: Erply answered no productID',
      });
    return String(id);
  }

  /** The unit price and discount % Erply computes the row's total from. */
  function rowPrice(row: ErpInvoiceRow): { price: string; discount: string | undefined } {
    if (!row.discount || isZero(row.discount.value)) return { price: row.price, discount: undefined };
    if (row.discount.type === 'PERCENTAGE') return { price: row.price, discount: row.discount.value };
    // Ordo's amount discount is off each unit; Erply's discount# is a percentage, so the unit price goes net.
    return { price: formatDecimal(sub(row.price, row.discount.value), 2), discount: undefined };
  }

  /** The saveSalesDocument parameters, rows numbered from 1 as Erply reads them. */
  function salesDocument(invoice: ErpInvoice, customerID: string, key: string, rates: Json[]): Form {
    const form: Form = {
      type: o.invoiceType,
      customerID,
      currencyCode: invoice.currency,
      date: invoice.invoiceDate,
      paymentDays: invoice.paymentTermDays,
      temporaryUUID: key,
      ...attribute(1, IDEMPOTENCY_ATTRIBUTE, key),
      ...attribute(2, INVOICE_NR_ATTRIBUTE, invoice.invoiceNr),
    };
    // Erply has no text rows: the title, marking, references, text rows and legal notes are printed as notes.
    const notes = [
      invoice.description,
      invoice.marking ? `Märkning / Marking: ${invoice.marking}` : null,
      invoice.customerOrderNumber ? `PO: ${invoice.customerOrderNumber}` : null,
      invoice.yourReference ? `Your reference: ${invoice.yourReference}` : null,
      invoice.ourReference ? `Our reference: ${invoice.ourReference}` : null,
      ...invoice.rows.filter((r) => r.kind === 'text').map((r) => r.description),
      ...invoice.notes,
    ].filter((t): t is string => Boolean(t?.trim()));
    if (notes.length) form.notes = notes.join('\n');
    let n = 0;
    for (const row of invoice.rows) {
      if (row.kind === 'text') continue;
      n += 1;
      const { price, discount } = rowPrice(row);
      // A mapped article goes as its product; a fee or free row as a free-text row.
      if (row.externalArticleId) form[`productID${n}`] = row.externalArticleId;
      form[`itemName${n}`] = cut(row.description, 255) ?? row.articleNumber ?? '-';
      form[`amount${n}`] = row.amount;
      form[`price${n}`] = price;
      if (discount) form[`discount${n}`] = discount;
      form[`vatrateID${n}`] = vatrateID(rates, row.vatPercent, invoice.reverseVat);
    }
    if (!isZero(invoice.rounding)) form.rounding = invoice.rounding;
    return form;
  }

  const sentFrom = (doc: Json): ErpSentInvoice => ({
    externalId: String(doc.id ?? doc.invoiceID),
    externalInvoiceNr: str(String(doc.number ?? doc.invoiceNo ?? '')),
    state: 'success',
  });

  /**
   * The sales document Erply answered 1206 for: looked up with getSalesDocuments' documented filters
   * (the customer and the day, every page) and the key compared in each record's attributes. Exactly
   * one, else null (someone changed its customer or date in Erply, or the key is there twice).
   */
  async function findSent(api: Api, invoice: ErpInvoice, customerID: string, key: string) {
    const docs = await api.all(
      'getSalesDocuments',
      { clientID: customerID, dateFrom: invoice.invoiceDate, dateTo: invoice.invoiceDate },
      100,
    );
    const hits = docs.filter((d) => attributeOf(d, IDEMPOTENCY_ATTRIBUTE) === key);
    return hits.length === 1 ? sentFrom(hits[0]!) : null;
  }

  /** Erply may hold the invoice and nothing documented can tell: a person looks in Erply. */
  const needsChecking = (invoice: ErpInvoice, key: string, why: string) =>
    new ErpStop('ERP_NEEDS_CHECKING', {
      needsChecking: true,
      references: [key],
      vendorMessage:
        `${why} Look in Erply for a sales invoice with the attribute ${IDEMPOTENCY_ATTRIBUTE} = ${key} ` +
        `(${INVOICE_NR_ATTRIBUTE} ${invoice.invoiceNr}): if it is there, mark the invoice as booked; if not, send it again.`,
    });

  async function ensureSupplier(api: Api, supplier: ErpSupplier, knownExternalId: string | null): Promise<string> {
    if (knownExternalId && /^\d+$/.test(knownExternalId)) {
      const known = await first(
        api,
        'getSuppliers',
        { supplierID: knownExternalId },
        (s) => String(s.supplierID ?? s.id) === knownExternalId,
      );
      if (known) return knownExternalId;
    }
    const existing = await first(
      api,
      'getSuppliers',
      { searchAttributeName: SUPPLIER_NUMBER_ATTRIBUTE, searchAttributeValue: supplier.supplierNumber },
      (s) => attributeOf(s, SUPPLIER_NUMBER_ATTRIBUTE) === supplier.supplierNumber,
    );
    if (existing) return String(existing.supplierID ?? existing.id);
    const { records } = await api.call('saveSupplier', {
      companyName: cut(supplier.name, 255),
      code: cut(supplier.organizationalNumber, 100),
      vatNumber: cut(supplier.vatNumber, 100),
      email: cut(supplier.email, 100),
      phone: cut(supplier.phone, 100),
      bankIBAN: cut(supplier.iban, 100),
      bankSWIFT: cut(supplier.bic, 100),
      ...attribute(1, SUPPLIER_NUMBER_ATTRIBUTE, supplier.supplierNumber),
    });
    const id = records[0]?.supplierID;
    if (id === undefined || id === null)
      throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
        vendorMessage: 'saveSupplier: Erply answered no supplierID',
      });
    return String(id);
  }

  /** The supplier's fee as one more row; its VAT is what the invoice's VAT has beyond the rows'. */
  function feeRow(invoice: ErpSupplierInvoice): { amount: string; vatPercent: string } | null {
    if (!invoice.fee || isZero(invoice.fee)) return null;
    const feeVat = sub(invoice.totalVat, sum(invoice.rows.map((r) => r.vat)));
    if (isZero(feeVat)) return { amount: invoice.fee, vatPercent: '0' };
    const percent = formatDecimal(divide(feeVat, divide(invoice.fee, '100', 6), 0), 0);
    return { amount: invoice.fee, vatPercent: percent };
  }

  async function findSentSupplierInvoice(api: Api, key: string) {
    const doc = await first(
      api,
      'getPurchaseDocuments',
      { searchAttributeName: IDEMPOTENCY_ATTRIBUTE, searchAttributeValue: key },
      (d) => attributeOf(d, IDEMPOTENCY_ATTRIBUTE) === key,
    );
    return doc ? { externalId: String(doc.id), externalNr: str(String(doc.regnumber ?? '')) } : null;
  }

  return {
    capabilities: {
      sendInvoices: true,
      invoiceFile: false,
      readInvoice: true,
      listArticles: true,
      taxReduction: false,
      supplierInvoices: true,
    },
    // Settings → ERP shows one password input per field; they are stored sealed as credentials.
    auth: { type: 'api-key', fields: ['clientCode', 'username', 'password'] },

    testConnection(session) {
      return withApi(session, async (api) => {
        const { records } = await api.call('getCompanyInfo');
        return { companyName: str(records[0]?.name) };
      });
    },

    ensureCustomer(session, customer, knownExternalId) {
      return withApi(session, (api) => ensureCustomer(api, customer, knownExternalId));
    },

    ensureArticle(session, article, knownExternalId) {
      return withApi(session, (api) => ensureArticle(api, article, knownExternalId));
    },

    async sendInvoice(session, invoice, idempotencyKey, { firstAttempt, queuedAt }) {
      if (invoice.taxReduction)
        // capabilities.taxReduction is false: never send such an invoice without its reduction.
        throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
          vendorMessage: `Erply has no ${invoice.taxReduction.kind} reduction; make this invoice in Erply by hand`,
        });
      // A retry repeats the call with the same temporaryUUID, as Erply says to when unsure: within its 24
      // hours a document made by an earlier try is refused with 1206. After them (or not knowing when the
      // delivery began) a repeat could make a second document, and nothing documented finds the first
      // by its key (getSalesDocuments has no attribute search): the delivery stops for a person.
      if (!firstAttempt) {
        const began = queuedAt ? Date.parse(queuedAt) : NaN;
        if (!(Date.now() - began < TEMPORARY_UUID_WINDOW_MS))
          throw needsChecking(
            invoice,
            idempotencyKey,
            'An earlier try may have made this invoice in Erply more than a day ago, and Erply remembers the key (temporaryUUID) for 24 hours only.',
          );
      }
      return withApi(session, async (api) => {
        // Erply takes an unknown currency code as the account's default: check it is there first.
        const { records: currencies } = await api.call('getCurrencies');
        if (!currencies.some((c) => c.code === invoice.currency))
          throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
            vendorMessage: `The currency ${invoice.currency} is not defined in Erply; add it there (Settings → Currencies)`,
          });
        const customerID = invoice.customer.externalId ?? (await ensureCustomer(api, invoice.customer, null));
        const form = salesDocument(invoice, customerID, idempotencyKey, await vatRates(api));
        try {
          const { records } = await api.call('saveSalesDocument', form);
          const report = records[0] ?? {};
          return {
            externalId: String(report.invoiceID),
            externalInvoiceNr: str(String(report.invoiceNo ?? '')),
            state: 'success',
          };
        } catch (err) {
          // 1206: an earlier try made the document (its answer was lost), within Erply's 24 hours.
          if (err instanceof ErpError && err.cause instanceof ErplyRefusal && err.cause.errorCode === 1206) {
            const found = await findSent(api, invoice, customerID, idempotencyKey);
            if (found) return found;
            throw needsChecking(
              invoice,
              idempotencyKey,
              'Erply says an earlier try made this invoice (error 1206), but its customer and date no longer lead to it.',
            );
          }
          throw err;
        }
      });
    },

    readInvoice(session, externalId) {
      return withApi(session, async (api): Promise<ErpSentInvoice> => {
        if (!/^\d+$/.test(externalId)) return { externalId, externalInvoiceNr: null, state: 'unknown' };
        const doc = await first(api, 'getSalesDocuments', { id: externalId }, (d) => String(d.id) === externalId);
        return doc ? sentFrom(doc) : { externalId, externalInvoiceNr: null, state: 'unknown' };
      });
    },

    listArticles(session) {
      return withApi(session, async (api) =>
        (await api.all('getProducts', {}, 1000)).map((p) => ({
          externalId: String(p.productID),
          articleNumber: String(p.code ?? ''),
          title: String(p.name ?? ''),
          unit: str(p.unitName),
          price: typeof p.price === 'number' || typeof p.price === 'string' ? formatDecimal(String(p.price), 2) : null,
        })),
      );
    },

    ensureSupplier(session, supplier, knownExternalId) {
      return withApi(session, (api) => ensureSupplier(api, supplier, knownExternalId));
    },

    async sendSupplierInvoice(session, invoice, idempotencyKey, { firstAttempt }) {
      // Before anything is sent: every row needs an account (spec: ERP_SUPPLIER_ACCOUNT_MISSING).
      const accounts = supplierRowAccounts(invoice);
      return withApi(session, async (api) => {
        if (!firstAttempt) {
          const found = await findSentSupplierInvoice(api, idempotencyKey);
          if (found) return found;
        }
        const supplierID = invoice.supplier.externalId ?? (await ensureSupplier(api, invoice.supplier, null));
        const rates = await vatRates(api);
        const form: Form = {
          type: o.purchaseInvoiceType,
          supplierID,
          currencyCode: invoice.currency,
          no: cut(invoice.invoiceNumber, 50),
          date: invoice.invoiceDate,
          paymentDays: Math.max(0, daysBetween(invoice.invoiceDate, invoice.dueDate)),
          referenceNumber: cut(invoice.ocr, 100),
          notes:
            [invoice.comments, invoice.ourReference ? `Our reference: ${invoice.ourReference}` : null]
              .filter(Boolean)
              .join('\n') || undefined,
          ...attribute(1, IDEMPOTENCY_ATTRIBUTE, idempotencyKey),
        };
        // Erply's purchase rows have no account field: the cost account leads the row's text.
        const rows = invoice.rows.map((r, i) => ({
          itemName: `${accounts[i]} ${r.description}`.slice(0, 255),
          amount: r.amount,
          vatPercent: r.vatPercent as string,
        }));
        const fee = feeRow(invoice);
        if (fee) rows.push({ itemName: 'Invoice fee', ...fee });
        rows.forEach((r, i) => {
          form[`itemName${i + 1}`] = r.itemName;
          form[`amount${i + 1}`] = 1;
          form[`price${i + 1}`] = r.amount;
          form[`vatrateID${i + 1}`] = vatrateID(rates, r.vatPercent, false);
        });
        if (!isZero(invoice.rounding)) form.rounding = invoice.rounding;
        const { records } = await api.call('savePurchaseDocument', form);
        const report = records[0] ?? {};
        return { externalId: String(report.invoiceID), externalNr: str(String(report.invoiceRegNo ?? '')) };
      });
    },
  };
}

export default defineErpProvider({
  id: 'erply',
  displayName: 'Erply',
  erpKind: 'erply',
  // what was checked against the vendor's documentation and what was not (issue 31; Settings → ERP)
  verification: { verified: ['erply.calls'], unverified: ['erply.attributes', 'erply.purchaseLookup'] },
  options,
  create,
});
