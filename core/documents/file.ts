/** A generated document as it is downloaded: its bytes, type and download name. */
export interface DocumentFile {
  filename: string;
  contentType: string;
  body: Buffer;
}

export const PDF_TYPE = 'application/pdf';
export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const DOCUMENT_CSV_TYPE = 'text/csv; charset=utf-8';

/**
 * A download name `<prefix>-<name>.<extension>` whose name part keeps letters, digits, dot, dash
 * and underscore only (an order number or serial code may hold anything).
 */
export function safeFilename(prefix: string, name: string, extension: string): string {
  const safe = name.replace(/[^\w.-]+/g, '_').replace(/^[._]+/, '') || prefix;
  return `${prefix}-${safe}.${extension}`;
}
