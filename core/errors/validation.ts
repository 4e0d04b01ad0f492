import { z } from 'zod';
import { AppError } from './app-error';

/** Spec section 5: word characters, dots or hyphens, an @, a domain, a suffix of 2 to 3 characters. */
export const EMAIL_PATTERN = /^[\w.+-]+@[\w-]+(\.[\w-]+)*\.[A-Za-z]{2,3}$/;

/** Ids are UUIDs; anything else cannot name a row and is answered as not found. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_PATTERN.test(v);

/**
 * A refinement's `when` that runs it even when other fields are wrong, so a form shows every
 * mistake at once, but only on an object: on a missing or non-object value (a body of `[]`, a
 * `{contract: 1}`) its check would read a field of undefined and throw, a 500 instead of the 400.
 */
export const evenWithOtherErrors = (payload: { value: unknown }): boolean =>
  typeof payload.value === 'object' && payload.value !== null;

export const zRequiredString = () => z.string({ error: 'ERROR_REQUIRED_FIELD' }).trim().min(1, 'ERROR_REQUIRED_FIELD');
export const zEmail = () => zRequiredString().max(254, 'ERROR_MAX_LENGTH').regex(EMAIL_PATTERN, 'ERROR_INVALID_EMAIL');

/**
 * Parses input with a domain schema. Messages in our schemas are spec message keys, so a failure
 * becomes a 400 `{code: 'VALIDATION_FAILED', fields: {name: [KEY, …]}}` the UI can translate.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(result.error);
}

export function validationError(error: z.ZodError): AppError {
  const fields: Record<string, string[]> = {};
  // The limit of a too-long text, so the message can give it (spec section 5).
  const limits: Record<string, number> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    const message = /^[A-Z][A-Z0-9_]+$/.test(issue.message) ? issue.message : 'ERROR_INVALID_VALUE';
    const list = (fields[key] ??= []);
    if (!list.includes(message)) list.push(message);
    if (message === 'ERROR_MAX_LENGTH' && issue.code === 'too_big' && typeof issue.maximum === 'number')
      limits[key] = issue.maximum;
  }
  return new AppError('VALIDATION_FAILED', 400, Object.keys(limits).length ? { fields, limits } : { fields });
}
