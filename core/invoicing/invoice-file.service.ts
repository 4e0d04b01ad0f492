import { tenantDate } from '~/core/calendar/dates';
import type { Ctx } from '~/core/context';
import type { DocumentFile } from '~/core/documents/file';
import { AppError } from '~/core/errors/app-error';
import { isErpError } from '~/core/extension-points/erp-http';
import { recordHistory } from '~/core/history/history';
import { requireApplyTypeOn } from './apply-types';
import { tenantErp } from './erp-connection';
import { buildErpInvoice } from './erp-delivery';
import { finalizeForDocument } from './invoice.service';
import { INVOICE_ENTITY } from './invoice-store';

/**
 * POST /invoice/apply {type: visma-xml}: the invoice as the file the tenant's ERP imports (Visma
 * Administration's SIE 4I verification, Magenta's web-order e-mail; issue 14 item 5, issue 31 item
 * 5). A draft is finalized first: a file that leaves carries the invoice's number. 409
 * ERP_CANNOT_MAKE_FILE when the tenant's ERP takes no file. History: the apply type.
 */
export async function invoiceFileOf(ctx: Ctx, invoiceId: unknown): Promise<DocumentFile> {
  await requireApplyTypeOn(ctx, 'visma-xml');
  const invoice = await finalizeForDocument(ctx, invoiceId);
  const erp = await tenantErp(ctx);
  if (!erp.provider.capabilities.invoiceFile || !erp.provider.invoiceFile)
    throw new AppError('ERP_CANNOT_MAKE_FILE', 409);
  if (invoice.status !== 'finalized') throw new AppError('INVOICE_NOT_FINALIZED', 409);
  const erpInvoice = await buildErpInvoice(ctx.trx, invoice.id, erp.connection);
  let file;
  try {
    const { company, country } = ctx.tenant.config;
    file = erp.provider.invoiceFile(erpInvoice, {
      // the same company and day the SIE export of a period names (sie-export.service.ts)
      company: { name: company.companyName ?? ctx.tenant.displayName, orgNr: company.companyNr ?? null },
      generated: { date: tenantDate(ctx.now, country), sign: ctx.auth?.user.fullName ?? null },
      accounts: erp.connection.accounts,
    });
  } catch (err) {
    // the plugin refuses what its ERP's import would refuse: the person sees why
    if (isErpError(err)) throw new AppError(err.code, 409, { vendorMessage: err.vendorMessage });
    throw err;
  }
  await recordHistory(ctx, {
    entity: INVOICE_ENTITY,
    entityId: invoice.id,
    action: 'visma-xml',
    data: { fileName: file.fileName },
  });
  return { filename: file.fileName, contentType: file.contentType, body: file.body };
}
