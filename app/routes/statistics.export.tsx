import { data } from 'react-router';
import type { Route } from './+types/statistics.export';
import { fileResponse } from '~/app/lib/file-response.server';
import { guard, run } from '~/app/lib/guard.server';
import { isAppError } from '~/core/errors/app-error';
import { exportStatisticsTable, STATISTICS_TABLES, type StatisticsTableId } from '~/core/statistics/statistics.service';

/**
 * One statistics table as a file (GET /api/statistics/{table}/export's web twin):
 * ?table=byType…&format=csv|xlsx&period&departmentId, the page's own query.
 */
export const middleware = guard({ permission: 'dashboard:read', module: 'statistics' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const input = Object.fromEntries(new URL(request.url).searchParams);
  const table = input.table ?? '';
  if (!(STATISTICS_TABLES as readonly string[]).includes(table)) throw data('NOT_FOUND', { status: 404 });
  try {
    return fileResponse(await run(context, (ctx) => exportStatisticsTable(ctx, table as StatisticsTableId, input)));
  } catch (e) {
    if (isAppError(e) && e.status < 500) throw data(e.code, { status: e.status });
    throw e;
  }
}
