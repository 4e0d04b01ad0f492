import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';

/** The deviation pages' sub-navigation: the dashboard and the list. */
export function DeviationsNav() {
  const { t } = useTranslation('deviations');
  const link = ({ isActive }: { isActive: boolean }) =>
    `shrink-0 border-b-2 px-4 py-3 text-sm font-medium no-underline ${
      isActive ? 'border-blue-700 text-blue-800' : 'border-transparent text-slate-600'
    }`;
  return (
    <nav aria-label={t('title')} className="mb-4 flex overflow-x-auto border-b border-slate-200">
      <NavLink to="/deviations" end className={link}>
        {t('dashboard.link')}
      </NavLink>
      <NavLink to="/deviations/list" className={link}>
        {t('list.link')}
      </NavLink>
    </nav>
  );
}
