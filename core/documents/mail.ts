import { AppError } from '~/core/errors/app-error';
import { logger } from '~/core/log/logger';
import { getMailer } from '~/core/mail/mailer';
import type { DocumentFile } from './file';

/**
 * Mails a printed document (a proposal's or an invoice's PDF) as an attachment, before the answer:
 * a relay that refuses is 502 FAILED_TO_SEND_EMAIL, which rolls back the caller's unit of work (its
 * history row, an invoice's finalizing). The subject is kept to one line.
 */
export async function sendDocumentMail(input: {
  to: string[];
  subject: string;
  text: string;
  file: DocumentFile;
  tenantId: string;
  /** What the log line names when the relay refuses. */
  about: Record<string, unknown>;
}): Promise<void> {
  try {
    await getMailer().send({
      to: input.to,
      subject: input.subject.replace(/[\r\n]+/g, ' ').slice(0, 500),
      text: `${input.text}\n`,
      attachments: [
        {
          filename: input.file.filename,
          contentType: input.file.contentType,
          contentBase64: input.file.body.toString('base64'),
        },
      ],
      tenantId: input.tenantId,
    });
  } catch (err) {
    logger.error({ err, ...input.about }, 'document e-mail failed');
    throw new AppError('FAILED_TO_SEND_EMAIL', 502);
  }
}
