import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber, tenantTimeZone, type DateFormat } from './number-format';

describe('formatNumber', () => {
  it.each([
    // [value, decimals (undefined = default 2), expected]
    [1234567.891, undefined, '1 234 567,89'],
    [0, undefined, '0,00'],
    [1, undefined, '1,00'],
    [999, undefined, '999,00'],
    [1000, undefined, '1 000,00'],
    [12345.6, undefined, '12 345,60'],
    [100000, undefined, '100 000,00'],
    [1000000, undefined, '1 000 000,00'],
    [-1234.5, undefined, '-1 234,50'],
    [-0.5, undefined, '-0,50'],
    [-0.001, undefined, '0,00'], // rounds to zero: no minus sign
    [-0, undefined, '0,00'],
    [1.005, undefined, '1,01'], // half away from zero on the decimal value
    [-1.005, undefined, '-1,01'],
    [2.675, undefined, '2,68'],
    [0.125, undefined, '0,13'],
    [999.995, undefined, '1 000,00'],
    [1234567.891, 0, '1 234 568'],
    [1234.5, 1, '1 234,5'],
    [0.1 + 0.2, 3, '0,300'],
    [1e20, undefined, '100 000 000 000 000 000 000,00'],
    [123456789012345.67, undefined, '123 456 789 012 345,67'],
    [1e21, 0, '1 000 000 000 000 000 000 000'],
    [1e-7, undefined, '0,00'],
    [Number.NaN, undefined, ''],
    [Number.POSITIVE_INFINITY, undefined, ''],
  ] as const)('%d with %s decimals → "%s"', (value, decimals, expected) => {
    const result = decimals === undefined ? formatNumber(value) : formatNumber(value, { decimals });
    expect(result).toBe(expected);
  });

  it('uses a normal space, not a non-breaking one', () => {
    expect(formatNumber(1234)).toBe('1\u0020234,00');
    expect(formatNumber(1234)).not.toMatch(/[\u00a0\u202f]/);
  });
});

describe('formatDate', () => {
  it.each([
    // [input, format, expected]
    ['2024-03-05', 'YYYY-MM-DD', '2024-03-05'],
    ['2024-03-05', 'DD.MM.YYYY', '05.03.2024'],
    ['2024-03-05', 'MM/DD/YYYY', '03/05/2024'],
    ['2024-02-29', 'DD.MM.YYYY', '29.02.2024'],
    ['0999-12-31', 'YYYY-MM-DD', '0999-12-31'],
    [' 2026-12-31 ', 'DD.MM.YYYY', '31.12.2026'],
    ['2023-02-29', 'YYYY-MM-DD', ''], // not a real day
    ['2024-13-01', 'YYYY-MM-DD', ''],
    ['not a date', 'YYYY-MM-DD', ''],
    ['', 'DD.MM.YYYY', ''],
  ] as const)('%j as %s → "%s"', (input, format: DateFormat, expected) => {
    expect(formatDate(input, format)).toBe(expected);
  });

  it.each([
    // [instant, zone, format, expected]: the calendar day depends on the zone
    ['2024-12-31T23:30:00Z', 'UTC', 'YYYY-MM-DD', '2024-12-31'],
    ['2024-12-31T23:30:00Z', 'Europe/Stockholm', 'YYYY-MM-DD', '2025-01-01'],
    ['2024-12-31T23:30:00Z', 'Europe/Stockholm', 'DD.MM.YYYY', '01.01.2025'],
    ['2024-06-01T00:30:00+03:00', 'Europe/Riga', 'MM/DD/YYYY', '06/01/2024'],
    ['2024-06-01T00:30:00+03:00', 'UTC', 'MM/DD/YYYY', '05/31/2024'],
  ] as const)('%s in %s as %s → "%s"', (instant, timeZone, format: DateFormat, expected) => {
    expect(formatDate(instant, format, { timeZone })).toBe(expected);
    expect(formatDate(new Date(instant), format, { timeZone })).toBe(expected);
  });

  it('gives an empty string for an invalid Date', () => {
    expect(formatDate(new Date('nope'), 'YYYY-MM-DD')).toBe('');
  });

  it('leaves a plain date alone whatever the zone', () => {
    expect(formatDate('2024-01-01', 'DD.MM.YYYY', { timeZone: 'Pacific/Kiritimati' })).toBe('01.01.2024');
  });
});

describe('formatDateTime', () => {
  it("writes the moment in the tenant's date format and its country's zone", () => {
    expect(formatDateTime('2026-03-05T13:07:00Z', { dateFormat: 'YYYY-MM-DD', country: 'SE' })).toBe(
      '2026-03-05 14:07',
    );
    expect(formatDateTime('2026-03-05T13:07:00Z', { dateFormat: 'DD.MM.YYYY', country: 'EE' })).toBe(
      '05.03.2026 15:07',
    );
    expect(formatDateTime('2026-03-05T13:07:00Z', { dateFormat: 'MM/DD/YYYY', country: 'AU' })).toBe(
      '03/06/2026 00:07',
    );
  });

  it('falls back to Stockholm for a country without a zone', () => {
    expect(tenantTimeZone('XX')).toBe('Europe/Stockholm');
  });

  it('shows a Latvian tenant its own clock, as the server stores its times', () => {
    expect(tenantTimeZone('LV')).toBe('Europe/Riga');
    expect(formatDateTime('2026-03-05T13:07:00Z', { dateFormat: 'YYYY-MM-DD', country: 'LV' })).toBe(
      '2026-03-05 15:07',
    );
  });
});
