import type { Auth } from '~/core/context';
import type { Permission } from '~/core/permissions/permissions';

/** A signed-in person for calling core services directly: these permissions and modules, no limit. */
export function testAuth(userId: string, perms: readonly Permission[], modules: readonly string[] = []): Auth {
  return {
    sessionId: 'test',
    user: {
      id: userId,
      email: 'x@example.se',
      fullName: 'X',
      shortName: null,
      initials: 'X',
      userType: 'normal',
      language: null,
      startPage: 'workorders',
    },
    perms: new Set(perms),
    modules: new Set(modules),
    limit: 'none',
    mustEnrollMfa: false,
  };
}
