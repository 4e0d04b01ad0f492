import { data } from 'react-router';
import { isAppError } from '~/core/errors/app-error';

export type ActionError = { code: string; fields?: Record<string, string[]>; usedBy?: Record<string, number> };

/**
 * A rule's refusal (a 4xx AppError) becomes the action's answer: its code and field errors, which
 * the page shows translated (and, for 409 IN_USE, what still uses the thing). Anything else is a real failure and goes to the error boundary.
 */
export function actionError(e: unknown) {
  if (isAppError(e) && e.status < 500)
    return data<ActionError>(
      { code: e.code, fields: e.details?.fields, usedBy: e.details?.usedBy as Record<string, number> | undefined },
      { status: e.status },
    );
  throw e;
}
