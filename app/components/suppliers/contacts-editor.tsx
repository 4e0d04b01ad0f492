import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '~/app/components/ui';

export interface ContactDraft {
  name: string;
  role: string | null;
  phone: string | null;
  email: string | null;
}

export interface ContactsEditorProps {
  defaultValue: readonly ContactDraft[];
  /** Field errors of the save, keyed like `contacts.0.email`, already translated. */
  errors?: (field: string) => string[] | undefined;
  isDisabled?: boolean;
}

/** Form field names of the contact rows; the route reads them back with `contactsFromForm`. */
export const CONTACT_FIELDS = ['name', 'role', 'phone', 'email'] as const;
const fieldName = (f: (typeof CONTACT_FIELDS)[number]) => `contact.${f}`;

/** Reads the posted rows back, in order (each field is posted once per row). */
export function contactsFromForm(form: FormData): ContactDraft[] {
  const [names, roles, phones, emails] = CONTACT_FIELDS.map((f) => form.getAll(fieldName(f)).map(String));
  return names!.map((name, i) => ({
    name,
    role: roles![i] || null,
    phone: phones![i] || null,
    email: emails![i] || null,
  }));
}

/**
 * The supplier's contacts as rows of name, role, phone and e-mail: add, edit and remove, saved
 * with the supplier. Each row posts its four fields, so the order on screen is the order saved.
 */
export function ContactsEditor({ defaultValue, errors, isDisabled }: ContactsEditorProps) {
  const { t } = useTranslation('suppliers');
  const nextKey = useRef(defaultValue.length);
  const [rows, setRows] = useState(() => defaultValue.map((c, i) => ({ key: i, ...c })));
  return (
    <fieldset className="grid gap-3">
      <legend className="text-lg font-medium">{t('contacts.title')}</legend>
      {rows.length === 0 ? <p className="text-sm text-slate-600">{t('contacts.empty')}</p> : null}
      {rows.length ? (
        <ol className="grid gap-3">
          {rows.map((row, i) => (
            <li key={row.key} className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-2">
              <TextField
                name={fieldName('name')}
                label={t('contacts.name')}
                defaultValue={row.name}
                isRequired
                isDisabled={isDisabled}
                errorMessage={errors?.(`contacts.${i}.name`)}
              />
              <TextField
                name={fieldName('role')}
                label={t('contacts.role')}
                defaultValue={row.role ?? ''}
                isDisabled={isDisabled}
                errorMessage={errors?.(`contacts.${i}.role`)}
              />
              <TextField
                name={fieldName('phone')}
                type="tel"
                label={t('contacts.phone')}
                defaultValue={row.phone ?? ''}
                isDisabled={isDisabled}
                errorMessage={errors?.(`contacts.${i}.phone`)}
              />
              <TextField
                name={fieldName('email')}
                type="email"
                label={t('contacts.email')}
                defaultValue={row.email ?? ''}
                isDisabled={isDisabled}
                errorMessage={errors?.(`contacts.${i}.email`)}
              />
              {isDisabled ? null : (
                <div className="sm:col-span-2">
                  <Button
                    variant="ghost"
                    size="sm"
                    onPress={() => setRows(rows.filter((r) => r.key !== row.key))}
                    aria-label={t('contacts.remove', { name: row.name || t('contacts.unnamed', { n: i + 1 }) })}
                  >
                    {t('contacts.removeShort')}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ol>
      ) : null}
      {isDisabled ? null : (
        <div>
          <Button
            variant="secondary"
            onPress={() =>
              setRows([...rows, { key: nextKey.current++, name: '', role: null, phone: null, email: null }])
            }
          >
            {t('contacts.add')}
          </Button>
        </div>
      )}
    </fieldset>
  );
}
