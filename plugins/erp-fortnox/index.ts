import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  createErpHttp,
  ErpError,
  requestOAuthTokens,
  withAccessToken,
  type ErpErrorCode,
  type ErpRequest,
  type ErpResponse,
} from '~/core/extension-points/erp-http';
import {
  defineErpProvider,
  ErpCustomerConflict,
  identityDigits,
  ORDO_SUPPLIER_INVOICE_KEY_PREFIX,
  type ErpArticle,
  type ErpCustomerCandidate,
  type ErpCustomerConflictReason,
  type ErpCustomer,
  type ErpInvoice,
  type ErpInvoiceRow,
  type ErpProvider,
  type ErpSentInvoice,
  type ErpSentSupplierInvoice,
  type ErpSession,
  supplierRowAccounts,
} from '~/core/extension-points/erp-provider';
import { formatTrimmed, isZero, mul } from '~/core/pricing';
import { fortnoxSupplier, fortnoxSupplierInvoice, supplierInvoiceReference } from './supplier-invoice';
import { fetchedSupplierInvoice } from './supplier-invoice-read';

/*
 * Fortnox (fortnox.se), over its REST API v3 with OAuth2 (issue 14; the ERP contract v2). Field
 * names are Fortnox's own, verbatim: bodies wrapped in the resource name ({"Invoice": {...}}),
 * errors as {"ErrorInformation": {"error", "message", "code"}}. The local fake in
 * tests/fakes/fortnox.ts lists the sources they were taken from.
 *
 * Fortnox's ids are the numbers people see: a customer is its CustomerNumber, an article its
 * ArticleNumber, an invoice its DocumentNumber. Ordo's idempotency key travels in the invoice's
 * ExternalInvoiceReference1, which Fortnox stores but never prints.
 *
 * A customer's first delivery finds Fortnox's card by organisation number (a private person's
 * personal identity number, which Fortnox keeps in the same field), not by CustomerNumber: a company
 * with a ledger of its own may have given Ordo's number to another company. The card with that
 * organisation number is taken when it has Ordo's number or Ordo's name; a number held by another
 * party, several cards with the organisation number, or one under another number and name (another
 * site Ordo keeps apart, or the company renamed) stop with ErpCustomerConflict for the office to
 * resolve (Settings → ERP). An update sends what Ordo owns and what differs, never Fortnox's identity
 * fields once they are set.
 *
 * An article's Unit must be a unit code the company has (/3/units, the settings scope): Ordo's unit
 * is matched to a code or description there (any hour unit to the company's hour unit), and a
 * missing one is created, its code cut to Fortnox's 20 characters.
 *
 * A ROT/RUT application asks whole kronor per person (the core splits so); an amount with öre is
 * refused before the invoice is created, so nothing is left half-sent.
 *
 * Approved supplier invoices go to /3/supplierinvoices (supplier-invoice.ts maps them). A supplier is
 * its SupplierNumber; a supplier invoice its GivenNumber, Fortnox's own running number. A supplier
 * invoice has no ExternalInvoiceReference: the key travels in ExternalInvoiceNumber, a field Fortnox
 * keeps and lists but Ordo has no other use for (InvoiceNumber is the supplier's own number and OCR
 * the payment reference, both needed for paying). Fortnox offers no search on it, so a retry lists
 * the supplier invoices of the invoice's financial year (financialyeardate, a global parameter) and
 * compares the field exactly; that costs a few requests, and only on a retry.
 *
 * Supplier invoices typed in Fortnox are fetched (readSupplierInvoices, issue 33 item 1): the list
 * with filter=authorizepending (those awaiting approval; a documented value of the list's filter),
 * every page, leaving out cancelled ones and Ordo's own bookings (ExternalInvoiceNumber begins with
 * Ordo's key); then each new one by its GivenNumber (the rows) and its supplier card (the
 * organisation number, which the list lacks), one card per supplier per fetch. GivenNumber is
 * Fortnox's running number, so a fetch resumes after the highest one an earlier fetch kept and spends
 * no further requests on those. Every request goes through the tenant's rate limit (withApi), which
 * waits out a 429. Approving such an invoice's payment is PUT …/{GivenNumber}/approvalpayment, never a
 * second create; a retry first looks whether it still awaits approval.
 */

const houseWorkType = z.string().regex(/^[A-Z]+$/);

const options = z.object({
  clientId: z.string().default(''),
  clientSecret: z.string().default(''),
  authBaseUrl: z.url().default('https://apps.fortnox.se'),
  apiBaseUrl: z.url().default('https://api.fortnox.se'),
  /**
   * supplier and supplierinvoice: the scopes of /3/suppliers and /3/supplierinvoices; settings: the
   * scope of /3/units (developer.fortnox.se/general/scopes).
   */
  scope: z.string().default('companyinformation customer article invoice supplier supplierinvoice settings'),
  /** Fortnox allows 25 requests per 5 seconds per client and tenant. */
  requestsPer5s: z.number().int().positive().default(25),
  /** The window of that limit; only tests shorten it. */
  ratePeriodMs: z.number().int().positive().default(5000),
  /**
   * The HouseWorkType given to ROT, RUT and green rows: Ordo's invoice says which rows are house
   * work but not which kind, and Fortnox needs one per row. Electrical installers set ELECTRICITY.
   */
  houseWorkTypes: z
    .object({
      rot: houseWorkType.default('CONSTRUCTION'),
      rut: houseWorkType.default('CLEANING'),
      green: houseWorkType.default('SOLARCELLS'),
    })
    .default({ rot: 'CONSTRUCTION', rut: 'CLEANING', green: 'SOLARCELLS' }),
  timeoutMs: z.number().int().positive().default(30_000),
  /**
   * The accounts of a supplier invoice's own rows (supplier debt, input VAT, öre rounding when the
   * tenant chose no rounding account): Fortnox's predefined SUPDEBT, INVAT and ROUNDOFF in the BAS
   * chart. Reading them from /3/predefinedaccounts would need the bookkeeping scope for every tenant;
   * a company with another chart sets them here.
   */
  supplierInvoiceAccounts: z
    .object({
      supplierDebt: z
        .string()
        .regex(/^\d{4}$/)
        .default('2440'),
      inputVat: z
        .string()
        .regex(/^\d{4}$/)
        .default('2641'),
      rounding: z
        .string()
        .regex(/^\d{4}$/)
        .default('3740'),
    })
    .default({ supplierDebt: '2440', inputVat: '2641', rounding: '3740' }),
});

export type FortnoxOptions = z.infer<typeof options>;
type Rec = Record<string, unknown>;

/** Field lengths Fortnox enforces (a longer value is refused, not cut). */
export const FORTNOX_LIMITS = {
  externalReference: 80,
  rowDescription: 50,
  articleDescription: 200,
  yourOrderNumber: 30,
  reference: 50,
  remarks: 1024,
  /** Unit (OpenAPI, Unit): Code 1–20 characters, Description 1–100. */
  unitCode: 20,
  unitDescription: 100,
} as const;

/**
 * Our limiter books a request when it leaves; Fortnox counts it when it arrives. Requests that
 * leave together arrive a little apart, so a window exactly as long as Fortnox's would now and then
 * let one request too many into Fortnox's window; this slack keeps us inside it.
 */
const RATE_SLACK_MS = 250;

/** Fortnox's codes for "no such customer / article" (the GET answers 404; some paths say 400). */
const NOT_FOUND_CODES = new Set([2000204, 2000433, 2000428, 2001302]);

const HOURS_UNIT = /^(h|hr|hrs|hour|hours|tim|timme|timmar|t)$/i;

const cut = (value: string | null | undefined, max: number) => (value ? value.slice(0, max) : value);
const nonEmpty = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.trim() !== '';

/** ErrorInformation's message (Fortnox answers in lower case, its XML heritage in upper case), else OAuth's. */
export function fortnoxMessage(body: unknown, text: string): string | null {
  if (body && typeof body === 'object') {
    const b = body as Rec;
    const info = (b.ErrorInformation ?? b.errorInformation ?? b.errorinformation) as Rec | undefined;
    if (info && typeof info === 'object') {
      const message = info.message ?? info.Message ?? info.error_description;
      if (typeof message === 'string' && message) return message;
    }
    for (const k of ['message', 'Message', 'error_description', 'error'])
      if (typeof b[k] === 'string' && b[k]) return b[k] as string;
  }
  return text ? text.slice(0, 500) : null;
}

function fortnoxCode(body: unknown): number | null {
  const info = body && typeof body === 'object' ? ((body as Rec).ErrorInformation as Rec | undefined) : undefined;
  const code = info?.code ?? info?.Code;
  return code === undefined || code === null ? null : Number(code);
}

/**
 * The key as Fortnox can hold it: ExternalInvoiceReference1 takes 80 characters. A longer key is
 * shortened the same way on every try (a prefix and a hash of the whole), so a retry still finds it.
 */
export function externalReference(idempotencyKey: string): string {
  const max = FORTNOX_LIMITS.externalReference;
  if (idempotencyKey.length <= max) return idempotencyKey;
  const hash = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 40);
  return `${idempotencyKey.slice(0, max - hash.length - 1)}~${hash}`;
}

/** Splits text into pieces Fortnox takes as row descriptions, at spaces where it can. */
function descriptionPieces(text: string): string[] {
  const max = FORTNOX_LIMITS.rowDescription;
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest.length > max) {
    const space = rest.lastIndexOf(' ', max);
    const at = space > max / 2 ? space : max;
    pieces.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest || !pieces.length) pieces.push(rest);
  return pieces;
}

/** Ordo's reduction kinds as Fortnox's TaxReductionType. */
const TAX_REDUCTION_TYPE = { ROT: 'rot', RUT: 'rut', green: 'green' } as const;

/** The customer card as Fortnox holds it; empty values are left out (Fortnox would keep the old ones anyway). */
export function fortnoxCustomer(customer: ErpCustomer): Rec {
  const foreignVat = nonEmpty(customer.vatNumber) && !/^SE/i.test(customer.vatNumber.trim());
  const card: Rec = {
    Name: customer.name,
    Type: customer.type === 'private' ? 'PRIVATE' : 'COMPANY',
    // Fortnox keeps the personal identity number of a private customer in OrganisationNumber.
    OrganisationNumber: customer.type === 'private' ? customer.personId : customer.organizationalNumber,
    VATNumber: customer.vatNumber,
    // Reverse charge is a property of the customer in Fortnox: it is what makes Fortnox leave VAT
    // off the fee and print its own reverse-charge wording.
    VATType: customer.reverseVat ? (foreignVat ? 'EUREVERSEDVAT' : 'SEREVERSEDVAT') : foreignVat ? 'EUVAT' : 'SEVAT',
    Email: customer.email,
    Phone1: customer.phone,
    Address1: customer.address.street,
    ZipCode: customer.address.postIndex,
    City: customer.address.city,
  };
  // TermsOfPayment is left out on purpose: it must name a code registered in the company's Fortnox,
  // and the invoice's DueDate carries the term anyway.
  return Object.fromEntries(Object.entries(card).filter(([, v]) => v !== null && v !== undefined && v !== ''));
}

/** The article as Fortnox's Article resource; `unitCode` is the company's unit for Ordo's unit (unitCodeFor). */
export function fortnoxArticle(
  article: ErpArticle,
  salesAccount: string | undefined,
  houseWorkTypes: FortnoxOptions['houseWorkTypes'],
  unitCode: string | null = null,
): Rec {
  // SalesPrice is read-only in Fortnox (an article's price lives in its price lists, /3/prices)
  // and sending it is refused; every invoice row carries its own Price instead.
  return {
    ArticleNumber: article.articleNumber,
    Description: cut(article.title, FORTNOX_LIMITS.articleDescription) || article.articleNumber,
    Type: article.isService ? 'SERVICE' : 'STOCK',
    VAT: Number(article.vatPercent),
    Housework: article.houseWork,
    ...(article.houseWork ? { HouseworkType: houseWorkTypes.rot } : {}),
    ...(unitCode ? { Unit: unitCode } : {}),
    ...(nonEmpty(salesAccount) ? { SalesAccount: Number(salesAccount) } : {}),
  };
}

/**
 * The company's unit code for Ordo's unit, from its units register (/3/units): the same code, else
 * (case aside) the same code or description, else for an hour unit the company's hour unit. Null
 * when the company has none: the plugin then creates one (newFortnoxUnit).
 */
export function unitCodeFor(units: readonly Rec[], unit: string): string | null {
  const wanted = unit.trim();
  const lower = wanted.toLowerCase();
  const text = (u: Rec, k: string) => String(u[k] ?? '').trim();
  const exact = units.find((u) => text(u, 'Code') === wanted);
  if (exact) return text(exact, 'Code');
  const same = units.find((u) =>
    ['Code', 'Description', 'CodeEnglish'].some((k) => text(u, k).toLowerCase() === lower),
  );
  if (same) return text(same, 'Code');
  if (HOURS_UNIT.test(wanted)) {
    const hours = units.find((u) => ['Code', 'Description', 'CodeEnglish'].some((k) => HOURS_UNIT.test(text(u, k))));
    if (hours) return text(hours, 'Code');
  }
  return null;
}

/** A unit for Ordo's unit text, within Fortnox's lengths (Code 20, Description 100). */
export function newFortnoxUnit(unit: string): { Code: string; Description: string } {
  const text = unit.trim();
  return {
    Code: text.slice(0, FORTNOX_LIMITS.unitCode).trimEnd(),
    Description: text.slice(0, FORTNOX_LIMITS.unitDescription),
  };
}

/** The fields of a customer card that identify the party; Fortnox's, once set, are never overwritten. */
const IDENTITY_FIELDS = ['OrganisationNumber', 'Type'] as const;

/**
 * What an update of an existing card sends: Ordo's fields that differ from the card's, without the
 * identity fields the card already has. Empty values are never in `wanted` (fortnoxCustomer), so
 * nothing Fortnox holds is cleared because Ordo lacks it.
 */
export function customerChanges(existing: Rec, wanted: Rec): Rec {
  const owned = { ...wanted };
  for (const k of IDENTITY_FIELDS) if (nonEmpty(existing[k] as string)) delete owned[k];
  if (nonEmpty(existing.VATNumber as string)) delete owned.VATNumber;
  return Object.fromEntries(Object.entries(owned).filter(([k, v]) => String(existing[k] ?? '') !== String(v)));
}

/** Ordo's identity for a customer: the organisation number, a private person's personal identity number. */
const identityOf = (customer: ErpCustomer) =>
  identityDigits(customer.type === 'private' ? customer.personId : customer.organizationalNumber);
const vatOf = (value: unknown) =>
  String(value ?? '')
    .replace(/[\s.-]/g, '')
    .toUpperCase();
const sameName = (a: unknown, b: unknown) =>
  String(a ?? '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ') ===
  String(b ?? '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');

/**
 * Whether Fortnox's card is Ordo's customer: the same organisation (or personal identity) number
 * where both have one, else the same VAT number where both have one, else the same name.
 */
export function isSameParty(card: Rec, customer: ErpCustomer): boolean {
  const theirs = identityDigits(card.OrganisationNumber as string);
  const ours = identityOf(customer);
  if (theirs && ours) return theirs === ours;
  const theirVat = vatOf(card.VATNumber);
  const ourVat = vatOf(customer.vatNumber);
  if (theirVat && ourVat) return theirVat === ourVat;
  return sameName(card.Name, customer.name);
}

const candidateOf = (card: Rec): ErpCustomerCandidate => ({
  externalId: String(card.CustomerNumber),
  number: String(card.CustomerNumber),
  name: String(card.Name ?? ''),
  organizationalNumber: nonEmpty(card.OrganisationNumber as string) ? String(card.OrganisationNumber) : null,
  vatNumber: nonEmpty(card.VATNumber as string) ? String(card.VATNumber) : null,
});

function conflict(reason: ErpCustomerConflictReason, cards: Rec[]): ErpCustomerConflict {
  const said = cards
    .map((c) =>
      [
        `CustomerNumber ${String(c.CustomerNumber)}`,
        `Name "${String(c.Name ?? '')}"`,
        nonEmpty(c.OrganisationNumber as string) ? `OrganisationNumber ${String(c.OrganisationNumber)}` : null,
        nonEmpty(c.VATNumber as string) ? `VATNumber ${String(c.VATNumber)}` : null,
      ]
        .filter(Boolean)
        .join(', '),
    )
    .join('; ');
  return new ErpCustomerConflict(reason, cards.map(candidateOf), `Fortnox: ${said}`);
}

/** The forms an organisation number is searched in: as Fortnox prints it (NNNNNN-NNNN), and bare digits. */
function identitySearches(identity: string): string[] {
  if (identity.length !== 10) return [identity];
  return [`${identity.slice(0, 6)}-${identity.slice(6)}`, identity];
}

/** Asked amounts must be whole kronor (Fortnox refuses öre per person: issue 31, errors 2004217/2004218). */
function checkWholeKronor(invoice: ErpInvoice) {
  const split = invoice.taxReduction?.persons.find((p) => !/^\d+(\.0+)?$/.test(p.amount.trim()));
  if (split)
    throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
      vendorMessage: `Fortnox takes a ROT/RUT application per person in whole kronor; ${split.personId} asks ${split.amount}`,
    });
}

function fortnoxRows(invoice: ErpInvoice, houseWorkTypes: FortnoxOptions['houseWorkTypes']): Rec[] {
  const reduction = invoice.taxReduction ? TAX_REDUCTION_TYPE[invoice.taxReduction.kind] : 'none';
  const rows: Rec[] = [];
  for (const row of invoice.rows) {
    // The fee travels as the invoice's AdministrationFee, which Fortnox books on its fee account.
    if (row.kind === 'fee') continue;
    const [first, ...more] = descriptionPieces(row.description);
    if (row.kind === 'text') {
      rows.push(...[first, ...more].map((Description) => ({ Description })));
      continue;
    }
    rows.push({ ...pricedRow(row, invoice.reverseVat, reduction, houseWorkTypes), Description: first });
    // What does not fit the row's 50 characters follows as text rows rather than being lost.
    rows.push(...more.map((Description) => ({ Description })));
  }
  return rows;
}

function pricedRow(
  row: ErpInvoiceRow,
  reverseVat: boolean,
  reduction: 'none' | 'rot' | 'rut' | 'green',
  houseWorkTypes: FortnoxOptions['houseWorkTypes'],
): Rec {
  const articleNumber = row.articleId || row.articleNumber ? (row.externalArticleId ?? row.articleNumber) : null;
  const out: Rec = {
    ...(articleNumber ? { ArticleNumber: articleNumber } : {}),
    DeliveredQuantity: Number(row.amount),
    Price: Number(row.price),
    // Under reverse charge no row carries VAT, whatever rate its article has.
    VAT: reverseVat ? 0 : Number(row.vatPercent),
    ...(nonEmpty(row.account) ? { AccountNumber: Number(row.account) } : {}),
  };
  if (row.discount && !isZero(row.discount.value)) {
    if (row.discount.type === 'PERCENTAGE')
      Object.assign(out, { Discount: Number(row.discount.value), DiscountType: 'PERCENT' });
    // Ordo's amount discount is per unit; Fortnox's AMOUNT is taken off the row once.
    else
      Object.assign(out, {
        Discount: Number(formatTrimmed(mul(row.discount.value, row.amount))),
        DiscountType: 'AMOUNT',
      });
  }
  // HouseWork is always said: left out, Fortnox takes it from the article, and a house-work
  // article on an invoice without a reduction is refused.
  if (reduction === 'none') out.HouseWork = false;
  else if (row.houseWork) {
    out.HouseWork = true;
    out.HouseWorkType = houseWorkTypes[reduction];
    // Fortnox reports the quantity as hours unless told otherwise, and only in whole hours.
    const hours = Number(row.amount);
    if (HOURS_UNIT.test(row.unit ?? '') && !Number.isInteger(hours))
      out.HouseWorkHoursToReport = Math.max(1, Math.round(hours));
  } else {
    // On a house-work invoice every row needs a type; material and travel are "other costs".
    out.HouseWork = false;
    out.HouseWorkType = 'OTHERCOSTS';
  }
  return out;
}

/** Ordo's invoice as Fortnox's Invoice resource. */
export function fortnoxInvoice(
  invoice: ErpInvoice,
  externalRef: string,
  houseWorkTypes: FortnoxOptions['houseWorkTypes'] = options.parse({}).houseWorkTypes,
): Rec {
  const remarks = [invoice.description, invoice.marking, ...invoice.notes].filter(nonEmpty).join('\n');
  return {
    CustomerNumber: invoice.customer.externalId ?? invoice.customer.customerNumber,
    InvoiceDate: invoice.invoiceDate,
    DueDate: invoice.dueDate,
    ...(invoice.deliveryDate ? { DeliveryDate: invoice.deliveryDate } : {}),
    Currency: invoice.currency,
    VATIncluded: false,
    // Said even when there is none: left out, Fortnox adds the company's or customer's default fee
    // and freight, and the total would no longer be Ordo's.
    AdministrationFee: invoice.fee ? Number(invoice.fee) : 0,
    Freight: 0,
    TaxReductionType: invoice.taxReduction ? TAX_REDUCTION_TYPE[invoice.taxReduction.kind] : 'none',
    ExternalInvoiceReference1: externalRef,
    ExternalInvoiceReference2: cut(`Ordo ${invoice.invoiceNr}`, FORTNOX_LIMITS.externalReference),
    ...(nonEmpty(invoice.ocr) ? { OCR: invoice.ocr } : {}),
    ...(nonEmpty(invoice.customerOrderNumber)
      ? { YourOrderNumber: cut(invoice.customerOrderNumber, FORTNOX_LIMITS.yourOrderNumber) }
      : {}),
    ...(nonEmpty(invoice.yourReference) ? { YourReference: cut(invoice.yourReference, FORTNOX_LIMITS.reference) } : {}),
    ...(nonEmpty(invoice.ourReference) ? { OurReference: cut(invoice.ourReference, FORTNOX_LIMITS.reference) } : {}),
    ...(remarks ? { Remarks: cut(remarks, FORTNOX_LIMITS.remarks) } : {}),
    InvoiceRows: fortnoxRows(invoice, houseWorkTypes),
  };
}

/** One TaxReduction application per person asking for the reduction (/3/taxreductions). */
function taxReductionApplications(
  invoice: ErpInvoice,
  documentNumber: string,
  houseWorkTypes: FortnoxOptions['houseWorkTypes'],
): Rec[] {
  const reduction = invoice.taxReduction;
  if (!reduction) return [];
  // a person whose share is nothing asks for nothing (Fortnox takes at least 1 krona)
  return reduction.persons
    .filter((person) => Number(person.amount) > 0)
    .map((person) => ({
      ReferenceDocumentType: 'INVOICE',
      ReferenceNumber: Number(documentNumber),
      CustomerName: invoice.customer.name,
      SocialSecurityNumber: person.personId,
      AskedAmount: Number(person.amount),
      ...(nonEmpty(reduction.propertyDesignation) ? { PropertyDesignation: reduction.propertyDesignation } : {}),
      ...(nonEmpty(reduction.housingAssociationOrgNr)
        ? { ResidenceAssociationOrganisationNumber: reduction.housingAssociationOrgNr }
        : {}),
      // Green technology asks per kind of work (Fortnox blog: TaxReductionAmounts replaced WorkType).
      ...(reduction.kind === 'green'
        ? { TaxReductionAmounts: [{ WorkType: houseWorkTypes.green, AskedAmount: Number(person.amount) }] }
        : {}),
    }));
}

/** Fortnox's access tokens are JWTs naming the Fortnox tenant; the limit is that tenant's. */
function tokenTenant(accessToken: string): string | null {
  const payload = accessToken.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Rec;
    const tenant = claims.tenantId ?? claims.tenant_id;
    return typeof tenant === 'string' || typeof tenant === 'number' ? String(tenant) : null;
  } catch {
    return null;
  }
}

type ApiCall = (req: Omit<ErpRequest, 'url' | 'headers'> & { path: string }) => Promise<ErpResponse>;

function create(o: FortnoxOptions): ErpProvider {
  const authBase = o.authBaseUrl.replace(/\/+$/, '');
  const apiBase = o.apiBaseUrl.replace(/\/+$/, '');
  const basic = `Basic ${Buffer.from(`${o.clientId}:${o.clientSecret}`).toString('base64')}`;

  const refusalCode = (status: number): ErpErrorCode =>
    status === 401 || status === 403 ? 'ERP_AUTH_FAILED' : 'INVOICE_WAS_NOT_CREATED_IN_ERP';

  /** The OAuth server is outside the API's rate limit. */
  const oauth = (tenantId: string) =>
    createErpHttp({ key: `fortnox-oauth:${tenantId}`, timeoutMs: o.timeoutMs, vendorMessage: fortnoxMessage });

  /** A refused code or refresh token means the tenant must connect again; a 5xx stays retryable. */
  const tokenRequest = (tenantId: string, form: Record<string, string>, previous?: string) =>
    requestOAuthTokens(
      oauth(tenantId),
      { url: `${authBase}/oauth-v1/token`, headers: { authorization: basic }, form },
      { vendor: 'Fortnox', previousRefreshToken: previous },
    );

  /** Runs `fn` with a valid token, every request through the tenant's rate limit. */
  function withApi<T>(session: ErpSession, fn: (call: ApiCall) => Promise<T>): Promise<T> {
    return withAccessToken(
      session,
      (refreshToken) =>
        tokenRequest(session.tenantId, { grant_type: 'refresh_token', refresh_token: refreshToken }, refreshToken),
      (token) => {
        const http = createErpHttp({
          // Keyed by the Fortnox tenant, which is what Fortnox counts; an Ordo tenant has one.
          key: `fortnox:${tokenTenant(token) ?? session.tenantId}`,
          rateLimit: { requests: o.requestsPer5s, perMs: o.ratePeriodMs + RATE_SLACK_MS },
          timeoutMs: o.timeoutMs,
          vendorMessage: fortnoxMessage,
          refusalCode,
        });
        return fn(({ path, ...req }) =>
          http.request({ ...req, url: `${apiBase}${path}`, headers: { authorization: `Bearer ${token}` } }),
        );
      },
    );
  }

  /** GETs one resource; null when Fortnox has no such one. */
  async function lookup(call: ApiCall, path: string, name: string): Promise<Rec | null> {
    const res = await call({ path, accept: [400, 404] });
    if (res.status === 200) return ((res.body as Rec | null)?.[name] as Rec | undefined) ?? null;
    const code = fortnoxCode(res.body);
    if (res.status === 404 || (code !== null && NOT_FOUND_CODES.has(code))) return null;
    throw new ErpError(refusalCode(res.status), {
      status: res.status,
      vendorMessage: fortnoxMessage(res.body, res.text),
    });
  }

  const enc = encodeURIComponent;

  async function findInvoice(call: ApiCall, ref: string): Promise<Rec | null> {
    const res = await call({ path: `/3/invoices?externalinvoicereference1=${enc(ref)}&limit=500` });
    // Fortnox searches with ILIKE '%value%', so only an exact match is ours; a live one before a cancelled one.
    const hits = (((res.body as Rec | null)?.Invoices as Rec[] | undefined) ?? []).filter(
      (i) => i.ExternalInvoiceReference1 === ref,
    );
    return hits.find((i) => i.Cancelled !== true) ?? hits[0] ?? null;
  }

  /** Every page of a list resource (`name` is the list's key, e.g. Units). */
  async function listAll(call: ApiCall, path: string, name: string): Promise<Rec[]> {
    const out: Rec[] = [];
    const sep = path.includes('?') ? '&' : '?';
    for (let page = 1; ; page++) {
      const res = await call({ path: `${path}${sep}limit=500&page=${page}` });
      const body = (res.body ?? {}) as Rec;
      const items = (body[name] as Rec[] | undefined) ?? [];
      out.push(...items);
      const meta = (body.MetaInformation ?? {}) as Rec;
      if (page >= Number(meta['@TotalPages'] ?? 1) || !items.length) return out;
    }
  }

  /**
   * Files the reduction applications the invoice still lacks (a retry may find some already there).
   * The list is filtered only by kind (the OpenAPI documents `filter` alone, and Fortnox's searches
   * match parts of a value), so each application is compared by its own ReferenceDocumentType and
   * ReferenceNumber: invoice 1's retry never counts invoice 12's application as its own.
   */
  async function fileTaxReductions(call: ApiCall, invoice: ErpInvoice, documentNumber: string, retry: boolean) {
    const wanted = taxReductionApplications(invoice, documentNumber, o.houseWorkTypes);
    if (!wanted.length) return;
    let filed = new Set<string>();
    if (retry) {
      const list = await listAll(
        call,
        `/3/taxreductions?filter=invoices&referencenumber=${enc(documentNumber)}`,
        'TaxReductions',
      );
      filed = new Set(
        list
          .filter((t) => t.ReferenceDocumentType === 'INVOICE' && String(t.ReferenceNumber) === documentNumber)
          .map((t) => identityDigits(String(t.SocialSecurityNumber))),
      );
    }
    for (const application of wanted)
      if (!filed.has(identityDigits(String(application.SocialSecurityNumber))))
        await call({ method: 'POST', path: '/3/taxreductions', json: { TaxReduction: application } });
  }

  /** The company's unit code for Ordo's unit, created when the company has none (the settings scope). */
  async function ensureUnit(call: ApiCall, unit: string): Promise<string> {
    const known = unitCodeFor(await listAll(call, '/3/units', 'Units'), unit);
    if (known) return known;
    const res = await call({ method: 'POST', path: '/3/units', json: { Unit: newFortnoxUnit(unit) } });
    return String(((res.body as Rec).Unit as Rec).Code);
  }

  /**
   * Fortnox's card for a customer met without a mapping: by organisation number first; else the card
   * under Ordo's number when it is the same party. Throws ErpCustomerConflict when the number is
   * another party's or several cards share the organisation number; null when there is none.
   */
  async function matchCustomer(call: ApiCall, customer: ErpCustomer): Promise<Rec | null> {
    const identity = identityOf(customer);
    if (identity) {
      const found = new Map<string, Rec>();
      for (const form of identitySearches(identity)) {
        // the search matches parts of the value (ILIKE '%value%'): the hits are compared exactly
        const hits = await listAll(call, `/3/customers?organisationnumber=${enc(form)}`, 'Customers');
        for (const hit of hits)
          if (identityDigits(hit.OrganisationNumber as string) === identity) found.set(String(hit.CustomerNumber), hit);
        if (found.size) break;
      }
      // the card under Ordo's own number, or the one of the same name, is Ordo's; another is asked about
      const hits = [...found.values()];
      const ours =
        hits.find((h) => String(h.CustomerNumber) === customer.customerNumber) ??
        (hits.filter((h) => sameName(h.Name, customer.name)).length === 1
          ? hits.find((h) => sameName(h.Name, customer.name))
          : undefined);
      if (ours) return lookup(call, `/3/customers/${enc(String(ours.CustomerNumber))}`, 'Customer');
      if (hits.length > 1) throw conflict('several_matches', hits);
      if (hits.length === 1) throw conflict('other_name', hits);
    }
    const byNumber = await lookup(call, `/3/customers/${enc(customer.customerNumber)}`, 'Customer');
    if (!byNumber) return null;
    if (isSameParty(byNumber, customer)) return byNumber;
    throw conflict('number_taken', [byNumber]);
  }

  /** Brings an existing card up to date with what Ordo owns; answers its number. */
  async function updateCustomer(call: ApiCall, existing: Rec, wanted: Rec): Promise<string> {
    const number = String(existing.CustomerNumber);
    const changed = customerChanges(existing, wanted);
    if (Object.keys(changed).length)
      await call({ method: 'PUT', path: `/3/customers/${enc(number)}`, json: { Customer: changed } });
    return number;
  }

  /** The supplier invoice carrying the key; a live one before a cancelled one. */
  async function findSupplierInvoice(call: ApiCall, ref: string, invoiceDate: string): Promise<Rec | null> {
    const hits: Rec[] = [];
    for (let page = 1; ; page++) {
      const res = await call({
        path: `/3/supplierinvoices?financialyeardate=${enc(invoiceDate)}&limit=500&page=${page}`,
      });
      const body = (res.body ?? {}) as Rec;
      const list = (body.SupplierInvoices as Rec[] | undefined) ?? [];
      hits.push(...list.filter((i) => i.ExternalInvoiceNumber === ref));
      const meta = (body.MetaInformation ?? {}) as Rec;
      if (page >= Number(meta['@TotalPages'] ?? 1) || !list.length) break;
    }
    return hits.find((i) => i.Cancelled !== true && i.Cancel !== true) ?? hits[0] ?? null;
  }

  /** The GivenNumbers of the supplier invoices awaiting approval, with their list subset. */
  const awaitingApproval = (call: ApiCall) =>
    listAll(call, '/3/supplierinvoices?filter=authorizepending', 'SupplierInvoices');

  const sentSupplierInvoice = (givenNumber: unknown): ErpSentSupplierInvoice => ({
    externalId: String(givenNumber),
    externalNr: String(givenNumber),
  });

  const sent = (documentNumber: unknown): ErpSentInvoice => ({
    externalId: String(documentNumber),
    externalInvoiceNr: String(documentNumber),
    state: 'success',
  });

  return {
    capabilities: {
      sendInvoices: true,
      invoiceFile: false,
      readInvoice: true,
      listArticles: true,
      taxReduction: true,
      supplierInvoices: true,
      readSupplierInvoices: true,
    },
    auth: {
      type: 'oauth2',
      // without the app's client id and secret the vendor's sign-in cannot work: Settings → ERP says so
      missingOptions: (['clientId', 'clientSecret'] as const).filter((k) => !o[k].trim()),
      authorizeUrl({ redirectUri, state }) {
        const q = new URLSearchParams({
          client_id: o.clientId,
          redirect_uri: redirectUri,
          scope: o.scope,
          state,
          // offline: a refresh token, so deliveries run without the tenant at a browser.
          access_type: 'offline',
          response_type: 'code',
        });
        return `${authBase}/oauth-v1/auth?${q.toString()}`;
      },
      exchangeCode({ code, redirectUri, tenantId }) {
        return tokenRequest(tenantId, { grant_type: 'authorization_code', code, redirect_uri: redirectUri });
      },
    },

    testConnection(session) {
      return withApi(session, async (call) => {
        const res = await call({ path: '/3/companyinformation' });
        const info = (res.body as Rec | null)?.CompanyInformation as Rec | undefined;
        return { companyName: typeof info?.CompanyName === 'string' ? info.CompanyName : null };
      });
    },

    ensureCustomer(session, customer, knownExternalId, { createNew = false } = {}) {
      const wanted = fortnoxCustomer(customer);
      return withApi(session, async (call) => {
        let numberFree = true;
        if (createNew) {
          // the office said none of Fortnox's cards is this customer: a new one, under a number
          // Fortnox chooses when Ordo's is another's
          numberFree = !(await lookup(call, `/3/customers/${enc(customer.customerNumber)}`, 'Customer'));
        } else {
          const known = knownExternalId ? await lookup(call, `/3/customers/${enc(knownExternalId)}`, 'Customer') : null;
          // The invoice takes name and address from the card, so a card that moved on is brought up to date.
          if (known) return updateCustomer(call, known, wanted);
          // no mapping, or its card is gone: found as on a first delivery
          const match = await matchCustomer(call, customer);
          if (match) return updateCustomer(call, match, wanted);
        }
        const res = await call({
          method: 'POST',
          path: '/3/customers',
          json: { Customer: numberFree ? { CustomerNumber: customer.customerNumber, ...wanted } : wanted },
        });
        return String(((res.body as Rec).Customer as Rec).CustomerNumber);
      });
    },

    ensureArticle(session, article, knownExternalId) {
      return withApi(session, async (call) => {
        let existing = await lookup(call, `/3/articles/${enc(knownExternalId ?? article.articleNumber)}`, 'Article');
        if (!existing && knownExternalId && knownExternalId !== article.articleNumber)
          existing = await lookup(call, `/3/articles/${enc(article.articleNumber)}`, 'Article');
        // An existing article is left as the company keeps it: its texts and accounts are theirs.
        if (existing) return String(existing.ArticleNumber);
        const unit = nonEmpty(article.unit) ? await ensureUnit(call, article.unit) : null;
        const res = await call({
          method: 'POST',
          path: '/3/articles',
          json: {
            Article: fortnoxArticle(article, session.accounts.sales[article.vatPercent], o.houseWorkTypes, unit),
          },
        });
        return String(((res.body as Rec).Article as Rec).ArticleNumber);
      });
    },

    sendInvoice(session, invoice, idempotencyKey, { firstAttempt }) {
      // before anything is sent: an application Fortnox would refuse must not leave an invoice behind
      checkWholeKronor(invoice);
      const ref = externalReference(idempotencyKey);
      const body = { Invoice: fortnoxInvoice(invoice, ref, o.houseWorkTypes) };
      // Survives withAccessToken running the call again after a refresh: never create twice.
      let created: string | null = null;
      return withApi(session, async (call) => {
        if (!created && !firstAttempt) {
          const found = await findInvoice(call, ref);
          if (found) {
            await fileTaxReductions(call, invoice, String(found.DocumentNumber), true);
            return sent(found.DocumentNumber);
          }
        }
        if (!created) {
          const res = await call({ method: 'POST', path: '/3/invoices', json: body });
          created = String(((res.body as Rec).Invoice as Rec).DocumentNumber);
          await fileTaxReductions(call, invoice, created, false);
        } else await fileTaxReductions(call, invoice, created, true);
        return sent(created);
      });
    },

    ensureSupplier(session, supplier, knownExternalId) {
      const wanted = fortnoxSupplier(supplier);
      return withApi(session, async (call) => {
        let existing = await lookup(
          call,
          `/3/suppliers/${enc(knownExternalId ?? supplier.supplierNumber)}`,
          'Supplier',
        );
        if (!existing && knownExternalId && knownExternalId !== supplier.supplierNumber)
          existing = await lookup(call, `/3/suppliers/${enc(supplier.supplierNumber)}`, 'Supplier');
        if (existing) {
          const number = String(existing.SupplierNumber);
          // Bank details and the default account decide where and on what Fortnox pays and books, so
          // a card that moved on is brought up to date with what changed.
          const changed = Object.fromEntries(
            Object.entries(wanted).filter(([k, v]) => String(existing![k] ?? '') !== String(v)),
          );
          if (Object.keys(changed).length)
            await call({ method: 'PUT', path: `/3/suppliers/${enc(number)}`, json: { Supplier: changed } });
          return number;
        }
        const res = await call({
          method: 'POST',
          path: '/3/suppliers',
          json: { Supplier: { SupplierNumber: supplier.supplierNumber, ...wanted } },
        });
        return String(((res.body as Rec).Supplier as Rec).SupplierNumber);
      });
    },

    async sendSupplierInvoice(session, invoice, idempotencyKey, { firstAttempt }) {
      // Before any request: a row on no account is the tenant's to fix, and nothing is half-booked.
      const rowAccounts = supplierRowAccounts(invoice);
      if (invoice.currency !== 'SEK')
        // Foreign-currency rows carry DebitCurrency and a rate Fortnox fills in; Ordo's figures are the
        // invoice currency's, so booking them as kronor would be wrong.
        throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
          vendorMessage: `Supplier invoices in ${invoice.currency} are not sent to Fortnox; register it in Fortnox`,
        });
      const ref = supplierInvoiceReference(idempotencyKey);
      const body = {
        SupplierInvoice: fortnoxSupplierInvoice(invoice, rowAccounts, ref, {
          ...o.supplierInvoiceAccounts,
          rounding: session.accounts.rounding?.trim() || o.supplierInvoiceAccounts.rounding,
        }),
      };
      // Survives withAccessToken running the call again after a refresh: never create twice.
      let created: ErpSentSupplierInvoice | null = null;
      return withApi(session, async (call) => {
        if (created) return created;
        if (!firstAttempt) {
          const found = await findSupplierInvoice(call, ref, invoice.invoiceDate);
          if (found) return sentSupplierInvoice(found.GivenNumber);
        }
        const res = await call({ method: 'POST', path: '/3/supplierinvoices', json: body });
        created = sentSupplierInvoice(((res.body as Rec).SupplierInvoice as Rec).GivenNumber);
        return created;
      });
    },

    listSupplierInvoices(session, { since }) {
      const after = since === null ? 0 : Number(since) || 0;
      return withApi(session, async (call) => {
        const listed = await awaitingApproval(call);
        const numbers = listed.map((i) => Number(i.GivenNumber)).filter(Number.isFinite);
        const cursor = numbers.length ? String(Math.max(after, ...numbers)) : since;
        const fresh = listed
          .filter((i) => Number(i.GivenNumber) > after)
          .filter((i) => i.Cancel !== true && i.Cancelled !== true)
          .filter((i) => !String(i.ExternalInvoiceNumber ?? '').startsWith(ORDO_SUPPLIER_INVOICE_KEY_PREFIX))
          .sort((a, b) => Number(a.GivenNumber) - Number(b.GivenNumber));
        const cards = new Map<string, Rec | null>();
        const invoices = [];
        for (const item of fresh) {
          const invoice = await lookup(call, `/3/supplierinvoices/${enc(String(item.GivenNumber))}`, 'SupplierInvoice');
          if (!invoice || invoice.Cancelled === true) continue;
          const number = String(invoice.SupplierNumber);
          if (!cards.has(number)) cards.set(number, await lookup(call, `/3/suppliers/${enc(number)}`, 'Supplier'));
          invoices.push(fetchedSupplierInvoice(invoice, cards.get(number) ?? null));
        }
        return { invoices, cursor };
      });
    },

    approveSupplierInvoicePayment(session, externalId, { firstAttempt }) {
      let approved = false;
      return withApi(session, async (call) => {
        // a try killed after Fortnox approved it: no longer awaiting approval, so it is done
        if (!approved && !firstAttempt) {
          const pending = await awaitingApproval(call);
          if (!pending.some((i) => String(i.GivenNumber) === externalId)) {
            const invoice = await lookup(call, `/3/supplierinvoices/${enc(externalId)}`, 'SupplierInvoice');
            if (!invoice)
              throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
                vendorMessage: `Fortnox has no supplier invoice ${externalId}`,
              });
            if (invoice.Cancelled === true)
              throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
                vendorMessage: `Supplier invoice ${externalId} is cancelled in Fortnox`,
              });
            approved = true;
          }
        }
        if (!approved) {
          await call({ method: 'PUT', path: `/3/supplierinvoices/${enc(externalId)}/approvalpayment` });
          approved = true;
        }
        return sentSupplierInvoice(externalId);
      });
    },

    readInvoice(session, externalId) {
      return withApi(session, async (call) => {
        const res = await call({ path: `/3/invoices/${enc(externalId)}` });
        return sent(((res.body as Rec).Invoice as Rec).DocumentNumber);
      });
    },

    listArticles(session) {
      return withApi(session, async (call) => {
        const out = await listAll(call, '/3/articles', 'Articles');
        return out.map((a) => ({
          externalId: String(a.ArticleNumber),
          articleNumber: String(a.ArticleNumber),
          title: String(a.Description ?? ''),
          unit: nonEmpty(a.Unit as string) ? String(a.Unit) : null,
          price: a.SalesPrice === undefined || a.SalesPrice === null ? null : Number(a.SalesPrice).toFixed(2),
        }));
      });
    },
  };
}

export default defineErpProvider({
  id: 'fortnox',
  displayName: 'Fortnox',
  erpKind: 'fortnox',
  // what was checked against the vendor's documentation and what was not (issue 31; Settings → ERP)
  verification: {
    verified: ['fortnox.fields', 'fortnox.rotWhole'],
    unverified: ['fortnox.errorCodes', 'fortnox.errorTexts'],
  },
  options,
  create,
});
