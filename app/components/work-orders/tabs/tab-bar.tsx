import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { cx } from '~/app/components/ui/class-names';
import { CloseIcon } from '~/app/components/ui/icons';
import { useWorkOrderTabs } from './tabs-context';
import type { ViewTab } from './tab-rules';

/** Where each view tab lives; `/work-orders/calendar` and `/work-orders/map` sit inside the screen's layout. */
export const VIEW_PATH: Record<ViewTab, string> = {
  list: '/',
  calendar: '/work-orders/calendar',
  map: '/work-orders/map',
};
const VIEWS: readonly ViewTab[] = ['list', 'calendar', 'map'];

/**
 * The work-order screen's tab bar: the list, calendar and map tabs, then one tab per opened order (title, customer,
 * a dot while it has unsaved edits) with its close button, and "close all".
 */
export function WorkOrderTabBar() {
  const { t } = useTranslation('workorders');
  const tabs = useWorkOrderTabs();
  const navigate = useNavigate();
  const { state } = tabs;

  const close = (id: string) => {
    const back = tabs.close(id);
    if (back) void navigate(VIEW_PATH[back]);
  };

  return (
    <nav aria-label={t('tabs.label')} className="-mx-1 overflow-x-auto">
      <ul className="flex min-w-max items-end gap-1 border-b border-slate-200 px-1">
        {VIEWS.map((view) => (
          <li key={view}>
            <Link
              to={VIEW_PATH[view]}
              onClick={() => tabs.showView(view)}
              aria-current={state.active === view ? 'page' : undefined}
              className={cx(
                'block rounded-t-lg px-3 py-2 text-sm font-medium',
                state.active === view
                  ? 'bg-white text-slate-900 ring-1 ring-slate-200'
                  : 'text-slate-600 hover:bg-slate-100',
              )}
            >
              {t(`tabs.${view}`)}
            </Link>
          </li>
        ))}
        {state.tabs.map((tab) => {
          const active = state.active === tab.id;
          return (
            <li
              key={tab.id}
              className={cx(
                'flex max-w-64 items-center rounded-t-lg text-sm',
                active ? 'bg-white ring-1 ring-slate-200' : 'hover:bg-slate-100',
              )}
            >
              <Link
                to={`/work-orders/${tab.id}`}
                aria-current={active ? 'page' : undefined}
                className="min-w-0 flex-1 truncate py-2 pl-3"
                title={[tab.number, tab.title, tab.customerName].filter(Boolean).join(' – ')}
              >
                {tab.isEdited ? (
                  <span className="mr-1 text-amber-600" aria-label={t('tabs.edited')}>
                    ●
                  </span>
                ) : null}
                {tab.number ? <span className="text-slate-600 tabular-nums">{`${tab.number} `}</span> : null}
                <span className={cx(active ? 'font-medium text-slate-900' : 'text-slate-700')}>{tab.title}</span>
                {tab.customerName ? <span className="ml-1 text-slate-500">· {tab.customerName}</span> : null}
              </Link>
              <button
                type="button"
                onClick={() => close(tab.id)}
                aria-label={t('tabs.close', { title: tab.number ? `${tab.number} ${tab.title}` : tab.title })}
                className="mx-1 rounded p-1 text-slate-500 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600"
              >
                <CloseIcon />
              </button>
            </li>
          );
        })}
        {state.tabs.length > 1 ? (
          <li className="ml-auto">
            <button
              type="button"
              onClick={() => {
                tabs.closeAll();
                void navigate('/');
              }}
              className="rounded px-2 py-2 text-sm text-slate-600 underline-offset-2 hover:underline"
            >
              {t('tabs.closeAll')}
            </button>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
