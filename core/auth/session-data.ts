import type { Auth } from '~/core/context';
import type { Tenant } from '~/core/tenancy/tenant';

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

export function sessionData(auth: Auth, tenant: Tenant) {
  return {
    user: sessionUser(auth),
    userType: auth.user.userType,
    perms: [...auth.perms].sort(),
    limit: auth.limit,
    appModules: [...auth.modules].sort(),
    instance: { displayName: tenant.displayName, configuration: tenant.config },
  };
}
