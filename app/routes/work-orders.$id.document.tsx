import { data } from 'react-router';
import type { Route } from './+types/work-orders.$id.document';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { isAppError } from '~/core/errors/app-error';
import { emailWorkOrderPdf, workOrderPdf, workOrderWord } from '~/core/work-orders/documents.service';
import { fileResponse } from '~/app/lib/file-response.server';

/**
 * The order screen's documents menu: GET ?format=pdf|docx[&templateId=] downloads the order as a
 * file (attachment, named from the order number); POST {emailTarget, templateId} e-mails the PDF
 * and answers `{ok, message: 'EMAIL_SENT_TO', recipient}` or the refusal's code and field errors.
 */
export const middleware = guard({ permission: 'workorders:read' });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const format = query.get('format') === 'docx' ? 'docx' : query.get('format') === 'pdf' ? 'pdf' : null;
  if (!format) throw data('unknown format', { status: 400 });
  const input = { workOrder: params.id, templateId: query.get('templateId') || undefined };
  try {
    const file = await run(context, (ctx) => (format === 'pdf' ? workOrderPdf(ctx, input) : workOrderWord(ctx, input)));
    return fileResponse(file);
  } catch (e) {
    if (isAppError(e) && e.status < 500) throw data(e.code, { status: e.status });
    throw e;
  }
}

export type DocumentEmailResult =
  | { ok: true; message: 'EMAIL_SENT_TO'; recipient: string }
  | { ok?: undefined; code: string; fields?: Record<string, string[]> };

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    const sent = await run(context, (ctx) =>
      emailWorkOrderPdf(ctx, {
        workOrder: params.id,
        templateId: form.get('templateId') || undefined,
        emailTarget: form.get('emailTarget') ?? '',
      }),
    );
    return data<DocumentEmailResult>({ ok: true, ...sent });
  } catch (e) {
    if (isAppError(e) && e.code === 'FAILED_TO_SEND_EMAIL')
      return data<DocumentEmailResult>({ code: e.code }, { status: e.status });
    return actionError(e);
  }
}
