import type { Lang } from '~/core/i18n/languages';
import svCommon from './sv/common.json';
import svUi from './sv/ui.json';
import svAccess from './sv/access.json';
import svAuth from './sv/auth.json';
import svUsers from './sv/users.json';
import svInventory from './sv/inventory.json';
import svCustomers from './sv/customers.json';
import svObjects from './sv/objects.json';
import svArticles from './sv/articles.json';
import svSuppliers from './sv/suppliers.json';
import svSupplierinvoices from './sv/supplierinvoices.json';
import svSupplierorders from './sv/supplierorders.json';
import svSuppliercatalogues from './sv/suppliercatalogues.json';
import svDeviations from './sv/deviations.json';
import svZone from './sv/zone.json';
import svRegions from './sv/regions.json';
import svZonerequests from './sv/zonerequests.json';
import svZoneactions from './sv/zoneactions.json';
import svStatistics from './sv/statistics.json';
import svDoorautomatics from './sv/doorautomatics.json';
import svImportexport from './sv/importexport.json';
import svWorkorders from './sv/workorders.json';
import svWorkorderrows from './sv/workorderrows.json';
import svWorkorderclose from './sv/workorderclose.json';
import svDocuments from './sv/documents.json';
import svCalendar from './sv/calendar.json';
import svReminders from './sv/reminders.json';
import svChecklists from './sv/checklists.json';
import svServicereports from './sv/servicereports.json';
import svDispatch from './sv/dispatch.json';
import svObjectworkorders from './sv/objectworkorders.json';
import svMap from './sv/map.json';
import svFiles from './sv/files.json';
import svProposals from './sv/proposals.json';
import svSales from './sv/sales.json';
import svProposalSettings from './sv/proposalsettings.json';
import svInvoiceSettings from './sv/invoicesettings.json';
import svProposalDocuments from './sv/proposaldocuments.json';
import svInvoices from './sv/invoices.json';
import svAgreementInvoices from './sv/agreementinvoices.json';
import svObjectAgreement from './sv/objectagreement.json';
import svAgreements from './sv/agreements.json';
import svContracts from './sv/contracts.json';
import svProjects from './sv/projects.json';
import svExpenses from './sv/expenses.json';
import svReports from './sv/reports.json';
import svOncall from './sv/oncall.json';
import svTimeTags from './sv/timetags.json';
import svPayroll from './sv/payroll.json';
import svTime from './sv/time.json';
import svMessageboard from './sv/messageboard.json';
import svNotifications from './sv/notifications.json';
import enCommon from './en/common.json';
import enUi from './en/ui.json';
import enAccess from './en/access.json';
import enAuth from './en/auth.json';
import enUsers from './en/users.json';
import enInventory from './en/inventory.json';
import enCustomers from './en/customers.json';
import enObjects from './en/objects.json';
import enArticles from './en/articles.json';
import enSuppliers from './en/suppliers.json';
import enSupplierinvoices from './en/supplierinvoices.json';
import enSupplierorders from './en/supplierorders.json';
import enSuppliercatalogues from './en/suppliercatalogues.json';
import enDeviations from './en/deviations.json';
import enZone from './en/zone.json';
import enRegions from './en/regions.json';
import enZonerequests from './en/zonerequests.json';
import enZoneactions from './en/zoneactions.json';
import enStatistics from './en/statistics.json';
import enDoorautomatics from './en/doorautomatics.json';
import enImportexport from './en/importexport.json';
import enWorkorders from './en/workorders.json';
import enWorkorderrows from './en/workorderrows.json';
import enWorkorderclose from './en/workorderclose.json';
import enDocuments from './en/documents.json';
import enCalendar from './en/calendar.json';
import enReminders from './en/reminders.json';
import enChecklists from './en/checklists.json';
import enServicereports from './en/servicereports.json';
import enDispatch from './en/dispatch.json';
import enObjectworkorders from './en/objectworkorders.json';
import enMap from './en/map.json';
import enFiles from './en/files.json';
import enProposals from './en/proposals.json';
import enSales from './en/sales.json';
import enProposalSettings from './en/proposalsettings.json';
import enInvoiceSettings from './en/invoicesettings.json';
import enProposalDocuments from './en/proposaldocuments.json';
import enInvoices from './en/invoices.json';
import enAgreementInvoices from './en/agreementinvoices.json';
import enObjectAgreement from './en/objectagreement.json';
import enAgreements from './en/agreements.json';
import enContracts from './en/contracts.json';
import enProjects from './en/projects.json';
import enExpenses from './en/expenses.json';
import enReports from './en/reports.json';
import enOncall from './en/oncall.json';
import enTimeTags from './en/timetags.json';
import enPayroll from './en/payroll.json';
import enTime from './en/time.json';
import enMessageboard from './en/messageboard.json';
import enNotifications from './en/notifications.json';
import etCommon from './et/common.json';
import etUi from './et/ui.json';
import etAccess from './et/access.json';
import etAuth from './et/auth.json';
import etUsers from './et/users.json';
import etInventory from './et/inventory.json';
import etCustomers from './et/customers.json';
import etObjects from './et/objects.json';
import etArticles from './et/articles.json';
import etSuppliers from './et/suppliers.json';
import etSupplierinvoices from './et/supplierinvoices.json';
import etSupplierorders from './et/supplierorders.json';
import etSuppliercatalogues from './et/suppliercatalogues.json';
import etDeviations from './et/deviations.json';
import etZone from './et/zone.json';
import etRegions from './et/regions.json';
import etZonerequests from './et/zonerequests.json';
import etZoneactions from './et/zoneactions.json';
import etStatistics from './et/statistics.json';
import etDoorautomatics from './et/doorautomatics.json';
import etImportexport from './et/importexport.json';
import etWorkorders from './et/workorders.json';
import etWorkorderrows from './et/workorderrows.json';
import etWorkorderclose from './et/workorderclose.json';
import etDocuments from './et/documents.json';
import etCalendar from './et/calendar.json';
import etReminders from './et/reminders.json';
import etChecklists from './et/checklists.json';
import etServicereports from './et/servicereports.json';
import etDispatch from './et/dispatch.json';
import etObjectworkorders from './et/objectworkorders.json';
import etMap from './et/map.json';
import etFiles from './et/files.json';
import etProposals from './et/proposals.json';
import etSales from './et/sales.json';
import etProposalSettings from './et/proposalsettings.json';
import etInvoiceSettings from './et/invoicesettings.json';
import etProposalDocuments from './et/proposaldocuments.json';
import etInvoices from './et/invoices.json';
import etAgreementInvoices from './et/agreementinvoices.json';
import etObjectAgreement from './et/objectagreement.json';
import etAgreements from './et/agreements.json';
import etContracts from './et/contracts.json';
import etProjects from './et/projects.json';
import etExpenses from './et/expenses.json';
import etReports from './et/reports.json';
import etOncall from './et/oncall.json';
import etTimeTags from './et/timetags.json';
import etPayroll from './et/payroll.json';
import etTime from './et/time.json';
import etMessageboard from './et/messageboard.json';
import etNotifications from './et/notifications.json';
import lvCommon from './lv/common.json';
import lvUi from './lv/ui.json';
import lvAccess from './lv/access.json';
import lvAuth from './lv/auth.json';
import lvUsers from './lv/users.json';
import lvInventory from './lv/inventory.json';
import lvCustomers from './lv/customers.json';
import lvObjects from './lv/objects.json';
import lvArticles from './lv/articles.json';
import lvSuppliers from './lv/suppliers.json';
import lvSupplierinvoices from './lv/supplierinvoices.json';
import lvSupplierorders from './lv/supplierorders.json';
import lvSuppliercatalogues from './lv/suppliercatalogues.json';
import lvDeviations from './lv/deviations.json';
import lvZone from './lv/zone.json';
import lvRegions from './lv/regions.json';
import lvZonerequests from './lv/zonerequests.json';
import lvZoneactions from './lv/zoneactions.json';
import lvStatistics from './lv/statistics.json';
import lvDoorautomatics from './lv/doorautomatics.json';
import lvImportexport from './lv/importexport.json';
import lvWorkorders from './lv/workorders.json';
import lvWorkorderrows from './lv/workorderrows.json';
import lvWorkorderclose from './lv/workorderclose.json';
import lvDocuments from './lv/documents.json';
import lvCalendar from './lv/calendar.json';
import lvReminders from './lv/reminders.json';
import lvChecklists from './lv/checklists.json';
import lvServicereports from './lv/servicereports.json';
import lvDispatch from './lv/dispatch.json';
import lvObjectworkorders from './lv/objectworkorders.json';
import lvMap from './lv/map.json';
import lvFiles from './lv/files.json';
import lvProposals from './lv/proposals.json';
import lvSales from './lv/sales.json';
import lvProposalSettings from './lv/proposalsettings.json';
import lvInvoiceSettings from './lv/invoicesettings.json';
import lvProposalDocuments from './lv/proposaldocuments.json';
import lvInvoices from './lv/invoices.json';
import lvAgreementInvoices from './lv/agreementinvoices.json';
import lvObjectAgreement from './lv/objectagreement.json';
import lvAgreements from './lv/agreements.json';
import lvContracts from './lv/contracts.json';
import lvProjects from './lv/projects.json';
import lvExpenses from './lv/expenses.json';
import lvReports from './lv/reports.json';
import lvOncall from './lv/oncall.json';
import lvTimeTags from './lv/timetags.json';
import lvPayroll from './lv/payroll.json';
import lvTime from './lv/time.json';
import lvMessageboard from './lv/messageboard.json';
import lvNotifications from './lv/notifications.json';
import ruCommon from './ru/common.json';
import ruUi from './ru/ui.json';
import ruAccess from './ru/access.json';
import ruAuth from './ru/auth.json';
import ruUsers from './ru/users.json';
import ruInventory from './ru/inventory.json';
import ruCustomers from './ru/customers.json';
import ruObjects from './ru/objects.json';
import ruArticles from './ru/articles.json';
import ruSuppliers from './ru/suppliers.json';
import ruSupplierinvoices from './ru/supplierinvoices.json';
import ruSupplierorders from './ru/supplierorders.json';
import ruSuppliercatalogues from './ru/suppliercatalogues.json';
import ruDeviations from './ru/deviations.json';
import ruZone from './ru/zone.json';
import ruRegions from './ru/regions.json';
import ruZonerequests from './ru/zonerequests.json';
import ruZoneactions from './ru/zoneactions.json';
import ruStatistics from './ru/statistics.json';
import ruDoorautomatics from './ru/doorautomatics.json';
import ruImportexport from './ru/importexport.json';
import ruWorkorders from './ru/workorders.json';
import ruWorkorderrows from './ru/workorderrows.json';
import ruWorkorderclose from './ru/workorderclose.json';
import ruDocuments from './ru/documents.json';
import ruCalendar from './ru/calendar.json';
import ruReminders from './ru/reminders.json';
import ruChecklists from './ru/checklists.json';
import ruServicereports from './ru/servicereports.json';
import ruDispatch from './ru/dispatch.json';
import ruObjectworkorders from './ru/objectworkorders.json';
import ruMap from './ru/map.json';
import ruFiles from './ru/files.json';
import ruProposals from './ru/proposals.json';
import ruSales from './ru/sales.json';
import ruProposalSettings from './ru/proposalsettings.json';
import ruInvoiceSettings from './ru/invoicesettings.json';
import ruProposalDocuments from './ru/proposaldocuments.json';
import ruInvoices from './ru/invoices.json';
import ruAgreementInvoices from './ru/agreementinvoices.json';
import ruObjectAgreement from './ru/objectagreement.json';
import ruAgreements from './ru/agreements.json';
import ruContracts from './ru/contracts.json';
import ruProjects from './ru/projects.json';
import ruExpenses from './ru/expenses.json';
import ruReports from './ru/reports.json';
import ruOncall from './ru/oncall.json';
import ruTimeTags from './ru/timetags.json';
import ruPayroll from './ru/payroll.json';
import ruTime from './ru/time.json';
import ruMessageboard from './ru/messageboard.json';
import ruNotifications from './ru/notifications.json';

/**
 * Every translation, by language and namespace. `common` holds the shell, sign-in and the spec's
 * message keys (errors and notices); `ui` the design system's own words; `access` permissions,
 * access levels and app modules; `auth` the sign-in screens and mails; `users` user administration;
 * `inventory` the registers' shared words and one namespace per register; `importexport` the
 * CSV/XLSX import and export. Add a namespace here and in NAMESPACES, with a file per language.
 */
export const resources = {
  sv: {
    common: svCommon,
    ui: svUi,
    access: svAccess,
    auth: svAuth,
    users: svUsers,
    inventory: svInventory,
    customers: svCustomers,
    objects: svObjects,
    articles: svArticles,
    suppliers: svSuppliers,
    supplierinvoices: svSupplierinvoices,
    supplierorders: svSupplierorders,
    suppliercatalogues: svSuppliercatalogues,
    deviations: svDeviations,
    zone: svZone,
    regions: svRegions,
    zonerequests: svZonerequests,
    zoneactions: svZoneactions,
    doorautomatics: svDoorautomatics,
    importexport: svImportexport,
    workorders: svWorkorders,
    workorderrows: svWorkorderrows,
    workorderclose: svWorkorderclose,
    documents: svDocuments,
    calendar: svCalendar,
    reminders: svReminders,
    checklists: svChecklists,
    servicereports: svServicereports,
    dispatch: svDispatch,
    objectworkorders: svObjectworkorders,
    map: svMap,
    files: svFiles,
    proposals: svProposals,
    sales: svSales,
    proposalsettings: svProposalSettings,
    invoicesettings: svInvoiceSettings,
    proposaldocuments: svProposalDocuments,
    invoices: svInvoices,
    agreementinvoices: svAgreementInvoices,
    objectagreement: svObjectAgreement,
    agreements: svAgreements,
    contracts: svContracts,
    projects: svProjects,
    expenses: svExpenses,
    reports: svReports,
    oncall: svOncall,
    timetags: svTimeTags,
    payroll: svPayroll,
    time: svTime,
    messageboard: svMessageboard,
    notifications: svNotifications,
    statistics: svStatistics,
  },
  en: {
    common: enCommon,
    ui: enUi,
    access: enAccess,
    auth: enAuth,
    users: enUsers,
    inventory: enInventory,
    customers: enCustomers,
    objects: enObjects,
    articles: enArticles,
    suppliers: enSuppliers,
    supplierinvoices: enSupplierinvoices,
    supplierorders: enSupplierorders,
    suppliercatalogues: enSuppliercatalogues,
    deviations: enDeviations,
    zone: enZone,
    regions: enRegions,
    zonerequests: enZonerequests,
    zoneactions: enZoneactions,
    doorautomatics: enDoorautomatics,
    importexport: enImportexport,
    workorders: enWorkorders,
    workorderrows: enWorkorderrows,
    workorderclose: enWorkorderclose,
    documents: enDocuments,
    calendar: enCalendar,
    reminders: enReminders,
    checklists: enChecklists,
    servicereports: enServicereports,
    dispatch: enDispatch,
    objectworkorders: enObjectworkorders,
    map: enMap,
    files: enFiles,
    proposals: enProposals,
    sales: enSales,
    proposalsettings: enProposalSettings,
    invoicesettings: enInvoiceSettings,
    proposaldocuments: enProposalDocuments,
    invoices: enInvoices,
    agreementinvoices: enAgreementInvoices,
    objectagreement: enObjectAgreement,
    agreements: enAgreements,
    contracts: enContracts,
    projects: enProjects,
    expenses: enExpenses,
    reports: enReports,
    oncall: enOncall,
    timetags: enTimeTags,
    payroll: enPayroll,
    time: enTime,
    messageboard: enMessageboard,
    notifications: enNotifications,
    statistics: enStatistics,
  },
  et: {
    common: etCommon,
    ui: etUi,
    access: etAccess,
    auth: etAuth,
    users: etUsers,
    inventory: etInventory,
    customers: etCustomers,
    objects: etObjects,
    articles: etArticles,
    suppliers: etSuppliers,
    supplierinvoices: etSupplierinvoices,
    supplierorders: etSupplierorders,
    suppliercatalogues: etSuppliercatalogues,
    deviations: etDeviations,
    zone: etZone,
    regions: etRegions,
    zonerequests: etZonerequests,
    zoneactions: etZoneactions,
    doorautomatics: etDoorautomatics,
    importexport: etImportexport,
    workorders: etWorkorders,
    workorderrows: etWorkorderrows,
    workorderclose: etWorkorderclose,
    documents: etDocuments,
    calendar: etCalendar,
    reminders: etReminders,
    checklists: etChecklists,
    servicereports: etServicereports,
    dispatch: etDispatch,
    objectworkorders: etObjectworkorders,
    map: etMap,
    files: etFiles,
    proposals: etProposals,
    sales: etSales,
    proposalsettings: etProposalSettings,
    invoicesettings: etInvoiceSettings,
    proposaldocuments: etProposalDocuments,
    invoices: etInvoices,
    agreementinvoices: etAgreementInvoices,
    objectagreement: etObjectAgreement,
    agreements: etAgreements,
    contracts: etContracts,
    projects: etProjects,
    expenses: etExpenses,
    reports: etReports,
    oncall: etOncall,
    timetags: etTimeTags,
    payroll: etPayroll,
    time: etTime,
    messageboard: etMessageboard,
    notifications: etNotifications,
    statistics: etStatistics,
  },
  lv: {
    common: lvCommon,
    ui: lvUi,
    access: lvAccess,
    auth: lvAuth,
    users: lvUsers,
    inventory: lvInventory,
    customers: lvCustomers,
    objects: lvObjects,
    articles: lvArticles,
    suppliers: lvSuppliers,
    supplierinvoices: lvSupplierinvoices,
    supplierorders: lvSupplierorders,
    suppliercatalogues: lvSuppliercatalogues,
    deviations: lvDeviations,
    zone: lvZone,
    regions: lvRegions,
    zonerequests: lvZonerequests,
    zoneactions: lvZoneactions,
    doorautomatics: lvDoorautomatics,
    importexport: lvImportexport,
    workorders: lvWorkorders,
    workorderrows: lvWorkorderrows,
    workorderclose: lvWorkorderclose,
    documents: lvDocuments,
    calendar: lvCalendar,
    reminders: lvReminders,
    checklists: lvChecklists,
    servicereports: lvServicereports,
    dispatch: lvDispatch,
    objectworkorders: lvObjectworkorders,
    map: lvMap,
    files: lvFiles,
    proposals: lvProposals,
    sales: lvSales,
    proposalsettings: lvProposalSettings,
    invoicesettings: lvInvoiceSettings,
    proposaldocuments: lvProposalDocuments,
    invoices: lvInvoices,
    agreementinvoices: lvAgreementInvoices,
    objectagreement: lvObjectAgreement,
    agreements: lvAgreements,
    contracts: lvContracts,
    projects: lvProjects,
    expenses: lvExpenses,
    reports: lvReports,
    oncall: lvOncall,
    timetags: lvTimeTags,
    payroll: lvPayroll,
    time: lvTime,
    messageboard: lvMessageboard,
    notifications: lvNotifications,
    statistics: lvStatistics,
  },
  ru: {
    common: ruCommon,
    ui: ruUi,
    access: ruAccess,
    auth: ruAuth,
    users: ruUsers,
    inventory: ruInventory,
    customers: ruCustomers,
    objects: ruObjects,
    articles: ruArticles,
    suppliers: ruSuppliers,
    supplierinvoices: ruSupplierinvoices,
    supplierorders: ruSupplierorders,
    suppliercatalogues: ruSuppliercatalogues,
    deviations: ruDeviations,
    zone: ruZone,
    regions: ruRegions,
    zonerequests: ruZonerequests,
    zoneactions: ruZoneactions,
    doorautomatics: ruDoorautomatics,
    importexport: ruImportexport,
    workorders: ruWorkorders,
    workorderrows: ruWorkorderrows,
    workorderclose: ruWorkorderclose,
    documents: ruDocuments,
    calendar: ruCalendar,
    reminders: ruReminders,
    checklists: ruChecklists,
    servicereports: ruServicereports,
    dispatch: ruDispatch,
    objectworkorders: ruObjectworkorders,
    map: ruMap,
    files: ruFiles,
    proposals: ruProposals,
    sales: ruSales,
    proposalsettings: ruProposalSettings,
    invoicesettings: ruInvoiceSettings,
    proposaldocuments: ruProposalDocuments,
    invoices: ruInvoices,
    agreementinvoices: ruAgreementInvoices,
    objectagreement: ruObjectAgreement,
    agreements: ruAgreements,
    contracts: ruContracts,
    projects: ruProjects,
    expenses: ruExpenses,
    reports: ruReports,
    oncall: ruOncall,
    timetags: ruTimeTags,
    payroll: ruPayroll,
    time: ruTime,
    messageboard: ruMessageboard,
    notifications: ruNotifications,
    statistics: ruStatistics,
  },
} satisfies Record<Lang, Record<string, Record<string, string>>>;

export { NAMESPACES } from './namespaces';
