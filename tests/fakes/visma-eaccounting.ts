import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErpFakeControl } from '~/tests/erp-contract/erp-contract';

/*
 * A local fake of Visma eEkonomi (Visma eAccounting API v2, now also sold as Spiris) and of its
 * identity server, on one http port. Why a fake: the ERP contract suite must run offline, without a
 * Visma developer account, and a mock of fetch would test nothing; this one speaks the API over HTTP
 * with Visma's field names, status codes and error bodies, so the plugin's requests are checked the
 * way Visma would check them.
 *
 * Sources for names and behaviour (field names are used verbatim, PascalCase as Visma spells them):
 * - Visma's OpenAPI document "Bookkeeping & Invoicing/eAccounting API V2" (openapi 3.1.1, served from
 *   https://eaccountingapi.vismaonline.com/v2/), as mirrored in github.com/matssun/visma-external-api-schemas
 *   (schemas/original/visma_external_api.yaml): CustomerInvoiceDraftApi, CustomerInvoiceDraftRowApi,
 *   SalesDocumentRotRutReductionPersonApi, CustomerApi, ArticleApi, UnitApi, ArticleAccountCodingApi,
 *   TermsOfPaymentApi, CompanySettingsApi, CustomerInvoiceApi, CommonPaginationMetadata (Meta),
 *   CommonExtendedBadRequest (ErrorCode, DeveloperErrorMessage, ErrorId, Errors) and the required fields,
 *   max lengths and enums (RotReducedInvoicingType 0 Normal/1 Rot/2 Rut, RotPropertyType 1 Apartment/2
 *   Property, WorkCostType, IncludesVat, DomesticCurrencyRounding) stated there. The draft row's
 *   formats (issue 31 item 4): Quantity "Format: 2 decimals", pattern [-]?\d+(.\d{1,2})?; UnitPrice
 *   "2 decimals allowed if the customer is domestic or 4 decimals if foreign"; DiscountPercentage "4
 *   decimals allowed"; Amount "a total amount of row. Format: 2 decimals". IncludesVat (issue 31
 *   item 3), read-only on the draft: "True = Company settings checkbox 'ShowPricesExclVatPC' is
 *   checked and customer type is 'Private'", and on OrderDryRunApi "true - article row UnitPrice
 *   includes VAT". DELETE /customerinvoicedrafts/{customerInvoiceDraftId}: "Delete a customer invoice
 *   draft", 200.
 * - The older swagger 2.0 of the same API (github.com/simenandre/eaccounting, branch runtypes,
 *   eaccounting.json): ODataQueryOptions with $apply/$skiptoken/$deltatoken, i.e. OData v4 (guids
 *   unquoted in $filter), and the older wording of IncludesVat ("if true the unit prices on rows
 *   include VAT"). Neither document lists the properties $filter takes: the changelog "New filter"
 *   adds them endpoint by endpoint, so what Visma does with another property is not known and a test
 *   chooses it (filterSupport: filtered, ignored, or refused with 400).
 * - developer.vismaonline.com: "Rate Limits" (600 requests per minute, registered per client and
 *   endpoint/URL, 429 with ErrorCode 4010 and DeveloperErrorMessage), "Error Handling" (every error
 *   body has ErrorCode, DeveloperErrorMessage, ErrorId; 401 is ErrorCode 4005), "Error Codes" (2000
 *   DataModelValidationError, 3000 ResourceNotFound, 4000 Conflict), "Authentication" (identity
 *   server, scopes ea:api, offline_access, ea:sales), the changelog "New filter" (drafts filterable;
 *   `RemainingAmount eq TotalAmount` finds unpaid invoices, so TotalAmount is the total with VAT).
 * - github.com/espen/omniauth-visma (wiki): tokens expire in one hour, and a refresh answers all new
 *   tokens, "so make sure you save both the access_token and refresh_token" (refresh tokens rotate).
 * - Paging with $page/$pagesize answered as { Meta, Data }: the Meta schema above and public clients
 *   that call the API with $pagesize.
 *
 * - Rules public integrations report from Visma's sandbox: Persons are required on a Rot/Rut draft,
 *   a work-cost row needs WorkHours >= 1 (Visma's 400 as a public integration's tests quote it:
 *   "Cannot add rows with labour article, work type set, but with work hours < 1.00 or without work
 *   hours"; the fake enforces the first half only — NOT YET the second: the plugin sends no hours
 *   for a work-cost row not counted in hours, an open question of issue 31), VAT-free reverse-charge
 *   rows need a customer flagged with
 *   ReverseChargeOnConstructionServices, dates may be sent as YYYY-MM-DD.
 *
 * - Supplier invoices: the same OpenAPI document's SupplierApi (required Name and TermsOfPaymentId,
 *   lengths, the BankIban/BankBic/BankCode patterns, BankgiroNumber and PlusgiroNumber of 10),
 *   SupplierInvoiceDraftApi (required SupplierId, IsCreditInvoice and Rows; InvoiceNumber 50,
 *   OcrNumber 25, Message 25; TotalAmount "including VAT", Vat), SupplierInvoiceDraftRowApi
 *   (AccountNumber 1–9999999999, DebitAmount, CreditAmount, TransactionText 100, LineNumber),
 *   SupplierInvoiceApi (CreatedFromDraftId, Number, InvoiceNumber required), SupplierInvoiceRowApi
 *   ("the standard payable account 2440": Visma books the debt itself), the POST
 *   /supplierinvoicedrafts query parameters (useDefaultVatCodes, calculateVatOnCostAccounts,
 *   duplicateCheckExtendedValidation "Check if the invoice is duplicate"), POST …/{id}/convert, and
 *   the scopes (ea:purchase for /suppliers and /supplierinvoicedrafts).
 *
 * What no source states (the fake's choices, kept simple and strict): 404 with ErrorCode 3000 for an
 * unknown id in the path, 400 with ErrorCode 3000 for an unknown id in a request body, $pagesize
 * capped at 1000 (maxPageSize), DiscountPercentage and VatRatePercent as fractions ("Format: 4
 * decimals", like RotReducedInvoicingPercent's maximum of 1), VAT summed per rate (taken out of the
 * rate's sum when the prices include VAT), amounts in exact decimals rounded half away from zero
 * (Visma is a .NET service), and the öre rounding to whole kronor when DomesticCurrencyRounding is 1
 * (HalfAwayFromZero). The identity endpoints follow OAuth 2.0 (RFC 6749) as IdentityServer answers
 * them. For supplier invoices: a
 * draft's rows must add up to TotalAmount less Vat (Visma books 2440 and the VAT itself), the
 * duplicate check compares supplier and InvoiceNumber among drafts and supplier invoices and answers
 * 400 with ErrorCode 4000, and the fake remembers a create's Idempotency-Key header (Visma does not
 * read it) only so the contract suite can count what one delivery made.
 */

export interface VismaEaccountingFake extends ErpFakeControl {
  /** Base URL, http://127.0.0.1:PORT: /connect/* is the identity server, /v2/* the API. */
  url: string;
  clientId: string;
  clientSecret: string;
  /** Every customer invoice draft the fake holds, as Visma answers it. */
  invoices(): Record<string, unknown>[];
  /** Customer invoices made by converting drafts. */
  customerInvoices(): Record<string, unknown>[];
  customers(): Record<string, unknown>[];
  articles(): Record<string, unknown>[];
  /** The company's settings; tests change them in place (ShowPricesExclVatPC, DomesticCurrencyRounding). */
  companySettings: Record<string, unknown>;
  suppliers(): Record<string, unknown>[];
  /** Supplier invoice drafts, as Visma answers them. */
  supplierInvoiceDrafts(): Record<string, unknown>[];
  /** What the accountant's "convert" does: the draft becomes a numbered supplier invoice. */
  convertSupplierInvoiceDraft(id: string): Record<string, unknown>;
  supplierInvoiceCount(idempotencyKey?: string): number;
  supplierCount(): number;
  supplierInvoice(externalId: string): Record<string, unknown> | null;
  /**
   * How a $filter on `property` is answered: filtered (the default), ignored (the whole list comes
   * back) or refused (400): Visma documents which properties it filters on only in its changelog.
   */
  filterSupport(property: string, behaviour: 'filters' | 'ignores' | 'refuses'): void;
}

type Row = Record<string, unknown>;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ROT_WORK_TYPES = new Set([1, 2, 3, 4, 5, 6, 7, 20, 21, 23, 24, 25]);
const RUT_WORK_TYPES = new Set([9, 10, 12, 13, 14, 15, 18, 19, 22, 26, 27, 28, 29]);

/** Two decimals, half away from zero, as money is rounded on a Swedish invoice. */
const round2 = (x: number) => (Math.sign(x) * Math.round(Math.abs(x) * 100 + 1e-7)) / 100;

/**
 * A JSON number as an exact decimal of `places` decimals (units × 10^-places), or null when it has
 * more decimals than that. Visma computes in .NET decimal, not binary floating point; so does the
 * fake, from the number as written.
 */
function exactUnits(v: number, places: number): bigint | null {
  if (!Number.isFinite(v)) return null;
  const text = v.toFixed(12).replace(/0+$/, '').replace(/\.$/, '');
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  if (fraction.length > places) return null;
  const units = BigInt(whole! + fraction.padEnd(places, '0'));
  return v < 0 ? -units : units;
}

/** n / d rounded half away from zero (DomesticCurrencyRounding's HalfAwayFromZero). */
function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  const twice = (r < 0n ? -r : r) * 2n;
  return twice >= (d < 0n ? -d : d) ? q + (n < 0n !== d < 0n ? -1n : 1n) : q;
}

const kronor = (ore: bigint) => Number(ore) / 100;
const nowUtc = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: number,
    message: string,
    readonly errors?: { Field: string; ErrorCode: string; Message: string }[],
  ) {
    super(message);
  }
}

const validation = (field: string, message: string) =>
  new HttpFailure(400, 2000, `DataModelValidationError - ${message}`, [
    { Field: field, ErrorCode: 'DataModelValidationError', Message: message },
  ]);
const notFound = (what: string) => new HttpFailure(404, 3000, `ResourceNotFound - ${what} was not found.`);
const unknownReference = (field: string, what: string) =>
  new HttpFailure(400, 3000, `ResourceNotFound - ${what} was not found.`, [
    { Field: field, ErrorCode: 'ResourceNotFound', Message: `${what} was not found.` },
  ]);

function maxLength(body: Row, field: string, max: number, prefix = '') {
  const v = body[field];
  if (v != null && (typeof v !== 'string' || v.length > max))
    throw validation(prefix + field, `${prefix + field} must be a string with a maximum length of ${max}.`);
}

function requireBoolean(body: Row, field: string, prefix = '') {
  if (typeof body[field] !== 'boolean') throw validation(prefix + field, `The ${prefix + field} field is required.`);
}

function requireString(body: Row, field: string) {
  if (typeof body[field] !== 'string') throw validation(field, `The ${field} field is required.`);
}

function optionalNumber(body: Row, field: string, prefix = ''): number | null {
  const v = body[field];
  if (v == null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw validation(prefix + field, `${prefix + field} must be a number.`);
  return v;
}

/** Visma answers dates as date-times at midnight; a date alone is accepted on the way in. */
function dateField(body: Row, field: string): string | null {
  const v = body[field];
  if (v == null) return null;
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw validation(field, `${field} is not a valid date.`);
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00` : v;
}

/** The subset of OData v4 $filter the fake understands: `Prop eq value` joined by `and`. */
function compileFilter(expr: string, sample: Row[]): (row: Row) => boolean {
  const clauses: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < expr.length; i++) {
    const ch = expr[i]!;
    if (ch === "'") quoted = !quoted;
    if (!quoted && /^\s+and\s+/i.test(expr.slice(i)) && current.trim()) {
      clauses.push(current);
      current = '';
      i += expr.slice(i).match(/^\s+and\s+/i)![0].length - 1;
      continue;
    }
    current += ch;
  }
  if (current.trim()) clauses.push(current);
  const tests = clauses.map((clause) => {
    const m = clause.trim().match(/^([A-Za-z][A-Za-z0-9]*)\s+(eq|ne)\s+(.+)$/);
    if (!m) throw validation('$filter', `The query specified in the URI is not valid: '${clause.trim()}'.`);
    const [, prop, op, raw] = m as unknown as [string, string, 'eq' | 'ne', string];
    if (sample.length > 0 && !sample.some((r) => prop in r))
      throw validation('$filter', `Could not find a property named '${prop}'.`);
    let value: unknown;
    let caseless = false;
    const literal = raw.trim();
    if (/^'.*'$/s.test(literal)) value = literal.slice(1, -1).replace(/''/g, "'");
    else if (GUID.test(literal)) {
      value = literal.toLowerCase();
      caseless = true;
    } else if (literal === 'true' || literal === 'false') value = literal === 'true';
    else if (literal === 'null') value = null;
    else if (/^-?\d+(\.\d+)?$/.test(literal)) value = Number(literal);
    else throw validation('$filter', `The query specified in the URI is not valid: '${literal}'.`);
    return (row: Row) => {
      let actual = row[prop] ?? null;
      if (caseless && typeof actual === 'string') actual = actual.toLowerCase();
      return op === 'eq' ? actual === value : actual !== value;
    };
  });
  return (row) => tests.every((t) => t(row));
}

export async function startVismaEaccountingFake(
  options: {
    clientId?: string;
    clientSecret?: string;
    rateLimit?: { requests: number; perMs: number };
    /** The largest $pagesize served; a larger one is capped (lower it to exercise paging). */
    maxPageSize?: number;
  } = {},
): Promise<VismaEaccountingFake> {
  const clientId = options.clientId ?? 'ordo-visma-e-test-client';
  const clientSecret = options.clientSecret ?? 'ordo-visma-e-test-secret-0123456789';
  const rateLimit = options.rateLimit ?? { requests: 600, perMs: 60_000 };
  const maxPageSize = options.maxPageSize ?? 1000;

  const codes = new Map<string, { redirectUri: string; scope: string; used: boolean }>();
  const accessTokens = new Map<string, { expiresAt: number }>();
  const refreshTokens = new Map<string, { scope: string }>();

  const customers: Row[] = [];
  const articles: Row[] = [];
  const drafts: Row[] = [];
  const customerInvoices: Row[] = [];
  const suppliers: Row[] = [];
  const supplierDrafts: Row[] = [];
  const supplierInvoices: Row[] = [];
  /** Draft id → the Idempotency-Key header of the request that made it (not Visma's; see above). */
  const supplierDraftKeys = new Map<string, string>();
  let nextSupplierNumber = 1;
  let nextSupplierInvoiceNumber = 1;
  const windows = new Map<string, number[]>();
  let requests = 0;
  let rateLimited = 0;
  let failNext: { status: number; retryAfterSeconds?: number } | null = null;
  const filterBehaviour = new Map<string, 'ignores' | 'refuses'>();
  let dropNextCreate = false;

  const termsOfPayments: Row[] = [
    ...[10, 15, 20, 30, 60].map((days) => ({
      Id: randomUUID(),
      Name: `${days} dagar netto`,
      NameEnglish: `${days} days net`,
      NumberOfDays: days,
      TermsOfPaymentTypeId: 0,
      TermsOfPaymentTypeText: 'Normal',
      AvailableForSales: true,
      AvailableForPurchase: true,
    })),
    {
      Id: randomUUID(),
      Name: 'Kontant',
      NameEnglish: 'Cash',
      NumberOfDays: 0,
      TermsOfPaymentTypeId: 2,
      TermsOfPaymentTypeText: 'Cash',
      AvailableForSales: true,
      AvailableForPurchase: true,
    },
    {
      Id: randomUUID(),
      Name: 'Innevarande månad + 30 dagar',
      NameEnglish: 'Current month + 30 days',
      NumberOfDays: 30,
      TermsOfPaymentTypeId: 1,
      TermsOfPaymentTypeText: 'CurrentMonth',
      AvailableForSales: true,
      AvailableForPurchase: true,
    },
  ];

  // The units a new Swedish eEkonomi company has, with UN/ECE Rec 20 codes as Visma uses for e-invoices.
  const units: Row[] = [
    ['Styck', 'H87', 'st', 'pcs'],
    ['Timme', 'HUR', 'tim', 'h'],
    ['Kilometer', 'KMT', 'km', 'km'],
    ['Meter', 'MTR', 'm', 'm'],
    ['Kilogram', 'KGM', 'kg', 'kg'],
    ['Liter', 'LTR', 'l', 'l'],
    ['Dag', 'DAY', 'dag', 'day'],
    ['Månad', 'MON', 'mån', 'month'],
  ].map(([Name, Code, Abbreviation, AbbreviationEnglish]) => ({
    Id: randomUUID(),
    Name,
    Code,
    Abbreviation,
    AbbreviationEnglish,
  }));

  // Article account codings of the Swedish BAS chart: goods on 300x, services on 304x, reverse
  // construction VAT on 3231; VatRatePercent as a fraction like Visma's other rates.
  const codings: Row[] = (
    [
      ['Varor', 'Goods', 'Goods', 0.25, 3001],
      ['Varor', 'Goods', 'Goods', 0.12, 3002],
      ['Varor', 'Goods', 'Goods', 0.06, 3003],
      ['Varor', 'Goods', 'Goods', 0, 3004],
      ['Tjänster', 'Services', 'Service', 0.25, 3041],
      ['Tjänster', 'Services', 'Service', 0.12, 3042],
      ['Tjänster', 'Services', 'Service', 0.06, 3043],
      ['Tjänster', 'Services', 'Service', 0, 3044],
    ] as const
  ).map(([name, nameEnglish, type, rate, account]) => ({
    Id: randomUUID(),
    Name: rate ? `${name} ${rate * 100} %` : `${name} momsfri`,
    NameEnglish: rate ? `${nameEnglish} ${rate * 100} %` : `${nameEnglish} VAT exempt`,
    Type: type,
    VatRate: rate ? String(rate * 100) : '0',
    IsActive: true,
    VatRatePercent: rate,
    DomesticSalesSubjectToReversedConstructionVatAccountNumber: 3231,
    DomesticSalesSubjectToVatAccountNumber: rate ? account : null,
    DomesticSalesVatExemptAccountNumber: rate ? null : account,
    ForeignSalesSubjectToMossAccountNumber: null,
    ForeignSalesSubjectToThirdPartySalesAccountNumber: type === 'Service' ? 3308 : 3105,
    ForeignSalesSubjectToVatWithinEuAccountNumber: type === 'Service' ? 3308 : 3108,
    ForeignSalesVatExemptOutsideEuAccountNumber: type === 'Service' ? 3305 : 3105,
    ForeignSalesVatExemptWithinEuAccountNumber: type === 'Service' ? 3308 : 3108,
    DomesticSalesVatCodeExemptAccountNumber: null,
    ChangedUtc: nowUtc(),
  }));

  const companySettings: Record<string, unknown> = {
    Name: 'Fake Service AB',
    Email: 'info@fakeservice.se',
    Phone: null,
    MobilePhone: null,
    Address1: 'Industrivägen 4',
    Address2: null,
    CountryCode: 'SE',
    PostalCode: '171 48',
    City: 'Solna',
    Website: null,
    OurReference: null,
    CurrencyCode: 'SEK',
    TermsOfPaymentId: termsOfPayments[3]!.Id,
    CorporateIdentityNumber: '559900-0001',
    VatCode: 'SE559900000101',
    BankGiro: '123-4567',
    AccountNumberDigits: 4,
    ProductVariant: 1,
    TypeOfBusiness: 1,
    NextCustomerNumber: 1,
    NextCustomerInvoiceNumber: 1001,
    // Not checked: prices to private persons are without VAT (IncludesVat false); tests check it.
    ShowPricesExclVatPC: false,
    DomesticCurrencyRounding: 1,
    UsesReverseConstructionVat: true,
    UsesRotReducedInvoicing: true,
    UsesGreenTechnology: false,
    CompanyStatus: 1,
    KeepOriginalDraftDate: false,
  };

  // ---- identity server ----------------------------------------------------------------------

  const issueTokens = (scope: string) => {
    const access = `fake-at-${randomUUID()}`;
    const refresh = `fake-rt-${randomUUID()}`;
    accessTokens.set(access, { expiresAt: Date.now() + 3600_000 });
    refreshTokens.set(refresh, { scope });
    return { access_token: access, expires_in: 3600, token_type: 'Bearer', refresh_token: refresh, scope };
  };

  const escapeHtml = (s: string) =>
    s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

  function authorizePage(res: http.ServerResponse, q: URLSearchParams) {
    if (q.get('client_id') !== clientId) return sendText(res, 400, 'unauthorized_client');
    if (q.get('response_type') !== 'code') return sendText(res, 400, 'unsupported_response_type');
    const redirectUri = q.get('redirect_uri');
    if (!redirectUri || !/^https?:\/\//.test(redirectUri)) return sendText(res, 400, 'invalid_request: redirect_uri');
    const hidden = ['client_id', 'redirect_uri', 'scope', 'state']
      .map((n) => `<input type="hidden" name="${n}" value="${escapeHtml(q.get(n) ?? '')}">`)
      .join('\n        ');
    const scopes = (q.get('scope') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((s) => `<li>${escapeHtml(s)}</li>`)
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Visma eEkonomi (fake) – allow access</title></head>
  <body>
    <main>
      <h1>Allow access to Fake Service AB</h1>
      <p>The application asks for:</p>
      <ul>${scopes}</ul>
      <form method="post" action="/connect/authorize">
        ${hidden}
        <button type="submit">Allow</button>
      </form>
    </main>
  </body>
</html>`);
  }

  function consent(res: http.ServerResponse, form: URLSearchParams) {
    if (form.get('client_id') !== clientId) return sendText(res, 400, 'unauthorized_client');
    const redirectUri = form.get('redirect_uri') ?? '';
    const code = randomUUID().replace(/-/g, '');
    codes.set(code, { redirectUri, scope: form.get('scope') ?? '', used: false });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    if (form.get('state')) target.searchParams.set('state', form.get('state')!);
    res.writeHead(302, { location: target.toString() });
    res.end();
  }

  function token(req: http.IncomingMessage, res: http.ServerResponse, form: URLSearchParams) {
    const oauthError = (status: number, error: string) => sendJson(res, status, { error });
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const basic = req.headers.authorization?.match(/^Basic\s+(.+)$/i);
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      id = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
    }
    if (id !== clientId || secret !== clientSecret) return oauthError(401, 'invalid_client');
    const grant = form.get('grant_type');
    if (grant === 'authorization_code') {
      const entry = codes.get(form.get('code') ?? '');
      if (!entry || entry.used || entry.redirectUri !== form.get('redirect_uri'))
        return oauthError(400, 'invalid_grant');
      entry.used = true;
      return sendJson(res, 200, issueTokens(entry.scope));
    }
    if (grant === 'refresh_token') {
      const old = form.get('refresh_token') ?? '';
      const entry = refreshTokens.get(old);
      if (!entry) return oauthError(400, 'invalid_grant');
      // Rotation: the used refresh token stops working, so a client must keep the new one.
      refreshTokens.delete(old);
      return sendJson(res, 200, issueTokens(entry.scope));
    }
    return oauthError(400, 'unsupported_grant_type');
  }

  // ---- API ----------------------------------------------------------------------------------

  function page(res: http.ServerResponse, q: URLSearchParams, all: Row[]) {
    const filter = q.get('$filter');
    let rows = filter ? all.filter(compileFilter(filter, all)) : all;
    // What Visma does with a filter on a property it has not made filterable is not documented (its
    // changelog "New filter" adds filterable properties one endpoint at a time); a test chooses.
    const props = filter ? [...filter.matchAll(/([A-Za-z][A-Za-z0-9]*)\s+(?:eq|ne)\s/g)].map((m) => m[1]!) : [];
    const refused = props.find((prop) => filterBehaviour.get(prop) === 'refuses');
    if (refused) throw validation('$filter', `The property '${refused}' cannot be used in the $filter query option.`);
    if (props.some((prop) => filterBehaviour.get(prop) === 'ignores')) rows = all;
    const pageSize = Math.min(Math.max(Number(q.get('$pagesize') ?? 50) || 50, 1), maxPageSize);
    const current = Math.max(Number(q.get('$page') ?? 1) || 1, 1);
    sendJson(res, 200, {
      Meta: {
        CurrentPage: current,
        PageSize: pageSize,
        TotalNumberOfPages: Math.ceil(rows.length / pageSize),
        TotalNumberOfResults: rows.length,
        ServerTimeUtc: nowUtc(),
      },
      Data: rows.slice((current - 1) * pageSize, current * pageSize),
    });
  }

  const byId = (list: Row[], id: string, what: string) => {
    const found = list.find((r) => String(r.Id).toLowerCase() === id.toLowerCase());
    if (!found) throw notFound(what);
    return found;
  };

  function referenced(list: Row[], body: Row, field: string, what: string, prefix = ''): Row {
    const id = body[field];
    if (typeof id !== 'string' || !GUID.test(id))
      throw validation(prefix + field, `${prefix + field} must be a valid Guid, was '${String(id)}'.`);
    const found = list.find((r) => String(r.Id).toLowerCase() === id.toLowerCase());
    if (!found) throw unknownReference(prefix + field, `${what} with id ${id}`);
    return found;
  }

  function createCustomer(body: Row): Row {
    requireString(body, 'Name');
    if (!(body.Name as string).trim()) throw validation('Name', 'The Name field is required.');
    requireString(body, 'InvoiceCity');
    requireString(body, 'InvoicePostalCode');
    requireBoolean(body, 'IsActive');
    requireBoolean(body, 'IsPrivatePerson');
    const terms = referenced(termsOfPayments, body, 'TermsOfPaymentId', 'TermsOfPayment');
    for (const [field, max] of [
      ['Name', 50],
      ['CustomerNumber', 16],
      ['CorporateIdentityNumber', 20],
      ['EmailAddress', 255],
      ['Telephone', 50],
      ['MobilePhone', 50],
      ['InvoiceAddress1', 50],
      ['InvoiceAddress2', 50],
      ['InvoicePostalCode', 10],
      ['InvoiceCity', 50],
      ['InvoiceCountryCode', 2],
      ['VatNumber', 20],
      ['CurrencyCode', 3],
      ['Note', 4000],
    ] as const)
      maxLength(body, field, max);
    if (body.VatNumber != null && !/^[A-Z]{2}[0-9A-Z]{8,12}$/.test(String(body.VatNumber)))
      throw validation('VatNumber', 'VatNumber is not a valid VAT number.');
    if (body.ReverseChargeOnConstructionServices === true && !body.VatNumber)
      throw validation('VatNumber', 'VatNumber must be set when ReverseChargeOnConstructionServices is true.');
    let number = typeof body.CustomerNumber === 'string' && body.CustomerNumber ? body.CustomerNumber : null;
    if (number && customers.some((c) => c.CustomerNumber === number))
      throw new HttpFailure(400, 4000, `Conflict - A customer with CustomerNumber ${number} already exists.`);
    if (!number) {
      while (customers.some((c) => c.CustomerNumber === String(companySettings.NextCustomerNumber)))
        companySettings.NextCustomerNumber = Number(companySettings.NextCustomerNumber) + 1;
      number = String(companySettings.NextCustomerNumber);
      companySettings.NextCustomerNumber = Number(companySettings.NextCustomerNumber) + 1;
    }
    const customer: Row = {
      Id: randomUUID(),
      CustomerNumber: number,
      CorporateIdentityNumber: body.CorporateIdentityNumber ?? null,
      ContactPersonEmail: body.ContactPersonEmail ?? null,
      ContactPersonMobile: body.ContactPersonMobile ?? null,
      ContactPersonName: body.ContactPersonName ?? null,
      ContactPersonPhone: body.ContactPersonPhone ?? null,
      CurrencyCode: body.CurrencyCode ?? companySettings.CurrencyCode,
      EmailAddress: body.EmailAddress ?? null,
      InvoiceAddress1: body.InvoiceAddress1 ?? null,
      InvoiceAddress2: body.InvoiceAddress2 ?? null,
      InvoiceCity: body.InvoiceCity,
      InvoiceCountryCode: body.InvoiceCountryCode ?? 'SE',
      InvoicePostalCode: body.InvoicePostalCode,
      DeliveryCustomerName: body.DeliveryCustomerName ?? null,
      Name: body.Name,
      Note: body.Note ?? null,
      ReverseChargeOnConstructionServices: body.ReverseChargeOnConstructionServices === true,
      MobilePhone: body.MobilePhone ?? null,
      Telephone: body.Telephone ?? null,
      TermsOfPaymentId: terms.Id,
      TermsOfPayment: terms,
      VatNumber: body.VatNumber ?? null,
      WwwAddress: body.WwwAddress ?? null,
      IsPrivatePerson: body.IsPrivatePerson,
      DiscountPercentage: typeof body.DiscountPercentage === 'number' ? body.DiscountPercentage : 0,
      IsActive: body.IsActive,
      ForceBookkeepVat: false,
      ElectronicReference: body.ElectronicReference ?? null,
      EmailAddresses: body.EmailAddresses ?? [],
      PropertyType: body.PropertyType ?? null,
      PropertyReference: body.PropertyReference ?? null,
      IsFutureInvoiceDateAllowed: true,
      UnpaidInvoicesAmount: 0,
      LastInvoiceDate: null,
      ChangedUtc: nowUtc(),
    };
    customers.push(customer);
    return customer;
  }

  function createArticle(body: Row): Row {
    requireString(body, 'Number');
    requireString(body, 'Name');
    requireBoolean(body, 'IsActive');
    maxLength(body, 'Number', 40);
    maxLength(body, 'Name', 50);
    maxLength(body, 'NameEnglish', 50);
    if (!(body.Number as string).trim()) throw validation('Number', 'The Number field is required.');
    const unit = referenced(units, body, 'UnitId', 'Unit');
    const coding = referenced(codings, body, 'CodingId', 'ArticleAccountCoding');
    if (articles.some((a) => a.Number === body.Number))
      throw new HttpFailure(400, 4000, `Conflict - An article with Number ${String(body.Number)} already exists.`);
    const netPrice = optionalNumber(body, 'NetPrice') ?? 0;
    const rate = Number(coding.VatRatePercent);
    const article: Row = {
      Id: randomUUID(),
      IsActive: body.IsActive,
      Number: body.Number,
      Name: body.Name,
      NameEnglish: body.NameEnglish ?? null,
      NetPrice: netPrice,
      NetPriceWithDiscount: netPrice,
      GrossPrice: round2(netPrice * (1 + rate)),
      CodingId: coding.Id,
      CodingName: coding.Name,
      UnitId: unit.Id,
      UnitName: unit.Name,
      UnitAbbreviation: unit.Abbreviation,
      StockBalance: 0,
      StockBalanceReserved: 0,
      StockBalanceAvailable: 0,
      CreatedUtc: nowUtc(),
      ChangedUtc: nowUtc(),
      HouseWorkType: body.HouseWorkType ?? null,
      PurchasePrice: optionalNumber(body, 'PurchasePrice') ?? 0,
      SendToWebshop: body.SendToWebshop !== false,
      UsesMoss: false,
      IsStock: body.IsStock === true,
      IsServiceArticle: coding.Type === 'Service',
      GreenTechnologyType: body.GreenTechnologyType ?? null,
      Note: body.Note ?? null,
    };
    articles.push(article);
    return article;
  }

  /** Validates a draft like Visma and answers it with the figures Visma computes. */
  function buildDraft(body: Row): Row {
    const customer = referenced(customers, body, 'CustomerId', 'Customer');
    requireBoolean(body, 'EuThirdParty');
    const rotType = body.RotReducedInvoicingType;
    if (rotType !== 0 && rotType !== 1 && rotType !== 2)
      throw validation('RotReducedInvoicingType', 'The RotReducedInvoicingType field is required (0, 1 or 2).');
    for (const [field, max] of [
      ['YourReference', 100],
      ['OurReference', 100],
      ['BuyersOrderReference', 35],
      ['ElectronicReference', 100],
      ['SubscriptionNumber', 100],
      ['ContractNumber', 100],
      ['RotReducedInvoicingPropertyName', 40],
      ['RotReducedInvoicingOrgNumber', 11],
      ['InvoiceAddress1', 50],
      ['InvoiceAddress2', 50],
      ['DeliveryCustomerName', 50],
      ['DeliveryAddress1', 50],
      ['DeliveryAddress2', 50],
      ['DeliveryPostalCode', 10],
      ['DeliveryCity', 50],
    ] as const)
      maxLength(body, field, max);
    if (body.ElectronicReference && customer.IsPrivatePerson)
      throw validation('ElectronicReference', 'ElectronicReference can only be set for non-private individuals.');
    const invoiceDate = dateField(body, 'InvoiceDate') ?? `${new Date().toISOString().slice(0, 10)}T00:00:00`;
    const dueDate = dateField(body, 'DueDate');
    const deliveryDate = dateField(body, 'DeliveryDate');
    if (body.TermsOfPaymentId != null) referenced(termsOfPayments, body, 'TermsOfPaymentId', 'TermsOfPayment');
    // CustomerInvoiceDraftApi.IncludesVat (read-only): "True = Company settings checkbox
    // 'ShowPricesExclVatPC' is checked and customer type is 'Private'; False = Otherwise". The same
    // wording is on CustomerInvoiceApi, the dry runs, orders and quotes; OrderDryRunApi says what it
    // means: "true - article row UnitPrice includes VAT". (The older swagger 2.0 said only "if true
    // the unit prices on rows include VAT".) The setting's name suggests the opposite; the fake
    // follows the documentation, and a client that reads the flag the other way books every private
    // person's invoice wrong by the VAT.
    const includesVat = customer.IsPrivatePerson === true && companySettings.ShowPricesExclVatPC === true;
    // UnitPrice: "Format: 2 decimals allowed if the customer is domestic or 4 decimals if foreign".
    const pricePlaces = (customer.InvoiceCountryCode ?? 'SE') === companySettings.CountryCode ? 2 : 4;

    const inRows = body.Rows == null ? [] : body.Rows;
    if (!Array.isArray(inRows)) throw validation('Rows', 'Rows must be an array.');
    const rows: Row[] = [];
    /** Öre per VAT rate in whole percent, as the rows' amounts (with VAT when includesVat). */
    const byRate = new Map<number, bigint>();
    let workCost = 0n;
    inRows.forEach((raw: unknown, i: number) => {
      const prefix = `Rows[${i}].`;
      if (!raw || typeof raw !== 'object') throw validation(`Rows[${i}]`, 'A row must be an object.');
      const r = raw as Row;
      requireBoolean(r, 'IsTextRow', prefix);
      requireBoolean(r, 'ReversedConstructionServicesVatFree', prefix);
      maxLength(r, 'Text', 2000, prefix);
      if (r.IsTextRow) {
        if (typeof r.Text !== 'string' || !r.Text.trim())
          throw validation(`${prefix}Text`, 'A text row must have at least one character of Text.');
        rows.push({
          Id: randomUUID(),
          LineNumber: i + 1,
          ArticleId: null,
          ArticleNumber: null,
          IsTextRow: true,
          Text: r.Text,
          UnitPrice: 0,
          DiscountPercentage: 0,
          Quantity: 0,
          WorkCostType: 0,
          IsWorkCost: false,
          WorkHours: null,
          MaterialCosts: null,
          ReversedConstructionServicesVatFree: false,
          VatRate: null,
          Amount: 0,
        });
        return;
      }
      const article = referenced(articles, r, 'ArticleId', 'Article', prefix);
      const coding = codings.find((c) => c.Id === article.CodingId)!;
      const unitPrice = optionalNumber(r, 'UnitPrice', prefix) ?? 0;
      const quantity = optionalNumber(r, 'Quantity', prefix) ?? 1;
      const discount = optionalNumber(r, 'DiscountPercentage', prefix) ?? 0;
      if (discount < 0 || discount > 1)
        throw validation(`${prefix}DiscountPercentage`, 'DiscountPercentage must be between 0 and 1.');
      // CustomerInvoiceDraftRowApi.Quantity: pattern "[-]?\d+(.\d{1,2})?", "Format: 2 decimals".
      const q = exactUnits(quantity, 2);
      if (q === null) throw validation(`${prefix}Quantity`, 'Quantity must be a number with at most 2 decimals.');
      const p = exactUnits(unitPrice, pricePlaces);
      if (p === null)
        throw validation(`${prefix}UnitPrice`, `UnitPrice must be a number with at most ${pricePlaces} decimals.`);
      // DiscountPercentage: pattern "[-]?\d+(.\d{1,4})?", "Format: 4 decimals allowed".
      const d = exactUnits(discount, 4);
      if (d === null)
        throw validation(`${prefix}DiscountPercentage`, 'DiscountPercentage must have at most 4 decimals.');
      const reversed = r.ReversedConstructionServicesVatFree === true;
      if (reversed && !customer.ReverseChargeOnConstructionServices)
        throw validation(
          `${prefix}ReversedConstructionServicesVatFree`,
          'Reversed construction VAT requires a customer with ReverseChargeOnConstructionServices.',
        );
      const isWorkCost = r.IsWorkCost === true;
      const workCostType = optionalNumber(r, 'WorkCostType', prefix) ?? 0;
      const workHours = optionalNumber(r, 'WorkHours', prefix);
      if (isWorkCost) {
        if (rotType === 0) throw validation(`${prefix}IsWorkCost`, 'IsWorkCost is only used on Rot/Rut invoices.');
        const allowed = rotType === 1 ? ROT_WORK_TYPES : RUT_WORK_TYPES;
        if (!allowed.has(workCostType))
          throw validation(
            `${prefix}WorkCostType`,
            `WorkCostType ${workCostType} is not a ${rotType === 1 ? 'Rot' : 'Rut'} work type.`,
          );
        if (workHours != null && workHours < 1)
          throw validation(
            `${prefix}WorkHours`,
            'Cannot add rows with labour article, work type set, but with work hours < 1.00',
          );
      }
      const rate = reversed ? 0 : Number(coding.VatRatePercent);
      const percent = Math.round(rate * 100);
      // Amount: "Returns a total amount of row. Format: 2 decimals": quantity × price less the
      // discount, rounded once to the öre.
      const amountOre = divRound(q * p * (10_000n - d), 10n ** BigInt(pricePlaces + 4));
      const amount = kronor(amountOre);
      byRate.set(percent, (byRate.get(percent) ?? 0n) + amountOre);
      if (isWorkCost) workCost += includesVat ? amountOre : amountOre + divRound(amountOre * BigInt(percent), 100n);
      rows.push({
        Id: randomUUID(),
        LineNumber: typeof r.LineNumber === 'number' ? r.LineNumber : i + 1,
        ArticleId: article.Id,
        IsServiceArticle: article.IsServiceArticle,
        UnitId: article.UnitId,
        ArticleNumber: article.Number,
        IsTextRow: false,
        Text: typeof r.Text === 'string' && r.Text ? r.Text : article.Name,
        UnitPrice: unitPrice,
        IsDiscountInFixedAmount: false,
        DiscountFixedAmount: null,
        DiscountPercentage: discount,
        Quantity: quantity,
        WorkCostType: workCostType,
        IsWorkCost: isWorkCost,
        WorkHours: workHours,
        MaterialCosts: optionalNumber(r, 'MaterialCosts', prefix),
        ReversedConstructionServicesVatFree: reversed,
        CostCenterItemId1: null,
        CostCenterItemId2: null,
        CostCenterItemId3: null,
        UnitAbbreviation: article.UnitAbbreviation,
        VatRateId: coding.Id,
        VatRate: rate,
        UnitName: article.UnitName,
        ProjectId: null,
        GreenTechnologyType: 0,
        Amount: amount,
      });
    });

    // ROT/RUT: the reduction is asked of the tax agency for named persons, on labour of a private person.
    const persons = body.Persons == null ? [] : body.Persons;
    if (!Array.isArray(persons)) throw validation('Persons', 'Persons must be an array.');
    const reduction = optionalNumber(body, 'RotReducedInvoicingAmount') ?? 0;
    let propertyType: number | null = null;
    if (rotType !== 0) {
      if (!customer.IsPrivatePerson)
        throw validation('RotReducedInvoicingType', 'Rot/Rut invoices can only be made for private individuals.');
      if (persons.length === 0)
        throw validation('Persons', 'Persons are required for domestic services (Rot/Rut) invoices.');
      persons.forEach((p: unknown, i: number) => {
        const person = (p ?? {}) as Row;
        if (typeof person.Ssn !== 'string' || !person.Ssn)
          throw validation(`Persons[${i}].Ssn`, 'The Ssn field is required.');
        maxLength(person, 'Ssn', 50, `Persons[${i}].`);
        optionalNumber(person, 'Amount', `Persons[${i}].`);
      });
      if (!rows.some((r) => r.IsWorkCost))
        throw validation('Rows', 'A Rot/Rut invoice needs at least one row with IsWorkCost.');
      if (rotType === 1) {
        propertyType = optionalNumber(body, 'RotPropertyType');
        if (propertyType !== 1 && propertyType !== 2)
          throw validation(
            'RotPropertyType',
            'RotPropertyType must be 1 (Apartment) or 2 (Property) on a Rot invoice.',
          );
        if (!body.RotReducedInvoicingPropertyName)
          throw validation(
            'RotReducedInvoicingPropertyName',
            'The property designation or apartment number is required.',
          );
        if (propertyType === 1 && !body.RotReducedInvoicingOrgNumber)
          throw validation(
            'RotReducedInvoicingOrgNumber',
            "The housing association's organisation number is required.",
          );
      }
      if (body.RotReducedInvoicingAutomaticDistribution !== true) {
        const distributed = round2(persons.reduce((s: number, p: Row) => s + (Number(p.Amount) || 0), 0));
        if (distributed !== round2(reduction))
          throw validation('Persons', 'The amounts of Persons must add up to RotReducedInvoicingAmount.');
      }
      if (reduction > kronor(workCost))
        throw validation('RotReducedInvoicingAmount', 'The reduction is larger than the work cost.');
    }

    // VAT on each rate's sum (the fake's choice, see above): on prices with VAT the VAT inside them.
    let netOre = 0n;
    let vatOre = 0n;
    for (const [percent, sum] of byRate) {
      const v = includesVat
        ? divRound(sum * BigInt(percent), BigInt(100 + percent))
        : divRound(sum * BigInt(percent), 100n);
      vatOre += v;
      netOre += includesVat ? sum - v : sum;
    }
    const exactOre = netOre + vatOre;
    const roundedOre =
      companySettings.DomesticCurrencyRounding === 1 && customer.CurrencyCode === 'SEK'
        ? divRound(exactOre, 100n) * 100n
        : exactOre;
    const vat = kronor(vatOre);
    const rounded = kronor(roundedOre);
    return {
      CustomerId: customer.Id,
      IsCreditInvoice: body.IsCreditInvoice === true,
      RotReducedInvoicingType: rotType,
      RotReducedInvoicingPropertyName: body.RotReducedInvoicingPropertyName ?? null,
      RotReducedInvoicingOrgNumber: body.RotReducedInvoicingOrgNumber ?? null,
      MaxAllowedTaxReductionAmount: round2(kronor(workCost) * (rotType === 2 ? 0.5 : 0.3)),
      RotReducedInvoicingAmount: reduction,
      RotReducedInvoicingAutomaticDistribution: body.RotReducedInvoicingAutomaticDistribution === true,
      RotPropertyType: propertyType,
      HouseWorkOtherCosts: body.HouseWorkOtherCosts ?? null,
      Rows: rows,
      Persons: persons.map((p: Row) => ({ Id: randomUUID(), Ssn: p.Ssn, Amount: Number(p.Amount) || 0 })),
      YourReference: body.YourReference ?? null,
      OurReference: body.OurReference ?? null,
      BuyersOrderReference: body.BuyersOrderReference ?? null,
      ElectronicReference: body.ElectronicReference ?? null,
      SubscriptionNumber: body.SubscriptionNumber ?? null,
      ContractNumber: body.ContractNumber ?? null,
      InvoiceCustomerName: customer.Name,
      InvoiceAddress1: body.InvoiceAddress1 ?? customer.InvoiceAddress1,
      InvoiceAddress2: body.InvoiceAddress2 ?? customer.InvoiceAddress2,
      InvoicePostalCode: customer.InvoicePostalCode,
      InvoiceCity: customer.InvoiceCity,
      InvoiceCountryCode: customer.InvoiceCountryCode,
      InvoiceCurrencyCode: customer.CurrencyCode,
      DeliveryCustomerName: body.DeliveryCustomerName ?? null,
      DeliveryAddress1: body.DeliveryAddress1 ?? null,
      DeliveryAddress2: body.DeliveryAddress2 ?? null,
      DeliveryPostalCode: body.DeliveryPostalCode ?? null,
      DeliveryCity: body.DeliveryCity ?? null,
      DeliveryCountryCode: body.DeliveryCountryCode ?? null,
      DeliveryMethodName: body.DeliveryMethodName ?? null,
      DeliveryTermName: body.DeliveryTermName ?? null,
      TermsOfPaymentId: body.TermsOfPaymentId ?? customer.TermsOfPaymentId,
      DeliveryMethodCode: body.DeliveryMethodCode ?? null,
      DeliveryTermCode: body.DeliveryTermCode ?? null,
      EuThirdParty: body.EuThirdParty,
      CustomerIsPrivatePerson: customer.IsPrivatePerson,
      ReverseChargeOnConstructionServices: customer.ReverseChargeOnConstructionServices,
      SalesDocumentAttachments: [],
      MessageThreads: [],
      Notes: [],
      InvoiceDate: invoiceDate,
      DueDate: dueDate,
      DeliveryDate: deliveryDate,
      TotalAmount: rounded,
      TotalVatAmount: vat,
      TotalRoundings: kronor(roundedOre - exactOre),
      TotalAmountBaseCurrency: rounded,
      TotalVatAmountBaseCurrency: vat,
      CustomerNumber: customer.CustomerNumber,
      CustomerName: customer.Name,
      IncludesVat: includesVat,
      ReplaceUnitPriceWhenZero: body.ReplaceUnitPriceWhenZero === true,
      UsesGreenTechnology: body.UsesGreenTechnology === true,
      IsDirectDebit: null,
      BackgroundId: null,
    };
  }

  function convert(draft: Row): Row {
    const invoiceNumber = Number(companySettings.NextCustomerInvoiceNumber);
    companySettings.NextCustomerInvoiceNumber = invoiceNumber + 1;
    drafts.splice(drafts.indexOf(draft), 1);
    const invoice: Row = {
      ...draft,
      Id: randomUUID(),
      InvoiceNumber: invoiceNumber,
      CurrencyCode: draft.InvoiceCurrencyCode,
      TotalAmountInvoiceCurrency: draft.TotalAmount,
      TotalVatAmountInvoiceCurrency: draft.TotalVatAmount,
      RemainingAmount: draft.TotalAmount,
      RemainingAmountInvoiceCurrency: draft.TotalAmount,
      CreatedFromDraftId: draft.Id,
      PaymentReferenceNumber: String(invoiceNumber),
      CreatedUtc: nowUtc(),
      ModifiedUtc: nowUtc(),
    };
    customerInvoices.push(invoice);
    return invoice;
  }

  // ---- suppliers and supplier invoice drafts ---------------------------------------------------

  const SUPPLIER_READ_ONLY = new Set([
    'Id',
    'UnpaidInvoicesAmount',
    'CreatedUtc',
    'ModifiedUtc',
    'MessageThreads',
    'Notes',
    'ForeignPaymentCodeId',
    'ApprovalOrderType',
    'LastInvoiceDate',
  ]);
  const SUPPLIER_WRITABLE = new Set(
    (
      'SupplierNumber Address1 Address2 AutomaticPaymentService BankAccountNumber Clearing BankBban BankBic BankCode ' +
      'BankCountryCode BankgiroNumber BankIban BankName City ContactPersonEmail ContactPersonMobile ContactPersonName ' +
      'ContactPersonPhone CorporateIdentityNumber CountryCode CurrencyCode EmailAddress MobilePhone Name Note ' +
      'PlusgiroNumber PostalCode Telephone TermsOfPaymentId VatNumber WwwAddress BankFeeCode PayFromBankAccountId ' +
      'ForeignPaymentCode UsesPaymentReferenceNumbers IsActive ProportionalVat SelfEmployedWithoutFixedAddress ' +
      'OurCustomerNumber PurchaseDocumentLanguage Approvers UsesAutomaticSupplierInvoiceApproval AccountingTemplateId'
    ).split(' '),
  );

  /** Validates a supplier like Visma (SupplierApi) and answers the stored card. */
  function supplierCard(body: Row, number: string, id: string, createdUtc: string): Row {
    for (const key of Object.keys(body))
      if (!SUPPLIER_WRITABLE.has(key) && !SUPPLIER_READ_ONLY.has(key))
        throw validation(key, `Could not find a property named '${key}' on SupplierApi.`);
    requireString(body, 'Name');
    if (!(body.Name as string).trim()) throw validation('Name', 'The Name field is required.');
    const terms = referenced(termsOfPayments, body, 'TermsOfPaymentId', 'TermsOfPayment');
    if (terms.AvailableForPurchase === false)
      throw validation('TermsOfPaymentId', 'The terms of payment are not available for purchases.');
    for (const [field, max] of [
      ['SupplierNumber', 16],
      ['Name', 50],
      ['Address1', 50],
      ['Address2', 50],
      ['City', 50],
      ['PostalCode', 10],
      ['CountryCode', 2],
      ['CorporateIdentityNumber', 20],
      ['VatNumber', 20],
      ['EmailAddress', 255],
      ['Telephone', 50],
      ['BankgiroNumber', 10],
      ['PlusgiroNumber', 10],
      ['BankIban', 50],
      ['BankBic', 50],
      ['CurrencyCode', 3],
      ['Note', 4000],
    ] as const)
      maxLength(body, field, max);
    const pattern = (field: string, re: RegExp, text: string) => {
      if (body[field] != null && !re.test(String(body[field]))) throw validation(field, text);
    };
    // The patterns SupplierApi states (its own [a-zA-z] included).
    pattern('BankIban', /^[a-zA-Z]{2}[0-9]{2}[a-zA-z0-9]{1,}$/, 'BankIban is not in a valid format.');
    pattern('BankBic', /^[a-zA-Z]{6}([a-zA-z0-9]{2}|[a-zA-z0-9]{5})$/, 'BankBic is not in a valid format.');
    const writable = Object.fromEntries(Object.entries(body).filter(([k]) => SUPPLIER_WRITABLE.has(k)));
    return {
      Address1: null,
      Address2: null,
      AutomaticPaymentService: false,
      BankAccountNumber: null,
      BankBic: null,
      BankIban: null,
      BankgiroNumber: null,
      City: null,
      CorporateIdentityNumber: null,
      CountryCode: companySettings.CountryCode,
      CurrencyCode: companySettings.CurrencyCode,
      EmailAddress: null,
      IsActive: true,
      PlusgiroNumber: null,
      PostalCode: null,
      Telephone: null,
      VatNumber: null,
      UnpaidInvoicesAmount: 0,
      ...writable,
      Id: id,
      SupplierNumber: number,
      TermsOfPaymentId: terms.Id,
      CreatedUtc: createdUtc,
      ModifiedUtc: nowUtc(),
    };
  }

  function createSupplier(body: Row): Row {
    let number = typeof body.SupplierNumber === 'string' && body.SupplierNumber ? body.SupplierNumber : null;
    if (number && suppliers.some((x) => x.SupplierNumber === number))
      throw new HttpFailure(400, 4000, `Conflict - A supplier with SupplierNumber ${number} already exists.`);
    if (!number) {
      while (suppliers.some((x) => x.SupplierNumber === String(nextSupplierNumber))) nextSupplierNumber += 1;
      number = String(nextSupplierNumber++);
    }
    const supplier = supplierCard(body, number, randomUUID(), nowUtc());
    suppliers.push(supplier);
    return supplier;
  }

  function updateSupplier(existing: Row, body: Row): Row {
    const number =
      typeof body.SupplierNumber === 'string' && body.SupplierNumber ? body.SupplierNumber : existing.SupplierNumber;
    if (number !== existing.SupplierNumber && suppliers.some((x) => x.SupplierNumber === number))
      throw new HttpFailure(400, 4000, `Conflict - A supplier with SupplierNumber ${String(number)} already exists.`);
    // A PUT replaces the card: what the body leaves out is cleared.
    const card = supplierCard(body, String(number), String(existing.Id), String(existing.CreatedUtc));
    suppliers.splice(suppliers.indexOf(existing), 1, card);
    return card;
  }

  const DRAFT_WRITABLE = new Set(
    (
      'SupplierId BankAccountId InvoiceDate PaymentDate DueDate InvoiceNumber TotalAmount Vat VatHigh VatMedium VatLow ' +
      'IsCreditInvoice CurrencyCode CurrencyRate OcrNumber Message Rows SupplierName SupplierNumber ' +
      'SelfEmployedWithoutFixedAddress IsQuickInvoice IsDomestic SkipSendToBank SupplierInvoiceOrigin Attachments ' +
      'AccountingTemplateId'
    ).split(' '),
  );
  const DRAFT_ROW_WRITABLE = new Set(
    (
      'AccountNumber AccountName VatCodeId CostCenterItemId1 CostCenterItemId2 CostCenterItemId3 ProjectId ' +
      'DebitAmount CreditAmount TransactionText LineNumber Quantity Weight DeliveryDate HarvestYear VatAmount ' +
      'ProportionalVatRateValue'
    ).split(' '),
  );

  /** A money field: "Maximum 2 decimal places". */
  function money(body: Row, field: string, prefix = ''): number {
    const v = optionalNumber(body, field, prefix) ?? 0;
    if (Math.abs(v * 100 - Math.round(v * 100)) > 1e-6)
      throw validation(prefix + field, `${prefix + field} must have at most 2 decimal places.`);
    return v;
  }

  /** Validates a supplier invoice draft like Visma and answers it as stored. */
  function buildSupplierDraft(body: Row, duplicateCheck: boolean): Row {
    for (const key of Object.keys(body))
      if (!DRAFT_WRITABLE.has(key))
        throw validation(key, `Could not find a property named '${key}' on SupplierInvoiceDraftApi.`);
    const supplier = referenced(suppliers, body, 'SupplierId', 'Supplier');
    requireBoolean(body, 'IsCreditInvoice');
    if (!Array.isArray(body.Rows)) throw validation('Rows', 'The Rows field is required.');
    maxLength(body, 'InvoiceNumber', 50);
    maxLength(body, 'OcrNumber', 25);
    maxLength(body, 'Message', 25);
    maxLength(body, 'CurrencyCode', 3);
    const total = money(body, 'TotalAmount');
    const vat = money(body, 'Vat');
    if (body.IsCreditInvoice !== total < 0)
      throw validation(
        'IsCreditInvoice',
        'A credit invoice has a negative TotalAmount, a debit invoice a positive one.',
      );
    const rows = (body.Rows as unknown[]).map((raw, i) => {
      const prefix = `Rows[${i}].`;
      if (!raw || typeof raw !== 'object') throw validation(`Rows[${i}]`, 'A row must be an object.');
      const r = raw as Row;
      for (const key of Object.keys(r))
        if (!DRAFT_ROW_WRITABLE.has(key))
          throw validation(prefix + key, `Could not find a property named '${key}' on SupplierInvoiceDraftRowApi.`);
      const account = r.AccountNumber;
      if (typeof account !== 'number' || !Number.isInteger(account) || account < 1 || account > 9999999999)
        throw validation(`${prefix}AccountNumber`, 'AccountNumber must be between 1 and 9999999999.');
      // The fake's chart is the BAS range; the company's own chart refuses an account it does not have.
      if (account < 1000 || account > 8999)
        throw unknownReference(`${prefix}AccountNumber`, `Account with number ${account}`);
      maxLength(r, 'TransactionText', 100, prefix);
      const debit = money(r, 'DebitAmount', prefix);
      const credit = money(r, 'CreditAmount', prefix);
      if (debit < 0 || credit < 0) throw validation(`${prefix}DebitAmount`, 'Amounts cannot be negative.');
      return {
        Id: randomUUID(),
        AccountNumber: account,
        AccountName: null,
        VatCodeId: null,
        CostCenterItemId1: null,
        CostCenterItemId2: null,
        CostCenterItemId3: null,
        ProjectId: r.ProjectId ?? null,
        DebitAmount: debit,
        CreditAmount: credit,
        TransactionText: r.TransactionText ?? null,
        LineNumber: typeof r.LineNumber === 'number' ? r.LineNumber : 1,
        Quantity: null,
        Weight: null,
        DeliveryDate: null,
        HarvestYear: null,
        VatAmount: null,
        ProportionalVatRateValue: null,
      };
    });
    const net = round2(rows.reduce((s, r) => s + r.DebitAmount - r.CreditAmount, 0));
    if (net !== round2(total - vat)) throw validation('Rows', 'The sum of the rows must equal TotalAmount minus Vat.');
    const invoiceNumber = typeof body.InvoiceNumber === 'string' ? body.InvoiceNumber : null;
    if (
      duplicateCheck &&
      invoiceNumber &&
      [...supplierDrafts, ...supplierInvoices].some(
        (d) => d.SupplierId === supplier.Id && d.InvoiceNumber === invoiceNumber,
      )
    )
      throw new HttpFailure(
        400,
        4000,
        `Conflict - An invoice with number ${invoiceNumber} from this supplier already exists.`,
      );
    return {
      SupplierId: supplier.Id,
      IsAutoInvoiceInterimSupplier: false,
      BankAccountId: body.BankAccountId ?? null,
      InvoiceDate: dateField(body, 'InvoiceDate') ?? `${new Date().toISOString().slice(0, 10)}T00:00:00`,
      PaymentDate: dateField(body, 'PaymentDate'),
      DueDate: dateField(body, 'DueDate'),
      InvoiceNumber: invoiceNumber,
      TotalAmount: total,
      Vat: vat,
      VatHigh: 0,
      VatMedium: 0,
      VatLow: 0,
      IsCreditInvoice: body.IsCreditInvoice,
      CurrencyCode: body.CurrencyCode ?? supplier.CurrencyCode,
      CurrencyRate: typeof body.CurrencyRate === 'number' ? body.CurrencyRate : 1,
      OcrNumber: body.OcrNumber ?? null,
      Message: body.Message ?? null,
      ModifiedUtc: nowUtc(),
      Rows: rows,
      SupplierName: supplier.Name,
      SupplierNumber: supplier.SupplierNumber,
      SelfEmployedWithoutFixedAddress: false,
      IsQuickInvoice: false,
      IsDomestic: (supplier.CountryCode ?? 'SE') === companySettings.CountryCode,
      ApprovalStatus: 0,
      SkipSendToBank: body.SkipSendToBank ?? null,
      AllocationPeriods: [],
      SupplierInvoiceOrigin: 2,
      Attachments: null,
      MessageThreads: [],
      Notes: [],
      CanBeApprovedByCurrentUser: false,
      CanBeBookeptByCurrentUser: true,
      ApprovalOrderType: 0,
      Approvers: [],
      ApprovalRequestedBy: null,
      AccountingTemplateId: body.AccountingTemplateId ?? null,
    };
  }

  function convertSupplierDraft(draft: Row): Row {
    supplierDrafts.splice(supplierDrafts.indexOf(draft), 1);
    const number = nextSupplierInvoiceNumber++;
    const supplier = suppliers.find((x) => x.Id === draft.SupplierId);
    const invoice: Row = {
      Id: randomUUID(),
      SupplierId: draft.SupplierId,
      OffsetInvoiceIds: [],
      BankAccountId: draft.BankAccountId,
      InvoiceDate: draft.InvoiceDate,
      PaymentDate: null,
      DueDate: draft.DueDate,
      InvoiceNumber: draft.InvoiceNumber,
      TotalAmount: draft.TotalAmount,
      Vat: draft.Vat,
      VatHigh: 0,
      VatMedium: 0,
      VatLow: 0,
      IsCreditInvoice: draft.IsCreditInvoice,
      CurrencyCode: draft.CurrencyCode,
      CurrencyRate: draft.CurrencyRate,
      OcrNumber: draft.OcrNumber,
      Message: draft.Message,
      CreatedUtc: nowUtc(),
      ModifiedUtc: nowUtc(),
      PlusGiroNumber: supplier?.PlusgiroNumber ?? null,
      BankGiroNumber: supplier?.BankgiroNumber ?? null,
      Rows: (draft.Rows as Row[]).map((r) => ({ ...r, Id: randomUUID(), GroupAccountNumber: null })),
      SupplierName: draft.SupplierName,
      SupplierNumber: draft.SupplierNumber,
      IsQuickInvoice: false,
      IsDomestic: draft.IsDomestic,
      RemainingAmount: draft.TotalAmount,
      RemainingAmountInvoiceCurrency: draft.TotalAmount,
      Number: number,
      NumberSeries: 'A',
      VoucherNumber: `A${number}`,
      VoucherId: randomUUID(),
      CreatedFromDraftId: draft.Id,
      Status: 1,
      PaymentStatus: 3,
    };
    supplierInvoices.push(invoice);
    return invoice;
  }

  function takeSlot(key: string): number | null {
    const now = Date.now();
    const recent = (windows.get(key) ?? []).filter((t) => now - t < rateLimit.perMs);
    if (recent.length >= rateLimit.requests) {
      windows.set(key, recent);
      return Math.max(1, Math.ceil((rateLimit.perMs - (now - recent[0]!)) / 1000));
    }
    recent.push(now);
    windows.set(key, recent);
    return null;
  }

  async function api(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    requests += 1;
    if (failNext) {
      const { status, retryAfterSeconds } = failNext;
      failNext = null;
      return sendError(
        res,
        status,
        status === 429 ? 4010 : 5000,
        status === 429 ? 'API calls quota exceeded! Try again later.' : 'An unexpected error occurred.',
        status === 429 ? { 'retry-after': String(retryAfterSeconds ?? 1) } : {},
      );
    }
    const bearer = req.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
    const token = bearer ? accessTokens.get(bearer) : undefined;
    if (!token || token.expiresAt <= Date.now())
      return sendError(res, 401, 4005, 'AuthorizationException - Authorization has been denied for this request.');
    // Registered per client and endpoint/URL: the path, whatever the method, query or id in it.
    const endpoint = `${clientId} ${url.pathname.toLowerCase().replace(/[0-9a-f-]{36}/g, '{id}')}`;
    const wait = takeSlot(endpoint);
    if (wait !== null) {
      rateLimited += 1;
      return sendError(
        res,
        429,
        4010,
        `API calls quota exceeded! maximum admitted ${rateLimit.requests} per ${rateLimit.perMs / 1000} seconds. Try again in ${wait} seconds.`,
        { 'retry-after': String(wait) },
      );
    }

    const q = url.searchParams;
    const parts = url.pathname.replace(/\/+$/, '').split('/').slice(2);
    const [resource, id, action] = parts as [string, string | undefined, string | undefined];
    const method = req.method ?? 'GET';
    const body = method === 'POST' || method === 'PUT' ? await readJson(req) : {};

    if (resource === 'companysettings' && !id && method === 'GET') return sendJson(res, 200, companySettings);
    if (resource === 'termsofpayments' && method === 'GET')
      return id ? sendJson(res, 200, byId(termsOfPayments, id, 'TermsOfPayment')) : page(res, q, termsOfPayments);
    if (resource === 'units' && method === 'GET')
      return id ? sendJson(res, 200, byId(units, id, 'Unit')) : page(res, q, units);
    if (resource === 'articleaccountcodings' && method === 'GET')
      return id ? sendJson(res, 200, byId(codings, id, 'ArticleAccountCoding')) : page(res, q, codings);
    if (resource === 'customers') {
      if (method === 'GET') return id ? sendJson(res, 200, byId(customers, id, 'Customer')) : page(res, q, customers);
      if (method === 'POST' && !id) return sendJson(res, 201, createCustomer(body));
    }
    if (resource === 'articles') {
      if (method === 'GET') return id ? sendJson(res, 200, byId(articles, id, 'Article')) : page(res, q, articles);
      if (method === 'POST' && !id) return sendJson(res, 201, createArticle(body));
    }
    if (resource === 'customerinvoicedrafts') {
      if (method === 'GET' && !id) return page(res, q, drafts);
      if (method === 'GET' && id && !action) return sendJson(res, 200, byId(drafts, id, 'CustomerInvoiceDraft'));
      if (method === 'POST' && !id) {
        const draft: Row = { Id: randomUUID(), CreatedUtc: nowUtc(), ...buildDraft(body) };
        drafts.push(draft);
        if (dropNextCreate) {
          // Stored, but the answer is lost on the way: the client cannot know the draft exists.
          dropNextCreate = false;
          req.socket.destroy();
          return;
        }
        return sendJson(res, 201, draft);
      }
      if (method === 'PUT' && id && !action) {
        const draft = byId(drafts, id, 'CustomerInvoiceDraft');
        Object.assign(draft, buildDraft(body), { Id: draft.Id, CreatedUtc: draft.CreatedUtc });
        return sendJson(res, 200, draft);
      }
      if (method === 'DELETE' && id && !action) {
        drafts.splice(drafts.indexOf(byId(drafts, id, 'CustomerInvoiceDraft')), 1);
        return sendJson(res, 200, null);
      }
      if (method === 'POST' && id && action === 'convert')
        return sendJson(res, 201, convert(byId(drafts, id, 'CustomerInvoiceDraft')));
    }
    if (resource === 'suppliers') {
      if (method === 'GET') return id ? sendJson(res, 200, byId(suppliers, id, 'Supplier')) : page(res, q, suppliers);
      if (method === 'POST' && !id) return sendJson(res, 201, createSupplier(body));
      if (method === 'PUT' && id) return sendJson(res, 200, updateSupplier(byId(suppliers, id, 'Supplier'), body));
    }
    if (resource === 'supplierinvoicedrafts') {
      if (method === 'GET' && !id) return page(res, q, supplierDrafts);
      if (method === 'GET' && id && !action)
        return sendJson(res, 200, byId(supplierDrafts, id, 'SupplierInvoiceDraft'));
      if (method === 'POST' && !id) {
        const draft: Row = {
          Id: randomUUID(),
          CreatedUtc: nowUtc(),
          ...buildSupplierDraft(body, q.get('duplicateCheckExtendedValidation') === 'true'),
        };
        supplierDrafts.push(draft);
        const key = req.headers['idempotency-key'];
        if (typeof key === 'string') supplierDraftKeys.set(String(draft.Id), key);
        if (dropNextCreate) {
          // Stored, but the answer is lost on the way.
          dropNextCreate = false;
          req.socket.destroy();
          return;
        }
        return sendJson(res, 201, draft);
      }
      if (method === 'DELETE' && id && !action) {
        supplierDrafts.splice(supplierDrafts.indexOf(byId(supplierDrafts, id, 'SupplierInvoiceDraft')), 1);
        return sendJson(res, 200, null);
      }
      if (method === 'POST' && id && action === 'convert')
        return sendJson(res, 201, convertSupplierDraft(byId(supplierDrafts, id, 'SupplierInvoiceDraft')));
    }
    if (resource === 'supplierinvoices' && method === 'GET')
      return id ? sendJson(res, 200, byId(supplierInvoices, id, 'SupplierInvoice')) : page(res, q, supplierInvoices);
    if (resource === 'customerinvoices' && method === 'GET')
      return id ? sendJson(res, 200, byId(customerInvoices, id, 'CustomerInvoice')) : page(res, q, customerInvoices);
    return sendError(res, 404, 3000, `ResourceNotFound - No endpoint ${method} ${url.pathname}.`);
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const handle = async () => {
      if (url.pathname === '/connect/authorize' && req.method === 'GET') return authorizePage(res, url.searchParams);
      if (url.pathname === '/connect/authorize' && req.method === 'POST')
        return consent(res, new URLSearchParams(await readText(req)));
      if (url.pathname === '/connect/token' && req.method === 'POST')
        return token(req, res, new URLSearchParams(await readText(req)));
      if (url.pathname.startsWith('/v2/')) return api(req, res, url);
      sendText(res, 404, 'Not found');
    };
    handle().catch((err: unknown) => {
      if (res.headersSent || res.destroyed) return;
      if (err instanceof HttpFailure)
        return sendError(res, err.status, err.errorCode, err.message, {}, err.errors ? { Errors: err.errors } : {});
      sendError(res, 500, 5000, (err as Error).message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const carries = (key: string | undefined) => (r: Row) => key === undefined || r.SubscriptionNumber === key;

  return {
    url,
    clientId,
    clientSecret,
    companySettings,
    invoiceCount: (key) => drafts.filter(carries(key)).length + customerInvoices.filter(carries(key)).length,
    customerCount: () => customers.length,
    articleCount: () => articles.length,
    invoice: (externalId) =>
      drafts.find((d) => d.Id === externalId) ??
      customerInvoices.find((i) => i.CreatedFromDraftId === externalId) ??
      null,
    invoices: () => [...drafts],
    suppliers: () => [...suppliers],
    supplierInvoiceDrafts: () => [...supplierDrafts],
    convertSupplierInvoiceDraft: (id) => convertSupplierDraft(byId(supplierDrafts, id, 'SupplierInvoiceDraft')),
    supplierInvoiceCount(key) {
      const all = [...supplierDrafts, ...supplierInvoices];
      if (key === undefined) return all.length;
      return all.filter((d) => supplierDraftKeys.get(String(d.CreatedFromDraftId ?? d.Id)) === key).length;
    },
    supplierCount: () => suppliers.length,
    supplierInvoice: (externalId) =>
      supplierDrafts.find((d) => d.Id === externalId) ??
      supplierInvoices.find((i) => i.CreatedFromDraftId === externalId || i.Id === externalId) ??
      null,
    customerInvoices: () => [...customerInvoices],
    customers: () => [...customers],
    articles: () => [...articles],
    expireAccessTokens() {
      for (const t of accessTokens.values()) t.expiresAt = 0;
    },
    failNext(status, retryAfterSeconds) {
      failNext = { status, retryAfterSeconds };
    },
    dropNextCreateResponse() {
      dropNextCreate = true;
    },
    filterSupport(property, behaviour) {
      if (behaviour === 'filters') filterBehaviour.delete(property);
      else filterBehaviour.set(property, behaviour);
    },
    requestCount: () => requests,
    rateLimitedCount: () => rateLimited,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * Does what a person's browser does on the consent page: loads it, submits its form, and answers
 * the code and state Visma's identity server sends back to the redirect URI.
 */
export async function consentAsBrowser(authorizeUrl: string): Promise<{ code: string; state: string | null }> {
  const page = await fetch(authorizeUrl);
  if (!page.ok) throw new Error(`consent page answered ${page.status}: ${await page.text()}`);
  const html = await page.text();
  const form = html.match(/<form[^>]*method="post"[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i);
  if (!form) throw new Error('the consent page has no form');
  const unescape = (s: string) =>
    s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
  const fields = new URLSearchParams();
  for (const input of form[2]!.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"[^>]*>/gi))
    fields.set(unescape(input[1]!), unescape(input[2]!));
  const answer = await fetch(new URL(unescape(form[1]!), authorizeUrl), {
    method: 'POST',
    body: fields,
    redirect: 'manual',
  });
  const location = answer.headers.get('location');
  if (answer.status !== 302 || !location) throw new Error(`consent answered ${answer.status}, not a redirect`);
  const back = new URL(location);
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`the redirect carries no code: ${location}`);
  return { code, state: back.searchParams.get('state') };
}

async function readText(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function readJson(req: http.IncomingMessage): Promise<Row> {
  const text = await readText(req);
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Row;
  } catch {
    // answered below
  }
  throw new HttpFailure(400, 2000, 'DataModelValidationError - The request body is not a JSON object.');
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(body === null ? '' : JSON.stringify(body));
}

function sendText(res: http.ServerResponse, status: number, text: string) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

function sendError(
  res: http.ServerResponse,
  status: number,
  errorCode: number,
  message: string,
  headers: Record<string, string> = {},
  extra: Record<string, unknown> = {},
) {
  sendJson(
    res,
    status,
    { ErrorCode: errorCode, DeveloperErrorMessage: message, ErrorId: randomUUID(), ...extra },
    headers,
  );
}
