import type { Ctx } from '~/core/context';
import type { Permission } from '~/core/permissions/permissions';

/** A problem with one row of an import file: 1-based data row, the column, a message key. */
export interface RowIssue {
  row: number;
  field: string;
  code: string;
}

export type Register = 'customers' | 'objects' | 'articles';

/**
 * How a register is imported and exported. An imported row goes through the register's own
 * create call, so it is checked and recorded (history) exactly like one typed into the form.
 */
export interface RegisterIo {
  register: Register;
  /** Needed, besides settings:import_export, to import (create) and to export (read). */
  createPermission: Permission;
  readPermission: Permission;
  /** The file's columns, named as the API names the fields (spec section 3). */
  columns: readonly string[];
  /** The export's columns: the list's fields (an export can be edited and imported again). */
  exportColumns: readonly string[];
  /** Columns the file must have. */
  required: readonly string[];
  /** Creates one row from its cells; throws the register's AppError when the row is bad. */
  create(ctx: Ctx, cells: Record<string, string>): Promise<void>;
  /** One page of the export for the list's filters, as cells keyed by column. */
  exportPage(
    ctx: Ctx,
    filters: Record<string, string>,
    offset: number,
    limit: number,
  ): Promise<{ rows: Record<string, unknown>[]; totalCount: number }>;
}
