import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { open, seal, type SealContext } from '~/core/crypto/secret-box';
import { notFound, permissionDenied } from '~/core/errors/app-error';
import { isUuid, parseInput, UUID_PATTERN, zRequiredString } from '~/core/errors/validation';
import { hasAccess, requireAccess, SIGNED_IN } from '~/core/permissions/access';
import { MAX_PAGE_SIZE, zQueryFlag } from '~/core/registers/list-query';
import { requireBo, type BoRef } from './require-bo';
import { SECURITY_LOG_TYPES, type SecurityLogType } from './security-log-types';

/**
 * Access codes of an object (alarm codes, door codes, service passwords): the most sensitive data
 * an installer holds. Values are sealed at rest with a key derived from SECRET_KEY and the code's
 * id, never appear in a list, a page, a log line, an error or a history row, and are handed out
 * one at a time by `getCodeValue` to someone with bo:codes:view. Every view, copy and change
 * writes the append-only security log in the same transaction; nothing goes to `history`.
 */

export { SECURITY_LOG_TYPES, type SecurityLogType };

/** What a security log row says about the code or group: its names, never its value. */
export interface CodeRef {
  displayName: string;
  groupName: string;
}

export interface AccessCode {
  id: string;
  groupId: string;
  displayName: string;
  sortOrder: number;
  /** Whether a value is stored; the value itself only comes from getCodeValue. */
  hasValue: boolean;
}

export interface CodeGroup {
  id: string;
  businessObjectId: string;
  displayName: string;
  sortOrder: number;
  codes: AccessCode[];
}

export const MAX_CODE_VALUE_LENGTH = 500;

// ---- sealing ----------------------------------------------------------------------------

/**
 * A code's value belongs to its tenant and to the code (values cannot be swapped, decision 040);
 * the v1 format bound the code's id into the key instead.
 */
export const accessCodeContext = (tenantId: string, codeId: string): SealContext => ({
  tenant: tenantId,
  purpose: `codes.value_sealed:${codeId}`,
  legacySecret: (key) => `${key}\u0000access-code\u0000${codeId}`,
});

export function sealCodeValue(tenantId: string, codeId: string, value: string): string {
  return seal(value, accessCodeContext(tenantId, codeId));
}

function openCodeValue(tenantId: string, codeId: string, sealed: string): string {
  return open(sealed, accessCodeContext(tenantId, codeId));
}

// ---- schemas ----------------------------------------------------------------------------

const zName = () => zRequiredString().max(100, 'ERROR_MAX_LENGTH');
const zSortOrder = () => z.coerce.number({ error: 'ERROR_INVALID_VALUE' }).int('ERROR_INVALID_VALUE').min(0).max(1e6);
const zId = () => z.string({ error: 'ERROR_REQUIRED_FIELD' }).regex(UUID_PATTERN, 'ERROR_INVALID_VALUE');
/** A code value as typed: not trimmed (spaces may be part of it); empty means "no value". */
const zValue = () =>
  z
    .string({ error: 'ERROR_INVALID_VALUE' })
    .max(MAX_CODE_VALUE_LENGTH, 'ERROR_MAX_LENGTH')
    .transform((v) => (v === '' ? null : v));

export const ZCreateGroup = z.object({ displayName: zName(), sortOrder: zSortOrder().optional() });
export const ZUpdateGroup = z.object({
  id: z.string(),
  displayName: zName().optional(),
  sortOrder: zSortOrder().optional(),
});
export const ZCreateCode = z.object({
  groupId: zId(),
  displayName: zName(),
  value: zValue().optional(),
  sortOrder: zSortOrder().optional(),
});
export const ZUpdateCode = z.object({
  id: z.string(),
  groupId: zId().optional(),
  displayName: zName().optional(),
  sortOrder: zSortOrder().optional(),
  value: zValue().optional(),
});
export const ZCodeValue = z.object({ id: z.string(), value: zValue() });
export const ZCodeValueQuery = z.object({ copy: zQueryFlag(false) });

const zDate = () =>
  z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || !Number.isNaN(Date.parse(v)), 'ERROR_INVALID_VALUE');

export const ZSecurityLogQuery = z.object({
  businessObjectId: z.preprocess((v) => (v === '' ? undefined : v), zId().optional()),
  userId: z.preprocess((v) => (v === '' ? undefined : v), zId().optional()),
  type: z.preprocess((v) => (v === '' ? undefined : v), z.enum(SECURITY_LOG_TYPES).optional()),
  /** Oldest and newest moment, inclusive; a bare date means that whole day (UTC). */
  startTime: zDate(),
  endTime: zDate(),
  from: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
});

// ---- the log ----------------------------------------------------------------------------

function logRow(ctx: Ctx, bo: BoRef, type: SecurityLogType, from: CodeRef | null, to: CodeRef | null) {
  return {
    type,
    business_object_id: bo.id,
    business_object_serial_code: bo.serialCode,
    from_value: from ? JSON.stringify(from) : null,
    to_value: to ? JSON.stringify(to) : null,
    user_id: ctx.auth?.user.id ?? null,
    user_name: ctx.auth?.user.fullName ?? '',
    at: ctx.now,
  };
}

async function writeLog(ctx: Ctx, bo: BoRef, type: SecurityLogType, from: CodeRef | null, to: CodeRef | null) {
  await ctx.trx('security_log').insert(logRow(ctx, bo, type, from, to));
}

/** Listing needs either code right: a viewer sees what exists, an editor what they change. */
function requireCodesAccess(ctx: Ctx) {
  requireAccess(ctx.auth, SIGNED_IN);
  if (!hasAccess(ctx.auth, { permission: 'bo:codes:view' }) && !hasAccess(ctx.auth, { permission: 'bo:codes:edit' }))
    throw permissionDenied();
}

// ---- groups -----------------------------------------------------------------------------

interface GroupRow {
  id: string;
  business_object_id: string;
  display_name: string;
  sort_order: number;
}

async function requireGroup(ctx: Ctx, bo: BoRef, groupId: unknown): Promise<GroupRow> {
  if (!isUuid(groupId)) throw notFound();
  const row = await ctx.trx('code_groups').where({ id: groupId, business_object_id: bo.id }).first();
  if (!row) throw notFound();
  return row as GroupRow;
}

const groupRef = (g: { display_name: string }): CodeRef => ({ displayName: g.display_name, groupName: g.display_name });

async function groupsWithCodes(ctx: Ctx, boId: string, groupId?: string): Promise<CodeGroup[]> {
  const groups = ctx.trx('code_groups').where({ business_object_id: boId });
  if (groupId) groups.where({ id: groupId });
  const groupRows: GroupRow[] = await groups.orderBy([
    { column: 'sort_order' },
    { column: 'display_name' },
    { column: 'id' },
  ]);
  const codes = groupRows.length
    ? await ctx
        .trx('codes')
        .whereIn(
          'group_id',
          groupRows.map((g) => g.id),
        )
        .orderBy([{ column: 'sort_order' }, { column: 'display_name' }, { column: 'id' }])
        .select('id', 'group_id', 'display_name', 'sort_order', ctx.trx.raw('value_sealed is not null as has_value'))
    : [];
  return groupRows.map((g) => ({
    id: g.id,
    businessObjectId: g.business_object_id,
    displayName: g.display_name,
    sortOrder: g.sort_order,
    codes: codes
      .filter((c: { group_id: string }) => c.group_id === g.id)
      .map((c: { id: string; group_id: string; display_name: string; sort_order: number; has_value: boolean }) => ({
        id: c.id,
        groupId: c.group_id,
        displayName: c.display_name,
        sortOrder: c.sort_order,
        hasValue: Boolean(c.has_value),
      })),
  }));
}

/** GET /bo/{id}/codes/groups: the groups and their codes, names only. */
export async function listCodeGroups(ctx: Ctx, id: unknown): Promise<{ groups: CodeGroup[] }> {
  requireCodesAccess(ctx);
  const bo = await requireBo(ctx, id);
  return { groups: await groupsWithCodes(ctx, bo.id) };
}

/** GET /bo/{id}/codes/groups/{groupId}: one group with its codes, names only. */
export async function getCodeGroup(ctx: Ctx, id: unknown, groupId: unknown): Promise<{ group: CodeGroup }> {
  requireCodesAccess(ctx);
  const bo = await requireBo(ctx, id);
  const group = await requireGroup(ctx, bo, groupId);
  return { group: (await groupsWithCodes(ctx, bo.id, group.id))[0]! };
}

/** POST /bo/{id}/codes/groups {displayName, sortOrder?}: a new group, last unless placed. */
export async function createCodeGroup(ctx: Ctx, id: unknown, raw: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, { permission: 'bo:codes:edit' });
  const bo = await requireBo(ctx, id);
  const input = parseInput(ZCreateGroup, raw);
  const sortOrder =
    input.sortOrder ??
    Number(
      (await ctx.trx('code_groups').where({ business_object_id: bo.id }).max({ m: 'sort_order' }).first())?.m ?? -1,
    ) + 1;
  const [row] = await ctx
    .trx('code_groups')
    .insert({ business_object_id: bo.id, display_name: input.displayName, sort_order: sortOrder })
    .returning('id');
  await writeLog(ctx, bo, 'add.group', null, { displayName: input.displayName, groupName: input.displayName });
  return { id: (row as { id: string }).id };
}

/** PUT /bo/{id}/codes/groups {id, displayName?, sortOrder?}: renames or moves a group. */
export async function updateCodeGroup(ctx: Ctx, id: unknown, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:codes:edit' });
  const bo = await requireBo(ctx, id);
  const input = parseInput(ZUpdateGroup, raw);
  const before = await requireGroup(ctx, bo, input.id);
  const after = {
    display_name: input.displayName ?? before.display_name,
    sort_order: input.sortOrder ?? before.sort_order,
  };
  await ctx.trx('code_groups').where({ id: before.id }).update(after);
  await writeLog(ctx, bo, 'edit.group', groupRef(before), groupRef(after));
}

/** DELETE /bo/{id}/codes/groups/{groupId}: the group and its codes, each logged. */
export async function deleteCodeGroup(ctx: Ctx, id: unknown, groupId: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:codes:edit' });
  const bo = await requireBo(ctx, id);
  const group = await requireGroup(ctx, bo, groupId);
  const codes = await ctx.trx('codes').where({ group_id: group.id }).orderBy('sort_order').select('display_name');
  await ctx.trx('code_groups').where({ id: group.id }).delete();
  const rows = [
    ...codes.map((c: { display_name: string }) =>
      logRow(ctx, bo, 'delete.code', { displayName: c.display_name, groupName: group.display_name }, null),
    ),
    logRow(ctx, bo, 'delete.group', groupRef(group), null),
  ];
  await ctx.trx('security_log').insert(rows);
}

// ---- codes ------------------------------------------------------------------------------

interface CodeRow {
  id: string;
  group_id: string;
  display_name: string;
  sort_order: number;
  value_sealed: string | null;
  group_name: string;
}

async function requireCode(ctx: Ctx, bo: BoRef, codeId: unknown): Promise<CodeRow> {
  if (!isUuid(codeId)) throw notFound();
  const row = await ctx
    .trx('codes as c')
    .join('code_groups as g', 'g.id', 'c.group_id')
    .where({ 'c.id': codeId, 'g.business_object_id': bo.id })
    .first('c.id', 'c.group_id', 'c.display_name', 'c.sort_order', 'c.value_sealed', 'g.display_name as group_name');
  if (!row) throw notFound();
  return row as CodeRow;
}

const codeRef = (c: { display_name: string; group_name: string }): CodeRef => ({
  displayName: c.display_name,
  groupName: c.group_name,
});

/** POST /bo/{id}/codes/groups/code {groupId, displayName, value?, sortOrder?}: a new code. */
export async function createCode(ctx: Ctx, id: unknown, raw: unknown): Promise<{ id: string }> {
  requireAccess(ctx.auth, { permission: 'bo:codes:edit' });
  const bo = await requireBo(ctx, id);
  const input = parseInput(ZCreateCode, raw);
  const group = await requireGroup(ctx, bo, input.groupId);
  const sortOrder =
    input.sortOrder ??
    Number((await ctx.trx('codes').where({ group_id: group.id }).max({ m: 'sort_order' }).first())?.m ?? -1) + 1;
  const codeId = randomUUID();
  await ctx.trx('codes').insert({
    id: codeId,
    group_id: group.id,
    display_name: input.displayName,
    sort_order: sortOrder,
    value_sealed: input.value ? sealCodeValue(ctx.tenant.id, codeId, input.value) : null,
  });
  await writeLog(ctx, bo, 'add.code', null, { displayName: input.displayName, groupName: group.display_name });
  return { id: codeId };
}

/**
 * PUT /bo/{id}/codes/groups/code {id, displayName?, groupId?, sortOrder?, value?}: renames, moves
 * (to another group of the same object) or reorders a code: one edit.code row. A value given here
 * is set as by setCodeValue and logged as edit.code.value too.
 */
export async function updateCode(ctx: Ctx, id: unknown, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:codes:edit' });
  const bo = await requireBo(ctx, id);
  const input = parseInput(ZUpdateCode, raw);
  const before = await requireCode(ctx, bo, input.id);
  const group = input.groupId ? await requireGroup(ctx, bo, input.groupId) : null;
  const after = {
    display_name: input.displayName ?? before.display_name,
    group_id: group?.id ?? before.group_id,
    sort_order: input.sortOrder ?? before.sort_order,
    group_name: group?.display_name ?? before.group_name,
  };
  await ctx.trx('codes').where({ id: before.id }).update({
    display_name: after.display_name,
    group_id: after.group_id,
    sort_order: after.sort_order,
  });
  await writeLog(ctx, bo, 'edit.code', codeRef(before), codeRef(after));
  if (input.value !== undefined) await storeValue(ctx, bo, { ...before, ...after }, input.value);
}

async function storeValue(ctx: Ctx, bo: BoRef, code: CodeRow, value: string | null) {
  await ctx
    .trx('codes')
    .where({ id: code.id })
    .update({ value_sealed: value === null ? null : sealCodeValue(ctx.tenant.id, code.id, value) });
  await writeLog(ctx, bo, 'edit.code.value', codeRef(code), codeRef(code));
}

/** PUT /bo/{id}/codes/groups/code/{codeId} {id, value}: sets (or, with '', clears) the value. */
export async function setCodeValue(ctx: Ctx, id: unknown, codeId: unknown, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:codes:edit' });
  const bo = await requireBo(ctx, id);
  const input = parseInput(ZCodeValue, raw);
  if (input.id !== codeId) throw notFound();
  const code = await requireCode(ctx, bo, codeId);
  await storeValue(ctx, bo, code, input.value);
}

/**
 * GET /bo/{id}/codes/groups/code/{codeId}?copy=1|0: the code's value, for someone with
 * bo:codes:view, logged as view.code or copy.code. Without the right nothing is read or logged.
 */
export async function getCodeValue(
  ctx: Ctx,
  id: unknown,
  codeId: unknown,
  raw: unknown = {},
): Promise<{ value: string | null }> {
  requireAccess(ctx.auth, { permission: 'bo:codes:view' });
  const { copy } = parseInput(ZCodeValueQuery, raw);
  const bo = await requireBo(ctx, id);
  const code = await requireCode(ctx, bo, codeId);
  await writeLog(ctx, bo, copy ? 'copy.code' : 'view.code', null, codeRef(code));
  return { value: code.value_sealed ? openCodeValue(ctx.tenant.id, code.id, code.value_sealed) : null };
}

/** DELETE /bo/{id}/codes/groups/code/{codeId}. */
export async function deleteCode(ctx: Ctx, id: unknown, codeId: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:codes:edit' });
  const bo = await requireBo(ctx, id);
  const code = await requireCode(ctx, bo, codeId);
  await ctx.trx('codes').where({ id: code.id }).delete();
  await writeLog(ctx, bo, 'delete.code', codeRef(code), null);
}

/**
 * Before an object is deleted: reads its groups and codes; `commit()` then logs each destroyed
 * code and group (the log has no foreign key, so it outlives the object).
 */
export async function logObjectRemoval(ctx: Ctx, bo: BoRef): Promise<{ commit(): Promise<void> }> {
  const groups = await groupsWithCodes(ctx, bo.id);
  return {
    async commit() {
      const rows = groups.flatMap((g) => [
        ...g.codes.map((c) =>
          logRow(ctx, bo, 'delete.code', { displayName: c.displayName, groupName: g.displayName }, null),
        ),
        logRow(ctx, bo, 'delete.group', { displayName: g.displayName, groupName: g.displayName }, null),
      ]);
      if (rows.length) await ctx.trx('security_log').insert(rows);
    },
  };
}

// ---- reading the log --------------------------------------------------------------------

export interface SecurityLogEntry {
  id: string;
  type: SecurityLogType;
  from: CodeRef | null;
  to: CodeRef | null;
  userId: string | null;
  userName: string;
  businessObjectId: string;
  businessObjectSerialCode: string;
  timestamp: string;
}

/** A bare date (YYYY-MM-DD) as the end of a range means the whole of that day. */
function endOf(v: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(Date.parse(v) + 86_400_000 - 1) : new Date(v);
}

/** GET /bo/codes/logs?businessObjectId&userId&type&startTime&endTime&from&size: newest first. */
export async function listSecurityLog(
  ctx: Ctx,
  raw: unknown = {},
): Promise<{ logs: SecurityLogEntry[]; totalCount: number }> {
  requireAccess(ctx.auth, { permission: 'bo:codes:view_log' });
  const f = parseInput(ZSecurityLogQuery, raw);
  const base = ctx.trx('security_log');
  if (f.businessObjectId) base.where({ business_object_id: f.businessObjectId });
  if (f.userId) base.where({ user_id: f.userId });
  if (f.type) base.where({ type: f.type });
  if (f.startTime) base.where('at', '>=', new Date(f.startTime));
  if (f.endTime) base.where('at', '<=', endOf(f.endTime));
  const [{ n }] = await base.clone().count({ n: '*' });
  const rows = await base
    .clone()
    .select(
      'id',
      'type',
      'from_value',
      'to_value',
      'user_id',
      'user_name',
      'business_object_id',
      'business_object_serial_code',
      'at',
    )
    .orderBy([
      { column: 'at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(f.size)
    .offset(f.from);
  return {
    totalCount: Number(n),
    logs: rows.map((r: Record<string, unknown>) => ({
      id: String(r.id),
      type: r.type as SecurityLogType,
      from: (r.from_value as CodeRef) ?? null,
      to: (r.to_value as CodeRef) ?? null,
      userId: (r.user_id as string) ?? null,
      userName: r.user_name as string,
      businessObjectId: r.business_object_id as string,
      businessObjectSerialCode: r.business_object_serial_code as string,
      timestamp: r.at instanceof Date ? r.at.toISOString() : String(r.at),
    })),
  };
}

/** The people who appear in the log, for its user filter. */
export async function securityLogUsers(ctx: Ctx): Promise<{ id: string; name: string }[]> {
  requireAccess(ctx.auth, { permission: 'bo:codes:view_log' });
  const rows = await ctx.trx('users').select('id', 'name').orderByRaw('lower(name), id');
  return rows.map((r: { id: string; name: string }) => ({ id: r.id, name: r.name }));
}

// ---- reordering (the object page's up/down buttons) -------------------------------------

export const ZMove = z.object({ id: z.string(), direction: z.enum(['up', 'down'], { error: 'ERROR_INVALID_VALUE' }) });

/** Gives `ids` the sort orders 0, 1, 2, … in one statement. */
async function renumber(ctx: Ctx, table: 'code_groups' | 'codes', ids: string[]) {
  if (!ids.length) return;
  await ctx.trx.raw(
    `update ?? as t set sort_order = (v.o - 1)::int from unnest(?::uuid[]) with ordinality as v(id, o) where t.id = v.id`,
    [table, ids],
  );
}

function moved<T extends { id: string }>(rows: T[], id: string, direction: 'up' | 'down'): T[] | null {
  const i = rows.findIndex((r) => r.id === id);
  const j = direction === 'up' ? i - 1 : i + 1;
  if (i < 0 || j < 0 || j >= rows.length) return null;
  const out = [...rows];
  [out[i], out[j]] = [out[j]!, out[i]!];
  return out;
}

/** Moves a group one place up or down: one edit.group row (the neighbours just shift). */
export async function moveCodeGroup(ctx: Ctx, id: unknown, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:codes:edit' });
  const bo = await requireBo(ctx, id);
  const input = parseInput(ZMove, raw);
  const group = await requireGroup(ctx, bo, input.id);
  const rows: GroupRow[] = await ctx
    .trx('code_groups')
    .where({ business_object_id: bo.id })
    .orderBy([{ column: 'sort_order' }, { column: 'display_name' }, { column: 'id' }]);
  const order = moved(rows, group.id, input.direction);
  if (!order) return;
  await renumber(
    ctx,
    'code_groups',
    order.map((r) => r.id),
  );
  await writeLog(ctx, bo, 'edit.group', groupRef(group), groupRef(group));
}

/** Moves a code one place up or down in its group: one edit.code row. */
export async function moveCode(ctx: Ctx, id: unknown, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:codes:edit' });
  const bo = await requireBo(ctx, id);
  const input = parseInput(ZMove, raw);
  const code = await requireCode(ctx, bo, input.id);
  const rows: { id: string }[] = await ctx
    .trx('codes')
    .where({ group_id: code.group_id })
    .orderBy([{ column: 'sort_order' }, { column: 'display_name' }, { column: 'id' }])
    .select('id');
  const order = moved(rows, code.id, input.direction);
  if (!order) return;
  await renumber(
    ctx,
    'codes',
    order.map((r) => r.id),
  );
  await writeLog(ctx, bo, 'edit.code', codeRef(code), codeRef(code));
}
