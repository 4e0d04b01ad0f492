import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErpError } from '~/core/extension-points/erp-http';
import type {
  ErpCredentials,
  ErpFileContext,
  ErpInvoice,
  ErpInvoiceRow,
  ErpProvider,
  ErpSession,
  ErpSupplierInvoice,
} from '~/core/extension-points/erp-provider';

/*
 * The one suite every ERP plugin passes (architecture §7, issue 14), run against a local fake of the
 * vendor's HTTP API (tests/fakes/). `npm run test:plugin -- plugins/<folder>` runs it for any plugin
 * that has a `contract.test.ts` beside its index (docs/plugins/erp.md).
 */

/** What a fake of a vendor's API lets the suite do besides speaking the API. */
export interface ErpFakeControl {
  /** Invoices the fake holds; with a key, those carrying it in the vendor's reference field. */
  invoiceCount(idempotencyKey?: string): number;
  customerCount(): number;
  articleCount(): number;
  /** The invoice as the vendor stores it (field names verbatim), or null. */
  invoice(externalId: string): Record<string, unknown> | null;
  /** Access tokens issued so far stop working (401); refresh tokens still work. */
  expireAccessTokens(): void;
  /** The next API request is answered with this status (429 with Retry-After seconds). */
  failNext(status: 429 | 500 | 503, retryAfterSeconds?: number): void;
  /**
   * The next invoice create (a customer invoice, or a supplier invoice) is stored by the vendor but
   * its answer never arrives (the socket is cut).
   */
  dropNextCreateResponse(): void;
  /** For an ERP that books supplier invoices: those the fake holds; with a key, those carrying it. */
  supplierInvoiceCount?(idempotencyKey?: string): number;
  supplierCount?(): number;
  /** The supplier invoice as the vendor stores it (field names verbatim), or null. */
  supplierInvoice?(externalId: string): Record<string, unknown> | null;
  /** API requests served since the start (OAuth calls not counted). */
  requestCount(): number;
  /** 429 answers the fake gave because its rate limit was exceeded (failNext not counted). */
  rateLimitedCount(): number;
  /** For a file-based ERP: reads a file as the ERP's import does, and throws what it would refuse. */
  importFile?(file: { fileName: string; contentType: string; body: Buffer }): unknown;
  close(): Promise<void>;
}

export interface ErpContractTarget {
  name: string;
  start(): Promise<{
    provider: ErpProvider;
    fake: ErpFakeControl;
    /** Connects as a tenant does (OAuth round trip against the fake, or the API key) and answers the credentials. */
    connect(): Promise<ErpCredentials>;
    /** Credentials the vendor refuses. */
    badCredentials: ErpCredentials;
    /** The limit the fake enforces and the plugin was configured with (a low one keeps the test short). */
    rateLimit: { requests: number; perMs: number };
  }>;
}

/** A session over stored credentials, recording what the plugin saves (token refresh). */
export function testSession(credentials: ErpCredentials | null, tenantId = randomUUID()) {
  const saved: ErpCredentials[] = [];
  const session: ErpSession = {
    tenantId,
    credentials,
    async saveCredentials(next) {
      saved.push(next);
    },
    accounts: {
      sales: { '25': '3001', '12': '3002', '6': '3003', '0': '3004', reverse: '3231' },
      fee: '3541',
      rounding: '3740',
    },
  };
  return { session, saved };
}

/** What the core tells a file-based ERP besides the invoice: the company, the day, the accounts. */
export function fileContext(overrides: Partial<ErpFileContext> = {}): ErpFileContext {
  return {
    company: { name: 'Contract Service AB', orgNr: '556677-8899' },
    generated: { date: '2026-11-21', sign: 'Maria Lindqvist' },
    accounts: testSession(null).session.accounts,
    ...overrides,
  };
}

let invoiceSeq = 0;

/**
 * A Swedish organisation number of the sample customer's own (two customers of the suite are two
 * companies, so an ERP that matches customers by organisation number must keep them apart): 55 and
 * the customer number's last seven digits, with the Luhn check digit.
 */
export function sampleOrgNumber(customerNumber: string): string {
  const nine = `55${customerNumber.replace(/\D/g, '').padStart(7, '0').slice(-7)}`;
  let total = 0;
  for (let i = 0; i < 9; i++) {
    let d = Number(nine[i]) * (i % 2 === 0 ? 2 : 1);
    if (d > 9) d -= 9;
    total += d;
  }
  return `${nine.slice(0, 6)}-${nine.slice(6)}${(10 - (total % 10)) % 10}`;
}

/** A small invoice: one labour row (ROT work), one material row at 25 %, a fee, in whole kronor. */
export function sampleInvoice(customerNumber: string, overrides: Partial<ErpInvoice> = {}): ErpInvoice {
  invoiceSeq += 1;
  const customerId = `00000000-0000-4000-8000-${customerNumber.padStart(12, '0').slice(-12)}`;
  return {
    id: randomUUID(),
    invoiceNr: String(1000 + invoiceSeq),
    invoiceDate: '2026-11-20',
    deliveryDate: '2026-11-19',
    dueDate: '2026-12-20',
    paymentTermDays: 30,
    ocr: null,
    currency: 'SEK',
    description: 'Service of alarm',
    marking: 'Ref 12',
    customerOrderNumber: 'PO-77',
    ourReference: 'Maria Lindqvist',
    yourReference: 'Erik Holm',
    reverseVat: false,
    customer: {
      id: customerId,
      externalId: null,
      customerNumber,
      name: `Contract Customer ${customerNumber}`,
      type: 'company',
      organizationalNumber: '556677-8899',
      personId: null,
      vatNumber: 'SE556677889901',
      email: 'invoice@customer.se',
      phone: '08-123 45 67',
      address: { street: 'Storgatan 1', postIndex: '111 22', city: 'Stockholm' },
      paymentTermDays: 30,
      reverseVat: false,
    },
    rows: [
      {
        kind: 'labour',
        articleId: '00000000-0000-4000-8000-00000000a001',
        articleNumber: 'ARB',
        externalArticleId: null,
        description: 'Labour',
        amount: '2',
        unit: 'h',
        price: '650.00',
        discount: null,
        total: '1300.00',
        vatPercent: '25',
        houseWork: false,
        account: '3001',
      },
      {
        kind: 'article',
        articleId: '00000000-0000-4000-8000-00000000a002',
        articleNumber: 'DET-100',
        externalArticleId: null,
        description: 'Smoke detector',
        amount: '3',
        unit: 'st',
        price: '200.00',
        discount: { type: 'PERCENTAGE', value: '10' },
        total: '540.00',
        vatPercent: '25',
        houseWork: false,
        account: '3001',
      },
    ],
    fee: '40.00',
    totalPrice: '1880.00',
    totalVat: '470.00',
    rounding: '0.00',
    total: '2350.00',
    taxReduction: null,
    notes: [],
    ...overrides,
  };
}

/**
 * sampleInvoice for a customer that is a company of its own: its own organisation and VAT numbers
 * (sampleOrgNumber), so ERPs that find customers by organisation number keep the suite's customers
 * apart. Given customer overrides are kept as they are.
 */
export function companyInvoice(customerNumber: string, overrides: Partial<ErpInvoice> = {}): ErpInvoice {
  const invoice = sampleInvoice(customerNumber, overrides);
  if (overrides.customer) return invoice;
  const org = sampleOrgNumber(customerNumber);
  return {
    ...invoice,
    customer: { ...invoice.customer, organizationalNumber: org, vatNumber: `SE${org.replace('-', '')}01` },
  };
}

/** The invoice fee as the core hands it to a plugin: a row of kind "fee" at 25 % on the fee account. */
export const feeRow = (fee = '40.00', description = 'Fakturaavgift'): ErpInvoiceRow => ({
  kind: 'fee',
  articleId: null,
  articleNumber: null,
  externalArticleId: null,
  description,
  amount: '1',
  unit: null,
  price: fee,
  discount: null,
  total: fee,
  vatPercent: '25',
  houseWork: false,
  account: '3541',
});

/** A text row (a comment on the invoice): no article, nothing to pay. */
export const textRow = (description: string): ErpInvoiceRow => ({
  kind: 'text',
  articleId: null,
  articleNumber: null,
  externalArticleId: null,
  description,
  amount: '0',
  unit: null,
  price: '0',
  discount: null,
  total: '0',
  vatPercent: '25',
  houseWork: false,
  account: null,
});

/** An approved supplier invoice: two cost rows at 25 % and 12 %, one on the supplier's default account. */
export function sampleSupplierInvoice(
  supplierNumber: string,
  overrides: Partial<ErpSupplierInvoice> = {},
): ErpSupplierInvoice {
  invoiceSeq += 1;
  return {
    id: randomUUID(),
    invoiceNumber: `LF-${5000 + invoiceSeq}`,
    invoiceDate: '2026-11-18',
    dueDate: '2026-12-18',
    currency: 'SEK',
    ocr: '4512300014',
    ourReference: 'Maria Lindqvist',
    comments: 'Detectors for the Brf Test job',
    supplier: {
      id: `00000000-0000-4000-9000-${supplierNumber.padStart(12, '0').slice(-12)}`,
      externalId: null,
      supplierNumber,
      name: `Contract Supplier ${supplierNumber}`,
      organizationalNumber: '556012-3456',
      vatNumber: 'SE556012345601',
      email: 'faktura@supplier.se',
      phone: '031-12 34 56',
      address: { street: 'Industrigatan 4', postIndex: '415 05', city: 'Göteborg' },
      iban: 'SE4550000000058398257466',
      bic: 'ESSESESS',
      bankgiro: '5050-1055',
      plusgiro: null,
      defaultAccount: '4010',
    },
    rows: [
      {
        description: 'Smoke detectors',
        account: null,
        amount: '1000.00',
        vatPercent: '25',
        vat: '250.00',
        projectNumber: null,
      },
      {
        description: 'Food for the crew',
        account: '5831',
        amount: '200.00',
        vatPercent: '12',
        vat: '24.00',
        projectNumber: null,
      },
    ],
    fee: null,
    totalPrice: '1200.00',
    totalVat: '274.00',
    rounding: '0.00',
    total: '1474.00',
    ...overrides,
  };
}

/** Maps the supplier the way the core does before booking a supplier invoice. */
export async function prepareSupplierInvoice(
  provider: ErpProvider,
  session: ErpSession,
  invoice: ErpSupplierInvoice,
): Promise<ErpSupplierInvoice> {
  const externalId = await provider.ensureSupplier!(session, invoice.supplier, invoice.supplier.externalId);
  return { ...invoice, supplier: { ...invoice.supplier, externalId } };
}

/** Maps customer and articles the way the core's delivery does before sending. */
export async function prepareInvoice(
  provider: ErpProvider,
  session: ErpSession,
  invoice: ErpInvoice,
): Promise<ErpInvoice> {
  const externalId = await provider.ensureCustomer(session, invoice.customer, invoice.customer.externalId);
  const rows = [];
  for (const row of invoice.rows) {
    if (!row.articleId || !row.articleNumber) {
      rows.push(row);
      continue;
    }
    const ext = await provider.ensureArticle(
      session,
      {
        id: row.articleId,
        articleNumber: row.articleNumber,
        title: row.description,
        unit: row.unit,
        price: row.price,
        isService: row.kind === 'labour',
        houseWork: row.houseWork,
        vatPercent: row.vatPercent,
      },
      row.externalArticleId,
    );
    rows.push({ ...row, externalArticleId: ext });
  }
  return { ...invoice, customer: { ...invoice.customer, externalId }, rows };
}

export function erpContract(target: ErpContractTarget): void {
  describe(`[erp contract] ${target.name}`, () => {
    let env: Awaited<ReturnType<ErpContractTarget['start']>>;
    let credentials: ErpCredentials;
    let customerSeq = Math.floor(Math.random() * 1e6);
    const nextCustomer = () => String(++customerSeq);

    beforeAll(async () => {
      env = await target.start();
      credentials = await env.connect();
    });
    afterAll(async () => {
      await env?.fake.close();
    });

    // an ERP reached over HTTP: one a file is imported into has no credentials, no 429 and no limit
    const overHttp = () => env.provider.auth.type !== 'none';

    it('connects and tests the connection; credentials the vendor refuses fail with ERP_AUTH_FAILED or ERP_NOT_CONNECTED', async () => {
      const { session } = testSession(credentials);
      const answer = await env.provider.testConnection(session);
      expect(answer).toHaveProperty('companyName');
      if (!overHttp()) return;
      const bad = testSession(env.badCredentials).session;
      const err = await env.provider.testConnection(bad).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ErpError);
      expect(['ERP_AUTH_FAILED', 'ERP_NOT_CONNECTED']).toContain((err as ErpError).code);
    });

    it('sends an invoice with its customer and articles, reads back its number, and a second invoice reuses the mapping', async () => {
      if (!env.provider.capabilities.sendInvoices) return expect(env.provider.capabilities.invoiceFile).toBe(true);
      const { session } = testSession(credentials);
      const customers = env.fake.customerCount();
      const articles = env.fake.articleCount();
      const first = await prepareInvoice(env.provider, session, companyInvoice(nextCustomer()));
      const sent = await env.provider.sendInvoice(session, first, `ordo-${first.id}`, { firstAttempt: true });
      expect(sent.externalId).toBeTruthy();
      expect(sent.state).toBe('success');
      expect(env.fake.customerCount()).toBe(customers + 1);
      // the invoice's two articles, and one for its fee where the vendor takes the fee as an article row
      expect(env.fake.articleCount()).toBeGreaterThanOrEqual(articles + 2);
      const articlesAfterFirst = env.fake.articleCount();
      expect(env.fake.invoiceCount(`ordo-${first.id}`)).toBe(1);
      expect(env.fake.invoice(sent.externalId)).not.toBeNull();
      if (env.provider.capabilities.readInvoice) {
        const read = await env.provider.readInvoice(session, sent.externalId);
        expect(read.externalId).toBe(sent.externalId);
        expect(read.externalInvoiceNr).toBe(sent.externalInvoiceNr);
      }
      // the second invoice knows the vendor ids from the mapping: nothing new is created
      const second = companyInvoice(first.customer.customerNumber, {
        customer: { ...first.customer },
        rows: first.rows,
      });
      const again = await prepareInvoice(env.provider, session, second);
      expect(again.customer.externalId).toBe(first.customer.externalId);
      await env.provider.sendInvoice(session, again, `ordo-${again.id}`, { firstAttempt: true });
      expect(env.fake.customerCount()).toBe(customers + 1);
      expect(env.fake.articleCount()).toBe(articlesAfterFirst);
    });

    it('finds an existing customer and article by number instead of creating them again (the mapping was lost)', async () => {
      if (!env.provider.capabilities.sendInvoices) return;
      const { session } = testSession(credentials);
      const invoice = companyInvoice(nextCustomer());
      const a = await prepareInvoice(env.provider, session, invoice);
      const customers = env.fake.customerCount();
      const articles = env.fake.articleCount();
      const b = await prepareInvoice(env.provider, session, invoice);
      expect(b.customer.externalId).toBe(a.customer.externalId);
      expect(b.rows.map((r) => r.externalArticleId)).toEqual(a.rows.map((r) => r.externalArticleId));
      expect(env.fake.customerCount()).toBe(customers);
      expect(env.fake.articleCount()).toBe(articles);
    });

    it('refreshes an expired access token, saves the new one, and carries on', async () => {
      if (env.provider.auth.type !== 'oauth2') return;
      const { session, saved } = testSession(credentials);
      env.fake.expireAccessTokens();
      await env.provider.testConnection(session);
      expect(saved.length).toBe(1);
      expect(saved[0]!.accessToken).not.toBe(credentials.accessToken);
      credentials = saved[0]!;
      // the new token works without another refresh
      const next = testSession(credentials);
      await env.provider.testConnection(next.session);
      expect(next.saved.length).toBe(0);
    });

    it('waits out a 429 with Retry-After and succeeds', async () => {
      if (!overHttp()) return;
      const { session } = testSession(credentials);
      env.fake.failNext(429, 1);
      const started = Date.now();
      await env.provider.testConnection(session);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    });

    it('a 5xx fails as retryable, and the retry with the same key makes exactly one invoice', async () => {
      if (!env.provider.capabilities.sendInvoices) return;
      const { session } = testSession(credentials);
      const invoice = await prepareInvoice(env.provider, session, companyInvoice(nextCustomer()));
      const key = `ordo-${invoice.id}`;
      const queuedAt = new Date().toISOString();
      env.fake.failNext(503);
      const err = await env.provider.sendInvoice(session, invoice, key, { firstAttempt: true }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ErpError);
      expect((err as ErpError).retryable).toBe(true);
      await env.provider.sendInvoice(session, invoice, key, { firstAttempt: false, queuedAt });
      expect(env.fake.invoiceCount(key)).toBe(1);
    });

    it('after a crash between "created at the vendor" and "recorded", sending again finds the invoice instead of making a second', async () => {
      if (!env.provider.capabilities.sendInvoices) return;
      const { session } = testSession(credentials);
      const invoice = await prepareInvoice(env.provider, session, companyInvoice(nextCustomer()));
      const key = `ordo-${invoice.id}`;
      const queuedAt = new Date().toISOString();
      env.fake.dropNextCreateResponse();
      await expect(env.provider.sendInvoice(session, invoice, key, { firstAttempt: true })).rejects.toBeInstanceOf(
        ErpError,
      );
      expect(env.fake.invoiceCount(key)).toBe(1);
      const sent = await env.provider.sendInvoice(session, invoice, key, { firstAttempt: false, queuedAt });
      expect(env.fake.invoiceCount(key)).toBe(1);
      expect(sent.externalId).toBeTruthy();
      // and a plain repeat after success is also harmless
      const repeat = await env.provider.sendInvoice(session, invoice, key, { firstAttempt: false, queuedAt });
      expect(repeat.externalId).toBe(sent.externalId);
      expect(env.fake.invoiceCount(key)).toBe(1);
    });

    it('a refusal of the content maps to a spec message with the vendor text attached, not retryable', async () => {
      if (!env.provider.capabilities.sendInvoices) return;
      const { session } = testSession(credentials);
      const invoice = await prepareInvoice(env.provider, session, companyInvoice(nextCustomer()));
      // an article the vendor does not know: the mapping points nowhere
      const broken = {
        ...invoice,
        rows: invoice.rows.map((r, i) =>
          i === 1 ? { ...r, articleNumber: 'NO-SUCH-ARTICLE-9', externalArticleId: 'NO-SUCH-ARTICLE-9' } : r,
        ),
      };
      const err = await env.provider.sendInvoice(session, broken, `ordo-${invoice.id}`, { firstAttempt: true }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ErpError);
      expect((err as ErpError).retryable).toBe(false);
      expect(['INVOICE_WAS_NOT_CREATED_IN_ERP', 'ERP_PRICE_NOT_FOUND']).toContain((err as ErpError).code);
      expect((err as ErpError).vendorMessage).toBeTruthy();
      expect(env.fake.invoiceCount(`ordo-${invoice.id}`)).toBe(0);
    });

    it('a file-based ERP makes a file its import accepts, the same bytes for the same invoice', () => {
      if (!env.provider.capabilities.invoiceFile) return expect(env.provider.invoiceFile).toBeUndefined();
      const invoice = companyInvoice(nextCustomer());
      const file = env.provider.invoiceFile!(invoice, fileContext());
      expect(file.fileName).toBeTruthy();
      expect(file.contentType).toMatch(/charset=/i);
      expect(file.body.length).toBeGreaterThan(0);
      expect(env.provider.invoiceFile!(invoice, fileContext()).body.equals(file.body)).toBe(true);
      expect(env.fake.importFile).toBeTypeOf('function');
      expect(() => env.fake.importFile!(file)).not.toThrow();
    });

    it('lists the ERP articles', async () => {
      if (!env.provider.capabilities.listArticles) return;
      const { session } = testSession(credentials);
      await prepareInvoice(env.provider, session, companyInvoice(nextCustomer()));
      const list = await env.provider.listArticles(session);
      expect(list.length).toBe(env.fake.articleCount());
      expect(list.map((a) => a.articleNumber)).toContain('DET-100');
    });

    it('says whether it books supplier invoices, and has the methods exactly when it does', () => {
      const supports = env.provider.capabilities.supplierInvoices;
      expect(typeof env.provider.sendSupplierInvoice === 'function').toBe(supports);
      expect(typeof env.provider.ensureSupplier === 'function').toBe(supports);
      if (supports) {
        expect(env.fake.supplierInvoiceCount).toBeTypeOf('function');
        expect(env.fake.supplierCount).toBeTypeOf('function');
      }
    });

    it('books an approved supplier invoice with its supplier, once; a second reuses the supplier', async () => {
      if (!env.provider.capabilities.supplierInvoices) return;
      const { session } = testSession(credentials);
      const suppliers = env.fake.supplierCount!();
      const invoice = await prepareSupplierInvoice(env.provider, session, sampleSupplierInvoice(nextCustomer()));
      expect(invoice.supplier.externalId).toBeTruthy();
      const key = `ordo-si-${invoice.id}`;
      const sent = await env.provider.sendSupplierInvoice!(session, invoice, key, { firstAttempt: true });
      expect(sent.externalId).toBeTruthy();
      expect(env.fake.supplierInvoiceCount!(key)).toBe(1);
      expect(env.fake.supplierInvoice!(sent.externalId)).not.toBeNull();
      expect(env.fake.supplierCount!()).toBe(suppliers + 1);
      // the mapping lost: the supplier is found by its number, not created again
      const again = await prepareSupplierInvoice(
        env.provider,
        session,
        sampleSupplierInvoice(invoice.supplier.supplierNumber),
      );
      expect(again.supplier.externalId).toBe(invoice.supplier.externalId);
      expect(env.fake.supplierCount!()).toBe(suppliers + 1);
    });

    it('a supplier invoice whose answer was lost or met a 5xx is booked exactly once on the retry', async () => {
      if (!env.provider.capabilities.supplierInvoices) return;
      const { session } = testSession(credentials);
      const invoice = await prepareSupplierInvoice(env.provider, session, sampleSupplierInvoice(nextCustomer()));
      const key = `ordo-si-${invoice.id}`;
      env.fake.failNext(503);
      const err = await env.provider.sendSupplierInvoice!(session, invoice, key, { firstAttempt: true }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ErpError);
      expect((err as ErpError).retryable).toBe(true);
      env.fake.dropNextCreateResponse();
      await expect(
        env.provider.sendSupplierInvoice!(session, invoice, key, { firstAttempt: false }),
      ).rejects.toBeInstanceOf(ErpError);
      expect(env.fake.supplierInvoiceCount!(key)).toBe(1);
      const sent = await env.provider.sendSupplierInvoice!(session, invoice, key, { firstAttempt: false });
      expect(sent.externalId).toBeTruthy();
      expect(env.fake.supplierInvoiceCount!(key)).toBe(1);
    });

    it('a supplier invoice with a row on no account fails with ERP_SUPPLIER_ACCOUNT_MISSING and books nothing', async () => {
      if (!env.provider.capabilities.supplierInvoices) return;
      const { session } = testSession(credentials);
      const prepared = await prepareSupplierInvoice(env.provider, session, sampleSupplierInvoice(nextCustomer()));
      const invoice = { ...prepared, supplier: { ...prepared.supplier, defaultAccount: null } };
      const key = `ordo-si-${invoice.id}`;
      const before = env.fake.requestCount();
      const err = await env.provider.sendSupplierInvoice!(session, invoice, key, { firstAttempt: true }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ErpError);
      expect((err as ErpError).code).toBe('ERP_SUPPLIER_ACCOUNT_MISSING');
      expect(env.fake.supplierInvoiceCount!(key)).toBe(0);
      expect(env.fake.requestCount()).toBe(before);
    });

    it('keeps within the vendor rate limit when many calls are made at once', async () => {
      if (!overHttp()) return;
      const { session } = testSession(credentials);
      const before = env.fake.requestCount();
      const limited = env.fake.rateLimitedCount();
      const calls = env.rateLimit.requests + 5;
      await Promise.all(Array.from({ length: calls }, () => env.provider.testConnection(session)));
      expect(env.fake.requestCount() - before).toBeGreaterThanOrEqual(calls);
      expect(env.fake.rateLimitedCount()).toBe(limited);
    }, 30_000);
  });
}
