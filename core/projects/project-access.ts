import type { Ctx } from '~/core/context';
import { AppError, notFound } from '~/core/errors/app-error';
import { isUuid } from '~/core/errors/validation';
import type { Access } from '~/core/permissions/access';

/**
 * Who may do what with projects (spec section 6: projects:read/edit/delete/files/reopen/
 * close_negative_invoice, the PROJECTS app module) and the one way services find a project: a
 * malformed id, another tenant's or a missing one is 404.
 */
export const PROJECT_ACCESS = {
  read: { permission: 'projects:read', module: 'projects' },
  edit: { permission: 'projects:edit', module: 'projects' },
  delete: { permission: 'projects:delete', module: 'projects' },
  reopen: { permission: 'projects:reopen', module: 'projects' },
  files: { permission: 'projects:files', module: 'projects' },
  closeNegativeInvoice: { permission: 'projects:close_negative_invoice', module: 'projects' },
} as const satisfies Record<string, Access>;

export const PROJECT_ENTITY = 'project';

export type ProjectStatus = 'ongoing' | 'closed';

export interface ProjectRow {
  id: string;
  number: number;
  title: string;
  status: ProjectStatus;
  version: number;
  contract_sum: string;
  invoice_customer_id: string | null;
  region: string | null;
}

const COLUMNS = ['id', 'number', 'title', 'status', 'version', 'contract_sum', 'invoice_customer_id', 'region'];

/** The project's own row (no joins), or 404. */
export async function findProject(ctx: Ctx, id: unknown): Promise<ProjectRow> {
  if (!isUuid(id)) throw notFound();
  const row = (await ctx.trx('projects').where({ id }).first(COLUMNS)) as ProjectRow | undefined;
  if (!row) throw notFound();
  return { ...row, number: Number(row.number), version: Number(row.version), contract_sum: String(row.contract_sum) };
}

/** The project's row locked for a change (FOR UPDATE), or 404. */
export async function lockProject(ctx: Ctx, id: unknown): Promise<ProjectRow> {
  if (!isUuid(id)) throw notFound();
  const row = (await ctx.trx('projects').where({ id }).forUpdate().first(COLUMNS)) as ProjectRow | undefined;
  if (!row) throw notFound();
  return { ...row, number: Number(row.number), version: Number(row.version), contract_sum: String(row.contract_sum) };
}

/** Locked and ongoing: a closed project changes only after it is reopened (409 PROJECT_CLOSED). */
export async function lockOngoingProject(ctx: Ctx, id: unknown): Promise<ProjectRow> {
  const row = await lockProject(ctx, id);
  if (row.status !== 'ongoing') throw new AppError('PROJECT_CLOSED', 409);
  return row;
}
