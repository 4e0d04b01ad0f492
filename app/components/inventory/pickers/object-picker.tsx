import { EntityPicker, type EntityPickerProps, type PickerOption } from '~/app/components/ui/entity-picker';

export interface ObjectPickerProps extends Omit<EntityPickerProps, 'source' | 'params'> {
  /** Only this customer's objects (the customer's uuid). */
  customerId?: string | null;
}

/**
 * Picks an installed object (spec: object picker): searches serial code, location, model and
 * customer on the server, options labelled "serial – model – location" with the customer beside.
 */
export function ObjectPicker({ customerId, ...props }: ObjectPickerProps) {
  return (
    <EntityPicker {...props} source="/inventory/objects/options" params={customerId ? { customerId } : undefined} />
  );
}

export type { PickerOption };
