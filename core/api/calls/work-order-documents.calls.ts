import {
  emailWorkOrderPdf,
  workOrderPdf,
  workOrderWord,
  ZEmailWorkOrderDocument,
  ZWorkOrderDocument,
  type DocumentFile,
} from '~/core/work-orders/documents.service';
import { asSent, defineCall, Reply, type ApiCall } from '../define-call';

/*
 * Work-order documents (api-calls.md "Work orders"): POST /wo/pdf and /wo/word answer the file
 * itself (Content-Disposition: attachment, the name from the order number); POST /wo/pdf/email
 * mails the PDF. Registered before the work-order calls, so no `/wo/:id` pattern can take them.
 */

const READ = { permission: 'workorders:read' } as const;

/** A file answer: its bytes with type and download name (ASCII name; RFC 5987 form as well). */
export function fileReply(file: DocumentFile): Reply {
  return new Reply(200, file.body, {
    'Content-Type': file.contentType,
    'Content-Disposition': `attachment; filename="${file.filename}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    'Content-Length': String(file.body.length),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
}

export const workOrderDocumentCalls: ApiCall[] = [
  defineCall({
    method: 'POST',
    path: '/wo/pdf',
    access: READ,
    input: asSent(ZWorkOrderDocument),
    summary:
      'The work order as PDF {workOrder (id), templateId (default)} → application/pdf, attachment named from the order number',
    handler: async (ctx, input) => (await workOrderPdf(ctx, input)).map(fileReply),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/word',
    access: READ,
    input: asSent(ZWorkOrderDocument),
    summary: 'The work order as a Word document {workOrder (id), templateId (default)} → .docx attachment',
    handler: async (ctx, input) => (await workOrderWord(ctx, input)).map(fileReply),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/pdf/email',
    access: READ,
    input: asSent(ZEmailWorkOrderDocument),
    summary:
      'E-mails the work order as PDF {workOrder (id), templateId, emailTarget} → {message: EMAIL_SENT_TO, recipient}; needs workorders:edit (history row)',
    handler: (ctx, input) => emailWorkOrderPdf(ctx, input),
  }),
];
