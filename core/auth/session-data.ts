import type { Auth } from '~/core/context';
import type { Trx } from '~/core/db/with-tenant';
import type { Tenant } from '~/core/tenancy/tenant';
import { sessionRegion } from '~/core/regions/region.service';

/** The spec's Session shape (section 3), as the API and the shell read it. */
/** The signed-in user as the API shows them (keepalive answers this alone). */
export function sessionUser(auth: Auth) {
  return {
    id: auth.user.id,
    fullName: auth.user.fullName,
    initials: auth.user.initials,
    shortName: auth.user.shortName,
    email: auth.user.email,
    department: null,
    configuration: { language: auth.user.language, startPage: auth.user.startPage },
  };
}

export async function sessionData(trx: Trx, auth: Auth, tenant: Tenant) {
  return {
    user: sessionUser(auth),
    userType: auth.user.userType,
    region: sessionRegion(auth),
    perms: [...auth.perms].sort(),
    limit: auth.limit,
    appModules: [...auth.modules].sort(),
    instance: { displayName: tenant.displayName, configuration: tenant.config },
    onDemandServiceReports: await onDemandServiceReports(trx, auth),
  };
}

/**
 * The service-report templates any order may start (spec section 2, session
 * `onDemandServiceReports`): the active on-demand ones, `[{id, title}]` by title; none without the
 * service-reports module (user type super is not gated).
 */
async function onDemandServiceReports(trx: Trx, auth: Auth): Promise<{ id: string; title: string }[]> {
  if (auth.user.userType !== 'super' && !auth.modules.has('servicereports')) return [];
  return (await trx('service_report_templates')
    .where({ active: true, on_demand: true })
    .orderByRaw('lower(title), id')
    .select('id', 'title')) as { id: string; title: string }[];
}
