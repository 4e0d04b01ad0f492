import { z } from 'zod';
import {
  agreementInvoiceHistory,
  agreementYear,
  dueAgreementInvoiceCount,
  scheduledInvoices,
  upcomingInvoices,
  ZAgreementInvoiceHistory,
  ZAgreementYear,
  ZScheduledInvoices,
  ZUpcomingInvoices,
} from '~/core/agreements/agreement-invoices.service';
import { getInvoiceRun, latestInvoiceRun, startInvoiceRun, ZStartInvoiceRun } from '~/core/agreements/agreement-runs';
import {
  deleteAgreementRow,
  deleteObjectAgreement,
  getAgreementRow,
  getObjectAgreement,
  listAgreementRows,
  putObjectAgreement,
  saveAgreementRow,
  scheduleWorkOrders,
  ZAgreementRowFields,
  ZObjectAgreementFields,
  ZScheduleAgreementWorkOrders,
} from '~/core/agreements/object-agreement.service';
import {
  createAdjustment,
  listAdjustments,
  previewAdjustment,
  ZAdjustmentSelection,
} from '~/core/agreements/price-adjustment.service';
import { asSent, defineCall, unwrapped, type ApiCall } from '../define-call';

/*
 * The agreement calls of the catalogue that are not the agreement-type register (api-calls.md
 * "Agreements" and the object-agreement calls of "Business objects"; GET /invoice/agreement/…): the
 * agreement on an object and its rows, generating on demand, the invoice screens, bulk runs and price
 * adjustment. Registered before the type register's `/agreements/:id` and the invoice calls'
 * `/invoice/:id`, whose parameters would otherwise take these fixed paths. Services check access.
 */

/** Path parameters are text; the service answers 404 for one that names nothing. */
const onBo = z.object({ boId: z.string() });
type Input = Record<string, unknown>;
const READ = { permission: 'agreements:read' } as const;
const EDIT = { permission: 'agreements:edit' } as const;
const BO_READ = { permission: 'bo:read' } as const;
const BO_EDIT = { permission: 'bo:agreements:edit' } as const;
const INVOICES = { permission: 'invoices:read' } as const;

/** A POST body is a new row: its own `id`, if sent, is not used. */
const withoutId = (input: Input): Input => {
  const row = (input.row ?? input) as Input;
  return { ...row, id: undefined };
};

export const agreementCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/agreements/invoices/upcoming',
    access: READ,
    input: asSent(ZUpcomingInvoices),
    summary:
      'Agreement invoices the next run makes: periods whose invoice day is on or before ?to (default: end of this month; ?from, ?q, ?offset, ?limit), each with amount and skipReason (OBJECT_INACTIVE, AGREEMENT_TYPE_INACTIVE, AGREEMENT_ENDED, CUSTOMER_MISSING, NOTHING_TO_INVOICE) {from, to, invoices, totalCount}',
    handler: (ctx, input) => upcomingInvoices(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/agreements/invoices/scheduled',
    access: READ,
    input: asSent(ZScheduledInvoices),
    summary:
      'What the coming months will invoice, by month {from, to, months: [{month, count, amount}]}; ?from&to (default: 12 months)',
    handler: (ctx, input) => scheduledInvoices(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/agreements/invoices/run',
    access: EDIT,
    input: asSent(ZStartInvoiceRun),
    summary:
      'Starts invoicing every agreement due by {until} as a background run; answers {run} with its progress (total, done, created, skipped with reasons, warnings); a run already going is answered instead of starting another',
    handler: (ctx, input) => startInvoiceRun(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/agreements/invoices/run',
    access: READ,
    input: z.object({}),
    summary: 'The latest invoicing run {run} (null when none)',
    handler: (ctx) => latestInvoiceRun(ctx),
  }),
  defineCall({
    method: 'GET',
    path: '/agreements/invoices/run/:id',
    access: READ,
    input: z.object({ id: z.string() }),
    summary: 'One invoicing run {run}: status queued|running|done|failed, total, done, created, skipped, warnings',
    handler: (ctx, input) => getInvoiceRun(ctx, input.id),
  }),
  defineCall({
    method: 'POST',
    path: '/agreements/pricing/preview',
    access: EDIT,
    input: asSent(ZAdjustmentSelection),
    summary:
      'Preview of a price adjustment {agreementIds?, objectAgreementIds?, percent, effectiveFrom}: {rows: [{objectAgreementId, serialCode, customerName, agreementTitle, oldAmount, newAmount}], oldTotal, newTotal}',
    handler: (ctx, input) => previewAdjustment(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/agreements/pricing/adjust',
    access: EDIT,
    input: asSent(ZAdjustmentSelection),
    summary:
      'Raises (or lowers) the chosen agreements’ prices by percent from effectiveFrom: applied at once when the date has come, else by the generation run of that day; returns {id, agreements, applied}',
    handler: (ctx, input) => createAdjustment(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/agreements/pricing/adjustments',
    access: READ,
    input: z.object({}),
    summary: 'The latest price adjustments {adjustments: [{id, percent, effectiveFrom, appliedAt, agreements}]}',
    handler: (ctx) => listAdjustments(ctx),
  }),
  defineCall({
    method: 'GET',
    path: '/invoice/agreement/history',
    access: INVOICES,
    input: asSent(ZAgreementInvoiceHistory),
    summary:
      'Agreement invoices whose period starts between ?startTime and ?endTime (default: this month) {invoices, totalCount, totalPrice, totalPriceVat}',
    handler: (ctx, input) => agreementInvoiceHistory(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/invoice/agreement/count',
    access: READ,
    input: z.object({}),
    summary: 'How many agreement invoices are due by today and not yet made {count}',
    handler: (ctx) => dueAgreementInvoiceCount(ctx),
  }),
  defineCall({
    method: 'GET',
    path: '/invoice/agreement/:id',
    access: INVOICES,
    input: asSent(ZAgreementYear.extend({ id: z.string() })),
    summary: 'One object agreement’s year ?year: {year, periods: [{from, to, generateOn, invoice}], invoices}',
    handler: (ctx, input: Input) => agreementYear(ctx, input.id, input),
  }),
  defineCall({
    method: 'POST',
    path: '/bo/agreement/wo/schedule',
    access: BO_EDIT,
    input: asSent(ZScheduleAgreementWorkOrders),
    summary:
      'Makes the next service work order of each {objectAgreementIds} now, whatever its day (also workorders:create): {created: [{objectAgreementId, workOrderId, number, periodFrom}], skipped}',
    handler: (ctx, input) => scheduleWorkOrders(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/bo/:boId/agreement',
    access: BO_READ,
    input: onBo,
    summary:
      'The object’s agreement {agreement} or null: type, dates, woScheduledTo, invoiceScheduledTo, invoicePeriodFrom, validFrom/To, totalPrice, articles, field texts, invoice customer and address, nextWorkOrder, nextInvoice, lastInvoiced, warnings',
    handler: (ctx, input: Input) => getObjectAgreement(ctx, input.boId),
  }),
  defineCall({
    method: 'PUT',
    path: '/bo/:boId/agreement',
    access: BO_EDIT,
    input: asSent(
      onBo.extend({ agreement: ZObjectAgreementFields }),
      unwrapped('agreement', ZObjectAgreementFields, {}),
    ),
    summary:
      'Puts an agreement on the object or changes it {agreement: {agreementId, validFrom, validTo, …, version}}; 409 AGREEMENT_CHANGED (stale version), 409 AGREEMENT_DOUBLE_INVOICING unless confirmDoubleInvoicing',
    handler: (ctx, input: Input) => putObjectAgreement(ctx, input.boId, input),
  }),
  defineCall({
    method: 'DELETE',
    path: '/bo/:boId/agreement',
    access: BO_EDIT,
    input: onBo,
    summary:
      'Takes the agreement off the object; 409 AGREEMENT_HAS_INVOICES once invoices were made (set a to-date instead)',
    async handler(ctx, input: Input) {
      await deleteObjectAgreement(ctx, input.boId);
      return {};
    },
  }),
  ...(['wo', 'invoice'] as const).flatMap((kind) => [
    defineCall({
      method: 'GET',
      path: `/bo/:boId/agreement/${kind}`,
      access: BO_READ,
      input: onBo,
      summary: `The rows every generated ${kind === 'wo' ? 'work order' : 'invoice'} carries {rows}`,
      handler: (ctx, input: Input) => listAgreementRows(ctx, input.boId, kind),
    }),
    defineCall({
      method: 'POST',
      path: `/bo/:boId/agreement/${kind}`,
      access: BO_EDIT,
      input: asSent(onBo.extend({ row: ZAgreementRowFields }), unwrapped('row', ZAgreementRowFields)),
      summary:
        'Adds a row {row: {articleId?, title?, description?, amount, price?, discountType, discountValue}}; title and price default to the article’s',
      handler: (ctx, input: Input) => saveAgreementRow(ctx, input.boId, kind, withoutId(input)),
    }),
    defineCall({
      method: 'PUT',
      path: `/bo/:boId/agreement/${kind}`,
      access: BO_EDIT,
      input: asSent(onBo.extend({ row: ZAgreementRowFields }), unwrapped('row', ZAgreementRowFields)),
      summary: 'Changes a row {row: {id, …}}',
      handler: (ctx, input: Input) => {
        const row = (input.row ?? input) as Input;
        return saveAgreementRow(ctx, input.boId, kind, { ...row, id: row.id ?? '' });
      },
    }),
    defineCall({
      method: 'GET',
      path: `/bo/:boId/agreement/${kind}/:rowId`,
      access: BO_READ,
      input: onBo.extend({ rowId: z.string() }),
      summary: 'One row {row}',
      handler: (ctx, input: Input) => getAgreementRow(ctx, input.boId, kind, input.rowId),
    }),
    defineCall({
      method: 'DELETE',
      path: `/bo/:boId/agreement/${kind}/:rowId`,
      access: BO_EDIT,
      input: onBo.extend({ rowId: z.string() }),
      summary: 'Deletes a row',
      async handler(ctx, input: Input) {
        await deleteAgreementRow(ctx, input.boId, kind, input.rowId);
        return {};
      },
    }),
  ]),
];
