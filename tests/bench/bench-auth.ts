import type { Auth } from '~/core/context';
import { APP_MODULES } from '~/core/modules/app-modules';
import { PERMISSIONS } from '~/core/permissions/permissions';

/** A signed-in super user with every permission and module, for benches that call services in-process. */
export function benchAuth(user: { id: string; email: string; name: string }): Auth {
  return {
    sessionId: 'bench',
    user: {
      id: user.id,
      email: user.email,
      fullName: user.name,
      shortName: null,
      initials: 'AB',
      userType: 'super',
      language: null,
      startPage: 'workorders',
    },
    perms: new Set(PERMISSIONS),
    modules: new Set(APP_MODULES),
    limit: 'none',
    mustEnrollMfa: false,
  };
}
