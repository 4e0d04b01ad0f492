import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';
import { pluginRoutes, type PluginRoute } from '../core/extension-points/app-module';

// App-module plugins list their pages in plugins/<name>/routes.ts (plain data, read here at build time).
const plugins = import.meta.glob<PluginRoute[]>('../plugins/*/routes.ts', { eager: true, import: 'default' });

export default [
  route('login', 'routes/login.tsx'),
  route('login/mfa', 'routes/login.mfa.tsx'),
  route('welcome', 'routes/welcome.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('auth/:provider/start', 'routes/auth.oidc.start.tsx'),
  route('auth/:provider/callback', 'routes/auth.oidc.callback.tsx'),
  route('microsoft/success', 'routes/oidc-success.tsx', { id: 'microsoft-success' }),
  route('google/success', 'routes/oidc-success.tsx', { id: 'google-success' }),
  route('language', 'routes/language.tsx'),
  // the customer's answer to an e-mailed extra-work (ATA) approval link, signed out
  route('extra-work/:token', 'routes/extra-work.$token.tsx'),
  // the customer zone (decision 061): its own sign-in, and its pages for a zone session only
  route('zone/login', 'routes/zone.login.tsx'),
  route('zone/register', 'routes/zone.register.tsx'),
  route('zone/recover', 'routes/zone.recover.tsx'),
  route('zone/logout', 'routes/zone.logout.tsx'),
  layout('routes/zone-layout.tsx', [
    route('zone', 'routes/zone._index.tsx'),
    route('zone/work-orders', 'routes/zone.work-orders.tsx'),
    route('zone/documents', 'routes/zone.documents.tsx'),
    route('zone/invoices', 'routes/zone.invoices.tsx'),
    route('zone/objects/:id', 'routes/zone.objects.$id.tsx'),
    // what the customer does there (decision 064)
    route('zone/requests', 'routes/zone.requests.tsx'),
    route('zone/requests/new', 'routes/zone.requests.new.tsx'),
    route('zone/company', 'routes/zone.company.tsx'),
    route('zone/security', 'routes/zone.security.tsx'),
    route('zone/proposals', 'routes/zone.proposals.tsx'),
    route('zone/proposals/:id', 'routes/zone.proposals.$id.tsx'),
    route('zone/extra-work', 'routes/zone.extra-work.tsx'),
  ]),
  layout('routes/app-layout.tsx', [
    // the work-order screen is the start page: the list tab, and one tab per opened order
    layout('routes/work-orders.tsx', [
      index('routes/home.tsx'),
      route('work-orders/new', 'routes/work-orders.new.tsx'),
      route('work-orders/calendar', 'routes/work-orders.calendar.tsx'),
      route('work-orders/map', 'routes/work-orders.map.tsx'),
      route('work-orders/:id', 'routes/work-orders.$id.tsx'),
    ]),
    route('work-orders/customer', 'routes/work-orders.customer.tsx'),
    route('work-orders/id06', 'routes/work-orders.id06.tsx'),
    route('work-orders/calendar/events', 'routes/work-orders.calendar.events.tsx'),
    route('work-orders/:id/history', 'routes/work-orders.$id.history.tsx'),
    route('dashboard', 'routes/dashboard.tsx'),
    // the dashboard's message board posts here (decision 066)
    route('messageboard', 'routes/messageboard.tsx'),
    // statistics (the STATISTICS module and DASHBOARD_READ): the tables and each table as a file
    route('statistics', 'routes/statistics.tsx'),
    route('statistics/export', 'routes/statistics.export.tsx'),
    route('drive', 'routes/drive.tsx'),
    // contracts (the CONTRACTS module): the list, a new contract and one contract
    route('contracts', 'routes/contracts.tsx'),
    route('contracts/new', 'routes/contracts.new.tsx'),
    route('contracts/:id', 'routes/contracts.$id.tsx'),
    // supplier invoices (the SUPPLIER_INVOICES module): the list with its status tabs and one invoice
    route('supplierinvoices', 'routes/supplierinvoices.tsx'),
    route('supplierinvoices/new', 'routes/supplierinvoices.new.tsx'),
    route('supplierinvoices/:id', 'routes/supplierinvoices.$id.tsx'),
    // supplier orders in error (issue 33 item 5): handled to a work order or discarded
    route('supplierorders', 'routes/supplierorders.tsx'),
    // deviations (the DEVIATIONS module): the dashboard, the list and its file, a new one, one deviation and its PDF;
    // fixed paths before deviations/:id
    route('deviations', 'routes/deviations.tsx'),
    route('deviations/list', 'routes/deviations.list.tsx'),
    route('deviations/export', 'routes/deviations.export.tsx'),
    route('deviations/open', 'routes/deviations.open.tsx'),
    route('deviations/new', 'routes/deviations.new.tsx'),
    route('deviations/:id', 'routes/deviations.$id.tsx'),
    route('deviations/:id/pdf', 'routes/deviations.$id.pdf.tsx'),
    // projects (the PROJECTS module): the list, a new project and one project with its menus as tabs
    route('projects', 'routes/projects.tsx'),
    route('projects/new', 'routes/projects.new.tsx'),
    route('projects/options', 'routes/projects.options.tsx'),
    // projects: the resource planning calendar and its data (fixed paths before projects/:id)
    route('projects/planning', 'routes/projects.planning.tsx'),
    route('projects/resources', 'routes/projects.resources.tsx'),
    route('projects/:id', 'routes/projects.$id.tsx'),
    // projects: the activities and extra-work (ATA approval links) panels load and post here
    route('projects/:id/activities', 'routes/projects.$id.activities.tsx'),
    route('projects/:id/extra-work', 'routes/projects.$id.extra-work.tsx'),
    // projects: the costs and statistics tabs' data, and the project report as PDF
    route('projects/:id/costs', 'routes/projects.$id.costs.tsx'),
    route('projects/:id/statistics', 'routes/projects.$id.statistics.tsx'),
    route('projects/:id/pdf', 'routes/projects.$id.pdf.tsx'),
    // projects: the invoicing tab's rows, part invoices and totals load and post here
    route('projects/:id/invoicing', 'routes/projects.$id.invoicing.tsx'),
    route('proposals', 'routes/proposals.tsx'),
    route('proposals/:id', 'routes/proposals.$id.tsx'),
    route('proposals/:id/history', 'routes/proposals.$id.history.tsx'),
    route('sales', 'routes/sales.tsx'),
    route('sales/:id', 'routes/sales.$id.tsx'),
    // proposal and sales-order documents: downloads and the proposal's e-mail
    route('proposals/:id/document', 'routes/proposals.$id.document.tsx'),
    route('sales/:id/document', 'routes/sales.$id.document.tsx'),
    route('sales/:id/history', 'routes/sales.$id.history.tsx'),
    // agreements: the agreement types; fixed paths under agreements/ (invoices, price adjustment) go before :id
    route('agreements', 'routes/agreements.tsx'),
    // agreement invoices (upcoming, scheduled, history; the bulk run and its progress) and price adjustment
    route('agreements/invoices', 'routes/agreements.invoices.tsx'),
    route('agreements/invoices/run', 'routes/agreements.invoices.run.tsx'),
    route('agreements/price-adjustment', 'routes/agreements.price-adjustment.tsx'),
    route('agreements/:id', 'routes/agreements.$id.tsx'),
    // invoices: the list, one invoice, its documents (pdf, e-mail, the ERP's file) and its history
    route('invoices', 'routes/invoices.tsx'),
    // the period's final invoices as an SIE 4I file for the accounting program
    route('invoices/sie', 'routes/invoices.sie.tsx'),
    route('invoices/:id', 'routes/invoices.$id.tsx'),
    route('invoices/:id/document', 'routes/invoices.$id.document.tsx'),
    route('invoices/:id/history', 'routes/invoices.$id.history.tsx'),
    // time: the payroll export of a locked month (PAXml 2.0 or CSV) and its preview
    // time (issue 17): a person's week, the office's month and locks
    route('time', 'routes/time.tsx'),
    route('time/office', 'routes/time.office.tsx'),
    route('time/payroll', 'routes/time.payroll.tsx'),
    route('time/payroll/export', 'routes/time.payroll.export.tsx'),
    // time: the on-call schedule (the ONCALL module)
    route('time/on-call', 'routes/time.on-call.tsx'),
    // time: the week page's mileage and compensation panels post here
    route('time/expenses', 'routes/time.expenses.tsx'),
    // reports: closed work orders, agreement invoices and time, and their CSV/XLSX downloads
    route('reports', 'routes/reports.tsx'),
    route('reports/export', 'routes/reports.export.tsx'),
    route('profile', 'routes/profile.tsx'),
    route('settings', 'routes/settings.tsx'),
    route('settings/deviations', 'routes/settings.deviations.tsx'),
    route('settings/users', 'routes/settings.users.tsx'),
    route('settings/users/new', 'routes/settings.users.new.tsx'),
    route('settings/users/:id', 'routes/settings.user.tsx'),
    route('settings/access-levels', 'routes/settings.access-levels.tsx'),
    route('settings/access-levels/:id', 'routes/settings.access-level.tsx'),
    route('settings/modules', 'routes/settings.modules.tsx'),
    route('settings/sign-in', 'routes/settings.sign-in.tsx'),
    // settings: notifications (everyone's own mail choices; admins' defaults) and the tenant's own mail account
    route('settings/notifications', 'routes/settings.notifications.tsx'),
    route('settings/email', 'routes/settings.email.tsx'),
    route('settings/work-orders', 'routes/settings.work-orders.tsx'),
    route('settings/proposals', 'routes/settings.proposals.tsx'),
    // settings: invoicing (the invoice rules) and the ERP, whose OAuth sign-in comes back to the callback
    route('settings/invoicing', 'routes/settings.invoicing.tsx'),
    route('settings/erp', 'routes/settings.erp.tsx'),
    route('settings/erp/callback', 'routes/settings.erp.callback.tsx'),
    route('settings/holidays', 'routes/settings.holidays.tsx'),
    route('settings/regions', 'routes/settings.regions.tsx'),
    route('settings/compensation-types', 'routes/settings.compensation-types.tsx'),
    route('settings/time-reports', 'routes/settings.time-reports.tsx'),
    route('settings/projects', 'routes/settings.projects.tsx'),
    route('settings/work-orders/dispatch', 'routes/settings.work-orders.dispatch.tsx'),
    route('settings/checklists', 'routes/settings.checklists.tsx'),
    route('settings/service-reports', 'routes/settings.service-reports.tsx'),
    // settings: articles (groups, price lists)
    route('settings/articles', 'routes/settings.articles.tsx'),
    route('settings/articles/groups', 'routes/settings.articles.groups.tsx'),
    route('settings/articles/pricelists', 'routes/settings.articles.pricelists.tsx'),
    route('settings/articles/pricelists/:id', 'routes/settings.articles.pricelist.tsx'),
    // settings: import and export
    route('settings/import-export', 'routes/settings.import-export.tsx'),
    route('settings/import-export/:register', 'routes/settings.import-export.$register.tsx'),
    // settings: suppliers (the same register as /inventory/suppliers)
    route('settings/articles/suppliers', 'routes/settings.articles.suppliers.tsx'),
    route('inventory', 'routes/inventory.tsx', [
      index('routes/inventory._index.tsx'),
      // inventory: customers
      route('customers', 'routes/inventory.customers.tsx'),
      route('customers/options', 'routes/inventory.customers.options.tsx'),
      route('customers/new', 'routes/inventory.customers.new.tsx'),
      route('customers/:id', 'routes/inventory.customers.detail.tsx'),
      route('customers/:id/history', 'routes/inventory.customers.history.tsx'),
      // inventory: objects and models
      route('objects', 'routes/inventory.objects.tsx'),
      route('objects/new', 'routes/inventory.objects.new.tsx'),
      route('objects/options', 'routes/inventory.objects.options.tsx'),
      route('objects/security-log', 'routes/inventory.objects.security-log.tsx'),
      route('objects/:id', 'routes/inventory.objects.$id.tsx'),
      route('objects/:id/more', 'routes/inventory.objects.$id.more.tsx'),
      route('objects/:id/agreement', 'routes/inventory.objects.$id.agreement.tsx'),
      route('objects/:id/security-export', 'routes/inventory.objects.$id.security-export.tsx'),
      route('objects/:id/codes/:codeId/value', 'routes/inventory.objects.$id.code-value.tsx'),
      route('models', 'routes/inventory.models.tsx'),
      route('models/options', 'routes/inventory.models.options.tsx'),
      // inventory: articles
      route('articles', 'routes/inventory.articles.tsx'),
      route('articles/options', 'routes/inventory.articles.options.tsx'),
      route('articles/propose', 'routes/inventory.articles.propose.tsx'),
      route('articles/supplier-options', 'routes/inventory.articles.supplier-options.tsx'),
      route('articles/:id', 'routes/inventory.articles.$id.tsx'),
      // inventory: suppliers
      route('suppliers', 'routes/inventory.suppliers.tsx'),
      route('suppliers/new', 'routes/inventory.suppliers.new.tsx'),
      route('suppliers/propose', 'routes/inventory.suppliers.propose.tsx'),
      route('suppliers/options', 'routes/inventory.suppliers.options.tsx'),
      route('suppliers/:id', 'routes/inventory.suppliers.$id.tsx'),
      ...pluginRoutes('inventory', plugins).map((r) => route(r.path, r.file, { id: r.id })),
    ]),
    // work orders: the order screen's panels post here
    route('work-orders/:id/document', 'routes/work-orders.$id.document.tsx'),
    route('work-orders/:id/articles', 'routes/work-orders.$id.articles.tsx'),
    route('work-orders/:id/time', 'routes/work-orders.$id.time.tsx'),
    route('work-orders/:id/reminders', 'routes/work-orders.$id.reminders.tsx'),
    route('work-orders/:id/checklists', 'routes/work-orders.$id.checklists.tsx'),
    route('work-orders/:id/service-reports', 'routes/work-orders.$id.service-reports.tsx'),
    route('work-orders/:id/close', 'routes/work-orders.$id.close.tsx'),

    // inventory: printable pages outside the tab bar (QR labels)
    route('qr/:id', 'routes/qr.tsx'),
    route('inventory/objects/:id/label', 'routes/inventory.objects.label.tsx'),
    ...pluginRoutes('app', plugins).map((r) => route(r.path, r.file, { id: r.id })),
    // Signed out, every other path leads to the login page; signed in, to the not-found page.
    route('*', 'routes/not-found.tsx'),
  ]),
] satisfies RouteConfig;
