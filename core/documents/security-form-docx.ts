import { Document, HeadingLevel, Packer, Paragraph, type Table } from 'docx';
import { formatDate, formatDateTime } from '~/core/i18n/number-format';
import { companyParagraphs, facts, FONT, heading, para, pngRun, text } from './docx';
import { documentTranslator } from './i18n';
import type { SecurityFormDocumentModel } from './security-form-document';

/** A security system's title, starting a new page as in the PDF. */
const pageTitle = (value: string) =>
  new Paragraph({
    heading: HeadingLevel.HEADING_1,
    pageBreakBefore: true,
    spacing: { after: 80 },
    children: [text(value, { bold: true, size: 28 })],
  });

/**
 * The security documentation as a Word document (.docx), page for page what the PDF prints: the
 * object page, one page per security system, the signature at the end.
 */
export async function securityFormToDocx(model: SecurityFormDocumentModel): Promise<Buffer> {
  const t = documentTranslator(model.lang);
  const date = (v: string) => formatDate(v, model.dateFormat);
  const dateTime = (v: string) => formatDateTime(v, { dateFormat: model.dateFormat, country: model.country });
  const objectLine = [model.object.serial, model.object.model].filter(Boolean).join(' · ');

  const children: (Paragraph | Table)[] = [
    ...companyParagraphs(model.company, t),
    new Paragraph({
      heading: HeadingLevel.HEADING_1,
      spacing: { before: 240 },
      children: [text(t('doc.securityForm'), { bold: true, size: 32 })],
    }),
    para(`${t('field.object')}: ${objectLine}`, { bold: true }),
    para(t('doc.printed', { date: dateTime(model.printedAt) }), { size: 16, color: '6B7280' }),
  ];

  if (model.objectPage) {
    children.push(heading(t('sec.objectHeading')));
    children.push(facts(model.objectPage.facts.map((f) => [f.label, f.value])));
    if (model.objectPage.contacts.length) {
      children.push(heading(t('field.contacts')));
      children.push(facts(model.objectPage.contacts.map((c) => [c.name, c.details || '–'])));
    }
  }

  for (const page of model.pages) {
    children.push(pageTitle(page.title));
    if (page.updatedAt)
      children.push(
        para(
          page.updatedBy
            ? t('sec.updatedBy', { date: dateTime(page.updatedAt), name: page.updatedBy })
            : t('sec.updated', { date: dateTime(page.updatedAt) }),
          { size: 16, color: '6B7280' },
        ),
      );
    for (const section of page.sections) {
      children.push(heading(section.title));
      children.push(facts(section.facts.map((f) => [f.label, f.value])));
    }
  }

  children.push(heading(t('signature.heading')));
  const image = pngRun(model.signature.image, 60, 240);
  if (image) children.push(new Paragraph({ children: [image] }));
  else if (model.signature.text) children.push(para(model.signature.text, { size: 24 }));
  else children.push(para('_________________________________________', { color: '6B7280' }));
  children.push(para(`${t('signature.date')}: ${date(model.printedAt)}`, { size: 17, color: '374151' }));

  const doc = new Document({
    creator: model.company.name,
    title: `${t('doc.securityForm')} ${model.object.serial}`,
    styles: { default: { document: { run: { font: FONT, size: 19 } } } },
    sections: [
      {
        properties: { page: { margin: { top: 800, bottom: 900, left: 800, right: 800 } } },
        children,
      },
    ],
  });
  return Packer.toBuffer(doc);
}
