import { describe, expect, it } from 'vitest';
import { isAppError } from '~/core/errors/app-error';
import { parseSettingsPatch, statusRuleErrors, tagRuleErrors, workTypeRuleErrors } from './settings.rules';

const ID = '0b6f0d2c-6a3e-4b7e-9c1a-1d2e3f4a5b6c';
const s = (name: string, isDefault = false, isClosing = false, id: string | null = null) => ({
  id,
  name,
  isDefault,
  isClosing,
});
const GOOD = [s('Ny', true), s('Pågående'), s('Klar', false, true)];

/** The field errors a patch is refused with, or null when it passes. */
function errorsOf(raw: unknown): Record<string, string[]> | null {
  try {
    parseSettingsPatch(raw);
    return null;
  } catch (e) {
    if (!isAppError(e)) throw e;
    expect(e.status).toBe(400);
    expect(e.code).toBe('VALIDATION_FAILED');
    return e.details?.fields ?? {};
  }
}

describe('[wo-settings] statuses', () => {
  it('accepts one default, one closing, distinct names', () => {
    expect(statusRuleErrors(GOOD)).toEqual({});
    expect(errorsOf({ statuses: GOOD })).toBeNull();
  });
  it('names have at least 2 characters after trimming', () => {
    expect(errorsOf({ statuses: [...GOOD, s(' A ')] })).toEqual({ 'statuses.3.name': ['ERROR_MIN_LENGTH_2'] });
    expect(errorsOf({ statuses: [...GOOD, s(' Ab ')] })).toBeNull();
  });
  it('names are unique regardless of case, the later one is marked', () => {
    expect(statusRuleErrors([...GOOD, s('klar')])).toEqual({ 'statuses.3.name': ['ERROR_DUPLICATE_NAME'] });
    expect(statusRuleErrors([...GOOD, s('Klart')])).toEqual({});
  });
  it('needs exactly one default: none marks the list, two mark both rows', () => {
    expect(statusRuleErrors([s('Ny'), s('Klar', false, true)])).toEqual({ statuses: ['ERROR_EXACTLY_ONE_DEFAULT'] });
    expect(statusRuleErrors([s('Ny', true), s('Väntar', true), s('Klar', false, true)])).toEqual({
      'statuses.0.isDefault': ['ERROR_EXACTLY_ONE_DEFAULT'],
      'statuses.1.isDefault': ['ERROR_EXACTLY_ONE_DEFAULT'],
    });
  });
  it('needs at least one closing status', () => {
    expect(statusRuleErrors([s('Ny', true), s('Klar')])).toEqual({ statuses: ['ERROR_AT_LEAST_ONE_CLOSING'] });
  });
  it('a status cannot be both default and closing', () => {
    expect(statusRuleErrors([s('Ny', true, true), s('Klar', false, true)])).toEqual({
      'statuses.0.isClosing': ['ERROR_CLOSING_AND_DEFAULT_DIFFER'],
    });
  });
  it('an empty list breaks both set rules', () => {
    expect(errorsOf({ statuses: [] })).toEqual({
      statuses: ['ERROR_EXACTLY_ONE_DEFAULT', 'ERROR_AT_LEAST_ONE_CLOSING'],
    });
  });
  it('reports row errors and set errors together', () => {
    expect(errorsOf({ statuses: [s('N', true), s('Väntar', true)] })).toEqual({
      'statuses.0.name': ['ERROR_MIN_LENGTH_2'],
      'statuses.0.isDefault': ['ERROR_EXACTLY_ONE_DEFAULT'],
      'statuses.1.isDefault': ['ERROR_EXACTLY_ONE_DEFAULT'],
      statuses: ['ERROR_AT_LEAST_ONE_CLOSING'],
    });
  });
  it('ids are uuids and appear once', () => {
    expect(errorsOf({ statuses: [s('Ny', true, false, 'x'), s('Klar', false, true)] })).toEqual({
      'statuses.0.id': ['ERROR_INVALID_VALUE'],
    });
    expect(errorsOf({ statuses: [s('Ny', true, false, ID), s('Klar', false, true, ID)] })).toEqual({
      'statuses.1.id': ['ERROR_INVALID_VALUE'],
    });
  });
});

describe('[wo-settings] work types', () => {
  const t = (name: string, isDefault = false) => ({ id: null, name, isDefault });
  it('accepts 2 to 50 characters, unique, one default', () => {
    expect(workTypeRuleErrors([t('Service', true), t('Installation')])).toEqual({});
    expect(errorsOf({ workTypes: [t('Se', true), t('x'.repeat(50))] })).toBeNull();
  });
  it('refuses 1 and 51 characters', () => {
    expect(errorsOf({ workTypes: [t('S', true), t('x'.repeat(51))] })).toEqual({
      'workTypes.0.name': ['ERROR_LENGTH_2_50'],
      'workTypes.1.name': ['ERROR_LENGTH_2_50'],
    });
  });
  it('refuses duplicate names and anything but one default', () => {
    expect(workTypeRuleErrors([t('Service', true), t('SERVICE')])).toEqual({
      'workTypes.1.name': ['ERROR_DUPLICATE_NAME'],
    });
    expect(workTypeRuleErrors([t('Service'), t('Installation')])).toEqual({ workTypes: ['ERROR_EXACTLY_ONE_DEFAULT'] });
    expect(workTypeRuleErrors([t('Service', true), t('Installation', true)])).toEqual({
      'workTypes.0.isDefault': ['ERROR_EXACTLY_ONE_DEFAULT'],
      'workTypes.1.isDefault': ['ERROR_EXACTLY_ONE_DEFAULT'],
    });
  });
});

describe('[wo-settings] tags', () => {
  const g = (name: string, color = '#ff0000') => ({ id: null, name, color });
  it('accepts letters and digits of any alphabet, 2 or more, and lower-cases the colour', () => {
    expect(parseSettingsPatch({ tags: [g('Brådskande', '#AABBCC'), g('Larm24'), g('Ключ')] }).tags).toEqual([
      g('Brådskande', '#aabbcc'),
      g('Larm24'),
      g('Ключ'),
    ]);
    expect(parseSettingsPatch({ tags: [] }).tags).toEqual([]);
  });
  it('refuses one character, spaces and punctuation', () => {
    expect(errorsOf({ tags: [g('A'), g('Två ord'), g('a-b'), g('ok')] })).toEqual({
      'tags.0.name': ['ERROR_TAG_INVALID'],
      'tags.1.name': ['ERROR_TAG_INVALID'],
      'tags.2.name': ['ERROR_TAG_INVALID'],
    });
  });
  it('refuses duplicates regardless of case', () => {
    expect(tagRuleErrors([g('Larm'), g('LARM')])).toEqual({ 'tags.1.name': ['ERROR_DUPLICATE_NAME'] });
  });
  it('needs a #rrggbb colour', () => {
    expect(errorsOf({ tags: [g('Larm', 'red'), g('Dörr', '#abc'), g('Grind', '#12345g')] })).toEqual({
      'tags.0.color': ['ERROR_INVALID_COLOR'],
      'tags.1.color': ['ERROR_INVALID_COLOR'],
      'tags.2.color': ['ERROR_INVALID_COLOR'],
    });
  });
});

describe('[wo-settings] options', () => {
  it('takes known required fields in a fixed order, a mode, a prefix and a positive next number', () => {
    expect(
      parseSettingsPatch({
        requiredFields: ['phone', 'tag'],
        mode: 'advanced',
        numberPrefix: ' AO- ',
        nextNumber: '1042',
      }),
    ).toEqual({ requiredFields: ['tag', 'phone'], mode: 'advanced', numberPrefix: 'AO-', nextNumber: 1042 });
  });
  it('refuses unknown fields, modes, prefixes with spaces, and numbers below 1', () => {
    expect(errorsOf({ requiredFields: ['tag', 'colour'], mode: 'simple', numberPrefix: 'A O', nextNumber: 0 })).toEqual(
      {
        'requiredFields.1': ['ERROR_INVALID_VALUE'],
        mode: ['ERROR_INVALID_VALUE'],
        numberPrefix: ['ERROR_INVALID_VALUE'],
        nextNumber: ['ERROR_INVALID_VALUE'],
      },
    );
    expect(errorsOf({ numberPrefix: 'ABCDEFGHIJK' })).toEqual({ numberPrefix: ['ERROR_MAX_LENGTH'] });
    expect(errorsOf({ nextNumber: 1.5 })).toEqual({ nextNumber: ['ERROR_INVALID_VALUE'] });
  });
  it('refuses keys it does not know', () => {
    expect(errorsOf({ colour: 'red' })).toEqual({ _: ['ERROR_INVALID_VALUE'] });
  });
});
