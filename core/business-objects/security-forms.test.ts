import { describe, expect, it } from 'vitest';
import { formFields, SECURITY_FORM_TYPES, SECURITY_FORMS, securityFormSchema } from './security-forms';

describe('[objects] security-system forms', () => {
  it('have unique field keys per form, and choices for every select', () => {
    for (const type of SECURITY_FORM_TYPES) {
      const keys = formFields(type).map((f) => f.key);
      expect(new Set(keys).size, type).toBe(keys.length);
      for (const f of formFields(type)) if (f.kind === 'select') expect(f.options?.length, f.key).toBeGreaterThan(1);
      expect(SECURITY_FORMS[type].length).toBeGreaterThan(1);
    }
  });

  it.each([
    ['empty values are left out', { controlPanel: '', numberOfZones: '', notes: '  ' }, {}],
    [
      'numbers and dates are parsed',
      { numberOfZones: '12', installationDate: '2024-03-05' },
      { numberOfZones: 12, installationDate: '2024-03-05' },
    ],
    ['a select keeps its value', { certificationClass: 'class3' }, { certificationClass: 'class3' }],
  ])('burglary: %s', (_name, input, output) => {
    expect(securityFormSchema('burglary').parse(input)).toEqual(output);
  });

  it.each([
    ['an unknown field', { nope: 'x' }],
    ['a negative number', { numberOfZones: '-1' }],
    ['a choice not on the list', { certificationClass: 'class9' }],
    ['a date that is not a date', { installationDate: '05.03.2024' }],
    ['text too long', { controlPanel: 'x'.repeat(201) }],
  ])('burglary refuses %s', (_name, input) => {
    expect(securityFormSchema('burglary').safeParse(input).success).toBe(false);
  });

  it('reads checkbox values as booleans', () => {
    expect(securityFormSchema('camera').parse({ remoteAccess: 'on', signage: 'false' })).toEqual({
      remoteAccess: true,
      signage: false,
    });
  });
});
