import { createHash } from 'node:crypto';
import { z } from 'zod';
import { createErpHttp, ErpError, type ErpHttp, type ErpResponse } from '~/core/extension-points/erp-http';
import {
  defineErpProvider,
  ErpCustomerConflict,
  identityDigits,
  type ErpArticle,
  type ErpCustomer,
  type ErpCustomerConflictReason,
  type ErpInvoice,
  type ErpInvoiceRow,
  type ErpSentInvoice,
  type ErpSession,
} from '~/core/extension-points/erp-provider';
import { compare, divide, formatDecimal, mul, toNumber } from '~/core/pricing';

/*
 * Wint (wint.se): a bookkeeping service whose own economists keep the books; its customers invoice
 * from Wint's app. Wint publishes an HTTP API ("Superkoll API", https://superkollapi.wint.se, its
 * OpenAPI document at /swagger/v1/swagger.json; tests/fakes/wint.ts lists the sources). A company
 * connects it under Wint's Settings → Integrations → Custom integrations, which gives a username and
 * an API key, sent as HTTP Basic auth: those are the tenant's two fields in Settings → ERP.
 *
 * What Wint's model does not have, and how the plugin copes:
 * - no customer number: a customer is found by the id the mapping knew, else by its organisation
 *   number (OrgNumber filter; without one the VAT number), taken when the name agrees too; a private
 *   person by name and postcode. Several cards with the number, one under another name, or one with
 *   the name and no number stop with ErpCustomerConflict for the office (Settings → ERP). An update
 *   is a PUT of the whole card (CustomerPut): the card as Wint holds it with what Ordo owns changed,
 *   so what Ordo lacks or does not keep (delivery address, reference persons, settings) stays;
 * - no article number: the article's Text starts with Ordo's number ("DET-100 – Smoke detector"), which
 *   is how it is found again and listed; rows print Ordo's own text (OverriddenDescription);
 * - no row discount: a discounted row goes as its net unit price (row total ÷ quantity) when that is
 *   exact to the öre, else as one unit at the row total with the quantity in the text;
 * - no text rows and no fee field: the work order's title, the marking, text rows, the customer's order
 *   number and the reverse-VAT legal text go into Notes; the fee is a free row;
 * - no free row: InvoiceRow.ArticleId is a non-nullable int32, so a row without an Ordo article (the
 *   fee, a free row) names one article the plugin keeps for them ("ORDO-FRI – Fri rad", found by its
 *   Text like any other) with its own text, price and VAT as overrides;
 * - no filter on the external reference: the idempotency key goes in ExternalInvoiceReferences
 *   ({SystemName: "Ordo", ExternalId: key}) and a retry lists the customer's invoices and compares it.
 *
 * POST /api/Invoice makes a draft (NotSent, no SerialNumber). With `sendMethod: "MarkAsSent"` the plugin
 * sends it at once with Wint's MarkAsSent (booked, numbered, nothing mailed: Ordo sends the invoice);
 * by default it stays a draft for the company to send from Wint, and externalInvoiceNr stays null.
 *
 * Supplier invoices are not booked: Wint's IncomingInvoicePost takes the invoice as an attachment with
 * payment details for Wint's economists to book, has no cost rows or accounts, and suppliers cannot be
 * created over the API (only read and updated).
 */

type Json = Record<string, unknown>;

const PAGE_SIZE = 100;
const SYSTEM_NAME = 'Ordo';
/** Separates Ordo's article number from its title in a Wint article's Text. */
const NUMBER_SEPARATOR = ' – ';
/** The article rows without an Ordo article name (ArticleId cannot be left out). */
export const FREE_ROW_ARTICLE = { number: 'ORDO-FRI', title: 'Fri rad' } as const;
/** The writable fields of a Wint customer (the OpenAPI's CustomerPut); a PUT sends these. */
const CUSTOMER_PUT_FIELDS = [
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
] as const;
/** The address lines Ordo owns of a CustomerAddress. */
type AddressLine = 'Street1' | 'ZipCode' | 'City';

const options = z.object({
  apiBaseUrl: z.url().default('https://superkollapi.wint.se'),
  /**
   * Wint publishes no rate limit; this is a courtesy limit per API user (the username), which an
   * operator may lower or raise. Tests lower the window.
   */
  requestsPerWindow: z.number().int().positive().default(10),
  windowMs: z.number().int().positive().default(1000),
  timeoutMs: z.number().int().positive().default(30_000),
  /** Draft: the invoice stays a draft in Wint; MarkAsSent: Wint books and numbers it, mailing nothing. */
  sendMethod: z.enum(['Draft', 'MarkAsSent']).default('Draft'),
  /** The RutRotWorkType (GET /api/Invoice/RutRotWorkTypes) ROT and RUT labour rows are reported as, by name; the first of its kind when unset. */
  rotWorkTypeName: z.string().nullable().default(null),
  rutWorkTypeName: z.string().nullable().default(null),
});

export type WintOptions = z.infer<typeof options>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const digits = (v: string | null | undefined) => (v ?? '').replace(/\D/g, '');
const same = (a: unknown, b: unknown) =>
  String(a ?? '')
    .trim()
    .toLowerCase() ===
  String(b ?? '')
    .trim()
    .toLowerCase();
const cut = (v: string | null | undefined, max: number) => (v ? v.slice(0, max) : null);
const dateTime = (date: string) => `${date}T00:00:00`;
const query = (params: Record<string, string | number | undefined>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** Wint answers errors as ASP.NET ProblemDetails: detail or title, and per-field errors on a 400. */
export function wintMessage(body: unknown, text: string): string | null {
  if (body && typeof body === 'object') {
    const b = body as Json;
    const parts: string[] = [];
    const main = str(b.detail) ?? str(b.title) ?? str(b.Message) ?? str(b.message);
    if (main) parts.push(main);
    if (b.errors && typeof b.errors === 'object')
      for (const [field, list] of Object.entries(b.errors as Json))
        for (const m of Array.isArray(list) ? list : [list]) if (str(m)) parts.push(`${field}: ${String(m)}`);
    if (parts.length) return parts.join('; ');
  }
  return text ? text.slice(0, 500) : null;
}

/** The Text a Wint article carries for an Ordo article, and back. */
export const articleText = (number: string, title: string) => `${number}${NUMBER_SEPARATOR}${title}`;
export function articleNumberOf(article: Json): string {
  const text = String(article.Text ?? '');
  const at = text.indexOf(NUMBER_SEPARATOR);
  // An article made in Wint itself has no Ordo number: it is known by Wint's id.
  return at > 0 ? text.slice(0, at) : String(article.Id);
}

/** The organisation number as Wint's examples print it (123456-7890), and as bare digits. */
function orgNumberForms(digits: string): string[] {
  return digits.length === 10 ? [`${digits.slice(0, 6)}-${digits.slice(6)}`, digits] : [digits];
}
const vatOf = (v: unknown) =>
  String(v ?? '')
    .replace(/[\s.-]/g, '')
    .toUpperCase();

/**
 * The PUT body of an existing card: its writable fields as Wint holds them, and what Ordo owns
 * where Ordo has a value — name, e-mail, phone, payment terms, the billing address's lines; the
 * identity (OrgNumber, VatNumber, Type) only where Wint's card has none. Null when nothing changes.
 */
export function customerUpdate(existing: Json, customer: ErpCustomer): Json | null {
  const card: Json = Object.fromEntries(
    CUSTOMER_PUT_FIELDS.filter((k) => existing[k] !== undefined).map((k) => [k, existing[k]]),
  );
  const next: Json = { ...card };
  const isPrivate = customer.type === 'private';
  const set = (k: string, v: unknown) => {
    if (v !== null && v !== undefined && v !== '') next[k] = v;
  };
  set('Name', cut(customer.name, 200));
  set('EmailAddress', customer.email);
  set('PhoneNumber', customer.phone);
  set('PaymentTerms', customer.paymentTermDays);
  if (!str(card.OrgNumber) && !isPrivate) set('OrgNumber', customer.organizationalNumber);
  if (!str(card.VatNumber) && !isPrivate && customer.vatNumber) {
    set('VatNumber', customer.vatNumber);
    next.IncludeVatNumberOnInvoice = true;
  }
  if (!card.Type) next.Type = isPrivate ? 'PrivatePerson' : 'Company';
  const address = { ...((card.BillingAddress as Json | undefined) ?? {}) };
  const setLine = (k: AddressLine, v: string | null, max: number) => {
    const value = cut(v, max);
    if (value) address[k] = value;
  };
  setLine('Street1', customer.address.street, 200);
  setLine('ZipCode', customer.address.postIndex, 12);
  setLine('City', customer.address.city, 200);
  // City is required by Wint even when neither side has one
  if (!str(address.City)) address.City = '-';
  next.BillingAddress = address;
  return JSON.stringify(next) === JSON.stringify(card) ? null : next;
}

const isHours = (unit: string | null) =>
  !!unit && ['h', 'tim', 'timme', 'timmar', 'hour', 'hours'].includes(unit.trim().toLowerCase());

/** Quantity and unit price for a row: Wint rows have no discount, so the net price carries it. */
export function rowPricing(row: ErpInvoiceRow): { quantity: number; unitPrice: number; note: string | null } {
  if (!row.discount || compare(row.amount, '0') === 0)
    return { quantity: toNumber(row.amount), unitPrice: toNumber(row.price), note: null };
  const net = divide(row.total, row.amount, 2);
  if (compare(mul(net, row.amount), row.total) === 0)
    return { quantity: toNumber(row.amount), unitPrice: toNumber(net), note: null };
  return {
    quantity: 1,
    unitPrice: toNumber(row.total),
    note: `${formatDecimal(row.amount, 2)} ${row.unit ?? ''} à ${formatDecimal(row.price, 2)}`.replace(/\s+/g, ' '),
  };
}

export default defineErpProvider({
  id: 'wint',
  displayName: 'Wint',
  erpKind: 'wint',
  // what was checked against the vendor's documentation and what was not (issue 31; Settings → ERP)
  verification: { verified: ['wint.openapi'], unverified: ['wint.rateLimit', 'wint.texts'] },
  options,
  create(o) {
    // We count a request when it leaves, a server when it arrives: the margin absorbs the difference
    // in network delay between the first and the last request of a full window.
    const rateLimit = {
      requests: o.requestsPerWindow,
      perMs: o.windowMs + Math.max(250, Math.round(o.windowMs * 0.02)),
    };

    interface Api {
      request(method: 'GET' | 'POST' | 'PUT', path: string, json?: unknown, accept?: number[]): Promise<ErpResponse>;
      get(path: string): Promise<Json>;
      find(path: string): Promise<Json | null>;
      all(path: string, params?: Record<string, string | number | undefined>): Promise<Json[]>;
    }

    function apiFor(session: ErpSession): Api {
      const username = str(session.credentials?.username);
      const apiKey = str(session.credentials?.apiKey);
      if (!username || !apiKey) throw new ErpError('ERP_NOT_CONNECTED');
      const http: ErpHttp = createErpHttp({
        // Wint's API user is the integration the company made; the limit is kept per user (a hash).
        key: `wint:${createHash('sha256').update(username).digest('hex').slice(0, 16)}`,
        rateLimit,
        timeoutMs: o.timeoutMs,
        vendorMessage: wintMessage,
      });
      const authorization = `Basic ${Buffer.from(`${username}:${apiKey}`).toString('base64')}`;
      const api: Api = {
        request: (method, path, json, accept) =>
          http.request({ method, url: `${o.apiBaseUrl}${path}`, headers: { authorization }, json, accept }),
        async get(path) {
          return ((await api.request('GET', path)).body ?? {}) as Json;
        },
        async find(path) {
          const res = await api.request('GET', path, undefined, [404]);
          return res.status === 404 ? null : ((res.body ?? {}) as Json);
        },
        async all(path, params = {}) {
          const rows: Json[] = [];
          for (let page = 1; ; page++) {
            const b = await api.get(`${path}?${query({ ...params, Page: page, NumPerPage: PAGE_SIZE })}`);
            const items = Array.isArray(b.Items) ? (b.Items as Json[]) : [];
            rows.push(...items);
            if (items.length < PAGE_SIZE || rows.length >= Number(b.TotalItems ?? 0)) return rows;
          }
        },
      };
      return api;
    }

    const idOf = (v: string | null) => (v && /^\d+$/.test(v) ? v : null);

    function customerBody(customer: ErpCustomer): Json {
      const isPrivate = customer.type === 'private';
      return {
        Name: cut(customer.name, 200),
        Type: isPrivate ? 'PrivatePerson' : 'Company',
        OrgNumber: isPrivate ? null : customer.organizationalNumber,
        VatNumber: isPrivate ? null : customer.vatNumber,
        IncludeVatNumberOnInvoice: !isPrivate && !!customer.vatNumber,
        EmailAddress: customer.email,
        PhoneNumber: customer.phone,
        PaymentTerms: customer.paymentTermDays,
        Language: 'SV',
        BillingAddress: {
          Street1: cut(customer.address.street, 200),
          ZipCode: cut(customer.address.postIndex, 12),
          // City is required by Wint even when Ordo has none.
          City: cut(customer.address.city, 200) ?? '-',
          CountryCode: 'SE',
        },
      };
    }

    const candidateOf = (c: Json) => ({
      externalId: String(c.Id),
      number: null,
      name: String(c.Name ?? ''),
      organizationalNumber: str(c.OrgNumber),
      vatNumber: str(c.VatNumber),
    });
    function conflict(reason: ErpCustomerConflictReason, cards: Json[]): ErpCustomerConflict {
      const said = cards
        .map((c) =>
          [
            `Id ${String(c.Id)}`,
            `Name "${String(c.Name ?? '')}"`,
            str(c.OrgNumber) && `OrgNumber ${String(c.OrgNumber)}`,
          ]
            .filter(Boolean)
            .join(', '),
        )
        .join('; ');
      return new ErpCustomerConflict(reason, cards.map(candidateOf), `Wint: ${said}`);
    }

    /** Wint's cards with the customer's organisation number (else its VAT number), compared exactly. */
    async function byIdentity(api: Api, customer: ErpCustomer): Promise<Json[] | null> {
      const org = identityDigits(customer.organizationalNumber);
      if (org) {
        for (const form of orgNumberForms(org)) {
          const hits = (await api.all('/api/Customer', { OrgNumber: form })).filter(
            (c) => identityDigits(c.OrgNumber as string) === org,
          );
          if (hits.length) return hits;
        }
        return [];
      }
      const vat = vatOf(customer.vatNumber);
      if (vat)
        return (await api.all('/api/Customer', { VatNumber: customer.vatNumber!.trim() })).filter(
          (c) => vatOf(c.VatNumber) === vat,
        );
      return null;
    }

    /**
     * Wint's card for a customer met without a mapping, or null when Wint has none: by organisation
     * (or VAT) number, taken when the name agrees; a private person by name and postcode. Throws
     * ErpCustomerConflict when Wint's cards leave it unclear.
     */
    async function matchCustomer(api: Api, customer: ErpCustomer): Promise<Json | null> {
      const isPrivate = customer.type === 'private';
      const type = isPrivate ? 'PrivatePerson' : 'Company';
      if (!isPrivate) {
        const hits = await byIdentity(api, customer);
        if (hits && hits.length) {
          const named = hits.filter((c) => same(c.Name, customer.name));
          if (named.length === 1) return named[0]!;
          throw conflict(hits.length > 1 ? 'several_matches' : 'other_name', hits);
        }
      }
      const byName = (await api.all('/api/Customer', { Name: customer.name })).filter(
        (c) => String(c.Type) === type && same(c.Name, customer.name),
      );
      if (isPrivate) {
        const here = byName.filter(
          (c) =>
            digits((c.BillingAddress as Json | undefined)?.ZipCode as string) === digits(customer.address.postIndex),
        );
        if (here.length > 1) throw conflict('several_matches', here);
        return here[0] ?? null;
      }
      // a card of the same name with another organisation number is another company; one without
      // any may be this one, which Wint cannot tell
      const unnumbered = byName.filter((c) => !str(c.OrgNumber) && !str(c.VatNumber));
      if (unnumbered.length) throw conflict('same_name', unnumbered);
      return null;
    }

    async function ensureCustomer(
      api: Api,
      customer: ErpCustomer,
      knownExternalId: string | null,
      createNew = false,
    ): Promise<string> {
      let existing: Json | null = null;
      if (!createNew) {
        existing = idOf(knownExternalId) ? await api.find(`/api/Customer/${knownExternalId}`) : null;
        existing ??= await matchCustomer(api, customer);
      }
      if (existing?.Id != null) {
        // The core calls again when Ordo's customer changed: the card with what Ordo owns brought up to date.
        const update = customerUpdate(existing, customer);
        if (update) await api.request('PUT', `/api/Customer/${String(existing.Id)}`, update);
        return String(existing.Id);
      }
      const created = await api.request('POST', '/api/Customer', customerBody(customer));
      return String(created.body);
    }

    /** The article rows without an Ordo article name (found by its Text, created once). */
    async function freeRowArticle(api: Api): Promise<number> {
      const { number, title } = FREE_ROW_ARTICLE;
      const found = (await api.all('/api/Article', { Name: `${number}${NUMBER_SEPARATOR}` })).find(
        (a) => articleNumberOf(a) === number && a.Inactive !== true,
      );
      if (found?.Id != null) return Number(found.Id);
      const created = await api.request('POST', '/api/Article', {
        Text: articleText(number, title),
        UnitPrice: 0,
        Vat: 25,
      });
      return Number(created.body);
    }

    async function ensureArticle(api: Api, article: ErpArticle, knownExternalId: string | null): Promise<string> {
      const known = idOf(knownExternalId) ? await api.find(`/api/Article/${knownExternalId}`) : null;
      if (known?.Id != null) return String(known.Id);
      const text = articleText(article.articleNumber, article.title);
      // Wint's Name filter matches parts of the text: the number is compared exactly.
      const found = (await api.all('/api/Article', { Name: `${article.articleNumber}${NUMBER_SEPARATOR}` })).find(
        (a) => articleNumberOf(a) === article.articleNumber,
      );
      if (found?.Id != null) return String(found.Id);
      const created = await api.request('POST', '/api/Article', {
        Text: text,
        UnitPrice: toNumber(article.price),
        Vat: toNumber(article.vatPercent),
      });
      return String(created.body);
    }

    async function workTypeId(api: Api, kind: 'ROT' | 'RUT'): Promise<number> {
      const wanted = kind === 'ROT' ? o.rotWorkTypeName : o.rutWorkTypeName;
      const types = await api.all('/api/Invoice/RutRotWorkTypes', { Type: kind });
      const type = wanted ? types.find((t) => same(t.Name, wanted)) : types[0];
      if (type?.Id == null)
        throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
          vendorMessage: `Wint has no ${kind} work type${wanted ? ` named "${wanted}"` : ''}`,
        });
      return Number(type.Id);
    }

    async function invoiceBody(api: Api, invoice: ErpInvoice, key: string, customerId: string): Promise<Json> {
      const tr = invoice.taxReduction;
      if (tr?.kind === 'green')
        throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
          vendorMessage: 'Wint takes ROT and RUT, not the green technology reduction; make this invoice in Wint',
        });
      if (tr && tr.persons.length > 1)
        throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
          vendorMessage:
            'Wint takes one person number per ROT/RUT invoice (CustomerPersonNumber); this invoice splits the reduction between several, so make it in Wint',
        });
      const houseWorkType = tr ? await workTypeId(api, tr.kind) : null;

      const needsFree = invoice.rows.some((r) => r.kind !== 'text' && !r.externalArticleId);
      const freeArticle = needsFree ? await freeRowArticle(api) : null;

      const notes: string[] = [];
      if (invoice.description) notes.push(invoice.description);
      if (invoice.marking) notes.push(`Märkning: ${invoice.marking}`);
      if (invoice.customerOrderNumber) notes.push(`Er ordernr: ${invoice.customerOrderNumber}`);
      const rows: Json[] = [];
      for (const row of invoice.rows) {
        if (row.kind === 'text') {
          if (row.description.trim()) notes.push(row.description.trim());
          continue;
        }
        const { quantity, unitPrice, note } = rowPricing(row);
        const text = note ? `${row.description} (${note})` : row.description;
        const vat = invoice.reverseVat ? 0 : toNumber(row.vatPercent);
        const houseWork = !!tr && row.houseWork;
        const wintRow: Json = {
          OrderIndex: rows.length,
          Quantity: quantity,
          Rot: houseWork && tr!.kind === 'ROT',
          Rut: houseWork && tr!.kind === 'RUT',
        };
        // Wint takes the article's own text, price and VAT unless overridden; a row without an Ordo
        // article names the free-row article and overrides all three
        Object.assign(wintRow, {
          ArticleId: row.externalArticleId
            ? /^\d+$/.test(row.externalArticleId)
              ? Number(row.externalArticleId)
              : row.externalArticleId
            : freeArticle,
          OverriddenDescription: cut(text, 500),
          OverriddenUnitPrice: unitPrice,
          OverriddenVat: vat,
        });
        if (houseWork) {
          wintRow.HouseWorkTypeId = houseWorkType;
          // Hours are reported to the tax agency, so only a quantity in hours is sent as hours.
          if (isHours(row.unit)) wintRow.HouseWorkHours = toNumber(row.amount);
        }
        rows.push(wintRow);
      }
      for (const note of invoice.notes) if (note.trim()) notes.push(note.trim());

      const body: Json = {
        CustomerId: Number(customerId),
        Currency: invoice.currency,
        Language: 'SV',
        PostingDate: dateTime(invoice.invoiceDate),
        DueDate: dateTime(invoice.dueDate),
        DeliveryDate: dateTime(invoice.deliveryDate ?? invoice.invoiceDate),
        ContactPerson: cut(invoice.ourReference, 200),
        Notes: notes.join('\n') || null,
        Rows: rows,
        ExternalInvoiceReferences: [{ SystemName: SYSTEM_NAME, ExternalId: key }],
        InvoiceHouseWorkType: tr ? tr.kind : 'None',
      };
      if (invoice.yourReference) body.CustomerReference = { ReferenceName: cut(invoice.yourReference, 200) };
      if (tr) {
        body.CustomerPersonNumber = tr.persons[0]?.personId ?? invoice.customer.personId;
        if (tr.kind === 'ROT') {
          body.InvoiceRotPropertyType = tr.housingAssociationOrgNr ? 'Condominium' : 'House';
          body.PropertyDesignation = tr.propertyDesignation;
          if (tr.housingAssociationOrgNr) body.TenantsOwnerAssociationOrgNumber = tr.housingAssociationOrgNr;
        }
      }
      return body;
    }

    const sentFrom = (inv: Json): ErpSentInvoice => ({
      externalId: String(inv.Id),
      externalInvoiceNr: inv.SerialNumber != null && Number(inv.SerialNumber) > 0 ? String(inv.SerialNumber) : null,
      state: 'success',
    });

    /** Sends a draft with MarkAsSent when configured, and answers the invoice as Wint now holds it. */
    async function settle(api: Api, id: string): Promise<ErpSentInvoice> {
      let inv = await api.get(`/api/Invoice/${id}`);
      if (o.sendMethod === 'MarkAsSent' && inv.Status === 'NotSent') {
        await api.request('POST', `/api/Invoice/Send/${id}`, { InvoiceSendMethod: 'MarkAsSent' });
        inv = await api.get(`/api/Invoice/${id}`);
      }
      return sentFrom(inv);
    }

    async function findByKey(api: Api, customerId: string, key: string): Promise<Json | null> {
      const invoices = await api.all('/api/Invoice', { CustomerId: customerId });
      return (
        invoices.find(
          (i) =>
            Array.isArray(i.ExternalInvoiceReferences) &&
            (i.ExternalInvoiceReferences as Json[]).some((r) => r.SystemName === SYSTEM_NAME && r.ExternalId === key),
        ) ?? null
      );
    }

    return {
      capabilities: {
        sendInvoices: true,
        invoiceFile: false,
        readInvoice: true,
        listArticles: true,
        taxReduction: true,
        supplierInvoices: false,
      },
      auth: { type: 'api-key', fields: ['username', 'apiKey'] },

      async testConnection(session) {
        const api = apiFor(session);
        const selected = (await api.request('GET', '/api/Company/Selected')).body;
        if (selected == null) return { companyName: null };
        const company = await api.find(`/api/Company/${String(selected)}`);
        return { companyName: str(company?.Name) };
      },

      ensureCustomer(session, customer, knownExternalId, { createNew = false } = {}) {
        return ensureCustomer(apiFor(session), customer, knownExternalId, createNew);
      },

      ensureArticle(session, article, knownExternalId) {
        return ensureArticle(apiFor(session), article, knownExternalId);
      },

      async sendInvoice(session, invoice, idempotencyKey, { firstAttempt }) {
        const api = apiFor(session);
        const customerId = idOf(invoice.customer.externalId) ?? (await ensureCustomer(api, invoice.customer, null));
        if (!firstAttempt) {
          const found = await findByKey(api, customerId, idempotencyKey);
          if (found?.Id != null) return settle(api, String(found.Id));
        }
        const body = await invoiceBody(api, invoice, idempotencyKey, customerId);
        const created = await api.request('POST', '/api/Invoice', body);
        return settle(api, String(created.body));
      },

      async readInvoice(session, externalId) {
        const api = apiFor(session);
        const inv = idOf(externalId) ? await api.find(`/api/Invoice/${externalId}`) : null;
        if (!inv || inv.Status === 'Cancelled') return { externalId, externalInvoiceNr: null, state: 'unknown' };
        return { ...sentFrom(inv), externalId };
      },

      async listArticles(session) {
        return (await apiFor(session).all('/api/Article')).map((a) => {
          const number = articleNumberOf(a);
          const text = String(a.Text ?? '');
          return {
            externalId: String(a.Id),
            articleNumber: number,
            title: text.startsWith(`${number}${NUMBER_SEPARATOR}`)
              ? text.slice(number.length + NUMBER_SEPARATOR.length)
              : text,
            unit: str(a.UnitText),
            price: typeof a.UnitPrice === 'number' ? a.UnitPrice.toFixed(2) : null,
          };
        });
      },
    };
  },
});
