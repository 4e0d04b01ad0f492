import { useTranslation } from 'react-i18next';
import { NavLink, useLocation, useSubmit } from 'react-router';
import { Menu } from '~/app/components/ui';
import { LANGS } from '~/core/i18n/languages';
import { useCan } from '~/app/lib/can';
import { namespacesOfKeys } from '~/app/locales/key-namespaces';

export interface TopBarProps {
  user: { fullName: string; initials: string; email: string };
  company: string;
  logoUrl: string | null;
  /** `count`: a red badge beside the link (its `badge` names what it counts), none at 0. */
  links: { to: string; labelKey: string; badge?: string; count?: number }[];
}

/** A link's count: red, 99+ above 99; a screen reader hears what it counts (`label`). */
export function CountBadge({ count, label }: { count: number; label: string }) {
  return (
    <>
      <span
        aria-hidden="true"
        className="ms-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-red-600 px-1.5 text-xs leading-5 font-semibold text-white"
      >
        {count > 99 ? '99+' : count}
      </span>
      <span className="sr-only">{` (${label})`}</span>
    </>
  );
}

/**
 * The signed-in top bar (spec section 2): the company, the capability links the user may use,
 * the language switch and the user menu. On a phone the links scroll sideways under the bar.
 */
export function TopBar({ user, company, logoUrl, links }: TopBarProps) {
  const can = useCan();
  const { t, i18n } = useTranslation();
  // a plugin's link names its own namespace in its label key: ask for it, so the browser has it too
  const { t: linkLabel } = useTranslation(['common', ...namespacesOfKeys(links.map((l) => l.labelKey))]);
  const submit = useSubmit();
  const location = useLocation();
  const here = location.pathname + location.search;
  const linkClass = ({ isActive }: { isActive: boolean }) =>
    `whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-white/15 text-white' : 'text-brand-100 hover:bg-white/10 hover:text-white'}`;
  return (
    <header className="bg-brand-900 text-white">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900"
      >
        {t('shell.skipToContent')}
      </a>
      <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-2 sm:px-6">
        <NavLink to="/" className="flex min-w-0 items-center gap-2 font-semibold">
          {logoUrl ? <img src={logoUrl} alt="" className="h-8 w-auto rounded bg-white p-0.5" /> : null}
          {/* on a phone the name may take two lines rather than be cut ("Nordlar…"); the menus beside it shrink to initials */}
          <span className="line-clamp-2 break-words leading-tight sm:line-clamp-1">{company}</span>
        </NavLink>
        <nav aria-label={t('shell.mainNav')} className="hidden flex-1 items-center gap-1 overflow-x-auto lg:flex">
          {links.map((l) => (
            <NavLink key={l.to} to={l.to} className={linkClass}>
              {linkLabel(l.labelKey)}
              {l.count ? <CountBadge count={l.count} label={t(`nav.badge.${l.badge}`, { count: l.count })} /> : null}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex shrink-0 items-center gap-2">
          <Menu
            label={t(`lang.${i18n.language}`)}
            shortLabel={i18n.language.toUpperCase()}
            triggerVariant="inverse"
            items={LANGS.map((lang) => ({
              id: lang,
              label: t(`lang.${lang}`),
              onAction: () => submit({ lang, redirectTo: here }, { method: 'post', action: '/language' }),
            }))}
          />
          <Menu
            label={user.fullName}
            shortLabel={user.initials}
            triggerVariant="inverse"
            items={[
              { id: 'profile', label: t('shell.profile'), href: '/profile' },
              ...(can('settings:read') ? [{ id: 'settings', label: t('shell.settings'), href: '/settings' }] : []),
              {
                id: 'logout',
                label: t('shell.logout'),
                onAction: () => submit(null, { method: 'post', action: '/logout' }),
              },
            ]}
          />
        </div>
      </div>
      {links.length ? (
        <nav aria-label={t('shell.mainNav')} className="flex gap-1 overflow-x-auto px-4 pb-2 lg:hidden">
          {links.map((l) => (
            <NavLink key={l.to} to={l.to} className={linkClass}>
              {linkLabel(l.labelKey)}
              {l.count ? <CountBadge count={l.count} label={t(`nav.badge.${l.badge}`, { count: l.count })} /> : null}
            </NavLink>
          ))}
        </nav>
      ) : null}
    </header>
  );
}
