import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { cx, FOCUS_RING, TOUCH_HEIGHT } from '~/app/components/ui/class-names';

/** Links between the access-level and app-module settings, so neither is a dead end. */
export function AccessNav() {
  const { t } = useTranslation('access');
  const link = ({ isActive }: { isActive: boolean }) =>
    cx(
      'inline-flex items-center rounded-md px-3 text-sm font-medium',
      TOUCH_HEIGHT.sm,
      FOCUS_RING,
      'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
      isActive ? 'bg-blue-50 text-blue-800' : 'text-gray-700 hover:bg-gray-100',
    );
  return (
    <nav aria-label={t('nav.label')} className="flex flex-wrap gap-1">
      <NavLink to="/settings/access-levels" end={false} className={link}>
        {t('nav.accessLevels')}
      </NavLink>
      <NavLink to="/settings/modules" className={link}>
        {t('nav.modules')}
      </NavLink>
    </nav>
  );
}
