import { z } from 'zod';
import { ErpError } from '~/core/extension-points/erp-http';
import { defineErpProvider } from '~/core/extension-points/erp-provider';

/**
 * The built-in "no ERP" provider: invoices stay in Ordo (pdf and e-mail). It always exists, so a
 * tenant without an integration needs no special case anywhere; it declares it can send nothing, so
 * the invoice screen offers no ERP action and the core never queues a delivery for it.
 */
export default defineErpProvider({
  id: 'none',
  displayName: 'Ordo',
  erpKind: 'none',
  options: z.object({}).strict(),
  tenantOptions: z.object({}).strict(),
  create: () => ({
    capabilities: {
      sendInvoices: false,
      invoiceFile: false,
      readInvoice: false,
      listArticles: false,
      taxReduction: false,
      supplierInvoices: false,
    },
    auth: { type: 'none' },
    async testConnection() {
      return { companyName: null };
    },
    async ensureCustomer() {
      throw new ErpError('ERP_NOT_CONNECTED');
    },
    async ensureArticle() {
      throw new ErpError('ERP_NOT_CONNECTED');
    },
    async sendInvoice() {
      throw new ErpError('ERP_NOT_CONNECTED');
    },
    async readInvoice() {
      throw new ErpError('ERP_NOT_CONNECTED');
    },
    async listArticles() {
      return [];
    },
  }),
});
