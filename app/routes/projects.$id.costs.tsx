import { data } from 'react-router';
import type { Route } from './+types/projects.$id.costs';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run, runResource } from '~/app/lib/guard.server';
import { isAppError } from '~/core/errors/app-error';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import {
  projectCostsPanel,
  projectTimeReports,
  takeProjectCostSnapshot,
  type ProjectCostSnapshot,
  type ProjectCosts,
  type ProjectTimeReports,
} from '~/core/projects/project-costs.service';

/**
 * The project's costs tab (app/components/projects/costs-panel.tsx) loads and posts here. GET
 * answers the costs with the snapshots; GET ?part=time&startTime&endTime[&offset] the project's
 * time reports of a period, or the period's refusal `{code, fields}` for the picker to show.
 * POST `intent=snapshot` [ongoingCost] takes a cost snapshot (projects:edit, the service checks).
 */
export const middleware = guard(PROJECT_ACCESS.read);

export type CostsLoaderResult =
  | { part: 'summary'; costs: ProjectCosts; snapshots: ProjectCostSnapshot[]; isClosed: boolean }
  | { part: 'time'; time: ProjectTimeReports }
  | { part: 'time'; code: string; fields?: Record<string, string[]> };

export type CostsActionResult =
  { ok: true; snapshot: ProjectCostSnapshot } | { ok?: undefined; code: string; fields?: Record<string, string[]> };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  if (query.get('part') === 'time') {
    try {
      const time = await run(context, (ctx) =>
        projectTimeReports(ctx, params.id, {
          startTime: query.get('startTime') || undefined,
          endTime: query.get('endTime') || undefined,
          offset: query.get('offset') || undefined,
        }),
      );
      return data<CostsLoaderResult>({ part: 'time', time });
    } catch (e) {
      if (isAppError(e) && e.status === 400)
        return data<CostsLoaderResult>(
          { part: 'time', code: e.code, fields: e.details?.fields as Record<string, string[]> | undefined },
          { status: 400 },
        );
      if (isAppError(e) && e.status < 500) throw data(e.code, { status: e.status });
      throw e;
    }
  }
  const panel = await runResource(context, (ctx) => projectCostsPanel(ctx, params.id));
  return data<CostsLoaderResult>({ part: 'summary', ...panel });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get('intent') !== 'snapshot')
    return data<CostsActionResult>({ code: 'ERROR_INVALID_VALUE' }, { status: 400 });
  const ongoing = form.get('ongoingCost');
  try {
    const { snapshot } = await run(context, (ctx) =>
      takeProjectCostSnapshot(ctx, params.id, {
        ongoingCost: typeof ongoing === 'string' && ongoing.trim() !== '' ? ongoing.trim() : undefined,
      }),
    );
    return data<CostsActionResult>({ ok: true, snapshot });
  } catch (e) {
    return actionError(e);
  }
}
