import type { z } from 'zod';
import { ErpError, isErpError } from './erp-http';
import type { PluginBase } from './plugin';

/*
 * The ERP contract, version 2 (issue 14; architecture §7; docs/plugins/erp.md explains it to an
 * outside integrator). A plugin is a stateless translator between Ordo's invoice and one vendor's
 * API: the core keeps the tenant's credentials (encrypted), the customer and article mapping, the
 * outbox and its retries, and hands the plugin an ErpSession for each call. A plugin never touches
 * the database; it talks HTTP through createErpHttp (core/extension-points/erp-http), which keeps the
 * vendor's rate limit per tenant, waits out a 429 and maps failures to ErpError.
 */

/**
 * Message keys (common.json, five languages) for why a plugin stopped a delivery, where ErpError's
 * codes (core/extension-points/erp-http.ts, the spec's messages) say too little (issue 31).
 */
export type ErpStopReason =
  /** The vendor computed another total than Ordo's invoice; what it made was taken back. */
  | 'ERP_INVOICE_TOTAL_DIFFERS'
  /** A row cannot be sent with its total kept (a quantity or price the vendor takes with fewer decimals). */
  | 'ERP_ROW_NOT_SENDABLE'
  /** The vendor may hold the invoice already and no look-up can tell for sure: a person checks there. */
  | 'ERP_NEEDS_CHECKING';

/**
 * A refusal that says more than its ErpError code (issue 31): the reason the core records as the
 * delivery's error (so the invoice shows it translated), and whether the delivery must stop as
 * "needs checking" — the vendor may hold the invoice (its references attached), so sending it again
 * could book it twice and only a person who looks there can tell. Never retried by itself.
 * It is an ErpError (code INVOICE_WAS_NOT_CREATED_IN_ERP), so everything that handles those still does.
 */
export class ErpStop extends ErpError {
  readonly reason: ErpStopReason;
  readonly needsChecking: boolean;
  /** The vendor's own ids of what it holds for this invoice (a draft's id), for the person who checks. */
  readonly references: string[];
  constructor(
    reason: ErpStopReason,
    options: { vendorMessage: string; needsChecking?: boolean; references?: string[]; cause?: unknown },
  ) {
    super('INVOICE_WAS_NOT_CREATED_IN_ERP', {
      retryable: false,
      vendorMessage: options.vendorMessage,
      cause: options.cause,
    });
    this.reason = reason;
    this.needsChecking = options.needsChecking ?? reason === 'ERP_NEEDS_CHECKING';
    this.references = options.references ?? [];
  }
}

/**
 * The stop an error carries, also one made by a plugin's own copy of this module (decision 027:
 * the core never uses instanceof on a plugin's errors); null for any other error.
 */
export function erpStopOf(e: unknown): Pick<ErpStop, 'reason' | 'needsChecking' | 'references'> | null {
  if (!isErpError(e)) return null;
  const x = e as Partial<ErpStop>;
  if (typeof x.reason !== 'string' || typeof x.needsChecking !== 'boolean') return null;
  return {
    reason: x.reason,
    needsChecking: x.needsChecking,
    references: Array.isArray(x.references) ? x.references.map(String) : [],
  };
}

/** Spec ERP invoice states (section 4). */
export type ErpInvoiceState = 'success' | 'not_sent.zero_price' | 'unknown';

/**
 * What a tenant's connection holds, stored sealed by the core. OAuth2 plugins keep tokens here; API-key
 * plugins the key the tenant typed; a plugin may add its own fields (a company id, a realm id).
 */
export interface ErpCredentials {
  accessToken?: string;
  refreshToken?: string;
  /** ISO time the access token stops working. */
  expiresAt?: string;
  apiKey?: string;
  [extra: string]: unknown;
}

/** The accounts the tenant chose in Settings → ERP (BAS numbers in Sweden); empty means the ERP's own default. */
export interface ErpAccounts {
  /** Sales account per VAT rate ("25", "12", "6", "0"), and for reverse VAT. */
  sales: Partial<Record<'25' | '12' | '6' | '0' | 'reverse', string>>;
  fee?: string;
  rounding?: string;
  /**
   * The ERP's own VAT codes per rate, for an ERP whose invoice names a code rather than a rate
   * (Magenta's Momskod; ErpProvider.vatCodes); a rate left out takes the plugin's default.
   */
  vatCodes?: Partial<Record<ErpVatCodeKey, string>>;
}

/** The rates (and reverse VAT) an ERP's VAT code is chosen for. */
export type ErpVatCodeKey = '25' | '12' | '6' | '0' | 'reverse';

/** Everything a plugin call may use; built by the core per tenant and call. */
export interface ErpSession {
  tenantId: string;
  /** Null until the tenant has connected. */
  credentials: ErpCredentials | null;
  /** Stores new credentials (a refreshed token) sealed, at once and outside any open transaction. */
  saveCredentials(next: ErpCredentials): Promise<void>;
  /**
   * The credentials as stored now: another process may have refreshed them since this session was
   * made (issue 31 item 6). Null when the tenant is no longer connected to this ERP.
   */
  reloadCredentials?(): Promise<ErpCredentials | null>;
  /**
   * Runs `fn` while no other process refreshes this tenant's tokens for this ERP: vendors that
   * replace the refresh token at each use (Fortnox, Visma) leave every process but the first with
   * a dead one. withAccessToken takes it, re-reads the credentials and refreshes only if no other
   * process did meanwhile; a plugin that refreshes by other means should do the same. The core's
   * sessions always have both; a session without them (a plugin's own test) refreshes unguarded.
   */
  withRefreshLock?<T>(fn: () => Promise<T>): Promise<T>;
  accounts: ErpAccounts;
}

export interface ErpAddress {
  street: string | null;
  postIndex: string | null;
  city: string | null;
}

export interface ErpCustomer {
  /** Ordo's id; the mapping key. */
  id: string;
  /** The customer number (spec: customerId); vendors that take a number get this one. */
  customerNumber: string;
  name: string;
  type: 'private' | 'company';
  organizationalNumber: string | null;
  personId: string | null;
  vatNumber: string | null;
  email: string | null;
  phone: string | null;
  address: ErpAddress;
  paymentTermDays: number;
  reverseVat: boolean;
}

export interface ErpArticle {
  /** Ordo's id; the mapping key. */
  id: string;
  /** The article number (spec: article ID). */
  articleNumber: string;
  title: string;
  unit: string | null;
  price: string;
  /** service (labour) or goods. */
  isService: boolean;
  /** ROT/RUT-eligible work (Fortnox: HouseWork). */
  houseWork: boolean;
  vatPercent: '25' | '12' | '6' | '0';
}

export type ErpRowKind =
  'article' | 'labour' | 'travel' | 'mileage' | 'fee' | 'part_payment' | 'agreement_fee' | 'text';

/** What a row is to accounts and ROT/RUT: labour, material, a fee, travel or a part payment. */
export type ErpRowType = 'labour' | 'material' | 'fee' | 'travel' | 'partPayment';

export interface ErpInvoiceRow {
  kind: ErpRowKind;
  /** Set by the core from the row's kind and labour/material split. */
  type?: ErpRowType;
  /** Ordo's article id (null for a row without article: fee, text, a free row). */
  articleId: string | null;
  articleNumber: string | null;
  /** The vendor's id for the article, from the mapping (set by the core before sendInvoice). */
  externalArticleId: string | null;
  description: string;
  amount: string;
  unit: string | null;
  /** Unit price without VAT. */
  price: string;
  discount: { type: 'PERCENTAGE' | 'REGULAR'; value: string } | null;
  /** Row total without VAT, the discount applied. */
  total: string;
  vatPercent: '25' | '12' | '6' | '0';
  /** Labour a ROT/RUT reduction applies to. */
  houseWork: boolean;
  /** The account chosen for the row's VAT rate (or the fee account), when the tenant chose one. */
  account: string | null;
}

export interface ErpTaxReduction {
  kind: 'ROT' | 'RUT' | 'green';
  /** The reduction the customer asks of the tax agency. */
  amount: string;
  propertyDesignation: string | null;
  housingAssociationOrgNr: string | null;
  persons: { personId: string; amount: string }[];
}

/** An invoice as handed to an ERP: final figures (core/invoicing) in Ordo's words. */
export interface ErpInvoice {
  id: string;
  /** Ordo's gapless number. */
  invoiceNr: string;
  invoiceDate: string;
  deliveryDate: string | null;
  dueDate: string;
  paymentTermDays: number;
  ocr: string | null;
  currency: 'SEK' | 'EUR';
  /** The work order's or sales order's title. */
  description: string | null;
  marking: string | null;
  customerOrderNumber: string | null;
  ourReference: string | null;
  yourReference: string | null;
  reverseVat: boolean;
  customer: ErpCustomer & { externalId: string | null };
  rows: ErpInvoiceRow[];
  /** The invoice fee, also present as a row of kind "fee". */
  fee: string | null;
  /** Without VAT, VAT, the öre rounding, and the total with VAT. */
  totalPrice: string;
  totalVat: string;
  rounding: string;
  total: string;
  taxReduction: ErpTaxReduction | null;
  /** Legal text printed on the invoice (reverse VAT). */
  notes: string[];
}

/** How a try of a delivery stands (sendInvoice). */
export interface ErpSendOptions {
  /** No earlier try of this delivery exists: nothing can be at the vendor yet. */
  firstAttempt: boolean;
  /**
   * When the delivery was first queued (ISO): every try of it was made after this. A vendor whose
   * idempotency key lasts a while (Erply's temporaryUUID, 24 h) counts its window from here; when
   * absent the plugin cannot tell and must assume the window is over.
   */
  queuedAt?: string;
}

export interface ErpSentInvoice {
  /** The vendor's id for the invoice (erpReference.externalId). */
  externalId: string;
  /** The number the ERP shows people (externalInvoiceNr); may be the id. */
  externalInvoiceNr: string | null;
  state: ErpInvoiceState;
}

export interface ErpArticleListing {
  externalId: string;
  articleNumber: string;
  title: string;
  unit: string | null;
  price: string | null;
}

/** A file the tenant imports into its ERP by hand (visma-xml). */
export interface ErpFile {
  fileName: string;
  contentType: string;
  body: Buffer;
}

/**
 * What a file says besides the invoice, which only the core knows: the company the books are
 * kept for, when and by whom the file is made, and the accounts the tenant chose in Settings → ERP
 * (an accounting file such as SIE names them; issue 31 item 5).
 */
export interface ErpFileContext {
  company: { name: string; orgNr: string | null };
  /** The day the file is made (YYYY-MM-DD, the tenant's calendar) and who made it, when known. */
  generated: { date: string; sign: string | null };
  accounts: ErpAccounts;
}

/** A supplier as handed to an ERP (spec section 3: Supplier). */
export interface ErpSupplier {
  /** Ordo's id; the mapping key. */
  id: string;
  /** The supplier number; vendors that take a number get this one. */
  supplierNumber: string;
  name: string;
  organizationalNumber: string | null;
  vatNumber: string | null;
  email: string | null;
  phone: string | null;
  address: ErpAddress;
  /** Where the supplier is paid. */
  iban: string | null;
  bic: string | null;
  bankgiro: string | null;
  plusgiro: string | null;
  /** The supplier's default ERP account (BAS cost account); spec: a supplier needs one. */
  defaultAccount: string | null;
}

/** One cost row of a supplier invoice: what was bought, on which account, at which VAT rate. */
export interface ErpSupplierInvoiceRow {
  description: string;
  /** The row's own cost account; null books it on the supplier's default account (supplierRowAccount). */
  account: string | null;
  /** Without VAT. */
  amount: string;
  vatPercent: '25' | '12' | '6' | '0';
  /** The VAT of the row (input VAT the company deducts). */
  vat: string;
  /** The project the cost belongs to, when it belongs to one. */
  projectNumber: string | null;
}

/**
 * An approved supplier invoice (spec section 4: payment approval sends it to the ERP), booked there
 * as a supplier invoice to pay: the supplier's own number and dates, the cost rows, VAT and total.
 */
export interface ErpSupplierInvoice {
  id: string;
  /** The supplier's invoice number (spec: invoice number). */
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string;
  currency: 'SEK' | 'EUR';
  /** The payment reference (OCR) the supplier asks for. */
  ocr: string | null;
  ourReference: string | null;
  comments: string | null;
  supplier: ErpSupplier & { externalId: string | null };
  rows: ErpSupplierInvoiceRow[];
  /** The supplier's invoice fee (already one of the rows' amounts when it was given as a row: null). */
  fee: string | null;
  /** Without VAT, VAT, the öre rounding and the total to pay. */
  totalPrice: string;
  totalVat: string;
  rounding: string;
  total: string;
}

export interface ErpSentSupplierInvoice {
  /** The vendor's id for the supplier invoice. */
  externalId: string;
  /** The number the ERP shows people (its own running number), when it has one. */
  externalNr: string | null;
}

/**
 * How every idempotency key of Ordo's supplier-invoice bookings begins (sendSupplierInvoice): what a
 * plugin that lists the ERP's supplier invoices recognises Ordo's own bookings by, to leave them out.
 */
export const ORDO_SUPPLIER_INVOICE_KEY_PREFIX = 'ordo-si-';

/** One cost row of a supplier invoice held by the ERP (listSupplierInvoices). */
export interface ErpFetchedSupplierInvoiceRow {
  description: string;
  articleNumber: string | null;
  /** The cost account the ERP booked it on. */
  account: string | null;
  amount: string;
  unit: string | null;
  /** Unit price without VAT. */
  price: string;
  /** Without VAT; negative on a credit note. */
  total: string;
  /** The VAT rate (25, 12, 6, 0); where the ERP keeps VAT per invoice, the rate its VAT gives. */
  vatPercent: '25' | '12' | '6' | '0';
}

/**
 * A supplier invoice the ERP holds, typed there by a person, awaiting its approval (issue 33 item 1;
 * capabilities.readSupplierInvoices). Invoices Ordo booked there itself (its idempotency key on them)
 * and cancelled ones are never answered.
 */
export interface ErpFetchedSupplierInvoice {
  /** The vendor's id (Fortnox: GivenNumber); what payment approval hands back. */
  externalId: string;
  supplier: {
    /** The vendor's id for the supplier (what erp_mappings keeps for entity supplier). */
    externalId: string;
    name: string;
    organizationalNumber: string | null;
    vatNumber: string | null;
  };
  invoiceNumber: string;
  invoiceType: 'invoice' | 'credit';
  invoiceDate: string;
  dueDate: string | null;
  currency: string;
  ocr: string | null;
  /** The references a person typed, in the order they name a work order or project (Fortnox: YourReference, OurReference, Project). */
  references: (string | null)[];
  rows: ErpFetchedSupplierInvoiceRow[];
  totalPrice: string;
  totalVat: string;
  rounding: string;
  total: string;
  /** Where a fetch that stopped after this invoice resumes (listSupplierInvoices' `since`). */
  cursor: string;
}

export type ErpAuth =
  /** OAuth2 authorization code: the core sends the browser to authorizeUrl and hands back the code. */
  | {
      type: 'oauth2';
      /**
       * The boot options (PLUGIN_OPTIONS[id]) the plugin lacks to send anyone to the vendor's sign-in,
       * e.g. ['clientId']: the core then refuses to start it (ERP_NOT_CONFIGURED) and Settings → ERP
       * names them for the operator instead of offering a sign-in that cannot work.
       */
      missingOptions?: readonly string[];
      authorizeUrl(input: { redirectUri: string; state: string }): string;
      exchangeCode(input: {
        code: string;
        redirectUri: string;
        tenantId: string;
        /** The callback's other query parameters, as the vendor sent them (QuickBooks: realmId). */
        params?: Record<string, string>;
      }): Promise<ErpCredentials>;
    }
  /** A key the tenant pastes into Settings → ERP; `fields` are the inputs the form shows. */
  | { type: 'api-key'; fields: readonly string[] }
  /** Nothing to connect (files, the built-in none). */
  | { type: 'none' };

/** What a provider can do; the UI offers only these, the core calls only these. */
export interface ErpCapabilities {
  /** Invoices go over the vendor's API (the erp apply type). */
  sendInvoices: boolean;
  /** The visma-xml apply type: a file per invoice. */
  invoiceFile: boolean;
  readInvoice: boolean;
  listArticles: boolean;
  /** ROT/RUT/green reductions are carried to the ERP. */
  taxReduction: boolean;
  /** Approved supplier invoices (the purchasing capability, issue 15). */
  supplierInvoices: boolean;
  /**
   * Supplier invoices typed in the ERP are fetched (listSupplierInvoices) and their payment approved
   * there (approveSupplierInvoicePayment) rather than booked again (issue 33 item 1; decision 054).
   */
  readSupplierInvoices?: boolean;
}

/**
 * Every method throws ErpError (core/extension-points/erp-http) when the vendor refuses, with the
 * vendor's own text attached; the core maps it to the spec's message.
 */
export interface ErpProvider {
  capabilities: ErpCapabilities;
  auth: ErpAuth;
  /**
   * For an ERP whose invoice names its own VAT code (Magenta): the code per rate it sends unless the
   * tenant chose another in Settings → ERP (ErpAccounts.vatCodes), and whether those defaults are
   * guesses (the vendor does not publish its codes), which Settings → ERP then says.
   */
  vatCodes?: { defaults: Record<ErpVatCodeKey, string>; guessed: boolean };
  /** Checks credentials and reachability; answers what the ERP calls the company, when it says. */
  testConnection(session: ErpSession): Promise<{ companyName: string | null }>;
  /**
   * Answers the vendor's id for Ordo's customer, bringing the fields Ordo owns up to date. With the
   * id the mapping knew, that card. Without one (the customer's first delivery, or the card is gone)
   * the vendor's customer with the same organisation number (a private person's personal identity
   * number, else the VAT number) — never one that merely has the same customer number: a company
   * with a ledger of its own may give Ordo's 10005 to another company. A number (or name) that
   * belongs to another party, or several cards with the same organisation number, throw
   * ErpCustomerConflict for the office to resolve in Settings → ERP; nothing is created or changed.
   * With nothing found, the customer is created. `createNew` is the office's answer "none of
   * those": a new card, under a number the vendor chooses when Ordo's is taken.
   *
   * An update sends only what Ordo owns (name, address, e-mail, phone, VAT treatment) and only what
   * differs; the vendor's identity fields (organisation number, customer type) are filled in where
   * empty, never overwritten, and what Ordo lacks never clears what the vendor has.
   */
  ensureCustomer(
    session: ErpSession,
    customer: ErpCustomer,
    knownExternalId: string | null,
    options?: { createNew?: boolean },
  ): Promise<string>;
  /** The same for an article. */
  ensureArticle(session: ErpSession, article: ErpArticle, knownExternalId: string | null): Promise<string>;
  /**
   * Creates the invoice once. The key is the same on every try of one delivery: a plugin puts it in
   * the vendor's external-reference field (or sends it as the vendor's idempotency key) and, unless
   * this is the delivery's first try, looks for an invoice that has it before creating, so a crash
   * after the vendor created the invoice but before Ordo recorded it never makes a second one. On the
   * first try nothing can exist yet, which spares one request per invoice under a tight rate limit.
   * The look-up compares the key of what the vendor answers itself, never trusting a search to have
   * filtered; where the vendor offers no look-up that can be trusted (or finds the key twice), the
   * plugin throws ErpStop('ERP_NEEDS_CHECKING') with the vendor's references instead of sending again.
   */
  sendInvoice(
    session: ErpSession,
    invoice: ErpInvoice,
    idempotencyKey: string,
    options: ErpSendOptions,
  ): Promise<ErpSentInvoice>;
  /** The vendor's number and state for an invoice it holds. */
  readInvoice(session: ErpSession, externalId: string): Promise<ErpSentInvoice>;
  listArticles(session: ErpSession): Promise<ErpArticleListing[]>;
  /**
   * The visma-xml file (capabilities.invoiceFile). The core always passes the context; a plugin whose
   * file needs none (Magenta's e-mail) may leave it out of its signature.
   */
  invoiceFile?(invoice: ErpInvoice, context?: ErpFileContext): ErpFile;
  /**
   * Finds the supplier by its number (or the id the mapping knew) or creates it (capabilities.
   * supplierInvoices); answers the vendor's id.
   */
  ensureSupplier?(session: ErpSession, supplier: ErpSupplier, knownExternalId: string | null): Promise<string>;
  /**
   * Books an approved supplier invoice once (capabilities.supplierInvoices), with the same
   * idempotency rules as sendInvoice: the key goes in a field the vendor keeps, and a try that is
   * not the first looks for it before creating. A supplier without an account for a row fails with
   * ERP_SUPPLIER_ACCOUNT_MISSING before anything is sent.
   */
  sendSupplierInvoice?(
    session: ErpSession,
    invoice: ErpSupplierInvoice,
    idempotencyKey: string,
    options: { firstAttempt: boolean },
  ): Promise<ErpSentSupplierInvoice>;
  /**
   * The supplier invoices awaiting approval in the ERP (capabilities.readSupplierInvoices), oldest
   * first. `since` is the `cursor` of the last invoice an earlier fetch kept (null: from the start);
   * `cursor` is where the next fetch starts when every invoice answered was kept. Reads only.
   */
  listSupplierInvoices?(
    session: ErpSession,
    options: { since: string | null },
  ): Promise<{ invoices: ErpFetchedSupplierInvoice[]; cursor: string | null }>;
  /**
   * Approves the payment of an invoice the ERP holds (one listSupplierInvoices answered), exactly
   * once: unless this is the delivery's first try, the plugin first looks whether it is approved
   * already (a try killed after the vendor approved it) and then answers as if it approved it.
   */
  approveSupplierInvoicePayment?(
    session: ErpSession,
    externalId: string,
    options: { firstAttempt: boolean },
  ): Promise<ErpSentSupplierInvoice>;
}

/**
 * What of a plugin was checked against the vendor's own documentation and what was not (issue 31):
 * keys of the invoicesettings messages `erp.verification.<key>` (five languages), which Settings →
 * ERP lists on the plugin's card. Unverified: what a real connection may still answer otherwise.
 */
export interface ErpVerification {
  verified: readonly string[];
  unverified: readonly string[];
}

export type ErpProviderDefinition<O = unknown> = PluginBase<'erp', O, ErpProvider> & {
  displayName: string;
  /** The spec's ERP kind this plugin is (fortnox, visma, visma-e, …); "none" for the built-in. */
  erpKind: string;
  verification?: ErpVerification;
};

/** One of the vendor's customers the office may link Ordo's customer to (Settings → ERP). */
export interface ErpCustomerCandidate {
  /** The vendor's id (what the mapping keeps). */
  externalId: string;
  /** The number the vendor shows people (Fortnox: CustomerNumber); null where it has none. */
  number: string | null;
  name: string;
  organizationalNumber: string | null;
  vatNumber: string | null;
}

/**
 * Why ensureCustomer stopped: Ordo's customer number is another party's at the vendor
 * (number_taken); several of the vendor's customers have its organisation number
 * (several_matches); one has it, under another number and another name — the same company under
 * another name, or another of its sites that Ordo keeps as a customer of its own (other_name); or
 * one has its name but no organisation number to tell (same_name).
 */
export type ErpCustomerConflictReason = 'number_taken' | 'several_matches' | 'other_name' | 'same_name';

/**
 * The vendor's customers leave it unclear which one is Ordo's (ensureCustomer): the delivery stops
 * with the code ERP_CUSTOMER_CONFLICT, nothing is sent, and the office chooses one of the candidates
 * or a new customer in Settings → ERP. Recognised by isErpCustomerConflict, never instanceof: a
 * plugin imported outside the server bundle has its own copy of this class (decision 027).
 */
export class ErpCustomerConflict extends Error {
  readonly code = 'ERP_CUSTOMER_CONFLICT' as const;
  readonly retryable = false;
  constructor(
    readonly reason: ErpCustomerConflictReason,
    readonly candidates: ErpCustomerCandidate[],
    /** What the vendor holds, in its own field names, for the delivery's error text. */
    readonly vendorMessage: string | null = null,
  ) {
    super(vendorMessage ? `ERP_CUSTOMER_CONFLICT (${reason}): ${vendorMessage}` : `ERP_CUSTOMER_CONFLICT (${reason})`);
    this.name = 'ErpCustomerConflict';
  }
}

export function isErpCustomerConflict(e: unknown): e is ErpCustomerConflict {
  if (e instanceof ErpCustomerConflict) return true;
  if (!(e instanceof Error) || e.name !== 'ErpCustomerConflict') return false;
  const x = e as Partial<ErpCustomerConflict>;
  return x.code === 'ERP_CUSTOMER_CONFLICT' && Array.isArray(x.candidates) && typeof x.reason === 'string';
}

/** The digits of an organisation or personal identity number; a person's 12 are compared as their last 10. */
export function identityDigits(value: string | null | undefined): string {
  const digits = (value ?? '').replace(/\D/g, '');
  return digits.length === 12 ? digits.slice(2) : digits;
}

/**
 * The account a supplier-invoice row is booked on: its own, else the supplier's default. Throws
 * ERP_SUPPLIER_ACCOUNT_MISSING (spec section 8) when neither is set, so nothing half-booked is sent.
 */
export function supplierRowAccounts(invoice: ErpSupplierInvoice): string[] {
  return invoice.rows.map((row) => {
    const account = row.account?.trim() || invoice.supplier.defaultAccount?.trim();
    if (!account) throw new ErpError('ERP_SUPPLIER_ACCOUNT_MISSING', { vendorMessage: null });
    return account;
  });
}

export function defineErpProvider<O>(def: {
  id: string;
  displayName: string;
  erpKind?: string;
  options: z.ZodType<O>;
  tenantOptions?: z.ZodType<unknown>;
  verification?: ErpVerification;
  create(options: O): ErpProvider;
}): ErpProviderDefinition<O> {
  return { kind: 'erp', erpKind: def.erpKind ?? def.id, ...def };
}
