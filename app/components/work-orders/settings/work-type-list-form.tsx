import { useTranslation } from 'react-i18next';
import { Button, TextField } from '~/app/components/ui';
import type { WorkType } from '~/core/work-orders/settings/settings.types';
import { ErrorText, moved, newKey, RowTools, Section, useConfirmRemove, useRows, useSectionSave } from './shared';

interface Row {
  key: string;
  id: string | null;
  name: string;
  isDefault: boolean;
}
const toRows = (types: WorkType[]): Row[] =>
  types.map((s) => ({ key: s.id, id: s.id, name: s.name, isDefault: s.isDefault }));

/** Work types (spec section 5): 2 to 50 characters, unique, exactly one default; saved as one list. */
export function WorkTypeListForm({ workTypes, canEdit }: { workTypes: WorkType[]; canEdit: boolean }) {
  const { t } = useTranslation('workorders');
  const { rows, setRows, resetToSaved } = useRows(workTypes, toRows);
  const save = useSectionSave(resetToSaved);
  const set = (i: number, patch: Partial<Row>) =>
    setRows((r) => r.map((row, j) => (i === j ? { ...row, ...patch } : row)));
  const restructure = (next: Row[]) => {
    setRows(next);
    save.restructured();
  };
  const remove = useConfirmRemove(rows, (i) => restructure(rows.filter((_, j) => j !== i)));
  const payload = rows.map(({ id, name, isDefault }) => ({ id, name, isDefault }));

  return (
    <Section id="wo-types" title={t('settings.workTypes.title')} intro={t('settings.workTypes.intro')}>
      <save.fetcher.Form method="post" className="mt-4 grid gap-3" noValidate>
        <input type="hidden" name="intent" value="workTypes" />
        <input type="hidden" name="payload" value={JSON.stringify(payload)} />
        <ErrorText messages={save.err('workTypes')} />
        {rows.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">
            {t('settings.workTypes.empty')}
          </p>
        ) : (
          <ol className="grid gap-3" aria-label={t('settings.workTypes.title')}>
            {rows.map((row, i) => (
              <li
                key={row.key}
                className="flex flex-wrap items-end gap-x-4 gap-y-2 rounded-lg p-3 ring-1 ring-slate-200"
                data-testid="work-type-row"
              >
                <TextField
                  label={t('settings.name')}
                  value={row.name}
                  onChange={(name) => set(i, { name })}
                  isDisabled={!canEdit}
                  isRequired
                  maxLength={50}
                  className="min-w-40 flex-1"
                  errorMessage={save.err(`workTypes.${i}.name`)}
                />
                <label className="flex min-h-10 items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name="workTypeDefault"
                    checked={row.isDefault}
                    disabled={!canEdit}
                    onChange={() => setRows((r) => r.map((x, j) => ({ ...x, isDefault: j === i })))}
                    className="size-4 accent-brand-600"
                  />
                  {t('settings.default')}
                </label>
                {canEdit ? (
                  <RowTools
                    name={row.name}
                    index={i}
                    count={rows.length}
                    onMove={(from, to) => restructure(moved(rows, from, to))}
                    onRemove={() => remove.ask(i)}
                  />
                ) : null}
                <div className="basis-full empty:hidden">
                  <ErrorText messages={save.err(`workTypes.${i}.isDefault`)} />
                  <ErrorText messages={save.err(`workTypes.${i}.id`)} />
                </div>
              </li>
            ))}
          </ol>
        )}
        {canEdit ? (
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              onPress={() => restructure([...rows, { key: newKey(), id: null, name: '', isDefault: false }])}
            >
              {t('settings.workTypes.add')}
            </Button>
            <Button type="submit" variant="primary" isPending={save.busy}>
              {t('settings.workTypes.save')}
            </Button>
          </div>
        ) : null}
      </save.fetcher.Form>
      {remove.dialog}
    </Section>
  );
}
