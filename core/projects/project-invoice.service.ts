import { z } from 'zod';
import { mailLang } from '~/core/auth/recovery.service';
import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import type { Lang } from '~/core/i18n/languages';
import { erpProvider, readErpConnection, tenantErp } from '~/core/invoicing/erp-connection';
import { MAYBE_AT_VENDOR, queueDelivery } from '~/core/invoicing/erp-delivery';
import { readInvoiceRules, vatRateOf, type InvoiceLine } from '~/core/invoicing/invoice-lines';
import {
  finalizeInvoice,
  INVOICE_ENTITY,
  insertInvoice,
  invoiceColumns,
  lineRecord,
  recomputeInvoice,
} from '~/core/invoicing/invoice-store';
import { companyParts, customerPart } from '~/core/invoicing/order-invoice';
import { hasAccess, requireAccess, type Access } from '~/core/permissions/access';
import { compare, formatDecimal, formatTrimmed, isNegative, sub } from '~/core/pricing';
import { addDays, isPlainDate, tenantDate } from '~/core/calendar/dates';
import { findProject, lockOngoingProject, PROJECT_ACCESS, PROJECT_ENTITY, type ProjectRow } from './project-access';
import { canMarkIncluded, newPart, type RowStatus } from './project-invoicing';
import { readProjectFigures, type ProjectInvoicingTotals } from './project-figures';
import { backlogRowOf, fromOre, readProjectRows, toOre, type ProjectInvoicingRow } from './project-rows';

/*
 * Project invoicing (issue 18; spec section 3 "project invoice", section 4 "Project", section 5
 * "customer number needed to close a project invoice", section 8 "project articles already invoiced
 * or on an invoice cannot be marked included"; api-calls.md "Projects").
 *
 * A project invoice is an ordinary invoice (numbering, documents, ERP delivery) with its project and
 * its part of the contract sum and of the backlog beside it. Creating one takes a percentage of the
 * contract sum or its rest (core/projects/project-invoicing.ts newPart, in whole öre) and/or the
 * backlog rows, which it stamps as carried; closing it gives it its number, marks what it carried
 * invoiced and queues it for the ERP; reopening (before the ERP has it) makes it a draft again with
 * its number; deleting a draft lets its rows go.
 */

type Row = Record<string, unknown>;

export const PROJECT_ROW_STATUSES = ['open', 'included', 'invoiced'] as const;

// ---- views ----

export type { ProjectInvoicingTotals } from './project-figures';

export type ProjectErpState = 'none' | 'queued' | 'delivered' | 'failed';

export interface ProjectInvoiceItem {
  id: string;
  status: 'draft' | 'finalized' | 'void';
  /** Set once finalized; a reopened invoice keeps it. */
  invoiceNr: string | null;
  invoiceDate: string;
  marking: string | null;
  customerName: string | null;
  /** The percentage of the contract sum it takes; null for the rest or no contract part. */
  percent: string | null;
  /** It takes the rest of the contract sum. */
  rest: boolean;
  withBacklog: boolean;
  contractAmount: string;
  backlogAmount: string;
  totalPrice: string;
  totalPriceVat: string;
  erp: ProjectErpState;
  externalInvoiceNr: string | null;
  errorCode: string | null;
  version: number;
}

export interface ProjectInvoicingRowView extends ProjectInvoicingRow {
  /** It may be marked included (section 8: not once invoiced or on an invoice). */
  canMarkIncluded: boolean;
  /** It waits to be invoiced and a new invoice would take it. */
  invoiceable: boolean;
}

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
const money = (v: unknown) => formatDecimal(String(v ?? '0'));

// ---- totals ----

/**
 * Each project's contract sum, what is invoiced and what is left: the invoicing part of the
 * project's figures (project-figures.ts), which every tab and the list read.
 */
export async function projectInvoiceTotals(
  ctx: Pick<Ctx, 'trx'>,
  projectIds: readonly string[],
): Promise<Map<string, ProjectInvoicingTotals>> {
  const figures = await readProjectFigures(ctx, projectIds);
  return new Map([...figures].map(([id, f]) => [id, f.invoicing]));
}

async function totalsOf(ctx: Ctx, projectId: string): Promise<ProjectInvoicingTotals> {
  return (await projectInvoiceTotals(ctx, [projectId])).get(projectId)!;
}

// ---- rows ----

/** A labour row with no hours has nothing to invoice: it is shown, never carried. */
const hasNothing = (r: ProjectInvoicingRow) => r.kind === 'workOrder' && compare(r.total, 0) === 0;

function rowView(r: ProjectInvoicingRow): ProjectInvoicingRowView {
  const b = backlogRowOf(r);
  return {
    ...r,
    canMarkIncluded: canMarkIncluded(b, r.invoiceId !== null),
    invoiceable:
      r.invoiceId === null && !hasNothing(r) && b.status === 'open' && (!r.extraWork || r.extraWork === 'accepted'),
  };
}

/** GET /projects/{id}/articles: the project's work orders and article rows with their invoicing status. */
export async function getProjectRows(ctx: Ctx, projectId: unknown): Promise<{ rows: ProjectInvoicingRowView[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const project = await findProject(ctx, projectId);
  return { rows: (await readProjectRows(ctx, [project.id])).map(rowView) };
}

// ---- the project's invoices ----

const ERP_STATE = `case when d.status in ('pending', 'sending') then 'queued'
                       when d.status = 'delivered' or i.erp_reference_id is not null then 'delivered'
                       when d.status in ('failed', 'needs_checking') then 'failed' else 'none' end`;

async function readInvoices(
  ctx: Ctx,
  where: { projectId: string } | { invoiceId: string },
): Promise<ProjectInvoiceItem[]> {
  const { rows } = (await ctx.trx.raw(
    `select i.id, i.status, i.invoice_nr, i.invoice_date::text as date_text, i.marking, c.name as customer_name,
            i.project_percent::text as percent, i.project_contract_amount::text as contract,
            i.project_backlog_amount::text as backlog, i.total_price::text as total_price,
            i.total_price_vat::text as total_price_vat, i.version, i.data->'projectInvoice' as part,
            ${ERP_STATE} as erp, coalesce(i.external_invoice_nr, d.external_invoice_nr) as external_invoice_nr,
            case when d.status in ('failed', 'needs_checking') then d.error_code end as error_code
       from invoices i
       left join customers c on c.id = i.customer_id
       left join lateral (select status, error_code, external_invoice_nr from erp_deliveries x
                           where x.invoice_id = i.id order by x.created_at desc limit 1) d on true
      where ${'projectId' in where ? 'i.project_id = ?' : 'i.id = ? and i.project_id is not null'}
      order by i.create_ts, i.id`,
    ['projectId' in where ? where.projectId : where.invoiceId],
  )) as { rows: Row[] };
  return rows.map((r) => {
    const part = (r.part ?? {}) as { rest?: boolean; withBacklog?: boolean };
    return {
      id: r.id as string,
      status: r.status as ProjectInvoiceItem['status'],
      invoiceNr: str(r.invoice_nr),
      invoiceDate: r.date_text as string,
      marking: str(r.marking),
      customerName: str(r.customer_name),
      percent: r.percent === null || r.percent === undefined ? null : formatTrimmed(String(r.percent)),
      rest: Boolean(part.rest),
      withBacklog: Boolean(part.withBacklog),
      contractAmount: money(r.contract),
      backlogAmount: money(r.backlog),
      totalPrice: money(r.total_price),
      totalPriceVat: money(r.total_price_vat),
      erp: r.erp as ProjectErpState,
      externalInvoiceNr: str(r.external_invoice_nr),
      errorCode: str(r.error_code),
      version: Number(r.version),
    };
  });
}

/**
 * GET /projects/{id}/invoices (projects:read) and GET /invoice/project/{id} (invoices:read): the
 * project's invoices, oldest first, with their parts and ERP state.
 */
export async function listProjectInvoices(
  ctx: Ctx,
  projectId: unknown,
  access: Access = PROJECT_ACCESS.read,
): Promise<{ invoices: ProjectInvoiceItem[] }> {
  requireAccess(ctx.auth, access);
  const project = await findProject(ctx, projectId);
  return { invoices: await readInvoices(ctx, { projectId: project.id }) };
}

export interface ProjectInvoicingView {
  project: { id: string; number: number; title: string; status: ProjectRow['status'] };
  totals: ProjectInvoicingTotals;
  rows: ProjectInvoicingRowView[];
  invoices: ProjectInvoiceItem[];
  /** Who the invoices go to: the project's invoice customer, else its first customer. */
  customer: { id: string; name: string; customerNumber: string | null } | null;
  canEdit: boolean;
  canCloseNegative: boolean;
  /** The tenant's ERP, for the invoices' ERP state. */
  erpName: string;
}

/** The invoicing tab: totals, rows and invoices in one read. */
export async function getProjectInvoicing(ctx: Ctx, projectId: unknown): Promise<ProjectInvoicingView> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const project = await findProject(ctx, projectId);
  const customer = await invoicedCustomer(ctx, project.id);
  return {
    project: { id: project.id, number: project.number, title: project.title, status: project.status },
    totals: await totalsOf(ctx, project.id),
    rows: (await readProjectRows(ctx, [project.id])).map(rowView),
    invoices: await readInvoices(ctx, { projectId: project.id }),
    customer: customer
      ? { id: customer.id as string, name: customer.name as string, customerNumber: str(customer.customer_id) }
      : null,
    canEdit: hasAccess(ctx.auth, PROJECT_ACCESS.edit) && project.status === 'ongoing',
    canCloseNegative: hasAccess(ctx.auth, PROJECT_ACCESS.closeNegativeInvoice),
    erpName: (await tenantErp(ctx)).displayName,
  };
}

// ---- row status ----

const zId = () => z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD');
const zStatus = () => z.enum(PROJECT_ROW_STATUSES, { error: 'ERROR_INVALID_VALUE' });
const zInvoiceId = () => z.preprocess((v) => (v === '' ? null : v), z.string().nullable().optional());

export const ZArticleStatus = z.object({ rowId: zId(), status: zStatus(), invoiceId: zInvoiceId() });
export const ZWorkOrderStatus = z.object({ workOrderId: zId(), status: zStatus(), invoiceId: zInvoiceId() });

/** A finalized invoice of this project, for a row marked invoiced by hand. */
async function invoicedBy(ctx: Ctx, projectId: string, status: RowStatus, invoiceId: string | null | undefined) {
  if (status !== 'invoiced') return null;
  const found: Row | undefined = isUuid(invoiceId)
    ? await ctx.trx('invoices').where({ id: invoiceId, project_id: projectId, status: 'finalized' }).first('id')
    : undefined;
  if (!found) throw new AppError('VALIDATION_FAILED', 400, { fields: { invoiceId: ['ERROR_INVALID_VALUE'] } });
  return found.id as string;
}

/**
 * A row's status may change only while nothing carries it: a row invoiced, or on an invoice (a
 * draft), is refused with 409 PROJECT_ROW_INVOICED (section 8 names marking it included; opening
 * an invoiced row again would invoice it twice, so that is refused too).
 */
function checkChange(current: RowStatus, onInvoice: boolean): void {
  if (!canMarkIncluded({ id: '', amount: 0, status: current }, onInvoice))
    throw new AppError('PROJECT_ROW_INVOICED', 409);
}

/**
 * PATCH /projects/{id}/articles/status {rowId, status, invoiceId}: an article row of the project's
 * orders set open, included in the contract sum, or invoiced (by hand, with the project's finalized
 * invoice that billed it). History on the project: invoicing.status.
 */
export async function setArticleStatus(
  ctx: Ctx,
  projectId: unknown,
  raw: unknown,
): Promise<{ rows: ProjectInvoicingRowView[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const input = parseInput(ZArticleStatus, raw);
  const project = await lockOngoingProject(ctx, projectId);
  if (!isUuid(input.rowId)) throw notFound();
  const row: Row | undefined = await ctx
    .trx('work_order_articles as a')
    .join('work_orders as w', 'w.id', 'a.work_order_id')
    .where({ 'a.id': input.rowId, 'w.project_id': project.id })
    .whereNull('w.deleted_at')
    .forUpdate()
    .first('a.id', 'a.title', 'a.project_status', 'a.project_invoice_id', 'w.project_invoice_status', 'w.number');
  if (!row) throw notFound();
  const current = (row.project_status ?? row.project_invoice_status ?? 'open') as RowStatus;
  if (row.project_status === input.status && current === input.status) return getProjectRows(ctx, project.id);
  checkChange(current, row.project_invoice_id !== null);
  const invoiceId = await invoicedBy(ctx, project.id, input.status, input.invoiceId);
  await ctx
    .trx('work_order_articles')
    .where({ id: row.id })
    .update({ project_status: input.status, project_invoice_id: invoiceId });
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: project.id,
    action: 'invoicing.status',
    data: {
      article: { id: row.id, title: row.title, workOrder: Number(row.number) },
      old: current,
      new: input.status,
      invoiceId,
    },
  });
  return getProjectRows(ctx, project.id);
}

/**
 * PATCH /projects/{id}/workorders/status {workOrderId, status, invoiceId}: a project order's labour
 * set open, included or invoiced by hand. Its article rows without a status of their own follow it,
 * except those an invoice already carries: they keep the status they had.
 */
export async function setWorkOrderStatus(
  ctx: Ctx,
  projectId: unknown,
  raw: unknown,
): Promise<{ rows: ProjectInvoicingRowView[] }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const input = parseInput(ZWorkOrderStatus, raw);
  const project = await lockOngoingProject(ctx, projectId);
  if (!isUuid(input.workOrderId)) throw notFound();
  const wo: Row | undefined = await ctx
    .trx('work_orders')
    .where({ id: input.workOrderId, project_id: project.id })
    .whereNull('deleted_at')
    .forUpdate()
    .first('id', 'number', 'project_invoice_status', 'project_invoice_id');
  if (!wo) throw notFound();
  const current = (wo.project_invoice_status ?? 'open') as RowStatus;
  if (current === input.status) return getProjectRows(ctx, project.id);
  checkChange(current, wo.project_invoice_id !== null);
  const invoiceId = await invoicedBy(ctx, project.id, input.status, input.invoiceId);
  // article rows an invoice carries keep what they were
  await ctx
    .trx('work_order_articles')
    .where({ work_order_id: wo.id })
    .whereNull('project_status')
    .whereNotNull('project_invoice_id')
    .update({ project_status: current });
  await ctx
    .trx('work_orders')
    .where({ id: wo.id })
    .update({ project_invoice_status: input.status, project_invoice_id: invoiceId, update_ts: ctx.now });
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: project.id,
    action: 'invoicing.status',
    data: { workOrder: { id: wo.id, number: Number(wo.number) }, old: current, new: input.status, invoiceId },
  });
  return getProjectRows(ctx, project.id);
}

// ---- creating and changing a part invoice ----

/** The contract row's title in the invoice's language: "Delbetalning 30 % av kontraktssumma". */
export const CONTRACT_ROW_TITLE: Record<Lang, { part: (p: string) => string; rest: string }> = {
  sv: { part: (p) => `Delbetalning ${p} % av kontraktssumma`, rest: 'Resterande del av kontraktssumma' },
  en: { part: (p) => `Part payment ${p} % of the contract sum`, rest: 'Remainder of the contract sum' },
  et: { part: (p) => `Osamakse ${p} % lepingusummast`, rest: 'Lepingusumma ülejäänud osa' },
  lv: { part: (p) => `Daļējs maksājums ${p} % no līguma summas`, rest: 'Līguma summas atlikums' },
  ru: { part: (p) => `Частичная оплата ${p} % от суммы договора`, rest: 'Остаток суммы договора' },
};

/** 33.33 as the invoice's language writes it ("33,33"; English "33.33"). */
const percentText = (percent: number, lang: Lang) => {
  const text = formatTrimmed(String(percent));
  return lang === 'en' ? text : text.replace('.', ',');
};

const zDate = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'ERROR_INVALID_VALUE')
    .refine((s) => isPlainDate(s), 'ERROR_INVALID_VALUE');
const zBool = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? ['true', '1', 'on', 'yes'].includes(v.toLowerCase()) : v),
    z.boolean({ error: 'ERROR_INVALID_VALUE' }),
  );
/** A percentage (0–100, two decimals), `rest`, or nothing (no contract part). */
const zPercent = () =>
  z.preprocess(
    (v) => {
      if (v === '' || v === undefined) return null;
      if (typeof v === 'string' && v.trim() !== 'rest') return Number(v.trim().replace(',', '.'));
      return v;
    },
    z.union(
      [
        z.literal('rest'),
        z.null(),
        z
          .number({ error: 'ERROR_INVALID_VALUE' })
          .refine((n) => Number.isFinite(n) && n > 0 && n <= 100, 'ERROR_INVALID_VALUE')
          .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, 'ERROR_INVALID_VALUE'),
      ],
      { error: 'ERROR_INVALID_VALUE' },
    ),
  );
const optText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string().max(max, 'ERROR_MAX_LENGTH').nullable().optional(),
  );

export const ZCreateProjectInvoice = z.object({
  projectId: zId(),
  percent: zPercent().optional(),
  withBacklog: zBool().default(false),
  invoiceDate: zDate().optional(),
  marking: optText(200),
});
export type TCreateProjectInvoice = z.input<typeof ZCreateProjectInvoice>;

export const ZUpdateProjectInvoice = z.object({
  id: zId(),
  version: z.coerce.number({ error: 'ERROR_INVALID_VALUE' }).int().optional(),
  percent: zPercent().optional(),
  withBacklog: zBool().optional(),
  invoiceDate: zDate().optional(),
  marking: optText(200),
});

/** The customer a project invoices: its invoice customer, else its first customer. */
async function invoicedCustomer(ctx: Ctx, projectId: string): Promise<Row | null> {
  const row: Row | undefined = await ctx
    .trx('customers')
    .whereRaw(
      `id = coalesce((select invoice_customer_id from projects where id = ?),
                     (select customer_id from project_customers where project_id = ? order by sort_order, customer_id limit 1))`,
      [projectId, projectId],
    )
    .first();
  return row ?? null;
}

const hasNumber = (customer: Row | null) =>
  Boolean(customer && typeof customer.customer_id === 'string' && customer.customer_id.trim());

interface PartChoice {
  percent: number | 'rest' | null;
  withBacklog: boolean;
}

interface Planned {
  contractAmount: number;
  /** The contract parts of the project's other finalized invoices, öre: what was invoiced before this one. */
  contractInvoicedBefore: number;
  rows: ProjectInvoicingRow[];
  lines: InvoiceLine[];
}

/** How a part invoice marks the rows of extra work (ÄTA), in the invoice's language. */
export const EXTRA_WORK_ROW_TAG: Record<Lang, string> = {
  sv: 'ÄTA',
  en: 'Extra work',
  et: 'Lisatöö',
  lv: 'Papildu darbi',
  ru: 'Доп. работы',
};

/**
 * "ÄTA #1042: Kortläsare": a row of accepted extra work says so and names its order. An order's
 * labour row whose title already starts with the word keeps "#1042 ÄTA extra dörr".
 */
export function extraWorkRowTitle(
  row: Pick<ProjectInvoicingRow, 'kind' | 'title' | 'workOrderNumber' | 'workOrderTitle'>,
  lang: Lang,
): string {
  const tag = EXTRA_WORK_ROW_TAG[lang];
  if (row.kind === 'workOrder')
    return row.workOrderTitle.toLocaleLowerCase().startsWith(tag.toLocaleLowerCase())
      ? row.title
      : `${tag} #${row.workOrderNumber}: ${row.workOrderTitle}`;
  return `${tag} #${row.workOrderNumber}: ${row.title}`;
}

/**
 * What a part invoice takes: newPart() over the project's invoices (but `except`, the draft being
 * changed) and its rows that no other invoice carries, and the invoice lines for it.
 */
async function planPart(
  ctx: Ctx,
  project: ProjectRow,
  choice: PartChoice,
  lang: Lang,
  except: string | null,
): Promise<Planned> {
  const invoices: Row[] = await ctx
    .trx('invoices')
    .where({ project_id: project.id })
    .whereNot('status', 'void')
    .modify((q) => {
      if (except) q.whereNot('id', except);
    })
    .select('status', 'project_contract_amount', 'project_backlog_amount');
  const rows = (await readProjectRows(ctx, [project.id])).filter(
    (r) => (r.invoiceId === null || r.invoiceId === except) && !hasNothing(r),
  );
  const part = newPart({
    contractSum: toOre(project.contract_sum),
    invoices: invoices.map((i) => ({
      status: i.status === 'draft' ? 'draft' : 'finalized',
      contractAmount: toOre(String(i.project_contract_amount ?? '0')),
      backlogAmount: toOre(String(i.project_backlog_amount ?? '0')),
    })),
    rows: rows.map(backlogRowOf),
    percent: choice.percent,
    withBacklog: choice.withBacklog,
  });
  const contractInvoicedBefore = invoices
    .filter((i) => i.status === 'finalized')
    .reduce((sum, i) => sum + toOre(String(i.project_contract_amount ?? '0')), 0);
  if (!part.ok) {
    if (part.error === 'ERROR_INVALID_VALUE')
      throw new AppError('VALIDATION_FAILED', 400, { fields: { percent: ['ERROR_INVALID_VALUE'] } });
    throw new AppError(part.error, part.error === 'PROJECT_INVOICE_EMPTY' ? 400 : 409);
  }
  const taken = new Set(part.rowIds);
  const carried = rows.filter((r) => taken.has(backlogRowOf(r).id));

  const settings: Row | undefined = await ctx.trx('work_order_settings').first('vat_percentage');
  const defaultVat = vatRateOf(settings?.vat_percentage);
  const articleIds = [...new Set(carried.map((r) => r.articleId).filter((id): id is string => Boolean(id)))];
  const facts = new Map<string, Row>();
  if (articleIds.length)
    for (const a of await ctx
      .trx('articles')
      .whereIn('id', articleIds)
      .select('id', 'vat_percent', 'product_type', 'house_work'))
      facts.set(a.id as string, a);

  const lines: InvoiceLine[] = [];
  if (part.contractAmount !== 0) {
    const titles = CONTRACT_ROW_TITLE[lang];
    lines.push({
      kind: 'part_payment',
      articleId: null,
      articleNumber: null,
      title:
        choice.percent === 'rest' || choice.percent === null
          ? titles.rest
          : titles.part(percentText(choice.percent, lang)),
      description: `${project.number} ${project.title}`,
      unit: null,
      amount: '1',
      price: fromOre(part.contractAmount),
      discountType: null,
      discountValue: null,
      vatPercent: defaultVat,
      work: 'material',
      green: null,
      userId: null,
    });
  }
  for (const r of carried) {
    if (r.kind === 'workOrder') {
      lines.push({
        kind: 'labour',
        articleId: null,
        articleNumber: null,
        title: r.extraWork ? extraWorkRowTitle(r, lang) : r.title,
        description: null,
        unit: 'h',
        amount: r.quantity,
        price: r.price,
        discountType: null,
        discountValue: null,
        vatPercent: defaultVat,
        work: 'labour',
        green: null,
        userId: null,
      });
      continue;
    }
    const f = r.articleId ? facts.get(r.articleId) : undefined;
    lines.push({
      kind: 'article',
      articleId: r.articleId,
      articleNumber: r.articleNumber,
      title: r.extraWork ? extraWorkRowTitle(r, lang) : r.title,
      description: r.description,
      unit: r.unit,
      amount: r.quantity,
      price: r.price,
      discountType: r.discountType,
      discountValue: r.discountType ? (r.discountValue ?? '0') : null,
      vatPercent: vatRateOf(f?.vat_percent, defaultVat),
      work: f && (f.product_type === 'service' || f.house_work) ? 'labour' : 'material',
      green: null,
      userId: null,
    });
  }
  return { contractAmount: part.contractAmount, contractInvoicedBefore, rows: carried, lines };
}

/** Stamps the rows an invoice carries (their status stays until it is closed). */
async function carry(ctx: Ctx, invoiceId: string, rows: ProjectInvoicingRow[]): Promise<void> {
  const orders = rows.filter((r) => r.kind === 'workOrder').map((r) => r.id);
  const articles = rows.filter((r) => r.kind === 'article').map((r) => r.id);
  if (orders.length) await ctx.trx('work_orders').whereIn('id', orders).update({ project_invoice_id: invoiceId });
  if (articles.length)
    await ctx.trx('work_order_articles').whereIn('id', articles).update({ project_invoice_id: invoiceId });
}

/** Lets every row an invoice carries go (a deleted or changed draft). */
async function release(ctx: Ctx, invoiceId: string): Promise<void> {
  await ctx.trx('work_orders').where({ project_invoice_id: invoiceId }).update({ project_invoice_id: null });
  await ctx.trx('work_order_articles').where({ project_invoice_id: invoiceId }).update({ project_invoice_id: null });
}

/** The invoice's project columns: the percentage, the contract part and the backlog part (net − contract). */
async function writeParts(ctx: Ctx, invoiceId: string, choice: PartChoice, contractAmount: number): Promise<void> {
  const { total_price: net } = await ctx.trx('invoices').where({ id: invoiceId }).first('total_price');
  const contract = fromOre(contractAmount);
  await ctx
    .trx('invoices')
    .where({ id: invoiceId })
    .update({
      project_percent: typeof choice.percent === 'number' && contractAmount !== 0 ? String(choice.percent) : null,
      project_contract_amount: contract,
      project_backlog_amount: formatDecimal(sub(String(net), contract)),
    });
}

/**
 * What the invoice keeps of its project (its data's projectInvoice, which the document prints):
 * the contract sum, what of it earlier finalized invoices carried, this invoice's part and what is
 * left of it after this one. Written when the draft is made or changed, and again when it is closed
 * (another part may have been closed in between).
 */
function partData(project: ProjectRow, choice: PartChoice, contractAmount: number, invoicedBefore: number) {
  const contractSum = toOre(formatDecimal(project.contract_sum));
  return {
    projectId: project.id,
    number: project.number,
    title: project.title,
    contractSum: fromOre(contractSum),
    invoicedBefore: fromOre(invoicedBefore),
    contractPart: fromOre(contractAmount),
    leftAfter: fromOre(contractSum - invoicedBefore - contractAmount),
    percent: typeof choice.percent === 'number' ? String(choice.percent) : null,
    rest: choice.percent === 'rest' && contractAmount !== 0,
    withBacklog: choice.withBacklog,
  };
}

async function itemOf(ctx: Ctx, invoiceId: string): Promise<ProjectInvoiceItem> {
  const [item] = await readInvoices(ctx, { invoiceId });
  if (!item) throw notFound();
  return item;
}

/**
 * POST /projects/invoices {projectId, percent?: number | 'rest' | null, withBacklog, invoiceDate?,
 * marking?}: a draft part invoice to the project's invoiced customer. 400 PROJECT_INVOICE_EMPTY
 * (no contract part and no backlog), 409 PROJECT_INVOICE_EXCEEDS_CONTRACT (more than the contract
 * sum left, drafts counted), 409 PROJECT_INVOICE_CUSTOMER_MISSING, 409 PROJECT_CLOSED.
 */
export async function createProjectInvoice(ctx: Ctx, raw: unknown): Promise<{ invoice: ProjectInvoiceItem }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const input = parseInput(ZCreateProjectInvoice, raw);
  const project = await lockOngoingProject(ctx, input.projectId);
  const customer = await invoicedCustomer(ctx, project.id);
  if (!customer) throw new AppError('PROJECT_INVOICE_CUSTOMER_MISSING', 409);
  const lang = mailLang(ctx, customer.invoice_language as string | null);
  const choice: PartChoice = { percent: input.percent ?? null, withBacklog: input.withBacklog };
  const planned = await planPart(ctx, project, choice, lang, null);

  const rules = await readInvoiceRules(ctx);
  const company = companyParts(ctx);
  const settings: Row | undefined = await ctx.trx('work_order_settings').first('vat_percentage');
  const vat = vatRateOf(settings?.vat_percentage);
  const invoiceDate = input.invoiceDate ?? tenantDate(ctx.now, ctx.tenant.config.country);
  const termDays = typeof customer.payment_term_days === 'number' ? customer.payment_term_days : 30;
  const reverseVat = Boolean(customer.reverse_vat);
  const invoiceId = await insertInvoice(
    ctx,
    {
      projectId: project.id,
      customerId: customer.id as string,
      invoiceDate,
      deliveryDate: invoiceDate,
      paymentTermDays: termDays,
      paymentDueDate: addDays(invoiceDate, termDays),
      marking: input.marking ?? null,
      description: project.title,
      customerOrderNumber: null,
      ourReference: ctx.auth.user.fullName,
      yourReference: null,
      invoiceFee: null,
      vatPercentage: reverseVat ? '0' : vat,
      reverseVat,
      bgAccount: company.bgAccount,
      bankAccount: rules.bankAccount,
      taxReduction: 'none',
      propertyDesignation: null,
      housingOrgNr: null,
      taxReductionPersons: [],
      data: {
        instance: company.instance,
        customer: customerPart(customer, false),
        projectInvoice: partData(project, choice, planned.contractAmount, planned.contractInvoicedBefore),
      },
    },
    planned.lines,
  );
  await writeParts(ctx, invoiceId, choice, planned.contractAmount);
  await carry(ctx, invoiceId, planned.rows);
  await recordHistory(ctx, {
    entity: INVOICE_ENTITY,
    entityId: invoiceId,
    action: 'create',
    data: {
      project: { id: project.id, number: project.number },
      percent: choice.percent,
      withBacklog: choice.withBacklog,
      rows: planned.lines.length,
    },
  });
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: project.id,
    action: 'invoice.create',
    data: { invoiceId, contractAmount: fromOre(planned.contractAmount), rows: planned.rows.length },
  });
  return { invoice: await itemOf(ctx, invoiceId) };
}

/** A project invoice's row, locked, with its project locked ongoing; 404 for any other invoice. */
async function lockProjectInvoice(ctx: Ctx, invoiceId: unknown): Promise<{ invoice: Row; project: ProjectRow }> {
  if (!isUuid(invoiceId)) throw notFound();
  const peek: Row | undefined = await ctx
    .trx('invoices')
    .where({ id: invoiceId })
    .whereNotNull('project_id')
    .first('project_id');
  if (!peek) throw notFound();
  // the project first, then the invoice: the same order as creating one, so two requests never deadlock
  const project = await lockOngoingProject(ctx, peek.project_id);
  const invoice: Row = await ctx
    .trx('invoices')
    .where({ id: invoiceId })
    .forUpdate()
    .first(...invoiceColumns(ctx.trx));
  return { invoice, project };
}

/**
 * PUT /projects/invoices {id, version?, percent?, withBacklog?, invoiceDate?, marking?}: changes a
 * draft and computes it again (its rows as the project stands now). 409 INVOICE_NOT_DRAFT,
 * INVOICE_CHANGED.
 */
export async function updateProjectInvoice(ctx: Ctx, raw: unknown): Promise<{ invoice: ProjectInvoiceItem }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const input = parseInput(ZUpdateProjectInvoice, raw);
  const { invoice, project } = await lockProjectInvoice(ctx, input.id);
  if (invoice.status !== 'draft') throw new AppError('INVOICE_NOT_DRAFT', 409);
  if (input.version !== undefined && Number(invoice.version) !== input.version)
    throw new AppError('INVOICE_CHANGED', 409, { version: Number(invoice.version) });
  const before = ((invoice.data as Row | null)?.projectInvoice ?? {}) as {
    percent?: string | null;
    rest?: boolean;
    withBacklog?: boolean;
  };
  const choice: PartChoice = {
    percent:
      input.percent !== undefined
        ? input.percent
        : before.rest
          ? 'rest'
          : before.percent
            ? Number(before.percent)
            : null,
    withBacklog: input.withBacklog ?? Boolean(before.withBacklog),
  };
  const customer: Row | undefined = await ctx.trx('customers').where({ id: invoice.customer_id }).first();
  const lang = mailLang(ctx, (customer?.invoice_language as string | null) ?? null);
  const id = invoice.id as string;
  await release(ctx, id);
  const planned = await planPart(ctx, project, choice, lang, id);
  await ctx.trx('invoice_rows').where({ invoice_id: id }).delete();
  if (planned.lines.length) await ctx.trx('invoice_rows').insert(planned.lines.map((l, i) => lineRecord(id, l, i)));
  const invoiceDate = input.invoiceDate ?? (invoice.date_text as string);
  const data = {
    ...((invoice.data as Row | null) ?? {}),
    projectInvoice: partData(project, choice, planned.contractAmount, planned.contractInvoicedBefore),
  };
  await ctx
    .trx('invoices')
    .where({ id })
    .update({
      invoice_date: invoiceDate,
      delivery_date: invoiceDate,
      payment_due_date: addDays(invoiceDate, Number(invoice.payment_term_days)),
      ...(input.marking !== undefined ? { marking: input.marking } : {}),
      data: JSON.stringify(data),
      version: Number(invoice.version) + 1,
      update_ts: ctx.now,
    });
  await recomputeInvoice(ctx, id);
  await writeParts(ctx, id, choice, planned.contractAmount);
  await carry(ctx, id, planned.rows);
  await recordHistory(ctx, {
    entity: INVOICE_ENTITY,
    entityId: id,
    action: 'edit',
    data: { percent: choice.percent, withBacklog: choice.withBacklog, invoiceDate, rows: planned.lines.length },
  });
  return { invoice: await itemOf(ctx, id) };
}

/**
 * DELETE /projects/invoices/{invoiceId}: a draft goes and its rows are free again. A draft that
 * had a number (a reopened invoice) is voided instead: numbers have no gaps.
 */
export async function deleteProjectInvoice(
  ctx: Ctx,
  invoiceId: unknown,
): Promise<{ deleted: boolean; voided: boolean }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const { invoice, project } = await lockProjectInvoice(ctx, invoiceId);
  if (invoice.status !== 'draft') throw new AppError('INVOICE_NOT_DRAFT', 409);
  const id = invoice.id as string;
  await release(ctx, id);
  const numbered = invoice.invoice_nr !== null && invoice.invoice_nr !== undefined;
  if (numbered) {
    await ctx.trx('invoices').where({ id }).update({ status: 'void', update_ts: ctx.now });
    await recordHistory(ctx, { entity: INVOICE_ENTITY, entityId: id, action: 'void' });
  } else await ctx.trx('invoices').where({ id }).delete();
  await recordHistory(ctx, {
    entity: PROJECT_ENTITY,
    entityId: project.id,
    action: 'invoice.delete',
    data: { invoiceId: id, invoiceNr: str(invoice.invoice_nr), voided: numbered },
  });
  return { deleted: !numbered, voided: numbered };
}

/**
 * What closing did about the ERP, for the person who closed it: queued for delivery (the worker
 * sends it after commit), no ERP connected that takes invoices, the customer is set not to be sent,
 * or nothing to send (a zero total).
 */
export type ProjectInvoiceDelivery = 'queued' | 'notConnected' | 'customerNotSent' | 'zeroPrice';

/**
 * POST /projects/invoices/{invoiceId}/close: the draft is finalized (its number, or the one it had
 * before it was reopened), what it carries becomes invoiced, and it is queued for the ERP when the
 * ERP takes invoices and the customer sends. 409 PROJECT_INVOICE_CUSTOMER_NUMBER_MISSING (section
 * 5), INVOICE_NOT_DRAFT, INVOICE_HAS_NO_ROWS; a negative total needs projects:close_negative_invoice.
 */
export async function closeProjectInvoice(
  ctx: Ctx,
  invoiceId: unknown,
): Promise<{ invoice: ProjectInvoiceItem; queued: boolean; delivery: ProjectInvoiceDelivery }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const { invoice } = await lockProjectInvoice(ctx, invoiceId);
  if (invoice.status !== 'draft') throw new AppError('INVOICE_NOT_DRAFT', 409);
  const customer: Row | null = invoice.customer_id
    ? ((await ctx.trx('customers').where({ id: invoice.customer_id }).first()) ?? null)
    : null;
  if (!hasNumber(customer)) throw new AppError('PROJECT_INVOICE_CUSTOMER_NUMBER_MISSING', 409);
  if (isNegative(String(invoice.total_price))) requireAccess(ctx.auth, PROJECT_ACCESS.closeNegativeInvoice);
  const id = invoice.id as string;
  if (invoice.invoice_nr) {
    // reopened: it keeps its number
    await ctx
      .trx('invoices')
      .where({ id })
      .update({
        status: 'finalized',
        finalized_at: ctx.now,
        finalized_user_id: ctx.auth.user.id,
        version: Number(invoice.version) + 1,
        update_ts: ctx.now,
      });
    await recordHistory(ctx, {
      entity: INVOICE_ENTITY,
      entityId: id,
      action: 'finalize',
      data: { invoiceNr: String(invoice.invoice_nr), again: true },
    });
  } else await finalizeInvoice(ctx, id);
  await ctx.trx('work_orders').where({ project_invoice_id: id }).update({ project_invoice_status: 'invoiced' });
  await ctx.trx('work_order_articles').where({ project_invoice_id: id }).update({ project_status: 'invoiced' });
  // what the contract had invoiced before this one, as it stands when this one is closed
  await ctx.trx.raw(
    `update invoices i
        set data = jsonb_set(jsonb_set(i.data, '{projectInvoice,invoicedBefore}', to_jsonb(b.before::numeric(14, 2)::text)),
                             '{projectInvoice,leftAfter}',
                             to_jsonb((p.contract_sum - b.before - coalesce(i.project_contract_amount, 0))::numeric(14, 2)::text))
       from projects p,
            (select coalesce(sum(x.project_contract_amount), 0) as before from invoices x
              where x.project_id = (select project_id from invoices where id = ?) and x.status = 'finalized' and x.id <> ?) b
      where i.id = ? and p.id = i.project_id and jsonb_typeof(i.data -> 'projectInvoice') = 'object'`,
    [id, id, id],
  );

  let queued = false;
  let delivery: ProjectInvoiceDelivery = 'customerNotSent';
  if (customer!.send_to_erp !== false) {
    const { provider } = erpProvider((await readErpConnection(ctx.trx)).kind);
    delivery = 'notConnected';
    if (provider.capabilities.sendInvoices) {
      const { total_price_vat: total } = await ctx.trx('invoices').where({ id }).first('total_price_vat');
      delivery = 'zeroPrice';
      if (compare(String(total), 0) === 0)
        await ctx.trx('invoices').where({ id }).update({ erp_state: 'not_sent.zero_price' });
      else {
        delivery = 'queued';
        const queuedDelivery = await queueDelivery(ctx, id);
        await recordHistory(ctx, {
          entity: INVOICE_ENTITY,
          entityId: id,
          action: 'erp.queued',
          data: { kind: queuedDelivery.kind },
        });
        queued = true;
      }
    }
  }
  return { invoice: await itemOf(ctx, id), queued, delivery };
}

/**
 * POST /projects/invoices/{invoiceId}/reopen: a finalized project invoice the ERP does not have yet
 * (nothing delivered or being sent) becomes a draft again with its number; what it carried is open
 * again (still carried); a waiting delivery is dropped. 409 INVOICE_ALREADY_IN_ERP, INVOICE_NOT_FINALIZED.
 */
export async function reopenProjectInvoice(ctx: Ctx, invoiceId: unknown): Promise<{ invoice: ProjectInvoiceItem }> {
  requireAccess(ctx.auth, PROJECT_ACCESS.edit);
  const { invoice } = await lockProjectInvoice(ctx, invoiceId);
  if (invoice.status !== 'finalized') throw new AppError('INVOICE_NOT_FINALIZED', 409);
  const id = invoice.id as string;
  const inErp: Row | undefined = await ctx
    .trx('erp_deliveries')
    .where({ invoice_id: id })
    .whereIn('status', MAYBE_AT_VENDOR)
    .first('id');
  if (invoice.erp_reference_id || inErp) throw new AppError('INVOICE_ALREADY_IN_ERP', 409);
  await ctx
    .trx('erp_deliveries')
    .where({ invoice_id: id })
    .whereIn('status', ['pending', 'failed'])
    .update({ status: 'skipped', error_code: 'INVOICE_REOPENED', updated_at: ctx.now });
  await ctx
    .trx('invoices')
    .where({ id })
    .update({
      status: 'draft',
      erp_state: null,
      finalized_at: null,
      finalized_user_id: null,
      version: Number(invoice.version) + 1,
      update_ts: ctx.now,
    });
  // an article row that followed its order (both carried) follows it again; the others are open
  await ctx.trx.raw(
    `update work_order_articles a
        set project_status = case when exists (select 1 from work_orders w
                                               where w.id = a.work_order_id and w.project_invoice_id = ?)
                                  then null else 'open' end
      where a.project_invoice_id = ?`,
    [id, id],
  );
  await ctx.trx('work_orders').where({ project_invoice_id: id }).update({ project_invoice_status: 'open' });
  await recordHistory(ctx, {
    entity: INVOICE_ENTITY,
    entityId: id,
    action: 'reopen',
    data: { invoiceNr: str(invoice.invoice_nr) },
  });
  return { invoice: await itemOf(ctx, id) };
}

/** The totals of one project after a change, for the panel's answers. */
export async function projectTotalsOf(ctx: Ctx, projectId: unknown): Promise<ProjectInvoicingTotals> {
  requireAccess(ctx.auth, PROJECT_ACCESS.read);
  const project = await findProject(ctx, projectId);
  return totalsOf(ctx, project.id);
}

/** Refuses an invoice that is not this project's (another project's or tenant's is not found here). */
export async function requireProjectInvoice(ctx: Ctx, projectId: unknown, invoiceId: unknown): Promise<void> {
  if (!isUuid(invoiceId) || !isUuid(projectId)) throw notFound();
  const own = await ctx.trx('invoices').where({ id: invoiceId, project_id: projectId }).first('id');
  if (!own) throw notFound();
}
