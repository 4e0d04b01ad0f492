import type { ApiCall } from './define-call';
import { accessLevelCalls } from './calls/access-level.calls';
import { appModuleCalls } from './calls/app-module.calls';
import { oidcCalls } from './calls/oidc.calls';
import { payrollCalls } from './calls/payroll.calls';
import { recoveryCalls } from './calls/recovery.calls';
import { authenticateCall, authenticateMfaCall, keepaliveCall, logoutCall, userConfCall } from './calls/session.calls';
import { userCalls } from './calls/user.calls';
import { regionCalls } from './calls/regions.calls';
// registers: one import per area file below
import { articlesCalls } from './calls/articles.calls';
import { businessObjectCalls } from './calls/business-objects.calls';
import { modelCalls } from './calls/models.calls';
import { agreementTypeCalls } from './calls/agreements.calls';
import { customerCalls } from './calls/customers.calls';
import { supplierCalls } from './calls/suppliers.calls';
import { supplierInvoiceCalls } from './calls/supplier-invoices.calls';
import { supplierOrderCalls } from './calls/supplier-orders.calls';
import { supplierCatalogueCalls } from './calls/supplier-catalogues.calls';
import { importExportCalls } from './calls/import-export.calls';
import { workOrderSettingsCalls } from './calls/work-order-settings.calls';
import { objectSettingsCalls } from './calls/object-settings.calls';
import { instanceCalls } from './calls/instance.calls';
import { messageBoardCalls } from './calls/message-board.calls';
import { dispatchRuleCalls } from './calls/dispatch-rules.calls';
import { invoiceCalls } from './calls/invoices.calls';
import { invoiceRuleCalls } from './calls/invoice-rules.calls';
import { workOrderCloseCalls } from './calls/work-order-close.calls';
import { workOrderCalls } from './calls/work-orders.calls';
import { workOrderDocumentCalls } from './calls/work-order-documents.calls';
import { workOrderRowCalls } from './calls/work-order-rows.calls';
import { workOrderScheduleCalls } from './calls/work-order-schedule.calls';
import { holidayCalls } from './calls/holidays.calls';
import { onCallCalls } from './calls/on-call.calls';
import { timeTagCalls } from './calls/time-tags.calls';
import { workOrderReminderCalls } from './calls/work-order-reminders.calls';
import { checklistCalls } from './calls/checklists.calls';
import { serviceReportCalls } from './calls/service-reports.calls';
import { fileCalls } from './calls/files.calls';
import { driveByIdCalls } from './calls/drive-by-id.calls';
import { proposalCalls } from './calls/proposals.calls';
import { proposalDocumentCalls } from './calls/proposal-documents.calls';
import { contractCalls } from './calls/contracts.calls';
import { projectCalls } from './calls/projects.calls';
import { projectResourceCalls } from './calls/project-resources.calls';
import { projectActivityCalls } from './calls/project-activities.calls';
import { projectExtraWorkCalls } from './calls/project-extra-work.calls';
import { projectCostCalls } from './calls/project-costs.calls';
import { projectInvoiceCalls } from './calls/project-invoices.calls';
import { timeReportCalls } from './calls/time-reports.calls';
import { timeExpenseCalls } from './calls/time-expenses.calls';
import { agreementCalls } from './calls/agreement-invoices.calls';
import { reportCalls } from './calls/reports.calls';
import { statisticsCalls } from './calls/statistics.calls';
import { deviationCalls } from './calls/deviations.calls';
import { zoneCalls } from './calls/zone.calls';
import { zoneRequestCalls } from './calls/zone-requests.calls';
import { zoneActionCalls } from './calls/zone-actions.calls';

/** Every call the REST API serves, in the catalogue's paths (spec/api-calls.md). */
export const API_CALLS: ApiCall[] = [
  authenticateCall,
  authenticateMfaCall,
  keepaliveCall,
  logoutCall,
  userConfCall,
  ...recoveryCalls,
  // the customer zone (decision 061): /zone/… calls read the zone's session only
  ...zoneCalls,
  // what a customer does there (decision 064): service requests, its TOTP, its details and people
  ...zoneRequestCalls,
  ...zoneActionCalls,
  ...userCalls,
  ...regionCalls,
  ...accessLevelCalls,
  ...appModuleCalls,
  ...oidcCalls,
  // fixed /timereports/payroll… before any /timereports/:id
  ...payrollCalls,
  // fixed /instance/invoicerules, like the other /instance/… settings
  ...invoiceRuleCalls,
  // fixed /invoice/agreement/…, /agreements/invoices/… and /bo/agreement/… before /invoice/:id, /agreements/:id, /bo/:id
  ...agreementCalls,
  // fixed /articles/erp before /articles/:id
  ...invoiceCalls,
  // registers: articles, customers, objects and models, suppliers, import and export
  ...articlesCalls,
  ...businessObjectCalls,
  ...modelCalls,
  // agreement types: calls with fixed paths under /agreements/… go before these (/agreements/:id)
  ...agreementTypeCalls,
  ...customerCalls,
  // fixed /suppliers/order… before /suppliers/:id
  ...supplierOrderCalls,
  ...supplierCalls,
  // fixed /supplierinvoices/badge, /settings, /inbound, /peppol before /supplierinvoices/:id (within the file)
  ...supplierInvoiceCalls,
  // fixed /supplierinventory/query/articles before /supplierinventory/:id (within the file)
  ...supplierCatalogueCalls,
  // fixed /deviations/stats…, /categories, /from before /deviations/:id (within the file)
  ...deviationCalls,
  ...importExportCalls,
  ...workOrderSettingsCalls,
  ...objectSettingsCalls,
  ...instanceCalls,
  ...messageBoardCalls,
  ...dispatchRuleCalls,
  // fixed /wo/projectextra/link before the order's /wo/:id paths
  ...projectExtraWorkCalls,
  ...workOrderCloseCalls,
  ...workOrderRowCalls,
  ...workOrderScheduleCalls,
  ...holidayCalls,
  ...onCallCalls,
  ...timeTagCalls,
  ...workOrderReminderCalls,
  ...workOrderDocumentCalls,
  // fixed /wo/checklist paths before the order's /wo/:id
  ...checklistCalls,
  // fixed /wo/servicereport paths before the order's /wo/:id
  ...serviceReportCalls,
  ...fileCalls,
  // the spec's /file/drive/{id} paths, after the drive's fixed /recent, /favourites and /archive
  ...driveByIdCalls,
  // fixed /proposals/pdf, /salesorders/word … paths before /proposals/:id and /salesorders/:id
  ...proposalDocumentCalls,
  ...proposalCalls,
  // contracts: the fixed /contracts/id/propose before /contracts/:id (within the file)
  ...contractCalls,
  // before projectCalls: /projects/resources is not a project id
  ...projectResourceCalls,
  ...projectActivityCalls,
  // /projects/:id/costs, /snapshot, /timereports, /statistics, /pdf
  ...projectCostCalls,
  // project invoicing: the fixed /projects/invoices… before /projects/:id; /projects/:id/articles, /invoices
  ...projectInvoiceCalls,
  // projects: fixed /projects/ongoing, /q, /month, /settings before /projects/:id (within the file);
  // other files' fixed /projects/… paths (resources, invoices) go above this line
  ...projectCalls,
  // distance and compensation: /timereports/distance…, /timereports/compensation…, /timereports/week/compensation/…
  ...timeExpenseCalls,
  ...timeReportCalls,
  // reports: the fixed /wo/history/closed before the order's /wo/history/:id
  ...reportCalls,
  ...statisticsCalls,
  ...workOrderCalls,
];
