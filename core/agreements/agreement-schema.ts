import { z } from 'zod';
import { parsePlainDate } from '~/core/calendar/dates';

/** A calendar day `YYYY-MM-DD` that exists (no 30 February): ERROR_INVALID_DATE otherwise. */
export const zPlainDate = () =>
  z
    .string({ error: 'ERROR_INVALID_DATE' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'ERROR_INVALID_DATE')
    .refine((v) => parsePlainDate(v) !== null, 'ERROR_INVALID_DATE');

/** The same, where "" and null mean "not set". */
export const zOptionalPlainDate = () =>
  z.preprocess((v) => (v === '' || v === undefined ? null : v), zPlainDate().nullable());
