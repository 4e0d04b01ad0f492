import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ErpFakeControl } from '~/tests/erp-contract/erp-contract';

/*
 * A local fake of Wint's API ("Superkoll API") for plugins/erp-wint, on a node:http port.
 *
 * Sources (found with the search tool):
 * - Wint's OpenAPI 3.0.4 document, published at https://superkollapi.wint.se/swagger/v1/swagger.json
 *   (test environment https://superkollapitest.wint.se); a copy of the full document ("Full API
 *   Documentation", 516 paths) is swagger-full.json in github.com/iggerask/wint-mcp, an MCP server for
 *   Wint. Every path, field name, enum and required list below is taken from it verbatim: InvoicePost,
 *   Invoice, InvoiceRow, ExternalInvoiceReference, InvoiceReference, CustomerPost/Customer/CustomerPut,
 *   CustomerAddress, ArticlePost/Article, Company, RutRotWorkType, InvoiceSendProperties,
 *   Wint.Utils.WebApi.ListResponseOf_* (Items, NumPerPage, Page, TotalItems, TotalItemsWithOutFilter),
 *   Microsoft.AspNetCore.Mvc.ProblemDetails for 400/401/404; every schema has additionalProperties false.
 * - Auth: HTTP Basic with the username and API key of a custom integration (Wint: Settings →
 *   Integrations → Custom integrations), as in wint-mcp's src/auth/client.ts and README, and in other
 *   public clients of superkollapi.wint.se/api (Python scripts found with find_string).
 * - Page is 1-based (wint-mcp's shared pagination schema); the description of POST /api/Invoice names
 *   the 400 error code UncategorizedEuCustomerInvoiceItems.
 * - wint.se/faq and wint.se/info/vem-gor-vad: the customer sends customer invoices from Wint, which books
 *   them when they are sent; Wint's economists book supplier invoices.
 *
 * - Issue 31: InvoiceRow.ArticleId is `integer, int32` without `nullable` (the OpenAPI's InvoiceRow),
 *   so null cannot be deserialized into it, and a row cannot say "no article": a row without one
 *   names article 0, which does not exist (the fake's reading of the schema; Wint's own text for it
 *   is not published). GET /api/Customer takes OrgNumber and VatNumber among its filters (the
 *   OpenAPI's parameters). PUT /api/Customer/{id} takes a CustomerPut — Name, Type and
 *   BillingAddress required, every other field of the card optional — and, as PUT does (RFC 9110
 *   §9.3.4), replaces the card with it: a field left out is left empty.
 *
 * What no source states (the fake's own choices, marked where they matter):
 * - the rate limit: none is published; the fake counts per username and answers 429 with Retry-After
 *   with the limit it is started with;
 * - the texts of Wint's refusals: ASP.NET Core's ProblemDetails shapes with close paraphrases
 *   ("One or more validation errors occurred.", "The JSON value could not be converted to System.Int32");
 * - the exact matching of the OrgNumber and VatNumber filters (the text as stored);
 * - that POST /api/Invoice makes a draft (Status NotSent, SerialNumber null) which POST
 *   /api/Invoice/Send/{id} numbers (wint-mcp: "transitions from Draft to Sent. This assigns a serial
 *   number"); the serial numbers and OCRs the fake hands out;
 * - that the Name filter of customers and articles matches a part of the name, case-insensitively;
 * - TotalAmount and TotalTax: the rows' quantity × price, VAT per row, rounded to the öre.
 */

type Json = Record<string, unknown>;

export interface WintFakeOptions {
  username?: string;
  apiKey?: string;
  rateLimit?: { requests: number; perMs: number };
  companyName?: string;
}

export interface WintFake extends ErpFakeControl {
  url: string;
  username: string;
  apiKey: string;
  /** Customers as Wint stores them. */
  customers(): Json[];
  /** Articles as Wint stores them. */
  articles(): Json[];
  /** Sends a draft as a person in Wint would (numbers it). */
  sendInWint(id: string): void;
  /** A customer a person made in Wint (the company's own ledger); answers the stored card. */
  addCustomer(customer: Json): Json;
}

class Problem extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.title ?? body.detail ?? status));
  }
}
const badRequest = (detail: string): never => {
  throw new Problem(400, {
    type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
    title: 'Bad Request',
    status: 400,
    detail,
  });
};
const validation = (errors: Record<string, string[]>): never => {
  throw new Problem(400, {
    type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1',
    title: 'One or more validation errors occurred.',
    status: 400,
    errors,
  });
};
const notFound = (detail: string): never => {
  throw new Problem(404, {
    type: 'https://tools.ietf.org/html/rfc7231#section-6.5.4',
    title: 'Not Found',
    status: 404,
    detail,
  });
};

const CUSTOMER_FIELDS = new Set([
  'Name',
  'OrgNumber',
  'Type',
  'BillingAddress',
  'DeliveryAddress',
  'VatNumber',
  'GlnNumber',
  'IncludeVatNumberOnInvoice',
  'PaymentTerms',
  'EmailAddress',
  'AutogiroPayerNumber',
  'PhoneNumber',
  'Inactive',
  'ShowCurrencyCode',
  'Language',
  'Template',
  'ReferencePersonsList',
  'PropertyDesignation',
  'TenantsOwnerAssociationOrgNumber',
  'ApartmentNumber',
  'IsRutEnabled',
  'IsRotEnabled',
  'PenaltyInterest',
  'InvoiceDeliverySettings',
  'InvoiceReminderSettings',
]);
const ADDRESS_FIELDS = new Set(['Street1', 'Street2', 'ZipCode', 'City', 'CountryCode']);
const ARTICLE_FIELDS = new Set(['UnitId', 'Text', 'UnitPrice', 'Vat', 'EuVatProductType', 'Inactive']);
const INVOICE_FIELDS = new Set([
  'Attachments',
  'UseStrictValidation',
  'InvoiceMailInfo',
  'OwnerId',
  'CustomerId',
  'CustomerReference',
  'ContactPerson',
  'Notes',
  'Dimensions',
  'DeliveryDate',
  'PostingDate',
  'DueDate',
  'ShowReferencePersonInAddress',
  'ShowShippingAddress',
  'ShowCurrencyCode',
  'Language',
  'Currency',
  'CreditedInvoiceId',
  'ReminderCost',
  'PenaltyInterest',
  'ReminderNotes',
  'PaymentOptionId',
  'Rows',
  'ExternalInvoiceReferences',
  'Template',
  'InvoiceHouseWorkType',
  'InvoiceRotPercentageType',
  'CustomerPersonNumber',
  'HouseWorkOtherCosts',
  'InvoiceRotPropertyType',
  'PropertyDesignation',
  'TenantsOwnerAssociationOrgNumber',
  'ApartmentNumber',
  'QuotationSerialNumber',
  'IsAutomaticRemindersEnabled',
  'AutomaticReminderPeriod',
  'AutomaticReminderDelay',
  'AutomaticReminderAmountLimit',
  'AutomaticReminderCountLimit',
  'AutomaticReminderFeeDeprecationLimit',
  'AutomaticReminderNotes',
  'AutomaticReminderSendMethod',
  'AutomaticReminderMailFromType',
  'AutomaticReminderMailToType',
  'AutomaticReminderMailToAddresses',
  'AutomaticReminderMailSubject',
  'AutomaticReminderMailMessage',
  'InvoiceSource',
  'OriginOcrNumber',
  'SelfInvoiceId',
]);
const ROW_FIELDS = new Set([
  'Id',
  'ArticleId',
  'Quantity',
  'Description',
  'OverriddenDescription',
  'Unit',
  'UnitPrice',
  'OverriddenUnitPrice',
  'OrderIndex',
  'Rot',
  'Rut',
  'Vat',
  'OverriddenVat',
  'EuVatProductType',
  'Periodisation',
  'PeriodisationStartYear',
  'PeriodisationStartMonth',
  'PeriodisationEndYear',
  'PeriodisationEndMonth',
  'Dimensions',
  'HouseWorkHours',
  'MaterialCost',
  'HouseWorkTypeId',
  'HouseWorkTypeName',
]);
const VAT_RATES = [0, 6, 12, 25];
const HOUSE_WORK_TYPES = ['None', 'ROT', 'RUT'];
const ROT_PROPERTY_TYPES = ['None', 'House', 'Condominium'];
const SEND_METHODS = ['Email', 'Print', 'MarkAsSent'];
/** RutRotWorkType rows as the fake answers them (ids and names are the fake's; the kinds are Skatteverket's). */
const WORK_TYPES: Json[] = [
  { Id: 1, Name: 'Bygg', Type: 'ROT' },
  { Id: 2, Name: 'El', Type: 'ROT' },
  { Id: 3, Name: 'VVS', Type: 'ROT' },
  { Id: 10, Name: 'Städning', Type: 'RUT' },
  { Id: 11, Name: 'Trädgårdsarbete', Type: 'RUT' },
];

/** Fields sent that the schema does not have: System.Text.Json with UnmappedMemberHandling.Disallow (paraphrase). */
function onlyFields(record: Json, allowed: Set<string>, path: string) {
  const unknown = Object.keys(record).filter((k) => !allowed.has(k));
  if (unknown.length)
    validation(
      Object.fromEntries(
        unknown.map((k) => [`${path}.${k}`, [`The JSON property '${k}' could not be mapped to any .NET member.`]]),
      ),
    );
}
function int32(v: unknown, path: string, required = false, nullable = true): number | null {
  // a property declared without `nullable` cannot take null (System.Text.Json, int rather than int?)
  if (v === null && !nullable)
    validation({ [path]: [`The JSON value could not be converted to System.Int32. Path: ${path}`] });
  if (v === undefined || v === null) {
    if (required) validation({ [path]: [`The ${path.split('.').pop()} field is required.`] });
    return null;
  }
  if (typeof v !== 'number' || !Number.isInteger(v))
    validation({ [path]: [`The JSON value could not be converted to System.Int32. Path: ${path}`] });
  return v as number;
}
function double(v: unknown, path: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v))
    validation({ [path]: [`The JSON value could not be converted to System.Double. Path: ${path}`] });
  return v as number;
}
function string(v: unknown, path: string, required = false): string | null {
  if (v === undefined || v === null || (required && v === '')) {
    if (required) validation({ [path]: [`The ${path.split('.').pop()} field is required.`] });
    return null;
  }
  if (typeof v !== 'string')
    validation({ [path]: [`The JSON value could not be converted to System.String. Path: ${path}`] });
  return v as string;
}
function dateTime(v: unknown, path: string, required = false): string | null {
  const s = string(v, path, required);
  if (s !== null && !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(s))
    validation({ [path]: [`The JSON value could not be converted to System.DateTime. Path: ${path}`] });
  return s;
}
function oneOf(v: unknown, values: string[], path: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !values.includes(v))
    validation({ [path]: [`The JSON value could not be converted to ${path.split('.').pop()}. Path: ${path}`] });
  return v as string;
}
const ore = (x: number) => Math.round(x * 100 + Math.sign(x) * 1e-7);

export async function startWintFake(options: WintFakeOptions = {}): Promise<WintFake> {
  const username = options.username ?? `ordo-${randomBytes(4).toString('hex')}`;
  const apiKey = options.apiKey ?? randomBytes(24).toString('base64url');
  const limit = options.rateLimit ?? { requests: 10, perMs: 1000 };
  const company = { Id: 4711, Name: options.companyName ?? 'Larmteknik i Norr AB', Org: '559123-4567' };

  const customers = new Map<number, Json>();
  const articles = new Map<number, Json>();
  const invoices = new Map<number, Json>();
  let nextId = 100;
  let nextSerial = 1;

  let pendingFailure: { status: number; retryAfterSeconds?: number } | null = null;
  let dropNextCreate = false;
  let requests = 0;
  let rateLimited = 0;
  const windows = new Map<string, number[]>();
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        send(res, 500, { title: 'Internal Server Error', status: 500, detail: (err as Error).message });
      else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const problem = status >= 400;
    res.writeHead(status, {
      'content-type': problem ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8',
      ...headers,
    });
    res.end(body === undefined ? '' : JSON.stringify(body));
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
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
      return send(res, failure.status, { title: `Injected ${failure.status}`, status: failure.status }, headers);
    }

    const auth = req.headers.authorization ?? '';
    const [user, key] = auth.startsWith('Basic ')
      ? Buffer.from(auth.slice(6), 'base64').toString('utf8').split(/:(.*)/s)
      : [];
    if (user !== username || key !== apiKey)
      return send(res, 401, {
        type: 'https://tools.ietf.org/html/rfc7235#section-3.1',
        title: 'Unauthorized',
        status: 401,
      });

    const starts = (windows.get(username) ?? []).filter((t) => arrived - t < limit.perMs);
    if (starts.length >= limit.requests) {
      windows.set(username, starts);
      rateLimited += 1;
      const waitMs = starts[0]! + limit.perMs - arrived;
      return send(
        res,
        429,
        { title: 'Too Many Requests', status: 429 },
        { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) },
      );
    }
    starts.push(arrived);
    windows.set(username, starts);

    try {
      let body: unknown = undefined;
      if (raw.trim()) {
        try {
          body = JSON.parse(raw);
        } catch {
          validation({ $: ["'<' is an invalid start of a value. Path: $ | LineNumber: 0 | BytePositionInLine: 0."] });
        }
      }
      const u = new URL(req.url ?? '/', url);
      const answer = route(req.method ?? 'GET', u.pathname.replace(/\/+$/, ''), u.searchParams, body);
      if (answer === 'drop') {
        res.socket?.destroy();
        return;
      }
      send(res, 200, answer);
    } catch (err) {
      if (!(err instanceof Problem)) throw err;
      send(res, err.status, err.body);
    }
  }

  function list(records: Json[], q: URLSearchParams, total = records.length): Json {
    const page = q.has('Page') ? Number(q.get('Page')) : 1;
    const per = q.has('NumPerPage') ? Number(q.get('NumPerPage')) : 25;
    if (!Number.isInteger(page) || page < 1) validation({ Page: ['The value is not valid for Page.'] });
    if (!Number.isInteger(per) || per < 1) validation({ NumPerPage: ['The value is not valid for NumPerPage.'] });
    return {
      Items: records.slice((page - 1) * per, page * per),
      NumPerPage: per,
      Page: page,
      TotalItems: records.length,
      TotalItemsWithOutFilter: total,
    };
  }
  const contains = (v: unknown, part: string | null) =>
    part === null ||
    String(v ?? '')
      .toLowerCase()
      .includes(part.toLowerCase());
  const asObject = (b: unknown, path = '$'): Json => {
    if (!b || typeof b !== 'object' || Array.isArray(b))
      validation({ [path]: ['A non-empty request body is required.'] });
    return b as Json;
  };
  const idParam = (v: string | undefined): number => {
    if (!v || !/^\d+$/.test(v)) return validation({ id: [`The value '${v}' is not valid.`] });
    return Number(v);
  };

  type Answer = unknown;
  function route(method: string, path: string, q: URLSearchParams, body: unknown): Answer {
    const parts = path.split('/').slice(1).map(decodeURIComponent);
    if (parts[0] !== 'api') notFound(`No route ${method} ${path}`);
    const [, resource, a, b] = parts;

    if (resource === 'Company' && method === 'GET') {
      if (a === 'Selected' && !b) return company.Id;
      if (a && !b) return idParam(a) === company.Id ? company : notFound(`Company ${a} not found`);
    }

    if (resource === 'Customer') {
      if (!a && method === 'GET') {
        const all = [...customers.values()];
        const exactly = (v: unknown, filter: string | null) => filter === null || v === filter;
        return list(
          all.filter(
            (c) =>
              contains(c.Name, q.get('Name')) &&
              exactly(c.OrgNumber, q.get('OrgNumber')) &&
              exactly(c.VatNumber, q.get('VatNumber')),
          ),
          q,
          all.length,
        );
      }
      if (!a && method === 'POST') return createCustomer(asObject(body));
      if (a && !b && method === 'GET') return customers.get(idParam(a)) ?? notFound(`Customer ${a} not found`);
      if (a && !b && method === 'PUT') {
        const id = idParam(a);
        const existing = customers.get(id) ?? notFound(`Customer ${a} not found`);
        const checked = checkCustomer(asObject(body));
        // the CustomerPut replaces the card; what Wint keeps of its own (counts, amounts) stays
        const kept = Object.fromEntries(Object.entries(existing).filter(([k]) => !CUSTOMER_FIELDS.has(k)));
        customers.set(id, { ...kept, Inactive: false, ...checked, Id: id });
        return id;
      }
    }

    if (resource === 'Article') {
      if (!a && method === 'GET') {
        const all = [...articles.values()];
        return list(
          all.filter((x) => contains(x.Text, q.get('Name'))),
          q,
          all.length,
        );
      }
      if (!a && method === 'POST') return createArticle(asObject(body));
      if (a && !b && method === 'GET') return articles.get(idParam(a)) ?? notFound(`Article ${a} not found`);
    }

    if (resource === 'Invoice') {
      if (a === 'RutRotWorkTypes' && method === 'GET') {
        const type = q.get('Type');
        return list(
          WORK_TYPES.filter((t) => type === null || t.Type === type).filter((t) => contains(t.Name, q.get('Name'))),
          q,
        );
      }
      if (a === 'Send' && b && method === 'POST') {
        const props = asObject(body);
        onlyFields(props, new Set(['InvoiceSendMethod', 'MailOptions']), '$');
        if (oneOf(props.InvoiceSendMethod, SEND_METHODS, '$.InvoiceSendMethod') === null)
          validation({ '$.InvoiceSendMethod': ['The InvoiceSendMethod field is required.'] });
        sendInvoice(idParam(b));
        return undefined;
      }
      if (!a && method === 'GET') {
        const customerId = q.get('CustomerId');
        const all = [...invoices.values()];
        return list(
          all.filter((i) => customerId === null || String(i.CustomerId) === customerId),
          q,
          all.length,
        );
      }
      if (!a && method === 'POST') {
        const id = createInvoice(asObject(body));
        if (dropNextCreate) {
          dropNextCreate = false;
          return 'drop';
        }
        return id;
      }
      if (a && !b && method === 'GET') return invoices.get(idParam(a)) ?? notFound(`Invoice ${a} not found`);
    }
    return notFound(`No route ${method} ${path}`);
  }

  function checkCustomer(c: Json): Json {
    onlyFields(c, CUSTOMER_FIELDS, '$');
    string(c.Name, '$.Name', true);
    if (oneOf(c.Type, ['Company', 'PrivatePerson'], '$.Type') === null)
      validation({ '$.Type': ['The Type field is required.'] });
    const address = c.BillingAddress;
    if (!address || typeof address !== 'object')
      return validation({ '$.BillingAddress': ['The BillingAddress field is required.'] });
    onlyFields(address as Json, ADDRESS_FIELDS, '$.BillingAddress');
    string((address as Json).City, '$.BillingAddress.City', true);
    const zip = string((address as Json).ZipCode, '$.BillingAddress.ZipCode');
    if (zip && zip.length > 12) validation({ '$.BillingAddress.ZipCode': ['Max length: 12 characters'] });
    const terms = int32(c.PaymentTerms, '$.PaymentTerms');
    if (terms !== null && terms < 0) validation({ '$.PaymentTerms': ['Must be a positive value'] });
    if (c.Language !== undefined && c.Language !== null && c.Language !== 'SV' && c.Language !== 'EN')
      badRequest('Language must be either SV or EN');
    return c;
  }
  function createCustomer(c: Json): number {
    checkCustomer(c);
    const id = nextId++;
    customers.set(id, { Id: id, Inactive: false, NumOfInvoices: 0, ...c });
    return id;
  }

  function createArticle(x: Json): number {
    onlyFields(x, ARTICLE_FIELDS, '$');
    string(x.Text, '$.Text', true);
    if (double(x.UnitPrice, '$.UnitPrice') === null)
      validation({ '$.UnitPrice': ['The UnitPrice field is required.'] });
    const vat = double(x.Vat, '$.Vat');
    if (vat === null || !VAT_RATES.includes(vat)) badRequest('VAT must be either 0, 6, 12 or 25');
    const id = nextId++;
    articles.set(id, { Id: id, Inactive: false, UnitText: null, CanRemove: true, ...x });
    return id;
  }

  function createInvoice(input: Json): number {
    onlyFields(input, INVOICE_FIELDS, '$');
    const customerId = int32(input.CustomerId, '$.CustomerId', true)!;
    string(input.Currency, '$.Currency', true);
    const language = string(input.Language, '$.Language', true);
    if (language !== 'SV' && language !== 'EN') badRequest('The language of the invoice must be either SV or EN');
    dateTime(input.DueDate, '$.DueDate', true);
    dateTime(input.PostingDate, '$.PostingDate');
    dateTime(input.DeliveryDate, '$.DeliveryDate');
    const houseWork = oneOf(input.InvoiceHouseWorkType, HOUSE_WORK_TYPES, '$.InvoiceHouseWorkType') ?? 'None';
    oneOf(input.InvoiceRotPropertyType, ROT_PROPERTY_TYPES, '$.InvoiceRotPropertyType');
    if (input.CustomerReference !== undefined && input.CustomerReference !== null)
      onlyFields(
        asObject(input.CustomerReference, '$.CustomerReference'),
        new Set(['ReferenceId', 'ReferenceName']),
        '$.CustomerReference',
      );
    const refs = input.ExternalInvoiceReferences;
    if (refs !== undefined && refs !== null) {
      if (!Array.isArray(refs))
        validation({ '$.ExternalInvoiceReferences': ['The JSON value could not be converted to List.'] });
      (refs as unknown[]).forEach((r, i) => {
        onlyFields(
          asObject(r, `$.ExternalInvoiceReferences[${i}]`),
          new Set(['SystemName', 'ExternalId']),
          `$.ExternalInvoiceReferences[${i}]`,
        );
        string((r as Json).SystemName, `$.ExternalInvoiceReferences[${i}].SystemName`);
        string((r as Json).ExternalId, `$.ExternalInvoiceReferences[${i}].ExternalId`);
      });
    }
    if (!Array.isArray(input.Rows)) return validation({ '$.Rows': ['The Rows field is required.'] });
    // Type errors in the rows first, as the JSON deserializer meets them before any rule is checked.
    const rows = (input.Rows as unknown[]).map((r, n) => {
      const path = `$.Rows[${n}]`;
      const row = asObject(r, path);
      onlyFields(row, ROW_FIELDS, path);
      int32(row.ArticleId, `${path}.ArticleId`, false, false);
      for (const f of [
        'Quantity',
        'UnitPrice',
        'OverriddenUnitPrice',
        'Vat',
        'OverriddenVat',
        'HouseWorkHours',
        'MaterialCost',
      ])
        double(row[f], `${path}.${f}`);
      int32(row.HouseWorkTypeId, `${path}.HouseWorkTypeId`);
      return row;
    });
    if (!customers.has(customerId)) badRequest(`Customer with id ${customerId} does not exist`);
    if (rows.length === 0) badRequest('The invoice must have at least one row');
    let amount = 0;
    let tax = 0;
    let rot = false;
    let rut = false;
    const stored = rows.map((row, n) => {
      let price: number;
      let vat: number;
      let text: string | null;
      {
        // ArticleId is a non-nullable int32: a row that leaves it out names article 0 (see the header)
        const articleId = (row.ArticleId as number | undefined) ?? 0;
        const article = articles.get(articleId);
        if (!article) badRequest(`Article with id ${articleId} does not exist`);
        price = (row.OverriddenUnitPrice as number | undefined) ?? (article!.UnitPrice as number);
        vat = (row.OverriddenVat as number | undefined) ?? (article!.Vat as number);
        text = (row.OverriddenDescription as string | undefined) ?? (article!.Text as string);
      }
      if (!VAT_RATES.includes(vat)) badRequest(`Row ${n + 1}: VAT must be either 0, 6, 12 or 25`);
      if (row.Rot === true && row.Rut === true) badRequest('Invoice cannot both contain ROT and RUT invoice rows');
      rot ||= row.Rot === true;
      rut ||= row.Rut === true;
      if ((row.Rot === true || row.Rut === true) && !WORK_TYPES.some((t) => t.Id === row.HouseWorkTypeId))
        badRequest(`Row ${n + 1}: a ROT/RUT row needs a housework type`);
      const quantity = (row.Quantity as number | undefined) ?? 0;
      const total = ore(quantity * price);
      amount += total;
      tax += Math.round((total * vat) / 100);
      return { Id: n + 1, ...row, Description: text, UnitPrice: price, Vat: vat };
    });
    if (rot && rut) badRequest('Invoice cannot both contain ROT and RUT invoice rows');
    if ((rot || rut) && houseWork !== (rot ? 'ROT' : 'RUT'))
      badRequest('InvoiceHouseWorkType does not match the ROT/RUT rows');
    if (houseWork !== 'None' && !/^(19|20)?\d{6}-?\d{4}$/.test(String(input.CustomerPersonNumber ?? '')))
      badRequest('A ROT/RUT invoice needs the personnummer of the customer (CustomerPersonNumber)');
    const customer = customers.get(customerId)!;
    const id = nextId++;
    invoices.set(id, {
      Id: id,
      Status: 'NotSent',
      SerialNumber: null,
      Ocr: 0,
      OcrText: null,
      Credit: false,
      PaymentTerms: customer.PaymentTerms ?? 0,
      LastUpdated: new Date().toISOString(),
      CustomerName: customer.Name,
      CustomerOrgNo: customer.OrgNumber ?? null,
      TotalAmount: (amount + tax) / 100,
      TotalTax: tax / 100,
      Rot: rot,
      Rut: rut,
      ...input,
      InvoiceHouseWorkType: houseWork,
      Rows: stored,
    });
    return id;
  }

  function sendInvoice(id: number) {
    const inv = invoices.get(id) ?? notFound(`Invoice ${id} not found`);
    if (inv.Status !== 'NotSent') badRequest('The invoice has already been sent');
    const serial = nextSerial++;
    Object.assign(inv, { Status: 'Unpaid', SerialNumber: serial, Ocr: 1000 + serial, OcrText: String(1000 + serial) });
  }

  const withKey = (i: Json, key: string) =>
    Array.isArray(i.ExternalInvoiceReferences) &&
    (i.ExternalInvoiceReferences as Json[]).some((r) => r.ExternalId === key);

  return {
    url,
    username,
    apiKey,
    customers: () => [...customers.values()],
    articles: () => [...articles.values()],
    sendInWint: (id) => sendInvoice(Number(id)),
    addCustomer: (c) => customers.get(createCustomer(c))!,
    invoiceCount(key) {
      const all = [...invoices.values()];
      return key === undefined ? all.length : all.filter((i) => withKey(i, key)).length;
    },
    customerCount: () => customers.size,
    articleCount: () => articles.size,
    invoice: (externalId) => (/^\d+$/.test(externalId) ? (invoices.get(Number(externalId)) ?? null) : null),
    // API keys do not expire.
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
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
