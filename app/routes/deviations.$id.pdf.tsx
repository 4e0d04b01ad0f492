import type { Route } from './+types/deviations.$id.pdf';
import { fileResponse } from '~/app/lib/file-response.server';
import { guard, runResource } from '~/app/lib/guard.server';
import { DEVIATION_ACCESS } from '~/core/deviations/deviation.service';
import { deviationPdf } from '~/core/deviations/deviation-document';

/** The deviation report as PDF; another tenant's id is 404 (printed after the unit of work). */
export const middleware = guard(DEVIATION_ACCESS.read);

export async function loader({ params, context }: Route.LoaderArgs) {
  return fileResponse(await runResource(context, (ctx) => deviationPdf(ctx, params.id)));
}
