import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { documentCompany } from '~/core/documents/company';
import { PDF_TYPE, safeFilename, type DocumentFile } from '~/core/documents/file';
import { printDocument } from '~/core/documents/mail';
import { thenAfterCommit, type AfterCommitWork } from '~/core/db/with-tenant';
import type { ProjectDocumentModel } from '~/core/documents/project-document';
import { renderDocument } from '~/core/documents/render';
import { parseInput } from '~/core/errors/validation';
import { formattingLocale, type Lang } from '~/core/i18n/languages';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { requireAccess } from '~/core/permissions/access';
import { PROJECT_ACCESS } from './project-access';
import { computeProjectCosts, loadCostBase } from './project-costs.service';

/*
 * The project report as PDF (issue 18; api-calls.md POST /projects/{id}/pdf {templateId, details}):
 * the project's general info, customers, contract sum, the costs summary and its work orders; with
 * `details` also every time row and article row (each list up to PROJECT_DOCUMENT_ROW_LIMIT rows).
 * Rendered from templates/project.hbs through the warm browser like the other documents, in the
 * asker's language. Read in a fixed number of statements whatever the number of rows.
 */

/** The templates a project can be printed with; only the standard one exists so far. */
export const PROJECT_TEMPLATES = [{ id: 'default', file: 'project', nameKey: 'template.default' }] as const;
export type ProjectTemplateId = (typeof PROJECT_TEMPLATES)[number]['id'];

/** The most rows one list of the report prints (a note says when there are more). */
export const PROJECT_DOCUMENT_ROW_LIMIT = 1000;

const ZBool = z.preprocess(
  (v) => (v === 'true' || v === '1' || v === 1 ? true : v === 'false' || v === '0' || v === 0 || v === '' ? false : v),
  z.boolean({ error: 'ERROR_INVALID_VALUE' }),
);

export const ZProjectDocument = z.object({
  templateId: z
    .enum(PROJECT_TEMPLATES.map((t) => t.id) as [ProjectTemplateId], { error: 'ERROR_INVALID_VALUE' })
    .nullish()
    .transform((v) => v ?? 'default'),
  details: ZBool.nullish().transform((v) => v ?? false),
});
export type TProjectDocument = z.input<typeof ZProjectDocument>;

type Row = Record<string, unknown>;
const str = (v: unknown) => (v === null || v === undefined || v === '' ? null : String(v));

/** The report's contents (exported for tests and previews). */
export async function buildProjectDocumentModel(
  ctx: Ctx,
  projectId: unknown,
  details: boolean,
): Promise<ProjectDocumentModel> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const base = await loadCostBase(ctx, projectId);
  const limit = PROJECT_DOCUMENT_ROW_LIMIT;
  const zone = tenantTimeZone(ctx.tenant.config?.country);
  // one statement after the other: they share the unit of work's connection
  const costs = await computeProjectCosts(ctx, base);
  const project = (await ctx
    .trx('projects as p')
    .leftJoin('users as ru', 'ru.id', 'p.responsible_user_id')
    .leftJoin('users as su', 'su.id', 'p.sales_user_id')
    .where('p.id', base.id)
    .first(
      'p.name',
      'p.region',
      'p.description',
      ctx.trx.raw(`to_char(p.start_date, 'YYYY-MM-DD') as start_date`),
      ctx.trx.raw(`to_char(p.end_date, 'YYYY-MM-DD') as end_date`),
      'ru.name as responsible',
      'su.name as sales_user',
    )) as Row | undefined;
  const customers = (await ctx
    .trx('project_customers as pc')
    .join('customers as c', 'c.id', 'pc.customer_id')
    .where('pc.project_id', base.id)
    .orderBy([{ column: 'pc.sort_order' }, { column: 'c.name' }])
    .select('c.name', 'c.customer_id')) as Row[];
  const workOrders = (await ctx
    .trx('work_orders as w')
    .leftJoin('work_order_statuses as s', 's.id', 'w.status_id')
    .joinRaw(
      `left join lateral (select coalesce(sum(t.work_minutes + t.travel_minutes), 0)::bigint as minutes
           from work_order_time t where t.work_order_id = w.id) tm on true`,
    )
    .where('w.project_id', base.id)
    .whereNull('w.deleted_at')
    .orderByRaw('w.closed_at is not null, length(w.number), w.number')
    .limit(limit + 1)
    .select('w.number', 'w.title', 'w.closed_at', 's.name as status_name', 'tm.minutes')) as Row[];
  const time = details
    ? ((await ctx
        .trx('work_orders as w')
        .join('work_order_time as t', 't.work_order_id', 'w.id')
        .join('users as u', 'u.id', 't.user_id')
        .where('w.project_id', base.id)
        .whereNull('w.deleted_at')
        .orderBy([
          { column: 't.date', order: 'asc' },
          { column: 'u.name', order: 'asc' },
          { column: 't.id', order: 'asc' },
        ])
        .limit(limit + 1)
        .select(
          ctx.trx.raw(`to_char(t.date, 'YYYY-MM-DD') as date_text`),
          'u.name as person',
          'w.number',
          't.work_minutes',
          't.travel_minutes',
          't.comment',
        )) as Row[])
    : [];
  const articles = details
    ? ((await ctx
        .trx('work_orders as w')
        .join('work_order_articles as r', 'r.work_order_id', 'w.id')
        .leftJoin('articles as a', 'a.id', 'r.article_id')
        .where('w.project_id', base.id)
        .whereNull('w.deleted_at')
        .orderBy([
          { column: 'r.created_at', order: 'asc' },
          { column: 'r.id', order: 'asc' },
        ])
        .limit(limit + 1)
        .select(
          ctx.trx.raw(`to_char(r.created_at at time zone ?, 'YYYY-MM-DD') as date_text`, [zone]),
          'w.number',
          'r.title',
          ctx.trx.raw('r.amount::text as amount'),
          'a.unit',
          ctx.trx.raw('round(r.amount * coalesce(r.purchase_price, a.purchase_price, 0), 2)::text as cost'),
          ctx.trx.raw('r.total::text as total'),
        )) as Row[])
    : [];

  const config = ctx.tenant.config;
  const lang: Lang = ctx.lang;
  return {
    lang,
    locale: formattingLocale(lang),
    dateFormat: config.dateFormat,
    country: config.country,
    currency: config.currency.symbol,
    printedAt: ctx.now.toISOString(),
    company: await documentCompany(ctx),
    project: {
      number: String(base.number),
      title: base.title,
      name: str(project?.name),
      statusKey: `project.status.${base.status}`,
      startDate: str(project?.start_date),
      endDate: str(project?.end_date),
      responsible: str(project?.responsible),
      salesUser: str(project?.sales_user),
      region: str(project?.region),
      contractSum: base.contractSum,
      description: str(project?.description),
    },
    customers: customers.map((c) => ({ name: String(c.name), number: str(c.customer_id) })),
    costs: {
      hourlyCost: costs.hourlyCost,
      workMinutes: costs.time.workMinutes,
      travelMinutes: costs.time.travelMinutes,
      minutes: costs.time.minutes,
      timeCost: costs.time.cost,
      articleCount: costs.articles.count,
      articleCost: costs.articles.cost,
      total: costs.total,
      ongoingSince: costs.ongoing.since,
      ongoingCost: costs.ongoing.cost,
      estimatedHours: costs.estimated.hours,
      estimatedCost: costs.estimated.cost,
      differenceHours: costs.difference.hours,
      differenceCost: costs.difference.cost,
    },
    workOrders: workOrders.slice(0, limit).map((w) => ({
      number: String(w.number),
      title: String(w.title),
      status: String(w.status_name ?? ''),
      closed: w.closed_at !== null && w.closed_at !== undefined,
      minutes: Number(w.minutes ?? 0),
    })),
    workOrdersTruncated: workOrders.length > limit,
    details,
    time: time.slice(0, limit).map((t) => ({
      date: String(t.date_text),
      person: String(t.person ?? ''),
      workOrder: String(t.number),
      workMinutes: Number(t.work_minutes ?? 0),
      travelMinutes: Number(t.travel_minutes ?? 0),
      comment: str(t.comment),
    })),
    timeTruncated: time.length > limit,
    articles: articles.slice(0, limit).map((r) => ({
      date: String(r.date_text),
      workOrder: String(r.number),
      title: String(r.title),
      amount: String(r.amount ?? '0'),
      unit: str(r.unit),
      cost: String(r.cost ?? '0'),
      total: String(r.total ?? '0'),
    })),
    articlesTruncated: articles.length > limit,
    articleTotals: { cost: costs.articles.cost, total: costs.articles.salesTotal },
    rowLimit: limit,
  };
}

function templateFile(id: ProjectTemplateId): string {
  return PROJECT_TEMPLATES.find((t) => t.id === id)!.file;
}

/** The report's HTML (what the PDF prints); exported for tests and previews. */
export function projectHtml(model: ProjectDocumentModel, templateId: ProjectTemplateId = 'default'): string {
  return renderDocument(templateFile(templateId), model);
}

/** A download name from the project number: project-1001.pdf. */
export function projectDocumentFilename(number: string): string {
  return safeFilename('project', number, 'pdf');
}

/** POST /projects/{id}/pdf {templateId, details}: the project report as PDF. */
export async function projectPdf(ctx: Ctx, projectId: unknown, raw: unknown): Promise<AfterCommitWork<DocumentFile>> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const input = parseInput(ZProjectDocument, raw ?? {});
  const model = await buildProjectDocumentModel(ctx, projectId, input.details);
  // printed once the unit of work committed (decision 049)
  return thenAfterCommit(async () => ({
    filename: projectDocumentFilename(model.project.number),
    contentType: PDF_TYPE,
    body: await printDocument(templateFile(input.templateId), model),
  }));
}
