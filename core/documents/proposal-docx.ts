import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, WidthType } from 'docx';
import { formatDate, formatDateTime } from '~/core/i18n/number-format';
import { companyParagraphs, facts, FONT, heading, para, text } from './docx';
import { formatMoney, formatQuantity } from './format';
import { documentTranslator } from './i18n';
import type { ProposalDocumentModel } from './proposal-document';
import { postalLine } from './work-order-document';

interface Column {
  label: string;
  right?: boolean;
  width: number;
}

/** One cell; `span` columns wide. Text only, so nothing a user typed can become markup. */
function cell(value: string, column: Column | undefined, options: { bold?: boolean; shade?: boolean; span?: number }) {
  return new TableCell({
    width: column && !options.span ? { size: column.width, type: WidthType.PERCENTAGE } : undefined,
    columnSpan: options.span,
    shading: options.shade ? { fill: 'F3F4F6' } : undefined,
    children: [para(value, { bold: options.bold, align: column?.right ? 'right' : undefined, size: 18 })],
  });
}

/**
 * The rows table: article rows with their sales figures, comment rows as a line of text across the
 * table, summary rows with their subtotal, and the totals; the monthly columns when the tenant's
 * monthly-price setting is on. The model holds no purchase prices, so none can print.
 */
function rowsTable(model: ProposalDocumentModel, t: (key: string) => string): Table {
  const monthly = model.showMonthly;
  const columns: Column[] = [
    { label: t('articles.article'), width: monthly ? 30 : 40 },
    { label: t('articles.amount'), right: true, width: 8 },
    { label: t('articles.unit'), width: 7 },
    { label: t('articles.price'), right: true, width: monthly ? 11 : 15 },
    { label: t('articles.discount'), right: true, width: monthly ? 9 : 12 },
    { label: t('articles.total'), right: true, width: monthly ? 11 : 18 },
    ...(monthly
      ? [
          { label: t('rows.monthlyPrice'), right: true, width: 12 },
          { label: t('rows.monthlyTotal'), right: true, width: 12 },
        ]
      : []),
  ];
  const all = columns.length;
  const line = (cells: TableCell[], header = false) => new TableRow({ tableHeader: header, children: cells });
  const body = model.rows.map((r) => {
    if (r.isComment) return line([cell(r.title ?? '', columns[0], { span: all })]);
    if (r.isSummary)
      return line([
        cell(r.title ?? t('rows.subtotal'), columns[0], { bold: true, span: 5 }),
        cell(formatMoney(r.subtotal), columns[5], { bold: true }),
        ...(monthly
          ? [cell('', columns[6], {}), cell(formatMoney(r.monthlySubtotal), columns[7], { bold: true })]
          : []),
      ]);
    return line([
      cell(r.description ? `${r.title ?? ''}\n${r.description}` : (r.title ?? ''), columns[0], {}),
      cell(formatQuantity(r.amount), columns[1], {}),
      cell(r.unit ?? '', columns[2], {}),
      cell(formatMoney(r.price), columns[3], {}),
      cell(r.discount, columns[4], {}),
      cell(formatMoney(r.total), columns[5], {}),
      ...(monthly
        ? [
            cell(
              r.monthlyDiscount
                ? `${formatMoney(r.monthlyPrice)}\n${t('articles.discount')} ${r.monthlyDiscount}`
                : formatMoney(r.monthlyPrice),
              columns[6],
              {},
            ),
            cell(formatMoney(r.monthlyTotal), columns[7], {}),
          ]
        : []),
    ]);
  });
  const foot = [
    line([
      cell(t('articles.sum'), columns[0], { bold: true, span: 5 }),
      cell(`${formatMoney(model.total)} ${model.currency}`, columns[5], { bold: true }),
      ...(monthly ? [cell('', columns[6], { span: 2 })] : []),
    ]),
    // VAT and the total including it, as the PDF prints them
    ...model.vat.map((v) =>
      line([
        cell(`${t('invoice.vat')} ${v.percent} %`, columns[0], { span: 5 }),
        cell(`${formatMoney(v.vat)} ${model.currency}`, columns[5], {}),
        ...(monthly ? [cell('', columns[6], { span: 2 })] : []),
      ]),
    ),
    ...(model.reverseVat
      ? [
          line([
            cell(t('invoice.reverseVatText'), columns[0], { span: 5 }),
            cell(`${formatMoney(model.vatTotal)} ${model.currency}`, columns[5], {}),
            ...(monthly ? [cell('', columns[6], { span: 2 })] : []),
          ]),
        ]
      : []),
    line([
      cell(t('invoice.total'), columns[0], { bold: true, span: 5 }),
      cell(`${formatMoney(model.totalInclVat)} ${model.currency}`, columns[5], { bold: true }),
      ...(monthly ? [cell('', columns[6], { span: 2 })] : []),
    ]),
    ...(monthly
      ? [
          line([
            cell(t('rows.monthlySum'), columns[0], { bold: true, span: 7 }),
            cell(`${formatMoney(model.monthlyTotal)} ${model.currency}`, columns[7], { bold: true }),
          ]),
        ]
      : []),
  ];
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: [
      line(
        columns.map((c) => cell(c.label, c, { bold: true, shade: true })),
        true,
      ),
      ...body,
      ...foot,
    ],
  });
}

/**
 * A proposal or sales order as a Word document (.docx) with the same content as
 * templates/proposal.hbs: company, the document's facts, customer, contact and delivery address,
 * the texts, the rows with their totals, and the terms.
 */
export async function proposalToDocx(model: ProposalDocumentModel): Promise<Buffer> {
  const t = documentTranslator(model.lang);
  const { company, document: doc, customer, contact, object } = model;
  const date = (v: string | null) => (v ? formatDate(v, model.dateFormat) : '');
  const joined = (...parts: (string | null)[]) => parts.filter(Boolean).join(', ');
  const name = `${t(model.titleKey)} ${doc.number}`;

  const children: (Paragraph | Table)[] = [
    ...companyParagraphs(company, t),
    new Paragraph({
      heading: HeadingLevel.HEADING_1,
      spacing: { before: 240 },
      children: [text(name, { bold: true, size: 32 })],
    }),
    facts([
      [t(model.numberKey), doc.number],
      [t('proposal.date'), date(doc.date)],
      [t('proposal.validTo'), date(doc.validTo)],
      [t('proposal.ourReference'), doc.ourReference],
      [t('field.object'), object ? `${object.serial}${object.model ? ` (${object.model})` : ''}` : null],
      [t('field.customer'), customer?.name],
      [t('field.customerNumber'), customer?.number],
      [
        t('field.customerAddress'),
        customer ? joined(customer.street, postalLine(customer.postIndex, customer.city)) : null,
      ],
      [t('field.contact'), contact ? joined(contact.name, contact.phone, contact.email) : null],
      [t('proposal.deliveryAddress'), model.delivery.join('\n')],
    ]),
  ];
  if (doc.title) children.push(heading(doc.title));
  if (doc.intro) children.push(para(doc.intro));
  if (doc.description) children.push(heading(t('field.description')), para(doc.description));
  if (doc.inclusions) children.push(heading(t('proposal.inclusions')), para(doc.inclusions));
  if (doc.exceptions) children.push(heading(t('proposal.exceptions')), para(doc.exceptions));

  children.push(heading(t('articles.heading')));
  if (model.rows.length) children.push(rowsTable(model, t));
  else children.push(para(t('articles.none'), { color: '6B7280' }));

  if (doc.generalTerms) children.push(heading(t('proposal.generalTerms')), para(doc.generalTerms, { size: 17 }));
  if (doc.paymentTerms) children.push(heading(t('proposal.paymentTerms')), para(doc.paymentTerms, { size: 17 }));
  children.push(
    para(
      t('doc.printed', {
        date: formatDateTime(model.printedAt, { dateFormat: model.dateFormat, country: model.country }),
      }),
      { size: 16, color: '6B7280' },
    ),
  );

  const document = new Document({
    creator: company.name,
    title: name,
    styles: { default: { document: { run: { font: FONT, size: 19 } } } },
    sections: [{ properties: { page: { margin: { top: 800, bottom: 900, left: 800, right: 800 } } }, children }],
  });
  return Packer.toBuffer(document);
}
