import { describe, expect, it } from 'vitest';
import { AppError } from '~/core/errors/app-error';
import {
  assertClosable,
  assertEditable,
  assertReopenable,
  isOverdue,
  nextChange,
  type ChangeFacts,
  type ChangeState,
} from './deviation-rules';

const codeOf = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (e) {
    return e instanceof AppError ? e.code : 'not an AppError';
  }
};

const none: ChangeFacts = { changeNeeded: false, changeState: null };
const at = (s: ChangeState): ChangeFacts => ({ changeNeeded: true, changeState: s });

describe('the change-state machine', () => {
  // [from, wantNeeded, wantState, expected state or error code]
  const table: [ChangeFacts, boolean | undefined, ChangeState | undefined, ChangeState | null | string][] = [
    [none, undefined, undefined, null],
    [none, true, undefined, 'started'],
    [none, true, 'started', 'started'],
    [none, true, 'defined', 'DEVIATION_CHANGE_STATE_INVALID'],
    [none, true, 'approved', 'DEVIATION_CHANGE_STATE_INVALID'],
    [none, undefined, 'started', 'DEVIATION_CHANGE_NOT_NEEDED'],
    [none, false, 'defined', 'DEVIATION_CHANGE_NOT_NEEDED'],
    [at('started'), undefined, 'defined', 'defined'],
    [at('started'), undefined, 'needs_work', 'DEVIATION_CHANGE_STATE_INVALID'],
    [at('started'), undefined, 'approved', 'DEVIATION_CHANGE_STATE_INVALID'],
    [at('started'), false, undefined, null],
    [at('defined'), undefined, 'approved', 'approved'],
    [at('defined'), undefined, 'needs_work', 'needs_work'],
    [at('defined'), undefined, 'started', 'DEVIATION_CHANGE_STATE_INVALID'],
    [at('defined'), undefined, 'defined', 'defined'],
    [at('needs_work'), undefined, 'defined', 'defined'],
    [at('needs_work'), undefined, 'approved', 'DEVIATION_CHANGE_STATE_INVALID'],
    [at('needs_work'), false, undefined, null],
    [at('approved'), undefined, 'needs_work', 'DEVIATION_CHANGE_STATE_INVALID'],
    [at('approved'), undefined, 'started', 'DEVIATION_CHANGE_STATE_INVALID'],
    [at('approved'), undefined, 'approved', 'approved'],
    [at('approved'), false, undefined, 'DEVIATION_CHANGE_APPROVED'],
    [at('approved'), true, undefined, 'approved'],
  ];
  it.each(table)('from %o, needed %s, asked %s → %s', (from, needed, state, expected) => {
    const isCode = typeof expected === 'string' && /^[A-Z_]+$/.test(expected);
    if (isCode) {
      expect(codeOf(() => nextChange(from, needed, state))).toBe(expected);
    } else {
      const out = nextChange(from, needed, state);
      expect(out.changeState).toBe(expected);
      expect(out.changeNeeded).toBe(expected !== null);
    }
  });
});

describe('close and reopen', () => {
  // [status, change, comment, expected error or null]
  const close: ['open' | 'closed', ChangeFacts, string, string | null][] = [
    ['open', none, 'fixed', null],
    ['open', none, '  ', 'VALIDATION_FAILED'],
    ['closed', none, 'again', 'DEVIATION_ALREADY_CLOSED'],
    ['open', at('started'), 'fixed', 'DEVIATION_CHANGE_NOT_APPROVED'],
    ['open', at('defined'), 'fixed', 'DEVIATION_CHANGE_NOT_APPROVED'],
    ['open', at('needs_work'), 'fixed', 'DEVIATION_CHANGE_NOT_APPROVED'],
    ['open', at('approved'), 'fixed', null],
  ];
  it.each(close)('closing a %s deviation with change %o and comment %j → %s', (status, change, comment, expected) => {
    expect(codeOf(() => assertClosable({ status, ...change }, comment))).toBe(expected);
  });

  it.each([
    ['closed', null],
    ['open', 'DEVIATION_NOT_CLOSED'],
  ] as const)('reopening a %s deviation → %s', (status, expected) => {
    expect(codeOf(() => assertReopenable(status))).toBe(expected);
  });

  it.each([
    ['open', null],
    ['closed', 'DEVIATION_CLOSED'],
  ] as const)('editing a %s deviation → %s', (status, expected) => {
    expect(codeOf(() => assertEditable(status))).toBe(expected);
  });
});

describe('overdue', () => {
  it.each([
    ['open', '2026-03-09', '2026-03-10', true],
    ['open', '2026-03-10', '2026-03-10', false],
    ['open', null, '2026-03-10', false],
    ['closed', '2026-03-01', '2026-03-10', false],
  ] as const)('%s due %s on %s → %s', (status, dueDate, today, expected) => {
    expect(isOverdue({ status, dueDate }, today)).toBe(expected);
  });
});
