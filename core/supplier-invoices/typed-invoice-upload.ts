import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { AppError } from '~/core/errors/app-error';
import { receiveFiles, type Received } from '~/core/files/receive';
import type { Tenant } from '~/core/tenancy/tenant';

/*
 * A PDF invoice typed by a person, sent as one multipart request (the typing screen, or the API):
 * the PDF as the part `pdf`, the typed fields as the JSON field `invoice`. The PDF streams into the
 * file store before the unit of work (createManualInvoice then records it as the invoice's file);
 * a request that is not multipart is the JSON call, with nothing received.
 */

/** The typed fields' JSON: a 500-row invoice fits. */
const MAX_INVOICE_FIELD = 200_000;

export async function receiveTypedInvoice(
  body: Readable,
  headers: Record<string, string | string[] | undefined>,
  tenant: Tenant,
): Promise<Received | null> {
  if (!String(headers['content-type'] ?? '').startsWith('multipart/form-data')) return null;
  return receiveFiles(body, headers, {
    prefix: tenant.schemaName,
    maxFileBytes: tenant.config.files.maxUploadMb * 1024 * 1024,
    maxFiles: 1,
    maxFieldBytes: MAX_INVOICE_FIELD,
  });
}

/** The typing screen's request (a web Request of the route's action), read the same way. */
export function receiveTypedInvoiceRequest(request: Request, tenant: Tenant): Promise<Received | null> {
  if (!request.body) return Promise.resolve(null);
  return receiveTypedInvoice(
    Readable.fromWeb(request.body as unknown as NodeReadableStream),
    Object.fromEntries(request.headers),
    tenant,
  );
}

/** The typed fields of a multipart request (`invoice`, JSON), or the JSON call's input as it is. */
export function typedInvoiceFields(input: unknown, received: Received | null): unknown {
  if (!received) return input;
  try {
    return JSON.parse(received.fields.invoice ?? '');
  } catch {
    throw new AppError('VALIDATION_FAILED', 400, { fields: { invoice: ['ERROR_INVALID_VALUE'] } });
  }
}
