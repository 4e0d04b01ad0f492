import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';

/**
 * The zone menu's entries for what a customer does there (decision 064): its service requests
 * (with the "customer work orders" module), its company's details and people, and its own sign-in
 * security. Items of the zone layout's list, styled as its other entries, in their own file for
 * their own words.
 */
export function ZoneRequestsNav({ requests }: { requests: boolean }) {
  const { t } = useTranslation('zonerequests');
  const links = [
    ...(requests ? [{ to: '/zone/requests', label: t('nav.requests') }] : []),
    { to: '/zone/company', label: t('nav.company') },
    { to: '/zone/security', label: t('nav.security') },
  ];
  return links.map((l) => (
    <li key={l.to}>
      <NavLink
        to={l.to}
        className={({ isActive }) =>
          `inline-flex min-h-11 items-center whitespace-nowrap border-b-2 px-3 text-sm ${
            isActive ? 'border-brand-700 font-medium text-brand-700' : 'border-transparent text-slate-700'
          }`
        }
      >
        {l.label}
      </NavLink>
    </li>
  ));
}
