import { deleteFilesOf } from '~/core/files/files.service';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { AppError, notFound, permissionDenied } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import {
  containsPattern,
  duplicate,
  inUse,
  isForeignKeyViolation,
  uniqueViolation,
  zIdentifier,
} from '~/core/registers/list-query';
import { proposeNumber } from '~/core/registers/propose-id';
import {
  ZContact,
  ZCreateCustomer,
  ZCustomerListQuery,
  ZUpdateCustomer,
  MAX_CONTACTS,
  type TAddress,
  type TContact,
} from './customer.schema';

/** The history stream of a customer; its contacts, addresses, prices and zone users write to it too. */
export const CUSTOMER_ENTITY = 'customer';

/**
 * The text search: the customer's own columns (customers_search_idx) or its contacts' names
 * (contact_search, kept by a trigger: migration 0017), each with its trigram index.
 */
const SEARCH_SQL = `(c.search_text like ? or c.contact_search like ?)`;

export interface CustomerAddress {
  id: string;
  street: string | null;
  postIndex: string | null;
  city: string | null;
  notes: string | null;
  costCenter: string | null;
  contactName: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
  isPrimary: boolean;
}

export interface CustomerContact {
  name: string;
  role: string | null;
  phone: string | null;
  email: string | null;
  /** Spec section 3: a contact carries its customer's name. */
  customerName: string;
}

export interface Customer {
  id: string;
  customerId: string | null;
  name: string;
  type: 'private' | 'company';
  status: 'active' | 'inactive';
  potential: boolean;
  organizationalNumber: string | null;
  vatNumber: string | null;
  /** ISO country code; null: the company's own (issue 15: it decides the Peppol address scheme). */
  country: string | null;
  /** An explicit Peppol participant id (`0088:7300010000001`); null: derived from the org. number. */
  peppolId: string | null;
  personId: string | null;
  phone: string | null;
  email: string | null;
  paymentTermDays: number | null;
  reverseVat: boolean;
  bgAccount: string | null;
  iban: string | null;
  bic: string | null;
  /** Percent, 0–100. */
  defaultDiscount: number | null;
  priceListId: string | null;
  priceList: string | null;
  invoiceLanguage: string | null;
  invoiceEmail: string | null;
  broadcastEmail: string | null;
  sendToErp: boolean;
  /** The spec's name for the same flag, the other way round. */
  ignoreErpInvoices: boolean;
  notes: string | null;
  configuration: Record<string, unknown>;
  addresses: CustomerAddress[];
  contacts: CustomerContact[];
  createdAt: string;
  updatedAt: string;
}

export interface CustomerListItem {
  id: string;
  customerId: string | null;
  name: string;
  type: 'private' | 'company';
  status: 'active' | 'inactive';
  potential: boolean;
  organizationalNumber: string | null;
  phone: string | null;
  email: string | null;
  /** The primary address, "street, post index city". */
  address: string | null;
  city: string | null;
}

type Row = Record<string, unknown>;

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));

/**
 * The configuration as the spec carries it: the stored JSON with `invoice.reverseVat` and
 * `ignoreErpInvoices` taken from their columns, so both names always agree.
 */
function exposedConfiguration(row: Row): Record<string, unknown> {
  const stored = (row.configuration ?? {}) as Record<string, unknown>;
  const invoice = typeof stored.invoice === 'object' && stored.invoice !== null ? stored.invoice : {};
  return {
    ...stored,
    invoice: { ...(invoice as Record<string, unknown>), reverseVat: Boolean(row.reverse_vat) },
    ignoreErpInvoices: !row.send_to_erp,
  };
}

/**
 * What of a configuration is kept as JSON: everything but the two carried flags, which live in
 * columns (`reverse_vat`, `send_to_erp`). Returns the flags found so the caller can set them.
 */
function splitConfiguration(configuration: Record<string, unknown>): {
  stored: Record<string, unknown>;
  reverseVat?: boolean;
  sendToErp?: boolean;
} {
  const { ignoreErpInvoices, invoice, ...rest } = configuration;
  const out: { stored: Record<string, unknown>; reverseVat?: boolean; sendToErp?: boolean } = { stored: rest };
  if (typeof ignoreErpInvoices === 'boolean') out.sendToErp = !ignoreErpInvoices;
  if (typeof invoice === 'object' && invoice !== null && !Array.isArray(invoice)) {
    const { reverseVat, ...invoiceRest } = invoice as Record<string, unknown>;
    if (typeof reverseVat === 'boolean') out.reverseVat = reverseVat;
    if (Object.keys(invoiceRest).length) out.stored.invoice = invoiceRest;
  }
  return out;
}

function addressOut(r: Row): CustomerAddress {
  return {
    id: r.id as string,
    street: str(r.street),
    postIndex: str(r.post_index),
    city: str(r.city),
    notes: str(r.notes),
    costCenter: str(r.cost_center),
    contactName: str(r.contact_name),
    contactEmail: str(r.contact_email),
    contactPhone: str(r.contact_phone),
    isPrimary: Boolean(r.is_primary),
  };
}

function customerOut(r: Row, addresses: CustomerAddress[], contacts: CustomerContact[]): Customer {
  return {
    id: r.id as string,
    customerId: str(r.customer_id),
    name: r.name as string,
    type: r.type as Customer['type'],
    status: r.status as Customer['status'],
    potential: Boolean(r.potential),
    organizationalNumber: str(r.organizational_number),
    vatNumber: str(r.vat_number),
    country: str(r.country),
    peppolId: str(r.peppol_id),
    personId: str(r.person_id),
    phone: str(r.phone),
    email: str(r.email),
    paymentTermDays:
      r.payment_term_days === null || r.payment_term_days === undefined ? null : Number(r.payment_term_days),
    reverseVat: Boolean(r.reverse_vat),
    bgAccount: str(r.bg_account),
    iban: str(r.iban),
    bic: str(r.bic),
    defaultDiscount:
      r.default_discount === null || r.default_discount === undefined ? null : Number(r.default_discount),
    priceListId: str(r.price_list_id),
    priceList: str(r.price_list),
    invoiceLanguage: str(r.invoice_language),
    invoiceEmail: str(r.invoice_email),
    broadcastEmail: str(r.broadcast_email),
    sendToErp: Boolean(r.send_to_erp),
    ignoreErpInvoices: !r.send_to_erp,
    notes: str(r.notes),
    configuration: exposedConfiguration(r),
    addresses,
    contacts,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/** The customer row, or 404 for an unknown id, another tenant's id or a non-uuid. */
export async function requireCustomerRow(ctx: Ctx, id: unknown): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const row = await ctx.trx('customers').where({ id }).first();
  if (!row) throw notFound();
  return row as Row;
}

/** `GET /customers`: search, filters and sort in SQL, one page and the total (two statements). */
export async function listCustomers(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ customers: CustomerListItem[]; totalCount: number }> {
  requireAccess(ctx.auth, { permission: 'customers:read' });
  const f = parseInput(ZCustomerListQuery, raw);
  const base = ctx.trx('customers as c');
  if (f.q) base.whereRaw(SEARCH_SQL, [containsPattern(f.q), containsPattern(f.q)]);
  if (f.status !== 'all') base.where('c.status', f.status);
  if (f.type !== 'all') base.where('c.type', f.type);
  if (f.potential !== undefined) base.where('c.potential', f.potential);
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const dir = f.dir === 'desc' ? 'desc' : 'asc';
  const order =
    f.sort === 'customerId'
      ? `lower(c.customer_id) ${dir} nulls last, c.id ${dir}`
      : `lower(c.name) ${dir}, c.id ${dir}`;
  const rows = (await base
    .clone()
    .leftJoin('customer_addresses as a', (j) => j.on('a.customer_id', 'c.id').andOnVal('a.is_primary', '=', true))
    .select(
      'c.id',
      'c.customer_id',
      'c.name',
      'c.type',
      'c.status',
      'c.potential',
      'c.organizational_number',
      'c.phone',
      'c.email',
      'a.street',
      'a.post_index',
      'a.city',
    )
    .orderByRaw(order)
    .limit(f.limit)
    .offset(f.offset)) as Row[];
  return {
    totalCount: Number(n),
    customers: rows.map((r) => ({
      id: r.id as string,
      customerId: str(r.customer_id),
      name: r.name as string,
      type: r.type as CustomerListItem['type'],
      status: r.status as CustomerListItem['status'],
      potential: Boolean(r.potential),
      organizationalNumber: str(r.organizational_number),
      phone: str(r.phone),
      email: str(r.email),
      address: formatAddress(r),
      city: str(r.city),
    })),
  };
}

function formatAddress(r: Row): string | null {
  const place = [r.post_index, r.city].filter(Boolean).join(' ');
  const text = [r.street, place].filter(Boolean).join(', ');
  return text || null;
}

/** The picker's options (spec section 9: at most 200, searched in SQL): active customers, "number – name". */
export async function customerOptions(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ options: { id: string; label: string; description?: string }[]; total: number }> {
  requireAccess(ctx.auth, { permission: 'customers:read' });
  const { q } = parseInput(z.object({ q: z.string().trim().max(200, 'ERROR_MAX_LENGTH').optional() }), raw);
  const base = ctx.trx('customers as c').where('c.status', 'active');
  if (q) base.whereRaw(SEARCH_SQL, [containsPattern(q), containsPattern(q)]);
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .leftJoin('customer_addresses as a', (j) => j.on('a.customer_id', 'c.id').andOnVal('a.is_primary', '=', true))
    .select('c.id', 'c.customer_id', 'c.name', 'a.street', 'a.post_index', 'a.city')
    .orderByRaw('lower(c.name), c.id')
    .limit(200)) as Row[];
  return {
    total: Number(n),
    options: rows.map((r) => {
      const address = formatAddress(r);
      return {
        id: r.id as string,
        label: customerLabel(r),
        ...(address ? { description: address } : {}),
      };
    }),
  };
}

/** "10001 – Brf Solrosen", or the name alone for a customer without a number. */
export function customerLabel(r: { customer_id?: unknown; name?: unknown }): string {
  return r.customer_id ? `${String(r.customer_id)} – ${String(r.name)}` : String(r.name);
}

/** `GET /customers/{id}`: the customer with addresses (primary first) and contacts. */
export async function getCustomer(ctx: Ctx, id: unknown): Promise<Customer> {
  requireAccess(ctx.auth, { permission: 'customers:read' });
  if (!isUuid(id)) throw notFound();
  const row = (await ctx
    .trx('customers as c')
    .leftJoin('price_lists as p', 'p.id', 'c.price_list_id')
    .where('c.id', id)
    .first('c.*', 'p.title as price_list')) as Row | undefined;
  if (!row) throw notFound();
  const [addresses, contacts] = await Promise.all([
    ctx
      .trx('customer_addresses')
      .where({ customer_id: id })
      .orderBy([{ column: 'sort_order' }, { column: 'id' }]),
    ctx
      .trx('customer_contacts')
      .where({ customer_id: id })
      .orderBy([{ column: 'sort_order' }, { column: 'id' }]),
  ]);
  return customerOut(
    row,
    (addresses as Row[]).map(addressOut),
    (contacts as Row[]).map((c) => ({
      name: c.name as string,
      role: str(c.role),
      phone: str(c.phone),
      email: str(c.email),
      customerName: row.name as string,
    })),
  );
}

/** Spec: a customer's number (except a potential customer's) is required; 400 otherwise. */
function requireNumberUnlessPotential(customerId: string | null, potential: boolean) {
  if (!customerId && !potential)
    throw new AppError('VALIDATION_FAILED', 400, { fields: { customerId: ['ERROR_REQUIRED_FIELD'] } });
}

async function checkPriceList(ctx: Ctx, priceListId: string | null | undefined) {
  if (!priceListId) return;
  const found = await ctx.trx('price_lists').where({ id: priceListId }).first('id');
  if (!found) throw new AppError('VALIDATION_FAILED', 400, { fields: { priceListId: ['ERROR_INVALID_VALUE'] } });
}

/** Turns the unique index on the customer number into the spec's 409 DUPLICATE_CUSTOMER_ID. */
async function guardDuplicateNumber<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (uniqueViolation(e) === 'customers_customer_id_idx') throw duplicate('DUPLICATE_CUSTOMER_ID', 'customerId');
    throw e;
  }
}

/**
 * Spec section 3: addresses have exactly one primary. A single address is the primary one by
 * itself (the first address a customer gets); with more, exactly one must be marked, else 400
 * ERROR_ONE_PRIMARY_ADDRESS.
 */
export function withOnePrimary(addresses: TAddress[]): TAddress[] {
  if (addresses.length === 1) return [{ ...addresses[0]!, isPrimary: true }];
  const primaries = addresses.filter((a) => a.isPrimary).length;
  if (addresses.length > 1 && primaries !== 1)
    throw new AppError('ERROR_ONE_PRIMARY_ADDRESS', 400, { fields: { addresses: ['ERROR_ONE_PRIMARY_ADDRESS'] } });
  return addresses;
}

/**
 * Replaces a customer's addresses with `addresses`, keeping the id of each one that names an
 * existing address of this customer (agreements and invoices point at addresses). Three
 * statements whatever the count: read ids, delete the dropped ones and clear the primary mark,
 * upsert all.
 */
async function replaceAddresses(ctx: Ctx, customerUuid: string, input: TAddress[]): Promise<boolean> {
  const addresses = withOnePrimary(input);
  const before = (await ctx
    .trx('customer_addresses')
    .where({ customer_id: customerUuid })
    .orderBy([{ column: 'sort_order' }, { column: 'id' }])) as Row[];
  const existing = new Set(before.map((r) => r.id as string));
  const fields: Record<string, string[]> = {};
  const seen = new Set<string>();
  addresses.forEach((a, i) => {
    if (a.id && (!existing.has(a.id) || seen.has(a.id))) fields[`addresses.${i}.id`] = ['ERROR_INVALID_VALUE'];
    if (a.id) seen.add(a.id);
  });
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
  const changed =
    JSON.stringify(before.map(addressOut)) !== JSON.stringify(addresses.map((a) => addressOut(addressRow(a))));
  const keep = addresses.map((a) => a.id).filter((id): id is string => Boolean(id));
  // The unique index allows one primary per customer at any moment: clear it before the upsert.
  await ctx.trx('customer_addresses').where({ customer_id: customerUuid }).whereNotIn('id', keep).delete();
  if (keep.length)
    await ctx
      .trx('customer_addresses')
      .where({ customer_id: customerUuid, is_primary: true })
      .update({ is_primary: false });
  if (!addresses.length) return changed;
  await ctx
    .trx('customer_addresses')
    .insert(
      addresses.map((a, i) => ({
        ...addressRow(a),
        id: a.id ?? randomUUID(),
        customer_id: customerUuid,
        sort_order: i,
      })),
    )
    .onConflict('id')
    .merge();
  return changed;
}

/** An address's columns (without customer and order). */
function addressRow(a: TAddress & { id?: string | null }): Row {
  return {
    id: a.id ?? null,
    street: a.street,
    post_index: a.postIndex,
    city: a.city,
    notes: a.notes,
    cost_center: a.costCenter,
    contact_name: a.contactName,
    contact_email: a.contactEmail,
    contact_phone: a.contactPhone,
    is_primary: a.isPrimary,
  };
}

/** Replaces every contact; true when the list differs from what was there. */
async function replaceContacts(ctx: Ctx, customerUuid: string, contacts: TContact[]): Promise<boolean> {
  const before = (await ctx
    .trx('customer_contacts')
    .where({ customer_id: customerUuid })
    .orderBy([{ column: 'sort_order' }, { column: 'id' }])
    .select('name', 'role', 'phone', 'email')) as Row[];
  const shape = (c: Row | TContact) => [c.name, c.role ?? null, c.phone ?? null, c.email ?? null];
  const changed = JSON.stringify(before.map(shape)) !== JSON.stringify(contacts.map(shape));
  if (!changed) return false;
  await ctx.trx('customer_contacts').where({ customer_id: customerUuid }).delete();
  if (contacts.length)
    await ctx.trx('customer_contacts').insert(
      contacts.map((c, i) => ({
        customer_id: customerUuid,
        name: c.name,
        role: c.role,
        phone: c.phone,
        email: c.email,
        sort_order: i,
      })),
    );
  return true;
}

/** The customer's own columns from API fields that are present (undefined: leave as it is). */
function columnsOf(input: Partial<Record<string, unknown>>): Record<string, unknown> {
  const map: Record<string, string> = {
    customerId: 'customer_id',
    name: 'name',
    type: 'type',
    status: 'status',
    potential: 'potential',
    organizationalNumber: 'organizational_number',
    vatNumber: 'vat_number',
    country: 'country',
    peppolId: 'peppol_id',
    personId: 'person_id',
    phone: 'phone',
    email: 'email',
    paymentTermDays: 'payment_term_days',
    reverseVat: 'reverse_vat',
    bgAccount: 'bg_account',
    iban: 'iban',
    bic: 'bic',
    defaultDiscount: 'default_discount',
    priceListId: 'price_list_id',
    invoiceLanguage: 'invoice_language',
    invoiceEmail: 'invoice_email',
    broadcastEmail: 'broadcast_email',
    notes: 'notes',
  };
  const out: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(map)) if (input[field] !== undefined) out[column] = input[field];
  // Either name of the ERP flag; `sendToErp` wins when both are given.
  if (typeof input.sendToErp === 'boolean') out.send_to_erp = input.sendToErp;
  else if (typeof input.ignoreErpInvoices === 'boolean') out.send_to_erp = !input.ignoreErpInvoices;
  if (input.configuration !== undefined) {
    const split = splitConfiguration(input.configuration as Record<string, unknown>);
    out.configuration = JSON.stringify(split.stored);
    if (split.reverseVat !== undefined && input.reverseVat === undefined) out.reverse_vat = split.reverseVat;
    if (split.sendToErp !== undefined && out.send_to_erp === undefined) out.send_to_erp = split.sendToErp;
  }
  return out;
}

/**
 * `POST /customers {customer}`: needs customers:create, or customers:create_potential for a
 * potential customer. With its addresses and contacts, in one transaction.
 */
export async function createCustomer(ctx: Ctx, raw: unknown): Promise<Customer> {
  requireAccess(ctx.auth, { permission: 'signed-in' });
  const canCreate = hasAccess(ctx.auth, { permission: 'customers:create' });
  const canCreatePotential = hasAccess(ctx.auth, { permission: 'customers:create_potential' });
  if (!canCreate && !canCreatePotential) throw permissionDenied();
  const input = parseInput(ZCreateCustomer, raw);
  if (!canCreate && !input.potential) throw permissionDenied();
  requireNumberUnlessPotential(input.customerId, input.potential);
  await checkPriceList(ctx, input.priceListId);
  const columns = columnsOf(input);
  const id = await guardDuplicateNumber(async () => {
    const [row] = await ctx
      .trx('customers')
      .insert({ ...columns, configuration: columns.configuration ?? '{}', created_at: ctx.now, updated_at: ctx.now })
      .returning('id');
    return (row as { id: string }).id;
  });
  await replaceAddresses(ctx, id, input.addresses);
  await replaceContacts(ctx, id, input.contacts);
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: id,
    action: 'create',
    data: { customerId: input.customerId, name: input.name },
  });
  return getCustomer(ctx, id);
}

/** Fields whose values history keeps; others are named only (notes and configuration can be long). */
const HISTORY_VALUE_FIELDS = new Set([
  'customer_id',
  'name',
  'type',
  'status',
  'potential',
  'payment_term_days',
  'reverse_vat',
  'default_discount',
  'price_list_id',
  'invoice_language',
  'send_to_erp',
]);

function changesOf(before: Row, after: Record<string, unknown>) {
  const changes: Record<string, { from: unknown; to: unknown } | true> = {};
  for (const [column, value] of Object.entries(after)) {
    if (column === 'updated_at') continue;
    const old = before[column];
    const same =
      column === 'configuration'
        ? JSON.stringify(old ?? {}) === value
        : column === 'default_discount'
          ? (old === null ? null : Number(old)) === (value === null ? null : Number(value))
          : (old ?? null) === (value ?? null);
    if (same) continue;
    changes[column] = HISTORY_VALUE_FIELDS.has(column) ? { from: old ?? null, to: value ?? null } : true;
  }
  return changes;
}

/**
 * `PUT /customers {customer}`: changes the fields given (absent ones stay); `addresses` and
 * `contacts`, when given, replace the customer's lists. Needs customers:edit.
 */
export async function updateCustomer(ctx: Ctx, raw: unknown): Promise<Customer> {
  requireAccess(ctx.auth, { permission: 'customers:edit' });
  const input = parseInput(ZUpdateCustomer, raw);
  const before = await requireCustomerRow(ctx, input.id);
  const potential = input.potential ?? Boolean(before.potential);
  const number = input.customerId !== undefined ? input.customerId : (before.customer_id as string | null);
  requireNumberUnlessPotential(number, potential);
  await checkPriceList(ctx, input.priceListId);
  const columns = columnsOf(input);
  const changes = changesOf(before, columns);
  if (Object.keys(changes).length)
    await guardDuplicateNumber(() => ctx.trx('customers').where({ id: before.id }).update(columns));
  if (input.addresses && (await replaceAddresses(ctx, before.id as string, input.addresses))) changes.addresses = true;
  if (input.contacts && (await replaceContacts(ctx, before.id as string, input.contacts))) changes.contacts = true;
  // A save that changes nothing leaves no trace (people press Save twice).
  if (Object.keys(changes).length) {
    await ctx.trx('customers').where({ id: before.id }).update({ updated_at: ctx.now });
    await recordHistory(ctx, {
      entity: CUSTOMER_ENTITY,
      entityId: before.id as string,
      action: 'edit',
      data: { changes },
    });
  }
  return getCustomer(ctx, before.id);
}

/** `GET /customers/{id}/id`: the customer number. */
export async function getCustomerNumber(ctx: Ctx, id: unknown): Promise<{ customerId: string | null }> {
  requireAccess(ctx.auth, { permission: 'customers:read' });
  const row = await requireCustomerRow(ctx, id);
  return { customerId: str(row.customer_id) };
}

export const ZCustomerNumber = z.object({ customerId: zIdentifier(30) });

/** `PUT /customers/{id}/id {customerId}`: gives the customer another number (409 when taken). */
export async function changeCustomerNumber(ctx: Ctx, id: unknown, raw: unknown): Promise<{ customerId: string }> {
  requireAccess(ctx.auth, { permission: 'customers:edit' });
  const { customerId } = parseInput(ZCustomerNumber, raw);
  const row = await requireCustomerRow(ctx, id);
  await guardDuplicateNumber(() =>
    ctx.trx('customers').where({ id: row.id }).update({ customer_id: customerId, updated_at: ctx.now }),
  );
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: row.id as string,
    action: 'edit.id',
    data: { changes: { customer_id: { from: row.customer_id ?? null, to: customerId } } },
  });
  return { customerId };
}

/** `GET /customers/id/propose?length`: the next free all-digit number of that length. */
export async function proposeCustomerNumber(ctx: Ctx, raw: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, { permission: 'customers:read' });
  return proposeNumber(ctx, 'customers', 'customer_id', raw);
}

/** `GET /customers/{id}/conf`: the configuration JSON, with the carried invoice and ERP flags. */
export async function getCustomerConfiguration(
  ctx: Ctx,
  id: unknown,
): Promise<{ configuration: Record<string, unknown> }> {
  requireAccess(ctx.auth, { permission: 'customers:read' });
  return { configuration: exposedConfiguration(await requireCustomerRow(ctx, id)) };
}

export const ZConfiguration = z.object({
  configuration: z
    .record(z.string(), z.unknown(), { error: 'ERROR_INVALID_VALUE' })
    .refine((c) => JSON.stringify(c).length <= 20_000, 'ERROR_MAX_LENGTH'),
});

/**
 * `PUT /customers/{id}/conf {configuration}`: replaces the configuration. `invoice.reverseVat` and
 * `ignoreErpInvoices` in it set the customer's reverse-VAT and ERP flags.
 */
export async function setCustomerConfiguration(
  ctx: Ctx,
  id: unknown,
  raw: unknown,
): Promise<{ configuration: Record<string, unknown> }> {
  requireAccess(ctx.auth, { permission: 'customers:edit' });
  const { configuration } = parseInput(ZConfiguration, raw);
  const row = await requireCustomerRow(ctx, id);
  const columns = columnsOf({ configuration });
  await ctx
    .trx('customers')
    .where({ id: row.id })
    .update({ ...columns, updated_at: ctx.now });
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: row.id as string,
    action: 'edit.conf',
    data: { changes: changesOf(row, columns) },
  });
  return getCustomerConfiguration(ctx, row.id);
}

/** `GET /customers/{id}/contacts`. */
export async function getCustomerContacts(ctx: Ctx, id: unknown): Promise<{ contacts: CustomerContact[] }> {
  const customer = await getCustomer(ctx, id);
  return { contacts: customer.contacts };
}

export const ZCustomerContacts = z.object({
  contacts: z.array(ZContact, { error: 'ERROR_REQUIRED_FIELD' }).max(MAX_CONTACTS, 'ERROR_INVALID_VALUE'),
});

/** `PUT /customers/{id}/contacts {contacts}`: replaces every contact in one transaction. */
export async function setCustomerContacts(
  ctx: Ctx,
  id: unknown,
  raw: unknown,
): Promise<{ contacts: CustomerContact[] }> {
  requireAccess(ctx.auth, { permission: 'customers:edit' });
  const { contacts } = parseInput(ZCustomerContacts, raw);
  const row = await requireCustomerRow(ctx, id);
  await replaceContacts(ctx, row.id as string, contacts);
  await ctx.trx('customers').where({ id: row.id }).update({ updated_at: ctx.now });
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: row.id as string,
    action: 'edit.contacts',
    data: { count: contacts.length },
  });
  return getCustomerContacts(ctx, row.id);
}

/**
 * `DELETE /customers/{id}`: refused with 409 IN_USE and the counts when objects belong to the
 * customer; when something else still points at it, 409 DELETE_NOT_POSSIBLE_SET_INACTIVE.
 */
export async function deleteCustomer(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'customers:delete' });
  const row = await requireCustomerRow(ctx, id);
  const [{ n }] = (await ctx.trx('business_objects').where({ customer_id: row.id }).count({ n: '*' })) as {
    n: string | number;
  }[];
  if (Number(n) > 0) throw inUse({ objects: Number(n) });
  try {
    await ctx.trx('customers').where({ id: row.id }).delete();
  } catch (e) {
    if (isForeignKeyViolation(e)) throw new AppError('DELETE_NOT_POSSIBLE_SET_INACTIVE', 409);
    throw e;
  }
  await deleteFilesOf(ctx, 'customer', [row.id as string]);
  await recordHistory(ctx, {
    entity: CUSTOMER_ENTITY,
    entityId: row.id as string,
    action: 'delete',
    data: { customerId: row.customer_id ?? null, name: row.name },
  });
}

export const ZHistoryQuery = z.object({
  from: z.coerce.number({ error: 'ERROR_INVALID_VALUE' }).int().min(0).default(0),
  size: z.coerce.number({ error: 'ERROR_INVALID_VALUE' }).int().min(1).max(200).default(20),
});

export interface HistoryRow {
  userName: string | null;
  action: string;
  timestamp: string;
  data: unknown;
}

/** `GET /customers/{id}/history?from&size`: newest first, with who did it; `totalCount` for "load more". */
export async function getCustomerHistory(
  ctx: Ctx,
  id: unknown,
  raw: unknown = {},
): Promise<{ rows: HistoryRow[]; totalCount: number }> {
  requireAccess(ctx.auth, { permission: 'customers:read' });
  const { from, size } = parseInput(ZHistoryQuery, raw);
  const row = await requireCustomerRow(ctx, id);
  const base = ctx.trx('history as h').where({ 'h.entity': CUSTOMER_ENTITY, 'h.entity_id': row.id as string });
  const [{ n }] = (await base.clone().count({ n: '*' })) as { n: string | number }[];
  const rows = (await base
    .clone()
    .leftJoin('users as u', 'u.id', 'h.user_id')
    .select('u.name as user_name', 'h.action', 'h.at', 'h.data')
    .orderBy([
      { column: 'h.at', order: 'desc' },
      { column: 'h.id', order: 'desc' },
    ])
    .limit(size)
    .offset(from)) as Row[];
  return {
    totalCount: Number(n),
    rows: rows.map((r) => ({
      userName: str(r.user_name),
      action: r.action as string,
      timestamp: iso(r.at),
      data: r.data ?? null,
    })),
  };
}

/** A customer's name for a filter's label; null for none, or one that is not this tenant's. */
export async function customerNameOf(ctx: Ctx, id: string | null | undefined): Promise<string | null> {
  if (!isUuid(id)) return null;
  const row = (await ctx.trx('customers').where({ id }).first('name')) as { name: string } | undefined;
  return row?.name ?? null;
}
