import { useTranslation } from 'react-i18next';
import { TextField } from '~/app/components/ui';
import type { Tag } from '~/core/work-orders/settings/settings.types';
import { ErrorText, newKey, RowListItems, Section, useRowList } from './shared';

interface Row {
  key: string;
  id: string | null;
  name: string;
  color: string;
}
const toRows = (tags: Tag[]): Row[] => tags.map((s) => ({ key: s.id, id: s.id, name: s.name, color: s.color }));
const DEFAULT_COLOR = '#64748b';

/** Tags (spec section 5): at least 2 letters or digits, unique, with a colour; saved as one list. */
export function TagListForm({ tags, canEdit }: { tags: Tag[]; canEdit: boolean }) {
  const { t } = useTranslation('workorders');
  const list = useRowList(tags, toRows);
  const { rows, save, set } = list;
  const payload = rows.map(({ id, name, color }) => ({ id, name, color }));

  return (
    <Section id="wo-tags" title={t('settings.tags.title')} intro={t('settings.tags.intro')}>
      <save.fetcher.Form method="post" className="mt-4 grid gap-3" noValidate>
        <input type="hidden" name="intent" value="tags" />
        <input type="hidden" name="payload" value={JSON.stringify(payload)} />
        <ErrorText messages={save.err('tags')} />
        <RowListItems
          list={list}
          canEdit={canEdit}
          label={t('settings.tags.title')}
          empty={t('settings.tags.empty')}
          newRow={() => ({ key: newKey(), id: null, name: '', color: DEFAULT_COLOR })}
          addLabel={t('settings.tags.add')}
          saveLabel={t('settings.tags.save')}
          rowTestId="tag-row"
          rowClassName="flex flex-wrap items-end gap-x-4 gap-y-2"
          renderRow={(row, i, tools) => {
            const colorError = save.err(`tags.${i}.color`);
            return (
              <>
                <TextField
                  label={t('settings.name')}
                  value={row.name}
                  onChange={(name) => set(i, { name })}
                  isDisabled={!canEdit}
                  isRequired
                  maxLength={50}
                  description={t('settings.tags.nameHelp')}
                  className="min-w-40 flex-1"
                  errorMessage={save.err(`tags.${i}.name`)}
                />
                <label className="flex min-h-10 items-center gap-2 text-sm">
                  <input
                    type="color"
                    value={/^#[0-9a-f]{6}$/i.test(row.color) ? row.color : DEFAULT_COLOR}
                    disabled={!canEdit}
                    onChange={(e) => set(i, { color: e.target.value })}
                    aria-invalid={colorError ? true : undefined}
                    className="h-10 w-12 cursor-pointer rounded border border-slate-300 bg-white p-1 focus-visible:outline-2 focus-visible:outline-brand-600"
                  />
                  {t('settings.tags.color')}
                  <span className="font-mono text-xs text-slate-600">{row.color}</span>
                </label>
                <span
                  className="inline-flex min-h-8 items-center rounded-full px-3 text-sm font-medium text-white"
                  style={{ backgroundColor: row.color }}
                  aria-hidden
                >
                  {row.name || t('settings.unnamed')}
                </span>
                {tools}
                <div className="basis-full empty:hidden">
                  <ErrorText messages={colorError} />
                  <ErrorText messages={save.err(`tags.${i}.id`)} />
                </div>
              </>
            );
          }}
        />
      </save.fetcher.Form>
    </Section>
  );
}
