import { z } from 'zod';
import type { Ctx } from '~/core/context';
import type { AfterCommitWork } from '~/core/db/with-tenant';
import type { DocumentFile } from '~/core/documents/file';
import type { ProposalDocumentModel } from '~/core/documents/proposal-document';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid, parseInput, zRequiredString } from '~/core/errors/validation';
import { tenantToday } from '~/core/calendar/tenant-today';
import { recordHistory } from '~/core/history/history';
import { mailLang } from '~/core/auth/recovery.service';
import { sendAfterCommit } from '~/core/mail/templates/deliver';
import { tenantLink } from '~/core/mail/templates/links';
import { renderMail } from '~/core/mail/templates/render';
import type { Permission } from '~/core/permissions/permissions';
import { buildProposalDocumentModel, proposalPdf } from '~/core/proposals/proposal-documents.service';
import { closeProposal, proposalSettings, PROPOSAL_ENTITY } from '~/core/proposals/proposal.service';
import { zOptionalText } from '~/core/registers/fields';
import { actingForZone } from './zone-acting';
import { ANSWER_WORDS, proposalAnsweredMail } from './zone-notify.mail';
import { requireZone, ZONE_PAGE_SIZE, ZZonePage, type ZonePage } from './zone-view.service';

/**
 * Proposals in the customer's zone (issue 35 item 3, decision 063): the proposals the office sent
 * to the customer (e-mailed: `sent_at`), read as printed, and answered online with a printed name
 * and a signature. Every query names the session's customer; another customer's proposal, or one
 * never sent, is 404. Answering runs the office's own `closeProposal` (accept = the plain accept
 * into a sales order; decline), so the zone adds no rule of its own to a proposal's life cycle.
 */

/** What the customer is shown of a proposal's state. */
export type ZoneProposalStatus = 'open' | 'expired' | 'accepted' | 'declined';

export interface ZoneProposalSummary {
  id: string;
  number: number;
  title: string;
  status: ZoneProposalStatus;
  sentAt: string;
  validTo: string | null;
  totalPrice: string;
}

export interface ZoneProposalAnswer {
  answer: 'accepted' | 'declined';
  name: string;
  reason: string | null;
  answeredAt: string;
}

export interface ZoneProposal extends ZoneProposalSummary {
  answer: ZoneProposalAnswer | null;
  /** The proposal as its PDF prints it (never purchase prices). */
  document: Pick<
    ProposalDocumentModel,
    'currency' | 'rows' | 'total' | 'monthlyTotal' | 'showMonthly' | 'vat' | 'vatTotal' | 'totalInclVat'
  > &
    Pick<
      ProposalDocumentModel['document'],
      'intro' | 'description' | 'inclusions' | 'exceptions' | 'generalTerms' | 'paymentTerms' | 'ourReference'
    >;
}

type Row = Record<string, unknown>;

const READ: Permission[] = ['proposal:read'];
/** The plain accept of the office's proposal screen needs these (spec section 6). */
const ANSWER: Permission[] = ['proposal:read', 'proposal:edit', 'salesorder:edit'];

const iso = (v: unknown) => (v == null ? null : v instanceof Date ? v.toISOString() : String(v));

/** The customer's sent proposals, scoped in SQL; `lock` for an answer. */
function sentProposals(ctx: Ctx, customerId: string) {
  return ctx
    .trx('proposals as p')
    .where('p.customer_id', customerId)
    .whereNotNull('p.sent_at')
    .select(
      'p.id',
      'p.sequence_number',
      'p.title',
      'p.status',
      'p.sent_at',
      'p.total_price',
      'p.create_user_id',
      ctx.trx.raw(`to_char(p.valid_to, 'YYYY-MM-DD') as valid_to`),
    );
}

function zoneStatus(r: Row, today: string, validToOn: boolean): ZoneProposalStatus {
  if (r.status === 'accepted' || r.status === 'accepted-wo') return 'accepted';
  if (r.status === 'declined') return 'declined';
  return validToOn && r.valid_to && String(r.valid_to) < today ? 'expired' : 'open';
}

function summaryOut(r: Row, today: string, validToOn: boolean): ZoneProposalSummary {
  return {
    id: r.id as string,
    number: Number(r.sequence_number),
    title: (r.title as string) || `#${r.sequence_number}`,
    status: zoneStatus(r, today, validToOn),
    sentAt: iso(r.sent_at)!,
    validTo: validToOn ? ((r.valid_to as string | null) ?? null) : null,
    totalPrice: String(r.total_price),
  };
}

/** `GET /zone/proposals`: the proposals sent to the customer, the latest sent first. */
export async function listZoneProposals(ctx: Ctx, raw: unknown): Promise<ZonePage<ZoneProposalSummary>> {
  const zone = requireZone(ctx);
  const { page } = parseInput(ZZonePage, raw);
  const rows = (await sentProposals(ctx, zone.customerId)
    .orderBy([
      { column: 'p.sent_at', order: 'desc' },
      { column: 'p.id', order: 'asc' },
    ])
    .limit(ZONE_PAGE_SIZE + 1)
    .offset((page - 1) * ZONE_PAGE_SIZE)) as Row[];
  const validToOn = (await proposalSettings(ctx)).validTo;
  const today = tenantToday(ctx);
  const items = rows.slice(0, ZONE_PAGE_SIZE).map((r) => summaryOut(r, today, validToOn));
  return { items, page, hasMore: rows.length > ZONE_PAGE_SIZE };
}

async function findSent(ctx: Ctx, id: unknown, lock = false): Promise<Row> {
  const zone = requireZone(ctx);
  if (!isUuid(id)) throw notFound();
  const q = sentProposals(ctx, zone.customerId).where('p.id', id);
  const row = (await (lock ? q.forUpdate() : q).first()) as Row | undefined;
  if (!row) throw notFound();
  return row;
}

async function answerOf(ctx: Ctx, proposalId: string): Promise<ZoneProposalAnswer | null> {
  const a = (await ctx.trx('proposal_zone_answers').where({ proposal_id: proposalId }).first()) as Row | undefined;
  if (!a) return null;
  return {
    answer: a.answer as 'accepted' | 'declined',
    name: a.signed_name as string,
    reason: (a.reason as string | null) ?? null,
    answeredAt: iso(a.answered_at)!,
  };
}

/** `GET /zone/proposals/{id}`: one sent proposal as printed, its state and the customer's answer. */
export async function getZoneProposal(ctx: Ctx, id: unknown): Promise<{ proposal: ZoneProposal }> {
  const row = await findSent(ctx, id);
  const office = await actingForZone(ctx, (row.create_user_id as string | null) ?? null, READ);
  const model = await buildProposalDocumentModel(office, row.id);
  const validToOn = (await proposalSettings(ctx)).validTo;
  const d = model.document;
  return {
    proposal: {
      ...summaryOut(row, tenantToday(ctx), validToOn),
      answer: await answerOf(ctx, row.id as string),
      document: {
        currency: model.currency,
        rows: model.rows,
        total: model.total,
        monthlyTotal: model.monthlyTotal,
        showMonthly: model.showMonthly,
        vat: model.vat,
        vatTotal: model.vatTotal,
        totalInclVat: model.totalInclVat,
        intro: d.intro,
        description: d.description,
        inclusions: d.inclusions,
        exceptions: d.exceptions,
        generalTerms: d.generalTerms,
        paymentTerms: d.paymentTerms,
        ourReference: d.ourReference,
      },
    },
  };
}

/** `GET /zone/proposals/{id}/pdf`: the sent proposal's PDF, as the office prints it (after commit). */
export async function zoneProposalPdf(ctx: Ctx, id: unknown): Promise<AfterCommitWork<DocumentFile>> {
  const row = await findSent(ctx, id);
  const office = await actingForZone(ctx, (row.create_user_id as string | null) ?? null, READ);
  return proposalPdf(office, { proposal: row.id });
}

/** A PNG drawn on the signature pad, as work-order signatures keep it. */
const zSignatureImage = (error: string) =>
  z
    .string({ error })
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(400_000, 'ERROR_SIGNATURE_TOO_LARGE')
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/=]+$/, 'ERROR_INVALID_VALUE');

/** Accepting: the printed name and the drawn signature, both required. */
export const ZZoneAcceptProposal = z.object({
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  signature: zSignatureImage('ERROR_REQUIRED_FIELD'),
});
/** Declining: the printed name; a signature and a reason if the customer gives them. */
export const ZZoneDeclineProposal = z.object({
  name: zRequiredString().max(200, 'ERROR_MAX_LENGTH'),
  signature: z
    .preprocess((v) => (v === '' ? null : v), zSignatureImage('ERROR_INVALID_VALUE').nullish())
    .transform((v) => v ?? null),
  reason: zOptionalText(2000),
});

/**
 * The proposal locked in the customer's scope, still open: an answered one is 409
 * PROPOSAL_NOT_ACTIVE, one past its valid-to date 409 PROPOSAL_EXPIRED. The 404 comes before the
 * input is read, so another customer's id says nothing about what the body lacked.
 */
async function openForAnswer(ctx: Ctx, id: unknown): Promise<Row> {
  const row = await findSent(ctx, id, true);
  const status = zoneStatus(row, tenantToday(ctx), (await proposalSettings(ctx)).validTo);
  if (status === 'expired') throw new AppError('PROPOSAL_EXPIRED', 409);
  if (status !== 'open') throw new AppError('PROPOSAL_NOT_ACTIVE', 409);
  return row;
}

/**
 * `POST /zone/proposals/{id}/accept {name, signature}`: the customer accepts. The office's plain
 * accept runs (a sales order with the proposal's rows; its rules and errors, e.g. a customer
 * without a customer number), as the proposal's seller; the proposal's close is then the
 * customer's (no office user closed it), the answer with name, signature and time is kept, the
 * history names the zone user, and the seller is mailed.
 */
export async function acceptZoneProposal(ctx: Ctx, id: unknown, raw: unknown): Promise<{ proposal: ZoneProposal }> {
  const row = await openForAnswer(ctx, id);
  const input = parseInput(ZZoneAcceptProposal, raw);
  const office = await actingForZone(ctx, (row.create_user_id as string | null) ?? null, ANSWER);
  await closeProposal(office, { proposalId: row.id, status: 'accepted' });
  await recordAnswer(ctx, row, { answer: 'accepted', name: input.name, signature: input.signature, reason: null });
  return getZoneProposal(ctx, row.id);
}

/** `POST /zone/proposals/{id}/decline {name, signature?, reason?}`: the customer declines, as the office's decline. */
export async function declineZoneProposal(ctx: Ctx, id: unknown, raw: unknown): Promise<{ proposal: ZoneProposal }> {
  const row = await openForAnswer(ctx, id);
  const input = parseInput(ZZoneDeclineProposal, raw);
  const office = await actingForZone(ctx, (row.create_user_id as string | null) ?? null, ANSWER);
  await closeProposal(office, { proposalId: row.id, status: 'declined' });
  await recordAnswer(ctx, row, { answer: 'declined', name: input.name, signature: input.signature, reason: input.reason });
  return getZoneProposal(ctx, row.id);
}

async function recordAnswer(
  ctx: Ctx,
  row: Row,
  a: { answer: 'accepted' | 'declined'; name: string; signature: string | null; reason: string | null },
): Promise<void> {
  const zone = requireZone(ctx);
  const proposalId = row.id as string;
  // the customer closed it, not an office user
  await ctx.trx('proposals').where({ id: proposalId }).update({ close_user_id: null });
  const answer = {
    proposal_id: proposalId,
    answer: a.answer,
    zone_user_id: zone.user.id,
    zone_user_email: zone.user.email,
    signed_name: a.name,
    signature: a.signature,
    reason: a.reason,
    answered_at: ctx.now,
  };
  await ctx.trx('proposal_zone_answers').insert(answer).onConflict('proposal_id').merge();
  await recordHistory(ctx, {
    entity: PROPOSAL_ENTITY,
    entityId: proposalId,
    action: a.answer === 'accepted' ? 'zone.accept' : 'zone.decline',
    data: {
      zoneUserId: zone.user.id,
      email: zone.user.email,
      name: a.name,
      signed: Boolean(a.signature),
      ...(a.reason ? { reason: a.reason } : {}),
    },
  });
  await mailSeller(ctx, row, a);
}

/** The office is told: a mail to the proposal's seller (its creator), in the seller's language. */
async function mailSeller(
  ctx: Ctx,
  row: Row,
  a: { answer: 'accepted' | 'declined'; name: string; reason: string | null },
): Promise<void> {
  const zone = requireZone(ctx);
  if (!row.create_user_id) return;
  const seller = (await ctx
    .trx('users')
    .where({ id: row.create_user_id as string })
    .first('email', 'name', 'language')) as { email: string | null; name: string; language: string | null } | undefined;
  if (!seller?.email) return;
  const lang = mailLang(ctx, seller.language);
  const words = ANSWER_WORDS[lang];
  const link = await tenantLink(ctx.trx, ctx.tenant, null, `/proposals/${row.id as string}`);
  const mail = renderMail(
    proposalAnsweredMail,
    lang,
    {
      user: seller.name,
      name: a.name,
      email: zone.user.email,
      customer: zone.customerName,
      number: String(row.sequence_number),
      title: (row.title as string) || `#${row.sequence_number}`,
      answer: words[a.answer],
      reason: a.reason ? words.reason.replace('{{reason}}', a.reason) : '',
    },
    link,
  );
  await sendAfterCommit(ctx, { to: [seller.email], ...mail, tenantId: ctx.tenant.id });
}
