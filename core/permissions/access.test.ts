import { describe, expect, it } from 'vitest';
import type { Auth } from '~/core/context';
import { accessSnapshot, canWith, hasAccess, requireModule, requirePermission } from './access';

const auth = (
  over: Partial<Auth['user']> = {},
  perms: string[] = ['settings:read'],
  modules: string[] = ['crm'],
): Auth =>
  ({
    sessionId: 's',
    user: {
      id: 'u',
      email: 'a@b.se',
      fullName: 'A B',
      shortName: null,
      initials: 'AB',
      userType: 'normal',
      language: null,
      startPage: 'workorders',
      ...over,
    },
    perms: new Set(perms),
    modules: new Set(modules),
    limit: 'none',
    mustEnrollMfa: false,
  }) as Auth;

describe('[access] the rule, on the server and mirrored in the UI', () => {
  const cases: [string, Auth | null, Parameters<typeof hasAccess>[1], boolean][] = [
    ['public is open to anyone', null, { permission: 'public' }, true],
    ['signed-in needs a session', null, { permission: 'signed-in' }, false],
    ['a granted permission', auth(), { permission: 'settings:read' }, true],
    ['a missing permission', auth(), { permission: 'users:edit' }, false],
    ['an enabled module', auth({}, ['salesorder:read']), { permission: 'salesorder:read', module: 'crm' }, true],
    ['a disabled module', auth({}, ['projects:read']), { permission: 'projects:read', module: 'projects' }, false],
    [
      'super bypasses module gating',
      auth({ userType: 'super' }, ['projects:read']),
      { permission: 'projects:read', module: 'projects' },
      true,
    ],
    [
      'super still needs the permission',
      auth({ userType: 'super' }, []),
      { permission: 'projects:read', module: 'projects' },
      false,
    ],
  ];
  it.each(cases)('%s', (_name, who, access, expected) => {
    expect(hasAccess(who, access)).toBe(expected);
    expect(canWith(who ? accessSnapshot(who) : undefined, access)).toBe(expected);
  });

  it('requirePermission and requireModule throw the spec codes', () => {
    expect(() => requirePermission(null, 'settings:read')).toThrow(
      expect.objectContaining({ code: 'INVALID_SESSION', status: 401 }),
    );
    expect(() => requirePermission(auth(), 'users:edit')).toThrow(
      expect.objectContaining({ code: 'WARNING_PERMISSION_DENIED', status: 403 }),
    );
    expect(() => requireModule(auth(), 'projects')).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => requireModule(auth(), 'crm')).not.toThrow();
  });
});
