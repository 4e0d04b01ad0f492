import { useTranslation } from 'react-i18next';
import { Link, useLocation, useRouteLoaderData } from 'react-router';
import { CountBadge } from '~/app/components/shell/top-bar';
import { cx, FOCUS_RING, TOUCH_HEIGHT } from '~/app/components/ui/class-names';
import { useCan } from '~/app/lib/can';
import type { loader as appLayoutLoader } from '~/app/routes/app-layout';

const PAGES = [
  { to: '/agreements/invoices', labelKey: 'subnav.invoices', permission: 'agreements:read' },
  { to: '/agreements/price-adjustment', labelKey: 'subnav.priceAdjustment', permission: 'agreements:edit' },
] as const;

/**
 * The agreement pages' own links (spec section 2, agreements): the types, the agreement invoices
 * (with the top bar's count of those due) and price adjustment, each for those who may open it.
 * The types' link stays current on a type's own page.
 */
export function AgreementsSubnav({ className }: { className?: string }) {
  const { t } = useTranslation('agreementinvoices');
  const can = useCan();
  const { pathname } = useLocation();
  const due = useRouteLoaderData<typeof appLayoutLoader>('routes/app-layout')?.counts.agreementInvoices ?? 0;
  const here = PAGES.find((p) => pathname === p.to || pathname.startsWith(`${p.to}/`))?.to ?? '/agreements';
  const links = [{ to: '/agreements', labelKey: 'subnav.types' } as const, ...PAGES.filter((p) => can(p.permission))];
  const linkClass = (active: boolean) =>
    cx(
      'inline-flex shrink-0 items-center rounded-md px-3 text-sm font-medium no-underline',
      TOUCH_HEIGHT.sm,
      FOCUS_RING,
      'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600',
      active ? 'bg-blue-50 text-blue-800' : 'text-gray-700 hover:bg-gray-100',
    );
  return (
    <nav aria-label={t('subnav.label')} className={cx('-mx-1 flex gap-1 overflow-x-auto px-1 pb-1', className)}>
      {links.map((l) => (
        <Link
          key={l.to}
          to={l.to}
          className={linkClass(l.to === here)}
          aria-current={l.to === here ? 'page' : undefined}
        >
          {t(l.labelKey)}
          {l.to === '/agreements/invoices' && due > 0 ? (
            <CountBadge count={due} label={t('subnav.due', { count: due })} />
          ) : null}
        </Link>
      ))}
    </nav>
  );
}
