import { useState } from 'react';
import { parseDate } from '@internationalized/date';
import { TextArea, TextField as AriaTextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Form, useNavigation } from 'react-router';
import { Button, DatePicker, ProposeField, TextField } from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { EntityPicker, type PickerOption } from '~/app/components/ui/entity-picker';
import { FIELD_CLASS, FieldErrorText, FieldLabel, INPUT_BOX_CLASS, INPUT_FOCUS_CLASS } from '~/app/components/ui/field';
import { OBJECT_OPTIONS_SOURCE } from './object-option';

/** The spec's door automatic fields (section 3) as the form edits them. */
export interface DoorAutomaticDraft {
  number: string;
  title: string;
  serialCode: string | null;
  brand: string | null;
  model: string | null;
  location: string | null;
  warrantyUntil: string | null;
  sensor: string | null;
  notes: string | null;
  image: string | null;
}

export const EMPTY_DOOR_AUTOMATIC: DoorAutomaticDraft = {
  number: '',
  title: '',
  serialCode: null,
  brand: null,
  model: null,
  location: null,
  warrantyUntil: null,
  sensor: null,
  notes: null,
  image: null,
};

/** The posted fields, as the service takes them (empty text means "none"). */
export function doorAutomaticFromForm(form: FormData) {
  const text = (k: string) => String(form.get(k) ?? '');
  return {
    number: text('number').trim() || undefined,
    title: text('title'),
    businessObjectId: text('businessObjectId'),
    serialCode: text('serialCode'),
    brand: text('brand'),
    model: text('model'),
    location: text('location'),
    warrantyUntil: text('warrantyUntil'),
    sensor: text('sensor'),
    notes: text('notes'),
    image: text('image'),
  };
}

function safeDate(value: string | null) {
  try {
    return value ? parseDate(value) : null;
  } catch {
    return null;
  }
}

export interface DoorAutomaticFormProps {
  doorAutomatic: DoorAutomaticDraft;
  object: PickerOption | null;
  errors: (field: string) => string[] | undefined;
  canEdit: boolean;
  submitLabel: string;
  children?: React.ReactNode;
}

/**
 * A door automatic's fields: its ID (proposed from the object, `<serial>-<n>`), title, the object
 * it is installed at, and the installation's details. Field errors from the server show under
 * each field.
 */
export function DoorAutomaticForm({
  doorAutomatic: d,
  object,
  errors,
  canEdit,
  submitLabel,
  children,
}: DoorAutomaticFormProps) {
  const { t } = useTranslation('doorautomatics');
  const busy = useNavigation().state === 'submitting';
  const [chosen, setChosen] = useState<PickerOption | null>(object);
  const disabled = !canEdit;
  return (
    <Form method="post" className="grid gap-4 sm:grid-cols-2" noValidate>
      <input type="hidden" name="intent" value="save" />
      <EntityPicker
        name="businessObjectId"
        label={t('field.object')}
        source={OBJECT_OPTIONS_SOURCE}
        defaultSelected={object}
        onSelectionChange={setChosen}
        isRequired
        isDisabled={disabled}
        errorMessage={errors('businessObjectId')}
        className="sm:col-span-2"
      />
      <ProposeField
        name="number"
        label={t('field.number')}
        defaultValue={d.number}
        proposeUrl={chosen ? `/inventory/doorautomatics/propose?relationId=${encodeURIComponent(chosen.id)}` : null}
        proposeLabel={t('field.number.propose')}
        isDisabled={disabled}
        errorMessage={errors('number')}
        description={d.number ? undefined : t('field.number.help')}
      />
      <TextField
        name="title"
        label={t('field.title')}
        defaultValue={d.title}
        isRequired
        isDisabled={disabled}
        errorMessage={errors('title')}
      />
      <TextField
        name="brand"
        label={t('field.brand')}
        defaultValue={d.brand ?? ''}
        isDisabled={disabled}
        errorMessage={errors('brand')}
      />
      <TextField
        name="model"
        label={t('field.model')}
        defaultValue={d.model ?? ''}
        isDisabled={disabled}
        errorMessage={errors('model')}
      />
      <TextField
        name="serialCode"
        label={t('field.serialCode')}
        defaultValue={d.serialCode ?? ''}
        isDisabled={disabled}
        errorMessage={errors('serialCode')}
      />
      <TextField
        name="location"
        label={t('field.location')}
        description={t('field.location.help')}
        defaultValue={d.location ?? ''}
        isDisabled={disabled}
        errorMessage={errors('location')}
      />
      <DatePicker
        name="warrantyUntil"
        label={t('field.warrantyUntil')}
        defaultValue={safeDate(d.warrantyUntil)}
        isDisabled={disabled}
        errorMessage={errors('warrantyUntil')}
      />
      <TextField
        name="sensor"
        label={t('field.sensor')}
        description={t('field.sensor.help')}
        defaultValue={d.sensor ?? ''}
        isDisabled={disabled}
        errorMessage={errors('sensor')}
      />
      <TextField
        name="image"
        type="url"
        label={t('field.image')}
        description={t('field.image.help')}
        defaultValue={d.image ?? ''}
        isDisabled={disabled}
        errorMessage={errors('image')}
        className="sm:col-span-2"
      />
      {d.image ? (
        <a href={d.image} target="_blank" rel="noreferrer" className="sm:col-span-2">
          <img src={d.image} alt={t('field.image.alt', { title: d.title })} className="max-h-48 rounded-md border" />
        </a>
      ) : null}
      <AriaTextField
        name="notes"
        defaultValue={d.notes ?? ''}
        isDisabled={disabled}
        isInvalid={Boolean(errors('notes')) || undefined}
        className={cx(FIELD_CLASS, 'sm:col-span-2')}
      >
        <FieldLabel>{t('field.notes')}</FieldLabel>
        <TextArea rows={4} className={cx(INPUT_BOX_CLASS, INPUT_FOCUS_CLASS, 'min-h-24 px-3 py-2')} />
        <FieldErrorText errorMessage={errors('notes')} />
      </AriaTextField>
      {canEdit || children ? (
        <div className="flex flex-wrap gap-2 sm:col-span-2">
          {canEdit ? (
            <Button type="submit" variant="primary" isPending={busy}>
              {submitLabel}
            </Button>
          ) : null}
          {children}
        </div>
      ) : null}
    </Form>
  );
}
