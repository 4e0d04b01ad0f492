import type { Migration } from '~/core/db/migrate';
import m0001 from './0001-identity';
import m0002 from './0002-identity-and-access';
import m0003 from './0003-articles';
import m0004 from './0004-customers';
import m0005 from './0005-business-objects';
import m0006 from './0006-suppliers';
import m0007 from './0007-work-order-settings';
import m0008 from './0008-work-orders';
import m0009 from './0009-invoices';
import m0010 from './0010-work-order-indexes';
import m0011 from './0011-time-lock-day';
import m0012 from './0012-schedule-reports';
import m0013 from './0013-work-order-reminders';
import m0014 from './0014-checklists';
import m0015 from './0015-dispatch-rules';
import m0016 from './0016-work-order-map';
import m0017 from './0017-customer-contact-search';
import m0018 from './0018-work-order-id06-index';
import m0019 from './0019-work-order-unplanned-index';
import m0020 from './0020-files';
import m0021 from './0021-proposals';
import m0022 from './0022-proposal-configuration';
import m0023 from './0023-invoicing';
import m0024 from './0024-erp-mapping-fingerprint';
import m0025 from './0025-peppol';
import m0026 from './0026-invoice-apply-types';
import m0027 from './0027-agreements';
import m0028 from './0028-contracts';
import m0029 from './0029-agreement-run-work-orders';
import m0030 from './0030-time-reports';
import m0031 from './0031-projects';
import m0032 from './0032-order-billing-owner';
import m0033 from './0033-invoice-row-types';
import m0037 from './0037-agreement-run-made';
import m0038 from './0038-proposal-agreement';
import m0039 from './0039-job-outbox';
import m0040 from './0040-shared-file-bytes';
import m0043 from './0043-work-order-assignee-departments';
import m0044 from './0044-erp-customer-conflicts';
import m0045 from './0045-erp-delivery-needs-checking';
import m0046 from './0046-service-reports';
import m0048 from './0048-supplier-invoices';
import m0049 from './0049-report-publishing-and-order-signatures';
import m0050 from './0050-supplier-orders';
import m0051 from './0051-supplier-catalogues';
import m0052 from './0052-supplier-invoice-permissions';
import m0053 from './0053-erp-supplier-invoices';
import m0054 from './0054-deviations';
import m0055 from './0055-deviation-relation-kinds';
import m0057 from './0057-customer-zone-sign-in';
import m0060 from './0060-dashboard-cards';
import m0061 from './0061-page-load-metrics';
import m0062 from './0062-zone-actions';
import m0064 from './0064-zone-service-requests';
import m0066 from './0066-statistics-indexes';
import m0068 from './0068-message-board-notifications-mail-account';
import m0070 from './0070-regions';

/**
 * Migrations applied to every tenant schema, in order. App-module plugins add theirs after
 * these (see core/extension-points/registry), so every tenant schema has the same shape.
 */
export const tenantMigrations: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
  m0018,
  m0019,
  m0020,
  m0021,
  m0022,
  m0023,
  m0024,
  m0025,
  m0026,
  m0027,
  m0028,
  m0029,
  m0030,
  m0031,
  m0032,
  m0033,
  m0037,
  m0038,
  m0039,
  m0040,
  m0043,
  m0044,
  m0045,
  m0046,
  m0048,
  m0049,
  m0050,
  m0051,
  m0052,
  m0053,
  m0054,
  m0055,
  m0057,
  m0060,
  m0061,
  m0062,
  m0064,
  m0066,
  m0068,
  m0070,
];
