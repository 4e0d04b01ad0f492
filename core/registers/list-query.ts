import { z } from 'zod';
import { AppError } from '~/core/errors/app-error';

/** Spec section 9: page sizes offered by lists; the API accepts up to 200 rows per request. */
export const PAGE_SIZES = [20, 50, 100] as const;
export const MAX_PAGE_SIZE = 200;

/** `q`, `offset` and `limit` as every register list and search call takes them (query strings). */
export const ZListQuery = z.object({
  q: z.string().trim().max(200, 'ERROR_MAX_LENGTH').optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
});
export type ListQuery = z.infer<typeof ZListQuery>;

/** A query-string flag: 'true'/'1'/'on' or 'false'/'0', else the fallback. */
export const zQueryFlag = (fallback: boolean) =>
  z
    .preprocess(
      (v) => (v === 'true' || v === '1' || v === 'on' ? true : v === 'false' || v === '0' || v === '' ? false : v),
      z.boolean(),
    )
    .default(fallback);

/**
 * A `LIKE` pattern matching `q` anywhere, lower-cased, with LIKE's wildcards escaped. Register
 * searches compare it with `lower(<indexed expression>)`, which a pg_trgm GIN index serves.
 */
export function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Postgres' unique violation, with the name of the index it hit. */
export function uniqueViolation(e: unknown): string | null {
  const err = e as { code?: string; constraint?: string } | null;
  return err?.code === '23505' ? (err.constraint ?? '') : null;
}

/**
 * Deleting a row something still references: 23503 (foreign_key_violation), or 23001
 * (restrict_violation), which PostgreSQL 17 — and so PGlite — reports for `on delete restrict`.
 */
export function isForeignKeyViolation(e: unknown): boolean {
  const code = (e as { code?: string } | null)?.code;
  return code === '23503' || code === '23001';
}

/** A 409 with the spec's duplicate message for `code` (DUPLICATE_SERIAL_CODE, …). */
export const duplicate = (code: string, field?: string) =>
  new AppError(code, 409, field ? { fields: { [field]: [code] } } : undefined);

/**
 * 409 IN_USE: deleting something that others still use answers with what uses it, as counts
 * by kind (`{objects: 3, customers: 1}`), so the UI can say so.
 */
export function inUse(usedBy: Record<string, number>): AppError {
  const present = Object.fromEntries(Object.entries(usedBy).filter(([, n]) => n > 0));
  return new AppError('IN_USE', 409, { usedBy: present });
}

/** Spec section 5: no spaces in IDs. */
export const zIdentifier = (max = 50) =>
  z
    .string({ error: 'ERROR_REQUIRED_FIELD' })
    .trim()
    .min(1, 'ERROR_REQUIRED_FIELD')
    .max(max, 'ERROR_MAX_LENGTH')
    .regex(/^\S+$/, 'ERROR_NO_SPACES');
