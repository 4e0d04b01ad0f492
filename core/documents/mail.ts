import { z } from 'zod';
import type { Ctx } from '~/core/context';
import { PermanentJobError, defineJob } from '~/core/jobs/define-job';
import { enqueueInTransaction } from '~/core/jobs/outbox';
import { mailerFor, isPermanentSmtpError, ZMailMessage } from '~/core/mail/mailer';
import { inlineLogo } from './company';
import { PDF_TYPE } from './file';
import { htmlToPdf } from './pdf';
import { renderDocument } from './render';
import type { DocumentCompany } from './work-order-document';

/*
 * A printed document mailed to a customer (an invoice, a proposal, a work order) is promised by the
 * unit of work that decided it (issue 30 item 1; decision 049): the document's model as it stands at
 * that commit, the recipients, subject and text are a `documents.email` job in the tenant's job
 * outbox, written in that transaction. Once it committed the job prints the PDF on the warm browser
 * and sends it by SMTP, outside any transaction; a relay that is down is retried with backoff, an
 * SMTP 5xx is given up and logged. A rollback leaves no row: no customer holds a document whose
 * number was rolled back and given to another. The model is JSON (it is what the template reads),
 * so the job prints what the commit saw even if the record changes meanwhile.
 */

/** Template files the job may print: letters, digits and dashes (render.ts resolves them under templates/). */
const TEMPLATE = /^[a-z0-9][a-z0-9-]*$/;

const ZDocumentMail = ZMailMessage.pick({ to: true, subject: true }).extend({
  tenantId: z.uuid(),
  text: z.string().max(100_000),
  document: z.object({
    template: z.string().regex(TEMPLATE),
    filename: z
      .string()
      .min(1)
      .max(200)
      .refine((s) => !/[\r\n"\\/]/.test(s), 'plain file name'),
    model: z.looseObject({}),
  }),
  /** What the log line names (`invoiceId`, …): ids only. */
  about: z.record(z.string(), z.string()),
});

type DocumentModel = Parameters<typeof renderDocument>[1] & { company: DocumentCompany };

/** The PDF of a document model, its logo fetched now: only outside a transaction. */
export async function printDocument(template: string, model: DocumentModel): Promise<Buffer> {
  return htmlToPdf(renderDocument(template, await inlineLogo(model)));
}

export const documentMailJob = defineJob({
  id: 'documents.email',
  schema: ZDocumentMail,
  attempts: 5,
  async handler(data, ctx) {
    const body = await printDocument(data.document.template, data.document.model as unknown as DocumentModel);
    try {
      await (
        await mailerFor(data.tenantId)
      ).send({
        to: data.to,
        subject: data.subject,
        text: `${data.text}\n`,
        attachments: [
          { filename: data.document.filename, contentType: PDF_TYPE, contentBase64: body.toString('base64') },
        ],
        tenantId: data.tenantId,
      });
    } catch (err) {
      ctx.log.error({ err, ...data.about }, 'document e-mail failed');
      if (isPermanentSmtpError(err))
        throw new PermanentJobError(`The SMTP server refused the document: ${(err as Error).message}`, { cause: err });
      throw err;
    }
    ctx.log.info({ ...data.about, to: data.to.length }, 'document e-mailed');
  },
});

/**
 * Promises the document's mail in the caller's unit of work: sent once it commits (never when it
 * rolls back), at least once.
 */
export async function promiseDocumentMail(
  ctx: Pick<Ctx, 'trx' | 'tenant'>,
  mail: {
    to: string[];
    subject: string;
    text: string;
    template: string;
    filename: string;
    model: DocumentModel;
    about: Record<string, string>;
  },
): Promise<void> {
  await enqueueInTransaction(ctx.trx, ctx.tenant, documentMailJob, {
    tenantId: ctx.tenant.id,
    to: mail.to,
    subject: mail.subject.replace(/[\r\n]+/g, ' ').slice(0, 500),
    text: mail.text,
    document: {
      template: mail.template,
      filename: mail.filename,
      // the job reads it as JSON: what the template sees is what survives the outbox
      model: JSON.parse(JSON.stringify(mail.model)) as Record<string, unknown>,
    },
    about: mail.about,
  });
}
