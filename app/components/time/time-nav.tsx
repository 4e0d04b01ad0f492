import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useCan } from '~/app/lib/can';

export type TimeSection = 'week' | 'office' | 'payroll' | 'onCall';

/**
 * The time area's sections (spec section 2: time reporting, on-call schedule; the office's months
 * and payroll), each shown to those who may open it.
 */
export function TimeNav({ current }: { current: TimeSection }) {
  const { t } = useTranslation('time');
  const can = useCan();
  const links: { id: TimeSection; to: string; show: boolean }[] = [
    { id: 'week', to: '/time', show: can('timereports:read_own') },
    { id: 'office', to: '/time/office', show: can('timereports:read') },
    { id: 'payroll', to: '/time/payroll', show: can('timereports:read') },
    { id: 'onCall', to: '/time/on-call', show: can('signed-in', 'oncall') },
  ];
  const visible = links.filter((l) => l.show);
  if (visible.length < 2) return null;
  return (
    <nav aria-label={t('nav.label')} className="-mx-1 overflow-x-auto">
      <ul className="flex gap-1 px-1">
        {visible.map((l) => (
          <li key={l.id}>
            <NavLink
              to={l.to}
              end
              aria-current={l.id === current ? 'page' : undefined}
              className={`inline-flex min-h-11 items-center rounded-md px-3 text-sm whitespace-nowrap sm:min-h-9 ${
                l.id === current
                  ? 'bg-brand-700 font-medium text-white'
                  : 'text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100'
              }`}
            >
              {t(`nav.${l.id}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
