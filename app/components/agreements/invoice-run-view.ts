import type { AgreementRun } from '~/core/agreements/agreement-runs';

/** How many skipped agreements and warnings the report lists; the rest are counted. */
export const RUN_REPORT_LINES = 100;

/** How often the page asks how an invoicing run is going. */
export const RUN_POLL_MS = 1_000;

/**
 * An invoicing run as the page shows it: the bar while it goes, the report once it is over, its
 * lines cut to RUN_REPORT_LINES (a run over thousands of objects can skip thousands).
 */
export interface InvoiceRunView {
  id: string;
  status: AgreementRun['status'];
  untilDate: string;
  total: number;
  done: number;
  created: number;
  /** Service work orders the run made (periods due by the same day). */
  workOrders: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  startedBy: string | null;
  skipped: AgreementRun['skipped'];
  skippedCount: number;
  warnings: AgreementRun['warnings'];
  warningCount: number;
  /** The invoices and service orders it made, to open (once it is over). */
  made: AgreementRun['made'];
}

export function invoiceRunView(run: AgreementRun | null): InvoiceRunView | null {
  if (!run) return null;
  const { skipped, warnings, ...rest } = run;
  return {
    ...rest,
    skipped: skipped.slice(0, RUN_REPORT_LINES),
    skippedCount: skipped.length,
    warnings: warnings.slice(0, RUN_REPORT_LINES),
    warningCount: warnings.length,
  };
}

export const isRunGoing = (run: Pick<InvoiceRunView, 'status'> | null | undefined) =>
  run?.status === 'queued' || run?.status === 'running';

const STAGE = { queued: 0, running: 1, done: 2, failed: 2 } as const;

/**
 * Of two answers about runs, the one to show: a newer run wins; of the same run, the one further
 * on (a poll can answer after a reload that already saw more).
 */
export function laterRun(shown: InvoiceRunView | null, next: InvoiceRunView | null): InvoiceRunView | null {
  if (!next) return shown;
  if (!shown || shown.id !== next.id) return !shown || next.createdAt >= shown.createdAt ? next : shown;
  if (STAGE[next.status] !== STAGE[shown.status]) return STAGE[next.status] > STAGE[shown.status] ? next : shown;
  return next.done >= shown.done ? next : shown;
}
