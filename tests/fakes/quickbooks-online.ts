import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml, htmlPage, submitConsentForm } from './consent-page';
import type { ErpFakeControl } from '~/tests/erp-contract/erp-contract';
import { QBO_FIELDS } from './quickbooks-online.fields';

/*
 * A local fake of QuickBooks Online (Intuit): its OAuth2 consent page and token endpoint and the
 * parts of the Accounting API v3 the erp-quickbooks plugin uses, on a node:http port. Why a fake:
 * the ERP contract suite must run offline, without an Intuit developer account, and a mock of fetch
 * would test nothing. It speaks the wire format the plugin meets in production: entities wrapped in
 * their name ({"Invoice": {...}}), the realm in the path (/v3/company/{realmId}/…), the SQL-like
 * query endpoint answering {"QueryResponse": {...}}, Fault bodies, SyncToken on updates, the
 * requestid replay and Intuit's throttling, with validation where Intuit refuses.
 *
 * Sources (found with the search tools):
 * - Intuit's XSD of the v3 API (intuit/QuickBooks-V3-Java-SDK, ipp-v3-java-data/src/main/xsd/
 *   Finance.xsd, IntuitNamesTypes.xsd, IntuitBaseTypes.xsd): every field name, the Line detail types
 *   (LineDetailTypeEnum), ItemTypeEnum, GlobalTaxCalculationEnum, TxnTaxDetail/TaxLineDetail,
 *   TaxCode.SalesTaxRateList/PurchaseTaxRateList → TaxRateDetail.TaxRateRef, TaxRate.RateValue.
 *   Intuit publishes no OpenAPI document for the accounting API; the writable-field lists are derived
 *   from the XSD by tests/fakes/quickbooks-online.xsd-fields.mjs into quickbooks-online.fields.ts.
 * - developer.intuit.com …/learn/learn-basic-field-definitions (realm id in every URI),
 *   …/explore-the-quickbooks-online-api/minor-versions (minor versions 1–74 discontinued from
 *   1 August 2025: 75 is the oldest served), …/troubleshooting/error-codes and
 *   …/handling-common-errors (the Fault/Error body {"Fault":{"Error":[{"Message","Detail","code",
 *   "element"}],"type":"ValidationFault"},"time"}, HTTP statuses, 610 Object Not Found).
 * - blogs.intuit.com 2015/04/06 "Request ID update for QuickBooks Online integration": requestid as a
 *   query parameter, unique per company, at most 50 characters; "If the service receives another
 *   request with the same RequestID, instead of performing the operation again or returning an
 *   error, the service sends the same response as it did for the original request."
 * - blogs.intuit.com 2016/08/08 "QuickBooks Online API throttling changes": 500 requests per minute
 *   per realmId, at most 10 concurrent requests per app and realmId, both answered with HTTP 429;
 *   the throttle fault's text "message=ThrottleExceeded; errorCode=003001; statusCode=429".
 * - Public integrations' captures of Intuit's answers (found with find_string): the 401 body
 *   {"fault":{"error":[{"message":"message=AuthenticationFailed; errorCode=003200; statusCode=401",
 *   "detail":"Token expired: …","code":"3200"}],"type":"AUTHENTICATION"}} — lower case, unlike the
 *   other faults; 6240 "Duplicate Name Exists Error" with "The name supplied already exists. : …";
 *   2050 "String length is either shorter or longer than supported by specification" with
 *   "Min:0 Max:21 supported" for DocNumber (chargebee.com QBO error code 2050 article).
 * - developer.intuit.com …/explore-the-quickbooks-online-api/data-queries (operators IN, =, …;
 *   values "(Value [,Value])", true, false) and blogs.intuit.com 2017/02/08 "Deep dive into QuickBooks
 *   Online data queries" ("SELECT * FROM Customer" "retrieves all active customers"): a name list's
 *   query answers only active entries unless its WHERE says Active, e.g. Active IN (true,false);
 *   but a name stays taken by an inactive entry, so creating its namesake fails with 6240 (Teachworks'
 *   "QuickBooks Online Error Messages": the 6240 text "can occur if … the customer is inactive in
 *   QuickBooks"; developer.intuit.com blog 2017/06/08 "Top QuickBooks Online API errors": 6240 and
 *   6000 "A business validation error has occurred while processing your request").
 * - Intuit's Invoice reference (the DocNumber field, also in the SDKs' generated docs): "If
 *   Preferences:CustomTxnNumber is false then do not send a value as it can lead to unwanted
 *   duplicates"; the preference is Preferences.SalesFormsPrefs.CustomTxnNumbers (GET preferences).
 * - The OAuth2 flow (appcenter.intuit.com/connect/oauth2 with client_id, response_type=code,
 *   scope=com.intuit.quickbooks.accounting, redirect_uri, state; the redirect back carrying code,
 *   state and realmId; oauth.platform.intuit.com/oauth2/v1/tokens/bearer with HTTP Basic answering
 *   token_type, expires_in 3600, refresh_token, x_refresh_token_expires_in, access_token).
 *
 * What no source states, so the fake chooses (each marked "fake's choice" or "paraphrase" below):
 * - Whether a replayed requestid also replays a refusal: the fake replays whatever the service
 *   answered the first time (errors too), as the blog's words say; requests refused before the
 *   service (401, 403, 429, failNext) are not remembered. How long Intuit remembers a requestid is
 *   not published: the fake remembers for its lifetime.
 * - Retry-After on a 429: Intuit's pages do not promise the header; the fake sends one.
 * - The exact Detail texts of 2020, 2500, 5010, 6000, 6070, 6140, 4000/4001 (paraphrases).
 * - The consent page: Intuit's is a sign-in plus a company picker; the fake shows the one company and
 *   a "Connect" and a "Cancel" button.
 * - Requests without minorversion or with one below 75 are refused (Intuit serves them as 75); it
 *   keeps the plugin honest about sending it on every call.
 * - Refresh tokens rotate on every refresh and the old one stops working (Intuit says the value may
 *   change and to always keep the latest).
 */

type Rec = Record<string, unknown>;

export interface QuickBooksFake extends ErpFakeControl {
  /** Base URL of the fake (API, consent page and token endpoint). */
  url: string;
  /** Where the plugin's authorizeUrl and tokenUrl options point. */
  authorizeUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  realmId: string;
  invoices(): Rec[];
  bills(): Rec[];
  customer(id: string): Rec | null;
  vendor(id: string): Rec | null;
  item(id: string): Rec | null;
  /** Access tokens issued so far stop working, and so do refresh tokens (the tenant must connect again). */
  revokeTokens(): void;
  /** The highest number of API requests the fake had in flight at once for the realm. */
  maxInFlight(): number;
  /** Turns the company's Preferences.SalesFormsPrefs.CustomTxnNumbers on or off (Account and settings → Sales). */
  setCustomTxnNumbers(on: boolean): void;
}

export interface QuickBooksFakeOptions {
  clientId?: string;
  clientSecret?: string;
  realmId?: string;
  companyName?: string;
  /** Intuit's limit per realm: 500 requests per minute. */
  rateLimit?: { requests: number; perMs: number };
  /** Intuit's concurrency limit per app and realm: 10. */
  maxConcurrent?: number;
  /** Holds every API answer this long (lets a test have requests in flight together). */
  responseDelayMs?: number;
  /**
   * Preferences.SalesFormsPrefs.CustomTxnNumbers: false makes QuickBooks number invoices itself, and
   * then an invoice that carries a DocNumber is refused (see createInvoice).
   */
  customTxnNumbers?: boolean;
  homeCurrency?: string;
}

// --- money: integer cents, so sums are exact ---------------------------------------------------------

const toCents = (value: number) => Math.round(value * 100 + (value >= 0 ? 1e-7 : -1e-7));
const fromCents = (cents: number) => cents / 100;
const num = (value: unknown): number | null => {
  if (value === undefined || value === null || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : NaN;
};

class Fault {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly detail: string,
    readonly code: string,
    readonly element?: string,
    readonly type = 'ValidationFault',
  ) {}
}
function fault(message: string, detail: string, code: string, element?: string, status = 400): never {
  throw new Fault(status, message, detail, code, element);
}
const required = (field: string): never =>
  // paraphrase of Intuit's 2020 text
  fault(
    'Required param missing, need to supply the required value for the API',
    `Required parameter ${field} is missing in the request`,
    '2020',
    field,
  );
const invalidRef = (field: string): never =>
  // paraphrase of Intuit's 2500 Detail
  fault('Invalid Reference Id', `Invalid Reference Id : ${field} does not exist in this company`, '2500', field);
function maxLength(value: unknown, max: number, field: string) {
  if (typeof value === 'string' && value.length > max)
    fault(
      'String length is either shorter or longer than supported by specification',
      `String length specified does not match the supported length. Min:0 Max:${max} supported. Supplied length:${value.length}`,
      '2050',
      field,
    );
}
function onlyFields(input: Rec, allowed: ReadonlySet<string>, where: string) {
  for (const key of Object.keys(input))
    if (!allowed.has(key) && key !== 'sparse' && key !== 'domain')
      fault(
        'Request has invalid or unsupported property',
        `Property Name:Unrecognized field "${key}" specified is unsupported or invalid`,
        '2010',
        `${where}.${key}`,
      );
}
const isRef = (value: unknown): value is { value: string } =>
  !!value && typeof value === 'object' && typeof (value as Rec).value === 'string';
const dateOk = (value: unknown) => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** Name lists QuickBooks answers only active entries of unless the query says Active. */
const NAME_LISTS = new Set(['Customer', 'Vendor', 'Item', 'Account', 'TaxCode', 'TaxRate']);
/** Properties a query may filter on (Intuit's reference marks them "filterable"); others are refused. */
const FILTERABLE: Record<string, Set<string>> = {
  Customer: new Set(['Id', 'DisplayName', 'GivenName', 'FamilyName', 'CompanyName', 'Active', 'PrimaryEmailAddr']),
  Vendor: new Set(['Id', 'DisplayName', 'GivenName', 'FamilyName', 'CompanyName', 'Active', 'PrimaryEmailAddr']),
  Item: new Set(['Id', 'Name', 'Sku', 'Type', 'Active', 'FullyQualifiedName']),
  Invoice: new Set(['Id', 'DocNumber', 'TxnDate', 'DueDate', 'CustomerRef', 'TotalAmt', 'Balance']),
  Bill: new Set(['Id', 'DocNumber', 'TxnDate', 'DueDate', 'VendorRef', 'TotalAmt', 'Balance']),
  Account: new Set(['Id', 'Name', 'AcctNum', 'AccountType', 'Classification', 'Active', 'FullyQualifiedName']),
  TaxCode: new Set(['Id', 'Name', 'Active']),
  TaxRate: new Set(['Id', 'Name', 'Active']),
  CompanyInfo: new Set(['Id']),
};

export async function startQuickBooksFake(options: QuickBooksFakeOptions = {}): Promise<QuickBooksFake> {
  const clientId = options.clientId ?? 'ABqbo-ordo-test-client-0123456789abcdef';
  const clientSecret = options.clientSecret ?? 'qbo-test-secret-0123456789abcdef0123';
  const realmId = options.realmId ?? String(9_130_000_000_000_000 + Math.floor(Math.random() * 1e12));
  const limit = options.rateLimit ?? { requests: 500, perMs: 60_000 };
  const maxConcurrent = options.maxConcurrent ?? 10;
  let customTxnNumbers = options.customTxnNumbers ?? true;
  const homeCurrency = options.homeCurrency ?? 'SEK';
  const now = () => new Date().toISOString();

  const companyInfo: Rec = {
    CompanyName: options.companyName ?? 'Ordo Testbolag AB',
    LegalName: options.companyName ?? 'Ordo Testbolag AB',
    CompanyAddr: { Id: '1', Line1: 'Testvägen 1', City: 'Stockholm', PostalCode: '111 22', Country: 'SE' },
    Country: 'SE',
    SupportedLanguages: 'en',
    FiscalYearStartMonth: 'January',
    Id: '1',
    SyncToken: '0',
    domain: 'QBO',
    sparse: false,
  };

  // --- the company's lists ---------------------------------------------------------------------------
  let seq = 100;
  const nextId = () => String(++seq);
  const stamp = () => ({ CreateTime: now(), LastUpdatedTime: now() });
  const store = {
    Customer: new Map<string, Rec>(),
    Vendor: new Map<string, Rec>(),
    Item: new Map<string, Rec>(),
    Invoice: new Map<string, Rec>(),
    Bill: new Map<string, Rec>(),
    Account: new Map<string, Rec>(),
    TaxCode: new Map<string, Rec>(),
    TaxRate: new Map<string, Rec>(),
  };
  type Entity = keyof typeof store;

  // A chart of accounts with account numbers switched on (BAS numbers, as a Swedish company keeps them).
  const accounts: [string, string, string, string][] = [
    ['1', '1930', 'Företagskonto', 'Bank'],
    ['2', '1510', 'Kundfordringar', 'Accounts Receivable'],
    ['3', '2440', 'Leverantörsskulder', 'Accounts Payable'],
    ['4', '3001', 'Försäljning 25 %', 'Income'],
    ['5', '3002', 'Försäljning 12 %', 'Income'],
    ['6', '3003', 'Försäljning 6 %', 'Income'],
    ['7', '3004', 'Försäljning momsfri', 'Income'],
    ['8', '3231', 'Försäljning byggtjänster omvänd moms', 'Income'],
    ['9', '3541', 'Faktureringsavgifter', 'Income'],
    ['10', '3740', 'Öres- och kronutjämning', 'Income'],
    ['11', '4010', 'Inköp material och varor', 'Cost of Goods Sold'],
    ['12', '5831', 'Kost och logi', 'Expense'],
    ['13', '6570', 'Bankkostnader', 'Expense'],
  ];
  for (const [Id, AcctNum, Name, AccountType] of accounts)
    store.Account.set(Id, {
      Id,
      Name,
      AcctNum,
      AccountType,
      Classification: AccountType === 'Income' ? 'Revenue' : /Expense|Goods/.test(AccountType) ? 'Expense' : 'Asset',
      FullyQualifiedName: Name,
      Active: true,
      SubAccount: false,
      CurrentBalance: 0,
      CurrencyRef: { value: homeCurrency },
      SyncToken: '0',
      domain: 'QBO',
      sparse: false,
      MetaData: stamp(),
    });

  // VAT as a non-US QuickBooks company keeps it: a TaxRate per rate and direction, and TaxCodes that
  // name the rates a sale and a purchase are taxed at (the fake's own set: 25/12/6/0 and reverse charge).
  const rates: [string, string, number][] = [
    ['1', 'Utgående moms 25 %', 25],
    ['2', 'Utgående moms 12 %', 12],
    ['3', 'Utgående moms 6 %', 6],
    ['4', 'Ingående moms 25 %', 25],
    ['5', 'Ingående moms 12 %', 12],
    ['6', 'Ingående moms 6 %', 6],
    ['7', 'Momsfri 0 %', 0],
  ];
  for (const [Id, Name, RateValue] of rates)
    store.TaxRate.set(Id, { Id, Name, Description: Name, Active: true, RateValue, SyncToken: '0', domain: 'QBO' });
  const rateList = (...ids: string[]) => ({
    TaxRateDetail: ids.map((id, i) => ({
      TaxRateRef: { value: id, name: store.TaxRate.get(id)!.Name },
      TaxTypeApplicable: 'TaxOnAmount',
      TaxOrder: i,
    })),
  });
  const codes: [string, string, string, string[], string[]][] = [
    ['3', 'MOMS 25', 'Moms 25 %', ['1'], ['4']],
    ['4', 'MOMS 12', 'Moms 12 %', ['2'], ['5']],
    ['5', 'MOMS 6', 'Moms 6 %', ['3'], ['6']],
    ['6', 'MOMS 0', 'Momsfri 0 %', ['7'], ['7']],
    ['7', 'OMVÄND', 'Omvänd betalningsskyldighet (reverse charge)', ['7'], []],
  ];
  for (const [Id, Name, Description, sales, purchase] of codes)
    store.TaxCode.set(Id, {
      Id,
      Name,
      Description,
      Active: true,
      Hidden: false,
      Taxable: true,
      TaxGroup: true,
      SalesTaxRateList: rateList(...sales),
      PurchaseTaxRateList: rateList(...purchase),
      SyncToken: '0',
      domain: 'QBO',
      sparse: false,
      MetaData: stamp(),
    });

  // A new QuickBooks company comes with the items "Services" and "Hours".
  for (const [Id, Name] of [
    ['1', 'Services'],
    ['2', 'Hours'],
  ])
    store.Item.set(Id, {
      Id,
      Name,
      FullyQualifiedName: Name,
      Active: true,
      Type: 'Service',
      Taxable: false,
      UnitPrice: 0,
      IncomeAccountRef: { value: '4', name: 'Försäljning 25 %' },
      TrackQtyOnHand: false,
      SyncToken: '0',
      domain: 'QBO',
      sparse: false,
      MetaData: stamp(),
    });

  // --- OAuth ------------------------------------------------------------------------------------------
  const codesIssued = new Map<string, { redirectUri: string; expiresAt: number }>();
  const accessTokens = new Map<string, { expiresAt: number }>();
  const refreshTokens = new Set<string>();
  /** Intuit's access tokens are encrypted JWTs (JWE, "dir" + A128CBC-HS256): opaque to the app. */
  const jwe = () =>
    `eyJlbmMiOiJBMTI4Q0JDLUhTMjU2IiwiYWxnIjoiZGlyIn0..${randomBytes(16).toString('base64url')}.` +
    `${randomBytes(96).toString('base64url')}.${randomBytes(16).toString('base64url')}`;

  // --- bookkeeping for the suite --------------------------------------------------------------------
  let pendingFailure: { status: number; retryAfterSeconds?: number } | null = null;
  let dropNextCreate = false;
  let requests = 0;
  let rateLimited = 0;
  let inFlight = 0;
  let maxSeen = 0;
  const window: number[] = [];
  const replies = new Map<string, { status: number; body: unknown }>();

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { message: `fake QuickBooks failed: ${(err as Error).message}` });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': 'application/json;charset=UTF-8', intuit_tid: randomUUID(), ...headers });
    res.end(JSON.stringify(body));
  }
  const faultBody = (f: Fault) => ({
    Fault: {
      Error: [{ Message: f.message, Detail: f.detail, code: f.code, ...(f.element ? { element: f.element } : {}) }],
      type: f.type,
    },
    time: now(),
  });

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const arrived = Date.now();
    const url = new URL(req.url ?? '/', base);
    const body = await readBody(req);
    if (url.pathname === '/connect/oauth2')
      return req.method === 'POST' ? consentAnswer(res, body) : consentPage(res, url);
    if (url.pathname === '/oauth2/v1/tokens/bearer' && req.method === 'POST') return token(req, res, body);
    const m = /^\/v3\/company\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (m) return api(req, res, url, decodeURIComponent(m[1]!), m[2]!, body, arrived);
    json(res, 404, { message: 'Not Found' });
  }

  // --- consent page ---------------------------------------------------------------------------------

  function consentProblem(p: URLSearchParams): string | null {
    if (p.get('client_id') !== clientId) return 'Invalid client_id.';
    if (p.get('response_type') !== 'code') return 'response_type must be code.';
    if (!p.get('redirect_uri')) return 'redirect_uri is missing.';
    if (!(p.get('scope') ?? '').split(/\s+/).includes('com.intuit.quickbooks.accounting'))
      return 'scope must include com.intuit.quickbooks.accounting.';
    if (!p.get('state')) return 'state is missing.';
    return null;
  }
  function consentPage(res: http.ServerResponse, url: URL) {
    const p = url.searchParams;
    const problem = consentProblem(p);
    if (problem)
      return htmlPage(res, 400, 'Intuit – error', `<h1>Something went wrong</h1>\n<p>${escapeHtml(problem)}</p>`);
    const hidden = ['client_id', 'redirect_uri', 'scope', 'state', 'response_type']
      .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(p.get(name)!)}">`)
      .join('\n');
    htmlPage(
      res,
      200,
      'Intuit – connect your QuickBooks company',
      `<h1>Connect to QuickBooks</h1>\n` +
        `<p>The app wants to read and write the accounting data of this company:</p>\n` +
        `<form method="post" action="/connect/oauth2">\n${hidden}\n` +
        `<label><input type="radio" name="realmId" value="${escapeHtml(realmId)}" checked> ` +
        `${escapeHtml(String(companyInfo.CompanyName))}</label>\n` +
        `<button type="submit" name="decision" value="connect">Connect</button>\n` +
        `<button type="submit" name="decision" value="cancel">Cancel</button>\n</form>`,
    );
  }
  function consentAnswer(res: http.ServerResponse, body: string) {
    const p = new URLSearchParams(body);
    const problem = consentProblem(p);
    if (problem)
      return htmlPage(res, 400, 'Intuit – error', `<h1>Something went wrong</h1>\n<p>${escapeHtml(problem)}</p>`);
    const back = new URL(p.get('redirect_uri')!);
    if (p.get('decision') !== 'connect') back.searchParams.set('error', 'access_denied');
    else {
      const code = `AB11${randomBytes(24).toString('hex')}`;
      codesIssued.set(code, { redirectUri: p.get('redirect_uri')!, expiresAt: Date.now() + 5 * 60_000 });
      back.searchParams.set('code', code);
      back.searchParams.set('realmId', realmId);
    }
    back.searchParams.set('state', p.get('state')!);
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  function issueTokens() {
    const accessToken = jwe();
    const refreshToken = `AB11${randomBytes(32).toString('hex')}`;
    accessTokens.set(accessToken, { expiresAt: Date.now() + 3600_000 });
    refreshTokens.add(refreshToken);
    return {
      token_type: 'bearer',
      expires_in: 3600,
      refresh_token: refreshToken,
      x_refresh_token_expires_in: 8_726_400,
      access_token: accessToken,
    };
  }
  function token(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const [id, secret] = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':') : [];
    if (id !== clientId || secret !== clientSecret) return json(res, 401, { error: 'invalid_client' });
    const p = new URLSearchParams(body);
    const grant = p.get('grant_type');
    if (grant === 'authorization_code') {
      const code = codesIssued.get(p.get('code') ?? '');
      codesIssued.delete(p.get('code') ?? '');
      if (!code || code.expiresAt < Date.now() || code.redirectUri !== p.get('redirect_uri'))
        return json(res, 400, { error: 'invalid_grant' });
      return json(res, 200, issueTokens());
    }
    if (grant === 'refresh_token') {
      const old = p.get('refresh_token') ?? '';
      if (!refreshTokens.has(old)) return json(res, 400, { error: 'invalid_grant' });
      refreshTokens.delete(old);
      return json(res, 200, issueTokens());
    }
    json(res, 400, { error: 'unsupported_grant_type' });
  }

  // --- the API --------------------------------------------------------------------------------------

  const throttleBody = () => ({
    Fault: {
      Error: [
        {
          Message: 'message=ThrottleExceeded; errorCode=003001; statusCode=429',
          Detail: 'The request limit was reached.', // paraphrase
          code: '3001',
        },
      ],
      type: 'ThrottleExceeded', // fake's choice: the captures disagree on the type
    },
    time: now(),
  });

  async function api(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    realm: string,
    rest: string,
    body: string,
    arrived: number,
  ) {
    requests += 1;
    if (pendingFailure) {
      const failure = pendingFailure;
      pendingFailure = null;
      if (failure.status === 429)
        return json(res, 429, throttleBody(), { 'retry-after': String(failure.retryAfterSeconds ?? 1) });
      return json(res, failure.status, {
        Fault: {
          Error: [{ Message: 'An application error has occurred while processing your request', code: '10000' }],
          type: 'SystemFault',
        },
        time: now(),
      });
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const session = bearer ? accessTokens.get(bearer[1]!) : undefined;
    if (!session || session.expiresAt <= Date.now())
      return json(res, 401, {
        warnings: null,
        intuitObject: null,
        fault: {
          error: [
            {
              message: 'message=AuthenticationFailed; errorCode=003200; statusCode=401',
              detail: session ? 'Token expired: 0.0' : 'Token revoked',
              code: '3200',
              element: null,
            },
          ],
          type: 'AUTHENTICATION',
        },
        report: null,
        queryResponse: null,
        batchItemResponse: [],
        attachableResponse: [],
        syncErrorResponse: null,
        requestId: null,
        time: Date.now(),
        status: null,
        cdcresponse: [],
      });
    if (realm !== realmId)
      return json(res, 403, {
        Fault: {
          Error: [
            {
              Message: 'message=ApplicationAuthorizationFailed; errorCode=003100; statusCode=403',
              Detail: 'The token is not for this company', // paraphrase
              code: '3100',
            },
          ],
          type: 'AuthorizationFault',
        },
        time: now(),
      });
    // 500 requests a minute per realm, counted by arrival; 10 at once per app and realm.
    while (window.length && arrived - window[0]! >= limit.perMs) window.shift();
    if (window.length >= limit.requests) {
      rateLimited += 1;
      const waitMs = window[0]! + limit.perMs - arrived;
      return json(res, 429, throttleBody(), { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) });
    }
    if (inFlight >= maxConcurrent) {
      rateLimited += 1;
      return json(res, 429, throttleBody(), { 'retry-after': '1' });
    }
    window.push(arrived);
    inFlight += 1;
    maxSeen = Math.max(maxSeen, inFlight);
    try {
      if (options.responseDelayMs) await new Promise((r) => setTimeout(r, options.responseDelayMs));
      const minor = Number(url.searchParams.get('minorversion'));
      if (!Number.isInteger(minor) || minor < 75)
        // fake's choice (Intuit serves an old or missing minor version as 75): keeps the plugin honest
        return json(
          res,
          400,
          faultBody(
            new Fault(400, 'Invalid minorversion', 'minorversion must be 75 or later on every request', '2010'),
          ),
        );
      const requestId = url.searchParams.get('requestid');
      if (requestId !== null && requestId.length > 50)
        return json(
          res,
          400,
          faultBody(new Fault(400, 'Invalid requestid', 'The requestid can have at most 50 characters', '2010')),
        );
      const remembered = requestId ? replies.get(requestId) : undefined;
      if (remembered) return json(res, remembered.status, remembered.body);
      let answer: { status: number; body: unknown; drop?: boolean };
      try {
        answer = route(req.method ?? 'GET', rest, url.searchParams, body);
      } catch (err) {
        if (!(err instanceof Fault)) throw err;
        answer = { status: err.status, body: faultBody(err) };
      }
      if (requestId) replies.set(requestId, { status: answer.status, body: answer.body });
      if (answer.drop) {
        res.socket?.destroy();
        return;
      }
      json(res, answer.status, answer.body);
    } finally {
      inFlight -= 1;
    }
  }

  const ENTITY_PATHS: Record<string, Entity> = {
    customer: 'Customer',
    vendor: 'Vendor',
    item: 'Item',
    invoice: 'Invoice',
    bill: 'Bill',
    account: 'Account',
    taxcode: 'TaxCode',
    taxrate: 'TaxRate',
  };

  function route(
    method: string,
    rest: string,
    query: URLSearchParams,
    text: string,
  ): { status: number; body: unknown; drop?: boolean } {
    const [resource, id, ...more] = rest.split('/').map(decodeURIComponent);
    if (more.length) return { status: 404, body: { message: 'Not Found' } };
    if (resource === 'query' && method === 'GET') return { status: 200, body: runQuery(query.get('query') ?? '') };
    if (resource === 'companyinfo' && method === 'GET') {
      if (id !== realmId) fault('Object Not Found', 'Object Not Found : CompanyInfo', '610');
      return { status: 200, body: { CompanyInfo: companyInfo, time: now() } };
    }
    // GET /v3/company/{realmId}/preferences answers the one Preferences object (Intuit's API reference,
    // entity Preferences: "Read preferences"); SalesFormsPrefs.CustomTxnNumbers as in Intuit's sample
    // answer. Only the sections the plugin reads are filled in.
    if (resource === 'preferences' && method === 'GET' && !id)
      return { status: 200, body: { Preferences: preferences(), time: now() } };
    const entity = ENTITY_PATHS[resource ?? ''];
    if (!entity) return { status: 404, body: { message: 'Not Found' } };
    if (method === 'GET' && id) {
      const found = store[entity].get(id);
      if (!found)
        fault(
          'Object Not Found',
          "Object Not Found : Something you're trying to use has been made inactive. Check the fields with accounts, customers, items, vendors or employees.",
          '610',
        );
      return { status: 200, body: { [entity]: found, time: now() } };
    }
    if (method !== 'POST' || id) return { status: 405, body: { message: 'Method Not Allowed' } };
    let payload: Rec;
    try {
      payload = JSON.parse(text || '{}') as Rec;
    } catch {
      return fault('Request has invalid or unsupported property', 'Error parsing object', '2010');
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload))
      fault('Request has invalid or unsupported property', 'Error parsing object', '2010');
    if (payload.Id !== undefined) return { status: 200, body: { [entity]: update(entity, payload), time: now() } };
    const created = create(entity, payload);
    if ((entity === 'Invoice' || entity === 'Bill') && dropNextCreate) {
      dropNextCreate = false;
      return { status: 200, body: { [entity]: created, time: now() }, drop: true };
    }
    return { status: 200, body: { [entity]: created, time: now() } };
  }

  function preferences(): Rec {
    return {
      SalesFormsPrefs: {
        CustomTxnNumbers: customTxnNumbers,
        AllowDiscount: true,
        AllowEstimates: true,
        AllowServiceDate: true,
        AllowShipping: false,
        ETransactionEnabledStatus: 'NotApplicable',
      },
      CurrencyPrefs: { MultiCurrencyEnabled: false, HomeCurrency: { value: homeCurrency } },
      Id: '1',
      SyncToken: '0',
      domain: 'QBO',
      sparse: false,
    };
  }

  // --- query ----------------------------------------------------------------------------------------

  function runQuery(sql: string) {
    const parsed =
      /^\s*select\s+\*\s+from\s+(\w+)(?:\s+where\s+(.+?))?(?:\s+orderby\s+\w+(?:\s+(?:asc|desc))?)?(?:\s+startposition\s+(\d+))?(?:\s+maxresults\s+(\d+))?\s*$/is.exec(
        sql,
      );
    if (!parsed)
      fault('QueryParserError', `QueryParserError: Encountered an unexpected token in "${sql.slice(0, 200)}"`, '4000'); // paraphrase
    const entity = Object.keys(FILTERABLE).find((e) => e.toLowerCase() === parsed![1]!.toLowerCase());
    if (!entity) fault('QueryValidationError', `QueryValidationError: Entity ${parsed![1]} is not supported`, '4001');
    const conditions: { field: string; values: string[] }[] = [];
    if (parsed![2]) {
      for (const part of parsed![2].split(/\s+and\s+(?=(?:[^']*'[^']*')*[^']*$)/i)) {
        const c =
          /^\s*([\w.]+)\s*=\s*'((?:[^'\\]|\\.)*)'\s*$/.exec(part) ??
          /^\s*([\w.]+)\s*=\s*(true|false|\d+(?:\.\d+)?)\s*$/i.exec(part);
        const inList = /^\s*([\w.]+)\s+in\s*\((.*)\)\s*$/i.exec(part);
        let field: string;
        let values: string[];
        if (c) {
          field = c[1]!;
          values = [c[2]!.replace(/\\(.)/g, '$1')];
        } else if (inList) {
          field = inList[1]!;
          values = [...inList[2]!.matchAll(/'((?:[^'\\]|\\.)*)'|(true|false|\d+)/gi)].map((v) =>
            (v[1] ?? v[2]!).replace(/\\(.)/g, '$1'),
          );
        } else
          return fault('QueryParserError', `QueryParserError: Encountered an unexpected token in "${part}"`, '4000'); // paraphrase
        if (!FILTERABLE[entity!]!.has(field.split('.')[0]!))
          fault('QueryValidationError', `QueryValidationError: property '${field}' is not queryable`, '4001'); // paraphrase
        conditions.push({ field, values });
      }
    }
    const maxResults = parsed![4] ? Number(parsed![4]) : 100;
    if (maxResults > 1000)
      fault('QueryValidationError', 'QueryValidationError: MAXRESULTS must be 1000 or less', '4001'); // paraphrase
    const start = parsed![3] ? Number(parsed![3]) : 1;
    const rows =
      entity === 'CompanyInfo'
        ? [companyInfo]
        : [...store[entity as Entity].values()].sort((a, b) => Number(a.Id) - Number(b.Id));
    const activeSaid = conditions.some((c) => c.field === 'Active');
    const hits = rows.filter((row) => {
      if (NAME_LISTS.has(entity!) && !activeSaid && row.Active === false) return false;
      return conditions.every(({ field, values }) => {
        const raw = field === 'PrimaryEmailAddr' ? (row.PrimaryEmailAddr as Rec | undefined)?.Address : row[field];
        const value = isRef(raw) ? raw.value : raw;
        // QuickBooks compares names without regard to case.
        return values.some((v) => String(value ?? '').toLowerCase() === v.toLowerCase());
      });
    });
    const page = hits.slice(start - 1, start - 1 + maxResults);
    return {
      QueryResponse: page.length ? { [entity!]: page, startPosition: start, maxResults: page.length } : {},
      time: now(),
    };
  }

  // --- name lists -----------------------------------------------------------------------------------

  function nameTaken(displayName: string, exceptId?: string) {
    const lower = displayName.toLowerCase();
    return [...store.Customer.values(), ...store.Vendor.values()].some(
      (r) => r.Id !== exceptId && String(r.DisplayName ?? '').toLowerCase() === lower,
    );
  }
  const duplicateName = (what: string): never =>
    fault(
      'Duplicate Name Exists Error',
      `The name supplied already exists. : Another ${what} is already using this name. Please use a different name.`,
      '6240',
    );

  function checkContact(input: Rec, kind: 'Customer' | 'Vendor', exceptId?: string) {
    onlyFields(input, QBO_FIELDS[kind], kind);
    for (const f of ['DisplayName', 'CompanyName', 'GivenName', 'FamilyName', 'PrintOnCheckName'])
      maxLength(input[f], f === 'DisplayName' ? 500 : 100, f);
    maxLength(input.Notes, 2000, 'Notes');
    const email = input.PrimaryEmailAddr as Rec | undefined;
    if (email) {
      onlyFields(email, QBO_FIELDS.EmailAddress, 'PrimaryEmailAddr');
      if (typeof email.Address === 'string' && !/^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/.test(email.Address))
        fault('Invalid Email Address format', 'Email Address does not conform to the syntax rules of RFC 822', '2040'); // paraphrase
    }
    const phone = input.PrimaryPhone as Rec | undefined;
    if (phone) onlyFields(phone, QBO_FIELDS.TelephoneNumber, 'PrimaryPhone');
    const addr = input.BillAddr as Rec | undefined;
    if (addr) {
      onlyFields(addr, QBO_FIELDS.PhysicalAddress, 'BillAddr');
      maxLength(addr.Line1, 500, 'BillAddr.Line1');
      maxLength(addr.City, 255, 'BillAddr.City');
      maxLength(addr.PostalCode, 30, 'BillAddr.PostalCode');
    }
    const display = input.DisplayName;
    if (display !== undefined && (typeof display !== 'string' || !display.trim())) required(`${kind}.DisplayName`);
    if (typeof display === 'string' && /[:\t\n]/.test(display))
      fault('Invalid Name', 'The name can not contain a colon (:), tab or newline.', '2080'); // paraphrase
    if (typeof display === 'string' && nameTaken(display, exceptId))
      duplicateName(kind === 'Customer' ? 'customer, vendor or employee' : 'vendor, customer or employee');
  }

  function createContact(kind: 'Customer' | 'Vendor', input: Rec): Rec {
    checkContact(input, kind);
    const display =
      (input.DisplayName as string | undefined) ??
      ([input.GivenName, input.FamilyName].filter(Boolean).join(' ') || (input.CompanyName as string | undefined));
    if (!display) required('Name'); // Intuit: one of DisplayName, Title, GivenName, MiddleName, FamilyName, Suffix
    if (input.DisplayName === undefined && nameTaken(display!)) duplicateName('customer, vendor or employee');
    const Id = nextId();
    const record: Rec = {
      ...input,
      Id,
      SyncToken: '0',
      DisplayName: display,
      FullyQualifiedName: display,
      PrintOnCheckName: input.PrintOnCheckName ?? display,
      Active: input.Active ?? true,
      Balance: 0,
      CurrencyRef: input.CurrencyRef ?? { value: homeCurrency },
      domain: 'QBO',
      sparse: false,
      MetaData: stamp(),
    };
    if (kind === 'Customer')
      Object.assign(record, {
        Taxable: input.Taxable ?? false,
        Job: false,
        BillWithParent: false,
        PreferredDeliveryMethod: 'Print',
      });
    store[kind].set(Id, record);
    return record;
  }

  function checkItem(input: Rec, exceptId?: string) {
    onlyFields(input, QBO_FIELDS.Item, 'Item');
    const name = input.Name;
    if (typeof name !== 'string' || !name.trim()) required('Name');
    maxLength(name, 100, 'Name');
    maxLength(input.Sku, 100, 'Sku');
    maxLength(input.Description, 4000, 'Description');
    if (/[:\t\n]/.test(name as string))
      fault('Invalid Name', 'The name can not contain a colon (:), tab or newline.', '2080'); // paraphrase
    const lower = (name as string).toLowerCase();
    if ([...store.Item.values()].some((i) => i.Id !== exceptId && String(i.Name).toLowerCase() === lower))
      fault(
        'Duplicate Name Exists Error',
        'The name supplied already exists. : Another product or service is already using this name. Please use a different name.',
        '6240',
      );
    const type = input.Type ?? 'NonInventory';
    if (!['Service', 'NonInventory', 'Inventory', 'Category', 'Group'].includes(String(type)))
      fault('Invalid Enumeration', `Invalid Enumeration : ${String(type)} is not a valid Item Type`, '2120'); // paraphrase
    if (type === 'Inventory')
      for (const f of ['IncomeAccountRef', 'ExpenseAccountRef', 'AssetAccountRef', 'InvStartDate', 'QtyOnHand'])
        if (input[f] === undefined) required(f);
    if (type === 'Service' && !input.IncomeAccountRef && !input.ExpenseAccountRef) required('IncomeAccountRef');
    if (type === 'NonInventory' && !input.IncomeAccountRef && !input.ExpenseAccountRef) required('IncomeAccountRef');
    for (const f of ['IncomeAccountRef', 'ExpenseAccountRef', 'AssetAccountRef'])
      if (input[f] !== undefined && (!isRef(input[f]) || !store.Account.get((input[f] as Rec).value as string)))
        invalidRef(f);
    for (const f of ['SalesTaxCodeRef', 'PurchaseTaxCodeRef'])
      if (input[f] !== undefined && (!isRef(input[f]) || !store.TaxCode.get((input[f] as Rec).value as string)))
        invalidRef(f);
    const price = num(input.UnitPrice);
    if (Number.isNaN(price)) fault('Invalid Number', 'Invalid Number : UnitPrice', '2090'); // paraphrase
  }

  function createItem(input: Rec): Rec {
    checkItem(input);
    const Id = nextId();
    const account = isRef(input.IncomeAccountRef) ? store.Account.get(input.IncomeAccountRef.value) : undefined;
    const record: Rec = {
      ...input,
      Id,
      SyncToken: '0',
      FullyQualifiedName: input.Name,
      Active: input.Active ?? true,
      Type: input.Type ?? 'NonInventory',
      UnitPrice: num(input.UnitPrice) ?? 0,
      Taxable: input.Taxable ?? false,
      TrackQtyOnHand: false,
      ...(account ? { IncomeAccountRef: { value: account.Id, name: account.Name } } : {}),
      domain: 'QBO',
      sparse: false,
      MetaData: stamp(),
    };
    store.Item.set(Id, record);
    return record;
  }

  function update(entity: Entity, input: Rec): Rec {
    const existing = store[entity].get(String(input.Id));
    if (!existing) fault('Object Not Found', `Object Not Found : ${entity} ${String(input.Id)}`, '610');
    if (input.SyncToken === undefined) required('SyncToken');
    if (String(input.SyncToken) !== existing!.SyncToken)
      fault(
        'Stale Object Error',
        'Stale Object Error : You and root were working on this at the same time. root finished before you did, so your work was not saved.',
        '5010',
      );
    const { Id: _id, SyncToken: _token, sparse, ...changes } = input;
    if (entity === 'Customer' || entity === 'Vendor') checkContact(changes, entity, existing!.Id as string);
    else if (entity === 'Item')
      checkItem(
        {
          ...(sparse === true ? existing : {}),
          ...changes,
          Id: undefined,
          SyncToken: undefined,
          MetaData: undefined,
          FullyQualifiedName: undefined,
          domain: undefined,
          sparse: undefined,
        },
        existing!.Id as string,
      );
    else fault('Operation Not Supported', `The fake does not update ${entity}`, '500'); // fake's choice
    const next: Rec =
      sparse === true
        ? { ...existing!, ...changes }
        : { Id: existing!.Id, Active: true, ...changes, domain: 'QBO', sparse: false };
    next.SyncToken = String(Number(existing!.SyncToken) + 1);
    next.MetaData = { ...(existing!.MetaData as Rec), LastUpdatedTime: now() };
    if (next.DisplayName) next.FullyQualifiedName = next.DisplayName;
    store[entity].set(String(existing!.Id), next);
    return next;
  }

  // --- transactions ---------------------------------------------------------------------------------

  /** The rate a tax code applies, from its sales or purchase rate list; null when it names none. */
  function codeRate(codeId: string, side: 'SalesTaxRateList' | 'PurchaseTaxRateList'): number | null {
    const code = store.TaxCode.get(codeId);
    const details = ((code?.[side] as Rec | undefined)?.TaxRateDetail as Rec[] | undefined) ?? [];
    if (!details.length) return null;
    return details.reduce(
      (s, d) => s + Number(store.TaxRate.get((d.TaxRateRef as Rec).value as string)?.RateValue ?? 0),
      0,
    );
  }

  interface Priced {
    line: Rec;
    net: number;
    codeId: string | null;
  }

  function taxCodeOf(detail: Rec, path: string, side: 'SalesTaxRateList' | 'PurchaseTaxRateList'): string {
    if (detail.TaxCodeRef === undefined)
      // A company that charges VAT needs a code on every line (Intuit's UK text, 6000).
      fault(
        'A business validation error has occurred while processing your request',
        'Business Validation Error: Make sure all your transactions have a VAT rate before you save.',
        '6000',
        `${path}.TaxCodeRef`,
      );
    const ref = detail.TaxCodeRef;
    const code = isRef(ref) ? store.TaxCode.get(ref.value) : undefined;
    if (!code || code.Active === false) invalidRef(`${path}.TaxCodeRef`);
    if (codeRate(code!.Id as string, side) === null)
      fault(
        'A business validation error has occurred while processing your request',
        `Business Validation Error: The tax code ${String(code!.Name)} can not be used on this transaction.`,
        '6000',
        `${path}.TaxCodeRef`,
      ); // paraphrase
    return code!.Id as string;
  }

  function checkAmount(line: Rec, qty: number, price: number, path: string) {
    const amount = num(line.Amount);
    if (amount === null) required(`${path}.Amount`);
    if (Number.isNaN(amount)) fault('Invalid Number', `Invalid Number : ${path}.Amount`, '2090'); // paraphrase
    if (toCents(qty * price) !== toCents(amount!))
      fault(
        'A business validation error has occurred while processing your request',
        `Business Validation Error: Amount calculation incorrect in the request. Amount (Qty * UnitPrice) is not correct. Supplied value:${amount}`,
        '6070',
        `${path}.Amount`,
      ); // paraphrase
    return amount!;
  }

  function salesLines(input: Rec): Priced[] {
    if (!Array.isArray(input.Line) || !input.Line.length) required('Line');
    const out: Priced[] = [];
    let discounts = 0;
    (input.Line as unknown[]).forEach((raw, i) => {
      const path = `Line[${i}]`;
      if (!raw || typeof raw !== 'object')
        return fault('Request has invalid or unsupported property', `${path} is not an object`, '2010');
      const line = raw as Rec;
      onlyFields(line, QBO_FIELDS.Line, path);
      maxLength(line.Description, 4000, `${path}.Description`);
      const type = line.DetailType;
      if (type === 'DescriptionOnly') {
        out.push({
          line: { ...line, Id: String(i + 1), LineNum: i + 1, DescriptionLineDetail: line.DescriptionLineDetail ?? {} },
          net: 0,
          codeId: null,
        });
        return;
      }
      if (type === 'SalesItemLineDetail') {
        const detail = line.SalesItemLineDetail as Rec | undefined;
        if (!detail || typeof detail !== 'object') return required(`${path}.SalesItemLineDetail`);
        onlyFields(detail, QBO_FIELDS.SalesItemLineDetail, `${path}.SalesItemLineDetail`);
        // Without an ItemRef a line is documentation and its Amount is ignored (Intuit's reference).
        if (!isRef(detail.ItemRef)) return required(`${path}.SalesItemLineDetail.ItemRef`);
        const item = store.Item.get(detail.ItemRef.value);
        if (!item) return invalidRef(`${path}.SalesItemLineDetail.ItemRef`);
        if (item.Active === false)
          fault(
            'Object Not Found',
            "Object Not Found : Something you're trying to use has been made inactive. Check the fields with items.",
            '610',
          );
        const qty = num(detail.Qty) ?? 1;
        const price = num(detail.UnitPrice) ?? Number(item.UnitPrice ?? 0);
        if (Number.isNaN(qty) || Number.isNaN(price)) fault('Invalid Number', `Invalid Number : ${path}`, '2090'); // paraphrase
        const amount = checkAmount(line, qty, price, path);
        const codeId = taxCodeOf(detail, `${path}.SalesItemLineDetail`, 'SalesTaxRateList');
        if (detail.ServiceDate !== undefined && !dateOk(detail.ServiceDate))
          fault('Invalid Date', `Invalid Date : ${path}.SalesItemLineDetail.ServiceDate`, '2100'); // paraphrase
        out.push({
          line: {
            ...line,
            Id: String(i + 1),
            LineNum: i + 1,
            Amount: amount,
            SalesItemLineDetail: {
              ...detail,
              ItemRef: { value: item.Id, name: item.Name },
              Qty: qty,
              UnitPrice: price,
              TaxCodeRef: { value: codeId },
            },
          },
          net: toCents(amount),
          codeId,
        });
        return;
      }
      if (type === 'DiscountLineDetail') {
        if (++discounts > 1)
          fault(
            'A business validation error has occurred while processing your request',
            'Business Validation Error: Only one discount line is allowed.',
            '6000',
          ); // paraphrase
        const detail = (line.DiscountLineDetail ?? {}) as Rec;
        onlyFields(detail, QBO_FIELDS.DiscountLineDetail, `${path}.DiscountLineDetail`);
        out.push({ line: { ...line, Id: String(i + 1), LineNum: i + 1 }, net: 0, codeId: null });
        return;
      }
      if (type === 'SubTotalLineDetail') return;
      fault(
        'Invalid Enumeration',
        `Invalid Enumeration : ${String(type)} is not a valid DetailType here`,
        '2120',
        `${path}.DetailType`,
      ); // paraphrase
    });
    return out;
  }

  /** VAT per tax code on the sum of its lines, half up, as QuickBooks shows it in TxnTaxDetail. */
  function taxDetail(priced: Priced[], side: 'SalesTaxRateList' | 'PurchaseTaxRateList', inclusive: boolean) {
    const byCode = new Map<string, number>();
    for (const p of priced) if (p.codeId) byCode.set(p.codeId, (byCode.get(p.codeId) ?? 0) + p.net);
    let totalTax = 0;
    let totalNet = 0;
    const TaxLine: Rec[] = [];
    for (const [codeId, gross] of byCode) {
      const rate = codeRate(codeId, side) ?? 0;
      const netBase = inclusive ? Math.round((gross * 100) / (100 + rate)) : gross;
      const tax = inclusive ? gross - netBase : Math.round((netBase * rate) / 100);
      totalTax += tax;
      totalNet += netBase;
      const rateRef = (((store.TaxCode.get(codeId)![side] as Rec).TaxRateDetail as Rec[])[0]!.TaxRateRef as Rec).value;
      TaxLine.push({
        Amount: fromCents(tax),
        DetailType: 'TaxLineDetail',
        TaxLineDetail: {
          TaxRateRef: { value: rateRef },
          PercentBased: true,
          TaxPercent: rate,
          NetAmountTaxable: fromCents(netBase),
        },
      });
    }
    return { detail: { TotalTax: fromCents(totalTax), TaxLine }, totalTax, totalNet };
  }

  function checkTxnHeader(input: Rec, kind: 'Invoice' | 'Bill') {
    maxLength(input.DocNumber, 21, 'DocNumber');
    maxLength(input.PrivateNote, 4000, 'PrivateNote');
    for (const f of ['TxnDate', 'DueDate', 'ShipDate'])
      if (input[f] !== undefined && !dateOk(input[f])) fault('Invalid Date', `Invalid Date : ${f}`, '2100'); // paraphrase
    if (input.CurrencyRef !== undefined && (!isRef(input.CurrencyRef) || input.CurrencyRef.value !== homeCurrency))
      fault(
        'A business validation error has occurred while processing your request',
        `Business Validation Error: Multicurrency is not enabled; the ${kind} must be in ${homeCurrency}.`,
        '6000',
        'CurrencyRef',
      ); // paraphrase
    const calc = input.GlobalTaxCalculation;
    if (calc !== undefined && !['TaxInclusive', 'TaxExcluded', 'NotApplicable'].includes(String(calc)))
      fault('Invalid Enumeration', `Invalid Enumeration : ${String(calc)} is not a valid GlobalTaxCalculation`, '2120'); // paraphrase
    if (input.TxnTaxDetail !== undefined)
      onlyFields(input.TxnTaxDetail as Rec, QBO_FIELDS.TxnTaxDetail, 'TxnTaxDetail');
  }

  function duplicateDocNumber(docNumber: string, kind: string, txnId: string): never {
    return fault(
      'Duplicate Document Number Error',
      `Duplicate Document Number Error : You must specify a different number. This number has already been used. DocNumber=${docNumber} is assigned to TxnType=${kind} with TxnId=${txnId}`,
      '6140',
    );
  }

  let nextInvoiceNumber = 1001;
  function createInvoice(input: Rec): Rec {
    onlyFields(input, QBO_FIELDS.Invoice, 'Invoice');
    if (!isRef(input.CustomerRef)) required('CustomerRef');
    const customer = store.Customer.get((input.CustomerRef as Rec).value as string);
    if (!customer) invalidRef('CustomerRef');
    if (customer!.Active === false)
      fault(
        'Object Not Found',
        "Object Not Found : Something you're trying to use has been made inactive. Check the fields with customers.",
        '610',
      );
    checkTxnHeader(input, 'Invoice');
    const memo = input.CustomerMemo as Rec | undefined;
    if (memo !== undefined) maxLength(memo.value, 1000, 'CustomerMemo');
    const lines = salesLines(input);
    let docNumber: string | null = input.DocNumber === undefined ? null : String(input.DocNumber);
    // Intuit's Invoice reference, DocNumber: "If Preferences:CustomTxnNumber is false, resulting
    // DocNumber is system generated by incrementing the last number by 1. If
    // Preferences:CustomTxnNumber is false then do not send a value as it can lead to unwanted
    // duplicates." QuickBooks itself stores such a value (a possible duplicate of its own series);
    // the fake refuses it, so a plugin that sends one without reading the preference is caught
    // (fake's choice, the code and text a paraphrase of a business-validation fault).
    if (!customTxnNumbers && docNumber !== null)
      fault(
        'A business validation error has occurred while processing your request',
        'Business Validation Error: DocNumber was sent while Preferences.SalesFormsPrefs.CustomTxnNumbers is false; QuickBooks numbers this invoice itself',
        '6000',
        'DocNumber',
      );
    if (!customTxnNumbers) docNumber = String(nextInvoiceNumber++);
    if (docNumber !== null) {
      const taken = [...store.Invoice.values()].find((i) => i.DocNumber === docNumber);
      if (taken) duplicateDocNumber(docNumber, 'Invoice', taken.Id as string);
    }
    const inclusive = input.GlobalTaxCalculation === 'TaxInclusive';
    const tax = taxDetail(lines, 'SalesTaxRateList', inclusive);
    // A discount line takes its share off the sum of the lines above it.
    const subtotal = lines.reduce((s, l) => s + l.net, 0);
    const discountLine = lines.find((l) => l.line.DetailType === 'DiscountLineDetail');
    let discount = 0;
    if (discountLine) {
      const d = discountLine.line.DiscountLineDetail as Rec;
      discount = d.PercentBased
        ? Math.round((subtotal * Number(d.DiscountPercent ?? 0)) / 100)
        : toCents(Number(discountLine.line.Amount ?? 0));
      discountLine.line.Amount = fromCents(discount);
    }
    const total = (inclusive ? subtotal : tax.totalNet + tax.totalTax) - discount;
    const Id = nextId();
    const txnDate = String(input.TxnDate ?? now().slice(0, 10));
    const record: Rec = {
      ...input,
      Id,
      SyncToken: '0',
      domain: 'QBO',
      sparse: false,
      DocNumber: docNumber ?? undefined,
      TxnDate: txnDate,
      DueDate: input.DueDate ?? txnDate,
      CurrencyRef: { value: homeCurrency, name: homeCurrency },
      CustomerRef: { value: customer!.Id, name: customer!.DisplayName },
      GlobalTaxCalculation: input.GlobalTaxCalculation ?? 'TaxExcluded',
      Line: [
        ...lines.map((l) => l.line),
        { Amount: fromCents(subtotal), DetailType: 'SubTotalLineDetail', SubTotalLineDetail: {} },
      ],
      TxnTaxDetail: tax.detail,
      TotalAmt: fromCents(total),
      HomeTotalAmt: fromCents(total),
      Balance: fromCents(total),
      EmailStatus: 'NotSet',
      PrintStatus: 'NeedToPrint',
      MetaData: stamp(),
    };
    store.Invoice.set(Id, record);
    return record;
  }

  function createBill(input: Rec): Rec {
    onlyFields(input, QBO_FIELDS.Bill, 'Bill');
    if (!isRef(input.VendorRef)) required('VendorRef');
    const vendor = store.Vendor.get((input.VendorRef as Rec).value as string);
    if (!vendor) invalidRef('VendorRef');
    checkTxnHeader(input, 'Bill');
    if (!Array.isArray(input.Line) || !input.Line.length) required('Line');
    const lines: Priced[] = (input.Line as unknown[]).map((raw, i) => {
      const path = `Line[${i}]`;
      if (!raw || typeof raw !== 'object')
        return fault('Request has invalid or unsupported property', `${path} is not an object`, '2010');
      const line = raw as Rec;
      onlyFields(line, QBO_FIELDS.Line, path);
      maxLength(line.Description, 4000, `${path}.Description`);
      if (line.DetailType !== 'AccountBasedExpenseLineDetail')
        fault(
          'Invalid Enumeration',
          `Invalid Enumeration : ${String(line.DetailType)} is not a valid DetailType here`,
          '2120',
          `${path}.DetailType`,
        ); // fake's choice: the plugin books on accounts only
      const detail = line.AccountBasedExpenseLineDetail as Rec | undefined;
      if (!detail) return required(`${path}.AccountBasedExpenseLineDetail`);
      onlyFields(detail, QBO_FIELDS.AccountBasedExpenseLineDetail, `${path}.AccountBasedExpenseLineDetail`);
      if (!isRef(detail.AccountRef)) return required(`${path}.AccountBasedExpenseLineDetail.AccountRef`);
      const account = store.Account.get(detail.AccountRef.value);
      if (!account) return invalidRef(`${path}.AccountBasedExpenseLineDetail.AccountRef`);
      const amount = num(line.Amount);
      if (amount === null) return required(`${path}.Amount`);
      if (Number.isNaN(amount)) return fault('Invalid Number', `Invalid Number : ${path}.Amount`, '2090'); // paraphrase
      const codeId = taxCodeOf(detail, `${path}.AccountBasedExpenseLineDetail`, 'PurchaseTaxRateList');
      return {
        line: {
          ...line,
          Id: String(i + 1),
          LineNum: i + 1,
          Amount: amount,
          AccountBasedExpenseLineDetail: {
            ...detail,
            AccountRef: { value: account.Id, name: account.Name },
            TaxCodeRef: { value: codeId },
            BillableStatus: detail.BillableStatus ?? 'NotBillable',
          },
        },
        net: toCents(amount),
        codeId,
      };
    });
    // "Warn if duplicate bill number" (on by default): the same number from the same vendor is refused.
    if (input.DocNumber !== undefined) {
      const taken = [...store.Bill.values()].find(
        (b) => b.DocNumber === String(input.DocNumber) && (b.VendorRef as Rec).value === vendor!.Id,
      );
      if (taken) duplicateDocNumber(String(input.DocNumber), 'Bill', taken.Id as string);
    }
    const inclusive = input.GlobalTaxCalculation === 'TaxInclusive';
    const tax = taxDetail(lines, 'PurchaseTaxRateList', inclusive);
    const total = inclusive ? lines.reduce((s, l) => s + l.net, 0) : tax.totalNet + tax.totalTax;
    const Id = nextId();
    const txnDate = String(input.TxnDate ?? now().slice(0, 10));
    const record: Rec = {
      ...input,
      Id,
      SyncToken: '0',
      domain: 'QBO',
      sparse: false,
      TxnDate: txnDate,
      DueDate: input.DueDate ?? txnDate,
      CurrencyRef: { value: homeCurrency, name: homeCurrency },
      VendorRef: { value: vendor!.Id, name: vendor!.DisplayName },
      APAccountRef: { value: '3', name: 'Leverantörsskulder' },
      GlobalTaxCalculation: input.GlobalTaxCalculation ?? 'TaxExcluded',
      Line: lines.map((l) => l.line),
      TxnTaxDetail: tax.detail,
      TotalAmt: fromCents(total),
      Balance: fromCents(total),
      MetaData: stamp(),
    };
    store.Bill.set(Id, record);
    return record;
  }

  function create(entity: Entity, input: Rec): Rec {
    if (input.SyncToken !== undefined)
      fault('Request has invalid or unsupported property', 'SyncToken is not allowed on create', '2010'); // paraphrase
    switch (entity) {
      case 'Customer':
      case 'Vendor':
        return createContact(entity, input);
      case 'Item':
        return createItem(input);
      case 'Invoice':
        return createInvoice(input);
      case 'Bill':
        return createBill(input);
      default:
        return fault('Operation Not Supported', `Operation create is not supported for ${entity}`, '500'); // fake's choice
    }
  }

  /** A key "carried" by a transaction: a whole word of its PrivateNote. */
  const carries = (record: Rec, key: string) =>
    String(record.PrivateNote ?? '')
      .split(/\s+/)
      .includes(key);

  return {
    url: base,
    authorizeUrl: `${base}/connect/oauth2`,
    tokenUrl: `${base}/oauth2/v1/tokens/bearer`,
    clientId,
    clientSecret,
    realmId,
    invoiceCount(key) {
      const all = [...store.Invoice.values()];
      return key === undefined ? all.length : all.filter((i) => carries(i, key)).length;
    },
    supplierInvoiceCount(key) {
      const all = [...store.Bill.values()];
      return key === undefined ? all.length : all.filter((b) => carries(b, key)).length;
    },
    customerCount: () => store.Customer.size,
    supplierCount: () => store.Vendor.size,
    articleCount: () => store.Item.size,
    invoice: (id) => store.Invoice.get(id) ?? null,
    supplierInvoice: (id) => store.Bill.get(id) ?? null,
    invoices: () => [...store.Invoice.values()],
    bills: () => [...store.Bill.values()],
    customer: (id) => store.Customer.get(id) ?? null,
    vendor: (id) => store.Vendor.get(id) ?? null,
    item: (id) => store.Item.get(id) ?? null,
    expireAccessTokens() {
      for (const t of accessTokens.values()) t.expiresAt = 0;
    },
    revokeTokens() {
      accessTokens.clear();
      refreshTokens.clear();
    },
    failNext(status, retryAfterSeconds) {
      pendingFailure = { status, retryAfterSeconds };
    },
    dropNextCreateResponse() {
      dropNextCreate = true;
    },
    requestCount: () => requests,
    rateLimitedCount: () => rateLimited,
    maxInFlight: () => maxSeen,
    setCustomTxnNumbers(on) {
      customTxnNumbers = on;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * Walks the fake's consent page as a browser does: loads it, submits its form with the "Connect"
 * button, and answers where Intuit redirects to (the app's redirect URI with code, state and realmId).
 */
export const consentAsBrowser = (authorizeUrl: string, button = 'Connect'): Promise<URL> =>
  submitConsentForm(authorizeUrl, button);
