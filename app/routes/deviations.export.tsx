import type { Route } from './+types/deviations.export';
import { fileResponse } from '~/app/lib/file-response.server';
import { guard, runResource } from '~/app/lib/guard.server';
import { DEVIATION_ACCESS } from '~/core/deviations/deviation.service';
import { exportDeviations } from '~/core/deviations/deviation-export';

/** The list's filter as a file (GET /api/deviations/export's web twin): ?format=csv|xlsx&… */
export const middleware = guard(DEVIATION_ACCESS.read);

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = Object.fromEntries([...new URL(request.url).searchParams].filter(([, v]) => v !== ''));
  return fileResponse(await runResource(context, (ctx) => exportDeviations(ctx, query)));
}
