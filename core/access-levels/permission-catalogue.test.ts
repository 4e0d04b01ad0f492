import { describe, expect, it } from 'vitest';
import { resources } from '~/core/i18n/locales';
import { LANGS } from '~/core/i18n/languages';
import { APP_MODULES } from '~/core/modules/app-modules';
import { PERMISSIONS, WORK_ORDER_LIMITS } from '~/core/permissions/permissions';
import { permissionCatalogue } from './permission-catalogue';
import {
  appModuleKey,
  PERMISSION_GROUPS,
  permissionGroupKey,
  permissionKey,
  workOrderLimitKey,
} from './permission-keys';

describe('[access-levels] permission catalogue', () => {
  it('makes keys i18next can read: no namespace separator', () => {
    expect(permissionKey('customers:files:read')).toBe('perm.customers.files.read');
    const stems = PERMISSIONS.map(permissionKey);
    expect(new Set(stems).size).toBe(PERMISSIONS.length);
    for (const s of stems) expect(s).not.toContain(':');
  });

  it.each(LANGS)('names and describes every permission, group, limit and app module in %s', (lang) => {
    const words = resources[lang].access as Record<string, string>;
    const keys = [
      ...PERMISSIONS.flatMap((p) => [`${permissionKey(p)}.name`, `${permissionKey(p)}.description`]),
      ...PERMISSION_GROUPS.map(permissionGroupKey),
      ...WORK_ORDER_LIMITS.map(workOrderLimitKey),
      ...APP_MODULES.map(appModuleKey),
    ];
    for (const key of keys) expect(words[key]?.trim(), `${lang}/access.json "${key}"`).toBeTruthy();
  });

  it('answers every permission once, translated, in its spec group', () => {
    const sv = permissionCatalogue('sv');
    expect(sv.map((p) => p.id)).toEqual([...PERMISSIONS]);
    expect(sv.find((p) => p.id === 'workorders:close')).toEqual({
      id: 'workorders:close',
      name: 'Avsluta arbetsordrar',
      description: 'Avsluta färdiga arbetsordrar.',
      group: 'workorder',
    });
    expect(sv.find((p) => p.id === 'bo:codes:view')?.group).toBe('inventory');
    expect(sv.find((p) => p.id === 'drive:read')?.group).toBe('other');
    expect(permissionCatalogue('en').find((p) => p.id === 'workorders:close')?.name).toBe('Close work orders');
  });
});
