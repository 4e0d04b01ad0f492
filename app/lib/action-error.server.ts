import { data } from 'react-router';
import { isAppError, type AppError } from '~/core/errors/app-error';

export type ActionError = { code: string; fields?: Record<string, string[]>; usedBy?: Record<string, number> };

/**
 * A rule's refusal (a 4xx AppError) becomes the action's answer: its code and field errors, which
 * the page shows translated (and, for 409 IN_USE, what still uses the thing). Anything else is a real failure and goes to the error boundary.
 */
export function actionError(e: unknown) {
  if (isAppError(e) && e.status < 500)
    return data<ActionError>(
      { code: e.code, fields: pageFields(e), usedBy: e.details?.usedBy as Record<string, number> | undefined },
      { status: e.status },
    );
  throw e;
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
