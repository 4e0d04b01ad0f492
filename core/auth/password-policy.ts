import { z } from 'zod';
import { COMMON_PASSWORDS } from './common-passwords';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password';

/**
 * The password policy (NIST SP 800-63B): length 8 to 128 characters and not a well-known password.
 * No composition rules: they make passwords harder to remember, not to guess.
 */
export type PasswordProblem =
  'ERROR_REQUIRED_FIELD' | 'ERROR_PASSWORD_MIN_LENGTH' | 'ERROR_MAX_LENGTH' | 'PASSWORD_TOO_COMMON';

let common: ReadonlySet<string> | undefined;

/** Built on first use (about 11,600 entries), then shared by every request. */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    COMMON_PASSWORDS.split('\n')
      .map((p) => p.trim().toLowerCase())
      .filter(Boolean),
  );
  return common;
}

/** Case-insensitive; surrounding spaces do not turn a common password into a new one. */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.normalize('NFC').trim().toLowerCase());
}

/** Length in characters as a person counts them (code points), not UTF-16 units. */
function characters(password: string): number {
  return [...password].length;
}

/** The first rule a password breaks, as a spec message key, or null when it is acceptable. */
export function passwordProblem(password: string): PasswordProblem | null {
  const n = characters(password);
  if (n === 0) return 'ERROR_REQUIRED_FIELD';
  if (n < PASSWORD_MIN_LENGTH) return 'ERROR_PASSWORD_MIN_LENGTH';
  if (n > PASSWORD_MAX_LENGTH) return 'ERROR_MAX_LENGTH';
  if (isCommonPassword(password)) return 'PASSWORD_TOO_COMMON';
  return null;
}

/**
 * A new password under the policy, for every schema that sets one (registration, recovery, the
 * one-time sign-in link, a user changing theirs). One message per field: the first rule broken.
 */
export const zNewPassword = () =>
  z.string({ error: 'ERROR_REQUIRED_FIELD' }).check((ctx) => {
    const problem = passwordProblem(ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
  });
