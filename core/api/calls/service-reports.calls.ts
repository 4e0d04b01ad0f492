import { z } from 'zod';
import {
  deleteTemplate,
  getWorkOrderReports,
  lastReport,
  listTemplates,
  listTemplatesForWorkType,
  reopenReport,
  saveReport,
  saveTemplate,
  SERVICE_REPORT_ACCESS,
} from '~/core/service-reports/service-report.service';
import {
  ZDeleteTemplate,
  ZFillReport,
  ZReopenReport,
  ZSaveTemplate,
  ZTemplatesOfWorkType,
} from '~/core/service-reports/service-report.schema';
import { generateReport, reportPdf, reportWord, ZGenerateReport } from '~/core/service-reports/service-report-generate';
import {
  getServiceReportSettings,
  updateServiceReportSettings,
  ZServiceReportSettings,
} from '~/core/service-reports/service-report-settings';
import { asSent, defineCall, type ApiCall } from '../define-call';
import { fileReply } from './work-order-documents.calls';

/*
 * Service reports (api-calls.md "Work orders": GET /wo/servicereport?workType; PUT and POST
 * /wo/servicereport; POST /wo/servicereport/reopen; GET /wo/servicereport/{id}; GET
 * /wo/servicereport/{id}/last; and "Instance and settings": /instance/servicereport; POST
 * /instance/servicereport/delete), behind the `servicereports` app module, and the report's
 * document: POST /wo/{id}/servicereport/{reportId}/generate (?email=true), with its Word and PDF
 * downloads beside it. These fixed /wo/servicereport paths mount before /wo/:id.
 */

const TEMPLATE_SHAPE =
  '{id, title, description, perDoor, onDemand, active, builtIn, workTypeIds, pages: [{id, title, fields: [{id, kind: heading|text|longtext|number|yesno|choice|date|measure|photo|signature, label, required, unit, min, max, options}]}], updatedAt}';
const REPORT_SHAPE =
  '{id, workOrderId, templateId, doorAutomaticId, data: {<pageId>: {<fieldId>: value}}, version, emailTargets, signedAt, signedName, signature, technicianName, fileId, flagged, updatedAt, updatedByName}';

export const serviceReportCalls: ApiCall[] = [
  defineCall({
    method: 'GET',
    path: '/instance/servicereport',
    access: SERVICE_REPORT_ACCESS.settingsRead,
    input: z.object({}),
    summary: `Service-report templates {templates: [${TEMPLATE_SHAPE}], workTypes: [{id, name}]}`,
    handler: (ctx) => listTemplates(ctx),
  }),
  defineCall({
    method: 'POST',
    path: '/instance/servicereport',
    access: SERVICE_REPORT_ACCESS.settingsEdit,
    input: asSent(ZSaveTemplate),
    summary:
      'Creates a service-report template {title, description, perDoor, onDemand, active, workTypeIds, pages} (or replaces one when id is sent) → the template; 409 ERROR_DUPLICATE_NAME',
    handler: (ctx, input) => saveTemplate(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/instance/servicereport',
    access: SERVICE_REPORT_ACCESS.settingsEdit,
    input: asSent(ZSaveTemplate),
    summary: 'Replaces a service-report template {id, …}; pages and fields keep their ids → the template',
    handler: (ctx, input) => saveTemplate(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/instance/servicereport/settings',
    access: SERVICE_REPORT_ACCESS.settingsRead,
    input: z.object({}),
    summary:
      "The service-report settings {publishToCustomerZone, customerZoneOn}: generate publishes the PDF to the order's customer when on (and the customer zone module is on)",
    handler: (ctx) => getServiceReportSettings(ctx),
  }),
  defineCall({
    method: 'PUT',
    path: '/instance/servicereport/settings',
    access: SERVICE_REPORT_ACCESS.settingsEdit,
    input: asSent(ZServiceReportSettings),
    summary: 'Saves the service-report settings {publishToCustomerZone} → {publishToCustomerZone, customerZoneOn}',
    handler: (ctx, input) => updateServiceReportSettings(ctx, input),
  }),
  defineCall({
    method: 'POST',
    path: '/instance/servicereport/delete',
    access: SERVICE_REPORT_ACCESS.settingsEdit,
    input: asSent(ZDeleteTemplate),
    summary:
      'Deletes a service-report template {id, type: delete} → {id, deleted, active}; 409 SERVICE_REPORT_TEMPLATE_IN_USE {usedBy: {reports}} while reports use it: type deactivate (or activate) instead',
    handler: (ctx, input) => deleteTemplate(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/servicereport',
    access: SERVICE_REPORT_ACCESS.read,
    input: asSent(ZTemplatesOfWorkType),
    summary: `The active templates an order of a work type offers (its own and the on-demand ones) ?workType → [${TEMPLATE_SHAPE}]`,
    handler: (ctx, input) => listTemplatesForWorkType(ctx, input),
  }),
  defineCall({
    method: 'PUT',
    path: '/wo/servicereport',
    access: SERVICE_REPORT_ACCESS.fill,
    input: asSent(ZFillReport),
    summary: `Saves one page of a service report {workOrderId, serviceReportId (template), page (id or index), data: {<fieldId>: value}, doorautomaticId, emailTargets} → ${REPORT_SHAPE}; 409 SERVICE_REPORT_SIGNED, WORK_ORDER_CLOSED/LOCKED`,
    handler: (ctx, input) => saveReport(ctx, input, false),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/servicereport',
    access: SERVICE_REPORT_ACCESS.fill,
    input: asSent(ZFillReport),
    summary:
      'Saves the page sent (if any), then signs and locks the report {…, emailTargets, signature: {name, image: PNG data URL}} → the report; 400 with pages.<pageId>.<fieldId> for required fields left empty',
    handler: (ctx, input) => saveReport(ctx, input, true),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/servicereport/reopen',
    access: SERVICE_REPORT_ACCESS.reopen,
    input: asSent(ZReopenReport),
    summary:
      'Reopens a signed report {workOrderId, serviceReportId, doorautomaticId}; the signed version is kept → the report; 409 SERVICE_REPORT_NOT_SIGNED',
    handler: (ctx, input) => reopenReport(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/servicereport/:id/last',
    access: SERVICE_REPORT_ACCESS.read,
    input: z.object({
      id: z.string(),
      serviceReportId: z.string(),
      customerId: z.string().optional(),
      businessObjectId: z.string().optional(),
      doorautomaticId: z.string().optional(),
    }),
    summary:
      'The latest signed report of a template at the order\'s object from another order ("same as last time") → {report: … | null}',
    handler: (ctx, input) => lastReport(ctx, { ...input, workOrderId: input.id }),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/servicereport/:id',
    access: SERVICE_REPORT_ACCESS.read,
    input: z.object({
      id: z.string(),
      serviceReportId: z.string().optional(),
      page: z.string().optional(),
      doorautomaticId: z.string().optional(),
    }),
    summary:
      "A work order's service reports {workOrderId, templates, doors: [{id, number, title, location}], reports, canFill, canReopen}; ?serviceReportId, doorautomaticId and page narrow them",
    handler: (ctx, input) => getWorkOrderReports(ctx, { ...input, workOrderId: input.id }),
  }),
  defineCall({
    method: 'POST',
    path: '/wo/:id/servicereport/:reportId/generate',
    access: SERVICE_REPORT_ACCESS.fill,
    input: asSent(ZGenerateReport),
    summary:
      "Prints a signed report as PDF and keeps it as a file on the order; email=true (query or body) also mails it to emailTargets (default: the report's, else the order contact's and the customer's) through the mail outbox, and publishes it to the order's customer when the service-report settings say so → {fileId, fileName, emailedTo, published}; 409 SERVICE_REPORT_NOT_SIGNED, SERVICE_REPORT_EMAIL_MISSING",
    handler: (ctx, input) => generateReport(ctx, input),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/:id/servicereport/:reportId/word',
    access: SERVICE_REPORT_ACCESS.read,
    input: z.object({ id: z.string(), reportId: z.string() }),
    summary: 'A signed report as a Word document (.docx attachment)',
    handler: async (ctx, input) => (await reportWord(ctx, input)).map(fileReply),
  }),
  defineCall({
    method: 'GET',
    path: '/wo/:id/servicereport/:reportId/pdf',
    access: SERVICE_REPORT_ACCESS.read,
    input: z.object({ id: z.string(), reportId: z.string() }),
    summary: 'A signed report as PDF (not stored; generate keeps it on the order)',
    handler: async (ctx, input) => (await reportPdf(ctx, input)).map(fileReply),
  }),
];
