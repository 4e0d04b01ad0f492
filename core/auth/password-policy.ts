import fs from 'node:fs';
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password';

/**
 * The password policy (NIST SP 800-63B): length 8 to 128 characters and not a well-known password.
 * No composition rules: they make passwords harder to remember, not to guess.
 */
export type PasswordProblem =
  'ERROR_REQUIRED_FIELD' | 'ERROR_PASSWORD_MIN_LENGTH' | 'ERROR_MAX_LENGTH' | 'PASSWORD_TOO_COMMON';

/**
 * Common passwords of 8 to 128 characters, most frequent first, one a line: the passwords list of
 * zxcvbn 4.4.2 (MIT licence, copyright (c) 2012-2016 Dan Wheeler and Dropbox, Inc.), from leaked
 * password corpora, with a few Nordic and Baltic additions at the end. Shorter ones are not listed:
 * the minimum length refuses them anyway. A data file beside this module, in the sources and in the
 * server build alike (vite.config.ts copies it beside the chunk that holds this module; scripts/build.mjs
 * fails a build where a file the server reads so is missing).
 */
export const COMMON_PASSWORDS_FILE = new URL('./common-passwords.txt', import.meta.url);

let common: ReadonlySet<string> | undefined;

/** Read on first use (about 11,600 entries), then shared by every request. */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    fs
      .readFileSync(COMMON_PASSWORDS_FILE, 'utf8')
      .split('\n')
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
