import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '~/app/components/ui';
import type { WorkOrderOptions } from '~/core/work-orders/work-order-options';
import { ALL_REGIONS } from '~/core/regions/region.constants';
import { FLAG_FILTERS, ID_LIST_FILTERS, listParams, type FlagFilter, type IdListFilter } from './list-params';

interface Props {
  params: URLSearchParams;
  options: WorkOrderOptions;
  onChange: (changes: Record<string, string | null>) => void;
}

/**
 * The list's filters (spec section 2) behind one "Filters" button: checkbox groups for work types,
 * tags, statuses, assignees, departments and ignored users; switches; schedule status, customer
 * type and creator. Every change applies at once (and is remembered).
 */
export function WorkOrderFilters({ params, options, onChange }: Props) {
  const { t } = useTranslation('workorders');
  const { t: tr } = useTranslation('regions');
  const [open, setOpen] = useState(false);
  const panel = useId();
  const p = listParams(params);
  const choices: Record<IdListFilter, { id: string; name: string }[]> = {
    workTypes: options.settings.workTypes,
    tags: options.settings.tags,
    status: options.settings.statuses,
    assignees: options.users,
    departments: options.departments,
    ignoredUsers: options.users,
  };
  const toggle = (key: IdListFilter, id: string, on: boolean) => {
    const next = on ? [...p.ids[key], id] : p.ids[key].filter((x) => x !== id);
    onChange({ [key]: next.join(',') || null });
  };
  const setFlag = (key: FlagFilter, on: boolean) => onChange({ [key]: on === FLAG_FILTERS[key] ? null : String(on) });
  const clear = () =>
    onChange({
      ...Object.fromEntries([...ID_LIST_FILTERS, ...Object.keys(FLAG_FILTERS)].map((k) => [k, null])),
      scheduleStatus: null,
      customerType: null,
      createUserId: null,
      region: null,
      search: null,
    });
  // the session's region is what "no choice" means (decision 067)
  const defaultRegion = options.sessionRegion ?? ALL_REGIONS;
  const regionChoices = [...new Set([...(options.sessionRegion ? [options.sessionRegion] : []), ...options.regions])];

  return (
    <div className="rounded-xl bg-white ring-1 ring-slate-200">
      <div className="flex flex-wrap items-center gap-2 p-2">
        <Button
          variant="secondary"
          size="sm"
          onPress={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls={panel}
        >
          {p.count ? t('filters.buttonCount', { count: p.count }) : t('filters.button')}
        </Button>
        {p.filtered ? (
          <Button variant="ghost" size="sm" onPress={clear}>
            {t('filters.clear')}
          </Button>
        ) : null}
      </div>
      <div id={panel} hidden={!open} className="grid gap-4 border-t border-slate-200 p-3 sm:grid-cols-2 lg:grid-cols-3">
        {ID_LIST_FILTERS.map((key) =>
          choices[key].length ? (
            <fieldset key={key} className="min-w-0">
              <legend className="mb-1 text-sm font-medium text-slate-700">{t(`filters.${key}`)}</legend>
              <div className="max-h-40 space-y-1 overflow-y-auto pr-1">
                {choices[key].map((c) => (
                  <label key={c.id} className="flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      checked={p.ids[key].includes(c.id)}
                      onChange={(e) => toggle(key, c.id, e.target.checked)}
                      className="size-4 accent-blue-700"
                    />
                    <span className="truncate">{c.name}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          ) : null,
        )}
        <fieldset className="space-y-1">
          <legend className="mb-1 text-sm font-medium text-slate-700">{t('filters.show')}</legend>
          {(Object.keys(FLAG_FILTERS) as FlagFilter[]).map((key) => (
            <label key={key} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={p.flags[key]}
                onChange={(e) => setFlag(key, e.target.checked)}
                className="size-4 accent-blue-700"
              />
              {t(`filters.${key}`)}
            </label>
          ))}
        </fieldset>
        <div className="space-y-3">
          <label className="flex flex-col text-sm">
            <span className="mb-1 font-medium text-slate-700">{t('filters.scheduleStatus')}</span>
            <select
              value={p.scheduleStatus}
              onChange={(e) => onChange({ scheduleStatus: e.target.value === 'both' ? null : e.target.value })}
              className="rounded-md border border-slate-300 px-2 py-1.5"
            >
              {(['both', 'notScheduled', 'scheduled'] as const).map((s) => (
                <option key={s} value={s}>
                  {t(`filters.schedule.${s}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col text-sm">
            <span className="mb-1 font-medium text-slate-700">{t('filters.customerType')}</span>
            <select
              value={p.customerType}
              onChange={(e) => onChange({ customerType: e.target.value || null })}
              className="rounded-md border border-slate-300 px-2 py-1.5"
            >
              <option value="">{t('filters.any')}</option>
              <option value="company">{t('filters.customerTypeCompany')}</option>
              <option value="private">{t('filters.customerTypePrivate')}</option>
            </select>
          </label>
          {regionChoices.length ? (
            <label className="flex flex-col text-sm">
              <span className="mb-1 font-medium text-slate-700">{tr('filter')}</span>
              <select
                value={p.region || defaultRegion}
                onChange={(e) => onChange({ region: e.target.value === defaultRegion ? null : e.target.value })}
                className="rounded-md border border-slate-300 px-2 py-1.5"
              >
                <option value={ALL_REGIONS}>{tr('all')}</option>
                {regionChoices.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <label className="flex flex-col text-sm">
            <span className="mb-1 font-medium text-slate-700">{t('filters.createUserId')}</span>
            <select
              value={p.createUserId}
              onChange={(e) => onChange({ createUserId: e.target.value || null })}
              className="rounded-md border border-slate-300 px-2 py-1.5"
            >
              <option value="">{t('filters.any')}</option>
              {options.users.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.name}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
    </div>
  );
}
