import { data, redirect } from 'react-router';
import type { Route } from './+types/invoices.$id.document';
import { documentDownload, documentEmail } from '~/app/lib/document-route.server';
import { fileResponse } from '~/app/lib/file-response.server';
import { guard, run } from '~/app/lib/guard.server';
import { AppError, isAppError } from '~/core/errors/app-error';
import { emailInvoice, invoicePdf } from '~/core/invoicing/invoice-documents.service';
import { invoiceFileOf } from '~/core/invoicing/invoice-file.service';
import { peppolInvoiceOf } from '~/core/invoicing/peppol.service';

/**
 * The invoice screen's documents (POST /invoice/apply's pdf, email and visma-xml):
 * GET ?format=pdf downloads the PDF (it only reads: a draft prints as a draft);
 * POST {emailTarget} e-mails it (a draft is finalized first) and answers
 * `{ok, message: 'EMAIL_SENT_TO', recipient}` or the refusal, as the shared e-mail dialog expects;
 * POST {type: 'visma-xml'} (a plain form post, so it is no link another site can follow) downloads
 * the ERP's file (a draft is finalized first), or goes back to the invoice with the refusal's code;
 * POST {type: 'peppol'} likewise downloads the Peppol e-invoice of a finalized invoice.
 */
export const middleware = guard({ permission: 'invoices:read' });

export function loader({ request, params, context }: Route.LoaderArgs) {
  return documentDownload(request, context, (ctx, format) => {
    if (format !== 'pdf') throw new AppError('ERROR_INVALID_VALUE', 400);
    return invoicePdf(ctx, { invoiceId: params.id });
  });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.clone().formData();
  const type = form.get('type');
  if (type !== 'visma-xml' && type !== 'peppol')
    return documentEmail(request, context, (ctx, input) =>
      emailInvoice(ctx, { invoiceId: params.id, emailTarget: input.emailTarget }),
    );
  try {
    return fileResponse(
      await run(context, (ctx) =>
        type === 'peppol' ? peppolInvoiceOf(ctx, params.id) : invoiceFileOf(ctx, params.id),
      ),
    );
  } catch (e) {
    if (isAppError(e) && e.status === 404) throw data(e.code, { status: 404 });
    if (isAppError(e) && e.status < 500) {
      // a draft that cannot be finalized says why in its first field's message
      const notice = Object.values(e.details?.fields ?? {})[0]?.[0] ?? e.code;
      return redirect(`/invoices/${encodeURIComponent(params.id)}?notice=${encodeURIComponent(notice)}`);
    }
    throw e;
  }
}
