import { useTranslation } from 'react-i18next';
import { EntityPicker, type EntityPickerProps } from '~/app/components/ui/entity-picker';

export type CustomerPickerProps = Omit<EntityPickerProps, 'source' | 'label'> & {
  /** Visible label; "Customer" unless told. */
  label?: string;
};

/**
 * Picks an active customer ("10001 – Brf Solrosen", the primary address under it), searching
 * number, name and organisation number on the server as you type. Posts the customer's id under
 * `name`.
 */
export function CustomerPicker({ label, ...props }: CustomerPickerProps) {
  const { t } = useTranslation('customers');
  return <EntityPicker {...props} label={label ?? t('picker.label')} source="/inventory/customers/options" />;
}
