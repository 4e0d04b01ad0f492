/**
 * The text a person would read in a PDF, page by page, through pdf.js (the legacy build runs in
 * Node; the same library the file previews use in the browser). Whitespace is collapsed to single
 * spaces, so "2 310,75" reads the same whatever the PDF's text runs are.
 */
export async function pdfText(pdf: Buffer): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: new Uint8Array(pdf), useSystemFonts: false });
  try {
    const doc = await task.promise;
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? `${item.str}${item.hasEOL ? ' ' : ''}` : '')).join(''));
    }
    return pages.join(' ').replace(/\s+/g, ' ');
  } finally {
    await task.destroy();
  }
}
