import type { PickerOption } from '~/app/components/ui/entity-picker';
import type { DoorAutomaticObject } from '../door-automatic.service';

/**
 * Where the object picker searches: the objects register's resource route (needs bo:read). The
 * shared ObjectPicker (app/components/inventory/pickers) can replace the plain EntityPicker once
 * it exists; the source stays the same.
 */
export const OBJECT_OPTIONS_SOURCE = '/inventory/objects/options';

/** An object as the picker shows it before anything is typed: serial – location, customer under it. */
export function objectOption(o: DoorAutomaticObject): PickerOption {
  return {
    id: o.id,
    label: [o.serialCode, o.location].filter(Boolean).join(' – '),
    description: o.customerName ?? undefined,
  };
}
