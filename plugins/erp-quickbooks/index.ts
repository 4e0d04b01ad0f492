import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  createErpHttp,
  ErpError,
  requestOAuthTokens,
  withAccessToken,
  type ErpErrorCode,
  type ErpRequest,
} from '~/core/extension-points/erp-http';
import {
  defineErpProvider,
  supplierRowAccounts,
  type ErpCustomer,
  type ErpInvoice,
  type ErpInvoiceRow,
  type ErpProvider,
  type ErpSentInvoice,
  type ErpSession,
  type ErpSupplier,
  type ErpSupplierInvoice,
} from '~/core/extension-points/erp-provider';
import { compare, divide, formatDecimal, formatTrimmed, isZero, mul, round, toNumber } from '~/core/pricing';

/*
 * QuickBooks Online (Intuit), over the Accounting API v3 with OAuth2 (the ERP contract v2). Field
 * names are Intuit's, verbatim: entities wrapped in their name ({"Invoice": {...}}), the company's
 * realm id in every path (/v3/company/{realmId}/…), minorversion on every call, errors as
 * {"Fault": {"Error": [{"Message", "Detail", "code"}], "type"}}. The local fake in
 * tests/fakes/quickbooks-online.ts lists the sources.
 *
 * PLUGIN_OPTIONS: clientId and clientSecret of the app made at developer.intuit.com (Keys &
 * credentials), with https://<tenant host>/settings/erp/callback registered as a redirect URI for
 * every tenant host. The callback carries the company's realmId, which is kept in the credentials.
 *
 * How Ordo's words land in QuickBooks:
 * - A customer is a Customer whose DisplayName is "<name> (<customer number>)": QuickBooks has no
 *   customer-number field it can search, DisplayName is the one it can, and it must be unique across
 *   customers, vendors and employees, which a name alone is not. A supplier is a Vendor, alike.
 * - An article is an Item whose Name (unique, searchable) is the article number and whose
 *   Description is the title; Type Service for labour, NonInventory for goods; IncomeAccountRef is the
 *   account chosen for the article's VAT rate in Settings → ERP, found by its number (AcctNum).
 * - VAT: QuickBooks outside the US puts a TaxCode on every line and computes TxnTaxDetail itself.
 *   The plugin reads the company's TaxCodes and TaxRates and takes, per Ordo rate, the active code
 *   whose sales (or, for bills, purchase) rates add up to that rate; a reverse-charge invoice puts the
 *   code whose name says reverse charge on every line. Boot option taxCodes names codes explicitly
 *   where a company's set is ambiguous. A US company (sales tax, not VAT) has no such codes and is
 *   refused with a message saying so.
 * - ROT/RUT/green: QuickBooks has no tax reductions; such an invoice is refused (make it in QuickBooks).
 * - Row discounts: QuickBooks has no per-line discount (its DiscountLineDetail discounts the whole
 *   invoice), so a discounted row carries its net unit price (total / quantity) and Amount = the row's
 *   total; when that price cannot be said exactly the row becomes quantity 1 at its total.
 * - Fee and rows without an article go on the items named by feeItemName and freeRowItemName (a new
 *   company has "Services"); created as Service items when missing.
 * - Invoice number: DocNumber is Ordo's number only when the company keeps custom transaction
 *   numbers (Preferences.SalesFormsPrefs.CustomTxnNumbers, read on each send); otherwise QuickBooks
 *   numbers the invoice from its own series, as Intuit asks, and Ordo's number is in PrivateNote.
 * - Customers, vendors and items are looked up with inactive ones included (Active IN (true,false));
 *   an inactive one with the name is made active again, since its name blocks a new one (6240).
 * - Öre rounding: QuickBooks does not round invoice totals, so its TotalAmt is Ordo's total before
 *   rounding (the rounding never reaches QuickBooks).
 *
 * Idempotency. Ordo's key goes in PrivateNote ("ordo-key: <key>"), which QuickBooks stores, never
 * prints, and keeps through edits; but its query cannot filter on PrivateNote. So a try that is not
 * the first queries the transactions of the same customer (vendor) and date — CustomerRef and TxnDate
 * are filterable — and compares the note's key exactly. On top of that every create carries Intuit's
 * requestid, which answers a repeated request with the stored answer of the first instead of
 * creating again; that covers even a company whose numbering or dates changed in between. The
 * requestid is a hash of the key and the body: Intuit replays the first answer whatever it was, and a
 * refusal replayed forever would make the Retry button useless after the tenant fixed QuickBooks.
 * Intuit does not say how long it remembers a requestid, so it is never the only safeguard.
 */

const rateOverride = z.string().min(1).max(100).optional();

const options = z.object({
  clientId: z.string().default(''),
  clientSecret: z.string().default(''),
  authorizeUrl: z.url().default('https://appcenter.intuit.com/connect/oauth2'),
  tokenUrl: z.url().default('https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer'),
  /** Production; the sandbox is https://sandbox-quickbooks.api.intuit.com. */
  apiBaseUrl: z.url().default('https://quickbooks.api.intuit.com'),
  scope: z.string().default('com.intuit.quickbooks.accounting'),
  /** Minor versions 1–74 are no longer served (Intuit, 1 August 2025). */
  minorVersion: z.number().int().min(75).default(75),
  /** Intuit throttles at 500 requests per minute per realm… */
  requestsPerMinute: z.number().int().positive().default(500),
  /** …the window of that limit (only tests shorten it)… */
  ratePeriodMs: z.number().int().positive().default(60_000),
  /** …and at 10 concurrent requests per app and realm. */
  maxConcurrent: z.number().int().positive().default(10),
  feeItemName: z.string().min(1).max(100).default('Services'),
  freeRowItemName: z.string().min(1).max(100).default('Services'),
  /** TaxCode names to use instead of the ones found by rate (for a company with several per rate). */
  taxCodes: z
    .object({ '25': rateOverride, '12': rateOverride, '6': rateOverride, '0': rateOverride, reverse: rateOverride })
    .default({}),
  timeoutMs: z.number().int().positive().default(30_000),
});

export type QuickBooksOptions = z.infer<typeof options>;
type Rec = Record<string, unknown>;
type Rate = '25' | '12' | '6' | '0';

/** Field lengths QuickBooks enforces (a longer value is refused with 2050). */
export const QBO_LIMITS = {
  displayName: 500,
  itemName: 100,
  docNumber: 21,
  privateNote: 4000,
  customerMemo: 1000,
  description: 4000,
  requestId: 50,
} as const;

const KEY_MARK = 'ordo-key:';
/** Our limiter books a request when it leaves, Intuit counts it when it arrives: a little slack. */
const RATE_SLACK_MS = 250;
const REVERSE_NAME = /reverse|omvänd|\bRC\b/i;

const nonEmpty = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';
const cut = (v: string, max: number) => (v.length > max ? v.slice(0, max) : v);
/** QuickBooks names cannot hold a colon (the sub-item separator), tab or newline. */
const qboName = (v: string, max: number) => cut(v.replace(/[:\t\r\n]+/g, ' ').trim(), max);
/** A string literal in Intuit's query language (quotes escaped with a backslash). */
const lit = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export const customerDisplayName = (c: Pick<ErpCustomer, 'name' | 'customerNumber'>) =>
  qboName(`${c.name} (${c.customerNumber})`, QBO_LIMITS.displayName);
export const vendorDisplayName = (s: Pick<ErpSupplier, 'name' | 'supplierNumber'>) =>
  qboName(`${s.name} (${s.supplierNumber})`, QBO_LIMITS.displayName);
export const itemName = (articleNumber: string) => qboName(articleNumber, QBO_LIMITS.itemName);

/** The Fault's first error as "Message: Detail"; also the lower-case 401 body and OAuth's errors. */
export function quickbooksMessage(body: unknown, text: string): string | null {
  if (body && typeof body === 'object') {
    const b = body as Rec;
    const f = (b.Fault ?? b.fault) as Rec | undefined;
    const errors = (f?.Error ?? f?.error) as Rec[] | undefined;
    const e = errors?.[0];
    if (e) {
      const message = String(e.Message ?? e.message ?? '');
      const detail = String(e.Detail ?? e.detail ?? '');
      const joined = detail && detail !== message ? (message ? `${message}: ${detail}` : detail) : message;
      if (joined) return joined;
    }
    for (const k of ['error_description', 'error', 'message'])
      if (typeof b[k] === 'string' && b[k]) return b[k] as string;
  }
  return text ? text.slice(0, 500) : null;
}

function faultCode(body: unknown): string | null {
  const f = ((body as Rec | null)?.Fault ?? (body as Rec | null)?.fault) as Rec | undefined;
  const e = ((f?.Error ?? f?.error) as Rec[] | undefined)?.[0];
  const code = e?.code;
  return code === undefined || code === null ? null : String(code);
}

/** The requestid for a create: the same for the same key and body on every try, within Intuit's 50. */
export function requestId(idempotencyKey: string, body: unknown): string {
  return createHash('sha256')
    .update(idempotencyKey)
    .update('\n')
    .update(JSON.stringify(body))
    .digest('base64url')
    .slice(0, 43);
}

/** The note a transaction carries: Ordo's words, then the key on a line of its own. */
const privateNote = (lines: (string | null)[], key: string) =>
  cut([...lines.filter(nonEmpty), `${KEY_MARK} ${key}`].join('\n'), QBO_LIMITS.privateNote);
const carriesKey = (txn: Rec, key: string) =>
  String(txn.PrivateNote ?? '')
    .split('\n')
    .some((line) => line.trim() === `${KEY_MARK} ${key}`);

/** Qty, UnitPrice and Amount for a row: QuickBooks checks Amount = Qty × UnitPrice to the cent. */
export function linePricing(row: Pick<ErpInvoiceRow, 'amount' | 'price' | 'total' | 'discount'>): {
  Qty: number;
  UnitPrice: number;
  Amount: number;
} {
  const total = round(row.total, 2);
  const exact = (qty: string, unit: string) => compare(round(mul(qty, unit), 2), total) === 0;
  const discounted = row.discount && !isZero(row.discount.value);
  if (!discounted && exact(row.amount, row.price))
    return { Qty: toNumber(row.amount), UnitPrice: toNumber(row.price), Amount: toNumber(total) };
  if (!isZero(row.amount)) {
    const unit = formatTrimmed(divide(total, row.amount, 6), 6);
    if (exact(row.amount, unit))
      return { Qty: toNumber(row.amount), UnitPrice: toNumber(unit), Amount: toNumber(total) };
  }
  return { Qty: 1, UnitPrice: toNumber(total), Amount: toNumber(total) };
}

/** A counting semaphore per key: Intuit refuses more than 10 requests in flight per app and realm. */
const inFlight = new Map<string, { running: number; waiting: (() => void)[] }>();
async function withSlot<T>(key: string, max: number, fn: () => Promise<T>): Promise<T> {
  let gate = inFlight.get(key);
  if (!gate) inFlight.set(key, (gate = { running: 0, waiting: [] }));
  while (gate.running >= max) await new Promise<void>((r) => gate!.waiting.push(r));
  gate.running += 1;
  try {
    return await fn();
  } finally {
    gate.running -= 1;
    gate.waiting.shift()?.();
    if (!gate.running && !gate.waiting.length) inFlight.delete(key);
  }
}

interface Api {
  query(sql: string): Promise<Rec[]>;
  queryAll(entity: string, where?: string): Promise<Rec[]>;
  read(entity: string, id: string): Promise<Rec | null>;
  post(entity: string, body: Rec, requestid?: string): Promise<Rec>;
  get(path: string): Promise<Rec>;
}

type TaxCodes = Partial<Record<Rate | 'reverse', string>>;

function create(o: QuickBooksOptions): ErpProvider {
  const apiBase = o.apiBaseUrl.replace(/\/+$/, '');
  const basic = `Basic ${Buffer.from(`${o.clientId}:${o.clientSecret}`).toString('base64')}`;
  const refusalCode = (status: number): ErpErrorCode =>
    status === 401 || status === 403 ? 'ERP_AUTH_FAILED' : 'INVOICE_WAS_NOT_CREATED_IN_ERP';

  /** The OAuth server is outside the API's throttle. */
  const oauthHttp = createErpHttp({
    key: 'quickbooks-oauth',
    timeoutMs: o.timeoutMs,
    vendorMessage: quickbooksMessage,
  });

  // A refused code or refresh token (invalid_grant) means: connect again. A 5xx stays retryable.
  // Intuit's refresh token may change on a refresh; the latest is always kept.
  const tokenRequest = (form: Record<string, string>, previous?: string) =>
    requestOAuthTokens(
      oauthHttp,
      { url: o.tokenUrl, headers: { authorization: basic }, form },
      { vendor: 'Intuit', previousRefreshToken: previous },
    );

  async function withApi<T>(session: ErpSession, fn: (api: Api) => Promise<T>): Promise<T> {
    const realmId = session.credentials?.realmId;
    if (typeof realmId !== 'string' || !realmId) throw new ErpError('ERP_NOT_CONNECTED');
    const limiterKey = `quickbooks:${realmId}`;
    return withAccessToken(
      session,
      (refreshToken) => tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken }, refreshToken),
      (token) => {
        const http = createErpHttp({
          // Intuit counts per realm (company): so does the limiter.
          key: limiterKey,
          rateLimit: { requests: o.requestsPerMinute, perMs: o.ratePeriodMs + RATE_SLACK_MS },
          timeoutMs: o.timeoutMs,
          vendorMessage: quickbooksMessage,
          refusalCode,
        });
        const call = (path: string, params: Record<string, string>, req: Omit<ErpRequest, 'url' | 'headers'> = {}) => {
          const q = new URLSearchParams({ ...params, minorversion: String(o.minorVersion) });
          const url = `${apiBase}/v3/company/${encodeURIComponent(realmId)}/${path}?${q.toString()}`;
          return withSlot(limiterKey, o.maxConcurrent, () =>
            http.request({ ...req, url, headers: { authorization: `Bearer ${token}` } }),
          );
        };
        const api: Api = {
          async query(sql) {
            const res = await call('query', { query: sql });
            const qr = ((res.body as Rec | null)?.QueryResponse ?? {}) as Rec;
            const list = Object.entries(qr).find(([, v]) => Array.isArray(v))?.[1] as Rec[] | undefined;
            return list ?? [];
          },
          async queryAll(entity, where) {
            const out: Rec[] = [];
            for (let start = 1; ; start += 1000) {
              const page = await api.query(
                `select * from ${entity}${where ? ` where ${where}` : ''} startposition ${start} maxresults 1000`,
              );
              out.push(...page);
              if (page.length < 1000) return out;
            }
          },
          async read(entity, id) {
            const res = await call(`${entity.toLowerCase()}/${encodeURIComponent(id)}`, {}, { accept: [400, 404] });
            if (res.status === 200) return ((res.body as Rec | null)?.[entity] as Rec | undefined) ?? null;
            if (res.status === 404 || faultCode(res.body) === '610') return null;
            throw new ErpError(refusalCode(res.status), {
              status: res.status,
              vendorMessage: quickbooksMessage(res.body, res.text),
            });
          },
          async post(entity, body, requestid) {
            const res = await call(entity.toLowerCase(), requestid ? { requestid } : {}, {
              method: 'POST',
              json: body,
            });
            const out = (res.body as Rec | null)?.[entity] as Rec | undefined;
            if (!out)
              throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
                status: res.status,
                vendorMessage: quickbooksMessage(res.body, res.text) ?? `QuickBooks answered without a ${entity}`,
              });
            return out;
          },
          async get(path) {
            return ((await call(path, {})).body ?? {}) as Rec;
          },
        };
        return fn(api);
      },
    );
  }

  // --- lookups ------------------------------------------------------------------------------------

  /** The company's TaxCodes per Ordo rate, for sales or purchases. */
  async function taxCodes(api: Api, side: 'SalesTaxRateList' | 'PurchaseTaxRateList'): Promise<TaxCodes> {
    const [codes, rates] = await Promise.all([api.queryAll('TaxCode'), api.queryAll('TaxRate')]);
    const rateValue = new Map(rates.map((r) => [String(r.Id), Number(r.RateValue ?? 0)]));
    const out: TaxCodes = {};
    const named = (name: string | undefined) =>
      name ? codes.find((c) => String(c.Name).toLowerCase() === name.toLowerCase()) : undefined;
    const isReverse = (c: Rec) => REVERSE_NAME.test(`${String(c.Name ?? '')} ${String(c.Description ?? '')}`);
    for (const rate of ['25', '12', '6', '0'] as const) {
      const chosen =
        named(o.taxCodes[rate]) ??
        codes.find((c) => {
          const details = ((c[side] as Rec | undefined)?.TaxRateDetail as Rec[] | undefined) ?? [];
          if (!details.length || isReverse(c)) return false;
          const sum = details.reduce((s, d) => s + (rateValue.get(String((d.TaxRateRef as Rec).value)) ?? NaN), 0);
          return sum === Number(rate);
        });
      if (chosen) out[rate] = String(chosen.Id);
    }
    const reverse = named(o.taxCodes.reverse) ?? codes.find(isReverse);
    if (reverse) out.reverse = String(reverse.Id);
    return out;
  }

  function codeFor(codes: TaxCodes, which: Rate | 'reverse'): { value: string } {
    const id = codes[which];
    if (!id)
      throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
        vendorMessage:
          which === 'reverse'
            ? 'QuickBooks has no reverse-charge VAT code (a TaxCode named "reverse charge"); add one or name it in the plugin options'
            : `QuickBooks has no VAT code for ${which} %; set up VAT in QuickBooks (a US company keeps sales tax, not VAT)`,
      });
    return { value: id };
  }

  /** An account by its number (AcctNum); null when QuickBooks has none. */
  async function accountByNumber(api: Api, number: string, cache: Map<string, string | null>): Promise<string | null> {
    if (!cache.has(number)) {
      const [found] = await api.query(`select * from Account where AcctNum = ${lit(number)}`);
      cache.set(number, found ? String(found.Id) : null);
    }
    return cache.get(number)!;
  }

  /** The income account for new items: the one chosen in Settings → ERP, else the first income account. */
  async function incomeAccount(api: Api, number: string | undefined, cache: Map<string, string | null>) {
    const chosen = nonEmpty(number) ? await accountByNumber(api, number, cache) : null;
    if (chosen) return chosen;
    const [first] = await api.query(`select * from Account where AccountType = 'Income' maxresults 1`);
    if (!first)
      throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
        vendorMessage: 'QuickBooks has no income account for the item',
      });
    return String(first.Id);
  }

  // A name list's query answers only active entries unless it says Active (Intuit's query docs), yet an
  // inactive entry keeps its name taken: a create of its namesake fails with 6240. So every look-up
  // by name includes the inactive ones, and one found is made active again.
  async function findByName(api: Api, entity: 'Customer' | 'Vendor', displayName: string): Promise<Rec | null> {
    const hits = await api.query(
      `select * from ${entity} where DisplayName = ${lit(displayName)} and Active IN (true,false)`,
    );
    return hits.find((h) => String(h.DisplayName) === displayName) ?? hits[0] ?? null;
  }

  async function itemByName(api: Api, name: string): Promise<Rec | null> {
    const hits = await api.query(`select * from Item where Name = ${lit(name)} and Active IN (true,false)`);
    return hits.find((h) => String(h.Name) === name) ?? hits[0] ?? null;
  }

  /** An inactive item made active again: a full update of what QuickBooks holds, Active set. */
  async function activeItem(api: Api, item: Rec): Promise<Rec> {
    if (item.Active !== false) return item;
    const { MetaData: _meta, FullyQualifiedName: _fqn, domain: _domain, sparse: _sparse, ...writable } = item;
    return api.post('Item', { ...writable, Active: true });
  }

  /**
   * Whether QuickBooks takes Ordo's invoice number (Preferences.SalesFormsPrefs.CustomTxnNumbers).
   * Intuit's Invoice.DocNumber: "If Preferences:CustomTxnNumber is false then do not send a value as
   * it can lead to unwanted duplicates" — QuickBooks numbers the invoice itself then.
   */
  async function customTxnNumbers(api: Api): Promise<boolean> {
    const prefs = (await api.get('preferences')).Preferences as Rec | undefined;
    return (prefs?.SalesFormsPrefs as Rec | undefined)?.CustomTxnNumbers === true;
  }

  /** Brings a card up to date with a sparse update (only what changed, with its SyncToken). */
  async function syncCard(api: Api, entity: 'Customer' | 'Vendor', existing: Rec, wanted: Rec): Promise<void> {
    const changed = Object.fromEntries(
      Object.entries(wanted).filter(([k, v]) => JSON.stringify(existing[k] ?? null) !== JSON.stringify(v)),
    );
    // QuickBooks answers with Id/domain inside nested objects; compare what we send, field by field.
    for (const [k, v] of Object.entries(changed))
      if (v && typeof v === 'object' && existing[k] && typeof existing[k] === 'object') {
        const e = existing[k] as Rec;
        if (Object.entries(v as Rec).every(([kk, vv]) => e[kk] === vv)) delete changed[k];
      }
    if (Object.keys(changed).length)
      await api.post(entity, { Id: existing.Id, SyncToken: existing.SyncToken, sparse: true, ...changed });
  }

  function contactCard(c: {
    displayName: string;
    name: string;
    company: boolean;
    email: string | null;
    phone: string | null;
    address: ErpCustomer['address'];
  }): Rec {
    const card: Rec = { DisplayName: c.displayName };
    if (c.company) card.CompanyName = cut(c.name, 100);
    if (nonEmpty(c.email)) card.PrimaryEmailAddr = { Address: c.email.trim() };
    if (nonEmpty(c.phone)) card.PrimaryPhone = { FreeFormNumber: cut(c.phone, 30) };
    const a = c.address;
    if (nonEmpty(a.street) || nonEmpty(a.postIndex) || nonEmpty(a.city))
      card.BillAddr = Object.fromEntries(
        Object.entries({ Line1: a.street, PostalCode: a.postIndex, City: a.city }).filter(([, v]) => nonEmpty(v)),
      );
    return card;
  }

  async function ensureContact(
    session: ErpSession,
    entity: 'Customer' | 'Vendor',
    wanted: Rec,
    knownExternalId: string | null,
  ): Promise<string> {
    let created: string | null = null;
    return withApi(session, async (api) => {
      if (created) return created;
      // An inactive card (the known one, or a namesake) is taken and made active again: its name is
      // taken whether active or not, so a new card could not be made anyway (6240).
      let existing = knownExternalId ? await api.read(entity, knownExternalId) : null;
      existing ??= await findByName(api, entity, String(wanted.DisplayName));
      if (existing) {
        await syncCard(api, entity, existing, { ...wanted, Active: true });
        return String(existing.Id);
      }
      created = String((await api.post(entity, wanted)).Id);
      return created;
    });
  }

  /** The item a row without an article (fee, free row) goes on; made when the company lacks it. */
  async function namedItem(api: Api, name: string, account: string | undefined, cache: Map<string, string | null>) {
    const found = await itemByName(api, name);
    if (found) return String((await activeItem(api, found)).Id);
    const made = await api.post('Item', {
      Name: name,
      Type: 'Service',
      IncomeAccountRef: { value: await incomeAccount(api, account, cache) },
    });
    return String(made.Id);
  }

  async function invoiceBody(api: Api, session: ErpSession, invoice: ErpInvoice, key: string): Promise<Rec> {
    const codes = await taxCodes(api, 'SalesTaxRateList');
    const ownNumbers = await customTxnNumbers(api);
    const accounts = new Map<string, string | null>();
    const lines: Rec[] = [];
    let feeItem: string | null = null;
    let freeItem: string | null = null;
    for (const row of invoice.rows) {
      const description = cut(row.description, QBO_LIMITS.description);
      if (row.kind === 'text') {
        lines.push({ Description: description, DetailType: 'DescriptionOnly', DescriptionLineDetail: {} });
        continue;
      }
      let item = row.articleId || row.articleNumber ? row.externalArticleId : null;
      if (!item && row.kind === 'fee')
        item = feeItem ??= await namedItem(
          api,
          o.feeItemName,
          session.accounts.fee ?? session.accounts.sales['25'],
          accounts,
        );
      if (!item)
        item = freeItem ??= await namedItem(api, o.freeRowItemName, session.accounts.sales[row.vatPercent], accounts);
      const { Qty, UnitPrice, Amount } = linePricing(row);
      lines.push({
        ...(description ? { Description: description } : {}),
        Amount,
        DetailType: 'SalesItemLineDetail',
        SalesItemLineDetail: {
          ItemRef: { value: item },
          Qty,
          UnitPrice,
          TaxCodeRef: codeFor(codes, invoice.reverseVat ? 'reverse' : row.vatPercent),
          ...(invoice.deliveryDate ? { ServiceDate: invoice.deliveryDate } : {}),
        },
      });
    }
    // What the customer reads on the invoice: title, marking, their order number, the legal notes.
    const memo = [
      invoice.description,
      invoice.marking,
      invoice.customerOrderNumber,
      invoice.yourReference,
      ...invoice.notes,
    ]
      .filter(nonEmpty)
      .join('\n');
    return {
      CustomerRef: { value: invoice.customer.externalId ?? '' },
      // Without custom numbers QuickBooks numbers the invoice; Ordo's number stays in PrivateNote.
      ...(ownNumbers ? { DocNumber: cut(invoice.invoiceNr, QBO_LIMITS.docNumber) } : {}),
      TxnDate: invoice.invoiceDate,
      DueDate: invoice.dueDate,
      CurrencyRef: { value: invoice.currency },
      GlobalTaxCalculation: 'TaxExcluded',
      ...(nonEmpty(invoice.customer.email) ? { BillEmail: { Address: invoice.customer.email.trim() } } : {}),
      ...(memo ? { CustomerMemo: { value: cut(memo, QBO_LIMITS.customerMemo) } } : {}),
      PrivateNote: privateNote(
        [`Ordo ${invoice.invoiceNr}`, invoice.ourReference ? `Our reference: ${invoice.ourReference}` : null],
        key,
      ),
      Line: lines,
    };
  }

  const sent = (txn: Rec): ErpSentInvoice => ({
    externalId: String(txn.Id),
    externalInvoiceNr: txn.DocNumber === undefined || txn.DocNumber === null ? null : String(txn.DocNumber),
    state: 'success',
  });

  async function findTxn(api: Api, entity: 'Invoice' | 'Bill', party: string, date: string, key: string) {
    const ref = entity === 'Invoice' ? 'CustomerRef' : 'VendorRef';
    const hits = await api.query(
      `select * from ${entity} where ${ref} = ${lit(party)} and TxnDate = ${lit(date)} maxresults 1000`,
    );
    return hits.find((t) => carriesKey(t, key)) ?? null;
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
    auth: {
      type: 'oauth2',
      // without the app's client id and secret the vendor's sign-in cannot work: Settings → ERP says so
      missingOptions: (['clientId', 'clientSecret'] as const).filter((k) => !o[k].trim()),
      authorizeUrl({ redirectUri, state }) {
        const q = new URLSearchParams({
          client_id: o.clientId,
          response_type: 'code',
          scope: o.scope,
          redirect_uri: redirectUri,
          state,
        });
        return `${o.authorizeUrl}?${q.toString()}`;
      },
      async exchangeCode({ code, redirectUri, params }) {
        const realmId = params?.realmId;
        if (!nonEmpty(realmId))
          throw new ErpError('ERP_AUTH_FAILED', {
            vendorMessage: 'Intuit did not say which company was connected (realmId)',
          });
        const tokens = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
        return { ...tokens, realmId };
      },
    },

    testConnection(session) {
      return withApi(session, async (api) => {
        const body = await api.get(`companyinfo/${encodeURIComponent(String(session.credentials!.realmId))}`);
        const info = body.CompanyInfo as Rec | undefined;
        return { companyName: typeof info?.CompanyName === 'string' ? info.CompanyName : null };
      });
    },

    ensureCustomer(session, customer, knownExternalId) {
      const wanted = contactCard({
        displayName: customerDisplayName(customer),
        name: customer.name,
        company: customer.type === 'company',
        email: customer.email,
        phone: customer.phone,
        address: customer.address,
      });
      return ensureContact(session, 'Customer', wanted, knownExternalId);
    },

    ensureArticle(session, article, knownExternalId) {
      const name = itemName(article.articleNumber);
      let created: string | null = null;
      return withApi(session, async (api) => {
        if (created) return created;
        let existing = knownExternalId ? await api.read('Item', knownExternalId) : null;
        existing ??= await itemByName(api, name);
        // An existing item is left as the company keeps it (its texts and accounts are theirs), only
        // made active again when it was not: an invoice line on an inactive item is refused.
        if (existing) return String((await activeItem(api, existing)).Id);
        const codes = await taxCodes(api, 'SalesTaxRateList');
        const body: Rec = {
          Name: name,
          Sku: name,
          Description: cut(article.title, QBO_LIMITS.description),
          Type: article.isService ? 'Service' : 'NonInventory',
          UnitPrice: toNumber(article.price),
          IncomeAccountRef: { value: await incomeAccount(api, session.accounts.sales[article.vatPercent], new Map()) },
          ...(codes[article.vatPercent] ? { SalesTaxCodeRef: { value: codes[article.vatPercent] } } : {}),
        };
        created = String((await api.post('Item', body)).Id);
        return created;
      });
    },

    sendInvoice(session, invoice, idempotencyKey, { firstAttempt }) {
      if (invoice.taxReduction)
        return Promise.reject(
          new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
            vendorMessage: `QuickBooks has no ${invoice.taxReduction.kind} reduction; make this invoice in QuickBooks`,
          }),
        );
      const customerId = invoice.customer.externalId;
      if (!customerId)
        return Promise.reject(
          new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', { vendorMessage: 'the customer is not in QuickBooks' }),
        );
      // Survives withAccessToken running the call again after a refresh: never create twice.
      let created: ErpSentInvoice | null = null;
      return withApi(session, async (api) => {
        if (created) return created;
        if (!firstAttempt) {
          const found = await findTxn(api, 'Invoice', customerId, invoice.invoiceDate, idempotencyKey);
          if (found) return (created = sent(found));
        }
        const body = await invoiceBody(api, session, invoice, idempotencyKey);
        created = sent(await api.post('Invoice', body, requestId(idempotencyKey, body)));
        return created;
      });
    },

    readInvoice(session, externalId) {
      return withApi(session, async (api) => {
        const found = await api.read('Invoice', externalId);
        return found ? sent(found) : { externalId, externalInvoiceNr: null, state: 'unknown' as const };
      });
    },

    listArticles(session) {
      return withApi(session, async (api) => {
        const items = await api.queryAll('Item');
        return items.map((i) => ({
          externalId: String(i.Id),
          articleNumber: String(i.Name),
          title: String(i.Description ?? i.Name ?? ''),
          unit: null,
          price: i.UnitPrice === undefined || i.UnitPrice === null ? null : formatDecimal(String(i.UnitPrice), 2),
        }));
      });
    },

    ensureSupplier(session, supplier, knownExternalId) {
      const wanted = contactCard({
        displayName: vendorDisplayName(supplier),
        name: supplier.name,
        company: true,
        email: supplier.email,
        phone: supplier.phone,
        address: supplier.address,
      });
      return ensureContact(session, 'Vendor', wanted, knownExternalId);
    },

    async sendSupplierInvoice(session, invoice, idempotencyKey, { firstAttempt }) {
      // Before any request: a row without an account books nothing.
      const rowAccounts = supplierRowAccounts(invoice);
      const vendorId = invoice.supplier.externalId;
      if (!vendorId)
        throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', { vendorMessage: 'the supplier is not in QuickBooks' });
      let created: { externalId: string; externalNr: string | null } | null = null;
      return withApi(session, async (api) => {
        if (created) return created;
        if (!firstAttempt) {
          const found = await findTxn(api, 'Bill', vendorId, invoice.invoiceDate, idempotencyKey);
          if (found) return (created = { externalId: String(found.Id), externalNr: null });
        }
        const body = await billBody(api, invoice, rowAccounts, idempotencyKey);
        const bill = await api.post('Bill', body, requestId(idempotencyKey, body));
        // A bill has no number of QuickBooks' own: its DocNumber is the supplier's.
        created = { externalId: String(bill.Id), externalNr: null };
        return created;
      });
    },
  };

  async function billBody(api: Api, invoice: ErpSupplierInvoice, rowAccounts: string[], key: string): Promise<Rec> {
    const codes = await taxCodes(api, 'PurchaseTaxRateList');
    const cache = new Map<string, string | null>();
    const accountRef = async (number: string) => {
      const id = await accountByNumber(api, number, cache);
      if (!id)
        throw new ErpError('ERP_SUPPLIER_ACCOUNT_MISSING', {
          vendorMessage: `QuickBooks has no account numbered ${number}`,
        });
      return { value: id };
    };
    const lines: Rec[] = [];
    for (const [i, row] of invoice.rows.entries())
      lines.push({
        Description: cut(row.description, QBO_LIMITS.description),
        Amount: toNumber(round(row.amount, 2)),
        DetailType: 'AccountBasedExpenseLineDetail',
        AccountBasedExpenseLineDetail: {
          AccountRef: await accountRef(rowAccounts[i]!),
          TaxCodeRef: codeFor(codes, row.vatPercent),
          BillableStatus: 'NotBillable',
        },
      });
    // The supplier's invoice fee, when not already a row: on the supplier's account at 25 %.
    if (invoice.fee && !isZero(invoice.fee))
      lines.push({
        Description: 'Invoice fee',
        Amount: toNumber(round(invoice.fee, 2)),
        DetailType: 'AccountBasedExpenseLineDetail',
        AccountBasedExpenseLineDetail: {
          AccountRef: await accountRef(invoice.supplier.defaultAccount?.trim() || rowAccounts[0]!),
          TaxCodeRef: codeFor(codes, '25'),
          BillableStatus: 'NotBillable',
        },
      });
    return {
      VendorRef: { value: invoice.supplier.externalId ?? '' },
      DocNumber: cut(invoice.invoiceNumber, QBO_LIMITS.docNumber),
      TxnDate: invoice.invoiceDate,
      DueDate: invoice.dueDate,
      CurrencyRef: { value: invoice.currency },
      GlobalTaxCalculation: 'TaxExcluded',
      PrivateNote: privateNote(
        [
          `Invoice ${invoice.invoiceNumber}`,
          invoice.ocr ? `OCR ${invoice.ocr}` : null,
          invoice.ourReference ? `Our reference: ${invoice.ourReference}` : null,
          invoice.comments,
        ],
        key,
      ),
      Line: lines,
    };
  }
}

export default defineErpProvider({
  id: 'quickbooks',
  displayName: 'QuickBooks Online',
  erpKind: 'quickbooks',
  // what was checked against the vendor's documentation and what was not (issue 31; Settings → ERP)
  verification: { verified: ['quickbooks.schema'], unverified: ['quickbooks.requestid', 'quickbooks.vatCodes'] },
  options,
  create,
});
