import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RouteConfigEntry } from '@react-router/dev/routes';
import routes from './routes';
import { GUARD, type GuardMiddleware } from '~/app/lib/guard.server';
import { API_CALLS } from '~/core/api/catalogue';
import { isZoneCall } from '~/core/api/define-call';
import { isPermission } from '~/core/permissions/permissions';
import { APP_MODULES } from '~/core/modules/app-modules';
import type { Access } from '~/core/permissions/access';

function flatten(entries: RouteConfigEntry[]): RouteConfigEntry[] {
  return entries.flatMap((e) => [e, ...flatten(e.children ?? [])]);
}

function validAccess(access: Access | undefined): boolean {
  if (!access) return false;
  const p = access.permission;
  const okPermission = p === 'public' || p === 'signed-in' || p === 'zone' || isPermission(p);
  return okPermission && (!access.module || (APP_MODULES as readonly string[]).includes(access.module));
}

describe('[platform] every route and API call declares its access', () => {
  const entries = flatten(routes);

  it.each(entries.map((e) => [e.file]))('route %s exports a guard', async (file) => {
    const mod = (await import(/* @vite-ignore */ path.join(import.meta.dirname, file))) as {
      middleware?: GuardMiddleware[];
    };
    const declared = mod.middleware?.find((m) => GUARD in m)?.[GUARD];
    expect(validAccess(declared), `${file} must export middleware = guard({...})`).toBe(true);
  });

  it('every API call names a known permission or public/signed-in, and known modules', () => {
    for (const call of API_CALLS) expect(validAccess(call.access), `${call.method} ${call.path}`).toBe(true);
    const keys = API_CALLS.map((c) => `${c.method} ${c.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('the customer zone is its own kind: /zone/ calls are public or zone, and only they are zone (decision 061)', () => {
    for (const call of API_CALLS) {
      const key = `${call.method} ${call.path}`;
      if (isZoneCall(call)) expect(['public', 'zone'], key).toContain(call.access.permission);
      else expect(call.access.permission, key).not.toBe('zone');
    }
    expect(API_CALLS.filter((c) => c.access.permission === 'zone').length).toBeGreaterThan(5);
  });
});
