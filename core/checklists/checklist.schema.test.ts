import { describe, expect, it } from 'vitest';
import { isAppError } from '~/core/errors/app-error';
import { parseChecklistValues, parseItemValue } from './checklist.schema';
import type { ChecklistItem } from './checklist.types';

const item = (type: ChecklistItem['type'], required = false): ChecklistItem => ({
  id: `id-${type}`,
  label: type,
  type,
  required,
});

describe('[checklists] one value against its item', () => {
  it.each([
    ['check', true, true],
    ['check', false, false],
    ['check', 'true', true],
    ['check', 'on', true],
    ['check', null, false],
    ['number', 12, 12],
    ['number', '12,5', 12.5],
    ['number', ' -3.25 ', -3.25],
    ['number', '', null],
    ['text', '  hej  ', 'hej'],
    ['text', 42, '42'],
    ['text', '   ', null],
  ] as const)('%s %j → %j', (type, raw, value) => {
    expect(parseItemValue(item(type, true), raw)).toEqual({ ok: true, value });
  });

  it.each([
    ['number', 'tolv', 'ERROR_NOT_A_NUMBER'],
    ['number', '1e5', 'ERROR_NOT_A_NUMBER'],
    ['number', Number.NaN, 'ERROR_NOT_A_NUMBER'],
    ['number', true, 'ERROR_NOT_A_NUMBER'],
    ['number', 1e13, 'ERROR_NOT_A_NUMBER'],
    ['check', 'kanske', 'ERROR_INVALID_VALUE'],
    ['check', 1, 'ERROR_INVALID_VALUE'],
    ['text', { a: 1 }, 'ERROR_INVALID_VALUE'],
    ['text', 'x'.repeat(2001), 'ERROR_MAX_LENGTH'],
  ] as const)('%s %j is refused with %s', (type, raw, error) => {
    expect(parseItemValue(item(type), raw)).toEqual({ ok: false, error });
  });
});

describe('[checklists] a checklist’s values', () => {
  const items = [item('check', true), item('number', true), item('text')];
  it('keeps what suits its item, drops empty texts and numbers, keeps an unticked box', () => {
    expect(parseChecklistValues(items, { 'id-check': false, 'id-number': '', 'id-text': 'ok' })).toEqual({
      'id-check': false,
      'id-text': 'ok',
    });
    expect(parseChecklistValues(items, {})).toEqual({});
  });
  it('refuses unknown item ids and bad values, naming each', () => {
    try {
      parseChecklistValues(items, { other: 1, 'id-number': 'x' });
      expect.unreachable();
    } catch (e) {
      if (!isAppError(e)) throw e;
      expect(e.status).toBe(400);
      expect(e.details?.fields).toEqual({
        'values.other': ['ERROR_UNKNOWN_CHECKLIST_ITEM'],
        'values.id-number': ['ERROR_NOT_A_NUMBER'],
      });
    }
  });
});
