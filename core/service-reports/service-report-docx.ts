import { Document, HeadingLevel, Packer, Paragraph, type Table } from 'docx';
import { companyParagraphs, facts, FONT, heading, para, pngRun, text } from '~/core/documents/docx';
import { documentTranslator } from '~/core/documents/i18n';
import { formatDateTime } from '~/core/i18n/number-format';
import type { ServiceReportDocumentModel } from './service-report-document';

/**
 * A signed service report as a Word document (.docx), as the PDF prints it: the order and object,
 * each page's fields with out-of-range and "no" answers marked, and the signatures. Photos are
 * named (Word takes no WebP thumbnails); the PDF shows them.
 */
export async function serviceReportToDocx(model: ServiceReportDocumentModel): Promise<Buffer> {
  const t = documentTranslator(model.lang);
  const dateTime = (v: string) => formatDateTime(v, { dateFormat: model.dateFormat, country: model.country });
  const children: (Paragraph | Table)[] = [
    ...companyParagraphs(model.company, t),
    new Paragraph({
      heading: HeadingLevel.HEADING_1,
      spacing: { before: 240 },
      children: [text(model.title, { bold: true, size: 32 })],
    }),
    para(`${t('field.number')} ${model.workOrder.number} · ${model.workOrder.title}`, { bold: true }),
    para(t('doc.printed', { date: dateTime(model.printedAt) }), { size: 16, color: '6B7280' }),
  ];
  if (model.facts.length) children.push(facts(model.facts.map((f) => [f.label, f.value])));
  if (model.flaggedCount)
    children.push(para(t('sr.flaggedSummary', { count: model.flaggedCount }), { bold: true, color: 'B91C1C' }));
  for (const page of model.pages) {
    children.push(heading(page.title));
    const rows: [string, string][] = [];
    for (const row of page.rows) {
      if (row.isHeading) {
        if (rows.length) children.push(facts(rows.splice(0)));
        children.push(para(row.label, { bold: true }));
        continue;
      }
      const photos = row.photos.map((p) => p.name).join(', ');
      const value = [row.value, photos].filter(Boolean).join(' ');
      rows.push([row.label, row.flagged ? `${value} — ${row.flagText}` : value]);
    }
    if (rows.length) children.push(facts(rows));
  }
  children.push(heading(t('sr.customerSignature')));
  const image = pngRun(model.signature.image, 60, 240);
  if (image) children.push(new Paragraph({ children: [image] }));
  children.push(para(model.signature.name, { size: 22 }));
  children.push(para(dateTime(model.signature.signedAt), { size: 17, color: '374151' }));
  children.push(heading(t('sr.technician')));
  children.push(para(model.signature.technicianName ?? '', { size: 22 }));
  const doc = new Document({
    creator: model.company.name,
    title: `${model.title} ${model.workOrder.number}`,
    styles: { default: { document: { run: { font: FONT, size: 19 } } } },
    sections: [{ properties: { page: { margin: { top: 800, bottom: 900, left: 800, right: 800 } } }, children }],
  });
  return Packer.toBuffer(doc);
}
