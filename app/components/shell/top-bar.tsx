import { useEffect, useId, useState } from 'react';
import { MenuIcon } from '~/app/components/ui/icons';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation, useNavigation, useSubmit } from 'react-router';
import { Menu } from '~/app/components/ui';
import { LANGS } from '~/core/i18n/languages';
import { useCan } from '~/app/lib/can';
import { namespacesOfKeys } from '~/app/locales/key-namespaces';
import { navEntries, type NavGroup } from './nav';

export interface TopBarProps {
  user: { fullName: string; initials: string; email: string };
  company: string;
  logoUrl: string | null;
  /** `count`: a red badge beside the link (its `badge` names what it counts), none at 0. */
  links: { to: string; labelKey: string; badge?: string; count?: number; group?: NavGroup }[];
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
 * The signed-in top bar (spec section 2): the company, the areas the user may use, the language
 * switch and the user menu. From 1,024 px the most used areas stand alone and the rest sit in a few
 * menus (decision 038); below that one menu button opens every area, grouped the same way.
 */
export function TopBar({ user, company, logoUrl, links }: TopBarProps) {
  const can = useCan();
  const { t, i18n } = useTranslation();
  // a plugin's link names its own namespace in its label key: ask for it, so the browser has it too
  const { t: linkLabel } = useTranslation(['common', ...namespacesOfKeys(links.map((l) => l.labelKey))]);
  const submit = useSubmit();
  const location = useLocation();
  const here = location.pathname + location.search;
  const [phoneOpen, setPhoneOpen] = useState(false);
  const phoneMenuId = useId();
  // Any navigation closes the phone menu as it starts (back, a link in the page, a form). Not when the
  // next page is shown: React shows it a moment after the address changed, and a menu opened on the
  // new address in that moment would shut under the person's finger (the browser test did, on a loaded
  // machine). A link followed from the menu closes it at once (closeOnLink), so a second tap on the
  // menu button opens it rather than toggling it shut.
  const navigationState = useNavigation().state;
  useEffect(() => {
    if (navigationState !== 'idle') setPhoneOpen(false);
  }, [navigationState]);
  const closeOnLink = (e: React.MouseEvent) => {
    if ((e.target as HTMLElement).closest('a')) setPhoneOpen(false);
  };
  const entries = navEntries(links);
  const badgeOf = (l: TopBarProps['links'][number]) =>
    l.count ? <CountBadge count={l.count} label={t(`nav.badge.${l.badge}`, { count: l.count })} /> : null;
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
        <NavLink to="/" className="flex min-w-0 items-center gap-2 font-semibold lg:max-w-52">
          {logoUrl ? <img src={logoUrl} alt="" className="h-8 w-auto rounded bg-white p-0.5" /> : null}
          {/* on a phone the name may take two lines rather than be cut ("Nordlar…"); the menus beside it shrink to initials */}
          <span className="line-clamp-2 break-words leading-tight">{company}</span>
        </NavLink>
        <nav aria-label={t('shell.mainNav')} className="hidden flex-1 items-center gap-1 lg:flex">
          {entries.map((e) =>
            e.kind === 'link' ? (
              <NavLink key={e.link.to} to={e.link.to} end={e.link.to === '/'} className={linkClass}>
                {linkLabel(e.link.labelKey)}
                {badgeOf(e.link)}
              </NavLink>
            ) : (
              <GroupMenu
                key={e.group}
                label={t(`nav.group.${e.group}`)}
                links={e.links}
                labelOf={linkLabel}
                badgeOf={badgeOf}
              />
            ),
          )}
        </nav>
        <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2">
          <Menu
            label={t(`lang.${i18n.language}`)}
            shortLabel={i18n.language.toUpperCase()}
            // below 1,280 px the bar's areas and their count badges need the room
            shortLabelUntil="xl"
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
            shortLabelUntil="xl"
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
          {links.length ? (
            <button
              type="button"
              aria-expanded={phoneOpen}
              aria-controls={phoneMenuId}
              onClick={() => setPhoneOpen((was) => !was)}
              className="inline-flex min-h-11 min-w-11 items-center justify-center rounded-md border border-white/30 px-2 text-sm font-medium hover:bg-white/10 sm:px-3 lg:hidden"
            >
              {/* on a narrow phone an icon, so the company's name keeps its room; the name is read aloud */}
              <MenuIcon className="size-5 sm:hidden" />
              <span className="sr-only sm:not-sr-only">{t('nav.menu')}</span>
              {links.some((l) => l.count) ? (
                <span aria-hidden="true" className="ms-1.5 inline-block size-2 rounded-full bg-red-500" />
              ) : null}
            </button>
          ) : null}
        </div>
      </div>
      {links.length && phoneOpen ? (
        <nav
          id={phoneMenuId}
          aria-label={t('shell.mainNav')}
          className="border-t border-white/15 px-4 pb-3 lg:hidden"
          onClick={closeOnLink}
        >
          {entries.map((e) =>
            e.kind === 'link' ? (
              <NavLink
                key={e.link.to}
                to={e.link.to}
                end={e.link.to === '/'}
                className={(s) => `flex min-h-11 items-center ${linkClass(s)}`}
              >
                {linkLabel(e.link.labelKey)}
                {badgeOf(e.link)}
              </NavLink>
            ) : (
              <section key={e.group} aria-labelledby={`${phoneMenuId}-${e.group}`} className="mt-2">
                <h2
                  id={`${phoneMenuId}-${e.group}`}
                  className="px-3 pt-2 text-xs font-semibold tracking-wide text-brand-100 uppercase"
                >
                  {t(`nav.group.${e.group}`)}
                </h2>
                <ul>
                  {e.links.map((l) => (
                    <li key={l.to}>
                      <NavLink to={l.to} className={(s) => `flex min-h-11 items-center ${linkClass(s)}`}>
                        {linkLabel(l.labelKey)}
                        {badgeOf(l)}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </section>
            ),
          )}
        </nav>
      ) : null}
    </header>
  );
}

/** One of the bar's menus: its links, and beside its name the sum of their counts. */
function GroupMenu({
  label,
  links,
  labelOf,
  badgeOf,
}: {
  label: string;
  links: TopBarProps['links'];
  labelOf: (key: string) => string;
  badgeOf: (l: TopBarProps['links'][number]) => React.ReactNode;
}) {
  const { t } = useTranslation();
  const total = links.reduce((sum, l) => sum + (l.count ?? 0), 0);
  return (
    <Menu
      label={label}
      triggerVariant="inverse"
      placement="bottom start"
      triggerSuffix={total ? <CountBadge count={total} label={t('nav.badge.total', { count: total })} /> : null}
      items={links.map((l) => ({ id: l.to, label: labelOf(l.labelKey), href: l.to, suffix: badgeOf(l) }))}
    />
  );
}
