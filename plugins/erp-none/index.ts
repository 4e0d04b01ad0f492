import { z } from 'zod';
import { defineErpProvider } from '~/core/extension-points/erp-provider';

/**
 * The built-in "no ERP" provider: invoices stay in Ordo. It always exists, so a tenant without
 * an integration needs no special case anywhere.
 */
export default defineErpProvider({
  id: 'none',
  displayName: 'Ordo',
  options: z.object({}).strict(),
  tenantOptions: z.object({}).strict(),
  create: () => ({
    async testConnection() {},
    async sendInvoice() {
      return { externalId: null, state: 'unknown' as const };
    },
  }),
});
