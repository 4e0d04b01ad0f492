import { data, type RouterContextProvider } from 'react-router';
import { actionError } from '~/app/lib/action-error.server';
import { fileResponse } from '~/app/lib/file-response.server';
import { run, runResource } from '~/app/lib/guard.server';
import type { Ctx } from '~/core/context';
import type { AfterCommitWork } from '~/core/db/with-tenant';
import type { DocumentFile } from '~/core/documents/file';

/** What a documents menu's e-mail answers: where it went, or the refusal. */
export type DocumentEmailResult =
  | { ok: true; message: 'EMAIL_SENT_TO'; recipient: string }
  | { ok?: undefined; code: string; fields?: Record<string, string[]> };

/**
 * A documents menu's download (GET ?format=pdf|docx[&templateId=]): the file as an attachment, or
 * the refusal's status (another tenant's id is a 404, a missing permission a 403).
 */
export async function documentDownload(
  request: Request,
  context: Readonly<RouterContextProvider>,
  make: (
    ctx: Ctx,
    format: 'pdf' | 'docx',
    templateId: string | undefined,
  ) => Promise<DocumentFile | AfterCommitWork<DocumentFile>>,
): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const format = query.get('format') === 'docx' ? 'docx' : query.get('format') === 'pdf' ? 'pdf' : null;
  if (!format) throw data('unknown format', { status: 400 });
  return fileResponse(await runResource(context, (ctx) => make(ctx, format, query.get('templateId') || undefined)));
}

/** A documents menu's e-mail (POST {emailTarget, templateId}): the PDF sent, or why not. */
export async function documentEmail(
  request: Request,
  context: Readonly<RouterContextProvider>,
  send: (
    ctx: Ctx,
    input: { templateId: FormDataEntryValue | undefined; emailTarget: FormDataEntryValue },
  ) => Promise<{ message: 'EMAIL_SENT_TO'; recipient: string }>,
) {
  const form = await request.formData();
  try {
    const sent = await run(context, (ctx) =>
      send(ctx, { templateId: form.get('templateId') || undefined, emailTarget: form.get('emailTarget') ?? '' }),
    );
    return data<DocumentEmailResult>({ ok: true, message: sent.message, recipient: sent.recipient });
  } catch (e) {
    return actionError<DocumentEmailResult>(e);
  }
}
