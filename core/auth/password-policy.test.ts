import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { COMMON_PASSWORDS_FILE, isCommonPassword, passwordProblem, zNewPassword } from './password-policy';

describe('[auth] password policy', () => {
  it.each([
    ['', 'ERROR_REQUIRED_FIELD'],
    ['short', 'ERROR_PASSWORD_MIN_LENGTH'],
    ['7chars!', 'ERROR_PASSWORD_MIN_LENGTH'],
    ['åäöåäöå', 'ERROR_PASSWORD_MIN_LENGTH'],
    ['tre små grisar', null],
    ['8 chars!', null],
    ['a'.repeat(128), null],
    ['a'.repeat(129), 'ERROR_MAX_LENGTH'],
    ['password', 'PASSWORD_TOO_COMMON'],
    ['PassWord', 'PASSWORD_TOO_COMMON'],
    [' 12345678 ', 'PASSWORD_TOO_COMMON'],
    ['iloveyou', 'PASSWORD_TOO_COMMON'],
    ['lösenord', 'PASSWORD_TOO_COMMON'],
    ['correct-horse-battery', null],
    ['ordo-demo-2026', null],
    // no composition rules: lower case letters alone are fine when long and uncommon
    ['granitbergsvagen', null],
  ])('%j → %s', (password, problem) => {
    expect(passwordProblem(password)).toBe(problem);
  });

  it('counts characters, not UTF-16 units: eight emoji are eight characters', () => {
    expect(passwordProblem('🔑🔒🚪🔐🧱🏠🌲🌊')).toBeNull();
    expect(passwordProblem('🔑🔒🚪🔐🧱🏠🌲')).toBe('ERROR_PASSWORD_MIN_LENGTH');
  });

  it('ships a list of thousands of common passwords, all of a length the policy would otherwise allow', () => {
    const list = fs.readFileSync(COMMON_PASSWORDS_FILE, 'utf8').split('\n').filter(Boolean);
    expect(list.length).toBeGreaterThan(5_000);
    for (const p of list.slice(0, 500)) expect(isCommonPassword(p.toUpperCase())).toBe(true);
    expect(list.every((p) => [...p].length >= 8 && [...p].length <= 128)).toBe(true);
  });

  it('the zod schema answers the spec message key of the first rule broken', () => {
    const result = (v: unknown) => {
      const r = zNewPassword().safeParse(v);
      return r.success ? null : r.error.issues.map((i) => i.message);
    };
    expect(result(undefined)).toEqual(['ERROR_REQUIRED_FIELD']);
    expect(result('abc')).toEqual(['ERROR_PASSWORD_MIN_LENGTH']);
    expect(result('Football')).toEqual(['PASSWORD_TOO_COMMON']);
    expect(result('a sound passphrase')).toBeNull();
  });
});
