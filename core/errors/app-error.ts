/**
 * The one error type of the domain. `code` is a message key of the spec (translated in the UI),
 * `status` the HTTP status the API answers with, `details` extra data such as field errors.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number = 400,
    readonly details?: { fields?: Record<string, string[]>; message?: string; [key: string]: unknown },
  ) {
    super(details?.message ?? code);
    this.name = 'AppError';
  }
}

export const notFound = () => new AppError('NOT_FOUND', 404);
export const invalidSession = () => new AppError('INVALID_SESSION', 401);
export const permissionDenied = () => new AppError('WARNING_PERMISSION_DENIED', 403);

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
