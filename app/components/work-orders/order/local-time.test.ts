import { describe, expect, it } from 'vitest';
import { isoToLocal, localToIso } from './local-time';

describe('[work orders] wall-clock times in the tenant zone', () => {
  it('converts both ways in winter and summer time', () => {
    expect(localToIso('2026-12-01T08:00', 'Europe/Stockholm')).toBe('2026-12-01T07:00:00.000Z');
    expect(localToIso('2026-07-01T08:00', 'Europe/Stockholm')).toBe('2026-07-01T06:00:00.000Z');
    expect(isoToLocal('2026-12-01T07:00:00.000Z', 'Europe/Stockholm')).toBe('2026-12-01T08:00');
    expect(isoToLocal('2026-07-01T06:00:00Z', 'Europe/Tallinn')).toBe('2026-07-01T09:00');
  });
  it('blank is null, junk goes through for the server to refuse', () => {
    expect(localToIso('  ', 'Europe/Stockholm')).toBeNull();
    expect(localToIso('igår', 'Europe/Stockholm')).toBe('igår');
    expect(isoToLocal(null, 'Europe/Stockholm')).toBe('');
  });
});
