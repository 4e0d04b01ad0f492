import { data, redirect } from 'react-router';
import type { Route } from './+types/reports.export';
import { fileResponse } from '~/app/lib/file-response.server';
import { guard, run } from '~/app/lib/guard.server';
import { isAppError } from '~/core/errors/app-error';
import { REPORT_KINDS, type ReportKind } from '~/core/reports/report-constants';
import { exportReport } from '~/core/reports/report-export';

/**
 * A report as a file (GET /api/reports/{report}/export's web twin): GET
 * ?report=closed-work-orders|agreement-invoices|time&format=csv|xlsx&… with the page's query. A
 * refused export (too many rows, a bad period) goes back to the report with the reason
 * (`exportError`) and the same filters, so the page shows the translated message.
 */
export const middleware = guard({ permission: 'reports:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const report = params.get('report') ?? '';
  if (!(REPORT_KINDS as readonly string[]).includes(report)) throw data('NOT_FOUND', { status: 404 });
  const input = Object.fromEntries(params);
  try {
    return fileResponse(await run(context, (ctx) => exportReport(ctx, report as ReportKind, input)));
  } catch (e) {
    if (isAppError(e) && (e.status === 400 || e.status === 409)) {
      const back = new URLSearchParams(params);
      back.delete('report');
      back.delete('format');
      back.set(
        'exportError',
        e.code === 'VALIDATION_FAILED' ? (Object.values(e.details?.fields ?? {})[0]?.[0] ?? e.code) : e.code,
      );
      return redirect(`/reports?${back}`);
    }
    if (isAppError(e) && e.status < 500) throw data(e.code, { status: e.status });
    throw e;
  }
}
