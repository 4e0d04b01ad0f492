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
  ErpStop,
  supplierRowAccounts,
} from '~/core/extension-points/erp-provider';
import { figuresDiffer, planRows, RowNotSendable, rowsWithFee } from './draft-rows';
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
 * takes 100 characters and survives the conversion (CustomerInvoiceApi has it too). A retry asks for
 * `$filter=SubscriptionNumber eq '…'` and then compares each answered row's SubscriptionNumber with
 * the key itself, over every page: Visma documents which properties it filters on only in its
 * changelog, so an answer is never trusted to have been filtered (issue 31 item 8). When Visma
 * refuses the filter, or holds the key twice, no look-up can tell what exists: the delivery stops as
 * "needs checking" (ErpStop) with the drafts' ids instead of making another draft.
 *
 * After creating a draft the plugin compares Visma's total and VAT with the invoice's (issue 31 item
 * 3): a draft that differs (a company setting read another way, a rounding of Visma's) is deleted at
 * once and the delivery fails with ERP_INVOICE_TOTAL_DIFFERS, instead of leaving a wrong invoice for
 * the accountant to convert. Rows are sent as draft-rows.ts fits them: quantities with two decimals,
 * each row's amount Ordo's total (item 4).
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

export default defineErpProvider({
  id: 'visma-e',
  displayName: 'Visma eEkonomi',
  erpKind: 'visma-e',
  // what was checked against the vendor's documentation and what was not (issue 31; Settings → ERP)
  verification: { verified: ['vismaE.openapi'], unverified: ['vismaE.filter', 'vismaE.vatRounding'] },
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
      /**
       * The rows of `path` filtered by `filter` that are what `is` says, over every page: Visma's
       * filter narrows the answer, the comparison decides. Null when Visma refuses the filter (400).
       */
      matching(path: string, filter: string, is: (row: Json) => boolean): Promise<Json[] | null>;
      /** The one row that is what `is` says, listing the whole register when Visma refuses the filter. */
      one(path: string, filter: string, is: (row: Json) => boolean): Promise<Json | null>;
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
          async matching(path, filter, is) {
            const rows: Json[] = [];
            for (let page = 1; ; page++) {
              const res = await request({
                path: `${path}?${query({ $filter: filter, $page: page, $pagesize: PAGE_SIZE })}`,
                accept: [400],
              });
              if (res.status === 400) return null;
              const b = (res.body ?? {}) as Json;
              const data = Array.isArray(b.Data) ? (b.Data as Json[]) : [];
              rows.push(...data.filter(is));
              const pages = Number((b.Meta as Json | undefined)?.TotalNumberOfPages ?? 1);
              if (page >= pages || data.length === 0) return rows;
            }
          },
          async one(path, filter, is) {
            const rows = (await api.matching(path, filter, is)) ?? (await api.all(path)).filter(is);
            return rows[0] ?? null;
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
      const existing = await api.one(
        '/customers',
        `CustomerNumber eq ${literal(customer.customerNumber)}`,
        (c) => c.CustomerNumber === customer.customerNumber,
      );
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
      const existing = await api.one(
        '/articles',
        `Number eq ${literal(article.articleNumber)}`,
        (a) => a.Number === article.articleNumber,
      );
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
        existing = await api.one(
          '/suppliers',
          `SupplierNumber eq ${literal(supplier.supplierNumber)}`,
          (x) => x.SupplierNumber === supplier.supplierNumber,
        );
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
      const is = (x: Json) =>
        String(x.SupplierId ?? '').toLowerCase() === supplierId.toLowerCase() && x.InvoiceNumber === invoiceNumber;
      const draft = await api.one('/supplierinvoicedrafts', filter, is);
      if (draft?.Id) return { externalId: String(draft.Id), externalNr: null };
      const invoice = await api.one('/supplierinvoices', filter, is);
      if (invoice?.Id)
        return {
          externalId: String(invoice.CreatedFromDraftId ?? invoice.Id),
          externalNr: invoice.Number != null ? String(invoice.Number) : null,
        };
      return null;
    }

    /**
     * A draft of ours whose total or VAT is not the invoice's is deleted before anyone converts it,
     * and the delivery fails with ERP_INVOICE_TOTAL_DIFFERS; one that cannot be deleted stops the
     * delivery for checking, with its id.
     */
    async function checkDraft(api: Api, draft: Json, invoice: ErpInvoice): Promise<void> {
      const differs = figuresDiffer(draft, invoice);
      if (!differs) return;
      const id = String(draft.Id);
      let deleted = false;
      try {
        const res = await api.request({
          method: 'DELETE',
          path: `/customerinvoicedrafts/${encodeURIComponent(id)}`,
          accept: [404],
        });
        deleted = res.status < 300 || res.status === 404;
      } catch {
        deleted = false;
      }
      if (deleted)
        throw new ErpStop('ERP_INVOICE_TOTAL_DIFFERS', { vendorMessage: `${differs}; the draft was deleted` });
      throw new ErpStop('ERP_INVOICE_TOTAL_DIFFERS', {
        needsChecking: true,
        references: [id],
        vendorMessage: `${differs}; the draft ${id} could not be deleted: delete it in Visma eEkonomi before sending again`,
      });
    }

    /**
     * A draft, or the invoice it was converted into, carrying the key: every row Visma answers is
     * compared with the key itself. Visma refusing the search, or holding the key twice, leaves no
     * way to tell what exists: the delivery stops for checking instead of making another draft.
     */
    async function findSent(api: Api, key: string, invoice: ErpInvoice): Promise<ErpSentInvoice | null> {
      const filter = `SubscriptionNumber eq ${literal(key)}`;
      const carries = (x: Json) => x.SubscriptionNumber === key;
      const drafts = await api.matching('/customerinvoicedrafts', filter, carries);
      // The accountant may have converted it between our tries; the key goes along into the invoice.
      const invoices = drafts && (await api.matching('/customerinvoices', filter, carries));
      if (!drafts || !invoices)
        throw new ErpStop('ERP_NEEDS_CHECKING', {
          vendorMessage: `Visma eEkonomi did not search for SubscriptionNumber ${key}: look for a draft or invoice with it before sending again`,
        });
      const found = [
        ...drafts.map((d) => ({ id: String(d.Id), text: `draft ${String(d.Id)}` })),
        ...invoices.map((i) => ({
          id: String(i.CreatedFromDraftId ?? i.Id),
          text: `invoice ${String(i.InvoiceNumber ?? i.Id)}`,
        })),
      ];
      if (found.length > 1)
        throw new ErpStop('ERP_NEEDS_CHECKING', {
          references: found.map((f) => f.id),
          vendorMessage: `Visma eEkonomi holds ${found.length} with SubscriptionNumber ${key}: ${found.map((f) => f.text).join(', ')}`,
        });
      const [draft] = drafts;
      if (draft) {
        await checkDraft(api, draft, invoice);
        return { externalId: String(draft.Id), externalInvoiceNr: null, state: 'success' };
      }
      const [converted] = invoices;
      if (converted)
        return {
          externalId: String(converted.CreatedFromDraftId ?? converted.Id),
          externalInvoiceNr: converted.InvoiceNumber != null ? String(converted.InvoiceNumber) : null,
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
      // IncludesVat, as Visma's OpenAPI states it on the draft (and on invoices, orders and quotes):
      // "True = Company settings checkbox 'ShowPricesExclVatPC' is checked and customer type is
      // 'Private'", and then "article row UnitPrice includes VAT" (OrderDryRunApi). The setting's name
      // reads the other way; the documentation decides, and the draft's totals are compared with the
      // invoice's after it is made (checkDraft), so a Visma that reads it otherwise books nothing wrong.
      let pricesWithVat = false;
      if (invoice.customer.type === 'private') {
        const settings = await api.get('/companysettings');
        pricesWithVat = settings.ShowPricesExclVatPC === true;
      }
      const invoiceRows = rowsWithFee(invoice);
      let planned;
      try {
        planned = planRows(
          invoice,
          invoiceRows.filter((r) => r.kind !== 'text'),
          pricesWithVat,
        );
      } catch (err) {
        if (err instanceof RowNotSendable)
          throw new ErpStop('ERP_ROW_NOT_SENDABLE', { vendorMessage: err.message, cause: err });
        throw err;
      }

      const rows: Json[] = [];
      const text = (t: string) => ({
        IsTextRow: true,
        Text: t.slice(0, 2000),
        ReversedConstructionServicesVatFree: false,
      });
      if (invoice.description) rows.push(text(invoice.description));
      if (invoice.marking) rows.push(text(`Märkning: ${invoice.marking}`));
      let priced = 0;
      for (const row of invoiceRows) {
        if (row.kind === 'text') {
          if (row.description.trim()) rows.push(text(row.description));
          continue;
        }
        const plan = planned[priced++]!;
        const workCost = reduced !== 0 && row.houseWork;
        rows.push({
          ArticleId: await rowArticle(api, session, row),
          IsTextRow: false,
          // a quantity rounded to Visma's two decimals: the row says Ordo's quantity and price
          Text:
            cut([row.description, plan.note ? `(${plan.note})` : null].filter(Boolean).join(' '), 2000) ?? undefined,
          UnitPrice: plan.UnitPrice,
          Quantity: plan.Quantity,
          DiscountPercentage: plan.DiscountPercentage,
          IsWorkCost: workCost,
          WorkCostType: workCost ? (reduced === 1 ? o.rotWorkCostType : o.rutWorkCostType) : 0,
          // Hours are reported to the tax agency, so only a quantity in hours is sent as hours; Visma
          // refuses a work-cost row with less than one hour ("work hours < 1.00"), so a shorter job
          // is reported as the one hour it takes.
          WorkHours: workCost && isHours(row.unit) ? Math.max(1, plan.Quantity) : null,
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
        // Survives withAccessToken running the call again after a refresh: never create twice.
        let created: Json | null = null;
        return withApi(session, async (api) => {
          if (created) {
            await checkDraft(api, created, invoice);
            return { externalId: String(created.Id), externalInvoiceNr: null, state: 'success' as const };
          }
          if (!firstAttempt) {
            const sent = await findSent(api, idempotencyKey, invoice);
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
          const body = await draftBody(api, session, invoice, idempotencyKey, customerId);
          const res = await api.request({ method: 'POST', path: '/customerinvoicedrafts', json: body });
          const draft = (res.body ?? {}) as Json;
          created = draft;
          // Visma's figures are the invoice's, or the draft goes before anyone converts it
          await checkDraft(api, draft, invoice);
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
            ? await api.one(
                '/customerinvoices',
                `CreatedFromDraftId eq ${externalId}`,
                (x) => String(x.CreatedFromDraftId ?? '').toLowerCase() === externalId.toLowerCase(),
              )
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
