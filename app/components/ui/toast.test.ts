import { describe, expect, it } from 'vitest';
import { TOAST_DURATION_MS, toastDuration, type ToastKind } from './toast';

describe('toastDuration', () => {
  it.each([
    // spec section 9: error, warning, info vanish after 5 s; success after 3 s
    ['success', 3_000],
    ['error', 5_000],
    ['warning', 5_000],
    ['info', 5_000],
  ] as const satisfies ReadonlyArray<readonly [ToastKind, number]>)('%s → %i ms', (kind, ms) => {
    expect(toastDuration(kind)).toBe(ms);
    expect(TOAST_DURATION_MS[kind]).toBe(ms);
  });

  it('has a duration for every kind and no other', () => {
    expect(Object.keys(TOAST_DURATION_MS).sort()).toEqual(['error', 'info', 'success', 'warning']);
  });
});
