import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, TextField } from '~/app/components/ui';
import { useFieldErrors, useResultToast, type ActionResult } from './shared';

export interface ContactRow {
  name: string;
  role?: string | null;
  phone?: string | null;
  email?: string | null;
}

let nextKey = 0;
const withKey = (c: ContactRow) => ({ ...c, key: ++nextKey });

/** The object's contact people: edit the rows, add and remove, then save them all at once. */
export function ContactsEditor({ contacts, canEdit }: { contacts: ContactRow[]; canEdit: boolean }) {
  const { t } = useTranslation('objects');
  const fetcher = useFetcher<ActionResult>();
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  useResultToast(result);
  const err = useFieldErrors(fetcher.data);
  const [rows, setRows] = useState(() => contacts.map(withKey));
  const set = (i: number, field: keyof ContactRow, value: string) =>
    setRows((r) => r.map((row, j) => (j === i ? { ...row, [field]: value } : row)));
  const save = () =>
    fetcher.submit(
      { intent: 'contacts', contacts: JSON.stringify(rows.map(({ key: _key, ...c }) => c)) },
      { method: 'post' },
    );
  if (!canEdit && rows.length === 0) return <p className="text-sm text-slate-600">{t('contacts.empty')}</p>;
  return (
    <div className="grid gap-3">
      {rows.length === 0 ? <p className="text-sm text-slate-600">{t('contacts.empty')}</p> : null}
      <ul className="grid gap-3">
        {rows.map((row, i) => (
          <li
            key={row.key}
            className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[1fr_1fr_1fr_1fr_auto]"
          >
            <TextField
              label={t('contacts.name')}
              value={row.name}
              onChange={(v) => set(i, 'name', v)}
              isRequired
              isDisabled={!canEdit}
              errorMessage={err(`contacts.${i}.name`)}
            />
            <TextField
              label={t('contacts.role')}
              value={row.role ?? ''}
              onChange={(v) => set(i, 'role', v)}
              isDisabled={!canEdit}
              errorMessage={err(`contacts.${i}.role`)}
            />
            <TextField
              label={t('contacts.phone')}
              type="tel"
              value={row.phone ?? ''}
              onChange={(v) => set(i, 'phone', v)}
              isDisabled={!canEdit}
              errorMessage={err(`contacts.${i}.phone`)}
            />
            <TextField
              label={t('contacts.email')}
              type="email"
              value={row.email ?? ''}
              onChange={(v) => set(i, 'email', v)}
              isDisabled={!canEdit}
              errorMessage={err(`contacts.${i}.email`)}
            />
            {canEdit ? (
              <div className="flex items-end">
                <Button
                  variant="ghost"
                  onPress={() => setRows((r) => r.filter((_, j) => j !== i))}
                  aria-label={t('contacts.remove', { name: row.name || String(i + 1) })}
                >
                  {t('remove')}
                </Button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {canEdit ? (
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            onPress={() => setRows((r) => [...r, withKey({ name: '', role: null, phone: null, email: null })])}
          >
            {t('contacts.add')}
          </Button>
          <Button variant="primary" onPress={save} isPending={fetcher.state !== 'idle'}>
            {t('contacts.save')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
