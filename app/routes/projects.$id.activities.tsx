import { data } from 'react-router';
import type { Route } from './+types/projects.$id.activities';
import { tenantContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { AppError, isAppError } from '~/core/errors/app-error';
import type { DateFormat } from '~/core/i18n/number-format';
import {
  completeActivity,
  createActivity,
  deleteActivity,
  getActivitiesPanel,
  reorderActivity,
  updateActivity,
  type ActivitiesPanelData,
} from '~/core/projects/activity.service';
import { PROJECT_ACCESS } from '~/core/projects/project-access';

/**
 * The project's activities panel (app/components/projects/activities-panel.tsx) loads here and
 * posts `intent` create, update, reorder (`sortOrder`, 1 = first), complete (`completed`) or
 * delete. Every answer carries the panel's data again. Changing needs projects:edit on an ongoing
 * project, which the service checks.
 */
export const middleware = guard(PROJECT_ACCESS.read);

export type ActivitiesLoaderResult =
  (ActivitiesPanelData & { config: { dateFormat: DateFormat; country: string } }) | { error: string };

export type ActivitiesActionResult =
  | { ok: true; intent: string; data: ActivitiesPanelData }
  | { ok?: undefined; intent?: string; code: string; fields?: Record<string, string[]> };

export async function loader({ params, context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  try {
    const panel = await run(context, (ctx) => getActivitiesPanel(ctx, params.id));
    return data<ActivitiesLoaderResult>({
      ...panel,
      config: { dateFormat: tenant.config.dateFormat, country: tenant.config.country },
    });
  } catch (e) {
    if (isAppError(e) && e.status < 500)
      return data<ActivitiesLoaderResult>({ error: 'FAILED_TO_FETCH' }, { status: e.status });
    throw e;
  }
}

const field = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v : undefined;
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const id = field(form, 'id');
  try {
    const panel = await run(context, async (ctx) => {
      const fields = {
        title: field(form, 'title'),
        description: field(form, 'description'),
        dueDate: field(form, 'dueDate'),
        responsibleUserId: field(form, 'responsibleUserId'),
      };
      if (intent === 'create') await createActivity(ctx, params.id, fields);
      else if (intent === 'update') await updateActivity(ctx, params.id, id, fields);
      else if (intent === 'reorder') await reorderActivity(ctx, params.id, id, { sortOrder: field(form, 'sortOrder') });
      else if (intent === 'complete')
        await completeActivity(ctx, params.id, id, { completed: field(form, 'completed') });
      else if (intent === 'delete') await deleteActivity(ctx, params.id, id);
      else throw new AppError('ERROR_INVALID_VALUE', 400);
      return getActivitiesPanel(ctx, params.id);
    });
    return data<ActivitiesActionResult>({ ok: true, intent, data: panel });
  } catch (e) {
    return actionError<ActivitiesActionResult>(e, { intent });
  }
}
