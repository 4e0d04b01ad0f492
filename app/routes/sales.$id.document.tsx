import type { Route } from './+types/sales.$id.document';
import { documentDownload } from '~/app/lib/document-route.server';
import { guard } from '~/app/lib/guard.server';
import { salesOrderPdf, salesOrderWord } from '~/core/proposals/proposal-documents.service';

/**
 * The sales-order screen's documents menu: GET ?format=pdf|docx[&templateId=] downloads the order
 * as a file (attachment, named from its number).
 */
export const middleware = guard({ permission: 'salesorder:read', module: 'crm' });

export function loader({ request, params, context }: Route.LoaderArgs) {
  return documentDownload(request, context, (ctx, format, templateId) =>
    format === 'pdf'
      ? salesOrderPdf(ctx, { salesOrder: params.id, templateId })
      : salesOrderWord(ctx, { salesOrder: params.id, templateId }),
  );
}
