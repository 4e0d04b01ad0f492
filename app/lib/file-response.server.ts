import type { DocumentFile } from '~/core/documents/file';

/** A document as a download: attachment, named, never cached, never sniffed. */
export function fileResponse(file: DocumentFile): Response {
  return new Response(new Uint8Array(file.body), {
    headers: {
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.filename}"`,
      'Content-Length': String(file.body.length),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
