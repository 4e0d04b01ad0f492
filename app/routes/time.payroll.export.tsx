import { data, redirect } from 'react-router';
import type { Route } from './+types/time.payroll.export';
import { fileResponse } from '~/app/lib/file-response.server';
import { guard, run } from '~/app/lib/guard.server';
import { isAppError } from '~/core/errors/app-error';
import { payrollExport } from '~/core/time-reports/payroll/payroll.service';

/**
 * The payroll page's downloads (issue 17 part 5; GET /api/timereports/payroll/export's web twin):
 * GET ?month=YYYY-MM&format=paxml|csv answers the file. A refusal (the month not locked, a bad
 * month) goes back to the page with the reason in `exportError`, which it shows as an alert.
 */
export const middleware = guard({ permission: 'timereports:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const input = { month: query.get('month') ?? '', format: query.get('format') ?? '' };
  try {
    return fileResponse(await run(context, (ctx) => payrollExport(ctx, input)));
  } catch (e) {
    if (isAppError(e) && (e.status === 400 || e.status === 409)) {
      const reason = Object.values(e.details?.fields ?? {})[0]?.[0] ?? e.code;
      const back = new URLSearchParams({ exportError: reason });
      if (/^\d{4}-\d{2}$/.test(input.month)) back.set('month', input.month);
      return redirect(`/time/payroll?${back.toString()}`);
    }
    if (isAppError(e) && e.status < 500) throw data(e.code, { status: e.status });
    throw e;
  }
}
