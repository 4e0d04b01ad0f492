import type { Trx } from '~/core/db/with-tenant';
import type { Permission, WorkOrderLimit } from '~/core/permissions/permissions';
import type { Tenant } from '~/core/tenancy/tenant';
import type { Lang } from '~/core/i18n/languages';

export interface SessionUser {
  id: string;
  email: string;
  fullName: string;
  shortName: string | null;
  initials: string;
  userType: 'normal' | 'super';
  language: string | null;
  startPage: 'workorders' | 'dashboard';
}

/** Who is asking: the signed-in user with the union of their access levels. */
export interface Auth {
  sessionId: string;
  user: SessionUser;
  perms: ReadonlySet<Permission>;
  modules: ReadonlySet<string>;
  limit: WorkOrderLimit;
  /** The tenant requires MFA of this user, who has not set it up yet: only the profile is open. */
  mustEnrollMfa: boolean;
}

/** What every core service receives: the tenant's transaction and who is asking. */
export interface Ctx {
  trx: Trx;
  tenant: Tenant;
  auth: Auth | null;
  lang: Lang;
  now: Date;
}
