/**
 * Project invoicing arithmetic (issue 18; spec section 4 "Project", "project invoice"), pure and in
 * whole öre so that sums are exact. A project has a fixed contract sum invoiced in parts (a
 * percentage, or the rest) and a backlog: its articles and work orders that are not included in
 * the contract sum and not yet invoiced. Extra work (ÄTA) counts only once accepted. "Invoiced" is
 * what finalized invoices carry; "left to invoice" is the contract's rest plus the backlog.
 */

export type RowStatus = 'open' | 'included' | 'invoiced';
export type ExtraWorkStatus = 'pending' | 'accepted' | 'declined';

/** A project article or work order as invoicing sees it. */
export interface BacklogRow {
  id: string;
  /** öre */
  amount: number;
  status: RowStatus;
  /** Set on extra work: only accepted extra work is invoiced. */
  extraWork?: ExtraWorkStatus | null;
}

export interface ProjectInvoice {
  status: 'draft' | 'finalized' | 'delivered';
  /** The part of the contract sum it carries, öre. */
  contractAmount: number;
  /** The backlog rows it carries, öre. */
  backlogAmount: number;
}

/** A percentage (0–100, two decimals) of an amount in öre, rounded half away from zero to whole öre. */
export function percentOf(amount: number, percent: number): number {
  const exact = (amount * Math.round(percent * 100)) / 10_000;
  return Math.sign(exact) * Math.round(Math.abs(exact));
}

/** Whether a row waits to be invoiced: open, and not extra work that is pending or declined. */
export function isBacklog(row: BacklogRow): boolean {
  return row.status === 'open' && (!row.extraWork || row.extraWork === 'accepted');
}

export function backlogOf(rows: readonly BacklogRow[]): number {
  return rows.filter(isBacklog).reduce((s, r) => s + r.amount, 0);
}

const counted = (i: ProjectInvoice) => i.status !== 'draft';

/** What the project's invoices come to, and what is left. Drafts are planned, not invoiced. */
export function projectTotals(contractSum: number, invoices: readonly ProjectInvoice[], rows: readonly BacklogRow[]) {
  const contractInvoiced = invoices.filter(counted).reduce((s, i) => s + i.contractAmount, 0);
  const backlogInvoiced = invoices.filter(counted).reduce((s, i) => s + i.backlogAmount, 0);
  const contractPlanned = invoices.reduce((s, i) => s + i.contractAmount, 0);
  const backlog = backlogOf(rows);
  return {
    invoiced: contractInvoiced + backlogInvoiced,
    contractLeft: contractSum - contractInvoiced,
    /** The contract sum not yet on any invoice, drafts included: what a new part may take. */
    contractUnplanned: contractSum - contractPlanned,
    backlog,
    leftToInvoice: contractSum - contractInvoiced + backlog,
  };
}

export type PartError = 'PROJECT_INVOICE_EXCEEDS_CONTRACT' | 'PROJECT_INVOICE_EMPTY' | 'ERROR_INVALID_VALUE';

/**
 * A new part invoice: a percentage of the contract sum, or `rest` (what no invoice carries yet),
 * and/or the backlog rows. A part may not take more than the contract has left; the rest makes the
 * parts add up to the contract sum exactly, whatever the rounding of the parts before.
 */
export function newPart(input: {
  contractSum: number;
  invoices: readonly ProjectInvoice[];
  rows: readonly BacklogRow[];
  percent?: number | 'rest' | null;
  withBacklog: boolean;
}): { ok: true; contractAmount: number; backlogAmount: number; rowIds: string[] } | { ok: false; error: PartError } {
  const { contractUnplanned } = projectTotals(input.contractSum, input.invoices, input.rows);
  let contractAmount = 0;
  if (input.percent === 'rest') contractAmount = contractUnplanned;
  else if (input.percent !== undefined && input.percent !== null) {
    if (!(input.percent > 0 && input.percent <= 100)) return { ok: false, error: 'ERROR_INVALID_VALUE' };
    contractAmount = percentOf(input.contractSum, input.percent);
    if (contractAmount > contractUnplanned) return { ok: false, error: 'PROJECT_INVOICE_EXCEEDS_CONTRACT' };
  }
  const rows = input.withBacklog ? input.rows.filter(isBacklog) : [];
  const backlogAmount = rows.reduce((s, r) => s + r.amount, 0);
  if (contractAmount === 0 && rows.length === 0) return { ok: false, error: 'PROJECT_INVOICE_EMPTY' };
  return { ok: true, contractAmount, backlogAmount, rowIds: rows.map((r) => r.id) };
}

/** Marking a row included in the contract sum: refused once it is invoiced or on an invoice (spec section 8). */
export function canMarkIncluded(row: BacklogRow, onInvoice: boolean): boolean {
  return row.status !== 'invoiced' && !onInvoice;
}
