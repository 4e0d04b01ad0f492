import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFetcher } from 'react-router';
import { Button, TextField } from '~/app/components/ui';
import { useResultToast, type ActionResult } from './shared';

let nextKey = 0;

/**
 * The object's specification data as named values ("Märkspänning: 230 V"): edit, add, remove,
 * save all at once.
 */
export function SpecEditor({ data, canEdit }: { data: Record<string, unknown>; canEdit: boolean }) {
  const { t } = useTranslation('objects');
  const { t: tc } = useTranslation();
  const fetcher = useFetcher<ActionResult>();
  useResultToast(fetcher.state === 'idle' ? fetcher.data : undefined);
  const [rows, setRows] = useState(() =>
    Object.entries(data).map(([name, value]) => ({ key: ++nextKey, name, value: value == null ? '' : String(value) })),
  );
  const names = rows.map((r) => r.name.trim());
  const duplicateAt = (i: number) => names[i] !== '' && names.indexOf(names[i]!) !== i;
  const blocked = rows.some((r, i) => (r.name.trim() === '' && r.value.trim() !== '') || duplicateAt(i));
  const set = (i: number, field: 'name' | 'value', v: string) =>
    setRows((r) => r.map((row, j) => (j === i ? { ...row, [field]: v } : row)));
  const save = () => {
    const out = Object.fromEntries(rows.filter((r) => r.name.trim()).map((r) => [r.name.trim(), r.value]));
    void fetcher.submit({ intent: 'spec', data: JSON.stringify(out) }, { method: 'post' });
  };
  const serverError = fetcher.data?.fields ? Object.values(fetcher.data.fields).flat()[0] : undefined;
  return (
    <div className="grid gap-3">
      <p className="text-sm text-slate-600">{t('spec.help')}</p>
      {rows.length === 0 ? <p className="text-sm text-slate-600">{t('spec.empty')}</p> : null}
      <ul className="grid gap-2">
        {rows.map((row, i) => (
          <li key={row.key} className="grid gap-2 sm:grid-cols-[1fr_2fr_auto]">
            <TextField
              label={t('spec.name')}
              value={row.name}
              onChange={(v) => set(i, 'name', v)}
              isDisabled={!canEdit}
              errorMessage={
                duplicateAt(i)
                  ? t('spec.duplicateName')
                  : row.name.trim() === '' && row.value.trim() !== ''
                    ? tc('ERROR_REQUIRED_FIELD')
                    : undefined
              }
            />
            <TextField
              label={t('spec.value')}
              value={row.value}
              onChange={(v) => set(i, 'value', v)}
              isDisabled={!canEdit}
            />
            {canEdit ? (
              <div className="flex items-end">
                <Button
                  variant="ghost"
                  onPress={() => setRows((r) => r.filter((_, j) => j !== i))}
                  aria-label={t('spec.remove', { name: row.name || String(i + 1) })}
                >
                  {t('remove')}
                </Button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {serverError ? <p className="text-sm text-red-700">{tc(serverError)}</p> : null}
      {canEdit ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onPress={() => setRows((r) => [...r, { key: ++nextKey, name: '', value: '' }])}>
            {t('spec.add')}
          </Button>
          <Button variant="primary" onPress={save} isDisabled={blocked} isPending={fetcher.state !== 'idle'}>
            {t('spec.save')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
