import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '~/app/components/ui';
import { TrashIcon } from './icons';

export interface ContactValues {
  name: string;
  role: string | null;
  phone: string | null;
  email: string | null;
}

/**
 * The customer's contact people as rows of the surrounding form: `contacts.N.field`, where N is the
 * row's own key (it stays when a row above is removed, so typed text never moves). Adding a row
 * puts the cursor in its name.
 */
export function ContactsEditor({
  initial,
  errors,
  isDisabled,
}: {
  initial: readonly ContactValues[];
  errors?: Record<string, string[]>;
  isDisabled?: boolean;
}) {
  const { t } = useTranslation('customers');
  const { t: tc } = useTranslation();
  const next = useRef(initial.length);
  const [rows, setRows] = useState(() => initial.map((c, i) => ({ key: i, values: c, isNew: false })));
  const err = (key: number, field: string) => errors?.[`contacts.${key}.${field}`]?.map((k) => tc(k));
  return (
    <div className="grid gap-3">
      <input type="hidden" name="contacts.present" value="1" />
      {rows.length === 0 ? <p className="text-sm text-slate-600">{t('contacts.empty')}</p> : null}
      <ul className="grid gap-3">
        {rows.map(({ key, values, isNew }, index) => (
          <li
            key={key}
            aria-label={t('contacts.row', { n: index + 1 })}
            className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-[1fr_1fr_auto] lg:grid-cols-[1.2fr_1fr_1fr_1.2fr_auto]"
          >
            <TextField
              name={`contacts.${key}.name`}
              label={t('contact.name')}
              defaultValue={values.name}
              isRequired
              autoFocus={isNew}
              isDisabled={isDisabled}
              errorMessage={err(key, 'name')}
            />
            <TextField
              name={`contacts.${key}.role`}
              label={t('contact.role')}
              defaultValue={values.role ?? ''}
              isDisabled={isDisabled}
              errorMessage={err(key, 'role')}
            />
            <TextField
              name={`contacts.${key}.phone`}
              type="tel"
              label={t('contact.phone')}
              defaultValue={values.phone ?? ''}
              isDisabled={isDisabled}
              errorMessage={err(key, 'phone')}
            />
            <TextField
              name={`contacts.${key}.email`}
              type="email"
              label={t('contact.email')}
              defaultValue={values.email ?? ''}
              isDisabled={isDisabled}
              errorMessage={err(key, 'email')}
            />
            {!isDisabled ? (
              <Button
                variant="ghost"
                isIconOnly
                aria-label={t('contacts.remove', { name: values.name || t('contacts.row', { n: index + 1 }) })}
                onPress={() => setRows((r) => r.filter((row) => row.key !== key))}
                className="self-end sm:mb-6"
              >
                <TrashIcon />
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {!isDisabled ? (
        <div>
          <Button
            variant="secondary"
            onPress={() =>
              setRows((r) => [
                ...r,
                { key: next.current++, values: { name: '', role: null, phone: null, email: null }, isNew: true },
              ])
            }
          >
            {t('contacts.add')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
