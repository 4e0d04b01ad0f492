import { z } from 'zod';
import { EMAIL_PATTERN, UUID_PATTERN } from '~/core/errors/validation';

/**
 * The zod field helpers the registers' schemas share (customers, objects, articles, suppliers,
 * app-module plugins). Messages are spec message keys.
 */

/** A blank form field ('' or only spaces) is null; anything else goes on unchanged. */
export const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/**
 * Optional free text: trimmed; empty, null or left out → null; longer than `max` (after trimming)
 * is ERROR_MAX_LENGTH; not a string is ERROR_INVALID_VALUE.
 */
export const zOptionalText = (max: number) =>
  z
    .string({ error: 'ERROR_INVALID_VALUE' })
    .trim()
    .max(max, 'ERROR_MAX_LENGTH')
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * Optional text for a partial save: trimmed, empty → null, longer than `max` is ERROR_MAX_LENGTH,
 * but LEFT OUT stays undefined (the field is not changed).
 */
export const zOptionalTextOrUnset = (max: number) =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (typeof v === 'string' ? v.trim() || null : v))
    .refine((v) => v == null || v.length <= max, 'ERROR_MAX_LENGTH');

/** An optional reference to another row: blank or null → null, anything else must be a uuid (not trimmed). */
export const zOptionalUuid = () =>
  z
    .preprocess(blankToNull, z.string().regex(UUID_PATTERN, 'ERROR_INVALID_VALUE').nullish())
    .transform((v) => v ?? null);

/**
 * An optional reference for a partial save: trimmed, '' or null clears it (null), anything else
 * must be a uuid, and LEFT OUT stays undefined (not changed).
 */
export const zOptionalIdOrUnset = () =>
  z
    .union([z.string(), z.null()])
    .optional()
    .transform((v) => (typeof v === 'string' ? v.trim() || null : v))
    .refine((v) => v == null || UUID_PATTERN.test(v), 'ERROR_INVALID_VALUE');

/** A yes/no from JSON (boolean) or a form (checkbox "on", "true"/"1", "false"/"0"/""). */
export const zFormBool = () =>
  z.preprocess(
    (v) => (v === 'on' || v === 'true' || v === '1' ? true : v === 'false' || v === '0' || v === '' ? false : v),
    z.boolean({ error: 'ERROR_INVALID_VALUE' }),
  );

/** An optional e-mail (spec section 5 pattern): blank or null → null. */
export const zOptionalEmail = () =>
  z
    .preprocess(
      blankToNull,
      z.string().trim().max(254, 'ERROR_MAX_LENGTH').regex(EMAIL_PATTERN, 'ERROR_INVALID_EMAIL').nullish(),
    )
    .transform((v) => v ?? null);
