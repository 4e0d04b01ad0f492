import { data, redirect } from 'react-router';
import type { Route } from './+types/invoices.sie';
import { fileResponse } from '~/app/lib/file-response.server';
import { guard, run } from '~/app/lib/guard.server';
import { isAppError } from '~/core/errors/app-error';
import { exportSie } from '~/core/invoicing/sie-export.service';

/**
 * The invoice list's SIE export (issue 15 item 3; GET /api/invoices/sie's web twin):
 * GET ?from=YYYY-MM-DD&to=YYYY-MM-DD[&series=A] downloads the period's final invoices as an SIE 4I
 * file. A refused period goes back to the list with the reason (`sieError`) and what was chosen,
 * so the export form shows the translated message beside the dates.
 */
export const middleware = guard({ permission: 'invoices:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const input = { from: query.get('from') ?? '', to: query.get('to') ?? '', series: query.get('series') ?? '' };
  try {
    return fileResponse(await run(context, (ctx) => exportSie(ctx, input)));
  } catch (e) {
    if (isAppError(e) && (e.status === 400 || e.status === 409)) {
      const reason = Object.values(e.details?.fields ?? {})[0]?.[0] ?? e.code;
      const back = new URLSearchParams({ sieError: reason, sieFrom: input.from, sieTo: input.to });
      if (input.series) back.set('sieSeries', input.series);
      return redirect(`/invoices?${back.toString()}`);
    }
    if (isAppError(e) && e.status < 500) throw data(e.code, { status: e.status });
    throw e;
  }
}
