import { data } from 'react-router';
import type { Route } from './+types/projects.resources';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, run, runResource } from '~/app/lib/guard.server';
import { AppError } from '~/core/errors/app-error';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import {
  deleteResource,
  planningOptions,
  planResource,
  resourcePlan,
  updateResource,
  type PlanningOptions,
  type ResourcePlan,
} from '~/core/projects/resource.service';

/**
 * The resource planner's data (app/components/projects/resource-planner.tsx, on /projects/planning
 * and a project's planning tab). GET `?from&to[&projectId][&userIds]` answers the calendar of the
 * period; `?options=1[&projectId]` what the plan dialog chooses from. POST `intent` plan (a new
 * plan), move (new dates, a drag; or any of the dialog's fields) or delete; answers `{ok: true,
 * intent}` or `{code, fields}`. The services check projects:edit and closed projects.
 */
export const middleware = guard(PROJECT_ACCESS.read);

export type PlannerLoaderData = { kind: 'plan'; plan: ResourcePlan } | { kind: 'options'; options: PlanningOptions };

export type PlannerActionResult = { ok: true; intent: string; id?: string } | ActionError;

export async function loader({ request, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams;
  const projectId = q.get('projectId') || undefined;
  if (q.get('options'))
    return runResource(context, async (ctx) => ({
      kind: 'options' as const,
      options: await planningOptions(ctx, { projectId }),
    }));
  return runResource(context, async (ctx) => ({
    kind: 'plan' as const,
    plan: await resourcePlan(ctx, {
      from: q.get('from') ?? '',
      to: q.get('to') ?? '',
      projectId,
      userIds: q.getAll('userIds'),
    }),
  }));
}

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' ? v : undefined;
};

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const fields = () => ({
    projectId: text(form, 'projectId'),
    userId: text(form, 'userId'),
    supplierId: text(form, 'supplierId'),
    startDate: text(form, 'startDate'),
    endDate: text(form, 'endDate'),
    hoursPerDay: text(form, 'hoursPerDay'),
    comment: text(form, 'comment'),
  });
  try {
    const id = await run(context, async (ctx) => {
      if (intent === 'plan') return (await planResource(ctx, fields())).resource.id;
      if (intent === 'move') return (await updateResource(ctx, { id: text(form, 'id'), ...fields() })).resource.id;
      if (intent === 'delete') {
        await deleteResource(ctx, text(form, 'id'));
        return undefined;
      }
      throw new AppError('ERROR_INVALID_VALUE', 400);
    });
    return data<PlannerActionResult>({ ok: true, intent, id });
  } catch (e) {
    return actionError(e);
  }
}
