import { data } from 'react-router';
import type { Route } from './+types/proposals.$id.document';
import { actionError } from '~/app/lib/action-error.server';
import { fileResponse } from '~/app/lib/file-response.server';
import { guard, run } from '~/app/lib/guard.server';
import { isAppError } from '~/core/errors/app-error';
import { emailProposalPdf, proposalPdf, proposalWord } from '~/core/proposals/proposal-documents.service';

/**
 * The proposal screen's documents menu: GET ?format=pdf|docx[&templateId=] downloads the proposal
 * as a file (attachment, named from its number); POST {emailTarget, templateId} e-mails the PDF and
 * answers `{ok, message: 'EMAIL_SENT_TO', recipient}` or the refusal's code and field errors.
 */
export const middleware = guard({ permission: 'proposal:read', module: 'crm' });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const format = query.get('format') === 'docx' ? 'docx' : query.get('format') === 'pdf' ? 'pdf' : null;
  if (!format) throw data('unknown format', { status: 400 });
  const input = { proposal: params.id, templateId: query.get('templateId') || undefined };
  try {
    const file = await run(context, (ctx) => (format === 'pdf' ? proposalPdf(ctx, input) : proposalWord(ctx, input)));
    return fileResponse(file);
  } catch (e) {
    if (isAppError(e) && e.status < 500) throw data(e.code, { status: e.status });
    throw e;
  }
}

export type ProposalEmailResult =
  | { ok: true; message: 'EMAIL_SENT_TO'; recipient: string }
  | { ok?: undefined; code: string; fields?: Record<string, string[]> };

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    const sent = await run(context, (ctx) =>
      emailProposalPdf(ctx, {
        proposal: params.id,
        templateId: form.get('templateId') || undefined,
        emailTarget: form.get('emailTarget') ?? '',
      }),
    );
    return data<ProposalEmailResult>({ ok: true, message: sent.message, recipient: sent.recipient });
  } catch (e) {
    if (isAppError(e) && e.code === 'FAILED_TO_SEND_EMAIL')
      return data<ProposalEmailResult>({ code: e.code }, { status: e.status });
    return actionError(e);
  }
}
