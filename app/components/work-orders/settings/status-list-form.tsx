import { useTranslation } from 'react-i18next';
import { TextField } from '~/app/components/ui';
import type { WorkOrderStatus } from '~/core/work-orders/settings/settings.types';
import { ErrorText, newKey, RowListItems, Section, useRowList } from './shared';

interface Row {
  key: string;
  id: string | null;
  name: string;
  isDefault: boolean;
  isClosing: boolean;
}
const toRows = (statuses: WorkOrderStatus[]): Row[] =>
  statuses.map((s) => ({ key: s.id, id: s.id, name: s.name, isDefault: s.isDefault, isClosing: s.isClosing }));

/**
 * Work-order statuses (spec section 5): a name of at least 2 characters, unique; exactly one
 * default (a radio), at least one closing status, and the default is not a closing one. The whole
 * list is saved at once, in the order shown; the server decides and marks the offending row.
 */
export function StatusListForm({ statuses, canEdit }: { statuses: WorkOrderStatus[]; canEdit: boolean }) {
  const { t } = useTranslation('workorders');
  const list = useRowList(statuses, toRows);
  const { rows, setRows, save, set } = list;
  const payload = rows.map(({ id, name, isDefault, isClosing }) => ({ id, name, isDefault, isClosing }));

  return (
    <Section id="wo-statuses" title={t('settings.statuses.title')} intro={t('settings.statuses.intro')}>
      <save.fetcher.Form method="post" className="mt-4 grid gap-3" noValidate>
        <input type="hidden" name="intent" value="statuses" />
        <input type="hidden" name="payload" value={JSON.stringify(payload)} />
        <ErrorText messages={save.err('statuses')} />
        <RowListItems
          list={list}
          canEdit={canEdit}
          label={t('settings.statuses.title')}
          empty={t('settings.statuses.empty')}
          newRow={() => ({ key: newKey(), id: null, name: '', isDefault: false, isClosing: false })}
          addLabel={t('settings.statuses.add')}
          saveLabel={t('settings.statuses.save')}
          rowTestId="status-row"
          rowClassName="flex flex-wrap items-end gap-x-4 gap-y-2"
          renderRow={(row, i, tools) => (
            <>
              <TextField
                label={t('settings.name')}
                value={row.name}
                onChange={(name) => set(i, { name })}
                isDisabled={!canEdit}
                isRequired
                className="min-w-40 flex-1"
                errorMessage={save.err(`statuses.${i}.name`)}
              />
              <label className="flex min-h-10 items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="statusDefault"
                  checked={row.isDefault}
                  disabled={!canEdit}
                  onChange={() => setRows((r) => r.map((x, j) => ({ ...x, isDefault: j === i })))}
                  className="size-4 accent-brand-600"
                />
                {t('settings.default')}
              </label>
              <label className="flex min-h-10 items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={row.isClosing}
                  disabled={!canEdit}
                  onChange={(e) => set(i, { isClosing: e.target.checked })}
                  className="size-4 accent-brand-600"
                />
                {t('settings.statuses.closing')}
              </label>
              {tools}
              <div className="basis-full empty:hidden">
                <ErrorText messages={save.err(`statuses.${i}.isDefault`)} />
                <ErrorText messages={save.err(`statuses.${i}.isClosing`)} />
                <ErrorText messages={save.err(`statuses.${i}.id`)} />
              </div>
            </>
          )}
        />
      </save.fetcher.Form>
    </Section>
  );
}
