import { data } from 'react-router';
import { isAppError } from '~/core/errors/app-error';

export type ActionError = { code: string; fields?: Record<string, string[]> };

/**
 * A rule's refusal (a 4xx AppError) becomes the action's answer: its code and field errors, which
 * the page shows translated. Anything else is a real failure and goes to the error boundary.
 */
export function actionError(e: unknown) {
  if (isAppError(e) && e.status < 500)
    return data<ActionError>({ code: e.code, fields: e.details?.fields }, { status: e.status });
  throw e;
}
