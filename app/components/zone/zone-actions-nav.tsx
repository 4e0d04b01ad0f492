import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';

/**
 * The zone menu's entries for what the customer answers (decision 063): proposals and extra work.
 * Apart from the layout so its texts stay in their own namespace.
 */
/** The layout's own link look (app/routes/zone-layout.tsx). */
const linkClass = ({ isActive }: { isActive: boolean }) =>
  `inline-flex min-h-11 items-center whitespace-nowrap border-b-2 px-3 text-sm ${
    isActive ? 'border-brand-700 font-medium text-brand-700' : 'border-transparent text-slate-700'
  }`;

export function ZoneActionsNavItems() {
  const { t } = useTranslation('zoneactions');
  return (
    <>
      <li>
        <NavLink to="/zone/proposals" className={linkClass}>
          {t('nav.proposals')}
        </NavLink>
      </li>
      <li>
        <NavLink to="/zone/extra-work" className={linkClass}>
          {t('nav.extraWork')}
        </NavLink>
      </li>
    </>
  );
}
