import { describe, expect, it } from 'vitest';
import { dateTimeFormat } from './intl-cache';
import { formatDateTime } from './number-format';

describe('[i18n] kept date formatters', () => {
  it('gives the same formatter for the same locale and options, another for other ones', () => {
    const a = dateTimeFormat('sv-SE', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Stockholm' });
    expect(dateTimeFormat('sv-SE', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Stockholm' })).toBe(a);
    expect(dateTimeFormat('sv-SE', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Tallinn' })).not.toBe(a);
    expect(dateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Stockholm' })).not.toBe(a);
  });

  it('a kept formatter still writes each moment in its own zone', () => {
    const moment = '2026-03-05T13:07:00Z';
    expect(formatDateTime(moment, { dateFormat: 'YYYY-MM-DD', country: 'SE' })).toBe('2026-03-05 14:07');
    expect(formatDateTime(moment, { dateFormat: 'YYYY-MM-DD', country: 'EE' })).toBe('2026-03-05 15:07');
    expect(formatDateTime(moment, { dateFormat: 'YYYY-MM-DD', country: 'SE' })).toBe('2026-03-05 14:07');
  });
});
