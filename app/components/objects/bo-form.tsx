import { useTranslation } from 'react-i18next';
import { CustomerPicker } from '~/app/components/inventory/pickers/customer-picker';
import { ProposeField, Select, TextField } from '~/app/components/ui';
import { EntityPicker } from '~/app/components/ui/entity-picker';
import { RegionSelect } from '~/app/components/regions/region-select';
import { TextArea, useFieldErrors, type ActionResult } from './shared';

/** The object's own fields as the form needs them (a new object has none yet). */
export interface BoFormValues {
  serialCode: string;
  status: 'active' | 'inactive';
  model: { id: string; label: string } | null;
  customer: { id: string; label: string } | null;
  priceListId: string | null;
  location: string | null;
  location2: string | null;
  location3: string | null;
  region?: string | null;
  description: string | null;
  invoiceMarking: string | null;
}

/**
 * The fields of an object (spec section 3) inside the caller's form: serial code (with the
 * proposed next number), model, customer, three location lines, description, price list,
 * invoice marking and, for an existing object, status.
 */
export function BoFields({
  values,
  result,
  priceLists,
  proposedSerial,
  isNew,
  isDisabled,
  regions = [],
}: {
  values: BoFormValues | null;
  result: ActionResult | undefined;
  priceLists: { id: string; label: string }[];
  proposedSerial?: string | null;
  isNew: boolean;
  isDisabled?: boolean;
  /** The regions to offer (none: the regions module is off, and no field shows). */
  regions?: string[];
}) {
  const { t } = useTranslation('objects');
  const err = useFieldErrors(result, 'bo');
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <ProposeField
        name="serialCode"
        label={t('field.serialCode')}
        defaultValue={values?.serialCode ?? ''}
        proposal={proposedSerial}
        proposeLabel={t('field.useProposal')}
        canPropose={isNew && !!proposedSerial}
        isRequired
        isDisabled={isDisabled}
        autoFocus={isNew}
        errorMessage={err('serialCode')}
        description={isNew && proposedSerial ? t('field.serialCodeProposal', { id: proposedSerial }) : undefined}
      />
      {isNew ? null : (
        <Select
          name="status"
          label={t('field.status')}
          defaultSelectedKey={values?.status ?? 'active'}
          isDisabled={isDisabled}
          items={[
            { id: 'active', label: t('status.active') },
            { id: 'inactive', label: t('status.inactive') },
          ]}
        />
      )}
      <EntityPicker
        name="modelId"
        label={t('field.model')}
        source="/inventory/models/options"
        defaultSelected={values?.model ?? null}
        isDisabled={isDisabled}
        errorMessage={err('modelId')}
      />
      <CustomerPicker
        name="customerId"
        label={t('field.customer')}
        defaultSelected={values?.customer ?? null}
        isDisabled={isDisabled}
        errorMessage={err('customerId')}
      />
      <TextField
        name="location"
        label={t('field.location')}
        defaultValue={values?.location ?? ''}
        isDisabled={isDisabled}
        errorMessage={err('location')}
        className="sm:col-span-2"
      />
      <TextField
        name="location2"
        label={t('field.location2')}
        defaultValue={values?.location2 ?? ''}
        isDisabled={isDisabled}
        errorMessage={err('location2')}
      />
      <TextField
        name="location3"
        label={t('field.location3')}
        defaultValue={values?.location3 ?? ''}
        isDisabled={isDisabled}
        errorMessage={err('location3')}
      />
      <RegionSelect
        choices={regions}
        value={values?.region}
        isDisabled={isDisabled}
        errorMessage={err('region')}
      />
      <TextArea
        name="description"
        label={t('field.description')}
        defaultValue={values?.description ?? ''}
        isDisabled={isDisabled}
        errorMessage={err('description')}
        className="sm:col-span-2"
      />
      <Select
        name="priceListId"
        label={t('field.priceList')}
        defaultSelectedKey={values?.priceListId ?? ''}
        isDisabled={isDisabled}
        errorMessage={err('priceListId')}
        items={[{ id: '', label: t('field.noPriceList') }, ...priceLists]}
      />
      <TextField
        name="invoiceMarking"
        label={t('field.invoiceMarking')}
        defaultValue={values?.invoiceMarking ?? ''}
        isDisabled={isDisabled}
        errorMessage={err('invoiceMarking')}
      />
    </div>
  );
}

/** The object fields of a posted BoFields form, as the services take them. */
export function boFromForm(form: FormData) {
  const text = (k: string) => (form.has(k) ? String(form.get(k) ?? '') : undefined);
  return {
    serialCode: text('serialCode'),
    status: text('status') || undefined,
    modelId: text('modelId'),
    customerId: text('customerId'),
    priceListId: text('priceListId'),
    location: text('location'),
    location2: text('location2'),
    location3: text('location3'),
    region: text('region'),
    description: text('description'),
    invoiceMarking: text('invoiceMarking'),
  };
}
