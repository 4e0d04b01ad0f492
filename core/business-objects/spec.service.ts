import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { notFound } from '~/core/errors/app-error';
import { parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { requireAccess } from '~/core/permissions/access';
import { requireBo } from './require-bo';
import { isSecurityFormType, securityFormSchema, type SecurityFormType } from './security-forms';

/**
 * Specification data of an object (GET/PUT /bo/{id}/spec, free key–value data on the object),
 * custom specification forms (/bo/{id}/spec/custom/{type}) and the security-system forms
 * (/bo/{id}/sec/form for burglary, /sec/passage, /camera, /firealarm, /assault), stored per type
 * in business_object_forms. The security forms need the `security` app module.
 */

const BO_ENTITY = 'business_object';

/** Free specification data: up to 200 named values (text, number, yes/no). */
export const ZSpecData = z.object({
  data: z
    .record(
      z.string().trim().min(1, 'ERROR_REQUIRED_FIELD').max(100, 'ERROR_MAX_LENGTH'),
      z.union([z.string().max(4000, 'ERROR_MAX_LENGTH'), z.number().finite(), z.boolean(), z.null()]),
    )
    .refine((d) => Object.keys(d).length <= 200, 'ERROR_MAX_LENGTH'),
});

const CUSTOM_TYPE = /^[a-z0-9][a-z0-9_-]{0,49}$/;

export interface FormData {
  data: Record<string, unknown>;
  updatedAt: string | null;
  updatedBy: string | null;
}

async function readForm(ctx: Ctx, boId: string, type: string): Promise<FormData> {
  const row = await ctx
    .trx('business_object_forms as f')
    .leftJoin('users as u', 'u.id', 'f.updated_by')
    .where({ 'f.business_object_id': boId, 'f.type': type })
    .first('f.data', 'f.updated_at', 'u.name as updated_by');
  if (!row) return { data: {}, updatedAt: null, updatedBy: null };
  return {
    data: (row.data as Record<string, unknown>) ?? {},
    updatedAt: row.updated_at instanceof Date ? row.updated_at.toISOString() : String(row.updated_at),
    updatedBy: (row.updated_by as string) ?? null,
  };
}

async function writeForm(ctx: Ctx, boId: string, type: string, data: Record<string, unknown>) {
  await ctx.trx.raw(
    `insert into business_object_forms (business_object_id, type, data, updated_at, updated_by)
     values (?, ?, ?::jsonb, ?, ?)
     on conflict (business_object_id, type)
     do update set data = excluded.data, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    [boId, type, JSON.stringify(data), ctx.now, ctx.auth?.user.id ?? null],
  );
}

/** GET /bo/{id}/spec: the object's specification data. */
export async function getSpecification(ctx: Ctx, id: unknown): Promise<{ data: Record<string, unknown> }> {
  requireAccess(ctx.auth, { permission: 'bo:read' });
  const bo = await requireBo(ctx, id);
  const row = await ctx.trx('business_objects').where({ id: bo.id }).first('specification');
  return { data: (row?.specification as Record<string, unknown>) ?? {} };
}

/** PUT /bo/{id}/spec {data}: replaces the specification data. */
export async function saveSpecification(ctx: Ctx, id: unknown, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:edit' });
  const bo = await requireBo(ctx, id);
  const { data } = parseInput(ZSpecData, raw);
  await ctx
    .trx('business_objects')
    .where({ id: bo.id })
    .update({ specification: JSON.stringify(data), updated_at: ctx.now });
  await recordHistory(ctx, { entity: BO_ENTITY, entityId: bo.id, action: 'spec', data });
}

function customType(type: unknown): string {
  if (typeof type !== 'string' || !CUSTOM_TYPE.test(type)) throw notFound();
  return `custom:${type}`;
}

/** GET /bo/{id}/spec/custom/{type}: a custom specification form's data. */
export async function getCustomSpecification(ctx: Ctx, id: unknown, type: unknown): Promise<FormData> {
  requireAccess(ctx.auth, { permission: 'bo:read' });
  const key = customType(type);
  const bo = await requireBo(ctx, id);
  return readForm(ctx, bo.id, key);
}

/** PUT /bo/{id}/spec/custom/{type} {data}. */
export async function saveCustomSpecification(ctx: Ctx, id: unknown, type: unknown, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'bo:edit' });
  const key = customType(type);
  const bo = await requireBo(ctx, id);
  const { data } = parseInput(ZSpecData, raw);
  await writeForm(ctx, bo.id, key, data);
  await recordHistory(ctx, { entity: BO_ENTITY, entityId: bo.id, action: 'spec.custom', data: { type, data } });
}

function securityType(type: unknown): SecurityFormType {
  if (!isSecurityFormType(type)) throw notFound();
  return type;
}

/** GET /bo/{id}/sec/{form|passage|camera|firealarm|assault}: one security-system form. */
export async function getSecurityForm(ctx: Ctx, id: unknown, type: unknown): Promise<FormData> {
  requireAccess(ctx.auth, { permission: 'security:bo_document:read', module: 'security' });
  const t = securityType(type);
  const bo = await requireBo(ctx, id);
  return readForm(ctx, bo.id, t);
}

/** Every security form of an object (the object page's Security tab): one query. */
export async function getSecurityForms(ctx: Ctx, id: unknown): Promise<Record<string, FormData>> {
  requireAccess(ctx.auth, { permission: 'security:bo_document:read', module: 'security' });
  const bo = await requireBo(ctx, id);
  const rows = await ctx
    .trx('business_object_forms as f')
    .leftJoin('users as u', 'u.id', 'f.updated_by')
    .where('f.business_object_id', bo.id)
    .whereNot('f.type', 'like', 'custom:%')
    .select('f.type', 'f.data', 'f.updated_at', 'u.name as updated_by');
  return Object.fromEntries(
    rows.map((r: Record<string, unknown>) => [
      r.type as string,
      {
        data: (r.data as Record<string, unknown>) ?? {},
        updatedAt: r.updated_at instanceof Date ? r.updated_at.toISOString() : String(r.updated_at),
        updatedBy: (r.updated_by as string) ?? null,
      },
    ]),
  );
}

/** PUT /bo/{id}/sec/{…} {data}: validated against the form's field list. */
export async function saveSecurityForm(ctx: Ctx, id: unknown, type: unknown, raw: unknown): Promise<void> {
  requireAccess(ctx.auth, { permission: 'security:bo_document:edit', module: 'security' });
  const t = securityType(type);
  const bo = await requireBo(ctx, id);
  const { data } = parseInput(z.object({ data: securityFormSchema(t) }), raw);
  await writeForm(ctx, bo.id, t, data);
  await recordHistory(ctx, { entity: BO_ENTITY, entityId: bo.id, action: `sec.${t}`, data });
}
