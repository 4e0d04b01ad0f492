import type { Ctx } from '~/core/context';
import { logoDataUrl } from './logo';
import type { DocumentCompany } from './work-order-document';

/**
 * The company a document comes from: the instance's company details (settings → general), its
 * name defaulting to the tenant's display name, and the logo inlined (null when not reachable).
 */
export async function documentCompany(ctx: Ctx): Promise<DocumentCompany> {
  const { company, logoUrl } = ctx.tenant.config;
  return {
    name: company.companyName ?? ctx.tenant.displayName,
    companyNr: company.companyNr,
    address: company.address,
    postIndex: company.postIndex,
    city: company.city,
    email: company.email,
    phone: company.phone,
    vatRegistrationNr: company.vatRegistrationNr,
    bgAccount: company.bgAccount,
    logo: await logoDataUrl(logoUrl),
  };
}
