import type { Knex } from 'knex';
import type { Auth, Ctx } from '~/core/context';
import { ACTIVE_USERS_WHERE, namedOptionsSql } from '~/core/db/json-options';
import { AppError, notFound, permissionDenied } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { hasAccess, requireAccess, type Access } from '~/core/permissions/access';
import { formatDecimal, sub } from '~/core/pricing/decimal';
import { proposeNumber } from '~/core/registers/propose-id';
import { containsPattern, duplicate, uniqueViolation } from '~/core/registers/list-query';
import { CONTRACT_NUMBER_LENGTH, type ContractScope, type ContractStatus } from './contract-constants';
import {
  ZContractList,
  ZCreateContract,
  ZUpdateContract,
  type TContractService,
  type TCreateContract,
} from './contract.schema';

/**
 * Contracts (issue 16 item 6; spec sections 2, 3, 5 and 6): the CONTRACTS app module's register of
 * what a customer has contracted — services with their value and cost, the sales user, the
 * invoice reference, start and stop date — open until closed.
 *
 * Who sees and changes what (spec section 6): contracts:read shows one's own contracts (one is
 * their sales user or their creator); contracts:read_all shows all of them. contracts:edit
 * changes one's own; contracts:edit_all extends it to everyone's (and so shows them too).
 * contracts:create, contracts:close (close and reopen) and contracts:delete act on the contracts
 * one sees. A contract one may not see answers exactly like another tenant's: 404.
 */

export const CONTRACT_ACCESS = {
  read: { permission: 'contracts:read', module: 'contracts' },
  readAll: { permission: 'contracts:read_all', module: 'contracts' },
  edit: { permission: 'contracts:edit', module: 'contracts' },
  editAll: { permission: 'contracts:edit_all', module: 'contracts' },
  create: { permission: 'contracts:create', module: 'contracts' },
  close: { permission: 'contracts:close', module: 'contracts' },
  delete: { permission: 'contracts:delete', module: 'contracts' },
} as const satisfies Record<string, Access>;
const ENTITY = 'contract';

export interface ContractService {
  id: string;
  name: string;
  value: string;
  cost: string;
}

export interface Contract {
  id: string;
  /** The contract ID people see and type (unique, case-insensitive). */
  number: string;
  title: string;
  customerId: string;
  customerName: string;
  customerNumber: string | null;
  contactName: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
  salesUserId: string | null;
  salesUserName: string | null;
  createUserId: string | null;
  createUserName: string | null;
  status: ContractStatus;
  closedAt: string | null;
  startDate: string | null;
  stopDate: string | null;
  invoiceReference: string | null;
  note: string | null;
  /** Sums of the services' values and costs, and their difference, as exact decimal text. */
  totalValue: string;
  totalCost: string;
  margin: string;
  serviceCount: number;
  version: number;
  createdAt: string;
  updatedAt: string;
  /** The services, in order (one contract; the list leaves them out). */
  services?: ContractService[];
}

type Row = Record<string, unknown>;

const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

function toContract(r: Row): Contract {
  const totalValue = formatDecimal(String(r.total_value ?? '0'));
  const totalCost = formatDecimal(String(r.total_cost ?? '0'));
  return {
    id: r.id as string,
    number: r.contract_number as string,
    title: r.title as string,
    customerId: r.customer_id as string,
    customerName: r.customer_name as string,
    customerNumber: (r.customer_number as string | null) ?? null,
    contactName: (r.contact_name as string | null) ?? null,
    contactEmail: (r.contact_email as string | null) ?? null,
    contactPhone: (r.contact_phone as string | null) ?? null,
    salesUserId: (r.sales_user_id as string | null) ?? null,
    salesUserName: (r.sales_user_name as string | null) ?? null,
    createUserId: (r.create_user_id as string | null) ?? null,
    createUserName: (r.create_user_name as string | null) ?? null,
    status: r.status as ContractStatus,
    closedAt: iso(r.closed_at),
    startDate: (r.start_date as string | null) ?? null,
    stopDate: (r.stop_date as string | null) ?? null,
    invoiceReference: (r.invoice_reference as string | null) ?? null,
    note: (r.note as string | null) ?? null,
    totalValue,
    totalCost,
    margin: formatDecimal(sub(totalValue, totalCost)),
    serviceCount: Number(r.service_count ?? 0),
    version: Number(r.version),
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

/**
 * Contracts with their customer, people and totals: the totals are one aggregate per contract
 * over its services' index, in the same statement (a lateral join), never a query per row.
 */
function contractQuery(ctx: Ctx) {
  return ctx
    .trx('contracts as k')
    .join('customers as c', 'c.id', 'k.customer_id')
    .leftJoin('users as su', 'su.id', 'k.sales_user_id')
    .leftJoin('users as cu', 'cu.id', 'k.create_user_id')
    .joinRaw(
      `left join lateral (
         select coalesce(sum(s.value), 0) as total_value, coalesce(sum(s.cost), 0) as total_cost,
                count(*)::int as service_count
           from contract_services s where s.contract_id = k.id) t on true`,
    )
    .select(
      'k.id',
      'k.contract_number',
      'k.title',
      'k.customer_id',
      'k.contact_name',
      'k.contact_email',
      'k.contact_phone',
      'k.sales_user_id',
      'k.create_user_id',
      'k.status',
      'k.closed_at',
      ctx.trx.raw(`to_char(k.start_date, 'YYYY-MM-DD') as start_date`),
      ctx.trx.raw(`to_char(k.stop_date, 'YYYY-MM-DD') as stop_date`),
      'k.invoice_reference',
      'k.note',
      'k.version',
      'k.created_at',
      'k.updated_at',
      'c.name as customer_name',
      'c.customer_id as customer_number',
      'su.name as sales_user_name',
      'cu.name as create_user_name',
      't.total_value',
      't.total_cost',
      't.service_count',
    );
}

/** Whether `auth` sees every contract, not only its own. */
const seesAll = (auth: Auth | null) =>
  hasAccess(auth, CONTRACT_ACCESS.readAll) || hasAccess(auth, CONTRACT_ACCESS.editAll);

/** Only the contracts `userId` is the sales user or creator of. */
function onlyOwn(q: Knex.QueryBuilder, userId: string) {
  void q.where((w) => w.where('k.sales_user_id', userId).orWhere('k.create_user_id', userId));
}

const isOwn = (auth: Auth, r: { sales_user_id?: unknown; create_user_id?: unknown }) =>
  r.sales_user_id === auth.user.id || r.create_user_id === auth.user.id;

/** The contract with its services, whoever asks (the services check who may see it). */
async function readContract(ctx: Ctx, id: string): Promise<Contract | null> {
  const row = (await contractQuery(ctx).where('k.id', id).first()) as Row | undefined;
  if (!row) return null;
  const services = (await ctx
    .trx('contract_services')
    .where({ contract_id: id })
    .orderBy([{ column: 'sort_order' }, { column: 'id' }])
    .select('id', 'name', 'value', 'cost')) as Row[];
  return {
    ...toContract(row),
    services: services.map((s) => ({
      id: s.id as string,
      name: s.name as string,
      value: formatDecimal(String(s.value)),
      cost: formatDecimal(String(s.cost)),
    })),
  };
}

/** A contract the asker may see, else 404 (a malformed id, another tenant's, someone else's). */
async function requireVisible(ctx: Ctx, id: unknown): Promise<Contract> {
  if (!isUuid(id)) throw notFound();
  const contract = await readContract(ctx, id);
  const auth = ctx.auth!;
  if (!contract) throw notFound();
  if (!seesAll(auth) && contract.salesUserId !== auth.user.id && contract.createUserId !== auth.user.id)
    throw notFound();
  return contract;
}

/**
 * GET /contracts: a page of contracts with their totals, in one statement (and one to count):
 * open ones unless told, one's own unless one reads all (and then all unless `scope=mine`),
 * searched by contract ID, title, invoice reference, contact or customer (trigram indexes), by
 * customer and sales user; those ending first, by contract ID or by customer.
 */
export async function listContracts(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ contracts: Contract[]; totalCount: number }> {
  requireAccess(ctx.auth, CONTRACT_ACCESS.read);
  const f = parseInput(ZContractList, raw);
  const all = seesAll(ctx.auth);
  const scope: ContractScope = all ? (f.scope ?? 'all') : 'mine';
  const filter = (q: Knex.QueryBuilder) => {
    if (f.status !== 'all') void q.where('k.status', f.status);
    if (scope === 'mine') onlyOwn(q, ctx.auth!.user.id);
    if (f.customerId) void q.where('k.customer_id', f.customerId);
    if (f.salesUserId) void q.where('k.sales_user_id', f.salesUserId);
    if (f.q) {
      const pattern = containsPattern(f.q);
      void q.where((w) =>
        w
          .whereRaw('k.search_text like ?', [pattern])
          .orWhereIn('k.customer_id', ctx.trx('customers').whereRaw('search_text like ?', [pattern]).select('id')),
      );
    }
    return q;
  };
  const [{ n }] = (await filter(ctx.trx('contracts as k')).count({ n: '*' })) as { n: string | number }[];
  const dir = f.desc ? 'desc' : 'asc';
  const order =
    f.sort === 'number'
      ? `lower(k.contract_number) ${dir}, k.id`
      : f.sort === 'customer'
        ? `lower(c.name) ${dir}, lower(k.contract_number), k.id`
        : `k.stop_date ${dir} nulls last, lower(k.contract_number), k.id`;
  const rows = (await filter(contractQuery(ctx)).orderByRaw(order).limit(f.limit).offset(f.offset)) as Row[];
  return { contracts: rows.map(toContract), totalCount: Number(n) };
}

/** GET /contracts/{id}: the contract with its services and totals. */
export async function getContract(ctx: Ctx, id: unknown): Promise<{ contract: Contract }> {
  requireAccess(ctx.auth, CONTRACT_ACCESS.read);
  return { contract: await requireVisible(ctx, id) };
}

function rethrowDuplicate(e: unknown): never {
  if (uniqueViolation(e) === 'contracts_number_idx') throw duplicate('DUPLICATE_CONTRACT_ID', 'number');
  throw e;
}

/** The customer and sales user a contract names exist here (another tenant's: 404). */
async function checkReferences(ctx: Ctx, input: { customerId: string; salesUserId: string | null }) {
  if (!(await ctx.trx('customers').where({ id: input.customerId }).first('id'))) throw notFound();
  if (input.salesUserId && !(await ctx.trx('users').where({ id: input.salesUserId }).first('id'))) throw notFound();
}

const contractColumns = (c: Omit<TCreateContract, 'number' | 'services'>) => ({
  title: c.title,
  customer_id: c.customerId,
  contact_name: c.contactName,
  contact_email: c.contactEmail,
  contact_phone: c.contactPhone,
  sales_user_id: c.salesUserId,
  start_date: c.startDate,
  stop_date: c.stopDate,
  invoice_reference: c.invoiceReference,
  note: c.note,
});

/** The contract's services become `services`, in that order (one delete, one insert). */
async function replaceServices(ctx: Ctx, contractId: string, services: TContractService[]): Promise<void> {
  await ctx.trx('contract_services').where({ contract_id: contractId }).delete();
  if (services.length)
    await ctx.trx('contract_services').insert(
      services.map((s, i) => ({
        contract_id: contractId,
        name: s.name,
        value: s.value,
        cost: s.cost,
        sort_order: i,
      })),
    );
}

/**
 * POST /contracts {contract}: a new open contract, its creator the asker and its sales user the
 * asker when left out (null: nobody); the contract ID is proposed when left out. 409
 * DUPLICATE_CONTRACT_ID.
 */
export async function createContract(ctx: Ctx, raw: unknown): Promise<{ contract: Contract }> {
  requireAccess(ctx.auth, CONTRACT_ACCESS.create);
  const { contract: input } = parseInput(ZCreateContract, raw);
  const salesUserId = input.salesUserId === undefined ? ctx.auth.user.id : input.salesUserId;
  await checkReferences(ctx, { customerId: input.customerId, salesUserId });
  const number =
    input.number ?? (await proposeNumber(ctx, 'contracts', 'contract_number', { length: CONTRACT_NUMBER_LENGTH })).id;
  const [row] = (await ctx
    .trx('contracts')
    .insert({
      ...contractColumns({ ...input, salesUserId }),
      contract_number: number,
      create_user_id: ctx.auth.user.id,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning('id')
    .catch(rethrowDuplicate)) as { id: string }[];
  const id = row!.id;
  await replaceServices(ctx, id, input.services);
  await recordHistory(ctx, {
    entity: ENTITY,
    entityId: id,
    action: 'create',
    data: { number, title: input.title, services: input.services.length },
  });
  return { contract: (await readContract(ctx, id))! };
}

/** The contract locked for a change, if the asker sees it; 404 otherwise. */
async function lockVisible(ctx: Ctx, id: unknown): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const row = (await ctx
    .trx('contracts')
    .where({ id })
    .forUpdate()
    .first('id', 'contract_number', 'status', 'version', 'sales_user_id', 'create_user_id')) as Row | undefined;
  if (!row || (!seesAll(ctx.auth) && !isOwn(ctx.auth!, row))) throw notFound();
  return row;
}

/** May the asker change this contract: edit for one's own, edit_all for everyone's. */
function canEdit(auth: Auth | null, row: { sales_user_id?: unknown; create_user_id?: unknown }): boolean {
  if (!auth || !hasAccess(auth, CONTRACT_ACCESS.edit)) return false;
  return hasAccess(auth, CONTRACT_ACCESS.editAll) || isOwn(auth, row);
}

/**
 * PUT /contracts {contract}: every field of an open contract and its services (replaced as
 * given), naming the version it edited: 409 CONTRACT_CHANGED when saved since, 409
 * CONTRACT_CLOSED once closed, 409 DUPLICATE_CONTRACT_ID.
 */
export async function updateContract(ctx: Ctx, raw: unknown): Promise<{ contract: Contract }> {
  requireAccess(ctx.auth, CONTRACT_ACCESS.edit);
  const { contract: input } = parseInput(ZUpdateContract, raw);
  const locked = await lockVisible(ctx, input.id);
  if (!canEdit(ctx.auth, locked)) throw permissionDenied();
  if (locked.status !== 'open') throw new AppError('CONTRACT_CLOSED', 409);
  if (Number(locked.version) !== input.version) throw new AppError('CONTRACT_CHANGED', 409);
  await checkReferences(ctx, input);
  await ctx
    .trx('contracts')
    .where({ id: input.id })
    .update({
      ...contractColumns(input),
      contract_number: input.number,
      version: Number(locked.version) + 1,
      updated_at: ctx.now,
    })
    .catch(rethrowDuplicate);
  await replaceServices(ctx, input.id, input.services);
  await recordHistory(ctx, {
    entity: ENTITY,
    entityId: input.id,
    action: 'edit',
    data: { number: input.number, title: input.title, services: input.services.length },
  });
  return { contract: (await readContract(ctx, input.id))! };
}

/** POST /contracts/{id}/close (contracts:close): closed from now; 409 CONTRACT_CLOSED if it is. */
export async function closeContract(ctx: Ctx, id: unknown): Promise<{ contract: Contract }> {
  requireAccess(ctx.auth, CONTRACT_ACCESS.close);
  const locked = await lockVisible(ctx, id);
  if (locked.status === 'closed') throw new AppError('CONTRACT_CLOSED', 409);
  await ctx
    .trx('contracts')
    .where({ id: locked.id })
    .update({
      status: 'closed',
      closed_at: ctx.now,
      close_user_id: ctx.auth.user.id,
      version: Number(locked.version) + 1,
      updated_at: ctx.now,
    });
  await recordHistory(ctx, { entity: ENTITY, entityId: locked.id as string, action: 'close' });
  return { contract: (await readContract(ctx, locked.id as string))! };
}

/** POST /contracts/{id}/reopen (contracts:close): open again; 409 CONTRACT_NOT_CLOSED if it is. */
export async function reopenContract(ctx: Ctx, id: unknown): Promise<{ contract: Contract }> {
  requireAccess(ctx.auth, CONTRACT_ACCESS.close);
  const locked = await lockVisible(ctx, id);
  if (locked.status !== 'closed') throw new AppError('CONTRACT_NOT_CLOSED', 409);
  await ctx
    .trx('contracts')
    .where({ id: locked.id })
    .update({
      status: 'open',
      closed_at: null,
      close_user_id: null,
      version: Number(locked.version) + 1,
      updated_at: ctx.now,
    });
  await recordHistory(ctx, { entity: ENTITY, entityId: locked.id as string, action: 'reopen' });
  return { contract: (await readContract(ctx, locked.id as string))! };
}

/** DELETE /contracts/{id} (contracts:delete): the contract and its services. */
export async function deleteContract(ctx: Ctx, id: unknown): Promise<void> {
  requireAccess(ctx.auth, CONTRACT_ACCESS.delete);
  const locked = await lockVisible(ctx, id);
  await ctx.trx('contracts').where({ id: locked.id }).delete();
  await recordHistory(ctx, {
    entity: ENTITY,
    entityId: locked.id as string,
    action: 'delete',
    data: { number: locked.contract_number },
  });
}

/** GET /contracts/id/propose?length: the next free all-digit contract ID (five digits unless told). */
export async function proposeContractNumber(ctx: Ctx, raw: unknown = {}): Promise<{ id: string }> {
  requireAccess(ctx.auth, CONTRACT_ACCESS.create);
  const length = (raw as { length?: unknown } | null)?.length ?? CONTRACT_NUMBER_LENGTH;
  return proposeNumber(ctx, 'contracts', 'contract_number', { length });
}

/** What the contract screens may do with this contract for this user (the buttons they show). */
export function contractAbilities(ctx: Ctx, contract: Pick<Contract, 'salesUserId' | 'createUserId'>) {
  const row = { sales_user_id: contract.salesUserId, create_user_id: contract.createUserId };
  return {
    edit: canEdit(ctx.auth, row),
    close: hasAccess(ctx.auth, CONTRACT_ACCESS.close),
    delete: hasAccess(ctx.auth, CONTRACT_ACCESS.delete),
  };
}

/** The list's own-or-all choice is offered to those who see all contracts. */
export const contractSeesAll = (ctx: Ctx) => seesAll(ctx.auth);

/**
 * What the contract screens choose from, in one statement: active users by name (the sales user,
 * the list's filter) and, when the list is filtered by a customer, that customer's label.
 */
export async function contractOptions(
  ctx: Ctx,
  opts: { customerId?: string | null } = {},
): Promise<{ users: { id: string; name: string }[]; customer: { id: string; label: string } | null }> {
  requireAccess(ctx.auth, CONTRACT_ACCESS.read);
  const customerId = isUuid(opts.customerId) ? opts.customerId : null;
  const { rows } = (await ctx.trx.raw(
    `select ${namedOptionsSql('users', ACTIVE_USERS_WHERE)} as users,
       (select case when customer_id is null then name else customer_id || ' – ' || name end
          from customers where id = ?) as customer_label`,
    [customerId],
  )) as { rows: { users: { id: string; name: string }[]; customer_label: string | null }[] };
  const row = rows[0]!;
  return {
    users: row.users,
    customer: customerId && row.customer_label ? { id: customerId, label: row.customer_label } : null,
  };
}
