import { AppError } from '~/core/errors/app-error';

/** Spec section 4: a deviation is open or closed. */
export const DEVIATION_STATUSES = ['open', 'closed'] as const;
export type DeviationStatus = (typeof DEVIATION_STATUSES)[number];

/** Spec section 4: the change states, in their usual order. */
export const CHANGE_STATES = ['started', 'defined', 'needs_work', 'approved'] as const;
export type ChangeState = (typeof CHANGE_STATES)[number];

/**
 * Where a change may go from each state. A change is started, then defined; a defined change is
 * approved or sent back (needs work), which is defined again. Approved is final: the approval is
 * a record of who accepted it and when, so it is not undone by a later edit.
 */
const NEXT: Record<ChangeState, readonly ChangeState[]> = {
  started: ['defined'],
  defined: ['needs_work', 'approved'],
  needs_work: ['defined'],
  approved: [],
};

export interface ChangeFacts {
  changeNeeded: boolean;
  changeState: ChangeState | null;
}

/**
 * The change part of a deviation after a request, or an AppError saying why not. `wantNeeded` and
 * `wantState` are what the request asks (undefined: unchanged). Marking a change needed starts it;
 * unmarking clears it, except once approved.
 */
export function nextChange(
  current: ChangeFacts,
  wantNeeded: boolean | undefined,
  wantState: ChangeState | undefined,
): ChangeFacts {
  const needed = wantNeeded ?? current.changeNeeded;
  if (!needed) {
    if (current.changeState === 'approved') throw new AppError('DEVIATION_CHANGE_APPROVED', 409);
    if (wantState) throw new AppError('DEVIATION_CHANGE_NOT_NEEDED', 409);
    return { changeNeeded: false, changeState: null };
  }
  const from = current.changeNeeded ? current.changeState : null;
  if (wantState === undefined || wantState === from) return { changeNeeded: true, changeState: from ?? 'started' };
  if (from === null) {
    if (wantState !== 'started') throw new AppError('DEVIATION_CHANGE_STATE_INVALID', 409);
    return { changeNeeded: true, changeState: 'started' };
  }
  if (!NEXT[from].includes(wantState)) throw new AppError('DEVIATION_CHANGE_STATE_INVALID', 409);
  return { changeNeeded: true, changeState: wantState };
}

/** Edits (fields, relations, the change) need the deviation open. */
export function assertEditable(status: DeviationStatus): void {
  if (status === 'closed') throw new AppError('DEVIATION_CLOSED', 409);
}

/**
 * Closing needs an open deviation, a comment, and, when a change is needed, an approved one (an
 * unapproved change is unfinished work).
 */
export function assertClosable(d: { status: DeviationStatus } & ChangeFacts, comment: string): void {
  if (d.status === 'closed') throw new AppError('DEVIATION_ALREADY_CLOSED', 409);
  if (!comment.trim()) throw new AppError('VALIDATION_FAILED', 400, { fields: { comment: ['ERROR_REQUIRED_FIELD'] } });
  if (d.changeNeeded && d.changeState !== 'approved') throw new AppError('DEVIATION_CHANGE_NOT_APPROVED', 409);
}

/** Reopening needs a closed deviation. */
export function assertReopenable(status: DeviationStatus): void {
  if (status !== 'closed') throw new AppError('DEVIATION_NOT_CLOSED', 409);
}

/** Overdue: open with a due date before today (the day after the due date is the first overdue day). */
export function isOverdue(d: { status: DeviationStatus; dueDate: string | null }, today: string): boolean {
  return d.status === 'open' && d.dueDate !== null && d.dueDate < today;
}
