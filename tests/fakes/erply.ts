import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErpFakeControl } from '~/tests/erp-contract/erp-contract';

/*
 * A local fake of Erply's classic API (https://learn-api.erply.com; production endpoint
 * https://{clientCode}.erply.com/api/) for the ERP contract suite and plugins/erp-erply.
 *
 * Sources (found with the search tool):
 * - learn-api.erply.com/requests/savesalesdocument, /getsalesdocuments, /saveproduct and the
 *   generated parameter reference of Kedireng/ErplyApi.NET (GeneratedCode/models.cs, Erply's own
 *   parameter descriptions): every request is a POST with clientCode, sessionKey, request and the
 *   call's parameters; rows are numbered (productID#, itemName#, vatrateID#, amount#, price#,
 *   discount#); attributes are attributeName#/attributeType#/attributeValue# ('text' at most 255
 *   characters, names of A-Z a-z 0-9 - _); getSalesDocuments / getCustomers / getSuppliers /
 *   getPurchaseDocuments take searchAttributeName + searchAttributeValue; getCustomers'
 *   searchRegistryCode matches field "code" exactly; getProducts' code matches exactly; saveProduct
 *   needs groupID; types INVWAYBILL … CREDITINVOICE and PRCINVOICE, PRCINVOICEONLY …; an unknown
 *   currencyCode silently becomes the account's default currency; confirmInvoice defaults to 1 and
 *   a confirmed invoice gets its number; the discount algorithm
 *   discountedPrice = round(price × (100 − discount) / 100), lineTotal = round(discountedPrice × amount, 2);
 *   verifyUser's sessionLength is 1…86400 s, default 3600.
 * - erply/api-go-wrapper (the official Go SDK): the answer envelope {status: {request,
 *   requestUnixTime, responseStatus, errorCode, errorField, generationTime, recordsTotal,
 *   recordsInResponse}, records}; record field names (SaleDocument, InvoiceRow, Customer, VatRate,
 *   company Info, SessionKeyUser, SaleDocImportReport {invoiceID, invoiceNo, …},
 *   PurchaseDocImportReport {invoiceID, invoiceRegNo, invoiceNo, …}, SaveCustomerResp {customerID,
 *   alreadyExists}); the error codes and their texts (pkg/api/common/error.go), quoted below.
 * - learn-api.erply.com/getting-started/limits and wiki.erply.com/article/1529-hourly-quota: 6000
 *   requests per hour per account by default, then error 1002 "until the beginning of next hour";
 *   per IP at most 150 requests per 30 s, then HTTP 429. A session key is valid for an hour; a new
 *   verifyUser is needed when the API answers 1054 or 1055.
 * - learn-api.erply.com/reliability/idempotency and wiki.erply.com/article/781-api-version-1-50-0:
 *   saveSalesDocument's temporaryUUID (a-z A-Z 0-9 . -, at most 128), remembered 24 h, a repeat
 *   answered with error 1206 (two at once: 1204); "It is not possible to look up a document using
 *   temporaryUUID. If unsure whether a document got processed or not, API client should just repeat
 *   the call." After the 24 h the same value makes a new document.
 * - learn-api.erply.com/requests/getsalesdocuments: the filters id, ids, clientID, dateFrom, dateTo,
 *   number, type …; no attribute search (refused here), though records carry their attributes.
 * - erply.com/erply-api-advanced-topics: API errors are answered with HTTP 200 and
 *   responseStatus "error" (records null).
 *
 * What no source states (the fake's own choices):
 * - Erply ignores parameters it does not know; the fake refuses them (error 1016 with the name in
 *   errorField), so a misspelt name fails here rather than being lost at a tenant.
 * - The per-IP 429 carries `Retry-After: 10` (the documented block length); Erply's header is not
 *   documented. The per-IP limit is kept as a sliding window; the hourly quota per calendar window.
 * - The account has no default POS customer, so a sales document without customerID is refused.
 * - Editing (an `id`/`productID`/`customerID` on a save) is not modelled and is refused.
 * - VAT per document is computed per VAT rate on the summed row totals; prices have 2 decimals.
 * - saveCustomer/saveSupplier always create (alreadyExists false).
 * - Purchase documents keep attributes like sales documents (getPurchaseDocuments searches them;
 *   savePurchaseDocument's attribute parameters are not in the parameter reference found).
 * - getCurrencies records {currencyID, code, name, default, rate}; getProductGroups records
 *   {productGroupID, name}; a reverse-charge VAT rate is a 0 % rate with isReverseVat 1.
 */

type Json = Record<string, unknown>;
type Params = Record<string, string>;

export interface ErplyFake extends ErpFakeControl {
  /** http://127.0.0.1:PORT; the plugin's apiBaseUrl is `${url}/api/`. */
  url: string;
  clientCode: string;
  username: string;
  password: string;
  supplierInvoiceCount(idempotencyKey?: string): number;
  supplierCount(): number;
  supplierInvoice(externalId: string): Record<string, unknown> | null;
  /** Sessions issued so far (verifyUser answers). */
  sessionCount(): number;
  /** Sales documents as stored. */
  salesDocuments(): Json[];
  purchaseDocuments(): Json[];
  vatRates(): Json[];
  /** The 24 hours pass: Erply forgets every temporaryUUID it was given (its documents stay). */
  forgetTemporaryUUIDs(): void;
}

export interface ErplyFakeOptions {
  clientCode?: string;
  username?: string;
  password?: string;
  /** The account's hourly quota; Erply's default is 6000 per hour. */
  hourlyQuota?: { requests: number; perMs: number };
  /** Per IP: 150 requests per 30 s. */
  ipLimit?: { requests: number; perMs: number };
}

/** Erply's texts for the codes the fake answers (pkg/api/common/error.go of the Go SDK). */
const ERRORS: Record<number, string> = {
  1001: 'Account not found. (It may also mean that input parameter "clientCode" is missing.)',
  1002: 'Hourly request quota has been exceeded for this account. Please resume next hour.',
  1005: 'API call name (input parameter "request") not specified, or unknown API call.',
  1006: 'This API call is not available on this account. (Account needs upgrading, or an extra module needs to be installed.)',
  1009: 'This API call requires authentication parameters (a session key, authentication key, or service key), but none were found.',
  1010: 'Required parameters are missing. (Attribute "errorField" indicates the missing input parameter.)',
  1011: 'Invalid classifier ID, there is no such item. (Attribute "errorField" indicates the invalid input parameter.)',
  1012: 'A parameter must have a unique value. (Attribute "errorField" indicates the invalid input parameter.)',
  1013: 'Inconsistent parameter set (for example, both product and service IDs specified for an invoice row).',
  1014: 'Incorrect data type or format. (Attribute "errorField" indicates the invalid input parameter.)',
  1016: 'Invalid value.(Attribute "errorField" indicates the field that contains an invalid value.)',
  1023: 'Request has product rows in wrong order, or some rows are missing.',
  1050: 'Username/password missing.',
  1051: 'Login failed.',
  1054: 'API session has expired. Please call API "verifyUser" again (with correct credentials) to receive a new session key.',
  1055: 'Supplied session key is invalid; session not found.',
  1206: 'A document with this temporaryUUID has already been created.',
};

/** learn-api.erply.com/reliability/idempotency: a temporaryUUID "will be remembered for a set period (24H)". */
const TEMPORARY_UUID_MS = 24 * 3600_000;

class Refusal extends Error {
  constructor(
    readonly errorCode: number,
    readonly errorField: string | null = null,
  ) {
    super(ERRORS[errorCode] ?? `error ${errorCode}`);
  }
}
const refuse = (code: number, field: string | null = null): never => {
  throw new Refusal(code, field);
};

const COMMON = ['clientCode', 'sessionKey', 'request', 'responseType', 'sendContentType', 'lang', 'version'];
const SALES_TYPES = [
  'INVWAYBILL',
  'CASHINVOICE',
  'WAYBILL',
  'PREPAYMENT',
  'OFFER',
  'EXPORTINVOICE',
  'RESERVATION',
  'ORDER',
  'INVOICE',
  'CREDITINVOICE',
];
const PURCHASE_TYPES = ['PRCINVOICE', 'CASHPRCINVOICE', 'PRCORDER', 'PRCRETURN', 'PRCWAYBILL', 'PRCINVOICEONLY'];
const ROW_FIELDS = ['productID', 'serviceID', 'itemName', 'vatrateID', 'amount', 'price', 'discount'];
const ATTRIBUTE_FIELDS = ['attributeName', 'attributeType', 'attributeValue'];
const DECIMAL = /^-?\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Half away from zero to 2 decimals, in cents. */
const cents = (x: number) => Math.sign(x) * Math.round(Math.abs(x) * 100 + 1e-7);
const money = (c: number) => Number((c / 100).toFixed(2));

function onlyKnown(p: Params, fields: string[], numbered: string[] = []) {
  for (const key of Object.keys(p)) {
    if (COMMON.includes(key) || fields.includes(key)) continue;
    const m = /^([A-Za-z]+)(\d+)$/.exec(key);
    if (m && numbered.includes(m[1]!)) continue;
    refuse(1016, key);
  }
}
function int(p: Params, field: string, required = false): number | null {
  const v = p[field];
  if (v === undefined || v === '') return required ? refuse(1010, field) : null;
  if (!INTEGER.test(v)) refuse(1014, field);
  return Number(v);
}
function dec(p: Params, field: string): number | null {
  const v = p[field];
  if (v === undefined || v === '') return null;
  if (!DECIMAL.test(v)) refuse(1014, field);
  return Number(v);
}
function text(p: Params, field: string, max: number): string | null {
  const v = p[field];
  if (v === undefined) return null;
  if (v.length > max) refuse(1016, field);
  return v;
}
/** Indices of numbered groups (rows from 0 or 1, consecutive, as Erply reads them). */
function indices(p: Params, names: string[]): number[] {
  const found = new Set<number>();
  for (const key of Object.keys(p)) {
    const m = /^([A-Za-z]+)(\d+)$/.exec(key);
    if (m && names.includes(m[1]!)) found.add(Number(m[2]));
  }
  return [...found].sort((a, b) => a - b);
}
function attributes(p: Params): Json[] {
  return indices(p, ATTRIBUTE_FIELDS).map((i) => {
    const name = p[`attributeName${i}`];
    if (!name) return refuse(1010, `attributeName${i}`);
    if (!/^[A-Za-z0-9_-]+$/.test(name)) refuse(1016, `attributeName${i}`);
    const type = p[`attributeType${i}`] ?? 'text';
    if (!['text', 'int', 'double'].includes(type)) refuse(1016, `attributeType${i}`);
    const value = p[`attributeValue${i}`] ?? '';
    if (type === 'text' && value.length > 255) refuse(1016, `attributeValue${i}`);
    if (type === 'int' && !/^-?\d+$/.test(value)) refuse(1014, `attributeValue${i}`);
    if (type === 'double' && !DECIMAL.test(value)) refuse(1014, `attributeValue${i}`);
    return { attributeName: name, attributeType: type, attributeValue: value };
  });
}
const hasAttribute = (record: Json, name: string, value: string) =>
  Array.isArray(record.attributes) &&
  (record.attributes as Json[]).some((a) => a.attributeName === name && a.attributeValue === value);

export async function startErplyFake(options: ErplyFakeOptions = {}): Promise<ErplyFake> {
  const clientCode = options.clientCode ?? '508000';
  const username = options.username ?? 'ordo-api@example.ee';
  const password = options.password ?? 'erply-fake-password';
  const quota = options.hourlyQuota ?? { requests: 6000, perMs: 3_600_000 };
  const ipLimit = options.ipLimit ?? { requests: 150, perMs: 30_000 };

  const company = {
    id: '1',
    name: 'Ordo Test OÜ',
    code: '12345678',
    VAT: 'EE123456789',
    phone: '+372 600 0000',
    email: 'info@ordo-test.ee',
    address: 'Tartu mnt 1, 10115 Tallinn',
    country: 'Estonia',
  };
  const vatRates: Json[] = [
    { id: '1', name: '25%', rate: '25', code: '25', active: '1', isReverseVat: 0, reverseRate: 0 },
    { id: '2', name: '12%', rate: '12', code: '12', active: '1', isReverseVat: 0, reverseRate: 0 },
    { id: '3', name: '6%', rate: '6', code: '6', active: '1', isReverseVat: 0, reverseRate: 0 },
    { id: '4', name: '0%', rate: '0', code: '0', active: '1', isReverseVat: 0, reverseRate: 0 },
    { id: '5', name: '24%', rate: '24', code: '24', active: '1', isReverseVat: 0, reverseRate: 0 },
    { id: '6', name: '9%', rate: '9', code: '9', active: '1', isReverseVat: 0, reverseRate: 0 },
    { id: '7', name: 'Pöördmaksustamine', rate: '0', code: 'RC', active: '1', isReverseVat: 1, reverseRate: 24 },
    { id: '8', name: '20% (old)', rate: '20', code: '20', active: '0', isReverseVat: 0, reverseRate: 0 },
  ];
  const currencies = [
    { currencyID: '1', code: 'EUR', name: 'Euro', default: '1', rate: '1.000000' },
    { currencyID: '2', code: 'SEK', name: 'Swedish krona', default: '0', rate: '0.087000' },
  ];
  const productGroups = [{ productGroupID: 1, name: 'Kaubad ja teenused', showInWebshop: 0 }];

  const sessions = new Map<string, number>();
  let sessionsIssued = 0;
  const customers = new Map<number, Json>();
  const products = new Map<number, Json>();
  const suppliers = new Map<number, Json>();
  const salesDocs = new Map<number, Json>();
  const purchaseDocs = new Map<number, Json>();
  const temporaryUUIDs = new Map<string, number>();
  let nextCustomerId = 1001;
  let nextProductId = 5001;
  let nextSalesId = 1;
  let nextSalesNumber = 100001;
  let nextPurchaseId = 1;
  let nextPurchaseRegNo = 5001;

  let pendingFailure: { status: number; retryAfter?: number } | null = null;
  let dropNextCreate = false;
  let requests = 0;
  let rateLimited = 0;
  const ipArrivals: number[] = [];
  const quotaWindows = new Map<number, number>();

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`fake Erply failed: ${(err as Error).message}`);
      } else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function answer(
    res: http.ServerResponse,
    request: string,
    body: { records?: Json[]; error?: Refusal; total?: number },
  ) {
    const records = body.records ?? null;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(
      JSON.stringify({
        status: {
          request,
          requestUnixTime: Math.floor(Date.now() / 1000),
          responseStatus: body.error ? 'error' : 'ok',
          errorCode: body.error ? body.error.errorCode : 0,
          errorField: body.error?.errorField ?? null,
          generationTime: 0.0042,
          recordsTotal: body.total ?? records?.length ?? 0,
          recordsInResponse: records?.length ?? 0,
        },
        records: body.error ? null : records,
      }),
    );
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const arrived = Date.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    requests += 1;

    if (pendingFailure) {
      const f = pendingFailure;
      pendingFailure = null;
      const headers: Record<string, string> = { 'content-type': 'text/html' };
      if (f.status === 429) headers['retry-after'] = String(f.retryAfter ?? 1);
      res.writeHead(f.status, headers);
      return res.end(`<html><body><h1>${f.status}</h1></body></html>`);
    }

    // Front servers: per IP, by arrival.
    while (ipArrivals.length && arrived - ipArrivals[0]! >= ipLimit.perMs) ipArrivals.shift();
    if (ipArrivals.length >= ipLimit.requests) {
      rateLimited += 1;
      res.writeHead(429, { 'content-type': 'text/html', 'retry-after': '10' });
      return res.end('<html><body><h1>429 Too Many Requests</h1></body></html>');
    }
    ipArrivals.push(arrived);

    const path = new URL(req.url ?? '/', url).pathname;
    if (req.method !== 'POST' || path.replace(/\/+$/, '') !== '/api') {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<html><body>Not Found</body></html>');
    }
    // Parameters come as a form body; Erply also reads the query string (the Go SDK sends them there).
    const p: Params = Object.fromEntries(new URL(req.url ?? '/', url).searchParams);
    for (const [k, v] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) p[k] = v;
    const request = p.request ?? '';

    if (p.clientCode !== clientCode) return answer(res, request, { error: new Refusal(1001) });
    // The account's hourly quota, per calendar window, counted when a request arrives.
    const windowNr = Math.floor(arrived / quota.perMs);
    const used = quotaWindows.get(windowNr) ?? 0;
    if (used >= quota.requests) {
      rateLimited += 1;
      return answer(res, request, { error: new Refusal(1002) });
    }
    quotaWindows.set(windowNr, used + 1);

    try {
      if (request === 'verifyUser') return answer(res, request, { records: verifyUser(p) });
      if (!p.sessionKey) refuse(1009);
      const expires = sessions.get(p.sessionKey!);
      if (expires === undefined) refuse(1055);
      if (expires! <= Date.now()) refuse(1054);
      const result = route(request, p);
      if (result === 'drop') {
        res.socket?.destroy();
        return;
      }
      return answer(res, request, result);
    } catch (err) {
      if (err instanceof Refusal) return answer(res, request, { error: err });
      throw err;
    }
  }

  function verifyUser(p: Params): Json[] {
    onlyKnown(p, ['username', 'password', 'sessionLength']);
    if (!p.username || !p.password) refuse(1050);
    if (p.username !== username || p.password !== password) refuse(1051);
    let length = int(p, 'sessionLength') ?? 3600;
    if (length <= 0) length = 3600;
    length = Math.min(length, 86_400);
    const sessionKey = randomBytes(20).toString('hex');
    sessions.set(sessionKey, Date.now() + length * 1000);
    sessionsIssued += 1;
    return [
      {
        userID: '7',
        userName: username,
        employeeID: '3',
        employeeName: 'Ordo Integration',
        groupID: '1',
        groupName: 'API',
        ipAddress: '127.0.0.1',
        sessionKey,
        sessionLength: length,
        loginUrl: `https://${clientCode}.erply.com/`,
      },
    ];
  }

  type Result = { records: Json[]; total?: number } | 'drop';

  function page(all: Json[], p: Params, max = 100): Result {
    const size = int(p, 'recordsOnPage') ?? 20;
    const pageNo = int(p, 'pageNo') ?? 1;
    if (size < 1 || size > max) refuse(1016, 'recordsOnPage');
    if (pageNo < 1) refuse(1016, 'pageNo');
    return { records: all.slice((pageNo - 1) * size, pageNo * size), total: all.length };
  }

  function byAttribute(records: Json[], p: Params): Json[] {
    const name = p.searchAttributeName;
    const value = p.searchAttributeValue;
    if (name === undefined && value === undefined) return records;
    if (!name || value === undefined) refuse(1010, name ? 'searchAttributeValue' : 'searchAttributeName');
    return records.filter((r) => hasAttribute(r, name!, value!));
  }

  function route(request: string, p: Params): Result {
    switch (request) {
      case 'getCompanyInfo':
        onlyKnown(p, []);
        return { records: [company] };
      case 'getVatRates':
        onlyKnown(p, ['active', 'orderBy', 'orderByDir', 'recordsOnPage', 'pageNo']);
        return page(
          vatRates.filter((r) => p.active === undefined || r.active === p.active),
          p,
          1000,
        );
      case 'getCurrencies':
        onlyKnown(p, []);
        return { records: currencies };
      case 'getProductGroups':
        onlyKnown(p, ['productGroupID']);
        return { records: productGroups };
      case 'getCustomers':
        return getCustomers(p);
      case 'saveCustomer':
        return { records: [saveCustomer(p)] };
      case 'getProducts':
        return getProducts(p);
      case 'saveProduct':
        return { records: [saveProduct(p)] };
      case 'getSalesDocuments':
        return getSalesDocuments(p);
      case 'saveSalesDocument': {
        const report = saveSalesDocument(p);
        if (dropNextCreate) {
          dropNextCreate = false;
          return 'drop';
        }
        return { records: [report] };
      }
      case 'getSuppliers':
        return getSuppliers(p);
      case 'saveSupplier':
        return { records: [saveSupplier(p)] };
      case 'getPurchaseDocuments':
        return getPurchaseDocuments(p);
      case 'savePurchaseDocument': {
        const report = savePurchaseDocument(p);
        if (dropNextCreate) {
          dropNextCreate = false;
          return 'drop';
        }
        return { records: [report] };
      }
      default:
        return refuse(1005, 'request');
    }
  }

  function getCustomers(p: Params): Result {
    onlyKnown(p, [
      'customerID',
      'customerIDs',
      'searchName',
      'searchRegistryCode',
      'searchVATNo',
      'searchCode',
      'searchAttributeName',
      'searchAttributeValue',
      'responseMode',
      'getAddresses',
      'getContactPersons',
      'recordsOnPage',
      'pageNo',
    ]);
    let found = [...customers.values()];
    const id = int(p, 'customerID');
    if (id !== null) found = found.filter((c) => c.customerID === id);
    if (p.searchRegistryCode !== undefined) found = found.filter((c) => c.code === p.searchRegistryCode);
    if (p.searchVATNo !== undefined) found = found.filter((c) => c.vatNumber === p.searchVATNo);
    if (p.searchCode !== undefined) found = found.filter((c) => c.customerCardNumber === p.searchCode);
    if (p.searchName !== undefined) {
      // From the beginning of the name, e-mail, phone or card number, partial matches included.
      const s = p.searchName.toLowerCase();
      found = found.filter((c) =>
        [c.fullName, c.email, c.phone, c.customerCardNumber].some((v) =>
          String(v ?? '')
            .toLowerCase()
            .startsWith(s),
        ),
      );
    }
    return page(byAttribute(found, p), p);
  }

  function saveCustomer(p: Params): Json {
    onlyKnown(
      p,
      [
        'customerID',
        'companyName',
        'firstName',
        'lastName',
        'fullName',
        'code',
        'vatNumber',
        'email',
        'eInvoiceEmail',
        'phone',
        'mobile',
        'paymentDays',
        'notes',
        'groupID',
        'customerCardNumber',
        'integrationCode',
        'euCustomerType',
      ],
      ATTRIBUTE_FIELDS,
    );
    if (p.customerID !== undefined) refuse(1016, 'customerID');
    const companyName = text(p, 'companyName', 255);
    const lastName = text(p, 'lastName', 255);
    const firstName = text(p, 'firstName', 255);
    if (!companyName && !lastName && !p.fullName) refuse(1010, 'companyName');
    for (const f of ['code', 'vatNumber', 'email', 'phone', 'customerCardNumber']) text(p, f, 100);
    const paymentDays = int(p, 'paymentDays');
    if (p.euCustomerType !== undefined && !['DEFAULT', 'DOMESTIC', 'EU', 'OUTSIDE_EU'].includes(p.euCustomerType))
      refuse(1016, 'euCustomerType');
    const id = nextCustomerId++;
    const isCompany = Boolean(companyName);
    customers.set(id, {
      id,
      customerID: id,
      type_id: isCompany ? '1' : '2',
      customerType: isCompany ? 'COMPANY' : 'PERSON',
      fullName: isCompany ? companyName : (p.fullName ?? [firstName, lastName].filter(Boolean).join(' ')),
      companyName: companyName ?? '',
      firstName: firstName ?? '',
      lastName: lastName ?? '',
      groupID: int(p, 'groupID') ?? 1,
      code: p.code ?? '',
      vatNumber: p.vatNumber ?? '',
      email: p.email ?? '',
      phone: p.phone ?? '',
      customerCardNumber: p.customerCardNumber ?? '',
      paymentDays: paymentDays ?? 14,
      euCustomerType: p.euCustomerType ?? 'DEFAULT',
      notes: p.notes ?? '',
      attributes: attributes(p),
      added: Math.floor(Date.now() / 1000),
      lastModified: Math.floor(Date.now() / 1000),
    });
    return { customerID: id, alreadyExists: false };
  }

  function getProducts(p: Params): Result {
    onlyKnown(p, [
      'productID',
      'productIDs',
      'code',
      'active',
      'status',
      'type',
      'orderBy',
      'orderByDir',
      'recordsOnPage',
      'pageNo',
    ]);
    let found = [...products.values()];
    const id = int(p, 'productID');
    if (id !== null) found = found.filter((x) => x.productID === id);
    if (p.code !== undefined) found = found.filter((x) => x.code === p.code);
    if (p.status !== undefined && p.status !== 'ALL_EXCEPT_ARCHIVED')
      found = found.filter((x) => x.status === p.status);
    return page(found, p, 1000);
  }

  function saveProduct(p: Params): Json {
    onlyKnown(
      p,
      [
        'productID',
        'type',
        'groupID',
        'unitID',
        'vatrateID',
        'code',
        'code2',
        'name',
        'nameEST',
        'nameENG',
        'description',
        'netPrice',
        'priceWithVat',
        'nonStockProduct',
        'status',
        'active',
      ],
      ATTRIBUTE_FIELDS,
    );
    if (p.productID !== undefined) refuse(1016, 'productID');
    const type = p.type ?? 'PRODUCT';
    if (!['PRODUCT', 'BUNDLE', 'MATRIX', 'ASSEMBLY'].includes(type)) refuse(1016, 'type');
    const groupID = int(p, 'groupID', true)!;
    const group = productGroups.find((g) => g.productGroupID === groupID);
    if (!group) refuse(1011, 'groupID');
    const vatrateID = int(p, 'vatrateID') ?? 1;
    const rate = vatRates.find((r) => Number(r.id) === vatrateID);
    if (!rate) refuse(1011, 'vatrateID');
    const code = text(p, 'code', 50);
    if (code && [...products.values()].some((x) => x.code === code)) refuse(1012, 'code');
    const name = text(p, 'name', 255) ?? text(p, 'nameEST', 255) ?? text(p, 'nameENG', 255);
    if (!name) refuse(1010, 'name');
    const netPrice = dec(p, 'netPrice') ?? 0;
    if (p.nonStockProduct !== undefined && !['0', '1'].includes(p.nonStockProduct)) refuse(1016, 'nonStockProduct');
    const status = p.status ?? 'ACTIVE';
    if (!['ACTIVE', 'NO_LONGER_ORDERED', 'NOT_FOR_SALE', 'ARCHIVED'].includes(status)) refuse(1016, 'status');
    const id = nextProductId++;
    const vat = Number(rate!.rate);
    products.set(id, {
      productID: id,
      type,
      active: status === 'ARCHIVED' ? 0 : 1,
      status,
      name,
      code: code ?? '',
      code2: p.code2 ?? '',
      groupID,
      groupName: group!.name,
      price: netPrice,
      priceWithVat: money(cents(netPrice * (1 + vat / 100))),
      vatrateID,
      vatrate: vat,
      nonStockProduct: p.nonStockProduct === '1' ? 1 : 0,
      description: p.description ?? '',
      attributes: attributes(p),
      added: Math.floor(Date.now() / 1000),
      lastModified: Math.floor(Date.now() / 1000),
    });
    return { productID: id };
  }

  /** Rows as Erply reads them, with its discount algorithm; VAT per rate on the summed row totals. */
  function documentRows(p: Params, kind: 'sales' | 'purchase') {
    const idx = indices(p, ROW_FIELDS);
    if (idx.length === 0) refuse(1010, 'amount1');
    if (idx[0]! > 1 || idx.some((n, i) => i > 0 && n !== idx[i - 1]! + 1)) refuse(1023);
    let net = 0;
    const byRate = new Map<number, { base: number; rate: number }>();
    const rows = idx.map((i, n) => {
      const productID = int(p, `productID${i}`);
      const serviceID = int(p, `serviceID${i}`);
      if (productID !== null && serviceID !== null) refuse(1013, `serviceID${i}`);
      if (serviceID !== null) refuse(1006, `serviceID${i}`);
      const product = productID !== null ? products.get(productID) : undefined;
      if (productID !== null && !product) refuse(1011, `productID${i}`);
      const itemName = text(p, `itemName${i}`, 255) ?? (product?.name as string | undefined) ?? '';
      const vatrateID = int(p, `vatrateID${i}`) ?? (product?.vatrateID as number | undefined) ?? null;
      if (vatrateID === null) refuse(1010, `vatrateID${i}`);
      const rate = vatRates.find((r) => Number(r.id) === vatrateID);
      if (!rate) refuse(1011, `vatrateID${i}`);
      if (rate!.active !== '1') refuse(1016, `vatrateID${i}`);
      const amount = dec(p, `amount${i}`);
      if (amount === null) refuse(1010, `amount${i}`);
      if (amount === 0) refuse(1016, `amount${i}`);
      if (amount! < 0 && kind === 'purchase' && p.type !== 'PRCRETURN') refuse(1016, `amount${i}`);
      const price = dec(p, `price${i}`) ?? Number(product?.price ?? 0);
      const discount = dec(p, `discount${i}`) ?? 0;
      if (discount < 0 || discount > 100) refuse(1016, `discount${i}`);
      const discountedPrice = money(cents((price * (100 - discount)) / 100));
      const rowNet = cents(discountedPrice * amount!);
      const vatPercent = Number(rate!.rate);
      const rowVat = cents(((rowNet / 100) * vatPercent) / 100);
      net += rowNet;
      const slot = byRate.get(vatrateID!) ?? { base: 0, rate: vatPercent };
      slot.base += rowNet;
      byRate.set(vatrateID!, slot);
      return {
        rowID: String(n + 1),
        stableRowID: String(n + 1),
        productID: productID !== null ? String(productID) : '0',
        serviceID: '0',
        itemName,
        code: (product?.code as string | undefined) ?? '',
        vatrateID: String(vatrateID),
        amount: p[`amount${i}`],
        price: price.toFixed(2),
        discount: String(discount),
        finalNetPrice: discountedPrice,
        finalPriceWithVAT: money(cents(discountedPrice * (1 + vatPercent / 100))),
        rowNetTotal: money(rowNet),
        rowVAT: money(rowVat),
        rowTotal: money(rowNet + rowVat),
      };
    });
    const vatTotalsByTaxRate = [...byRate].map(([id, s]) => ({
      vatrateID: id,
      total: money(cents(((s.base / 100) * s.rate) / 100)),
    }));
    const vat = vatTotalsByTaxRate.reduce((s, r) => s + cents(r.total), 0);
    const rounding = cents(dec(p, 'rounding') ?? 0);
    return { rows, net, vat, rounding, vatTotalsByTaxRate };
  }

  function currencyOf(p: Params): { code: string; rate: string } {
    // "If omitted, or an unknown currency code is provided, API uses your default currency instead."
    const c = currencies.find((x) => x.code === p.currencyCode) ?? currencies.find((x) => x.default === '1')!;
    return { code: c.code, rate: c.rate };
  }

  function saveSalesDocument(p: Params): Json {
    onlyKnown(
      p,
      [
        'id',
        'type',
        'currencyCode',
        'currencyRate',
        'warehouseID',
        'date',
        'time',
        'customerID',
        'addressID',
        'employeeID',
        'confirmInvoice',
        'invoiceNo',
        'customNumber',
        'customReferenceNumber',
        'allowDuplicateNumbers',
        'notes',
        'internalNotes',
        'paymentType',
        'paymentDays',
        'hidePaymentDays',
        'printDiscounts',
        'euInvoiceType',
        'rounding',
        'temporaryUUID',
      ],
      [...ROW_FIELDS, ...ATTRIBUTE_FIELDS],
    );
    if (p.id !== undefined) refuse(1016, 'id');
    const type = p.type ?? 'INVWAYBILL';
    if (!SALES_TYPES.includes(type)) refuse(1016, 'type');
    const customerID = int(p, 'customerID', true)!;
    const customer = customers.get(customerID);
    if (!customer) refuse(1011, 'customerID');
    const date = p.date ?? new Date().toISOString().slice(0, 10);
    if (!DATE.test(date)) refuse(1014, 'date');
    const paymentDays = int(p, 'paymentDays') ?? 14;
    if (p.euInvoiceType !== undefined && !['DOMESTIC', 'EU', 'OUTSIDE_EU'].includes(p.euInvoiceType))
      refuse(1016, 'euInvoiceType');
    if (p.confirmInvoice !== undefined && !['0', '1'].includes(p.confirmInvoice)) refuse(1016, 'confirmInvoice');
    text(p, 'notes', 65_535);
    text(p, 'internalNotes', 65_535);
    text(p, 'customReferenceNumber', 100);
    const attrs = attributes(p);
    const uuid = p.temporaryUUID;
    if (uuid !== undefined && (!/^[A-Za-z0-9.-]{1,128}$/.test(uuid) || uuid === '')) refuse(1016, 'temporaryUUID');
    if (uuid !== undefined) {
      const at = temporaryUUIDs.get(uuid);
      if (at !== undefined && Date.now() - at < TEMPORARY_UUID_MS) refuse(1206, 'temporaryUUID');
    }
    const { rows, net, vat, rounding, vatTotalsByTaxRate } = documentRows(p, 'sales');
    const confirmed = p.confirmInvoice !== '0';
    const id = nextSalesId++;
    const number = confirmed ? String(nextSalesNumber++) : '';
    const currency = currencyOf(p);
    const doc: Json = {
      id,
      type,
      currencyCode: currency.code,
      currencyRate: currency.rate,
      warehouseID: 1,
      number,
      date,
      time: p.time ?? '12:00:00',
      clientID: customerID,
      customerID,
      clientName: customer!.fullName,
      paymentDays: String(paymentDays),
      confirmed: confirmed ? '1' : '0',
      notes: p.notes ?? '',
      internalNotes: p.internalNotes ?? '',
      euInvoiceType: p.euInvoiceType ?? 'DOMESTIC',
      invoiceState: confirmed ? 'READY' : 'PENDING',
      paymentStatus: 'UNPAID',
      referenceNumber: p.customReferenceNumber ?? `${number}${id}`,
      customReferenceNumber: p.customReferenceNumber ?? '',
      netTotal: money(net),
      vatTotal: money(vat),
      vatTotalsByTaxRate,
      rounding: money(rounding),
      total: money(net + vat + rounding),
      rows,
      attributes: attrs,
      added: Math.floor(Date.now() / 1000),
      lastModified: Math.floor(Date.now() / 1000),
    };
    salesDocs.set(id, doc);
    if (uuid !== undefined) temporaryUUIDs.set(uuid, Date.now());
    return {
      invoiceID: id,
      invoiceNo: number,
      customNumber: '',
      invoiceLink: `https://${clientCode}.erply.com/invoice/${id}`,
      receiptLink: '',
      net: doc.netTotal,
      vat: doc.vatTotal,
      rounding: doc.rounding,
      total: doc.total,
      rows: rows.map((r) => ({
        rowID: Number(r.rowID),
        stableRowID: Number(r.stableRowID),
        productID: Number(r.productID),
        serviceID: 0,
        amount: r.amount,
      })),
    };
  }

  function getSalesDocuments(p: Params): Result {
    onlyKnown(p, [
      'id',
      'ids',
      'type',
      'types',
      'number',
      'clientID',
      'confirmed',
      'dateFrom',
      'dateTo',
      // No searchAttributeName/searchAttributeValue: learn-api.erply.com/requests/getsalesdocuments
      // lists no attribute search (only a third-party SDK's generated reference names one), so the
      // fake refuses it like any unknown parameter (issue 31 item 8).
      'getRowsForAllInvoices',
      'recordsOnPage',
      'pageNo',
    ]);
    let found = [...salesDocs.values()];
    const id = int(p, 'id');
    if (id !== null) found = found.filter((d) => d.id === id);
    if (p.type !== undefined) found = found.filter((d) => d.type === p.type);
    if (p.number !== undefined) found = found.filter((d) => d.number === p.number);
    const clientID = int(p, 'clientID');
    if (clientID !== null) found = found.filter((d) => d.clientID === clientID);
    // dateFrom / dateTo: the document's date, both ends included (yyyy-mm-dd).
    if (p.dateFrom !== undefined) found = found.filter((d) => String(d.date) >= p.dateFrom!);
    if (p.dateTo !== undefined) found = found.filter((d) => String(d.date) <= p.dateTo!);
    // Rows only when one document matched, an id was given, or getRowsForAllInvoices = 1.
    const withRows = found.length === 1 || id !== null || p.getRowsForAllInvoices === '1';
    const result = page(found, p);
    if (result === 'drop' || withRows) return result;
    return { ...result, records: result.records.map(({ rows: _rows, ...head }) => head) };
  }

  function getSuppliers(p: Params): Result {
    onlyKnown(p, [
      'supplierID',
      'searchName',
      'searchVATNo',
      'searchAttributeName',
      'searchAttributeValue',
      'recordsOnPage',
      'pageNo',
    ]);
    let found = [...suppliers.values()];
    const id = int(p, 'supplierID');
    if (id !== null) found = found.filter((s) => s.supplierID === id);
    if (p.searchVATNo !== undefined) found = found.filter((s) => s.vatNumber === p.searchVATNo);
    if (p.searchName !== undefined)
      found = found.filter((s) => String(s.fullName).toLowerCase().startsWith(p.searchName!.toLowerCase()));
    return page(byAttribute(found, p), p);
  }

  function saveSupplier(p: Params): Json {
    onlyKnown(
      p,
      [
        'supplierID',
        'companyName',
        'firstName',
        'lastName',
        'fullName',
        'code',
        'vatNumber',
        'bankName',
        'bankAccountNumber',
        'bankIBAN',
        'bankSWIFT',
        'phone',
        'email',
        'notes',
        'paymentDays',
        'currencyCode',
        'vatrateID',
      ],
      ATTRIBUTE_FIELDS,
    );
    if (p.supplierID !== undefined) refuse(1016, 'supplierID');
    const companyName = text(p, 'companyName', 255);
    if (!companyName && !p.lastName && !p.fullName) refuse(1010, 'companyName');
    for (const f of ['code', 'vatNumber', 'bankIBAN', 'bankSWIFT', 'phone', 'email']) text(p, f, 100);
    const id = nextCustomerId++;
    suppliers.set(id, {
      id,
      supplierID: id,
      supplierType: companyName ? 'COMPANY' : 'PERSON',
      fullName: companyName ?? p.fullName ?? [p.firstName, p.lastName].filter(Boolean).join(' '),
      companyName: companyName ?? '',
      code: p.code ?? '',
      vatNumber: p.vatNumber ?? '',
      bankIBAN: p.bankIBAN ?? '',
      bankSWIFT: p.bankSWIFT ?? '',
      phone: p.phone ?? '',
      email: p.email ?? '',
      paymentDays: int(p, 'paymentDays') ?? 14,
      attributes: attributes(p),
      added: Math.floor(Date.now() / 1000),
    });
    return { supplierID: id, alreadyExists: false };
  }

  function savePurchaseDocument(p: Params): Json {
    onlyKnown(
      p,
      [
        'id',
        'type',
        'warehouseID',
        'currencyCode',
        'currencyRate',
        'no',
        'date',
        'time',
        'confirmInvoice',
        'supplierID',
        'paymentDays',
        'referenceNumber',
        'notes',
        'rounding',
      ],
      [...ROW_FIELDS, ...ATTRIBUTE_FIELDS],
    );
    if (p.id !== undefined) refuse(1016, 'id');
    const type = p.type ?? 'PRCINVOICE';
    if (!PURCHASE_TYPES.includes(type)) refuse(1016, 'type');
    const supplierID = int(p, 'supplierID', true)!;
    const supplier = suppliers.get(supplierID);
    if (!supplier) refuse(1011, 'supplierID');
    const date = p.date ?? new Date().toISOString().slice(0, 10);
    if (!DATE.test(date)) refuse(1014, 'date');
    text(p, 'no', 50);
    text(p, 'referenceNumber', 100);
    const attrs = attributes(p);
    const { rows, net, vat, rounding } = documentRows(p, 'purchase');
    const id = nextPurchaseId++;
    const regnumber = String(nextPurchaseRegNo++);
    const currency = currencyOf(p);
    const doc: Json = {
      id,
      type,
      currencyCode: currency.code,
      currencyRate: currency.rate,
      warehouseID: int(p, 'warehouseID') ?? 1,
      number: p.no ?? '',
      regnumber,
      date,
      supplierID,
      supplierName: supplier!.fullName,
      paymentDays: String(int(p, 'paymentDays') ?? 14),
      confirmed: p.confirmInvoice === '0' ? '0' : '1',
      referenceNumber: p.referenceNumber ?? '',
      notes: p.notes ?? '',
      netTotal: money(net),
      vatTotal: money(vat),
      rounding: money(rounding),
      total: money(net + vat + rounding),
      rows,
      attributes: attrs,
      added: Math.floor(Date.now() / 1000),
    };
    purchaseDocs.set(id, doc);
    return {
      invoiceID: id,
      invoiceRegNo: regnumber,
      invoiceNo: doc.number,
      invoiceLink: `https://${clientCode}.erply.com/purchase/${id}`,
      net: doc.netTotal,
      vat: doc.vatTotal,
      total: doc.total,
    };
  }

  function getPurchaseDocuments(p: Params): Result {
    onlyKnown(p, [
      'id',
      'supplierID',
      'type',
      'number',
      'searchAttributeName',
      'searchAttributeValue',
      'getRowsForAllInvoices',
      'recordsOnPage',
      'pageNo',
    ]);
    let found = [...purchaseDocs.values()];
    const id = int(p, 'id');
    if (id !== null) found = found.filter((d) => d.id === id);
    const supplierID = int(p, 'supplierID');
    if (supplierID !== null) found = found.filter((d) => d.supplierID === supplierID);
    if (p.type !== undefined) found = found.filter((d) => d.type === p.type);
    if (p.number !== undefined) found = found.filter((d) => d.number === p.number);
    return page(byAttribute(found, p), p);
  }

  const carrying = (docs: Map<number, Json>, key?: string) =>
    key === undefined
      ? docs.size
      : [...docs.values()].filter((d) => (d.attributes as Json[]).some((a) => a.attributeValue === key)).length;

  return {
    url,
    clientCode,
    username,
    password,
    invoiceCount: (key) => carrying(salesDocs, key),
    customerCount: () => customers.size,
    articleCount: () => products.size,
    invoice: (externalId) => salesDocs.get(Number(externalId)) ?? null,
    supplierInvoiceCount: (key) => carrying(purchaseDocs, key),
    supplierCount: () => suppliers.size,
    supplierInvoice: (externalId) => purchaseDocs.get(Number(externalId)) ?? null,
    // Erply's session keys are its access tokens: expired ones answer 1054; verifyUser issues new ones.
    expireAccessTokens() {
      for (const key of sessions.keys()) sessions.set(key, Date.now() - 1);
    },
    failNext(status, retryAfterSeconds) {
      pendingFailure = { status, retryAfter: retryAfterSeconds };
    },
    dropNextCreateResponse() {
      dropNextCreate = true;
    },
    requestCount: () => requests,
    rateLimitedCount: () => rateLimited,
    sessionCount: () => sessionsIssued,
    salesDocuments: () => [...salesDocs.values()],
    purchaseDocuments: () => [...purchaseDocs.values()],
    vatRates: () => vatRates,
    forgetTemporaryUUIDs() {
      temporaryUUIDs.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
