import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { zFormBool, zOptionalIdOrUnset, zOptionalText, zOptionalTextOrUnset, zOptionalUuid } from './fields';

const ID = '0b6f2c1e-4a5d-4f0e-9c3b-2a1d0e9f8c7b';
const issue = (r: z.ZodSafeParseResult<unknown>) => (r.success ? null : r.error.issues[0]!.message);

describe('[registers] shared zod fields', () => {
  it('zOptionalText trims, makes blank and missing null, and checks the length after trimming', () => {
    const s = zOptionalText(5);
    expect(s.parse('  Lund ')).toBe('Lund');
    expect(s.parse('   ')).toBeNull();
    expect(s.parse(null)).toBeNull();
    expect(s.parse(undefined)).toBeNull();
    expect(s.parse(' 12345 ')).toBe('12345');
    expect(issue(s.safeParse('123456'))).toBe('ERROR_MAX_LENGTH');
    expect(issue(s.safeParse(42))).toBe('ERROR_INVALID_VALUE');
  });

  it('zOptionalTextOrUnset is the same except that a left-out field stays undefined', () => {
    const s = zOptionalTextOrUnset(5);
    expect(s.parse(' Lund ')).toBe('Lund');
    expect(s.parse('  ')).toBeNull();
    expect(s.parse(null)).toBeNull();
    expect(s.parse(undefined)).toBeUndefined();
    expect(issue(s.safeParse('123456'))).toBe('ERROR_MAX_LENGTH');
  });

  it('zOptionalUuid: blank is null, anything else must be a uuid', () => {
    expect(zOptionalUuid().parse('')).toBeNull();
    expect(zOptionalUuid().parse(undefined)).toBeNull();
    expect(zOptionalUuid().parse(ID)).toBe(ID);
    expect(issue(zOptionalUuid().safeParse('nope'))).toBe('ERROR_INVALID_VALUE');
  });

  it('zOptionalIdOrUnset: trimmed, blank clears (null), left out stays undefined', () => {
    expect(zOptionalIdOrUnset().parse(` ${ID} `)).toBe(ID);
    expect(zOptionalIdOrUnset().parse('')).toBeNull();
    expect(zOptionalIdOrUnset().parse(undefined)).toBeUndefined();
    expect(issue(zOptionalIdOrUnset().safeParse('nope'))).toBe('ERROR_INVALID_VALUE');
  });

  it('zFormBool reads checkboxes and JSON booleans', () => {
    for (const v of ['on', 'true', '1', true]) expect(zFormBool().parse(v)).toBe(true);
    for (const v of ['false', '0', '', false]) expect(zFormBool().parse(v)).toBe(false);
    expect(issue(zFormBool().safeParse('maybe'))).toBe('ERROR_INVALID_VALUE');
  });
});
