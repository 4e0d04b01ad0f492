import { data } from 'react-router';
import type { Route } from './+types/sales.$id.document';
import { fileResponse } from '~/app/lib/file-response.server';
import { guard, run } from '~/app/lib/guard.server';
import { isAppError } from '~/core/errors/app-error';
import { salesOrderPdf, salesOrderWord } from '~/core/proposals/proposal-documents.service';

/**
 * The sales-order screen's documents menu: GET ?format=pdf|docx[&templateId=] downloads the order
 * as a file (attachment, named from its number).
 */
export const middleware = guard({ permission: 'salesorder:read', module: 'crm' });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const format = query.get('format') === 'docx' ? 'docx' : query.get('format') === 'pdf' ? 'pdf' : null;
  if (!format) throw data('unknown format', { status: 400 });
  const input = { salesOrder: params.id, templateId: query.get('templateId') || undefined };
  try {
    const file = await run(context, (ctx) =>
      format === 'pdf' ? salesOrderPdf(ctx, input) : salesOrderWord(ctx, input),
    );
    return fileResponse(file);
  } catch (e) {
    if (isAppError(e) && e.status < 500) throw data(e.code, { status: e.status });
    throw e;
  }
}
