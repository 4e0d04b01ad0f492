import { data } from 'react-router';
import type { Route } from './+types/work-orders.$id.checklists';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import {
  getWorkOrderChecklists,
  saveWorkOrderChecklist,
  type WorkOrderChecklistsData,
} from '~/core/checklists/checklist.service';
import { AppError, isAppError } from '~/core/errors/app-error';

/**
 * The order screen's checklists panel loads here (the templates of the order's work type with
 * what has been filled in) and saves one checklist at a time (`checklistId` and `values`, the
 * item values as JSON). Answers `{ok: true, data}` or `{code, fields}`.
 */
export const middleware = guard({ permission: 'workorders:read', module: 'checklists' });

export type ChecklistsLoaderResult = { data: WorkOrderChecklistsData } | { error: string };
export type ChecklistsActionResult =
  | { ok: true; checklistId: string; data: WorkOrderChecklistsData }
  | { ok?: undefined; checklistId?: string; code: string; fields?: Record<string, string[]> };

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const answer = await run(context, (ctx) => getWorkOrderChecklists(ctx, { workOrderId: params.id }));
    return data<ChecklistsLoaderResult>({ data: answer });
  } catch (e) {
    // the panel says so instead of replacing the page
    if (isAppError(e) && e.status < 500) return data<ChecklistsLoaderResult>({ error: 'FAILED_TO_FETCH' }, e.status);
    throw e;
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const checklistId = String(form.get('checklistId') ?? '');
  try {
    let values: unknown;
    try {
      values = JSON.parse(String(form.get('values') ?? '{}'));
    } catch {
      throw new AppError('VALIDATION_FAILED', 400, { fields: { values: ['ERROR_INVALID_VALUE'] } });
    }
    const saved = await run(context, (ctx) =>
      saveWorkOrderChecklist(ctx, { workOrderId: params.id, checklistId, values }),
    );
    return data<ChecklistsActionResult>({ ok: true, checklistId, data: saved });
  } catch (e) {
    return actionError<ChecklistsActionResult>(e, { checklistId });
  }
}
