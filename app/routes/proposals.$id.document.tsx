import type { Route } from './+types/proposals.$id.document';
import { documentDownload, documentEmail } from '~/app/lib/document-route.server';
import { guard } from '~/app/lib/guard.server';
import { emailProposalPdf, proposalPdf, proposalWord } from '~/core/proposals/proposal-documents.service';

/**
 * The proposal screen's documents menu: GET ?format=pdf|docx[&templateId=] downloads the proposal
 * as a file (attachment, named from its number); POST {emailTarget, templateId} e-mails the PDF and
 * answers `{ok, message: 'EMAIL_SENT_TO', recipient}` or the refusal's code and field errors.
 */
export const middleware = guard({ permission: 'proposal:read', module: 'crm' });

export function loader({ request, params, context }: Route.LoaderArgs) {
  return documentDownload(request, context, (ctx, format, templateId) =>
    format === 'pdf'
      ? proposalPdf(ctx, { proposal: params.id, templateId })
      : proposalWord(ctx, { proposal: params.id, templateId }),
  );
}

export function action({ request, params, context }: Route.ActionArgs) {
  return documentEmail(request, context, (ctx, input) => emailProposalPdf(ctx, { proposal: params.id, ...input }));
}
