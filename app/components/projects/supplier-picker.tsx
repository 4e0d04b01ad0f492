import { EntityPicker, type EntityPickerProps } from '~/app/components/ui/entity-picker';

/** Picks a supplier ("2001 – Elgrossisten"), searching the register on the server as you type. */
export function SupplierPicker(props: Omit<EntityPickerProps, 'source'>) {
  return <EntityPicker {...props} source="/inventory/suppliers/options" />;
}
