import type { Auth } from '~/core/context';
import { invalidSession, permissionDenied } from '~/core/errors/app-error';
import type { AppModuleId } from '~/core/modules/app-modules';
import type { Permission } from './permissions';

/**
 * What a route, action or API call needs. Every one declares it; a test walks them all.
 * `public`: anyone on the tenant's host; `signed-in`: any active user; a permission string:
 * a user whose access levels grant it. `module` additionally needs that app module enabled
 * (user type super bypasses module gating, spec section 6).
 */
export interface Access {
  /**
   * `zone`: a customer-zone user signed in at /zone (decision 061), a different kind of session
   * that no staff session satisfies (and that satisfies nothing else).
   */
  permission: Permission | 'public' | 'signed-in' | 'zone';
  module?: AppModuleId;
}

export const PUBLIC: Access = { permission: 'public' };
export const SIGNED_IN: Access = { permission: 'signed-in' };
/** Every zone call and page: a zone session, in a tenant with the customer zone on. */
export const ZONE_ACCESS: Access = { permission: 'zone', module: 'customerzone' };

export function hasAccess(auth: Auth | null, access: Access): boolean {
  return canWith(auth ? accessSnapshot(auth) : undefined, access);
}

/** Throws 401 INVALID_SESSION without a session, 403 WARNING_PERMISSION_DENIED without the right. */
export function requireAccess(auth: Auth | null, access: Access): asserts auth is Auth {
  if (access.permission === 'public') return;
  if (!auth || access.permission === 'zone') throw invalidSession();
  if (!hasAccess(auth, access)) throw permissionDenied();
}

/** Shorthands for the two halves of an access declaration. */
export const requirePermission = (auth: Auth | null, permission: Permission): void =>
  requireAccess(auth, { permission });
export const requireModule = (auth: Auth | null, module: AppModuleId): void =>
  requireAccess(auth, { permission: 'signed-in', module });

/** What the browser needs to mirror `hasAccess` (the `can()` of app/lib/can.ts). */
export function accessSnapshot(auth: Auth) {
  return { perms: [...auth.perms], modules: [...auth.modules], userType: auth.user.userType };
}
export type AccessSnapshot = ReturnType<typeof accessSnapshot>;

/** `hasAccess` on a snapshot: the same rule, usable in components. */
export function canWith(snapshot: AccessSnapshot | undefined, access: Access): boolean {
  if (access.permission === 'public') return true;
  // a staff user, however privileged, is never a zone user
  if (!snapshot || access.permission === 'zone') return false;
  if (access.module && snapshot.userType !== 'super' && !snapshot.modules.includes(access.module)) return false;
  return access.permission === 'signed-in' || (snapshot.perms as string[]).includes(access.permission);
}
