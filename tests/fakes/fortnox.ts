import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml, htmlPage, submitConsentForm } from './consent-page';
import type { ErpFakeControl } from '~/tests/erp-contract/erp-contract';

/*
 * A local fake of Fortnox: its OAuth2 server (apps.fortnox.se/oauth-v1) and the parts of API v3
 * (api.fortnox.se/3) the erp-fortnox plugin uses, on a node:http port. Why a fake: the ERP contract
 * suite must run offline, without a Fortnox developer account, and a mock of fetch would test
 * nothing. This one speaks the wire format the plugin meets in production — PascalCase bodies
 * wrapped in the resource name, lists with MetaInformation, errors as ErrorInformation, validation
 * the way Fortnox refuses (unknown fields, unknown customer or article, house-work rules) and the
 * sums Fortnox computes — so a mapping mistake fails here rather than at a tenant.
 *
 * Sources for field names, codes, messages and behaviour:
 * - fortnox.se/developer/authorization/get-authorization-code, get-access-token, get-refresh-token
 *   (oauth-v1/auth parameters, the token endpoint with HTTP Basic, the token answer);
 * - fortnox.se/developer/guides-and-good-to-know/rate-limits-for-fortnox-api (25 requests per 5 s,
 *   sliding window, per access token / tenant), …/errors (ErrorInformation codes and Swedish
 *   messages), …/parameters (lower-case query parameters, search is ILIKE '%value%', paging);
 * - developer.fortnox.se/blog/best-practise-new-housework-invoice and …/updates-in-tax-reduction
 *   (TaxReductionType rot/rut/green/none, HouseWorkType on every row of a house-work invoice);
 *   developer.fortnox.se/documentation/resources/tax-reductions (the TaxReduction application);
 * - softwerkab/fortnox-csharp-api-sdk FortnoxSDK/Entities (Invoice, InvoiceRow, Customer, Article,
 *   CompanyInformation, ErrorInformation, HouseworkType, TaxReductionType, TaxReduction; which
 *   fields are read-only) and its PR #154 (Article.SalesPrice is read-only: BadRequest if sent);
 * - accodeing/fortnox-api (models/document.rb, document_row.rb, article.rb: field lengths such as
 *   ExternalInvoiceReference1 80, row Description 50, YourOrderNumber 30; its wiki on legacy
 *   HouseWorkTypes); a Rust client's ApiErrorCode enum for the not-found codes 2000204/2000433,
 *   2000428 and 2001302;
 * - FriendsOfApi/fortnox tests/Model (captured Invoice and list answers: DocumentNumber as text,
 *   MetaInformation "@TotalResources"/"@TotalPages"/"@CurrentPage", Gross/Net/TotalVAT/RoundOff).
 * - Supplier invoices and suppliers: Fortnox's OpenAPI document (apps.fortnox.se/apidocs, "Download
 *   OpenAPI specification"), as generated into noahboekelman/fortnox-mcp-wrapper-typescript
 *   (src/resources/number-3/supplierinvoices.ts, suppliers.ts, predefinedaccounts.ts) and
 *   ThorinEk/fortnox-php-api-client (docs/Model/SupplierInvoice.md, Supplier.md): the SupplierInvoice
 *   and SupplierInvoiceRow fields, the row Code enum (TOT, VAT, FRT, AFE, ROV, CND, CNC, PRD, PRC,
 *   SRD, SRC, PRE, GWB, ACC), VATType NORMAL/EUINTERNAL/REVERSE, SalesType, the list subset
 *   (ExternalInvoiceNumber, Cancel, GivenNumber) and the list filters; softwerkab/fortnox-csharp-api-sdk
 *   Entities/Supplier Invoices and Suppliers (which fields are read-only: GivenNumber is settable,
 *   Balance, Booked, Cancelled, SupplierName, Vouchers are not); developer.fortnox.se/documentation/
 *   resources/supplier-invoices (GET by GivenNumber, the list answer) and /examples/best-practice/
 *   supplier-invoices (scopes supplier and supplierinvoice; BG, PG, bank account or IBAN with BIC);
 *   developer.fortnox.se/blog/clarification-on-using-supplier-invoices-with-vat-type-reverse-or-
 *   euinternal (rows Fortnox adds by itself, and that with VATType NORMAL the rows stay as sent);
 *   stored answers quoted in public clients (xalien10/pyfortnox supplier_invoice service: rows TOT 2440
 *   credit, VAT 2641 debit, cost rows debit, with AccountDescription and Total); the global parameter
 *   financialyeardate (developer.fortnox.se/documentation/general/parameters).
 * - Units, scopes and the tax-reduction and customer list parameters (issue 31): Fortnox's OpenAPI
 *   document as generated into ThorinEk/fortnox-php-api-client (lib/Model/Unit.php: Code 1–20
 *   characters, Description 1–100, CodeEnglish 0–100; docs/Api/UnitsResourceApi.md: GET/POST /3/units,
 *   GET/PUT/DELETE /3/units/{Code}; lib/Model/TaxReduction.php: AskedAmount at least 1,
 *   SocialSecurityNumber 10–13 characters; docs/Model/TaxReductionListItem.md: the list subset;
 *   docs/Api/TaxReductionsResourceApi.md: the list takes `filter` only; docs/Api/
 *   CustomersResourceApi.md: the customer list filters, organisationnumber among them;
 *   docs/Model/CustomerListItem.md: the customer list subset, without VATNumber), and the stainless
 *   client noahboekelman/fortnox-mcp-wrapper-typescript (src/resources/number-3/units.ts: Unit is
 *   Code, Description, CodeEnglish); developer.fortnox.se/general/scopes (the scope each resource
 *   needs: units need settings, tax reductions invoice).
 * Where Fortnox's exact text or code is not published the message below is a close paraphrase and
 * says so in a comment; the plugin depends only on the documented ones. The fake's own choices for
 * supplier invoices: the rows sent must balance (debits equal credits, as a voucher must) and the
 * TOT row must equal Total; a create without rows is refused rather than imitating the rows Fortnox
 * would build; ExternalInvoiceNumber is at most 50 characters; an unknown supplier on GET is 404 with
 * a paraphrased text.
 * - Supplier-invoice approval (issue 33 item 1): the operations PUT /3/supplierinvoices/{GivenNumber}/
 *   approvalpayment, /approvalbookkeep, /bookkeep and /cancel, each answering SupplierInvoiceWrap, and
 *   the list filter values cancelled, fullypaid, unpaid, unpaidoverdue, unbooked, pendingpayment and
 *   authorizepending: Fortnox's OpenAPI as generated into ThorinEk/fortnox-php-api-client
 *   (docs/Api/SupplierInvoicesResourceApi.md) and noahboekelman/fortnox-mcp-wrapper-typescript
 *   (src/resources/number-3/supplierinvoices.ts, SupplierinvoiceListParams.filter). The documents say
 *   nothing of what the approvals refuse; the fake's rules beside them say which are its own.
 */

type Rec = Record<string, unknown>;

export interface FortnoxFake extends ErpFakeControl {
  /** Base URL of both the OAuth server and the API (http://127.0.0.1:PORT). */
  url: string;
  clientId: string;
  clientSecret: string;
  /** Every stored invoice, as GET /3/invoices/{DocumentNumber} answers it. */
  invoices(): Record<string, unknown>[];
  /** The tax-reduction applications (POST /3/taxreductions) stored so far. */
  taxReductions(): Record<string, unknown>[];
  customer(customerNumber: string): Record<string, unknown> | null;
  /**
   * A customer the company already keeps in Fortnox (a ledger Ordo did not make), stored as a
   * person in Fortnox would type it; answers it as GET /3/customers/{CustomerNumber} would.
   */
  addCustomer(customer: Record<string, unknown>): Record<string, unknown>;
  /** The company's units (GET /3/units). */
  units(): Record<string, unknown>[];
  article(articleNumber: string): Record<string, unknown> | null;
  /** Requests to the token endpoint with grant_type=refresh_token, refused ones included. */
  refreshRequestCount(): number;
  /** The next invoice create (or supplier-invoice payment approval) is stored and its answer withheld until the fake closes (a crash test kills the caller meanwhile). */
  holdNextCreateResponse(): void;
  /**
   * The next list of supplier invoices (GET /3/supplierinvoices) is answered only when the returned
   * function is called: a fetch stays under way for as long as a test looks at its progress.
   */
  holdNextSupplierInvoiceList(): () => void;
  supplier(supplierNumber: string): Record<string, unknown> | null;
  supplierInvoiceCount(idempotencyKey?: string): number;
  supplierCount(): number;
  supplierInvoice(externalId: string): Record<string, unknown> | null;
  /** Every stored supplier invoice, as GET /3/supplierinvoices/{GivenNumber} answers it. */
  supplierInvoices(): Record<string, unknown>[];
  /**
   * A supplier invoice a person typed in Fortnox (not through the API's caller): stored as
   * POST /3/supplierinvoices stores it, awaiting approval; answers it as GET would.
   */
  addSupplierInvoice(invoice: Record<string, unknown>): Record<string, unknown>;
  /** A supplier card a person made in Fortnox; answers it as GET /3/suppliers/{SupplierNumber} would. */
  addSupplier(supplier: Record<string, unknown>): Record<string, unknown>;
  /** How many times PUT …/approvalpayment approved the supplier invoice (refused calls not counted). */
  supplierInvoicePaymentApprovals(givenNumber: string): number;
}

export interface FortnoxFakeOptions {
  clientId?: string;
  clientSecret?: string;
  /** The API limit per tenant; Fortnox's is 25 requests per 5 seconds. */
  rateLimit?: { requests: number; perMs: number };
  /**
   * The company's invoice defaults, which Fortnox applies when a create leaves the field out
   * (Settings → Invoicing); a plugin that wants no fee must say 0.
   */
  invoiceDefaults?: { administrationFee?: number; freight?: number };
  /**
   * The company's units (Settings → Units in Fortnox). Which units a new Fortnox company has is not
   * published; the fake's choice is "st" alone, so every other unit must be created.
   */
  units?: { Code: string; Description: string; CodeEnglish?: string }[];
}

// --- Fortnox's vocabularies ----------------------------------------------------------------------

/** HouseWorkType per reduction type (blog: "you can not mix types of housework between rot, rut or green"). */
const HOUSE_WORK_TYPES: Record<'rot' | 'rut' | 'green', readonly string[]> = {
  rot: [
    'CONSTRUCTION',
    'ELECTRICITY',
    'GLASSMETALWORK',
    'GROUNDDRAINAGEWORK',
    'MASONRY',
    'PAINTINGWALLPAPERING',
    'HVAC',
  ],
  rut: [
    'MAJORAPPLIANCEREPAIR',
    'MOVINGSERVICES',
    'ITSERVICES',
    'CLEANING',
    'TEXTILECLOTHING',
    'SNOWPLOWING',
    'GARDENING',
    'BABYSITTING',
    'OTHERCARE',
    'HOMEMAINTENANCE',
    'FURNISHING',
    'TRANSPORTATIONSERVICES',
    'WASHINGANDCAREOFCLOTHING',
  ],
  green: ['SOLARCELLS', 'STORAGESELFPRODUCEDELECTRICITY', 'CHARGINGSTATIONELECTRICVEHICLE'],
};
/** Allowed with any reduction type, on rows that are not themselves reduced (material, travel). */
const ANY_REDUCTION_TYPES = ['OTHERCOSTS', 'EMPTYHOUSEWORK'];
/** Types whose reduction has ended (accodeing/fortnox-api wiki: COOKING is refused with this text). */
const ENDED_TYPES = ['COOKING', 'TUTORING'];
const ALL_HOUSE_WORK_TYPES = new Set([
  ...Object.values(HOUSE_WORK_TYPES).flat(),
  ...ANY_REDUCTION_TYPES,
  ...ENDED_TYPES,
]);

const VAT_RATES = [25, 12, 6, 0];
const VAT_TYPES = ['SEVAT', 'SEREVERSEDVAT', 'EUREVERSEDVAT', 'EUVAT', 'EXPORT'];
/** Customer VAT types on which Fortnox charges no Swedish VAT, fees included. */
const NO_VAT_TYPES = new Set(['SEREVERSEDVAT', 'EUREVERSEDVAT', 'EXPORT']);

/** Writable fields per resource (the SDK's non-[ReadOnly] properties); anything else is refused. */
const CUSTOMER_FIELDS = new Set(
  (
    'Active Address1 Address2 City Comments Currency CostCenter CountryCode CustomerNumber DefaultDeliveryTypes ' +
    'DefaultTemplates DeliveryAddress1 DeliveryAddress2 DeliveryCity DeliveryCountryCode DeliveryFax DeliveryName ' +
    'DeliveryPhone1 DeliveryPhone2 DeliveryZipCode Email EmailInvoice EmailInvoiceBCC EmailInvoiceCC EmailOffer ' +
    'EmailOfferBCC EmailOfferCC EmailOrder EmailOrderBCC EmailOrderCC Fax GLN GLNDelivery InvoiceAdministrationFee ' +
    'InvoiceDiscount InvoiceFreight InvoiceRemark Name OrganisationNumber OurReference Phone1 Phone2 PriceList Project ' +
    'SalesAccount ShowPriceVATIncluded TermsOfDelivery TermsOfPayment Type VATNumber VATType VisitingAddress ' +
    'VisitingCity VisitingCountryCode VisitingZipCode WWW WayOfDelivery YourReference ZipCode'
  ).split(' '),
);
const ARTICLE_FIELDS = new Set(
  (
    'Active ArticleNumber Bulky ConstructionAccount Depth Description EAN EUAccount EUVATAccount ExportAccount Height ' +
    'Housework HouseworkType Manufacturer ManufacturerArticleNumber Note PurchaseAccount PurchasePrice QuantityInStock ' +
    'SalesAccount StockGoods StockPlace StockWarning SupplierNumber Type Unit VAT WebshopArticle Weight Width Expired ' +
    'CostCalculationMethod StockAccount DirectCost FreightCost OtherCost'
  ).split(' '),
);
const INVOICE_FIELDS = new Set(
  (
    'AdministrationFee Address1 Address2 City Comments Country CostCenter Currency CurrencyRate CurrencyUnit ' +
    'CustomerName CustomerNumber DeliveryAddress1 DeliveryAddress2 DeliveryCity DeliveryCountry DeliveryDate ' +
    'DeliveryName DeliveryZipCode DocumentNumber DueDate EDIInformation EmailInformation EUQuarterlyReport ' +
    'ExternalInvoiceReference1 ExternalInvoiceReference2 Freight InvoiceDate InvoiceRows InvoiceType Labels Language ' +
    'NotCompleted OCR OurReference PaymentWay Phone1 Phone2 PriceList PrintTemplate Project Remarks TaxReductionType ' +
    'TermsOfDelivery TermsOfPayment VATIncluded WayOfDelivery YourOrderNumber YourReference ZipCode WarehouseReady ' +
    'OutboundDate'
  ).split(' '),
);
const INVOICE_ROW_FIELDS = new Set(
  (
    'AccountNumber ArticleNumber CostCenter DeliveredQuantity Description Discount DiscountType HouseWork ' +
    'HouseWorkHoursToReport HouseWorkType Price Project Unit VAT RowId StockPointCode'
  ).split(' '),
);
const SUPPLIER_FIELDS = new Set(
  (
    'Active Address1 Address2 Bank BankAccountNumber BG BIC BranchCode City ClearingNumber Comments CostCenter ' +
    'CountryCode Currency DisablePaymentFile Email Fax IBAN Name OrganisationNumber OurReference OurCustomerNumber PG ' +
    'Phone1 Phone2 PreDefinedAccount Project SupplierNumber TermsOfPayment VATNumber VATType VisitingAddress ' +
    'VisitingCity VisitingCountry VisitingCountryCode VisitingZipCode WorkPlace WWW YourReference ZipCode'
  ).split(' '),
);
const SUPPLIER_INVOICE_FIELDS = new Set(
  (
    'AdministrationFee Comments CostCenter Currency CurrencyRate CurrencyUnit DisablePaymentFile DueDate ' +
    'ExternalInvoiceNumber ExternalInvoiceSeries Freight GivenNumber InvoiceDate InvoiceNumber OCR OurReference ' +
    'PaymentPending Project RoundOffValue SalesType SupplierInvoiceRows SupplierNumber Total VAT VATType YourReference'
  ).split(' '),
);
const SUPPLIER_INVOICE_ROW_FIELDS = new Set(
  (
    'Account AccountDescription ArticleNumber Code CostCenter Credit CreditCurrency Debit DebitCurrency ' +
    'ItemDescription Price Project Quantity StockLocationCode StockPointCode TransactionInformation'
  ).split(' '),
);
const SUPPLIER_INVOICE_ROW_CODES = new Set('TOT VAT FRT AFE ROV CND CNC PRD PRC SRD SRC PRE GWB ACC'.split(' '));
/** Names of the BAS accounts the fake's chart describes rows with (AccountDescription). */
const ACCOUNT_NAMES: Record<number, string> = {
  2440: 'Leverantörsskulder',
  2640: 'Ingående moms',
  2641: 'Debiterad ingående moms',
  3740: 'Öres- och kronutjämning',
  4010: 'Inköp material och varor',
  5831: 'Kost och logi i Sverige',
};
const TAX_REDUCTION_FIELDS = new Set(
  (
    'AskedAmount CustomerName PropertyDesignation ReferenceDocumentType ReferenceNumber ' +
    'ResidenceAssociationOrganisationNumber SocialSecurityNumber TypeOfReduction TaxReductionAmounts'
  ).split(' '),
);

/** The Unit resource (OpenAPI: Code, Description, CodeEnglish; @url is Fortnox's). */
const UNIT_FIELDS = new Set(['Code', 'Description', 'CodeEnglish']);
/** Unit lengths (OpenAPI, lib/Model/Unit.php): [min, max]. */
const UNIT_LENGTHS: Record<string, [number, number]> = { Code: [1, 20], Description: [1, 100], CodeEnglish: [0, 100] };

/**
 * The scope each resource needs (developer.fortnox.se/general/scopes); a token without it is refused
 * with 2001101 "Det finns ingen aktiv licens för önskat scope" (guides: errors). The status, 403, is
 * the fake's choice: the page does not give one.
 */
const RESOURCE_SCOPES: Record<string, string> = {
  companyinformation: 'companyinformation',
  customers: 'customer',
  articles: 'article',
  invoices: 'invoice',
  taxreductions: 'invoice',
  suppliers: 'supplier',
  supplierinvoices: 'supplierinvoice',
  units: 'settings',
};

/** Field lengths Fortnox enforces (accodeing/fortnox-api models). */
const MAX_LENGTH: Record<string, number> = {
  ExternalInvoiceReference1: 80,
  ExternalInvoiceReference2: 80,
  YourOrderNumber: 30,
  YourReference: 50,
  OurReference: 50,
  Remarks: 1024,
  Comments: 1024,
  ExternalInvoiceNumber: 50, // the fake's choice; not published
  TransactionInformation: 100,
};

// --- money: öre integers, so the sums are exact ------------------------------------------------------

const toOre = (value: number) => Math.round(value * 100 + (value >= 0 ? 1e-7 : -1e-7));
const fromOre = (ore: number) => ore / 100;
const num = (value: unknown): number | null => {
  if (value === undefined || value === null || value === '') return null;
  const n = typeof value === 'number' ? value : Number(String(value).replace(',', '.'));
  return Number.isFinite(n) ? n : NaN;
};

/** Luhn (mod 10) check digit, as Fortnox appends to the document number for the OCR reference. */
function luhnDigit(digits: string): number {
  let total = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) d *= 2;
    total += d > 9 ? d - 9 : d;
  }
  return (10 - (total % 10)) % 10;
}

const addDays = (day: string, days: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

class Refusal {
  constructor(
    readonly status: number,
    readonly message: string,
    readonly code: number,
  ) {}
}
/** An ErrorInformation refusal; `error` is always 1 in Fortnox's answers. */
function refuse(message: string, code: number, status = 400): never {
  throw new Refusal(status, message, code);
}

/** The Fortnox plugin's options pointed at the fake: the app's PLUGIN_OPTIONS, the plugin registry's options. */
export function fortnoxPluginOptions(fake: Pick<FortnoxFake, 'clientId' | 'clientSecret' | 'url'>) {
  return {
    fortnox: { clientId: fake.clientId, clientSecret: fake.clientSecret, authBaseUrl: fake.url, apiBaseUrl: fake.url },
  };
}

export async function startFortnoxFake(options: FortnoxFakeOptions = {}): Promise<FortnoxFake> {
  const clientId = options.clientId ?? 'ordo-fortnox-test-client';
  const clientSecret = options.clientSecret ?? 'ordo-fortnox-test-secret-0123456789';
  const limit = options.rateLimit ?? { requests: 25, perMs: 5000 };
  const signingKey = randomBytes(32);

  // One Fortnox company ("tenant"); its DatabaseNumber is the tenantId claim of its access tokens.
  const tenantId = String(1_000_000 + Math.floor(Math.random() * 8_000_000));
  const companyInformation = {
    Address: 'Testvägen 1',
    City: 'Stockholm',
    CountryCode: 'SE',
    DatabaseNumber: tenantId,
    CompanyName: 'Ordo Testbolag AB',
    OrganizationNumber: '556677-8899',
    VisitAddress: 'Testvägen 1',
    VisitCity: 'Stockholm',
    VisitCountryCode: 'SE',
    VisitZipCode: '111 22',
    ZipCode: '111 22',
  };

  const codes = new Map<string, { redirectUri: string; scope: string; expiresAt: number }>();
  const accessTokens = new Map<string, { tenantId: string; expiresAt: number; scopes: Set<string> }>();
  const refreshTokens = new Map<string, { tenantId: string; scope: string }>();

  const customers = new Map<string, Rec>();
  const articles = new Map<string, Rec>();
  const invoices = new Map<string, Rec>();
  const taxReductions: Rec[] = [];
  const units = new Map<string, Rec>();
  const suppliers = new Map<string, Rec>();
  const supplierInvoices = new Map<string, Rec>();
  /** Which supplier invoices had their payment and bookkeeping approved (Fortnox shows it on its screens, not in the resource). */
  const approvals = new Map<string, { payment: number; bookkeep: number }>();
  let nextGivenNumber = 1;
  let nextDocumentNumber = 1;
  let nextTaxReductionId = 1;

  let pendingFailure: { status: number; retryAfterSeconds?: number } | null = null;
  let dropNextCreate = false;
  let holdNextCreate = false;
  let supplierInvoiceListGate: Promise<void> | null = null;
  let requests = 0;
  let rateLimited = 0;
  let refreshRequests = 0;
  const windows = new Map<string, number[]>();

  let base = '';
  const unitUrl = (code: string) => `${base}/3/units/${encodeURIComponent(code)}`;
  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) json(res, 500, { message: `fake Fortnox failed: ${(err as Error).message}` });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const unit of options.units ?? [{ Code: 'st', Description: 'Styck' }])
    units.set(unit.Code, { '@url': unitUrl(unit.Code), CodeEnglish: '', ...unit });

  function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(text);
  }
  const errorInformation = (message: string, code: number) => ({ ErrorInformation: { error: 1, message, code } });

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    // The rate limit's window counts arrivals, before the body is read.
    const arrived = Date.now();
    const url = new URL(req.url ?? '/', base);
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const body = await readBody(req);
    if (path === '/oauth-v1/auth') return req.method === 'POST' ? consentAnswer(res, body) : consentPage(res, url);
    if (path === '/oauth-v1/token' && req.method === 'POST') return token(req, res, body);
    if (path.startsWith('/3/')) return api(req, res, url, path, body, arrived);
    json(res, 404, { message: 'Not Found' });
  }

  // --- OAuth2 ---------------------------------------------------------------------------------------

  /** What both halves of the consent check: Fortnox answers a bad request with an error page, not a redirect. */
  function consentProblem(p: URLSearchParams): string | null {
    if (p.get('client_id') !== clientId) return 'Okänd integration (client_id).';
    if (p.get('response_type') !== 'code') return 'response_type måste vara code.';
    // Fortnox falls back to the redirect URI registered in the Developer Portal; the fake has none.
    if (!p.get('redirect_uri')) return 'redirect_uri saknas.';
    if (!p.get('scope')) return 'scope saknas.';
    if (!p.get('state')) return 'state saknas.';
    return null;
  }

  function consentPage(res: http.ServerResponse, url: URL) {
    const p = url.searchParams;
    const problem = consentProblem(p);
    if (problem)
      return htmlPage(
        res,
        400,
        'Fortnox – felaktig begäran',
        `<h1>Felaktig begäran</h1>\n<p>${escapeHtml(problem)}</p>`,
        'sv',
      );
    const hidden = ['client_id', 'redirect_uri', 'scope', 'state', 'access_type', 'response_type']
      .filter((name) => p.has(name))
      .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(p.get(name)!)}">`)
      .join('\n');
    const scopes = p
      .get('scope')!
      .split(/\s+/)
      .filter(Boolean)
      .map((s) => `<li>${escapeHtml(s)}</li>`)
      .join('');
    htmlPage(
      res,
      200,
      'Fortnox – godkänn integration',
      `<h1>Godkänn integrationen</h1>\n` +
        `<p>Integrationen vill få åtkomst till ${escapeHtml(companyInformation.CompanyName)} med behörigheterna:</p>\n` +
        `<ul>${scopes}</ul>\n` +
        `<form method="post" action="/oauth-v1/auth">\n${hidden}\n` +
        `<button type="submit" name="decision" value="allow">Tillåt</button>\n` +
        `<button type="submit" name="decision" value="deny">Neka</button>\n</form>`,
      'sv',
    );
  }

  function consentAnswer(res: http.ServerResponse, body: string) {
    const p = new URLSearchParams(body);
    const problem = consentProblem(p);
    if (problem)
      return htmlPage(
        res,
        400,
        'Fortnox – felaktig begäran',
        `<h1>Felaktig begäran</h1>\n<p>${escapeHtml(problem)}</p>`,
        'sv',
      );
    const back = new URL(p.get('redirect_uri')!);
    if (p.get('decision') !== 'allow') back.searchParams.set('error', 'access_denied');
    else {
      const code = randomUUID();
      codes.set(code, {
        redirectUri: p.get('redirect_uri')!,
        scope: p.get('scope')!,
        expiresAt: Date.now() + 10 * 60_000,
      });
      back.searchParams.set('code', code);
    }
    back.searchParams.set('state', p.get('state')!);
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  /** Fortnox's access tokens are JWTs carrying the tenantId claim; the fake's are shaped alike. */
  function issueTokens(scope: string) {
    const now = Date.now();
    const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const payload = b64url(
      JSON.stringify({
        iss: base,
        aud: clientId,
        tenantId,
        scope,
        iat: Math.floor(now / 1000),
        exp: Math.floor(now / 1000) + 3600,
        jti: randomUUID(),
      }),
    );
    const signature = createHmac('sha256', signingKey).update(`${header}.${payload}`).digest('base64url');
    const accessToken = `${header}.${payload}.${signature}`;
    const refreshToken = randomUUID();
    accessTokens.set(accessToken, { tenantId, expiresAt: now + 3600_000, scopes: new Set(scope.split(/\s+/)) });
    refreshTokens.set(refreshToken, { tenantId, scope });
    return { access_token: accessToken, refresh_token: refreshToken, scope, expires_in: 3600, token_type: 'bearer' };
  }

  function token(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const [id, secret] = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':') : [];
    if (id !== clientId || secret !== clientSecret)
      return json(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
    const p = new URLSearchParams(body);
    const grant = p.get('grant_type');
    if (grant === 'authorization_code') {
      const code = codes.get(p.get('code') ?? '');
      // A code is single use, whatever the outcome.
      codes.delete(p.get('code') ?? '');
      if (!code || code.expiresAt < Date.now() || code.redirectUri !== p.get('redirect_uri'))
        return json(res, 400, { error: 'invalid_grant', error_description: 'Invalid authorization code' });
      return json(res, 200, issueTokens(code.scope));
    }
    if (grant === 'refresh_token') {
      refreshRequests += 1;
      const old = refreshTokens.get(p.get('refresh_token') ?? '');
      // fortnox.se/developer/faq: "Error: Invalid refresh token — Either you have already used the
      // refresh token or it has expired." (the error and its description as Fortnox's token endpoint
      // answers them are not published; invalid_grant is RFC 6749 §5.2's code for it)
      if (!old) return json(res, 400, { error: 'invalid_grant', error_description: 'Invalid refresh token' });
      // fortnox.se/developer/authorization/migrate-legacy-token-to-jwt: the refresh token "is valid
      // for 45 days but can only be used once"; "If multiple instances of your integration attempt
      // to refresh the token simultaneously, it could result in token invalidation." The one just
      // used stops working; the answer carries a new one (…/get-refresh-token).
      refreshTokens.delete(p.get('refresh_token')!);
      return json(res, 200, issueTokens(old.scope));
    }
    json(res, 400, { error: 'unsupported_grant_type', error_description: `Unsupported grant type: ${grant}` });
  }

  // --- API v3 ---------------------------------------------------------------------------------------

  function api(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    path: string,
    body: string,
    arrived: number,
  ) {
    requests += 1;
    if (pendingFailure) {
      const failure = pendingFailure;
      pendingFailure = null;
      const headers: Record<string, string> =
        failure.status === 429 ? { 'retry-after': String(failure.retryAfterSeconds ?? 1) } : {};
      return json(
        res,
        failure.status,
        { message: failure.status === 429 ? 'Too Many Requests' : 'Service Unavailable' },
        headers,
      );
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
    const session = bearer ? accessTokens.get(bearer[1]!) : undefined;
    if (!session || session.expiresAt <= Date.now())
      return json(res, 401, errorInformation('Ogiltig inloggning', 2000310));
    const starts = (windows.get(session.tenantId) ?? []).filter((t) => arrived - t < limit.perMs);
    if (starts.length >= limit.requests) {
      windows.set(session.tenantId, starts);
      rateLimited += 1;
      const waitMs = starts[0]! + limit.perMs - arrived;
      return json(
        res,
        429,
        { message: 'Too Many Requests' },
        { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) },
      );
    }
    starts.push(arrived);
    windows.set(session.tenantId, starts);
    const needs = RESOURCE_SCOPES[path.split('/')[2] ?? ''];
    if (needs && !session.scopes.has(needs))
      return json(res, 403, errorInformation('Det finns ingen aktiv licens för önskat scope', 2001101));

    let payload: Rec = {};
    if (body.trim()) {
      try {
        payload = JSON.parse(body) as Rec;
      } catch {
        return json(res, 400, errorInformation('Error deserializing JSON: JSON_ERROR_SYNTAX', 2002115));
      }
    }
    const respond = () => {
      try {
        const answer = route(req.method ?? 'GET', path, url.searchParams, payload);
        if (answer === 'drop') {
          // The invoice is stored; its answer is lost on the way (a crash, a cut connection).
          res.socket?.destroy();
          return;
        }
        // The invoice is stored and the answer never comes: the caller is killed while it waits.
        if (answer === 'hold') return;
        json(res, answer.status, answer.body);
      } catch (err) {
        if (!(err instanceof Refusal)) throw err;
        json(res, err.status, errorInformation(err.message, err.code));
      }
    };
    if (supplierInvoiceListGate && req.method === 'GET' && path === '/3/supplierinvoices') {
      const gate = supplierInvoiceListGate;
      supplierInvoiceListGate = null;
      void gate.then(respond);
      return;
    }
    respond();
  }

  type Answer = { status: number; body: unknown } | 'drop' | 'hold';

  function route(method: string, path: string, query: URLSearchParams, payload: Rec): Answer {
    const parts = path.split('/').slice(2).map(decodeURIComponent);
    const [resource, id, action] = parts;
    if (parts.length === 3 && resource === 'supplierinvoices' && method === 'PUT')
      return supplierInvoiceAction(id!, action!);
    if (parts.length > 2) return { status: 404, body: { message: 'Not Found' } };
    const is = (m: string, r: string, withId: boolean) => method === m && resource === r && Boolean(id) === withId;
    if (is('GET', 'companyinformation', false))
      return { status: 200, body: { CompanyInformation: companyInformation } };
    if (is('GET', 'customers', false))
      return list('Customers', [...customers.values()].map(customerSubset), query, [
        'customernumber',
        'name',
        'organisationnumber',
        'email',
      ]);
    if (is('POST', 'customers', false))
      return { status: 201, body: { Customer: createCustomer(wrapped(payload, 'Customer')) } };
    if (is('GET', 'customers', true)) return { status: 200, body: { Customer: findCustomer(id!) } };
    if (is('PUT', 'customers', true))
      return { status: 200, body: { Customer: updateCustomer(id!, wrapped(payload, 'Customer')) } };
    if (is('GET', 'articles', false))
      return list('Articles', [...articles.values()].map(articleSubset), query, ['articlenumber', 'description']);
    if (is('POST', 'articles', false))
      return { status: 201, body: { Article: createArticle(wrapped(payload, 'Article')) } };
    if (is('GET', 'articles', true)) return { status: 200, body: { Article: findArticle(id!) } };
    if (is('GET', 'invoices', false))
      return list('Invoices', [...invoices.values()].map(invoiceSubset), query, [
        'externalinvoicereference1',
        'externalinvoicereference2',
        'customernumber',
        'documentnumber',
        'ocr',
      ]);
    if (is('POST', 'invoices', false)) {
      const invoice = createInvoice(wrapped(payload, 'Invoice'));
      if (dropNextCreate) {
        dropNextCreate = false;
        return 'drop';
      }
      if (holdNextCreate) {
        holdNextCreate = false;
        return 'hold';
      }
      return { status: 201, body: { Invoice: invoice } };
    }
    if (is('GET', 'invoices', true)) {
      const invoice = invoices.get(id!);
      if (!invoice) return refuse('Kan inte hitta fakturan.', 2000434, 404); // paraphrase; code not published
      return { status: 200, body: { Invoice: invoice } };
    }
    if (is('GET', 'suppliers', false))
      return list('Suppliers', [...suppliers.values()].map(supplierSubset), query, [
        'suppliernumber',
        'name',
        'organisationnumber',
        'email',
      ]);
    if (is('POST', 'suppliers', false))
      return { status: 201, body: { Supplier: createSupplier(wrapped(payload, 'Supplier')) } };
    if (is('GET', 'suppliers', true)) return { status: 200, body: { Supplier: findSupplier(id!) } };
    if (is('PUT', 'suppliers', true))
      return { status: 200, body: { Supplier: updateSupplier(id!, wrapped(payload, 'Supplier')) } };
    if (is('GET', 'supplierinvoices', false)) {
      let found = [...supplierInvoices.values()];
      // financialyeardate selects the financial year holding the date; the fake's years are calendar years.
      const yearDate = query.get('financialyeardate');
      if (yearDate) found = found.filter((i) => String(i.InvoiceDate).slice(0, 4) === yearDate.slice(0, 4));
      const filter = query.get('filter');
      if (filter === 'cancelled') found = found.filter((i) => i.Cancelled === true);
      else if (filter === 'unbooked') found = found.filter((i) => i.Booked !== true);
      // awaiting approval: the fake's reading of the filter's name (its meaning is not documented):
      // neither cancelled nor with its payment approved
      else if (filter === 'authorizepending')
        found = found.filter((i) => i.Cancelled !== true && !approvals.get(String(i.GivenNumber))?.payment);
      else if (filter) refuse(`Ogiltigt filter (${filter})`, 2000588); // paraphrase
      return list('SupplierInvoices', found.map(supplierInvoiceSubset), query, [
        'suppliernumber',
        'invoicenumber',
        'ocr',
      ]);
    }
    if (is('POST', 'supplierinvoices', false)) {
      const created = createSupplierInvoice(wrapped(payload, 'SupplierInvoice'));
      if (dropNextCreate) {
        dropNextCreate = false;
        return 'drop';
      }
      if (holdNextCreate) {
        holdNextCreate = false;
        return 'hold';
      }
      return { status: 201, body: { SupplierInvoice: created } };
    }
    if (is('GET', 'supplierinvoices', true)) {
      const found = supplierInvoices.get(id!);
      if (!found) return refuse('Kan inte hitta leverantörsfakturan.', 2000434, 404); // paraphrase; code not published
      return { status: 200, body: { SupplierInvoice: found } };
    }
    if (is('GET', 'units', false)) return list('Units', [...units.values()], query, []);
    if (is('GET', 'units', true)) {
      const unit = units.get(id!);
      if (!unit) return refuse('Kan inte hitta enheten.', 2000588, 404); // paraphrase; text and code not published
      return { status: 200, body: { Unit: unit } };
    }
    if (is('POST', 'units', false)) return { status: 201, body: { Unit: createUnit(wrapped(payload, 'Unit')) } };
    if (is('PUT', 'units', true)) return { status: 200, body: { Unit: updateUnit(id!, wrapped(payload, 'Unit')) } };
    if (is('GET', 'taxreductions', false)) {
      let found = taxReductions;
      const filter = query.get('filter');
      if (filter === 'invoices') found = found.filter((t) => t.ReferenceDocumentType === 'INVOICE');
      else if (filter === 'orders') found = found.filter((t) => t.ReferenceDocumentType === 'ORDER');
      else if (filter === 'offers') found = found.filter((t) => t.ReferenceDocumentType === 'OFFER');
      else if (filter) refuse(`Ogiltigt filter (${filter})`, 2000588); // paraphrase
      // The OpenAPI's list takes `filter` alone (TaxReductionsResourceApi.md); the referencenumber
      // an invoice's @urlTaxReductionList names is not documented as a filter, so the fake does not
      // apply it: a caller compares ReferenceNumber and ReferenceDocumentType itself.
      return list(
        'TaxReductions',
        found.map(taxReductionSubset),
        new URLSearchParams({ limit: query.get('limit') ?? '100', page: query.get('page') ?? '1' }),
        [],
      );
    }
    if (is('POST', 'taxreductions', false))
      return { status: 201, body: { TaxReduction: createTaxReduction(wrapped(payload, 'TaxReduction')) } };
    if (is('GET', 'taxreductions', true)) {
      const found = taxReductions.find((t) => String(t.Id) === id);
      if (!found) return refuse('A valid identifier was not provided.', 2000729, 404);
      return { status: 200, body: { TaxReduction: found } };
    }
    const known = [
      'units',
      'customers',
      'articles',
      'invoices',
      'taxreductions',
      'companyinformation',
      'suppliers',
      'supplierinvoices',
    ];
    return known.includes(resource ?? '')
      ? { status: 405, body: { message: 'Method Not Allowed' } }
      : { status: 404, body: { message: 'Not Found' } };
  }

  function wrapped(payload: Rec, name: string): Rec {
    const inner = payload[name];
    if (!inner || typeof inner !== 'object' || Array.isArray(inner))
      return refuse('Ingen eller felaktig typ av data.', 2001392);
    return inner as Rec;
  }

  function onlyFields(record: Rec, allowed: Set<string>) {
    // Fortnox refuses unknown and read-only fields alike rather than ignoring them.
    for (const key of Object.keys(record)) if (!allowed.has(key)) refuse(`Felaktigt fältnamn (${key})`, 2001399);
    for (const [key, max] of Object.entries(MAX_LENGTH))
      if (typeof record[key] === 'string' && (record[key] as string).length > max)
        refuse(`Värdet är för långt, max ${max} tecken. (${key})`, 2000106); // paraphrase
  }

  function list(name: string, items: Rec[], query: URLSearchParams, searchable: string[]): Answer {
    let found = items;
    for (const field of searchable) {
      const value = query.get(field);
      if (value === null) continue;
      // Search is ILIKE '%value%' (guides: parameters), so callers compare the hits exactly.
      const key = Object.keys(items[0] ?? {}).find((k) => k.toLowerCase() === field);
      found = found.filter((item) =>
        String(item[key ?? ''] ?? '')
          .toLowerCase()
          .includes(value.toLowerCase()),
      );
    }
    const size = query.has('limit') ? Number(query.get('limit')) : 100;
    const page = query.has('page') ? Number(query.get('page')) : 1;
    if (!Number.isInteger(size) || size < 1 || size > 500 || !Number.isInteger(page) || page < 1)
      refuse('Ogiltig parameter i anropet.', 2000588);
    const totalPages = Math.max(1, Math.ceil(found.length / size));
    return {
      status: 200,
      body: {
        [name]: found.slice((page - 1) * size, page * size),
        MetaInformation: { '@TotalResources': found.length, '@TotalPages': totalPages, '@CurrentPage': page },
      },
    };
  }

  // --- customers ------------------------------------------------------------------------------------

  const customerSubset = (c: Rec): Rec => ({
    '@url': c['@url'],
    Address1: c.Address1,
    Address2: c.Address2,
    City: c.City,
    CustomerNumber: c.CustomerNumber,
    Email: c.Email,
    Name: c.Name,
    OrganisationNumber: c.OrganisationNumber,
    Phone: c.Phone1,
    ZipCode: c.ZipCode,
  });

  function findCustomer(number: string): Rec {
    return customers.get(number) ?? refuse('Kunde inte hitta kund (kundnummer)', 2000433, 404);
  }

  function checkCustomer(c: Rec) {
    onlyFields(c, CUSTOMER_FIELDS);
    if (c.Type !== undefined && c.Type !== 'PRIVATE' && c.Type !== 'COMPANY')
      refuse(`Ogiltig kundtyp (${String(c.Type)})`, 2000588);
    if (c.VATType !== undefined && !VAT_TYPES.includes(String(c.VATType)))
      refuse(`Ogiltig momstyp (${String(c.VATType)})`, 2000588);
    if (c.Email && !/^[^@\s]+@[^@\s]+$/.test(String(c.Email)))
      refuse(`Ogiltig e-postadress (${String(c.Email)})`, 2000359);
  }

  function createCustomer(c: Rec): Rec {
    checkCustomer(c);
    // Paraphrase: Fortnox requires a name; its exact text is not published.
    if (!c.Name || typeof c.Name !== 'string') refuse('Kunden måste ha ett namn (Name)', 2001392);
    let number = c.CustomerNumber === undefined ? '' : String(c.CustomerNumber);
    if (number && !/^[\p{L}\p{N}+/_–-]+$/u.test(number))
      refuse(`Värdet innehåller ej tillåtna tecken. (${number})`, 2000359);
    if (number && customers.has(number)) refuse(`Kundnummer ${number} används redan.`, 2000637);
    if (!number) {
      let n = customers.size + 1;
      while (customers.has(String(n))) n += 1;
      number = String(n);
    }
    const customer: Rec = {
      '@url': `${base}/3/customers/${encodeURIComponent(number)}`,
      Active: true,
      Address1: '',
      Address2: '',
      City: '',
      Country: 'Sverige',
      CountryCode: 'SE',
      Currency: 'SEK',
      Email: '',
      Name: '',
      OrganisationNumber: '',
      Phone1: '',
      Phone2: '',
      TermsOfPayment: '',
      Type: 'COMPANY',
      VATNumber: '',
      VATType: 'SEVAT',
      ZipCode: '',
      ...c,
      CustomerNumber: number,
    };
    customers.set(number, customer);
    return customer;
  }

  function updateCustomer(number: string, c: Rec): Rec {
    const existing = findCustomer(number);
    checkCustomer(c);
    if (c.CustomerNumber !== undefined && String(c.CustomerNumber) !== number)
      refuse('Kundnumret kan inte ändras.', 2000588); // paraphrase
    // null clears a field (Fortnox: an empty string is kept as it was).
    for (const [key, value] of Object.entries(c)) if (value !== '') existing[key] = value === null ? '' : value;
    return existing;
  }

  // --- units ----------------------------------------------------------------------------------------

  function checkUnitFields(u: Rec, creating: boolean) {
    onlyFields(u, UNIT_FIELDS);
    for (const [field, [min, max]] of Object.entries(UNIT_LENGTHS)) {
      const value = u[field];
      if (value === undefined) {
        // Code and Description are required (OpenAPI: FortnoxUnit), on a create
        if (creating && min > 0) refuse(`${field} måste anges (${field})`, 2001392); // paraphrase
        continue;
      }
      if (typeof value !== 'string' || value.length < min || value.length > max)
        refuse(`Värdet är för långt eller för kort, ${min}–${max} tecken. (${field})`, 2000106); // paraphrase
    }
  }

  function createUnit(u: Rec): Rec {
    checkUnitFields(u, true);
    const code = u.Code as string;
    if (units.has(code)) refuse(`Enheten ${code} finns redan.`, 2000637); // paraphrase
    const unit: Rec = { '@url': unitUrl(code), CodeEnglish: '', ...u };
    units.set(code, unit);
    return unit;
  }

  function updateUnit(code: string, u: Rec): Rec {
    const unit = units.get(code) ?? refuse('Kan inte hitta enheten.', 2000588, 404); // paraphrase
    checkUnitFields(u, false);
    if (u.Code !== undefined && u.Code !== code) refuse('Enhetens kod kan inte ändras.', 2000588); // paraphrase
    Object.assign(unit, u);
    return unit;
  }

  /**
   * An article's or a row's Unit names one of the company's unit codes (OpenAPI: Article.Unit is a
   * string, the units register holds the codes a company has); another is refused. The text and
   * code are not published: a paraphrase, and 2000588 "Ogiltig parameter".
   */
  function checkUnit(unit: unknown) {
    if (unit === undefined || unit === null || unit === '') return;
    if (typeof unit !== 'string' || !units.has(unit)) refuse(`Enheten finns inte (Unit: ${String(unit)})`, 2000588);
  }

  // --- articles -------------------------------------------------------------------------------------

  const articleSubset = (a: Rec): Rec => ({
    '@url': a['@url'],
    ArticleNumber: a.ArticleNumber,
    Description: a.Description,
    DisposableQuantity: a.DisposableQuantity,
    EAN: a.EAN,
    Housework: a.Housework,
    PurchasePrice: a.PurchasePrice,
    SalesPrice: a.SalesPrice,
    QuantityInStock: a.QuantityInStock,
    ReservedQuantity: a.ReservedQuantity,
    StockPlace: a.StockPlace,
    StockValue: a.StockValue,
    Unit: a.Unit,
    VAT: a.VAT,
    WebshopArticle: a.WebshopArticle,
  });

  function findArticle(number: string): Rec {
    return articles.get(number) ?? refuse('Kan inte hitta artikeln', 2000428, 404);
  }

  function createArticle(a: Rec): Rec {
    onlyFields(a, ARTICLE_FIELDS);
    if (!a.Description || typeof a.Description !== 'string')
      refuse('Artikeln måste ha en benämning (Description)', 2001392); // paraphrase
    if ((a.Description as string).length > 200) refuse('Värdet är för långt, max 200 tecken. (Description)', 2000106); // paraphrase
    let number = a.ArticleNumber === undefined ? '' : String(a.ArticleNumber);
    if (number && (number.length > 50 || !/^[\p{L}\p{N}+/._–-]+$/u.test(number)))
      refuse(`Värdet innehåller ej tillåtna tecken. (${number})`, 2000359);
    if (number && articles.has(number)) refuse(`Artikelnummer ${number} används redan.`, 2000637); // paraphrase
    if (!number) {
      let n = articles.size + 1;
      while (articles.has(String(n))) n += 1;
      number = String(n);
    }
    if (a.Type !== undefined && a.Type !== 'STOCK' && a.Type !== 'SERVICE')
      refuse(`Ogiltig artikeltyp (${String(a.Type)})`, 2000588);
    if (a.VAT !== undefined && !VAT_RATES.includes(num(a.VAT) ?? NaN)) refuse('Kunde inte hämta/hitta moms', 2000588); // text per integrators' reports
    if (a.HouseworkType !== undefined && !ALL_HOUSE_WORK_TYPES.has(String(a.HouseworkType)))
      refuse(`Ogiltig husarbetestyp (${String(a.HouseworkType)})`, 2000588);
    checkAccount(a.SalesAccount);
    checkUnit(a.Unit);
    const article: Rec = {
      '@url': `${base}/3/articles/${encodeURIComponent(number)}`,
      Active: true,
      Description: '',
      DisposableQuantity: 0,
      EAN: '',
      Housework: false,
      HouseworkType: null,
      PurchasePrice: 0,
      QuantityInStock: 0,
      ReservedQuantity: 0,
      // Read-only: the price of the default price list (A), which the fake keeps at 0.
      SalesPrice: 0,
      StockGoods: false,
      StockPlace: '',
      StockValue: 0,
      Type: 'STOCK',
      Unit: '',
      VAT: 25,
      WebshopArticle: false,
      ...a,
      ArticleNumber: number,
    };
    articles.set(number, article);
    return article;
  }

  function checkAccount(account: unknown) {
    if (account === undefined || account === null) return;
    const n = num(account);
    // The fake's chart of accounts is the BAS range; Fortnox checks the company's own chart.
    if (n === null || !Number.isInteger(n) || n < 1000 || n > 8999) refuse('Kunde inte hitta konto', 2001304);
  }

  // --- invoices -------------------------------------------------------------------------------------

  const invoiceSubset = (i: Rec): Rec => ({
    '@url': i['@url'],
    Balance: i.Balance,
    Booked: i.Booked,
    Cancelled: i.Cancelled,
    CostCenter: i.CostCenter,
    Currency: i.Currency,
    CurrencyRate: i.CurrencyRate,
    CurrencyUnit: i.CurrencyUnit,
    CustomerName: i.CustomerName,
    CustomerNumber: i.CustomerNumber,
    DocumentNumber: i.DocumentNumber,
    DueDate: i.DueDate,
    ExternalInvoiceReference1: i.ExternalInvoiceReference1,
    ExternalInvoiceReference2: i.ExternalInvoiceReference2,
    InvoiceDate: i.InvoiceDate,
    InvoiceType: i.InvoiceType,
    OCR: i.OCR,
    Project: i.Project,
    Sent: i.Sent,
    TermsOfPayment: i.TermsOfPayment,
    Total: i.Total,
    WayOfDelivery: i.WayOfDelivery,
  });

  interface PricedRow {
    row: Rec;
    /** Without VAT, the discount applied, in öre. */
    net: number;
    vat: number;
    houseWork: boolean;
  }

  function invoiceRow(input: Rec, vatIncluded: boolean): PricedRow {
    onlyFields(input, INVOICE_ROW_FIELDS);
    const articleNumber =
      input.ArticleNumber === undefined || input.ArticleNumber === '' ? null : String(input.ArticleNumber);
    const article = articleNumber ? articles.get(articleNumber) : undefined;
    if (articleNumber && !article) refuse('Kunde inte hitta artikel', 2001302);
    // Fields left out come from the article (SDK: "If empty Fortnox will use settings from the article").
    const description = String(input.Description ?? article?.Description ?? '');
    if (description.length > 50) refuse('Värdet är för långt, max 50 tecken. (Description)', 2000106); // paraphrase
    const isText = !article && input.Price === undefined && input.DeliveredQuantity === undefined;
    if (isText) {
      for (const key of Object.keys(input))
        if (key !== 'Description' && key !== 'RowId') refuse(`En textrad kan inte ha ${key}`, 2000588); // paraphrase
      return { row: { Description: description }, net: 0, vat: 0, houseWork: false };
    }
    const quantity = num(input.DeliveredQuantity) ?? 0;
    const price = num(input.Price) ?? num(article?.SalesPrice) ?? 0;
    const vat = num(input.VAT) ?? num(article?.VAT) ?? 25;
    const discount = num(input.Discount) ?? 0;
    const discountType = input.DiscountType ?? (discount ? 'PERCENT' : undefined);
    if ([quantity, price, vat, discount].some((n) => Number.isNaN(n))) refuse('Värdet måste vara numeriskt', 2000108);
    if (!VAT_RATES.includes(vat)) refuse('Kunde inte hämta/hitta moms', 2000588); // text per integrators' reports
    if (discountType !== undefined && discountType !== 'PERCENT' && discountType !== 'AMOUNT')
      refuse(`Ogiltig rabatttyp (${String(discountType)})`, 2000588);
    if (discountType === 'PERCENT' && (discount < 0 || discount > 100)) refuse('Rabatten måste vara 0–100 %', 2000588); // paraphrase
    checkAccount(input.AccountNumber);
    checkUnit(input.Unit);
    const houseWork = input.HouseWork === undefined ? article?.Housework === true : input.HouseWork === true;
    if (input.HouseWorkHoursToReport !== undefined && !Number.isInteger(num(input.HouseWorkHoursToReport)))
      refuse('Värdet måste vara numeriskt (HouseWorkHoursToReport)', 2000108);
    const gross = toOre(quantity * price);
    // AMOUNT is a sum off the row, PERCENT a share of it.
    let total =
      discountType === 'AMOUNT'
        ? gross - toOre(discount)
        : discountType === 'PERCENT'
          ? toOre((quantity * price * (100 - discount)) / 100)
          : gross;
    let net = total;
    if (vatIncluded) net = Math.round((total * 100) / (100 + vat));
    else total = net;
    return {
      row: {
        AccountNumber: num(input.AccountNumber) ?? num(article?.SalesAccount) ?? 3001,
        ArticleNumber: articleNumber ?? '',
        CostCenter: input.CostCenter ?? null,
        DeliveredQuantity: quantity,
        Description: description,
        Discount: discount,
        DiscountType: discountType ?? 'PERCENT',
        HouseWork: houseWork,
        HouseWorkHoursToReport: input.HouseWorkHoursToReport ?? null,
        HouseWorkType: input.HouseWorkType ?? null,
        Price: price,
        PriceExcludingVAT: vatIncluded ? fromOre(Math.round((toOre(price) * 100) / (100 + vat))) : price,
        Project: input.Project ?? '',
        Total: fromOre(total),
        TotalExcludingVAT: fromOre(net),
        Unit: String(input.Unit ?? article?.Unit ?? ''),
        VAT: vat,
      },
      net,
      vat,
      houseWork,
    };
  }

  /** House-work rules (blog: best practice new housework invoice; updates in tax reduction). */
  function checkHouseWork(type: string, rows: PricedRow[], currency: string) {
    if (!['none', 'rot', 'rut', 'green'].includes(type)) refuse(`Ogiltig skattereduktionstyp (${type})`, 2000588);
    const priced = rows.filter((r) => 'Price' in r.row);
    if (type === 'none') {
      if (priced.some((r) => r.houseWork))
        refuse(
          'Dokument utan angiven skattereduktionstyp får inte innehålla artikelrader markerade som husarbete.',
          2000588,
        );
      if (priced.some((r) => r.row.HouseWorkType))
        refuse('Dokument utan angiven skattereduktionstyp får inte innehålla rader med husarbetestyp.', 2000588); // paraphrase
      return;
    }
    if (currency !== 'SEK') refuse('En faktura med husarbete måste vara i SEK.', 2000588); // paraphrase
    if (!priced.some((r) => r.houseWork && r.row.HouseWorkType))
      refuse('Minst en rad måste vara markerad som husarbete med husarbetestyp.', 2000588); // paraphrase
    const allowed = HOUSE_WORK_TYPES[type as 'rot' | 'rut' | 'green'];
    for (const r of priced) {
      const workType = r.row.HouseWorkType as string | null;
      if (!workType) refuse(`Alla rader måste ha en husarbetestyp när skattereduktionstypen är ${type}.`, 2000588); // paraphrase
      if (ENDED_TYPES.includes(workType!))
        refuse('Skattereduktion för en av de valda husarbetestyperna har upphört.', 2000588);
      if (!allowed.includes(workType!) && !ANY_REDUCTION_TYPES.includes(workType!))
        refuse(
          `Dokument med skattereduktionstypen ${type} får inte innehålla rader med husarbetestypen ${workType}.`,
          2000588,
        );
      if (r.houseWork && ANY_REDUCTION_TYPES.includes(workType!))
        refuse(`Husarbetestypen ${workType} kan inte markeras som husarbete.`, 2000588); // paraphrase
    }
  }

  function createInvoice(input: Rec): Rec {
    onlyFields(input, INVOICE_FIELDS);
    const customer = customers.get(String(input.CustomerNumber ?? ''));
    if (!customer) refuse('Kunde inte hitta kund', 2000204);
    if (!Array.isArray(input.InvoiceRows)) refuse('Ingen eller felaktig typ av data. (InvoiceRows)', 2001392);
    const vatIncluded = input.VATIncluded === true;
    const rows = (input.InvoiceRows as unknown[]).map((r) => {
      if (!r || typeof r !== 'object') return refuse('Ingen eller felaktig typ av data. (InvoiceRows)', 2001392);
      return invoiceRow(r as Rec, vatIncluded);
    });
    const currency = String(input.Currency ?? customer!.Currency ?? 'SEK');
    const taxReductionType = String(input.TaxReductionType ?? 'none');
    checkHouseWork(taxReductionType, rows, currency);
    if (input.DocumentNumber !== undefined && invoices.has(String(input.DocumentNumber)))
      refuse(`Dokumentnummer ${String(input.DocumentNumber)} används redan.`, 2000637); // paraphrase

    const fee =
      num(input.AdministrationFee) ??
      num(customer!.InvoiceAdministrationFee) ??
      options.invoiceDefaults?.administrationFee ??
      0;
    const freight = num(input.Freight) ?? num(customer!.InvoiceFreight) ?? options.invoiceDefaults?.freight ?? 0;
    if (Number.isNaN(fee) || Number.isNaN(freight)) refuse('Värdet måste vara numeriskt', 2000108);
    // Fee and freight carry Swedish VAT unless the customer is outside it (reverse charge, export).
    const feeVatRate = NO_VAT_TYPES.has(String(customer!.VATType)) ? 0 : 25;
    const net = rows.reduce((s, r) => s + r.net, 0);
    const vatByRate = new Map<number, number>();
    for (const r of rows) if ('Price' in r.row) vatByRate.set(r.vat, (vatByRate.get(r.vat) ?? 0) + r.net);
    const rowsVat = [...vatByRate].reduce((s, [rate, baseOre]) => s + Math.round((baseOre * rate) / 100), 0);
    const feeVat = Math.round((toOre(fee) * feeVatRate) / 100);
    const freightVat = Math.round((toOre(freight) * feeVatRate) / 100);
    const totalVat = rowsVat + feeVat + freightVat;
    const exact = net + toOre(fee) + toOre(freight) + totalVat;
    // Öresavrundning: SEK totals are rounded to whole kronor, half up.
    const total = currency === 'SEK' ? Math.round(exact / 100) * 100 : exact;
    const basisTaxReduction = rows
      .filter((r) => r.houseWork)
      .reduce((s, r) => s + r.net + Math.round((r.net * r.vat) / 100), 0);

    const documentNumber =
      input.DocumentNumber !== undefined ? String(input.DocumentNumber) : String(nextDocumentNumber);
    nextDocumentNumber = Math.max(nextDocumentNumber, Number(documentNumber) + 1 || nextDocumentNumber + 1);
    const invoiceDate = String(input.InvoiceDate ?? new Date().toISOString().slice(0, 10));
    const invoice: Rec = {
      '@url': `${base}/3/invoices/${documentNumber}`,
      '@urlTaxReductionList': `${base}/3/taxreductions?filter=invoices&referencenumber=${documentNumber}`,
      AccountingMethod: 'ACCRUAL',
      AdministrationFee: fee,
      AdministrationFeeVAT: fromOre(feeVat),
      Address1: input.Address1 ?? customer!.Address1,
      Address2: input.Address2 ?? customer!.Address2,
      Balance: fromOre(total),
      BasisTaxReduction: fromOre(basisTaxReduction),
      Booked: false,
      Cancelled: false,
      City: input.City ?? customer!.City,
      Comments: input.Comments ?? '',
      ContractReference: 0,
      Country: input.Country ?? customer!.Country,
      CostCenter: input.CostCenter ?? '',
      Credit: 'false',
      Currency: currency,
      CurrencyRate: num(input.CurrencyRate) ?? 1,
      CurrencyUnit: num(input.CurrencyUnit) ?? 1,
      CustomerName: input.CustomerName ?? customer!.Name,
      CustomerNumber: customer!.CustomerNumber,
      DeliveryDate: input.DeliveryDate ?? null,
      DocumentNumber: documentNumber,
      DueDate: input.DueDate ?? addDays(invoiceDate, 30),
      EUQuarterlyReport: false,
      ExternalInvoiceReference1: input.ExternalInvoiceReference1 ?? '',
      ExternalInvoiceReference2: input.ExternalInvoiceReference2 ?? '',
      Freight: freight,
      FreightVAT: fromOre(freightVat),
      // Gross is the rows' sum as Fortnox shows it; in the captured answers it equals Net.
      Gross: fromOre(net),
      HouseWork: rows.some((r) => r.houseWork),
      InvoiceDate: invoiceDate,
      InvoiceRows: rows.map((r, i) => ({ RowId: i + 1, ...r.row })),
      InvoiceType: input.InvoiceType ?? 'INVOICE',
      Language: input.Language ?? 'SV',
      Net: fromOre(net),
      NotCompleted: false,
      OCR: input.OCR ?? `${documentNumber}${luhnDigit(documentNumber)}`,
      OrganisationNumber: customer!.OrganisationNumber,
      OurReference: input.OurReference ?? '',
      Phone1: input.Phone1 ?? customer!.Phone1,
      PriceList: 'A',
      Remarks: input.Remarks ?? '',
      RoundOff: fromOre(total - exact),
      Sent: false,
      TaxReduction: taxReductionType === 'none' ? null : 0,
      TaxReductionType: taxReductionType,
      TermsOfPayment: input.TermsOfPayment ?? customer!.TermsOfPayment,
      Total: fromOre(total),
      TotalToPay: fromOre(total),
      TotalVAT: fromOre(totalVat),
      VATIncluded: vatIncluded,
      WayOfDelivery: input.WayOfDelivery ?? '',
      YourOrderNumber: input.YourOrderNumber ?? '',
      YourReference: input.YourReference ?? '',
      ZipCode: input.ZipCode ?? customer!.ZipCode,
    };
    invoices.set(documentNumber, invoice);
    return invoice;
  }

  // --- suppliers ------------------------------------------------------------------------------------

  const supplierSubset = (s: Rec): Rec => ({
    '@url': s['@url'],
    Active: s.Active,
    Address1: s.Address1,
    Address2: s.Address2,
    BankAccountNumber: s.BankAccountNumber,
    BG: s.BG,
    BIC: s.BIC,
    City: s.City,
    CostCenter: s.CostCenter,
    CountryCode: s.CountryCode,
    Currency: s.Currency,
    Email: s.Email,
    IBAN: s.IBAN,
    Name: s.Name,
    OrganisationNumber: s.OrganisationNumber,
    PG: s.PG,
    Phone: s.Phone1,
    PreDefinedAccount: s.PreDefinedAccount,
    Project: s.Project,
    SupplierNumber: s.SupplierNumber,
    TermsOfPayment: s.TermsOfPayment,
    ZipCode: s.ZipCode,
  });

  function findSupplier(number: string): Rec {
    return suppliers.get(number) ?? refuse('Kunde inte hitta leverantör (leverantörsnummer)', 2000432, 404); // paraphrase; code not published
  }

  function checkSupplier(s: Rec) {
    onlyFields(s, SUPPLIER_FIELDS);
    if (s.Email && !/^[^@\s]+@[^@\s]+$/.test(String(s.Email)))
      refuse(`Ogiltig e-postadress (${String(s.Email)})`, 2000359);
    if (s.VATType !== undefined && !['NORMAL', 'EUINTERNAL', 'REVERSE'].includes(String(s.VATType)))
      refuse(`Ogiltig momstyp (${String(s.VATType)})`, 2000588);
    if (s.IBAN && !/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(String(s.IBAN))) refuse('Ogiltigt IBAN-nummer', 2000588); // paraphrase
    if (s.BIC && !/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(String(s.BIC))) refuse('Ogiltig BIC', 2000588); // paraphrase
    if (s.BG && !/^\d{3,4}-?\d{4}$/.test(String(s.BG))) refuse('Ogiltigt bankgironummer', 2000588); // paraphrase
    if (s.PG && !/^\d{1,7}-?\d$/.test(String(s.PG))) refuse('Ogiltigt plusgironummer', 2000588); // paraphrase
    if (s.PreDefinedAccount !== undefined && s.PreDefinedAccount !== '') checkAccount(s.PreDefinedAccount);
  }

  function createSupplier(s: Rec): Rec {
    checkSupplier(s);
    if (!s.Name || typeof s.Name !== 'string') refuse('Leverantören måste ha ett namn (Name)', 2001392); // paraphrase
    let number = s.SupplierNumber === undefined ? '' : String(s.SupplierNumber);
    if (number && !/^[\p{L}\p{N}+/_–-]+$/u.test(number))
      refuse(`Värdet innehåller ej tillåtna tecken. (${number})`, 2000359);
    if (number && suppliers.has(number)) refuse(`Leverantörsnummer ${number} används redan.`, 2000637); // paraphrase
    if (!number) {
      let n = suppliers.size + 1;
      while (suppliers.has(String(n))) n += 1;
      number = String(n);
    }
    const supplier: Rec = {
      '@url': `${base}/3/suppliers/${encodeURIComponent(number)}`,
      Active: true,
      Address1: '',
      Address2: '',
      BG: '',
      BIC: '',
      City: '',
      Country: 'Sverige',
      CountryCode: 'SE',
      Currency: 'SEK',
      Email: '',
      IBAN: '',
      Name: '',
      OrganisationNumber: '',
      PG: '',
      Phone1: '',
      PreDefinedAccount: '',
      TermsOfPayment: '',
      VATNumber: '',
      VATType: 'NORMAL',
      ZipCode: '',
      ...s,
      SupplierNumber: number,
    };
    suppliers.set(number, supplier);
    return supplier;
  }

  function updateSupplier(number: string, s: Rec): Rec {
    const existing = findSupplier(number);
    checkSupplier(s);
    if (s.SupplierNumber !== undefined && String(s.SupplierNumber) !== number)
      refuse('Leverantörsnumret kan inte ändras.', 2000588); // paraphrase
    for (const [key, value] of Object.entries(s)) if (value !== '') existing[key] = value === null ? '' : value;
    return existing;
  }

  // --- supplier invoices -------------------------------------------------------------------------------

  const supplierInvoiceSubset = (i: Rec): Rec => ({
    '@url': i['@url'],
    AuthorizerName: '',
    Balance: i.Balance,
    Booked: i.Booked,
    Cancel: i.Cancelled,
    CostCenter: i.CostCenter,
    Credit: i.Credit,
    Currency: i.Currency,
    CurrencyRate: i.CurrencyRate,
    CurrencyUnit: i.CurrencyUnit,
    DueDate: i.DueDate,
    ExternalInvoiceNumber: i.ExternalInvoiceNumber,
    ExternalInvoiceSeries: i.ExternalInvoiceSeries,
    FinalPayDate: null,
    GivenNumber: i.GivenNumber,
    InvoiceDate: i.InvoiceDate,
    InvoiceNumber: i.InvoiceNumber,
    Project: i.Project,
    SupplierName: i.SupplierName,
    SupplierNumber: i.SupplierNumber,
    Total: i.Total,
    Vouchers: [],
  });

  function supplierInvoiceRow(input: Rec): { row: Rec; debit: number; credit: number } {
    onlyFields(input, SUPPLIER_INVOICE_ROW_FIELDS);
    const account = num(input.Account);
    if (account === null) refuse('Konto måste anges (Account)', 2001392); // paraphrase
    checkAccount(account);
    if (input.Code !== undefined && input.Code !== null && !SUPPLIER_INVOICE_ROW_CODES.has(String(input.Code)))
      refuse(`Ogiltig radkod (${String(input.Code)})`, 2000588); // paraphrase
    const debit = num(input.Debit) ?? 0;
    const credit = num(input.Credit) ?? 0;
    if (Number.isNaN(debit) || Number.isNaN(credit)) refuse('Värdet måste vara numeriskt', 2000108);
    if (debit < 0 || credit < 0) refuse('Debet och kredit kan inte vara negativa.', 2000588); // paraphrase
    return {
      row: {
        Account: account,
        AccountDescription: ACCOUNT_NAMES[account!] ?? '',
        ArticleNumber: input.ArticleNumber ?? '',
        Code: input.Code ?? '',
        CostCenter: input.CostCenter ?? '',
        Credit: credit,
        CreditCurrency: credit,
        Debit: debit,
        DebitCurrency: debit,
        ItemDescription: input.ItemDescription ?? '',
        Price: num(input.Price) ?? 0,
        Project: input.Project ?? '',
        Quantity: num(input.Quantity) ?? 0,
        Total: fromOre(toOre(debit) - toOre(credit)),
        TransactionInformation: input.TransactionInformation ?? '',
        Unit: '',
      },
      debit: toOre(debit),
      credit: toOre(credit),
    };
  }

  function createSupplierInvoice(input: Rec): Rec {
    onlyFields(input, SUPPLIER_INVOICE_FIELDS);
    const supplier = suppliers.get(String(input.SupplierNumber ?? ''));
    if (!supplier) refuse('Kunde inte hitta leverantör', 2000432); // paraphrase; code not published
    const vatType = String(input.VATType ?? supplier!.VATType ?? 'NORMAL');
    if (!['NORMAL', 'EUINTERNAL', 'REVERSE'].includes(vatType)) refuse(`Ogiltig momstyp (${vatType})`, 2000588);
    if (input.SalesType !== undefined && !['STOCK', 'SERVICE'].includes(String(input.SalesType)))
      refuse(`Ogiltig försäljningstyp (${String(input.SalesType)})`, 2000588);
    if (!Array.isArray(input.SupplierInvoiceRows) || input.SupplierInvoiceRows.length === 0)
      refuse('Ingen eller felaktig typ av data. (SupplierInvoiceRows)', 2001392);
    const rows = (input.SupplierInvoiceRows as unknown[]).map((r) => {
      if (!r || typeof r !== 'object')
        return refuse('Ingen eller felaktig typ av data. (SupplierInvoiceRows)', 2001392);
      return supplierInvoiceRow(r as Rec);
    });
    const total = num(input.Total);
    const vat = num(input.VAT) ?? 0;
    const roundOff = num(input.RoundOffValue) ?? 0;
    if (total === null || Number.isNaN(total) || Number.isNaN(vat) || Number.isNaN(roundOff))
      refuse('Värdet måste vara numeriskt (Total)', 2000108);
    const debits = rows.reduce((s, r) => s + r.debit, 0);
    const credits = rows.reduce((s, r) => s + r.credit, 0);
    if (debits !== credits) refuse('Verifikationen är inte i balans.', 2000588); // paraphrase
    const tot = rows.filter((r) => r.row.Code === 'TOT').reduce((s, r) => s + r.credit - r.debit, 0);
    if (tot !== toOre(total!)) refuse('Fakturans totalbelopp stämmer inte med leverantörsskulden.', 2000588); // paraphrase
    const vatRows = rows.filter((r) => r.row.Code === 'VAT').reduce((s, r) => s + r.debit - r.credit, 0);
    if (vatType === 'NORMAL' && vatRows !== toOre(vat)) refuse('Momsbeloppet stämmer inte med momsraderna.', 2000588); // paraphrase
    if (input.Project !== undefined && typeof input.Project !== 'string') refuse('Ogiltigt projekt', 2000588); // paraphrase
    const givenNumber = input.GivenNumber !== undefined ? String(input.GivenNumber) : String(nextGivenNumber);
    if (supplierInvoices.has(givenNumber)) refuse(`Löpnummer ${givenNumber} används redan.`, 2000637); // paraphrase
    nextGivenNumber = Math.max(nextGivenNumber, Number(givenNumber) + 1 || nextGivenNumber + 1);
    const invoiceDate = String(input.InvoiceDate ?? new Date().toISOString().slice(0, 10));
    const invoice: Rec = {
      '@url': `${base}/3/supplierinvoices/${givenNumber}`,
      AccountingMethod: 'ACCRUAL',
      AdministrationFee: String(num(input.AdministrationFee) ?? 0),
      Balance: String(total),
      Booked: false,
      Cancelled: false,
      Comments: input.Comments ?? '',
      CostCenter: input.CostCenter ?? '',
      Credit: total! < 0,
      CreditReference: 0,
      Currency: String(input.Currency ?? supplier!.Currency ?? 'SEK'),
      CurrencyRate: String(num(input.CurrencyRate) ?? 1),
      CurrencyUnit: num(input.CurrencyUnit) ?? 1,
      DisablePaymentFile: input.DisablePaymentFile === true,
      DueDate: input.DueDate ?? addDays(invoiceDate, 30),
      ExternalInvoiceNumber: input.ExternalInvoiceNumber ?? '',
      ExternalInvoiceSeries: input.ExternalInvoiceSeries ?? '',
      Freight: String(num(input.Freight) ?? 0),
      GivenNumber: givenNumber,
      InvoiceDate: invoiceDate,
      InvoiceNumber: input.InvoiceNumber ?? '',
      OCR: input.OCR ?? '',
      OurReference: input.OurReference ?? '',
      PaymentPending: false,
      Project: input.Project ?? '',
      RoundOffValue: String(roundOff),
      SalesType: input.SalesType ?? 'STOCK',
      SupplierInvoiceRows: rows.map((r) => r.row),
      SupplierName: supplier!.Name,
      SupplierNumber: supplier!.SupplierNumber,
      Total: String(total),
      VAT: String(vat),
      VATType: vatType,
      Vouchers: [],
      YourReference: input.YourReference ?? '',
    };
    supplierInvoices.set(givenNumber, invoice);
    return invoice;
  }

  /**
   * PUT /3/supplierinvoices/{GivenNumber}/{approvalpayment|approvalbookkeep|bookkeep|cancel}: the
   * operations of SupplierInvoicesResourceApi.md, each answering SupplierInvoiceWrap.
   */
  function supplierInvoiceAction(givenNumber: string, action: string): Answer {
    if (!['approvalpayment', 'approvalbookkeep', 'bookkeep', 'cancel'].includes(action))
      return { status: 404, body: { message: 'Not Found' } };
    const invoice = supplierInvoices.get(givenNumber);
    // unknown GivenNumber: 404 as GET /3/supplierinvoices/{GivenNumber} answers it
    if (!invoice) return refuse('Kan inte hitta leverantörsfakturan.', 2000434, 404); // paraphrase; code not published
    // the fake's rule: a cancelled invoice is neither approved nor booked (nothing is to be paid)
    if (invoice.Cancelled === true) refuse('Leverantörsfakturan är makulerad.', 2000588); // paraphrase; not published
    const done = approvals.get(givenNumber) ?? { payment: 0, bookkeep: 0 };
    if (action === 'approvalpayment') {
      // the fake's rule: a second approval is refused, so a caller that approves twice is seen
      if (done.payment) refuse('Leverantörsfakturan är redan attesterad för betalning.', 2000588); // paraphrase; not published
      done.payment += 1;
    } else if (action === 'approvalbookkeep') {
      if (done.bookkeep) refuse('Leverantörsfakturan är redan attesterad för bokföring.', 2000588); // paraphrase; not published
      done.bookkeep += 1;
    } else if (action === 'bookkeep') {
      // the fake's rule: booking a booked invoice is refused (Booked is read-only, set by this operation)
      if (invoice.Booked === true) refuse('Leverantörsfakturan är redan bokförd.', 2000588); // paraphrase; not published
      invoice.Booked = true;
    } else {
      // the fake's rule: a booked invoice is credited (…/credit), not cancelled
      if (invoice.Booked === true) refuse('En bokförd leverantörsfaktura kan inte makuleras.', 2000588); // paraphrase; not published
      invoice.Cancelled = true;
    }
    approvals.set(givenNumber, done);
    if (action === 'approvalpayment' && dropNextCreate) {
      dropNextCreate = false;
      return 'drop';
    }
    if (action === 'approvalpayment' && holdNextCreate) {
      holdNextCreate = false;
      return 'hold';
    }
    return { status: 200, body: { SupplierInvoice: invoice } };
  }

  // --- tax reductions -------------------------------------------------------------------------------

  /** The list's TaxReductionSubset (OpenAPI: TaxReductionListItem; the XML example of the docs page). */
  const taxReductionSubset = (t: Rec): Rec => ({
    '@url': t['@url'],
    ApprovedAmount: t.ApprovedAmount,
    CustomerName: t.CustomerName,
    Id: t.Id,
    ReferenceDocumentType: t.ReferenceDocumentType,
    ReferenceNumber: t.ReferenceNumber,
    SocialSecurityNumber: t.SocialSecurityNumber,
  });

  function createTaxReduction(input: Rec): Rec {
    onlyFields(input, TAX_REDUCTION_FIELDS);
    if (!['INVOICE', 'ORDER', 'OFFER'].includes(String(input.ReferenceDocumentType)))
      refuse(`Ogiltig dokumenttyp (${String(input.ReferenceDocumentType)})`, 2000588);
    const invoice = input.ReferenceDocumentType === 'INVOICE' ? invoices.get(String(input.ReferenceNumber)) : undefined;
    if (!invoice) refuse('Kan inte hitta fakturan.', 2000434); // paraphrase; code not published
    if (invoice!.TaxReductionType === 'none') refuse('Dokumentet har ingen skattereduktionstyp.', 2000588); // paraphrase
    if (!input.SocialSecurityNumber) refuse('Personnummer måste anges (SocialSecurityNumber)', 2001392); // paraphrase
    // OpenAPI (lib/Model/TaxReduction.php): SocialSecurityNumber is 10 to 13 characters.
    const ssn = String(input.SocialSecurityNumber);
    if (ssn.length < 10 || ssn.length > 13) refuse(`Ogiltigt personnummer (SocialSecurityNumber: ${ssn})`, 2000588); // paraphrase
    /*
     * The amount asked per person is whole kronor: Fortnox answers 2004217 for a decimal AskedAmount
     * and 2004218 for a decimal AskedAmount of a TaxReductionAmounts entry (issue 31, from Fortnox's
     * answers; the search tool found no published page listing these codes, so which of the two
     * codes goes with which field, and the wording, are paraphrases). Skatteverket's rot and rut
     * requests take whole kronor (skatteverket.se, schemalager XML, rot och rut företag). The OpenAPI
     * asks for at least 1 (lib/Model/TaxReduction.php: AskedAmount >= 1).
     */
    const whole = (value: unknown, code: number, field: string) => {
      const n = num(value);
      if (n === null || Number.isNaN(n)) return refuse(`Värdet måste vara numeriskt (${field})`, 2000108);
      if (!Number.isInteger(n)) refuse(`Begärt belopp måste anges i hela kronor (${field})`, code); // paraphrase
      return n;
    };
    if (input.AskedAmount !== undefined && input.AskedAmount !== null) {
      if (whole(input.AskedAmount, 2004217, 'AskedAmount') < 1)
        refuse('Begärt belopp måste vara minst 1 krona (AskedAmount)', 2000588); // paraphrase
    }
    if (Array.isArray(input.TaxReductionAmounts))
      for (const entry of input.TaxReductionAmounts as Rec[]) whole(entry?.AskedAmount, 2004218, 'AskedAmount');
    const asked =
      invoice!.TaxReductionType === 'green' && Array.isArray(input.TaxReductionAmounts)
        ? (input.TaxReductionAmounts as Rec[]).reduce((s, a) => s + (num(a.AskedAmount) ?? 0), 0)
        : num(input.AskedAmount);
    if (asked === null || Number.isNaN(asked) || asked < 0)
      refuse('Värdet måste vara numeriskt (AskedAmount)', 2000108);
    if (invoice!.TaxReductionType === 'green' && !Array.isArray(input.TaxReductionAmounts))
      refuse('TaxReductionAmounts måste anges för grönt avdrag.', 2001392); // paraphrase
    const id = nextTaxReductionId++;
    const record: Rec = {
      '@url': `${base}/3/taxreductions/${id}`,
      ApprovedAmount: 0,
      AskedAmount: asked,
      BilledAmount: invoice!.BasisTaxReduction,
      CustomerName: input.CustomerName ?? invoice!.CustomerName,
      Id: id,
      PropertyDesignation: input.PropertyDesignation ?? '',
      ReferenceDocumentType: input.ReferenceDocumentType,
      ReferenceNumber: num(input.ReferenceNumber),
      RequestSent: false,
      ResidenceAssociationOrganisationNumber: input.ResidenceAssociationOrganisationNumber ?? '',
      SocialSecurityNumber: input.SocialSecurityNumber,
      TaxReductionAmounts: input.TaxReductionAmounts ?? [],
      TypeOfReduction: invoice!.TaxReductionType,
      VoucherNumber: null,
      VoucherSeries: null,
      VoucherYear: null,
    };
    taxReductions.push(record);
    // The invoice's TaxReduction is what the applications ask for; the customer pays the rest.
    const reduction = toOre(
      taxReductions
        .filter((t) => t.ReferenceDocumentType === 'INVOICE' && String(t.ReferenceNumber) === invoice!.DocumentNumber)
        .reduce((s, t) => s + (t.AskedAmount as number), 0),
    );
    invoice!.TaxReduction = fromOre(reduction);
    invoice!.TotalToPay = fromOre(toOre(invoice!.Total as number) - reduction);
    invoice!.Balance = invoice!.TotalToPay;
    return record;
  }

  return {
    url: base,
    clientId,
    clientSecret,
    invoiceCount(idempotencyKey) {
      if (idempotencyKey === undefined) return invoices.size;
      return [...invoices.values()].filter((i) => i.ExternalInvoiceReference1 === idempotencyKey).length;
    },
    customerCount: () => customers.size,
    articleCount: () => articles.size,
    invoice: (externalId) => invoices.get(externalId) ?? null,
    invoices: () => [...invoices.values()],
    taxReductions: () => [...taxReductions],
    customer: (number) => customers.get(number) ?? null,
    addCustomer: (c) => createCustomer(c),
    units: () => [...units.values()],
    supplierInvoiceCount(idempotencyKey) {
      if (idempotencyKey === undefined) return supplierInvoices.size;
      return [...supplierInvoices.values()].filter((i) => i.ExternalInvoiceNumber === idempotencyKey).length;
    },
    supplierCount: () => suppliers.size,
    supplierInvoice: (externalId) => supplierInvoices.get(externalId) ?? null,
    supplierInvoices: () => [...supplierInvoices.values()],
    addSupplierInvoice: (invoice) => createSupplierInvoice(invoice),
    addSupplier: (supplier) => createSupplier(supplier),
    supplierInvoicePaymentApprovals: (givenNumber) => approvals.get(givenNumber)?.payment ?? 0,
    supplier: (number) => suppliers.get(number) ?? null,
    article: (number) => articles.get(number) ?? null,
    expireAccessTokens() {
      for (const t of accessTokens.values()) t.expiresAt = 0;
    },
    failNext(status, retryAfterSeconds) {
      pendingFailure = { status, retryAfterSeconds };
    },
    dropNextCreateResponse() {
      dropNextCreate = true;
    },
    holdNextCreateResponse() {
      holdNextCreate = true;
    },
    holdNextSupplierInvoiceList() {
      let release!: () => void;
      supplierInvoiceListGate = new Promise((r) => (release = r));
      return release;
    },
    requestCount: () => requests,
    rateLimitedCount: () => rateLimited,
    refreshRequestCount: () => refreshRequests,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * Walks Fortnox's consent page as a browser does: loads it, submits its form with the "Tillåt"
 * button, and answers where Fortnox redirects to (the app's redirect URI with code and state).
 */
export const consentAsBrowser = (authorizeUrl: string): Promise<URL> => submitConsentForm(authorizeUrl, 'Tillåt');
