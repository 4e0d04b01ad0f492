import { data } from 'react-router';
import { isAppError, type AppError } from '~/core/errors/app-error';
import { logger } from '~/core/log/logger';

export type ActionError = { code: string; fields?: Record<string, string[]>; usedBy?: Record<string, number> };

/**
 * What an action answers when its work fails, so the page that asked stays as it is (issue 28
 * item 10: a failed panel save must not replace the screen, and with it what was typed, by an
 * error page). Every action's `catch` ends here (issue 30 item 6: one helper, not a copy per route):
 * - a rule's refusal (an AppError) becomes its code and field errors, which the page shows
 *   translated (and, for 409 IN_USE, what still uses the thing), with the error's status — a
 *   5xx AppError too (502 FAILED_TO_SEND_EMAIL, an ERP that did not answer);
 * - an unexpected failure is logged here and answered as 500 SERVER_ERROR ("a server error
 *   occurred, try again") in the same shape;
 * - a thrown Response (a redirect) or `data()` is React Router's own and is thrown on.
 *
 * `extra` goes into every answer: which of the page's forms asked (`{ intent }`). `fromDetails`
 * picks what else of a refusal's details the page shows (`(d) => ({ overlaps: d.overlaps })`).
 * `Answer` is the route's own result type, so its success and its failures read as one type.
 */
export function actionError<Answer extends object = ActionError>(
  e: unknown,
  extra?: Partial<Answer>,
  fromDetails?: (details: Record<string, unknown>) => Partial<Answer>,
): ReturnType<typeof data<Answer>> {
  if (isAppError(e)) {
    const refused: ActionError = {
      ...extra,
      code: e.code,
      fields: pageFields(e),
      usedBy: e.details?.usedBy as Record<string, number> | undefined,
      ...fromDetails?.(e.details ?? {}),
    };
    return data(refused as Answer, { status: e.status });
  }
  if (!(e instanceof Error)) throw e;
  logger.error({ err: e }, 'action failed');
  const failed: ActionError = { ...extra, code: 'SERVER_ERROR' };
  return data(failed as Answer, { status: 500 });
}

/**
 * A refusal's field errors as the pages show them: message keys the page translates, a too-long
 * text's with its limit (spec section 5: "maximum length message shows the limit") as an i18next
 * nesting that any namespace's `t` resolves: `$t(common:ERROR_MAX_LENGTH_LIMIT, {"max": 200})`.
 */
export function pageFields(e: AppError): Record<string, string[]> | undefined {
  const fields = e.details?.fields as Record<string, string[]> | undefined;
  const limits = e.details?.limits as Record<string, number> | undefined;
  if (!fields || !limits) return fields;
  return Object.fromEntries(
    Object.entries(fields).map(([name, codes]) => [
      name,
      codes.map((c) =>
        c === 'ERROR_MAX_LENGTH' && limits[name] !== undefined
          ? `$t(common:ERROR_MAX_LENGTH_LIMIT, {"max": ${limits[name]}})`
          : c,
      ),
    ]),
  );
}
