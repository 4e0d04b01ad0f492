import type { Ctx } from '~/core/context';
import { AppError, isAppError } from '~/core/errors/app-error';
import { requireAccess } from '~/core/permissions/access';
import { csvHead, csvLine, csvRecords, CsvSyntaxError } from './csv';
import type { Register, RegisterIo, RowIssue } from './register-io';
import { REGISTER_IO } from './registers';

/** Largest file an import takes (about 100,000 customer rows). */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** Rows shown in the preview, and issues listed at most (the count is always complete). */
export const PREVIEW_ROWS = 10;
export const MAX_LISTED_ISSUES = 500;
/**
 * Rows per file: each row runs its register's create call (a handful of statements), so a file
 * this size finishes well inside the spec's 60-second upload timeout. Larger registers are split.
 */
export const MAX_IMPORT_ROWS = 5_000;

export function registerIo(register: string): RegisterIo {
  const io = REGISTER_IO[register as Register] as RegisterIo | undefined;
  if (!io) throw new AppError('NOT_FOUND', 404);
  return io;
}

export interface ImportCheck {
  register: Register;
  columns: readonly string[];
  /** Columns in the file that the register does not know (ignored). */
  unknownColumns: string[];
  totalRows: number;
  validRows: number;
  invalidRows: number;
  issues: RowIssue[];
  sample: Record<string, string>[];
}

/** Thrown to undo a dry run; never escapes this module. */
class DryRun extends Error {}

function issuesOf(row: number, e: unknown): RowIssue[] {
  if (!isAppError(e) || e.status >= 500) throw e;
  const fields = e.details?.fields;
  if (fields && Object.keys(fields).length)
    return Object.entries(fields).flatMap(([field, codes]) => codes.map((code) => ({ row, field, code })));
  return [{ row, field: '', code: e.code }];
}

/**
 * Creates every record through the register's own create call, each in a savepoint: a bad row
 * (its fields, a duplicate of the register or of an earlier row of the file, an unknown
 * reference) is rolled back alone and reported. `commit: false` rolls everything back.
 */
async function apply(
  ctx: Ctx,
  io: RegisterIo,
  records: Record<string, string>[],
  stopAtFirst: boolean,
  commit: boolean,
) {
  const issues: RowIssue[] = [];
  let created = 0;
  const work = async (trx: Ctx['trx']) => {
    for (const [i, cells] of records.entries()) {
      try {
        await trx.transaction((sp) => io.create({ ...ctx, trx: sp }, cells));
        created++;
      } catch (e) {
        issues.push(...issuesOf(i + 1, e));
        if (stopAtFirst) throw new AppError('IMPORT_HAS_ERRORS', 400, { issues });
      }
    }
    if (!commit) throw new DryRun();
  };
  try {
    await ctx.trx.transaction(work);
  } catch (e) {
    if (!(e instanceof DryRun)) throw e;
  }
  return { created, issues };
}

/** The file's records; a file that is not CSV (an unclosed quote) is refused with the line it breaks at. */
function parsed(text: string) {
  try {
    return csvRecords(text);
  } catch (e) {
    if (e instanceof CsvSyntaxError) throw new AppError('IMPORT_FILE_INVALID', 400, { line: e.line });
    throw e;
  }
}

function read(ctx: Ctx, io: RegisterIo, text: string) {
  requireAccess(ctx.auth, { permission: 'settings:import_export' });
  requireAccess(ctx.auth, { permission: io.createPermission });
  const { headers, records } = parsed(text);
  if (!headers.length || !records.length) throw new AppError('IMPORT_FILE_EMPTY', 400);
  if (records.length > MAX_IMPORT_ROWS) throw new AppError('IMPORT_TOO_MANY_ROWS', 400, { max: MAX_IMPORT_ROWS });
  const missing = io.required.filter((c) => !headers.includes(c));
  if (missing.length) throw new AppError('IMPORT_MISSING_COLUMNS', 400, { columns: missing });
  return { headers, records };
}

/** Checks a file without keeping anything: counts, every bad row's reasons, a preview. */
export async function previewImport(ctx: Ctx, register: string, text: string): Promise<ImportCheck> {
  const io = registerIo(register);
  const { headers, records } = read(ctx, io, text);
  const { issues } = await apply(ctx, io, records, false, false);
  const invalid = new Set(issues.map((i) => i.row)).size;
  return {
    register: io.register,
    columns: io.columns,
    unknownColumns: headers.filter((h) => !io.columns.includes(h)),
    totalRows: records.length,
    validRows: records.length - invalid,
    invalidRows: invalid,
    issues: issues.slice(0, MAX_LISTED_ISSUES),
    sample: records.slice(0, PREVIEW_ROWS),
  };
}

/**
 * Imports a file in the caller's transaction. Mode `all`: every row or none (the first bad row
 * answers 400 IMPORT_HAS_ERRORS and nothing is kept). Mode `valid`: the good rows, skipping the rest.
 */
export async function runImport(
  ctx: Ctx,
  register: string,
  text: string,
  mode: 'all' | 'valid',
): Promise<{ imported: number; skipped: number; issues: RowIssue[] }> {
  const io = registerIo(register);
  const { records } = read(ctx, io, text);
  const { created, issues } = await apply(ctx, io, records, mode === 'all', true);
  return {
    imported: created,
    skipped: new Set(issues.map((i) => i.row)).size,
    issues: issues.slice(0, MAX_LISTED_ISSUES),
  };
}

/** Page size of the export's reads: the list calls' own maximum. */
const EXPORT_PAGE = 200;

/**
 * The register as CSV for the list's filters, produced page by page (each page one list query),
 * so memory stays flat for 50,000 objects.
 */
export async function* exportCsv(ctx: Ctx, register: string, filters: Record<string, string>): AsyncGenerator<string> {
  const io = registerIo(register);
  requireAccess(ctx.auth, { permission: 'settings:import_export' });
  requireAccess(ctx.auth, { permission: io.readPermission });
  yield csvHead(io.exportColumns);
  for (let offset = 0; ; offset += EXPORT_PAGE) {
    const { rows, totalCount } = await io.exportPage(ctx, filters, offset, EXPORT_PAGE);
    if (rows.length) yield rows.map((r) => csvLine(io.exportColumns.map((c) => cell(r[c])))).join('\r\n') + '\r\n';
    if (rows.length < EXPORT_PAGE || offset + EXPORT_PAGE >= totalCount) break;
  }
}

function cell(v: unknown): string | number | boolean | null {
  if (v == null) return null;
  if (Array.isArray(v)) return v.join(', ');
  if (v instanceof Date) return v.toISOString();
  return typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean);
}
