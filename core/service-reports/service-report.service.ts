import { randomUUID } from 'node:crypto';
import type { AgreementInterval } from '~/core/agreements/agreement-constants';
import { INTERVAL_MONTHS } from '~/core/agreements/periods';
import { addMonths } from '~/core/calendar/dates';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import type { Access } from '~/core/permissions/access';
import { hasAccess, requireAccess } from '~/core/permissions/access';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { isForeignKeyViolation, uniqueViolation } from '~/core/registers/list-query';
import { dateIn } from '~/core/work-orders/time-rules';
import {
  loadActive,
  loadChangeable,
  loadWorkOrder,
  WO_ENTITY,
  type WorkOrder,
} from '~/core/work-orders/work-order-read';
import {
  isFlagged,
  missingRequired,
  parsePageValues,
  ZDeleteTemplate,
  ZFillReport,
  ZReopenReport,
  ZSaveTemplate,
  ZTemplatesOfWorkType,
  type ReportData,
  type ReportField,
  type ReportPage,
  type ServiceReportTemplate,
} from './service-report.schema';

export type * from './service-report.types';

/*
 * Service reports (issue 32; spec sections 1, 2, 6; app module `servicereports`). Templates live in
 * the settings (read: settings:read; change: instance:edit, as checklists). On an order the
 * technician fills a template page by page (workorders:report) while the order is open and
 * unlocked: PUT saves a page, POST saves, signs and locks the report. A signed report changes only
 * after `reopen` (workorders:reopen_servicereport), which keeps the signed version's copy.
 */

const MODULE = 'servicereports' as const;
export const SERVICE_REPORT_ACCESS = {
  settingsRead: { permission: 'settings:read', module: MODULE },
  settingsEdit: { permission: 'instance:edit', module: MODULE },
  read: { permission: 'workorders:read', module: MODULE },
  fill: { permission: 'workorders:report', module: MODULE },
  reopen: { permission: 'workorders:reopen_servicereport', module: MODULE },
} as const satisfies Record<string, Access>;

/** History rows of templates are entity 'service_report_template'. */
export const TEMPLATE_ENTITY = 'service_report_template';

type Row = Record<string, unknown>;
const json = <T>(v: unknown, fallback: T): T =>
  v === null || v === undefined ? fallback : ((typeof v === 'string' ? JSON.parse(v) : v) as T);
const iso = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v));

function toTemplate(r: Row): ServiceReportTemplate {
  return {
    id: r.id as string,
    title: r.title as string,
    description: (r.description as string) ?? '',
    perDoor: r.per_door === true,
    onDemand: r.on_demand === true,
    active: r.active === true,
    builtIn: (r.built_in as string | null) ?? null,
    workTypeIds: json<string[]>(r.work_type_ids, []),
    pages: json<ReportPage[]>(r.pages, []),
    updatedAt: iso(r.updated_at)!,
  };
}

function selectTemplates(ctx: Ctx) {
  return ctx
    .trx('service_report_templates as t')
    .select(
      't.id',
      't.title',
      't.description',
      't.per_door',
      't.on_demand',
      't.active',
      't.built_in',
      't.pages',
      't.updated_at',
      ctx.trx.raw(
        `coalesce((select json_agg(l.work_type_id order by w.sort_order, w.id) from service_report_template_work_types l
           join work_types w on w.id = l.work_type_id where l.template_id = t.id), '[]') as work_type_ids`,
      ),
    )
    .orderByRaw('lower(t.title), t.id');
}

async function readTemplate(ctx: Ctx, id: unknown): Promise<ServiceReportTemplate> {
  if (!isUuid(id)) throw notFound();
  const row = (await selectTemplates(ctx).where('t.id', id).first()) as Row | undefined;
  if (!row) throw notFound();
  return toTemplate(row);
}

export interface TemplateSettings {
  templates: ServiceReportTemplate[];
  workTypes: { id: string; name: string }[];
}

/** GET /instance/servicereport: every template, active or not (settings:read). */
export async function listTemplates(ctx: Ctx): Promise<TemplateSettings> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.settingsRead);
  const rows = (await selectTemplates(ctx)) as Row[];
  const workTypes = (await ctx
    .trx('work_types')
    .orderBy([{ column: 'sort_order' }, { column: 'created_at' }, { column: 'id' }])
    .select('id', 'name')) as { id: string; name: string }[];
  return { templates: rows.map(toTemplate), workTypes };
}

/** Active templates an order of this work type offers: its work type's and the on-demand ones. */
function offeredTo(ctx: Ctx, workTypeId: string) {
  return selectTemplates(ctx)
    .where('t.active', true)
    .andWhere(function () {
      this.where('t.on_demand', true).orWhereExists(function () {
        this.select(ctx.trx.raw('1'))
          .from('service_report_template_work_types as l')
          .whereRaw('l.template_id = t.id')
          .andWhere('l.work_type_id', workTypeId);
      });
    });
}

/** GET /wo/servicereport?workType: the active templates an order of this work type offers (workorders:read). */
export async function listTemplatesForWorkType(ctx: Ctx, raw: unknown): Promise<ServiceReportTemplate[]> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.read);
  const { workType } = parseInput(ZTemplatesOfWorkType, raw);
  return ((await offeredTo(ctx, workType)) as Row[]).map(toTemplate);
}

/**
 * Pages and fields as saved: each keeps its id (filled values stay attached), a new one gets one.
 * An id that is not the template's, or appears twice, is refused.
 */
function pagesToSave(input: ReturnType<typeof ZSaveTemplate.parse>['pages'], existing: ReportPage[]): ReportPage[] {
  const knownPages = new Set(existing.map((p) => p.id));
  const knownFields = new Set(existing.flatMap((p) => p.fields.map((f) => f.id)));
  const seen = new Set<string>();
  const fields: Record<string, string[]> = {};
  const take = (id: string | null, known: Set<string>, path: string) => {
    if (id && (!known.has(id) || seen.has(id))) fields[path] = ['ERROR_INVALID_VALUE'];
    const kept = id ?? randomUUID();
    seen.add(kept);
    return kept;
  };
  const pages = input.map((p, i) => ({
    id: take(p.id, knownPages, `pages.${i}.id`),
    title: p.title,
    fields: p.fields.map((f, j): ReportField => ({
      id: take(f.id, knownFields, `pages.${i}.fields.${j}.id`),
      kind: f.kind,
      label: f.label,
      required: f.required,
      unit: f.unit,
      min: f.min,
      max: f.max,
      options: f.options,
    })),
  }));
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
  return pages;
}

const summary = (
  t: Pick<ServiceReportTemplate, 'title' | 'perDoor' | 'onDemand' | 'active' | 'workTypeIds' | 'pages'>,
) => ({
  title: t.title,
  perDoor: t.perDoor,
  onDemand: t.onDemand,
  active: t.active,
  workTypeIds: t.workTypeIds,
  pages: t.pages.map((p) => ({ title: p.title, fields: p.fields.length })),
});

/**
 * POST /instance/servicereport (no id) and PUT (with id): saves a template whole (instance:edit).
 * A title is unique regardless of case (409 ERROR_DUPLICATE_NAME); work types must exist.
 */
export async function saveTemplate(ctx: Ctx, raw: unknown): Promise<ServiceReportTemplate> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.settingsEdit);
  const input = parseInput(ZSaveTemplate, raw);
  const existing = input.id ? await readTemplate(ctx, input.id) : null;
  const pages = pagesToSave(input.pages, existing?.pages ?? []);
  if (input.workTypeIds.length) {
    const found = (await ctx.trx('work_types').whereIn('id', input.workTypeIds).select('id')) as { id: string }[];
    if (found.length !== input.workTypeIds.length)
      throw new AppError('VALIDATION_FAILED', 400, { fields: { workTypeIds: ['ERROR_INVALID_VALUE'] } });
  }
  let id = existing?.id;
  try {
    const values = {
      title: input.title,
      description: input.description,
      per_door: input.perDoor,
      on_demand: input.onDemand,
      active: input.active,
      pages: JSON.stringify(pages),
      updated_at: ctx.now,
    };
    if (id) await ctx.trx('service_report_templates').where({ id }).update(values);
    else id = ((await ctx.trx('service_report_templates').insert(values).returning('id')) as { id: string }[])[0]!.id;
  } catch (e) {
    if (uniqueViolation(e) !== null)
      throw new AppError('ERROR_DUPLICATE_NAME', 409, { fields: { title: ['ERROR_DUPLICATE_NAME'] } });
    throw e;
  }
  await ctx.trx('service_report_template_work_types').where({ template_id: id }).delete();
  if (input.workTypeIds.length)
    await ctx
      .trx('service_report_template_work_types')
      .insert(input.workTypeIds.map((workTypeId) => ({ template_id: id, work_type_id: workTypeId })));
  const saved = await readTemplate(ctx, id);
  await recordHistory(ctx, {
    entity: TEMPLATE_ENTITY,
    entityId: saved.id,
    action: existing ? 'edit' : 'create',
    data: { old: existing ? summary(existing) : null, new: summary(saved) },
  });
  return saved;
}

/**
 * POST /instance/servicereport/delete {id, type}: `delete` removes a template no report uses; one
 * that reports use is refused with 409 SERVICE_REPORT_TEMPLATE_IN_USE {usedBy: {reports}} (the
 * settings offer to deactivate it instead). `deactivate` stops orders offering it (reports already
 * started can still be finished and read); `activate` undoes that.
 */
export async function deleteTemplate(
  ctx: Ctx,
  raw: unknown,
): Promise<{ id: string; deleted: boolean; active: boolean }> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.settingsEdit);
  const input = parseInput(ZDeleteTemplate, raw);
  const existing = await readTemplate(ctx, input.id);
  if (input.type !== 'delete') {
    const active = input.type === 'activate';
    await ctx.trx('service_report_templates').where({ id: existing.id }).update({ active, updated_at: ctx.now });
    await recordHistory(ctx, {
      entity: TEMPLATE_ENTITY,
      entityId: existing.id,
      action: input.type,
      data: { old: { active: existing.active }, new: { active } },
    });
    return { id: existing.id, deleted: false, active };
  }
  const used = (await ctx.trx('service_reports').where({ template_id: existing.id }).count({ n: '*' }).first()) as
    { n: string | number } | undefined;
  const reports = Number(used?.n ?? 0);
  if (reports > 0) throw new AppError('SERVICE_REPORT_TEMPLATE_IN_USE', 409, { usedBy: { reports } });
  try {
    await ctx.trx('service_report_templates').where({ id: existing.id }).delete();
  } catch (e) {
    if (isForeignKeyViolation(e)) throw new AppError('SERVICE_REPORT_TEMPLATE_IN_USE', 409, { usedBy: { reports: 1 } });
    throw e;
  }
  await recordHistory(ctx, {
    entity: TEMPLATE_ENTITY,
    entityId: existing.id,
    action: 'delete',
    data: { old: summary(existing), new: null },
  });
  return { id: existing.id, deleted: true, active: false };
}

// ---------------------------------------------------------------------------------------------
// Reports on an order

/** One template filled on one order (for one door automatic when the template is per door). */
export interface ServiceReport {
  id: string;
  workOrderId: string;
  templateId: string;
  doorAutomaticId: string | null;
  data: ReportData;
  version: number;
  emailTargets: string[];
  signedAt: string | null;
  signedName: string | null;
  /** The drawn signature, a PNG data URL (null when only the name was typed). */
  signature: string | null;
  technicianName: string | null;
  fileId: string | null;
  /** Values worth a deviation: measures out of range and yes/no answered "no", as `pageId.fieldId`. */
  flagged: string[];
  updatedAt: string;
  updatedByName: string | null;
}

/** A door automatic the order is about, as the report tab lists them. */
export interface ReportDoor {
  id: string;
  number: string;
  title: string;
  location: string | null;
}

export interface WorkOrderReports {
  workOrderId: string;
  /** Templates the order offers (active, of its work type or on demand) and any already filled on it. */
  templates: ServiceReportTemplate[];
  doors: ReportDoor[];
  reports: ServiceReport[];
  /** workorders:report on an open, unlocked order. */
  canFill: boolean;
  canReopen: boolean;
}

function flaggedOf(pages: ReportPage[], data: ReportData): string[] {
  const out: string[] = [];
  for (const p of pages) for (const f of p.fields) if (isFlagged(f, data[p.id]?.[f.id])) out.push(`${p.id}.${f.id}`);
  return out;
}

function toReport(r: Row, template: ServiceReportTemplate | undefined): ServiceReport {
  const data = json<ReportData>(r.data, {});
  return {
    id: r.id as string,
    workOrderId: r.work_order_id as string,
    templateId: r.template_id as string,
    doorAutomaticId: (r.door_automatic_id as string | null) ?? null,
    data,
    version: Number(r.version),
    emailTargets: (r.email_targets as string[] | null) ?? [],
    signedAt: iso(r.signed_at),
    signedName: (r.signed_name as string | null) ?? null,
    signature: (r.signature as string | null) ?? null,
    technicianName: (r.technician_name as string | null) ?? null,
    fileId: (r.file_id as string | null) ?? null,
    flagged: template ? flaggedOf(template.pages, data) : [],
    updatedAt: iso(r.updated_at)!,
    updatedByName: (r.updated_by_name as string | null) ?? null,
  };
}

const REPORT_COLUMNS = [
  'r.id',
  'r.work_order_id',
  'r.template_id',
  'r.door_automatic_id',
  'r.data',
  'r.version',
  'r.email_targets',
  'r.signed_at',
  'r.signed_name',
  'r.signature',
  'r.technician_name',
  'r.file_id',
  'r.updated_at',
  'u.name as updated_by_name',
];

function selectReports(ctx: Ctx) {
  return ctx.trx('service_reports as r').leftJoin('users as u', 'u.id', 'r.updated_by').select(REPORT_COLUMNS);
}

/**
 * The door automatics of the order, in the office's order. They are the door-automatics plugin's
 * tables, which every tenant schema has (plugin migrations apply to all tenants).
 */
async function doorsOf(ctx: Ctx, workOrderId: string): Promise<ReportDoor[]> {
  const rows = (await ctx
    .trx('work_order_door_automatics as l')
    .join('door_automatics as d', 'd.id', 'l.door_automatic_id')
    .where('l.work_order_id', workOrderId)
    .orderBy([{ column: 'l.sort_order' }, { column: 'd.number' }])
    .select('d.id', 'd.number', 'd.title', 'd.location')) as Row[];
  return rows.map((r) => ({
    id: r.id as string,
    number: r.number as string,
    title: r.title as string,
    location: (r.location as string | null) ?? null,
  }));
}

const changeable = (wo: WorkOrder) => !wo.isClosed && !wo.isLocked && !wo.deletedAt;

/** Templates an order shows: offered to its work type, and any already filled on it. */
async function templatesOfOrder(ctx: Ctx, wo: WorkOrder): Promise<ServiceReportTemplate[]> {
  const rows = (await selectTemplates(ctx).where(function () {
    this.whereIn('t.id', ctx.trx('service_reports').where('work_order_id', wo.id).select('template_id')).orWhere(
      function () {
        this.where('t.active', true).andWhere(function () {
          this.where('t.on_demand', true).orWhereExists(function () {
            this.select(ctx.trx.raw('1'))
              .from('service_report_template_work_types as l')
              .whereRaw('l.template_id = t.id')
              .andWhere('l.work_type_id', wo.workTypeId);
          });
        });
      },
    );
  })) as Row[];
  return rows.map(toTemplate);
}

/** Resolves `page` (a page id, or its 0-based index) in a template; 400 when it names none. */
function pageOf(template: ServiceReportTemplate, page: unknown): ReportPage {
  const found =
    typeof page === 'number' || (typeof page === 'string' && /^\d+$/.test(page))
      ? template.pages[Number(page)]
      : template.pages.find((p) => p.id === page);
  if (!found) throw new AppError('VALIDATION_FAILED', 400, { fields: { page: ['ERROR_INVALID_VALUE'] } });
  return found;
}

/**
 * GET /wo/servicereport/{id}?serviceReportId&page&doorautomaticId: an order's templates, doors and
 * reports (workorders:read; 404 outside the user's work-order limit). `serviceReportId` narrows to
 * one template's reports (404 when the order does not show it), `doorautomaticId` to one door's,
 * and `page` each report's values to that page.
 */
export async function getWorkOrderReports(
  ctx: Ctx,
  input: { workOrderId: unknown; serviceReportId?: unknown; page?: unknown; doorautomaticId?: unknown },
): Promise<WorkOrderReports> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.read);
  const wo = await loadWorkOrder(ctx, input.workOrderId);
  const given = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : v);
  const only = given(input.serviceReportId);
  const door = given(input.doorautomaticId);
  if ((only !== undefined && !isUuid(only)) || (door !== undefined && !isUuid(door))) throw notFound();
  let templates = await templatesOfOrder(ctx, wo);
  if (only !== undefined) {
    templates = templates.filter((t) => t.id === only);
    if (!templates.length) throw notFound();
  }
  const q = selectReports(ctx)
    .where('r.work_order_id', wo.id)
    .orderBy([{ column: 'r.created_at' }, { column: 'r.id' }]);
  if (only !== undefined) void q.andWhere('r.template_id', only);
  if (door !== undefined) void q.andWhere('r.door_automatic_id', door);
  const byId = new Map(templates.map((t) => [t.id, t]));
  let reports = ((await q) as Row[]).map((r) => toReport(r, byId.get(r.template_id as string)));
  const page = given(input.page);
  if (page !== undefined) {
    if (templates.length !== 1)
      throw new AppError('VALIDATION_FAILED', 400, { fields: { page: ['ERROR_INVALID_VALUE'] } });
    const p = pageOf(templates[0]!, page);
    reports = reports.map((r) => ({ ...r, data: { [p.id]: r.data[p.id] ?? {} } }));
  }
  return {
    workOrderId: wo.id,
    templates,
    doors: await doorsOf(ctx, wo.id),
    reports,
    canFill: hasAccess(ctx.auth, SERVICE_REPORT_ACCESS.fill) && changeable(wo),
    canReopen: hasAccess(ctx.auth, SERVICE_REPORT_ACCESS.reopen) && changeable(wo),
  };
}

/** The template and door a fill or reopen names on an order, checked. */
async function targetOf(ctx: Ctx, wo: WorkOrder, templateId: string, doorId: string | null | undefined) {
  if (!isUuid(templateId)) throw notFound();
  const template = (await templatesOfOrder(ctx, wo)).find((t) => t.id === templateId);
  if (!template) {
    const exists = await ctx.trx('service_report_templates').where({ id: templateId }).first('id');
    if (!exists) throw notFound();
    throw new AppError('VALIDATION_FAILED', 400, {
      fields: { serviceReportId: ['ERROR_SERVICE_REPORT_NOT_FOR_ORDER'] },
    });
  }
  const door = doorId === undefined || doorId === null || doorId === '' ? null : doorId;
  if (template.perDoor) {
    if (door === null)
      throw new AppError('VALIDATION_FAILED', 400, { fields: { doorautomaticId: ['ERROR_REQUIRED_FIELD'] } });
    if (!isUuid(door) || !(await doorsOf(ctx, wo.id)).some((d) => d.id === door))
      throw new AppError('VALIDATION_FAILED', 400, { fields: { doorautomaticId: ['ERROR_DOOR_NOT_ON_ORDER'] } });
  } else if (door !== null) {
    throw new AppError('VALIDATION_FAILED', 400, { fields: { doorautomaticId: ['ERROR_INVALID_VALUE'] } });
  }
  return { template, door };
}

async function reportAt(
  ctx: Ctx,
  woId: string,
  templateId: string,
  door: string | null,
  template?: ServiceReportTemplate,
) {
  const row = (await selectReports(ctx)
    .where({ 'r.work_order_id': woId, 'r.template_id': templateId })
    .andWhere((qb) => (door === null ? qb.whereNull('r.door_automatic_id') : qb.where('r.door_automatic_id', door)))
    .first()) as Row | undefined;
  return row ? toReport(row, template) : null;
}

/** Photos must be files on this order (uploaded there first). */
async function checkPhotos(ctx: Ctx, wo: WorkOrder, page: ReportPage, values: Record<string, unknown>) {
  const photoFields = page.fields.filter((f) => f.kind === 'photo' && Array.isArray(values[f.id]));
  const ids = [...new Set(photoFields.flatMap((f) => values[f.id] as string[]))];
  if (!ids.length) return;
  const found = new Set(
    (
      (await ctx
        .trx('files')
        .where({ owner_type: 'wo', owner_id: wo.id, kind: 'file' })
        .whereIn('id', ids)
        .select('id')) as { id: string }[]
    ).map((r) => r.id),
  );
  const fields: Record<string, string[]> = {};
  for (const f of photoFields)
    if ((values[f.id] as string[]).some((id) => !found.has(id))) fields[`data.${f.id}`] = ['ERROR_FILE_NOT_FOUND'];
  if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', 400, { fields });
}

/**
 * PUT /wo/servicereport (`close` false) saves one page; POST /wo/servicereport (`close` true) saves
 * the page given, if any, then signs and locks the report (workorders:report).
 *
 * The order must be open and unlocked (409 WORK_ORDER_CLOSED / LOCKED), the template one it shows,
 * and for a per-door template the door one of the order's. A page's values replace that page's
 * saved ones and leave other pages alone (merged in SQL, so two pages saved at once both stay). A
 * signed report answers 409 SERVICE_REPORT_SIGNED until reopened. Signing needs the signer's
 * name (`signature.name`, the drawn image optional) and every required field (400 with
 * `pages.<pageId>.<fieldId>` keys); it records the technician's name and the time.
 */
export async function saveReport(ctx: Ctx, raw: unknown, close: boolean): Promise<ServiceReport> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.fill);
  const input = parseInput(ZFillReport, raw);
  const wo = await loadChangeable(ctx, input.workOrderId);
  const { template, door } = await targetOf(ctx, wo, input.serviceReportId, input.doorautomaticId);
  let patch: ReportData = {};
  if (input.page !== undefined && input.page !== null) {
    const page = pageOf(template, input.page);
    const values = parsePageValues(page, input.data ?? {});
    await checkPhotos(ctx, wo, page, values);
    patch = { [page.id]: values };
  } else if (input.data && Object.keys(input.data).length) {
    throw new AppError('VALIDATION_FAILED', 400, { fields: { page: ['ERROR_REQUIRED_FIELD'] } });
  } else if (!close) {
    throw new AppError('VALIDATION_FAILED', 400, { fields: { page: ['ERROR_REQUIRED_FIELD'] } });
  }
  const before = await reportAt(ctx, wo.id, template.id, door, template);
  if (before?.signedAt) throw new AppError('SERVICE_REPORT_SIGNED', 409);
  // one statement: a page merges into the saved ones; a report signed meanwhile is left alone
  const saved = (await ctx.trx.raw(
    `insert into service_reports
       (work_order_id, template_id, door_automatic_id, business_object_id, customer_id, data, email_targets,
        updated_by, updated_at)
     values (?, ?, ?, ?, ?, ?::jsonb, coalesce(?::text[], '{}'), ?, ?)
     on conflict (work_order_id, template_id, door_automatic_id) do update
       set data = service_reports.data || excluded.data,
           email_targets = case when ?::text[] is null then service_reports.email_targets else excluded.email_targets end,
           updated_by = excluded.updated_by, updated_at = excluded.updated_at
       where service_reports.signed_at is null
     returning id`,
    [
      wo.id,
      template.id,
      door,
      wo.businessObjectId,
      wo.customerId,
      JSON.stringify(patch),
      input.emailTargets ?? null,
      ctx.auth.user.id,
      ctx.now,
      input.emailTargets ?? null,
    ],
  )) as { rows: { id: string }[] };
  if (!saved.rows.length) throw new AppError('SERVICE_REPORT_SIGNED', 409);
  let report = (await reportAt(ctx, wo.id, template.id, door, template))!;
  if (close) {
    if (!input.signature)
      throw new AppError('VALIDATION_FAILED', 400, { fields: { 'signature.name': ['ERROR_REQUIRED_FIELD'] } });
    const missing = missingRequired(template.pages, report.data);
    if (Object.keys(missing).length) throw new AppError('VALIDATION_FAILED', 400, { fields: missing });
    await ctx.trx('service_reports').where({ id: report.id }).update({
      signed_at: ctx.now,
      signed_name: input.signature.name,
      signature: input.signature.image,
      technician_id: ctx.auth.user.id,
      technician_name: ctx.auth.user.fullName,
    });
    report = (await reportAt(ctx, wo.id, template.id, door, template))!;
  }
  await ctx.trx('work_orders').where({ id: wo.id }).update({ update_ts: ctx.now });
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: close ? 'servicereport.sign' : 'servicereport.edit',
    data: {
      serviceReportId: report.id,
      template: template.title,
      doorAutomaticId: door,
      pages: Object.keys(patch).map((id) => template.pages.find((p) => p.id === id)?.title ?? id),
      ...(close ? { signedName: report.signedName, version: report.version } : {}),
    },
  });
  return report;
}

/**
 * POST /wo/servicereport/reopen {workOrderId, serviceReportId, doorautomaticId}: unlocks a signed
 * report (workorders:reopen_servicereport, on an open, unlocked order). The signed version is
 * copied to service_report_versions first (values, signer, signature, its generated file) and the
 * report's version goes up; the generated file stays on the order. 409 SERVICE_REPORT_NOT_SIGNED
 * for one that is not signed; 404 when there is no such report.
 */
export async function reopenReport(ctx: Ctx, raw: unknown): Promise<ServiceReport> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.reopen);
  const input = parseInput(ZReopenReport, raw);
  const wo = await loadChangeable(ctx, input.workOrderId);
  const { template, door } = await targetOf(ctx, wo, input.serviceReportId, input.doorautomaticId);
  const report = await reportAt(ctx, wo.id, template.id, door, template);
  if (!report) throw notFound();
  // only the one who reopens first copies the version: the update claims the signed row
  const claimed = (await ctx.trx.raw(
    `with old as (select * from service_reports where id = ? and signed_at is not null for update)
     insert into service_report_versions
       (report_id, version, data, signed_at, signed_name, signature, technician_name, file_id, reopened_by, reopened_at)
     select id, version, data, signed_at, signed_name, signature, technician_name, file_id, ?, ? from old
     returning version`,
    [report.id, ctx.auth.user.id, ctx.now],
  )) as { rows: { version: number }[] };
  if (!claimed.rows.length) throw new AppError('SERVICE_REPORT_NOT_SIGNED', 409);
  await ctx
    .trx('service_reports')
    .where({ id: report.id })
    .update({
      signed_at: null,
      signed_name: null,
      signature: null,
      file_id: null,
      version: report.version + 1,
      updated_by: ctx.auth.user.id,
      updated_at: ctx.now,
    });
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: 'servicereport.reopen',
    data: { serviceReportId: report.id, template: template.title, doorAutomaticId: door, version: report.version },
  });
  return (await reportAt(ctx, wo.id, template.id, door, template))!;
}

/** A signed version kept when a report was reopened. */
export interface ReportVersion {
  version: number;
  data: ReportData;
  signedAt: string;
  signedName: string;
  technicianName: string | null;
  fileId: string | null;
  reopenedAt: string;
  reopenedByName: string | null;
}

/** The earlier signed versions of a report, newest first (the caller has checked access). */
export async function versionsOf(ctx: Ctx, reportId: string): Promise<ReportVersion[]> {
  const rows = (await ctx
    .trx('service_report_versions as v')
    .leftJoin('users as u', 'u.id', 'v.reopened_by')
    .where('v.report_id', reportId)
    .orderBy('v.version', 'desc')
    .select('v.*', 'u.name as reopened_by_name')) as Row[];
  return rows.map((r) => ({
    version: Number(r.version),
    data: json<ReportData>(r.data, {}),
    signedAt: iso(r.signed_at)!,
    signedName: r.signed_name as string,
    technicianName: (r.technician_name as string | null) ?? null,
    fileId: (r.file_id as string | null) ?? null,
    reopenedAt: iso(r.reopened_at)!,
    reopenedByName: (r.reopened_by_name as string | null) ?? null,
  }));
}

/**
 * GET /wo/servicereport/{id}/last?serviceReportId&customerId&businessObjectId&doorautomaticId: the
 * latest signed report of this template at the order's object (at its customer when it has no
 * object) from another order, for "same as last time" (workorders:read). `customerId` and
 * `businessObjectId`, when sent, must be the order's (404 otherwise). With a door, that door's.
 * Answers {report: null} when there is none.
 */
export async function lastReport(
  ctx: Ctx,
  input: {
    workOrderId: unknown;
    serviceReportId: unknown;
    customerId?: unknown;
    businessObjectId?: unknown;
    doorautomaticId?: unknown;
  },
): Promise<{ report: (ServiceReport & { workOrderId: string }) | null }> {
  requireAccess(ctx.auth, SERVICE_REPORT_ACCESS.read);
  const wo = await loadActive(ctx, input.workOrderId);
  if (!isUuid(input.serviceReportId)) throw notFound();
  const template = await readTemplate(ctx, input.serviceReportId);
  const given = (v: unknown) => (v === undefined || v === null || v === '' ? null : v);
  // the order's own object and customer only: naming another's would read reports past the user's limit
  const sentObject = given(input.businessObjectId);
  const sentCustomer = given(input.customerId);
  const door = given(input.doorautomaticId);
  if (
    (sentObject !== null && sentObject !== wo.businessObjectId) ||
    (sentCustomer !== null && sentCustomer !== wo.customerId) ||
    (door !== null && !isUuid(door))
  )
    throw notFound();
  const objectId = wo.businessObjectId;
  const customerId = wo.customerId;
  if (objectId === null && customerId === null) return { report: null };
  const q = selectReports(ctx)
    .where('r.template_id', template.id)
    .whereNot('r.work_order_id', wo.id)
    .whereNotNull('r.signed_at')
    .orderBy([
      { column: 'r.signed_at', order: 'desc' },
      { column: 'r.id', order: 'desc' },
    ])
    .first();
  if (objectId !== null) void q.where('r.business_object_id', objectId);
  else void q.where('r.customer_id', customerId);
  if (door !== null) void q.where('r.door_automatic_id', door);
  const row = (await q) as Row | undefined;
  return { report: row ? toReport(row, template) : null };
}

/** A report as the object's service log lists it. */
export interface ObjectReport {
  id: string;
  title: string;
  workOrderId: string;
  workOrderNumber: string;
  door: string | null;
  signedAt: string | null;
  signedName: string | null;
  updatedAt: string;
  fileId: string | null;
  flagged: number;
}

/** How many reports the object's service log shows. */
export const OBJECT_REPORTS_LIMIT = 50;

/**
 * The service reports at an object, newest first (signed ones by their signing, others by their
 * last save), for its service log with the link to each one's PDF (bo:read and the module). One
 * statement on the object's index; the caller has checked the object exists for this tenant.
 */
export async function reportsOfObject(ctx: Ctx, businessObjectId: string): Promise<ObjectReport[]> {
  requireAccess(ctx.auth, { permission: 'bo:read', module: MODULE });
  const rows = (await ctx
    .trx('service_reports as r')
    .join('service_report_templates as t', 't.id', 'r.template_id')
    .join('work_orders as w', 'w.id', 'r.work_order_id')
    .leftJoin('door_automatics as d', 'd.id', 'r.door_automatic_id')
    .where('r.business_object_id', businessObjectId)
    .whereNull('w.deleted_at')
    .orderByRaw('coalesce(r.signed_at, r.updated_at) desc, r.id desc')
    .limit(OBJECT_REPORTS_LIMIT)
    .select(
      'r.id',
      'r.data',
      'r.work_order_id',
      'r.signed_at',
      'r.signed_name',
      'r.updated_at',
      'r.file_id',
      't.title',
      't.pages',
      'w.number as work_order_number',
      'd.number as door_number',
      'd.title as door_title',
    )) as Row[];
  return rows.map((r) => ({
    id: r.id as string,
    title: r.title as string,
    workOrderId: r.work_order_id as string,
    workOrderNumber: String(r.work_order_number),
    door: [r.door_number, r.door_title].filter(Boolean).join(' · ') || null,
    signedAt: iso(r.signed_at),
    signedName: (r.signed_name as string | null) ?? null,
    updatedAt: iso(r.updated_at)!,
    fileId: (r.file_id as string | null) ?? null,
    flagged: flaggedOf(json<ReportPage[]>(r.pages, []), json<ReportData>(r.data, {})).length,
  }));
}

/** When the object's next inspection is due, from its agreement's work-order interval. */
export interface NextInspection {
  /** YYYY-MM-DD */
  due: string;
  intervalMonths: number;
  agreement: string;
  /** The day of the last signed report at the object (YYYY-MM-DD, the tenant's zone), or null. */
  lastSigned: string | null;
  overdue: boolean;
}

/**
 * The object's next inspection (issue 32 item 5): the last signed service report's day plus its
 * agreement's work-order interval, or the agreement's start when nothing is signed yet. Null when
 * the object has no agreement with an interval. Two statements on the object's indexes.
 */
export async function nextInspectionOf(ctx: Ctx, businessObjectId: string): Promise<NextInspection | null> {
  requireAccess(ctx.auth, { permission: 'bo:read', module: MODULE });
  const agreement = (await ctx
    .trx('object_agreements as o')
    .join('agreements as a', 'a.id', 'o.agreement_id')
    .where('o.business_object_id', businessObjectId)
    .whereNotNull('a.wo_interval')
    .first('a.title', 'a.wo_interval', ctx.trx.raw('o.valid_from::text as valid_from'))) as Row | undefined;
  if (!agreement) return null;
  const months = INTERVAL_MONTHS[agreement.wo_interval as AgreementInterval];
  const last = (await ctx
    .trx('service_reports')
    .where({ business_object_id: businessObjectId })
    .whereNotNull('signed_at')
    .max({ at: 'signed_at' })
    .first()) as { at: Date | string | null } | undefined;
  const zone = tenantTimeZone(ctx.tenant.config.country);
  const lastSigned = last?.at ? dateIn(new Date(last.at), zone) : null;
  const due = lastSigned ? addMonths(lastSigned, months) : String(agreement.valid_from);
  return {
    due,
    intervalMonths: months,
    agreement: agreement.title as string,
    lastSigned,
    overdue: due < dateIn(ctx.now, zone),
  };
}
