import type { Trx } from '~/core/db/with-tenant';
import { containsPattern } from '~/core/registers/list-query';

/*
 * Matching an arrived supplier invoice (issue 33 item 2; decision 054): the supplier by its Peppol
 * participant id or organisation number, the work order or project by the references the invoice
 * carries (the buyer's order reference BT-13, the buyer reference BT-10, the project reference BT-11
 * — where wholesalers put the work-order number the technician gave when ordering). What cannot be
 * matched waits for a person, who gets suggestions.
 */

type Row = Record<string, unknown>;

export interface Seller {
  name: string | null;
  organizationNumber: string | null;
  peppolId: string | null;
  vatNumber: string | null;
}

/** An organisation number as compared: letters and digits only ("556732-1707" = "5567321707"). */
export const normalizeOrgNumber = (value: string) => value.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

/**
 * A Swedish VAT number is SE + the organisation number + 01: the organisation number it names, so a
 * seller that states only its VAT number still finds its supplier.
 */
export function orgNumberFromVat(vat: string | null): string | null {
  const m = vat ? /^SE(\d{10})01$/.exec(normalizeOrgNumber(vat)) : null;
  return m ? m[1]! : null;
}

/**
 * The supplier the seller is: the one with its Peppol id, else the one with its organisation number
 * (stated, or read from a Swedish VAT number). Two suppliers with the same number match neither: a
 * person chooses.
 */
export async function matchSupplier(trx: Trx, seller: Seller): Promise<string | null> {
  if (seller.peppolId) {
    const rows: Row[] = await trx('suppliers')
      .whereRaw('lower(peppol_id) = lower(?)', [seller.peppolId])
      .whereNotNull('peppol_id')
      .limit(2)
      .select('id');
    if (rows.length === 1) return rows[0]!.id as string;
  }
  const org = seller.organizationNumber ?? orgNumberFromVat(seller.vatNumber);
  if (org) {
    const rows: Row[] = await trx('suppliers')
      .whereNotNull('organization_number')
      .whereRaw(`upper(regexp_replace(organization_number, '[^0-9A-Za-z]', '', 'g')) = ?`, [normalizeOrgNumber(org)])
      .limit(2)
      .select('id');
    if (rows.length === 1) return rows[0]!.id as string;
  }
  return null;
}

/** What makes two arrivals one supplier's: its id once matched, else the seller's identity as stated. */
export function supplierKey(supplierId: string | null, seller: Seller): string {
  if (supplierId) return supplierId;
  if (seller.peppolId) return `peppol:${seller.peppolId.toLowerCase()}`;
  if (seller.organizationNumber) return `org:${normalizeOrgNumber(seller.organizationNumber)}`;
  return `name:${(seller.name ?? '').trim().toLowerCase()}`;
}

export interface Target {
  workOrderId: string | null;
  projectId: string | null;
}

/** A project reference as people write it: "P-12", "p12", "12". */
const PROJECT_NUMBER = /^(?:p-?\s*)?(\d{1,9})$/i;

/**
 * The work order (by its number) or project (by its number) one of the references names, in the
 * order given; a work order on a project brings the project too. Deleted orders never match.
 */
export async function matchReferences(trx: Trx, references: readonly (string | null)[]): Promise<Target> {
  const refs = [...new Set(references.map((r) => r?.trim()).filter((r): r is string => Boolean(r)))];
  for (const ref of refs) {
    const wo: Row | undefined = await trx('work_orders')
      .where({ number: ref })
      .whereNull('deleted_at')
      .first('id', 'project_id');
    if (wo) return { workOrderId: wo.id as string, projectId: (wo.project_id as string) ?? null };
  }
  for (const ref of refs) {
    const m = PROJECT_NUMBER.exec(ref);
    if (!m) continue;
    const project: Row | undefined = await trx('projects')
      .where({ number: Number(m[1]) })
      .first('id');
    if (project) return { workOrderId: null, projectId: project.id as string };
  }
  return { workOrderId: null, projectId: null };
}

/**
 * Who approves the content: the project's responsible person; for an order outside a project, the
 * order's assignee when it has one (the first by name when several), else whoever created it.
 */
export async function responsibleFor(trx: Trx, target: Target): Promise<string | null> {
  if (target.projectId) {
    const p: Row | undefined = await trx('projects').where({ id: target.projectId }).first('responsible_user_id');
    if (p?.responsible_user_id) return p.responsible_user_id as string;
  }
  if (target.workOrderId) {
    const a: Row | undefined = await trx('work_order_assignees as a')
      .join('users as u', 'u.id', 'a.user_id')
      .where('a.work_order_id', target.workOrderId)
      .orderBy(['u.name', 'u.id'])
      .first('a.user_id');
    if (a) return a.user_id as string;
    const wo: Row | undefined = await trx('work_orders').where({ id: target.workOrderId }).first('create_user_id');
    return (wo?.create_user_id as string) ?? null;
  }
  return null;
}

export interface MatchSuggestions {
  suppliers: { id: string; number: string; title: string }[];
  workOrders: { id: string; number: string; title: string }[];
  projects: { id: string; number: number; title: string }[];
}

/** How many of each a person is offered. */
export const SUGGESTION_LIMIT = 5;

/**
 * For an invoice nothing matched: suppliers whose name shares a word with the seller's, and work
 * orders and projects whose number or title holds one of the references (or, when none does, the
 * newest open orders and ongoing projects). Trigram-indexed LIKEs, a bounded number of statements.
 */
export async function suggestMatches(
  trx: Trx,
  input: { seller: Seller; references: readonly (string | null)[]; needSupplier: boolean; needTarget: boolean },
): Promise<MatchSuggestions> {
  const out: MatchSuggestions = { suppliers: [], workOrders: [], projects: [] };
  if (input.needSupplier) {
    const words = (input.seller.name ?? '')
      .split(/[\s,.]+/)
      .filter((w) => w.length >= 3 && !/^(ab|aps|as|oy|ltd|inc|gmbh|hb|kb)$/i.test(w))
      .slice(0, 3);
    if (words.length)
      out.suppliers = (await trx('suppliers')
        .where((q) => {
          for (const w of words) q.orWhereRaw('search_text like ?', [containsPattern(w)]);
        })
        .where('status', 'active')
        .orderByRaw('lower(title), id')
        .limit(SUGGESTION_LIMIT)
        .select('id', 'number', 'title')) as MatchSuggestions['suppliers'];
  }
  if (input.needTarget) {
    const refs = input.references.map((r) => r?.trim()).filter((r): r is string => Boolean(r && r.length >= 2));
    // orders and projects that name a reference; when none does, the newest open ones
    const orders = async (byRefs: boolean) => {
      const q = trx('work_orders').whereNull('deleted_at').whereNull('closed_at');
      if (byRefs)
        q.where((w) => {
          for (const r of refs.slice(0, 3)) w.orWhereRaw('search_text like ?', [containsPattern(r)]);
        });
      return (await q
        .orderBy([
          { column: 'intake_ts', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(SUGGESTION_LIMIT)
        .select('id', 'number', 'title')) as MatchSuggestions['workOrders'];
    };
    const projects = async (byRefs: boolean) => {
      const q = trx('projects').where('status', 'ongoing');
      if (byRefs)
        q.where((w) => {
          for (const r of refs.slice(0, 3)) w.orWhereRaw('search_text like ?', [containsPattern(r)]);
        });
      return (await q
        .orderBy([
          { column: 'number', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(SUGGESTION_LIMIT)
        .select('id', 'number', 'title')) as MatchSuggestions['projects'];
    };
    out.workOrders = refs.length ? await orders(true) : [];
    if (!out.workOrders.length) out.workOrders = await orders(false);
    out.projects = refs.length ? await projects(true) : [];
    if (!out.projects.length) out.projects = await projects(false);
  }
  return out;
}

/**
 * The open work order (not closed, locked or deleted) a supplier's reference names: by its number;
 * with `byTitle`, else the one open order with exactly that title (case aside) — a person re-handling
 * a supplier order types either (decision 055). Null when none, or when several share the title.
 */
export async function openWorkOrderFor(
  trx: Trx,
  reference: string,
  { byTitle = false } = {},
): Promise<{ id: string; number: string; title: string } | null> {
  const ref = reference.trim();
  if (!ref) return null;
  const open = () => trx('work_orders').whereNull('deleted_at').whereNull('closed_at').where('is_locked', false);
  const byNumber: Row | undefined = await open().where({ number: ref }).first('id', 'number', 'title');
  if (byNumber) return byNumber as { id: string; number: string; title: string };
  if (!byTitle || ref.length < 2) return null;
  const named: Row[] = await open()
    .whereRaw('search_text like ?', [containsPattern(ref)])
    .whereRaw('lower(title) = lower(?)', [ref])
    .limit(2)
    .select('id', 'number', 'title');
  return named.length === 1 ? (named[0] as { id: string; number: string; title: string }) : null;
}
