import { useTranslation } from 'react-i18next';
import { PERMISSIONS, permissionGroup, type Permission } from '~/core/permissions/permissions';
import {
  PERMISSION_GROUPS,
  permissionGroupKey,
  permissionKey,
  type PermissionGroup,
} from '~/core/access-levels/permission-keys';
import { Checkbox } from './checkbox';

const BY_GROUP: Record<PermissionGroup, Permission[]> = {
  workorder: PERMISSIONS.filter((p) => permissionGroup(p) === 'workorder'),
  inventory: PERMISSIONS.filter((p) => permissionGroup(p) === 'inventory'),
  other: PERMISSIONS.filter((p) => permissionGroup(p) === 'other'),
};

export interface PermissionPickerProps {
  selected: ReadonlySet<Permission>;
  onChange: (next: Set<Permission>) => void;
  /** Each ticked permission is posted under this name. */
  name: string;
  isDisabled?: boolean;
}

/**
 * The permissions of an access level as checkboxes in the three groups of spec section 6, each
 * with its description and a "select all" for the group that shows a dash when partly selected.
 */
export function PermissionPicker({ selected, onChange, name, isDisabled }: PermissionPickerProps) {
  const { t } = useTranslation('access');
  const toggle = (list: readonly Permission[], on: boolean) => {
    const next = new Set(selected);
    for (const p of list) {
      if (on) next.add(p);
      else next.delete(p);
    }
    onChange(next);
  };
  return (
    <div className="flex flex-col gap-4">
      {PERMISSION_GROUPS.map((group) => {
        const list = BY_GROUP[group];
        const count = list.filter((p) => selected.has(p)).length;
        const groupName = t(permissionGroupKey(group));
        return (
          <fieldset key={group} className="rounded-lg border border-gray-200 p-3 sm:p-4">
            <legend className="px-1 text-base font-semibold text-gray-900">{groupName}</legend>
            <div className="flex flex-wrap items-center justify-between gap-x-4 border-b border-gray-100 pb-2">
              <Checkbox
                isSelected={count === list.length}
                isIndeterminate={count > 0 && count < list.length}
                isDisabled={isDisabled}
                onChange={(on) => toggle(list, on)}
              >
                {t('level.selectAll', { group: groupName })}
              </Checkbox>
              <span className="text-sm text-gray-600" aria-live="polite">
                {t('level.selectedCount', { selected: count, total: list.length })}
              </span>
            </div>
            <div className="mt-2 grid grid-cols-1 gap-x-6 gap-y-2 md:grid-cols-2">
              {list.map((p) => (
                <Checkbox
                  key={p}
                  name={name}
                  value={p}
                  isSelected={selected.has(p)}
                  isDisabled={isDisabled}
                  onChange={(on) => toggle([p], on)}
                  description={t(`${permissionKey(p)}.description`)}
                >
                  {t(`${permissionKey(p)}.name`)}
                </Checkbox>
              ))}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}
