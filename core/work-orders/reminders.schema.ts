import { z } from 'zod';

/** A reminder's message is a note, not a letter: at most this many characters (the table checks it too). */
export const REMINDER_MESSAGE_MAX = 1000;
/** A due time a little in the past is still taken (the form's minute, a slow request); older is refused. */
export const REMINDER_PAST_GRACE_MS = 5 * 60_000;
/** Further ahead than this is a typing mistake, not a plan. */
export const REMINDER_MAX_AHEAD_MS = 10 * 366 * 24 * 3_600_000;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** An instant: an ISO string with its offset (or Z), or epoch milliseconds. */
const zDueAt = () =>
  z.preprocess(
    (v) => {
      const e = emptyToUndefined(v);
      if (typeof e === 'number') return new Date(e);
      // a date without a time or zone would be read in the server's zone: refuse it instead
      if (typeof e === 'string') return /T\d{2}:\d{2}.*(Z|[+-]\d{2}:?\d{2})$/i.test(e.trim()) ? new Date(e) : 'invalid';
      return e;
    },
    z.date({ error: (issue) => (issue.input === undefined ? 'ERROR_REQUIRED_FIELD' : 'ERROR_INVALID_VALUE') }),
  );

const reminderFields = {
  workOrderId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  /** Who is reminded; left out: see `defaultReminded` in the service. */
  userId: z.preprocess(emptyToUndefined, z.string({ error: 'ERROR_INVALID_VALUE' }).optional()),
  dueAt: zDueAt(),
  message: z.preprocess(
    (v) => (v === null || v === undefined ? '' : v),
    z.string({ error: 'ERROR_INVALID_VALUE' }).trim().max(REMINDER_MESSAGE_MAX, 'ERROR_MAX_LENGTH'),
  ),
};

/** POST /wo/{id}/reminder. */
export const ZCreateReminder = z.object(reminderFields);
export type TCreateReminder = z.infer<typeof ZCreateReminder>;

/** PUT /wo/{id}/reminder: replaces the reminder `id` (a left-out person keeps the one reminded). */
export const ZEditReminder = z.object({ id: z.string({ error: 'ERROR_REQUIRED_FIELD' }), ...reminderFields });
export type TEditReminder = z.infer<typeof ZEditReminder>;

/** DELETE /wo/{id}/reminder/{rid}. */
export const ZDeleteReminder = z.object({
  workOrderId: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
  id: z.string({ error: 'ERROR_REQUIRED_FIELD' }),
});
