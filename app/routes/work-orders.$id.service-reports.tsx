import { data } from 'react-router';
import type { Route } from './+types/work-orders.$id.service-reports';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { AppError, isAppError } from '~/core/errors/app-error';
import { generateReport, type GeneratedReport } from '~/core/service-reports/service-report-generate';
import {
  getWorkOrderReports,
  lastReport,
  reopenReport,
  saveReport,
  SERVICE_REPORT_ACCESS,
  type ServiceReport,
  type WorkOrderReports,
} from '~/core/service-reports/service-report.service';

/**
 * The order screen's service-report panel (issue 32) loads here and acts here: `save` (one page),
 * `sign` (the signature, locks the report), `reopen`, `last` (the values of the object's last
 * report, for "same as last time") and `generate` (the PDF on the order, mailed with `email`).
 * Answers `{ok: true, …}` or `{code, fields}`.
 */
export const middleware = guard(SERVICE_REPORT_ACCESS.read);

export type ReportsLoaderResult = { data: WorkOrderReports } | { error: string };
export type ReportsActionResult =
  | { ok: true; intent: 'save' | 'sign' | 'reopen'; report: ServiceReport }
  | { ok: true; intent: 'last'; report: ServiceReport | null }
  | { ok: true; intent: 'generate'; generated: GeneratedReport }
  | { ok?: undefined; intent?: string; code: string; fields?: Record<string, string[]> };

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const answer = await run(context, (ctx) => getWorkOrderReports(ctx, { workOrderId: params.id }));
    return data<ReportsLoaderResult>({ data: answer });
  } catch (e) {
    if (isAppError(e) && e.status < 500) return data<ReportsLoaderResult>({ error: 'FAILED_TO_FETCH' }, e.status);
    throw e;
  }
}

function json(form: FormData, name: string): unknown {
  const raw = form.get(name);
  if (raw === null || raw === '') return undefined;
  try {
    return JSON.parse(String(raw));
  } catch {
    throw new AppError('VALIDATION_FAILED', 400, { fields: { [name]: ['ERROR_INVALID_VALUE'] } });
  }
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'save');
  const base = {
    workOrderId: params.id,
    serviceReportId: String(form.get('serviceReportId') ?? ''),
    doorautomaticId: String(form.get('doorautomaticId') ?? '') || null,
  };
  try {
    if (intent === 'save' || intent === 'sign') {
      const page = form.get('page');
      const input = {
        ...base,
        page: page === null || page === '' ? undefined : String(page),
        data: json(form, 'data'),
        emailTargets: json(form, 'emailTargets'),
        signature: json(form, 'signature'),
      };
      const report = await run(context, (ctx) => saveReport(ctx, input, intent === 'sign'));
      return data<ReportsActionResult>({ ok: true, intent, report });
    }
    if (intent === 'reopen') {
      const report = await run(context, (ctx) => reopenReport(ctx, base));
      return data<ReportsActionResult>({ ok: true, intent, report });
    }
    if (intent === 'last') {
      const { report } = await run(context, (ctx) =>
        lastReport(ctx, { ...base, doorautomaticId: base.doorautomaticId ?? undefined }),
      );
      return data<ReportsActionResult>({ ok: true, intent, report });
    }
    if (intent === 'generate') {
      const generated = await run(context, (ctx) =>
        generateReport(ctx, {
          id: params.id,
          reportId: String(form.get('reportId') ?? ''),
          email: form.get('email') === 'true',
          emailTargets: json(form, 'emailTargets'),
        }),
      );
      return data<ReportsActionResult>({ ok: true, intent, generated });
    }
    throw new AppError('VALIDATION_FAILED', 400, { fields: { intent: ['ERROR_INVALID_VALUE'] } });
  } catch (e) {
    return actionError<ReportsActionResult>(e, { intent });
  }
}
