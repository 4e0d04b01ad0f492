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
  /** The user's region (the regions module, decision 067): the lists it applies to start filtered by it. */
  region?: string | null;
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

/**
 * A customer-zone user signed in at /zone (decision 061): a different kind of session from staff's,
 * carrying the zone user and the customer every zone query is scoped by.
 */
export interface ZoneAuth {
  sessionId: string;
  user: { id: string; email: string; name: string; language: string | null };
  customerId: string;
  customerName: string;
  /** The customer's invoice language (the zone's language when the person chose none). */
  customerLanguage: string | null;
  modules: ReadonlySet<string>;
}

/** What every core service receives: the tenant's transaction and who is asking. */
export interface Ctx {
  trx: Trx;
  tenant: Tenant;
  /** A staff user; always null for a zone session. */
  auth: Auth | null;
  /** A zone user (zone calls and pages only); absent or null everywhere else. */
  zone?: ZoneAuth | null;
  lang: Lang;
  now: Date;
}
