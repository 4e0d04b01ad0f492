import {
  AlignmentType,
  BorderStyle,
  Document,
  HeadingLevel,
  ImageRun,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import { formatDate, formatDateTime } from '~/core/i18n/number-format';
import { documentTranslator, type DocumentT } from './i18n';
import { formatHours, formatMoney, formatQuantity } from './format';
import {
  postalLine,
  type DocumentChecklistItem,
  type DocumentCompany,
  type WorkOrderDocumentModel,
} from './work-order-document';

export const FONT = 'Arial';

export const text = (value: string, options: { bold?: boolean; size?: number; color?: string } = {}) =>
  new TextRun({ text: value, font: FONT, size: options.size ?? 19, bold: options.bold, color: options.color });

/** A paragraph; line breaks in the value become breaks in Word. */
export function para(value: string, options: { bold?: boolean; size?: number; color?: string; align?: 'right' } = {}) {
  const lines = value.split(/\r?\n/);
  return new Paragraph({
    alignment: options.align === 'right' ? AlignmentType.RIGHT : undefined,
    children: lines.map((line, i) =>
      i === 0
        ? text(line, options)
        : new TextRun({ text: line, break: 1, font: FONT, size: options.size ?? 19, bold: options.bold }),
    ),
  });
}

export const heading = (value: string) =>
  new Paragraph({
    heading: HeadingLevel.HEADING_2,
    spacing: { before: 240, after: 80 },
    children: [text(value, { bold: true, size: 22 })],
  });

const NO_BORDERS = {
  top: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
  bottom: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
  left: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
  right: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
  insideHorizontal: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
  insideVertical: { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' },
};

function cell(value: string, options: { bold?: boolean; right?: boolean; width?: number; shade?: boolean } = {}) {
  return new TableCell({
    width: options.width ? { size: options.width, type: WidthType.PERCENTAGE } : undefined,
    shading: options.shade ? { fill: 'F3F4F6' } : undefined,
    children: [para(value, { bold: options.bold, align: options.right ? 'right' : undefined, size: 18 })],
  });
}

/** A two-column table of label → value, leaving out empty values. */
export function facts(rows: [string, string | null | undefined][]): Table {
  const kept = rows.filter((r): r is [string, string] => Boolean(r[1]));
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    borders: NO_BORDERS,
    rows: kept.map(
      ([label, value]) =>
        new TableRow({ children: [cell(label, { width: 30 }), cell(value, { width: 70, bold: false })] }),
    ),
  });
}

function grid(head: { label: string; right?: boolean; width: number }[], body: string[][], foot?: string[]): Table {
  const row = (values: string[], bold: boolean, shade = false) =>
    new TableRow({
      tableHeader: shade,
      children: values.map((v, i) => cell(v, { bold, right: head[i]?.right, width: head[i]?.width, shade })),
    });
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: [
      row(
        head.map((h) => h.label),
        true,
        true,
      ),
      ...body.map((values) => row(values, false)),
      ...(foot ? [row(foot, true)] : []),
    ],
  });
}

/** Width and height of a PNG from its header, for the logo's size in Word. */
export function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || bytes.readUInt32BE(0) !== 0x89504e47) return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A PNG data: URL as an image of `height` pixels (its width by its ratio, at most `maxWidth`); null for anything else. */
export function pngRun(dataUrl: string | null, height: number, maxWidth: number): ImageRun | null {
  const match = dataUrl ? /^data:image\/png;base64,(.+)$/.exec(dataUrl) : null;
  if (!match) return null;
  const bytes = Buffer.from(match[1]!, 'base64');
  const size = pngSize(bytes);
  if (!size || !size.width || !size.height) return null;
  const width = Math.min(maxWidth, Math.round((size.width / size.height) * height));
  return new ImageRun({ type: 'png', data: bytes, transformation: { width, height } });
}

export const logoRun = (dataUrl: string | null): ImageRun | null => pngRun(dataUrl, 48, 200);

/** The company block every document starts with: logo, name, address and numbers. */
export function companyParagraphs(company: DocumentCompany, t: DocumentT): Paragraph[] {
  const logo = logoRun(company.logo);
  const lines = [
    company.address,
    postalLine(company.postIndex, company.city),
    company.companyNr ? `${t('company.orgNr')}: ${company.companyNr}` : null,
    company.vatRegistrationNr ? `${t('company.vatNr')}: ${company.vatRegistrationNr}` : null,
    company.bgAccount ? `${t('company.bgAccount')}: ${company.bgAccount}` : null,
    company.email ? `${t('company.email')}: ${company.email}` : null,
    company.phone ? `${t('company.phone')}: ${company.phone}` : null,
  ].filter((l): l is string => Boolean(l));
  return [
    ...(logo ? [new Paragraph({ children: [logo] })] : []),
    para(company.name, { bold: true, size: 22 }),
    ...lines.map((l) => para(l, { size: 17, color: '374151' })),
  ];
}

/** A checklist item as printed: ✓/✗ for a tick, else its number or text (– when not filled in). */
function checklistValue(item: DocumentChecklistItem): string {
  if (item.isCheck) return item.checked ? '✓' : '✗';
  return (item.isNumber ? formatQuantity(item.value) : item.value) || '–';
}

/**
 * The work order as a Word document (.docx) with the same content as the PDF template: company,
 * order facts, customer and object, texts, the article table with its total, the time table, the
 * filled checklists and the customer's signature.
 */
export async function workOrderToDocx(model: WorkOrderDocumentModel): Promise<Buffer> {
  const t = documentTranslator(model.lang);
  const { company, workOrder: wo, customer, object } = model;
  const date = (v: string | null) => (v ? formatDate(v, model.dateFormat) : '');
  const dateTime = (v: string | null) =>
    v ? formatDateTime(v, { dateFormat: model.dateFormat, country: model.country }) : '';
  const joined = (...parts: (string | null)[]) => parts.filter(Boolean).join(', ');

  const children: (Paragraph | Table)[] = [
    ...companyParagraphs(company, t),
    new Paragraph({
      heading: HeadingLevel.HEADING_1,
      spacing: { before: 240 },
      children: [text(`${t('doc.workOrder')} ${wo.number}`, { bold: true, size: 32 })],
    }),
    para(t('doc.printed', { date: dateTime(model.printedAt) }), { size: 16, color: '6B7280' }),
    heading(wo.title),
    facts([
      [t('field.number'), wo.number],
      [t('field.status'), wo.status],
      [t('field.workType'), wo.workType],
      [t('field.priority'), t(wo.priorityKey)],
      [t('field.intake'), date(wo.intakeTs)],
      [t('field.plannedStart'), dateTime(wo.plannedStart)],
      [t('field.plannedEnd'), dateTime(wo.plannedEnd)],
      [t('field.closedAt'), date(wo.closedAt)],
      [t('field.assignees'), wo.assignees.join(', ')],
      [t('field.customerOrderNumber'), wo.customerOrderNumber],
      [t('field.invoiceMarking'), wo.invoiceMarking],
      [t('field.customer'), customer?.name],
      [t('field.customerNumber'), customer?.number],
      [
        t('field.customerAddress'),
        customer ? joined(customer.street, postalLine(customer.postIndex, customer.city)) : null,
      ],
      [t('field.object'), object ? `${object.serial}${object.model ? ` (${object.model})` : ''}` : null],
      [t('field.contact'), joined(wo.contactName, wo.contactPhone, wo.contactEmail)],
      [t('field.onSiteContact'), joined(wo.onSiteContactName, wo.onSiteContactPhone)],
      [t('field.address'), joined(wo.street, postalLine(wo.postIndex, wo.city))],
    ]),
  ];
  if (wo.description) children.push(heading(t('field.description')), para(wo.description));
  if (wo.summary) children.push(heading(t('field.summary')), para(wo.summary));

  children.push(heading(t('articles.heading')));
  if (model.articles.length)
    children.push(
      grid(
        [
          { label: t('articles.article'), width: 40 },
          { label: t('articles.amount'), right: true, width: 10 },
          { label: t('articles.unit'), width: 8 },
          { label: t('articles.price'), right: true, width: 14 },
          { label: t('articles.discount'), right: true, width: 12 },
          { label: t('articles.total'), right: true, width: 16 },
        ],
        model.articles.map((a) => [
          a.description ? `${a.title}\n${a.description}` : a.title,
          formatQuantity(a.amount),
          a.unit ?? '',
          formatMoney(a.price),
          a.discount,
          formatMoney(a.total),
        ]),
        [t('articles.sum'), '', '', '', '', `${formatMoney(model.articlesTotal)} ${model.currency}`],
      ),
    );
  else children.push(para(t('articles.none'), { color: '6B7280' }));

  children.push(heading(t('time.heading')));
  if (model.time.length)
    children.push(
      grid(
        [
          { label: t('time.person'), width: 34 },
          { label: t('time.date'), width: 18 },
          { label: t('time.hours'), right: true, width: 16 },
          { label: t('time.travel'), right: true, width: 16 },
          { label: t('time.distance'), right: true, width: 16 },
        ],
        model.time.map((r) => [
          r.person,
          date(r.date),
          formatHours(r.workMinutes),
          formatHours(r.travelMinutes),
          formatQuantity(r.distanceKm),
        ]),
        [
          t('time.total'),
          '',
          formatHours(model.timeTotals.workMinutes),
          formatHours(model.timeTotals.travelMinutes),
          formatQuantity(model.timeTotals.distanceKm),
        ],
      ),
    );
  else children.push(para(t('time.none'), { color: '6B7280' }));

  // the checklists filled in on the order: each item with ✓/✗, its text or its number
  for (const checklist of model.checklists) {
    children.push(heading(checklist.title));
    children.push(facts(checklist.items.map((item) => [item.label, checklistValue(item)])));
  }

  // the customer's signature (module workorder_signature): the drawing, the printed name, the technician
  if (model.signature) {
    children.push(heading(t('sr.customerSignature')));
    const image = pngRun(model.signature.image, 60, 240);
    if (image) children.push(new Paragraph({ children: [image] }));
    children.push(para(model.signature.name, { size: 22 }));
    children.push(para(dateTime(model.signature.signedAt), { size: 17, color: '374151' }));
    children.push(heading(t('sr.technician')));
    children.push(para(model.signature.technicianName ?? '', { size: 22 }));
  }

  const doc = new Document({
    creator: company.name,
    title: `${t('doc.workOrder')} ${wo.number}`,
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
