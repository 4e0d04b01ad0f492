import { useTranslation } from 'react-i18next';
import { Form, NavLink, Outlet } from 'react-router';
import type { Route } from './+types/zone-layout';
import { tenantContext } from '~/app/context';
import { requireZoneAuth, zoneGuard } from '~/app/lib/zone-guard.server';
import { ZoneRequestsNav } from '~/app/components/zone/zone-requests-nav';
import { CUSTOMER_WORK_ORDERS } from '~/core/zone/zone-requests.constants';
import { ZoneActionsNavItems } from '~/app/components/zone/zone-actions-nav';

/** The customer zone's frame: the company's logo, who is signed in, the zone's pages and sign-out. */
export const middleware = zoneGuard();

export function loader({ context }: Route.LoaderArgs) {
  const zone = requireZoneAuth(context);
  const tenant = context.get(tenantContext);
  return {
    company: tenant.displayName,
    logoUrl: tenant.config.logoUrl ?? null,
    name: zone.user.name,
    customer: zone.customerName,
    requests: zone.modules.has(CUSTOMER_WORK_ORDERS),
  };
}

const LINKS = [
  { to: '/zone', key: 'nav.objects', end: true },
  { to: '/zone/work-orders', key: 'nav.workOrders', end: false },
  { to: '/zone/documents', key: 'nav.documents', end: false },
  { to: '/zone/invoices', key: 'nav.invoices', end: false },
] as const;

export default function ZoneLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('zone');
  return (
    <div className="min-h-dvh bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="flex min-w-0 items-center gap-3">
            {loaderData.logoUrl ? (
              <img src={loaderData.logoUrl} alt={loaderData.company} className="max-h-10 max-w-40" />
            ) : (
              <span className="font-semibold">{loaderData.company}</span>
            )}
            <span className="truncate text-sm text-slate-600">
              {t('nav.signedInAs', { name: loaderData.name, customer: loaderData.customer })}
            </span>
          </div>
          <Form method="post" action="/zone/logout">
            <button
              type="submit"
              className="min-h-11 rounded-md px-3 text-sm text-brand-700 underline underline-offset-2"
            >
              {t('nav.signOut')}
            </button>
          </Form>
        </div>
        <nav aria-label={t('nav.label')} className="mx-auto max-w-5xl overflow-x-auto px-2">
          <ul className="flex gap-1">
            {LINKS.map((l) => (
              <li key={l.to}>
                <NavLink
                  to={l.to}
                  end={l.end}
                  className={({ isActive }) =>
                    `inline-flex min-h-11 items-center whitespace-nowrap border-b-2 px-3 text-sm ${
                      isActive ? 'border-brand-700 font-medium text-brand-700' : 'border-transparent text-slate-700'
                    }`
                  }
                >
                  {t(l.key)}
                </NavLink>
              </li>
            ))}
            <ZoneRequestsNav requests={loaderData.requests} />
            <ZoneActionsNavItems />
          </ul>
        </nav>
      </header>
      <main className="mx-auto max-w-5xl px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}
