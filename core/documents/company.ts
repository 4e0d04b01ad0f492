import type { Ctx } from '~/core/context';
import { logoDataUrl } from './logo';
import type { DocumentCompany } from './work-order-document';

/**
 * The company a document comes from: the instance's company details (settings → general), its
 * name defaulting to the tenant's display name. The logo is only named here: `inlineLogo` fetches
 * it when the document is printed, outside the unit of work (decision 049).
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
    logoUrl: logoUrl ?? null,
    logo: null,
  };
}

/** The model with its company's logo inlined as a data: URL (null when not reachable in time). */
export async function inlineLogo<M extends { company: DocumentCompany }>(model: M): Promise<M> {
  if (model.company.logo || !model.company.logoUrl) return model;
  return { ...model, company: { ...model.company, logo: await logoDataUrl(model.company.logoUrl) } };
}
