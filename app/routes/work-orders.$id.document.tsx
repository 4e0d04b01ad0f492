import type { Route } from './+types/work-orders.$id.document';
import { documentDownload, documentEmail } from '~/app/lib/document-route.server';
import { guard } from '~/app/lib/guard.server';
import { emailWorkOrderPdf, workOrderPdf, workOrderWord } from '~/core/work-orders/documents.service';

/**
 * The order screen's documents menu: GET ?format=pdf|docx[&templateId=] downloads the order as a
 * file (attachment, named from the order number); POST {emailTarget, templateId} e-mails the PDF
 * and answers `{ok, message: 'EMAIL_SENT_TO', recipient}` or the refusal's code and field errors.
 */
export const middleware = guard({ permission: 'workorders:read' });

export function loader({ request, params, context }: Route.LoaderArgs) {
  return documentDownload(request, context, (ctx, format, templateId) =>
    format === 'pdf'
      ? workOrderPdf(ctx, { workOrder: params.id, templateId })
      : workOrderWord(ctx, { workOrder: params.id, templateId }),
  );
}

export function action({ request, params, context }: Route.ActionArgs) {
  return documentEmail(request, context, (ctx, input) => emailWorkOrderPdf(ctx, { workOrder: params.id, ...input }));
}
