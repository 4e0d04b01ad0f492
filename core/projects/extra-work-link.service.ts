import { z } from 'zod';
import { mailLang } from '~/core/auth/recovery.service';
import { throttleFor } from '~/core/auth/login-throttle';
import { hashToken, newToken } from '~/core/auth/session.service';
import type { Ctx } from '~/core/context';
import { AppError, isAppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, zEmail, zRequiredString } from '~/core/errors/validation';
import { recordHistory } from '~/core/history/history';
import { keyFromLang } from '~/core/i18n/languages';
import { formatDate, formatNumber, tenantTimeZone } from '~/core/i18n/number-format';
import { sendAfterCommit } from '~/core/mail/templates/deliver';
import { tenantLink } from '~/core/mail/templates/links';
import { requireAccess, type Access } from '~/core/permissions/access';
import {
  decimalPlaces,
  discountOf,
  printDiscount,
  formatDecimal,
  formatTrimmed,
  isZero,
  sum,
  toNumber,
  type Discount,
} from '~/core/pricing';
import { zOptionalText } from '~/core/registers/fields';
import { changeProjectExtraStatus, type ProjectExtraStatus } from '~/core/work-orders/close.service';
import { loadActive, WO_ENTITY, type WorkOrder } from '~/core/work-orders/work-order-read';
import { renderExtraWorkMail } from './extra-work.mail';
import { readProjectRows } from './project-rows';

/*
 * Extra work (ATA) approved by the customer through an e-mailed link (issue 18). A staff member
 * sends the link for a project order that is pending extra work; the customer opens it on the
 * tenant's host without signing in, sees the order's content and approves or declines with their
 * name. Only the SHA-256 of the 256-bit token is kept; a newer link for the same order supersedes
 * the older ones, so only the newest unanswered, unexpired link works. Every unusable token
 * (unknown, expired, superseded, answered, or an order no longer awaiting an answer) looks the
 * same to the visitor, and failed answers count against the visitor's address like failed sign-ins.
 */

/** Sending a link: the right to mark extra work, in a tenant with projects. */
export const EXTRA_WORK_LINK_ACCESS: Access = {
  permission: 'workorders:create_project_extra_work',
  module: 'projects',
};
/** Seeing the links sent for an order: anyone who may see the order, in a tenant with projects. */
export const EXTRA_WORK_LINKS_READ: Access = { permission: 'workorders:read', module: 'projects' };

/** How an answering link is named in the order's history. */
const VIA = 'extraWorkLink';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export type ExtraWorkLinkState = 'open' | 'answered' | 'expired' | 'superseded';

/** A sent link as staff see it (never its token). */
export interface ExtraWorkLink {
  id: string;
  email: string;
  sentAt: string;
  sentByName: string | null;
  expiresAt: string;
  state: ExtraWorkLinkState;
  answer: 'accepted' | 'declined' | null;
  answeredAt: string | null;
  answeredName: string | null;
}

/** What the customer sees on the link's page (and the mail shows): the order as it is now. */
export interface ExtraWorkView {
  company: string;
  currency: string;
  project: { number: number; title: string };
  workOrder: { number: string; title: string; description: string | null };
  articles: {
    title: string;
    description: string | null;
    unit: string | null;
    amount: string;
    price: string;
    /** The row's discount (a percentage, or an amount off each unit); null when none. */
    discount: Discount | null;
    total: string;
  }[];
  /** The order's work hours at the project's hourly price, as project invoicing bills them; null without hours. */
  labour: { hours: string; price: string; total: string } | null;
  /** Labour and articles, without VAT: what accepting the extra work adds to the project's invoicing. */
  total: string;
  time: { workMinutes: number; travelMinutes: number };
  expiresAt: string;
}

export type ExtraWorkPage = { state: 'open'; view: ExtraWorkView } | { state: 'gone'; company: string };
export type ExtraWorkAnswerResult =
  | { state: 'answered'; answer: 'accepted' | 'declined'; name: string; company: string }
  | { state: 'gone'; company: string };

type Row = Record<string, unknown>;

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v == null ? null : String(v));

function linkState(r: Row, now: Date): ExtraWorkLinkState {
  if (r.answer) return 'answered';
  if (r.superseded_at) return 'superseded';
  return new Date(r.expires_at as string).getTime() <= now.getTime() ? 'expired' : 'open';
}

function toLink(r: Row, now: Date): ExtraWorkLink {
  return {
    id: r.id as string,
    email: r.email as string,
    sentAt: iso(r.sent_at)!,
    sentByName: (r.sent_by_name as string | null) ?? null,
    expiresAt: iso(r.expires_at)!,
    state: linkState(r, now),
    answer: (r.answer as 'accepted' | 'declined' | null) ?? null,
    answeredAt: iso(r.answered_at),
    answeredName: (r.answered_name as string | null) ?? null,
  };
}

/** The order's project and ATA status, read with the order. */
async function orderProject(ctx: Ctx, workOrderId: string): Promise<Row> {
  const row: Row | undefined = await ctx
    .trx('work_orders as w')
    .leftJoin('projects as p', 'p.id', 'w.project_id')
    .where('w.id', workOrderId)
    .first(
      'w.project_id',
      'w.project_extra_status',
      'p.number as project_number',
      'p.title as project_title',
      'p.status as project_status',
    );
  if (!row) throw notFound();
  return row;
}

/**
 * The order's content as the customer is shown it: its labour and article rows valued as project
 * invoicing values them (project-rows.ts, so the mail, the page, the office panel and the invoicing
 * tab show one amount), the discounts, and the time so far.
 */
async function extraWorkView(ctx: Ctx, wo: WorkOrder, project: Row, expiresAt: Date): Promise<ExtraWorkView> {
  const rows = (await readProjectRows(ctx, [project.project_id as string])).filter((r) => r.workOrderId === wo.id);
  const time = (await ctx
    .trx('work_order_time')
    .where({ work_order_id: wo.id })
    .first(
      ctx.trx.raw('coalesce(sum(work_minutes), 0)::int as work'),
      ctx.trx.raw('coalesce(sum(travel_minutes), 0)::int as travel'),
    )) as Row | undefined;
  const labourRow = rows.find((r) => r.kind === 'workOrder');
  const articles = rows
    .filter((r) => r.kind === 'article')
    .map((r) => {
      const discount = discountOf(r.discountType, r.discountValue);
      return {
        title: r.title,
        description: r.description,
        unit: r.unit,
        amount: formatTrimmed(r.quantity, 3),
        price: r.price,
        discount: discount.type === 'NONE' ? null : discount,
        total: r.total,
      };
    });
  const labour =
    labourRow && !isZero(labourRow.total)
      ? { hours: labourRow.quantity, price: labourRow.price, total: labourRow.total }
      : null;
  return {
    company: ctx.tenant.displayName,
    currency: ctx.tenant.config.currency.symbol,
    project: { number: Number(project.project_number), title: project.project_title as string },
    workOrder: { number: wo.number, title: wo.title, description: wo.description },
    articles,
    labour,
    total: formatDecimal(sum([labour?.total ?? '0', ...articles.map((r) => r.total)])),
    time: { workMinutes: Number(time?.work ?? 0), travelMinutes: Number(time?.travel ?? 0) },
    expiresAt: expiresAt.toISOString(),
  };
}

/**
 * Whom the approval mail goes to by default: the order's contact, else the first contact of the
 * order's customer with an e-mail, else the customer's own e-mail. Never the invoice mailbox: an
 * approval is a question to a person, not a bill.
 */
export async function extraWorkRecipient(ctx: Ctx, wo: WorkOrder): Promise<string | null> {
  if (wo.contactEmail?.trim()) return wo.contactEmail.trim();
  if (!wo.customerId) return null;
  const contact = (await ctx
    .trx('customer_contacts')
    .where({ customer_id: wo.customerId })
    .whereRaw(`coalesce(trim(email), '') <> ''`)
    .orderBy([{ column: 'sort_order' }, { column: 'name' }])
    .first('email')) as Row | undefined;
  if (contact) return String(contact.email).trim();
  const customer = (await ctx.trx('customers').where({ id: wo.customerId }).first('email')) as Row | undefined;
  return typeof customer?.email === 'string' && customer.email.trim() ? customer.email.trim() : null;
}

export const ZSendExtraWorkLink = z.object({
  workOrderId: z.string({ error: 'ERROR_REQUIRED_FIELD' }).min(1, 'ERROR_REQUIRED_FIELD'),
  email: zEmail(),
  message: zOptionalText(2000),
  /** The host the staff member works on, for the link; only one of the tenant's own hosts is used. */
  hostname: z.string().max(255).optional(),
});
export type TSendExtraWorkLink = z.input<typeof ZSendExtraWorkLink>;

/** GET /wo/projectextra/link?workOrderId: the links sent for one work order. */
export const ZExtraWorkLinksQuery = z.object({ workOrderId: z.string({ error: 'ERROR_REQUIRED_FIELD' }) });

/**
 * `POST /wo/projectextra/link {workOrderId, email, message}`: mails the customer a link to approve
 * or decline the order's extra work. The order must belong to a project (409
 * WORK_ORDER_NOT_IN_PROJECT), the project be ongoing (409 PROJECT_CLOSED) and the order be extra
 * work awaiting an answer (409 WORK_ORDER_NOT_PENDING_EXTRA_WORK). Earlier unanswered links of the
 * order stop working. The mail leaves after commit, in the customer's invoice language.
 */
export async function sendExtraWorkLink(ctx: Ctx, raw: unknown): Promise<{ link: ExtraWorkLink }> {
  requireAccess(ctx.auth, EXTRA_WORK_LINK_ACCESS);
  const input = parseInput(ZSendExtraWorkLink, raw);
  const wo = await loadActive(ctx, input.workOrderId);
  // the order row locked: two links sent at once are ordered, the second supersedes the first
  await ctx.trx('work_orders').where({ id: wo.id }).forUpdate().first('id');
  const project = await orderProject(ctx, wo.id);
  if (!project.project_id) throw new AppError('WORK_ORDER_NOT_IN_PROJECT', 409);
  if (project.project_status !== 'ongoing') throw new AppError('PROJECT_CLOSED', 409);
  if (project.project_extra_status !== 'pending') throw new AppError('WORK_ORDER_NOT_PENDING_EXTRA_WORK', 409);

  const settings: Row | undefined = await ctx.trx('project_settings').first('extra_work_link_days');
  const days = Number(settings?.extra_work_link_days ?? 14);
  const expiresAt = new Date(ctx.now.getTime() + days * 86_400_000);
  const token = newToken();
  await ctx
    .trx('project_extra_work_links')
    .where({ work_order_id: wo.id })
    .whereNull('answer')
    .whereNull('superseded_at')
    .update({ superseded_at: ctx.now });
  const [row] = (await ctx
    .trx('project_extra_work_links')
    .insert({
      work_order_id: wo.id,
      token_hash: hashToken(token),
      email: input.email,
      expires_at: expiresAt,
      sent_user_id: ctx.auth.user.id,
      sent_at: ctx.now,
    })
    .returning('*')) as Row[];

  const customer: Row | undefined = wo.customerId
    ? await ctx.trx('customers').where({ id: wo.customerId }).first('invoice_language')
    : undefined;
  const lang = mailLang(ctx, customer?.invoice_language as string | null | undefined);
  const link = await tenantLink(ctx.trx, ctx.tenant, input.hostname, `/extra-work/${token}?lang=${keyFromLang(lang)}`);
  const view = await extraWorkView(ctx, wo, project, expiresAt);
  const config = ctx.tenant.config;
  const money = (v: string) => `${formatNumber(toNumber(v))} ${view.currency}`;
  const mail = renderExtraWorkMail(
    lang,
    {
      company: view.company,
      project: `${view.project.number} ${view.project.title}`,
      number: view.workOrder.number,
      title: view.workOrder.title,
      description: view.workOrder.description,
      articles: view.articles.map((a) => ({
        title: a.title,
        quantity: `${formatNumber(toNumber(a.amount), { decimals: decimalPlaces(a.amount) })}${a.unit ? ` ${a.unit}` : ''}`,
        price: money(a.price),
        discount: printDiscount(a.discount, { currency: view.currency, unit: a.unit }),
        total: money(a.total),
      })),
      labour: view.labour
        ? {
            quantity: `${formatNumber(toNumber(view.labour.hours))} h`,
            price: money(view.labour.price),
            total: money(view.labour.total),
          }
        : null,
      total: money(view.total),
      workMinutes: view.time.workMinutes,
      travelMinutes: view.time.travelMinutes,
      message: input.message,
      validUntil: formatDate(expiresAt, config.dateFormat, { timeZone: tenantTimeZone(config.country) }),
    },
    link,
  );
  await sendAfterCommit(ctx, { to: [input.email], ...mail, tenantId: ctx.tenant.id });
  await recordHistory(ctx, {
    entity: WO_ENTITY,
    entityId: wo.id,
    action: 'extrawork.link',
    data: { recipients: [input.email], expiresAt: expiresAt.toISOString() },
  });
  return { link: toLink({ ...row, sent_by_name: ctx.auth.user.fullName }, ctx.now) };
}

/**
 * `GET /wo/projectextra/link?workOrderId`: the approval links sent for an order, newest first
 * (e-mail, when sent and by whom, expiry, state and answer; never the token), and the order's
 * current ATA status.
 */
export async function listExtraWorkLinks(
  ctx: Ctx,
  raw: unknown,
): Promise<{
  links: ExtraWorkLink[];
  projectExtraStatus: ProjectExtraStatus | null;
  /** What the order's extra work comes to (labour and articles, without VAT), as the customer is shown it. */
  amount: string | null;
  /** Whom a new approval mail goes to unless changed (extraWorkRecipient). */
  defaultEmail: string | null;
}> {
  requireAccess(ctx.auth, EXTRA_WORK_LINKS_READ);
  const { workOrderId } = parseInput(ZExtraWorkLinksQuery, raw);
  const wo = await loadActive(ctx, workOrderId);
  const [rows, project] = await Promise.all([
    ctx
      .trx('project_extra_work_links as l')
      .leftJoin('users as u', 'u.id', 'l.sent_user_id')
      .where('l.work_order_id', wo.id)
      .orderBy([
        { column: 'l.sent_at', order: 'desc' },
        { column: 'l.id', order: 'desc' },
      ])
      .limit(100)
      .select('l.*', 'u.name as sent_by_name') as Promise<Row[]>,
    orderProject(ctx, wo.id),
  ]);
  const amount = project.project_id ? (await extraWorkView(ctx, wo, project, ctx.now)).total : null;
  return {
    links: rows.map((r) => toLink(r, ctx.now)),
    projectExtraStatus: (project.project_extra_status as ProjectExtraStatus | null) ?? null,
    amount,
    defaultEmail: await extraWorkRecipient(ctx, wo),
  };
}

/**
 * The link a token names if it still works, with its order: unanswered, not superseded, not
 * expired, the order not deleted and still pending extra work of an ongoing project. Else null.
 * `lock` locks the link's row for an answer.
 */
async function usableLink(
  ctx: Ctx,
  token: unknown,
  lock: boolean,
): Promise<{ link: Row; wo: WorkOrder; project: Row } | null> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return null;
  const q = ctx.trx('project_extra_work_links').where({ token_hash: hashToken(token) });
  const link = (await (lock ? q.forUpdate() : q).first()) as Row | undefined;
  if (!link || linkState(link, ctx.now) !== 'open') return null;
  // a deleted order (recycle bin) is 404 to loadActive: the link no longer works
  const wo = await loadActive(ctx, link.work_order_id).catch((e: unknown) => {
    if (isAppError(e) && e.status === 404) return null;
    throw e;
  });
  if (!wo) return null;
  const project = await orderProject(ctx, wo.id);
  if (!project.project_id || project.project_status !== 'ongoing' || project.project_extra_status !== 'pending')
    return null;
  return { link, wo, project };
}

/** The public page's loader: the order to approve, or a page that says only that the link does not work. */
export async function openExtraWorkLink(ctx: Ctx, token: unknown): Promise<ExtraWorkPage> {
  const found = await usableLink(ctx, token, false);
  if (!found) return { state: 'gone', company: ctx.tenant.displayName };
  return {
    state: 'open',
    view: await extraWorkView(ctx, found.wo, found.project, new Date(found.link.expires_at as string)),
  };
}

export const ZAnswerExtraWork = z.object({
  token: z.string().max(200).optional(),
  answer: z.enum(['accepted', 'declined'], { error: 'ERROR_INVALID_VALUE' }),
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
});

const throttleKey = (ip: string | null | undefined) => [`extrawork:ip:${ip ?? 'unknown'}`];

/**
 * The customer's answer on the public page: sets the order's ATA status by the same rule as
 * `POST /wo/projectextra`, without a staff user (the history names the person who answered), and
 * writes the answer, its time, name and address on the link, which then stops working. A token
 * that does not work answers `gone` and counts as a failed attempt for the address; past the
 * sign-in throttle's limit the address is refused with 429 IP_BLOCKED_TRY_AGAIN_LATER for a while.
 */
export async function answerExtraWorkLink(
  ctx: Ctx,
  raw: unknown,
  meta: { ip: string | null },
): Promise<ExtraWorkAnswerResult> {
  const input = parseInput(ZAnswerExtraWork, raw);
  const throttle = throttleFor(ctx.trx, ctx.tenant.id);
  const keys = throttleKey(meta.ip);
  if (await throttle.isBlocked(keys, ctx.now)) throw new AppError('IP_BLOCKED_TRY_AGAIN_LATER', 429);
  const found = await usableLink(ctx, input.token, true);
  if (!found) {
    await throttle.recordFailure(keys, ctx.now);
    return { state: 'gone', company: ctx.tenant.displayName };
  }
  await changeProjectExtraStatus(ctx, found.wo.id, input.answer, { name: input.name, via: VIA });
  await ctx
    .trx('project_extra_work_links')
    .where({ id: found.link.id as string })
    .update({ answer: input.answer, answered_at: ctx.now, answered_name: input.name, answered_ip: meta.ip });
  return { state: 'answered', answer: input.answer, name: input.name, company: ctx.tenant.displayName };
}

/**
 * The project screen's panel names the project in its address: an order of another project (or
 * none, or another tenant's) is 404 there, like a missing one.
 */
export async function requireProjectOrder(ctx: Ctx, projectId: unknown, workOrderId: unknown): Promise<void> {
  requireAccess(ctx.auth, EXTRA_WORK_LINKS_READ);
  if (!isUuid(projectId) || !isUuid(workOrderId)) throw notFound();
  const wo = await loadActive(ctx, workOrderId);
  if (wo.projectId !== projectId) throw notFound();
}

/**
 * Extra work answered by the customer signed in to its zone (issue 35, decision 063): the same
 * order content and the same rule as the e-mailed link, without a link. The caller has already
 * found the order in the customer's own scope. Answers null when the order awaits no answer (not
 * extra work, already answered, its project closed, the order deleted).
 */
export async function pendingExtraWorkView(ctx: Ctx, workOrderId: string): Promise<ExtraWorkView | null> {
  const found = await pendingOrder(ctx, workOrderId);
  return found ? extraWorkView(ctx, found.wo, found.project, ctx.now) : null;
}

async function pendingOrder(ctx: Ctx, workOrderId: string): Promise<{ wo: WorkOrder; project: Row } | null> {
  const wo = await loadActive(ctx, workOrderId).catch((e: unknown) => {
    if (isAppError(e) && e.status === 404) return null;
    throw e;
  });
  if (!wo) return null;
  const project = await orderProject(ctx, wo.id);
  if (!project.project_id || project.project_status !== 'ongoing' || project.project_extra_status !== 'pending')
    return null;
  return { wo, project };
}

/**
 * The zone's answer: the order's ATA status set by the link's rule (`changeProjectExtraStatus`,
 * the history naming who answered and `via`); the order locked first so two answers are ordered.
 * False when the order no longer awaits an answer.
 */
export async function answerPendingExtraWork(
  ctx: Ctx,
  workOrderId: string,
  answer: 'accepted' | 'declined',
  by: { name: string; via: string },
): Promise<boolean> {
  await ctx.trx('work_orders').where({ id: workOrderId }).forUpdate().first('id');
  const found = await pendingOrder(ctx, workOrderId);
  if (!found) return false;
  await changeProjectExtraStatus(ctx, found.wo.id, answer, by);
  return true;
}
