import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '~/app/components/ui';
import { TrashIcon } from './icons';

export interface AddressValues {
  id?: string | null;
  street: string | null;
  postIndex: string | null;
  city: string | null;
  notes: string | null;
  costCenter: string | null;
  contactName: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
  isPrimary: boolean;
}

const EMPTY: AddressValues = {
  street: '',
  postIndex: null,
  city: null,
  notes: null,
  costCenter: null,
  contactName: null,
  contactEmail: null,
  contactPhone: null,
  isPrimary: false,
};

/**
 * The customer's addresses as rows of the surrounding form (`addresses.N.field`, N the row's own
 * key) with one "primary" radio across them (`primaryAddress` = N). Spec: exactly one primary —
 * the first address is primary by itself, and removing the primary one makes the first left primary.
 */
export function AddressesEditor({
  initial,
  errors,
  isDisabled,
}: {
  initial: readonly AddressValues[];
  errors?: Record<string, string[]>;
  isDisabled?: boolean;
}) {
  const { t } = useTranslation('customers');
  const { t: tc } = useTranslation();
  const next = useRef(initial.length);
  const [rows, setRows] = useState(() => initial.map((a, i) => ({ key: i, values: a, isNew: false })));
  const [primary, setPrimary] = useState<number | null>(() => {
    const i = initial.findIndex((a) => a.isPrimary);
    return i >= 0 ? i : initial.length ? 0 : null;
  });
  const err = (key: number, field: string) => errors?.[`addresses.${key}.${field}`]?.map((k) => tc(k));
  const listError = errors?.addresses?.map((k) => tc(k));

  function add() {
    const key = next.current++;
    setRows((r) => [...r, { key, values: EMPTY, isNew: true }]);
    if (primary === null) setPrimary(key);
  }
  function remove(key: number) {
    const left = rows.filter((row) => row.key !== key);
    setRows(left);
    if (primary === key) setPrimary(left[0]?.key ?? null);
  }

  const field = (key: number, values: AddressValues, name: keyof AddressValues, label: string, extra = {}) => (
    <TextField
      name={`addresses.${key}.${name}`}
      label={label}
      defaultValue={values[name] == null ? '' : String(values[name])}
      isDisabled={isDisabled}
      errorMessage={err(key, name)}
      {...extra}
    />
  );

  return (
    <div className="grid gap-3">
      <input type="hidden" name="addresses.present" value="1" />
      {rows.length === 0 ? <p className="text-sm text-slate-600">{t('addresses.empty')}</p> : null}
      {listError ? (
        <p role="alert" className="text-sm text-red-700">
          {listError.join(' ')}
        </p>
      ) : null}
      <ul className="grid gap-3">
        {rows.map(({ key, values, isNew }, index) => {
          const label = values.street || t('addresses.row', { n: index + 1 });
          return (
            <li
              key={key}
              aria-label={t('addresses.row', { n: index + 1 })}
              className={
                primary === key
                  ? 'rounded-lg border-2 border-blue-600 bg-blue-50/40 p-3'
                  : 'rounded-lg border border-slate-200 p-3'
              }
            >
              <input type="hidden" name={`addresses.${key}.id`} value={values.id ?? ''} />
              <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
                <label className="flex min-h-10 items-center gap-2 text-sm font-medium">
                  <input
                    type="radio"
                    name="primaryAddress"
                    value={String(key)}
                    checked={primary === key}
                    onChange={() => setPrimary(key)}
                    disabled={isDisabled}
                    className="size-5 accent-blue-700"
                  />
                  {t('addresses.primary')}
                </label>
                {!isDisabled ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={t('addresses.remove', { name: label })}
                    onPress={() => remove(key)}
                  >
                    <TrashIcon />
                    <span className="max-sm:sr-only">{t('addresses.removeShort')}</span>
                  </Button>
                ) : null}
              </div>
              <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
                {field(key, values, 'street', t('address.street'), {
                  isRequired: true,
                  autoFocus: isNew,
                  className: 'sm:col-span-2',
                })}
                {field(key, values, 'postIndex', t('address.postIndex'))}
                {field(key, values, 'city', t('address.city'))}
                {field(key, values, 'contactName', t('address.contactName'))}
                {field(key, values, 'contactPhone', t('address.contactPhone'), { type: 'tel' })}
                {field(key, values, 'contactEmail', t('address.contactEmail'), { type: 'email' })}
                {field(key, values, 'costCenter', t('address.costCenter'))}
                {field(key, values, 'notes', t('address.notes'), { className: 'sm:col-span-2 lg:col-span-4' })}
              </div>
            </li>
          );
        })}
      </ul>
      {!isDisabled ? (
        <div>
          <Button variant="secondary" onPress={add}>
            {t('addresses.add')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
