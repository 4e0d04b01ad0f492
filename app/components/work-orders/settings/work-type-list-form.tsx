import { useTranslation } from 'react-i18next';
import { TextField } from '~/app/components/ui';
import type { WorkType } from '~/core/work-orders/settings/settings.types';
import { ErrorText, newKey, RowListItems, Section, useRowList } from './shared';

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
  const list = useRowList(workTypes, toRows);
  const { rows, setRows, save, set } = list;
  const payload = rows.map(({ id, name, isDefault }) => ({ id, name, isDefault }));

  return (
    <Section id="wo-types" title={t('settings.workTypes.title')} intro={t('settings.workTypes.intro')}>
      <save.fetcher.Form method="post" className="mt-4 grid gap-3" noValidate>
        <input type="hidden" name="intent" value="workTypes" />
        <input type="hidden" name="payload" value={JSON.stringify(payload)} />
        <ErrorText messages={save.err('workTypes')} />
        <RowListItems
          list={list}
          canEdit={canEdit}
          label={t('settings.workTypes.title')}
          empty={t('settings.workTypes.empty')}
          newRow={() => ({ key: newKey(), id: null, name: '', isDefault: false })}
          addLabel={t('settings.workTypes.add')}
          saveLabel={t('settings.workTypes.save')}
          rowTestId="work-type-row"
          rowClassName="flex flex-wrap items-end gap-x-4 gap-y-2"
          renderRow={(row, i, tools) => (
            <>
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
              {tools}
              <div className="basis-full empty:hidden">
                <ErrorText messages={save.err(`workTypes.${i}.isDefault`)} />
                <ErrorText messages={save.err(`workTypes.${i}.id`)} />
              </div>
            </>
          )}
        />
      </save.fetcher.Form>
    </Section>
  );
}
