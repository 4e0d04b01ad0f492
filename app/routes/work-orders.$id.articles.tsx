import { data } from 'react-router';
import type { Route } from './+types/work-orders.$id.articles';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { AppError } from '~/core/errors/app-error';
import { saveWorkOrderArticles, type ArticlesPanelData } from '~/core/work-orders/articles.service';

/**
 * The order screen's articles panel saves here: `rows` is the panel's rows as JSON (the same shape
 * as PUT /api/wo/{id}/articles). Answers `{ok: true, data}` with the saved rows and totals, or
 * `{code, fields}` (field keys such as `rows.2.amount`).
 */
export const middleware = guard({ permission: 'workorders:report_articles' });

export type ArticlesActionResult =
  { ok: true; data: ArticlesPanelData } | { ok?: undefined; code: string; fields?: Record<string, string[]> };

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    let rows: unknown;
    try {
      rows = JSON.parse(String(form.get('rows') ?? '[]'));
    } catch {
      throw new AppError('VALIDATION_FAILED', 400, { fields: { rows: ['ERROR_INVALID_VALUE'] } });
    }
    const saved = await run(context, (ctx) => saveWorkOrderArticles(ctx, { workOrderId: params.id, rows }));
    return data<ArticlesActionResult>({ ok: true, data: saved });
  } catch (e) {
    return actionError(e);
  }
}
