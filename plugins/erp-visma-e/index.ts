import { z } from 'zod';
import {
  createErpHttp,
  ErpError,
  expiresAtFrom,
  withAccessToken,
  type ErpHttp,
  type ErpRequest,
  type ErpResponse,
} from '~/core/extension-points/erp-http';
import {
  defineErpProvider,
  type ErpArticle,
  type ErpCredentials,
  type ErpCustomer,
  type ErpInvoice,
  type ErpInvoiceRow,
  type ErpSentInvoice,
  type ErpSentSupplierInvoice,
  type ErpSession,
  type ErpSupplier,
  supplierRowAccounts,
} from '~/core/extension-points/erp-provider';
import { vismaSupplier, vismaSupplierInvoiceDraft } from './supplier-invoice';

/*
 * Visma eEkonomi (Visma eAccounting API v2, https://developer.vismaonline.com). Invoices go in as
 * customer invoice drafts: the tenant's accountant looks them over and converts them into invoices in
 * eEkonomi, which is when Visma numbers them, makes the OCR and bookkeeps. Field names follow Visma's
 * OpenAPI document verbatim (tests/fakes/visma-eaccounting.ts lists the sources).
 *
 * The idempotency key travels in the draft's SubscriptionNumber. Of the draft's free-text fields
 * (YourReference, OurReference, BuyersOrderReference, ElectronicReference, SubscriptionNumber,
 * ContractNumber) it is the one Ordo has no meaning for: the references carry Ordo's references,
 * BuyersOrderReference the customer's order number and is only 35 long, ElectronicReference is refused
 * for private persons, and ContractNumber is kept free for the service agreement. SubscriptionNumber
 * takes 100 characters, survives the conversion (CustomerInvoiceApi has it too) and, as a top-level
 * property of an OData v4 entity, is filterable with `$filter=SubscriptionNumber eq '…'` like the
 * other top-level fields Visma's changelog shows being filtered on; so a retry finds the draft with one
 * request instead of listing drafts.
 *
 * Approved supplier invoices go in as supplier invoice drafts (supplier-invoice.ts maps them), which
 * the accountant converts in eEkonomi like the customer drafts. A supplier invoice draft has no field
 * for Ordo's key: its free texts are the supplier's InvoiceNumber, the OcrNumber and a 25-character
 * Message that is the payment message when there is no OCR, all needed for paying the supplier. Its
 * natural key is the supplier and the supplier's invoice number, which is what Visma's own duplicate
 * check compares; so a retry finds the draft, or the invoice it became, with
 * `$filter=SupplierId eq … and InvoiceNumber eq '…'`, and the create asks Visma to refuse a duplicate
 * (duplicateCheckExtendedValidation). The key goes along as an Idempotency-Key header, which Visma
 * does not read: it is there for request logs and lets the fake tell which delivery made a draft.
 */

type Json = Record<string, unknown>;

const PAGE_SIZE = 200;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Rows whose labour qualifies carry a work type; Ordo does not say which, so these are the defaults. */
const ROT_CONSTRUCTION_WORK = 1;
const RUT_CLEANING_WORK = 9;

const options = z.object({
  clientId: z.string().default(''),
  clientSecret: z.string().default(''),
  identityBaseUrl: z.string().url().default('https://identity.vismaonline.com'),
  apiBaseUrl: z.string().url().default('https://eaccountingapi.vismaonline.com'),
  /** ea:purchase: suppliers and supplier invoice drafts. */
  scope: z.string().default('ea:api offline_access ea:sales ea:purchase'),
  /** Visma's documented limit: 600 requests per minute (per client and endpoint). */
  requestsPerMinute: z.number().int().positive().default(600),
  /** The window the limit counts over; lowered only by tests. */
  ratePeriodMs: z.number().int().positive().default(60_000),
  /** The article an invoice fee row is sent as (Visma drafts have no fee field); created when missing. */
  feeArticleNumber: z.string().min(1).max(40).default('AVGIFT'),
  /** Prefix of the articles rows without an article are sent as (one per VAT rate, service or goods). */
  freeRowArticlePrefix: z.string().min(1).max(20).default('ORDO'),
  /** The terms of payment a new supplier gets (the nearest the company has for purchases); every draft states its DueDate. */
  supplierPaymentTermDays: z.number().int().min(0).default(30),
  /** WorkCostType of ROT labour rows (1 = RotConstructionWork) and RUT ones (9 = RutCleanJobWork). */
  rotWorkCostType: z.number().int().default(ROT_CONSTRUCTION_WORK),
  rutWorkCostType: z.number().int().default(RUT_CLEANING_WORK),
});

export type VismaEOptions = z.infer<typeof options>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);
const num = (v: string) => Number(v);
const round2 = (x: number) => (Math.sign(x) * Math.round(Math.abs(x) * 100 + 1e-7)) / 100;
const cut = (v: string | null | undefined, max: number) => (v ? v.slice(0, max) : null);
/** An OData v4 string literal; a quote is doubled. */
const literal = (v: string) => `'${v.replace(/'/g, "''")}'`;
const query = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** DeveloperErrorMessage as documented, with the per-field Errors Visma adds to a validation failure. */
function vendorMessage(body: unknown, text: string): string | null {
  if (body && typeof body === 'object') {
    const b = body as Json;
    const parts: string[] = [];
    const main = str(b.DeveloperErrorMessage) ?? str(b.Message) ?? str(b.error_description) ?? str(b.error);
    if (main) parts.push(main);
    if (Array.isArray(b.Errors))
      for (const e of b.Errors as Json[]) {
        const m = str(e?.Message);
        const line = m && (str(e.Field) ? `${String(e.Field)}: ${m}` : m);
        if (line && !parts.some((p) => p.includes(m!))) parts.push(line);
      }
    if (parts.length) return parts.join('; ');
  }
  return text ? text.slice(0, 500) : null;
}

const UNIT_GROUPS = [
  ['h', 'tim', 'timme', 'timmar', 'hour', 'hours', 'hur'],
  ['st', 'styck', 'pcs', 'piece', 'h87', 'ea'],
  // Not 'mil': a Swedish mil is ten kilometres, so it falls back to pieces rather than to km.
  ['km', 'kilometer', 'kmt'],
  ['m', 'meter', 'mtr'],
  ['kg', 'kilogram', 'kgm'],
  ['l', 'liter', 'ltr'],
  ['dag', 'dagar', 'day', 'days', 'd'],
  ['mån', 'månad', 'month', 'mon'],
];
const isHours = (unit: string | null) => !!unit && UNIT_GROUPS[0]!.includes(unit.trim().toLowerCase());

function chooseUnit(units: Json[], unit: string | null): string {
  const names = (u: Json) =>
    [u.Abbreviation, u.AbbreviationEnglish, u.Name, u.Code].map((v) => String(v ?? '').toLowerCase());
  const wanted = (unit ?? '').trim().toLowerCase();
  const group = UNIT_GROUPS.find((g) => g.includes(wanted)) ?? (wanted ? [wanted] : []);
  const found =
    (wanted ? units.find((u) => names(u).includes(wanted)) : undefined) ??
    units.find((u) => names(u).some((n) => n && group.includes(n))) ??
    // A unit Visma does not have becomes pieces: the row still carries its own text and quantity.
    units.find((u) => names(u).some((n) => UNIT_GROUPS[1]!.includes(n))) ??
    units[0];
  if (!found) throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', { vendorMessage: 'Visma answered no units' });
  return String(found.Id);
}

/**
 * The article account coding for a VAT rate: Visma books a row on its article's coding, so the
 * coding decides both the account and whether the article is a service (which ROT/RUT labour must be).
 * The service/goods type weighs more than the tenant's account for the rate, which is a per-rate
 * choice in Ordo; reverse construction VAT is booked by Visma on the coding's own reverse account.
 */
function chooseCoding(codings: Json[], vat: string, isService: boolean, account: string | undefined): string {
  const rateOf = (c: Json) => {
    const r = Number(c.VatRatePercent);
    return r > 1 ? r / 100 : r;
  };
  const candidates = codings.filter((c) => c.IsActive !== false && Math.abs(rateOf(c) - num(vat) / 100) < 1e-9);
  const score = (c: Json) =>
    (/service|tjänst/i.test(String(c.Type ?? '')) === isService ? 2 : 0) +
    (account &&
    [c.DomesticSalesSubjectToVatAccountNumber, c.DomesticSalesVatExemptAccountNumber].some((a) => String(a) === account)
      ? 1
      : 0);
  const best = candidates.sort((a, b) => score(b) - score(a))[0];
  if (!best)
    throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
      vendorMessage: `Visma eEkonomi has no active article account coding for ${vat} % VAT`,
    });
  return String(best.Id);
}

function chooseTerms(terms: Json[], days: number, use: 'sales' | 'purchase' = 'sales'): string {
  const available = use === 'sales' ? 'AvailableForSales' : 'AvailableForPurchase';
  const usable = terms.filter((t) => t[available] !== false && Number(t.TermsOfPaymentTypeId ?? 0) === 0);
  // Visma's list of terms is the company's own; the nearest is used when none has the exact days, and
  // every draft states its DueDate anyway.
  const best = usable.sort(
    (a, b) => Math.abs(Number(a.NumberOfDays) - days) - Math.abs(Number(b.NumberOfDays) - days),
  )[0];
  if (!best)
    throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
      vendorMessage: `Visma eEkonomi has no terms of payment for ${use === 'sales' ? 'sales' : 'purchases'}`,
    });
  return String(best.Id);
}

/** A discount as Visma's DiscountPercentage, a fraction with four decimals. */
function discountFraction(row: ErpInvoiceRow): number {
  if (!row.discount) return 0;
  if (row.discount.type === 'PERCENTAGE') return Math.round(num(row.discount.value) * 100) / 10_000;
  // Visma takes no fixed-amount discount on a row (DiscountFixedAmount is read-only), so the amount
  // becomes the fraction that gives the row total Ordo computed.
  const gross = num(row.price) * num(row.amount);
  return gross ? Math.round((1 - num(row.total) / gross) * 10_000) / 10_000 : 0;
}

export default defineErpProvider({
  id: 'visma-e',
  displayName: 'Visma eEkonomi',
  erpKind: 'visma-e',
  options,
  create(o) {
    const identity = createErpHttp({
      key: 'visma-e:identity',
      vendorMessage,
      // The identity server refusing a code or a refresh token means the tenant must connect again.
      refusalCode: () => 'ERP_AUTH_FAILED',
    });
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(o.clientId)}:${encodeURIComponent(o.clientSecret)}`).toString('base64')}`;

    async function tokens(form: Record<string, string>, previous?: ErpCredentials): Promise<ErpCredentials> {
      const res = await identity.request({
        method: 'POST',
        url: `${o.identityBaseUrl}/connect/token`,
        headers: { authorization: basic },
        form,
      });
      const b = (res.body ?? {}) as Json;
      if (!str(b.access_token))
        throw new ErpError('ERP_AUTH_FAILED', { status: res.status, vendorMessage: 'no access_token in the answer' });
      return {
        accessToken: String(b.access_token),
        refreshToken: str(b.refresh_token) ?? previous?.refreshToken,
        expiresAt: expiresAtFrom(b.expires_in),
      };
    }
    const refresh = (refreshToken: string) =>
      tokens({ grant_type: 'refresh_token', refresh_token: refreshToken }, { refreshToken });

    // Visma counts a request when it arrives, we when we send it; the margin absorbs the difference
    // in network delay between the first and the last request of a full window.
    const rateLimit = {
      requests: o.requestsPerMinute,
      perMs: o.ratePeriodMs + Math.max(250, Math.round(o.ratePeriodMs * 0.02)),
    };
    // Visma registers its limit per client (our OAuth application) and endpoint, not per company: every
    // tenant's calls to one endpoint share Visma's window, so they share ours. A key per tenant would
    // let ten tenants send ten times the limit. Ids in the path do not make another endpoint.
    const httpFor = (path: string): ErpHttp =>
      createErpHttp({
        key: `visma-e:${o.clientId}:/v2${path
          .split('?')[0]!
          .toLowerCase()
          .replace(/[0-9a-f-]{36}/g, '{id}')}`,
        rateLimit,
        vendorMessage,
      });

    interface Api {
      request(req: Omit<ErpRequest, 'url'> & { path: string }): Promise<ErpResponse>;
      get(path: string): Promise<Json>;
      /** The resource, or null when Visma does not know the id (404, or 400 ResourceNotFound / a malformed id). */
      find(path: string, lenient?: boolean): Promise<Json | null>;
      /** Every row of a paged list. */
      all(path: string, params?: Record<string, string>): Promise<Json[]>;
      first(path: string, filter: string): Promise<Json | null>;
    }

    /** Runs `work` with a valid token; withAccessToken refreshes and runs it once more after a 401. */
    function withApi<T>(session: ErpSession, work: (api: Api) => Promise<T>): Promise<T> {
      return withAccessToken(session, refresh, (token) => {
        const request: Api['request'] = ({ path, headers, ...rest }) =>
          httpFor(path).request({
            ...rest,
            url: `${o.apiBaseUrl}/v2${path}`,
            headers: { ...headers, authorization: `Bearer ${token}` },
          });
        const api: Api = {
          request,
          async get(path) {
            return ((await request({ path })).body ?? {}) as Json;
          },
          async find(path, lenient = false) {
            const res = await request({ path, accept: [400, 404] });
            if (res.status === 200) return (res.body ?? {}) as Json;
            const b = (res.body ?? {}) as Json;
            if (res.status === 404 || lenient || Number(b.ErrorCode) === 3000) return null;
            throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
              status: res.status,
              vendorMessage: vendorMessage(res.body, res.text),
            });
          },
          async all(path, params = {}) {
            const rows: Json[] = [];
            for (let page = 1; ; page++) {
              const b = await api.get(`${path}?${query({ ...params, $page: page, $pagesize: PAGE_SIZE })}`);
              const data = Array.isArray(b.Data) ? (b.Data as Json[]) : [];
              rows.push(...data);
              const pages = Number((b.Meta as Json | undefined)?.TotalNumberOfPages ?? 1);
              if (page >= pages || data.length === 0) return rows;
            }
          },
          async first(path, filter) {
            const b = await api.get(`${path}?${query({ $filter: filter, $pagesize: 1 })}`);
            return Array.isArray(b.Data) && b.Data.length ? (b.Data[0] as Json) : null;
          },
        };
        return work(api);
      });
    }

    async function ensureCustomer(api: Api, customer: ErpCustomer, knownExternalId: string | null): Promise<string> {
      if (knownExternalId) {
        const known = await api.find(`/customers/${encodeURIComponent(knownExternalId)}`, true);
        if (known?.Id) return String(known.Id);
      }
      const existing = await api.first('/customers', `CustomerNumber eq ${literal(customer.customerNumber)}`);
      if (existing?.Id) return String(existing.Id);
      const terms = await api.all('/termsofpayments');
      const isPrivate = customer.type === 'private';
      const created = await api.request({
        method: 'POST',
        path: '/customers',
        json: {
          CustomerNumber: customer.customerNumber,
          Name: cut(customer.name, 50),
          IsPrivatePerson: isPrivate,
          CorporateIdentityNumber: isPrivate ? customer.personId : customer.organizationalNumber,
          EmailAddress: customer.email,
          Telephone: cut(customer.phone, 50),
          InvoiceAddress1: cut(customer.address.street, 50),
          // Required by Visma even when Ordo has no address; an empty one is accepted.
          InvoicePostalCode: cut(customer.address.postIndex, 10) ?? '',
          InvoiceCity: cut(customer.address.city, 50) ?? '',
          InvoiceCountryCode: 'SE',
          VatNumber: isPrivate ? null : customer.vatNumber,
          ReverseChargeOnConstructionServices: !isPrivate && customer.reverseVat,
          TermsOfPaymentId: chooseTerms(terms, customer.paymentTermDays),
          IsActive: true,
        },
      });
      return String((created.body as Json).Id);
    }

    async function ensureArticle(
      api: Api,
      session: ErpSession,
      article: ErpArticle,
      knownExternalId: string | null,
      account?: string,
    ): Promise<string> {
      if (knownExternalId) {
        const known = await api.find(`/articles/${encodeURIComponent(knownExternalId)}`, true);
        if (known?.Id) return String(known.Id);
      }
      const existing = await api.first('/articles', `Number eq ${literal(article.articleNumber)}`);
      if (existing?.Id) return String(existing.Id);
      const units = await api.all('/units');
      const codings = await api.all('/articleaccountcodings');
      const created = await api.request({
        method: 'POST',
        path: '/articles',
        json: {
          Number: article.articleNumber,
          Name: cut(article.title, 50) ?? article.articleNumber,
          UnitId: chooseUnit(units, article.unit),
          CodingId: chooseCoding(
            codings,
            article.vatPercent,
            article.isService,
            account ?? session.accounts.sales[article.vatPercent],
          ),
          NetPrice: num(article.price),
          IsActive: true,
          IsStock: false,
        },
      });
      return String((created.body as Json).Id);
    }

    /** The article a row goes out as: its mapped one, or the fee or free-row article for rows without. */
    async function rowArticle(api: Api, session: ErpSession, row: ErpInvoiceRow): Promise<string> {
      if (row.externalArticleId) return row.externalArticleId;
      const isService = row.kind !== 'article';
      if (row.kind === 'fee')
        return ensureArticle(
          api,
          session,
          {
            id: 'fee',
            articleNumber: o.feeArticleNumber,
            title: 'Fakturaavgift',
            unit: 'st',
            price: row.price,
            isService: true,
            houseWork: false,
            vatPercent: row.vatPercent,
          },
          null,
          session.accounts.fee,
        );
      if (row.articleId && row.articleNumber)
        return ensureArticle(
          api,
          session,
          {
            id: row.articleId,
            articleNumber: row.articleNumber,
            title: row.description,
            unit: row.unit,
            price: row.price,
            isService,
            houseWork: row.houseWork,
            vatPercent: row.vatPercent,
          },
          null,
        );
      return ensureArticle(
        api,
        session,
        {
          id: 'free',
          articleNumber: `${o.freeRowArticlePrefix}-${isService ? 'TJANST' : 'VARA'}-${row.vatPercent}`,
          title: `${isService ? 'Tjänst' : 'Vara'} ${row.vatPercent} % moms`,
          unit: row.unit,
          price: '0',
          isService,
          houseWork: false,
          vatPercent: row.vatPercent,
        },
        null,
      );
    }

    /** Fields of a stored supplier that Visma answers but does not take back on a PUT. */
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

    async function ensureSupplier(api: Api, supplier: ErpSupplier, knownExternalId: string | null): Promise<string> {
      const wanted = vismaSupplier(supplier);
      let existing: Json | null = null;
      if (knownExternalId) existing = await api.find(`/suppliers/${encodeURIComponent(knownExternalId)}`, true);
      if (!existing?.Id)
        existing = await api.first('/suppliers', `SupplierNumber eq ${literal(supplier.supplierNumber)}`);
      if (existing?.Id) {
        // Bank details decide where Visma pays: a card that moved on in Ordo is brought up to date. A PUT
        // replaces the card, so it carries everything the card has, with Ordo's fields over it.
        const changed = Object.entries(wanted).some(([k, v]) => String(existing![k] ?? '') !== String(v));
        if (changed) {
          const kept = Object.fromEntries(Object.entries(existing).filter(([k]) => !SUPPLIER_READ_ONLY.has(k)));
          await api.request({
            method: 'PUT',
            path: `/suppliers/${encodeURIComponent(String(existing.Id))}`,
            json: { ...kept, ...wanted },
          });
        }
        return String(existing.Id);
      }
      const terms = await api.all('/termsofpayments');
      const created = await api.request({
        method: 'POST',
        path: '/suppliers',
        json: {
          SupplierNumber: supplier.supplierNumber,
          ...wanted,
          CountryCode: 'SE',
          TermsOfPaymentId: chooseTerms(terms, o.supplierPaymentTermDays, 'purchase'),
          IsActive: true,
        },
      });
      return String((created.body as Json).Id);
    }

    /** The supplier's invoice as a draft, or as the supplier invoice the accountant converted it into. */
    async function findSupplierInvoice(
      api: Api,
      supplierId: string,
      invoiceNumber: string,
    ): Promise<ErpSentSupplierInvoice | null> {
      if (!GUID.test(supplierId)) return null;
      const filter = `SupplierId eq ${supplierId} and InvoiceNumber eq ${literal(invoiceNumber)}`;
      const draft = await api.first('/supplierinvoicedrafts', filter);
      if (draft?.Id) return { externalId: String(draft.Id), externalNr: null };
      const invoice = await api.first('/supplierinvoices', filter);
      if (invoice?.Id)
        return {
          externalId: String(invoice.CreatedFromDraftId ?? invoice.Id),
          externalNr: invoice.Number != null ? String(invoice.Number) : null,
        };
      return null;
    }

    /** A draft, or the invoice it was converted into, carrying the key. */
    async function findSent(api: Api, key: string): Promise<ErpSentInvoice | null> {
      const filter = `SubscriptionNumber eq ${literal(key)}`;
      const draft = await api.first('/customerinvoicedrafts', filter);
      if (draft?.Id) return { externalId: String(draft.Id), externalInvoiceNr: null, state: 'success' };
      // The accountant may have converted it between our tries; the key goes along into the invoice.
      const invoice = await api.first('/customerinvoices', filter);
      if (invoice?.Id)
        return {
          externalId: String(invoice.CreatedFromDraftId ?? invoice.Id),
          externalInvoiceNr: invoice.InvoiceNumber != null ? String(invoice.InvoiceNumber) : null,
          state: 'success',
        };
      return null;
    }

    async function draftBody(api: Api, session: ErpSession, invoice: ErpInvoice, key: string, customerId: string) {
      const tr = invoice.taxReduction;
      if (tr?.kind === 'green')
        // Visma needs the kind of installation on each row (GreenTechnologyType), which Ordo does not carry.
        throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
          vendorMessage: 'Green technology reductions are not sent to Visma eEkonomi; make the invoice there',
        });
      const reduced = tr ? (tr.kind === 'ROT' ? 1 : 2) : 0;
      // IncludesVat: for private persons Visma reads unit prices with VAT unless the company shows them
      // without ("Show prices excl. VAT for private individuals"). Visma's current OpenAPI text states
      // the flag the other way round from its older text and from the setting's name; we follow the name.
      let pricesWithVat = false;
      if (invoice.customer.type === 'private') {
        const settings = await api.get('/companysettings');
        pricesWithVat = settings.ShowPricesExclVatPC === false;
      }

      const rows: Json[] = [];
      const text = (t: string) => ({
        IsTextRow: true,
        Text: t.slice(0, 2000),
        ReversedConstructionServicesVatFree: false,
      });
      if (invoice.description) rows.push(text(invoice.description));
      if (invoice.marking) rows.push(text(`Märkning: ${invoice.marking}`));
      for (const row of invoice.rows) {
        if (row.kind === 'text') {
          if (row.description.trim()) rows.push(text(row.description));
          continue;
        }
        const rate = invoice.reverseVat ? 0 : num(row.vatPercent) / 100;
        const workCost = reduced !== 0 && row.houseWork;
        rows.push({
          ArticleId: await rowArticle(api, session, row),
          IsTextRow: false,
          Text: cut(row.description, 2000) ?? undefined,
          UnitPrice: pricesWithVat ? round2(num(row.price) * (1 + rate)) : num(row.price),
          Quantity: num(row.amount),
          DiscountPercentage: discountFraction(row),
          IsWorkCost: workCost,
          WorkCostType: workCost ? (reduced === 1 ? o.rotWorkCostType : o.rutWorkCostType) : 0,
          // Hours are reported to the tax agency, so only a quantity in hours is sent as hours.
          WorkHours: workCost && isHours(row.unit) ? num(row.amount) : null,
          ReversedConstructionServicesVatFree: invoice.reverseVat,
        });
      }
      // The reverse-VAT legal text Visma prints itself for a ReverseChargeOnConstructionServices customer.
      if (!invoice.reverseVat) for (const note of invoice.notes) if (note.trim()) rows.push(text(note));

      const reduction: Json = {};
      if (tr) {
        Object.assign(reduction, {
          RotReducedInvoicingAmount: num(tr.amount),
          RotReducedInvoicingAutomaticDistribution: false,
          Persons: tr.persons.map((p) => ({ Ssn: p.personId, Amount: num(p.amount) })),
        });
        if (tr.kind === 'ROT')
          Object.assign(
            reduction,
            tr.housingAssociationOrgNr
              ? {
                  RotPropertyType: 1,
                  RotReducedInvoicingOrgNumber: tr.housingAssociationOrgNr,
                  RotReducedInvoicingPropertyName: cut(tr.propertyDesignation, 40),
                }
              : { RotPropertyType: 2, RotReducedInvoicingPropertyName: cut(tr.propertyDesignation, 40) },
          );
      }

      return {
        CustomerId: customerId,
        EuThirdParty: false,
        RotReducedInvoicingType: reduced,
        ...reduction,
        InvoiceDate: invoice.invoiceDate,
        DueDate: invoice.dueDate,
        DeliveryDate: invoice.deliveryDate,
        YourReference: cut(invoice.yourReference, 100),
        OurReference: cut(invoice.ourReference, 100),
        BuyersOrderReference: invoice.customerOrderNumber,
        SubscriptionNumber: key,
        Rows: rows,
      };
    }

    return {
      capabilities: {
        sendInvoices: true,
        invoiceFile: false,
        readInvoice: true,
        listArticles: true,
        taxReduction: true,
        supplierInvoices: true,
      },
      auth: {
        type: 'oauth2',
        // without the app's client id and secret the vendor's sign-in cannot work: Settings → ERP says so
        missingOptions: (['clientId', 'clientSecret'] as const).filter((k) => !o[k].trim()),
        authorizeUrl({ redirectUri, state }) {
          return `${o.identityBaseUrl}/connect/authorize?${query({
            client_id: o.clientId,
            redirect_uri: redirectUri,
            scope: o.scope,
            state,
            response_type: 'code',
          })}`;
        },
        exchangeCode({ code, redirectUri }) {
          return tokens({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
        },
      },

      testConnection(session) {
        return withApi(session, async (api) => {
          const settings = await api.get('/companysettings');
          return { companyName: str(settings.Name) };
        });
      },

      ensureCustomer(session, customer, knownExternalId) {
        return withApi(session, (api) => ensureCustomer(api, customer, knownExternalId));
      },

      ensureArticle(session, article, knownExternalId) {
        return withApi(session, (api) => ensureArticle(api, session, article, knownExternalId));
      },

      sendInvoice(session, invoice, idempotencyKey, { firstAttempt }) {
        return withApi(session, async (api) => {
          if (!firstAttempt) {
            const sent = await findSent(api, idempotencyKey);
            if (sent) return sent;
          }
          const customerId = invoice.customer.externalId ?? (await ensureCustomer(api, invoice.customer, null));
          if (invoice.currency !== 'SEK') {
            // A draft takes the customer's currency (InvoiceCurrencyCode is read-only), so a euro invoice
            // to a customer kept in kronor would come out as the same figures in kronor.
            const customer = await api.get(`/customers/${encodeURIComponent(customerId)}`);
            if (customer.CurrencyCode !== invoice.currency)
              throw new ErpError('INVOICE_WAS_NOT_CREATED_IN_ERP', {
                vendorMessage: `The customer's currency in Visma eEkonomi is ${String(customer.CurrencyCode)}, the invoice's ${invoice.currency}`,
              });
          }
          const created = await api.request({
            method: 'POST',
            path: '/customerinvoicedrafts',
            json: await draftBody(api, session, invoice, idempotencyKey, customerId),
          });
          const draft = (created.body ?? {}) as Json;
          // A draft has no number; Visma numbers the invoice when the accountant converts it.
          return { externalId: String(draft.Id), externalInvoiceNr: null, state: 'success' };
        });
      },

      ensureSupplier(session, supplier, knownExternalId) {
        return withApi(session, (api) => ensureSupplier(api, supplier, knownExternalId));
      },

      async sendSupplierInvoice(session, invoice, idempotencyKey, { firstAttempt }) {
        // Before any request: a row on no account is the tenant's to fix, and nothing is half-booked.
        const rowAccounts = supplierRowAccounts(invoice);
        const draft = vismaSupplierInvoiceDraft(invoice, rowAccounts, session.accounts.rounding?.trim() || '3740');
        // Survives withAccessToken running the call again after a refresh: never create twice.
        let created: ErpSentSupplierInvoice | null = null;
        return withApi(session, async (api) => {
          if (created) return created;
          const supplierId = invoice.supplier.externalId ?? (await ensureSupplier(api, invoice.supplier, null));
          if (!firstAttempt) {
            const found = await findSupplierInvoice(api, supplierId, String(draft.InvoiceNumber ?? ''));
            if (found) return found;
          }
          const res = await api.request({
            method: 'POST',
            path: '/supplierinvoicedrafts?duplicateCheckExtendedValidation=true',
            headers: { 'idempotency-key': idempotencyKey },
            json: { SupplierId: supplierId, ...draft },
          });
          // A draft has no number; Visma numbers the supplier invoice when the accountant converts it.
          created = { externalId: String((res.body as Json).Id), externalNr: null };
          return created;
        });
      },

      readInvoice(session, externalId) {
        return withApi(session, async (api): Promise<ErpSentInvoice> => {
          const draft = await api.find(`/customerinvoicedrafts/${encodeURIComponent(externalId)}`);
          if (draft) return { externalId, externalInvoiceNr: null, state: 'success' };
          // Converted: the invoice names the draft it was made from and has the number people see.
          // (OData v4 takes a guid unquoted; anything else cannot be a draft id.)
          const invoice = GUID.test(externalId)
            ? await api.first('/customerinvoices', `CreatedFromDraftId eq ${externalId}`)
            : null;
          if (invoice?.InvoiceNumber != null)
            return { externalId, externalInvoiceNr: String(invoice.InvoiceNumber), state: 'success' };
          // Deleted in eEkonomi, or converted in a way that left no trace of the draft.
          return { externalId, externalInvoiceNr: null, state: 'unknown' };
        });
      },

      listArticles(session) {
        return withApi(session, async (api) =>
          (await api.all('/articles')).map((a) => ({
            externalId: String(a.Id),
            articleNumber: String(a.Number ?? ''),
            title: String(a.Name ?? ''),
            unit: str(a.UnitAbbreviation) ?? str(a.UnitName),
            price: typeof a.NetPrice === 'number' ? a.NetPrice.toFixed(2) : null,
          })),
        );
      },
    };
  },
});
