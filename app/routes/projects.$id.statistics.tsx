import { data } from 'react-router';
import type { Route } from './+types/projects.$id.statistics';
import { guard, runResource } from '~/app/lib/guard.server';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import { projectStatistics, type ProjectStatistics } from '~/core/projects/project-statistics.service';

/** The project's statistics tab (app/components/projects/statistics-panel.tsx) loads here. */
export const middleware = guard(PROJECT_ACCESS.read);

export type StatisticsLoaderResult = { statistics: ProjectStatistics };

export async function loader({ params, context }: Route.LoaderArgs) {
  return data<StatisticsLoaderResult>(await runResource(context, (ctx) => projectStatistics(ctx, params.id)));
}
