import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ProposeField, Select, TextField } from '~/app/components/ui';
import { cx } from '~/app/components/ui/class-names';
import { LANGUAGE_KEYS } from '~/core/instance/instance-config';
import { langFromKey } from '~/core/i18n/languages';
import { AddressesEditor, type AddressValues } from './addresses-editor';
import { ContactsEditor, type ContactValues } from './contacts-editor';

/** What the form shows: a customer as the API answers it (or nothing yet, for a new one). */
export interface CustomerFormValues {
  customerId: string | null;
  name: string;
  type: 'private' | 'company';
  status: 'active' | 'inactive';
  potential: boolean;
  organizationalNumber: string | null;
  vatNumber: string | null;
  country: string | null;
  peppolId: string | null;
  personId: string | null;
  phone: string | null;
  email: string | null;
  paymentTermDays: number | null;
  reverseVat: boolean;
  bgAccount: string | null;
  iban: string | null;
  bic: string | null;
  defaultDiscount: number | null;
  priceListId: string | null;
  invoiceLanguage: string | null;
  invoiceEmail: string | null;
  broadcastEmail: string | null;
  sendToErp: boolean;
  notes: string | null;
  /** The stored configuration without the flags that have their own fields. */
  configuration: Record<string, unknown>;
  contacts: ContactValues[];
  addresses: AddressValues[];
}

export interface CustomerFormProps {
  customer: CustomerFormValues | null;
  priceLists: readonly { id: string; label: string }[];
  /** Field errors of the last save, keyed by input name (message keys). */
  errors?: Record<string, string[]>;
  isDisabled?: boolean;
  /** The user may only create potential customers (customers:create_potential). */
  onlyPotential?: boolean;
}

const SECTION = 'grid gap-4 sm:grid-cols-2';
const HEADING = 'text-base font-semibold text-slate-900 sm:col-span-2';

/** Checkbox that posts a hidden "false" and, ticked, a "true" after it (read by customerFromForm). */
function Flag({
  name,
  label,
  description,
  defaultChecked,
  isDisabled,
  forced,
}: {
  name: string;
  label: string;
  description?: string;
  defaultChecked: boolean;
  isDisabled?: boolean;
  forced?: boolean;
}) {
  return (
    <label className="flex min-h-10 items-start gap-3 py-1 text-sm">
      <input type="hidden" name={name} value={forced ? 'true' : 'false'} />
      <input
        type="checkbox"
        name={name}
        value="true"
        defaultChecked={forced || defaultChecked}
        disabled={isDisabled || forced}
        className="mt-0.5 size-5 shrink-0 accent-blue-700"
      />
      <span>
        <span className="font-medium text-slate-900">{label}</span>
        {description ? <span className="block text-slate-600">{description}</span> : null}
      </span>
    </label>
  );
}

/**
 * Every field of a customer (spec section 3) with its contacts and addresses, posted as one form.
 * Private customers show a person ID, companies their organisation and VAT numbers.
 */
export function CustomerForm({ customer, priceLists, errors, isDisabled, onlyPotential }: CustomerFormProps) {
  const { t } = useTranslation('customers');
  const { t: tc } = useTranslation();
  const [type, setType] = useState<'private' | 'company'>(customer?.type ?? 'company');
  const err = (name: string) => errors?.[name]?.map((k) => tc(k));

  const text = (
    name: keyof CustomerFormValues,
    props: { label: string; type?: 'email' | 'tel'; className?: string; description?: string; isRequired?: boolean },
  ) => (
    <TextField
      name={name}
      type={props.type}
      label={props.label}
      description={props.description}
      defaultValue={customer?.[name] == null ? '' : String(customer[name])}
      isDisabled={isDisabled}
      isRequired={props.isRequired}
      errorMessage={err(name)}
      className={props.className}
    />
  );

  const group = (children: ReactNode, title: string, id: string) => (
    <section aria-labelledby={id} className={cx(SECTION, 'border-t border-slate-200 pt-5')}>
      <h2 id={id} className={HEADING}>
        {title}
      </h2>
      {children}
    </section>
  );

  return (
    <div className="grid gap-6">
      <section aria-labelledby="customer-basics" className={SECTION}>
        <h2 id="customer-basics" className={HEADING}>
          {t('section.basics')}
        </h2>
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium text-gray-900">{t('field.type')}</legend>
          <div className="mt-1 flex flex-wrap gap-x-6">
            {(['company', 'private'] as const).map((value) => (
              <label key={value} className="flex min-h-10 items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="type"
                  value={value}
                  checked={type === value}
                  onChange={() => setType(value)}
                  disabled={isDisabled}
                  className="size-5 accent-blue-700"
                />
                {t(`type.${value}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <TextField
          name="name"
          label={type === 'private' ? t('field.personName') : t('field.name')}
          defaultValue={customer?.name ?? ''}
          isRequired
          isDisabled={isDisabled}
          errorMessage={err('name')}
          className="sm:col-span-2"
        />
        <ProposeField
          name="customerId"
          label={t('field.customerId')}
          defaultValue={customer?.customerId ?? ''}
          proposeUrl={(current) => `/api/customers/id/propose?length=${/^\d+$/.test(current) ? current.length : 5}`}
          proposeLabel={t('field.customerId.propose')}
          isDisabled={isDisabled}
          errorMessage={err('customerId')}
          description={t('field.customerId.help')}
        />
        {type === 'private'
          ? text('personId', { label: t('field.personId') })
          : text('organizationalNumber', { label: t('field.organizationalNumber') })}
        {type === 'company' ? text('vatNumber', { label: t('field.vatNumber') }) : null}
        {text('phone', { label: t('field.phone'), type: 'tel' })}
        {text('email', { label: t('field.email'), type: 'email' })}
        <Select
          name="status"
          label={t('field.status')}
          isDisabled={isDisabled}
          defaultSelectedKey={customer?.status ?? 'active'}
          items={[
            { id: 'active', label: t('status.active') },
            { id: 'inactive', label: t('status.inactive') },
          ]}
          errorMessage={err('status')}
        />
        <div className="sm:col-span-2">
          <Flag
            name="potential"
            label={t('field.potential')}
            description={onlyPotential ? t('field.potential.only') : t('field.potential.help')}
            defaultChecked={customer?.potential ?? false}
            isDisabled={isDisabled}
            forced={onlyPotential}
          />
        </div>
      </section>

      {group(
        <>
          {text('paymentTermDays', { label: t('field.paymentTermDays') })}
          <TextField
            name="defaultDiscount"
            label={t('field.defaultDiscount')}
            defaultValue={customer?.defaultDiscount == null ? '' : String(customer.defaultDiscount).replace('.', ',')}
            isDisabled={isDisabled}
            errorMessage={err('defaultDiscount')}
            description={t('field.defaultDiscount.help')}
          />
          <Select
            name="priceListId"
            label={t('field.priceList')}
            isDisabled={isDisabled}
            defaultSelectedKey={customer?.priceListId ?? ''}
            items={[{ id: '', label: t('field.priceList.none') }, ...priceLists]}
            errorMessage={err('priceListId')}
          />
          <Select
            name="invoiceLanguage"
            label={t('field.invoiceLanguage')}
            isDisabled={isDisabled}
            defaultSelectedKey={customer?.invoiceLanguage ?? ''}
            items={[
              { id: '', label: t('field.invoiceLanguage.default') },
              ...LANGUAGE_KEYS.map((k) => ({ id: k, label: tc(`lang.${langFromKey(k)}`) })),
            ]}
            errorMessage={err('invoiceLanguage')}
          />
          {text('invoiceEmail', { label: t('field.invoiceEmail'), type: 'email' })}
          {text('broadcastEmail', {
            label: t('field.broadcastEmail'),
            type: 'email',
            description: t('field.broadcastEmail.help'),
          })}
          {text('country', { label: t('field.country'), description: t('field.country.help') })}
          {type === 'company'
            ? text('peppolId', { label: t('field.peppolId'), description: t('field.peppolId.help') })
            : null}
          {text('bgAccount', { label: t('field.bgAccount') })}
          {text('iban', { label: t('field.iban') })}
          {text('bic', { label: t('field.bic') })}
          <div className="grid sm:col-span-2">
            <Flag
              name="reverseVat"
              label={t('field.reverseVat')}
              description={t('field.reverseVat.help')}
              defaultChecked={customer?.reverseVat ?? false}
              isDisabled={isDisabled}
            />
            <Flag
              name="sendToErp"
              label={t('field.sendToErp')}
              description={t('field.sendToErp.help')}
              defaultChecked={customer?.sendToErp ?? true}
              isDisabled={isDisabled}
            />
          </div>
        </>,
        t('section.invoicing'),
        'customer-invoicing',
      )}

      <section aria-labelledby="customer-contacts" className="grid gap-3 border-t border-slate-200 pt-5">
        <h2 id="customer-contacts" className="text-base font-semibold text-slate-900">
          {t('section.contacts')}
        </h2>
        <ContactsEditor initial={customer?.contacts ?? []} errors={errors} isDisabled={isDisabled} />
      </section>

      <section aria-labelledby="customer-addresses" className="grid gap-3 border-t border-slate-200 pt-5">
        <h2 id="customer-addresses" className="text-base font-semibold text-slate-900">
          {t('section.addresses')}
        </h2>
        <AddressesEditor initial={customer?.addresses ?? []} errors={errors} isDisabled={isDisabled} />
      </section>

      <section aria-labelledby="customer-notes" className="grid gap-4 border-t border-slate-200 pt-5">
        <h2 id="customer-notes" className="text-base font-semibold text-slate-900">
          {t('section.notes')}
        </h2>
        <TextArea
          name="notes"
          label={t('field.notes')}
          defaultValue={customer?.notes ?? ''}
          isDisabled={isDisabled}
          errorMessage={err('notes')}
          rows={4}
        />
        <details className="rounded-md border border-slate-200 p-3">
          <summary className="cursor-default text-sm font-medium text-slate-800">{t('field.configuration')}</summary>
          <TextArea
            name="configuration"
            label={t('field.configuration.label')}
            description={t('field.configuration.help')}
            defaultValue={JSON.stringify(customer?.configuration ?? {}, null, 2)}
            isDisabled={isDisabled}
            errorMessage={err('configuration')}
            rows={5}
            className="mt-3 font-mono"
          />
        </details>
      </section>
    </div>
  );
}

/** A labelled multi-line text input posting under `name`. */
export function TextArea({
  name,
  label,
  description,
  defaultValue,
  isDisabled,
  errorMessage,
  rows = 3,
  className,
}: {
  name: string;
  label: string;
  description?: string;
  defaultValue?: string;
  isDisabled?: boolean;
  errorMessage?: string[];
  rows?: number;
  className?: string;
}) {
  const id = `textarea-${name}`;
  const invalid = Boolean(errorMessage?.length);
  return (
    <div className={cx('flex flex-col gap-1', className)}>
      <label htmlFor={id} className="text-sm font-medium text-gray-900">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        rows={rows}
        defaultValue={defaultValue}
        disabled={isDisabled}
        aria-invalid={invalid || undefined}
        aria-describedby={description || invalid ? `${id}-help` : undefined}
        className={cx(
          'w-full rounded-md border bg-white px-3 py-2 text-base sm:text-sm',
          'focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none',
          'disabled:bg-gray-50 disabled:text-gray-500',
          invalid ? 'border-red-600' : 'border-gray-400',
        )}
      />
      <p id={`${id}-help`} className={cx('text-sm', invalid ? 'text-red-700' : 'text-gray-600')}>
        {invalid ? errorMessage!.join(' ') : description}
      </p>
    </div>
  );
}
