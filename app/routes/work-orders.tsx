import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import type { Route } from './+types/work-orders';
import { tenantContext } from '~/app/context';
import { guard, requireAuth } from '~/app/lib/guard.server';
import { LinkButton } from '~/app/components/ui';
import { formatDate } from '~/core/i18n/number-format';
import { isoWeek } from '~/core/calendar/dates';
import { WorkOrderTabBar } from '~/app/components/work-orders/tabs/tab-bar';
import { WorkOrderTabsProvider } from '~/app/components/work-orders/tabs/tabs-context';
import { hasAccess, SIGNED_IN } from '~/core/permissions/access';
import { pageTitle } from '~/app/lib/page-title';

/**
 * The work-order screen (spec section 2, route `/`): a greeting, the tab bar (the list and one tab
 * per opened order), and the active tab's page. Without workorders:read it is just the greeting.
 */
export const middleware = guard(SIGNED_IN);

export function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const tenant = context.get(tenantContext);
  const now = new Date();
  const today = { year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() };
  return {
    userId: auth.user.id,
    name: auth.user.fullName,
    company: tenant.displayName,
    date: formatDate(now, tenant.config.dateFormat),
    week: isoWeek(today).week,
    canRead: hasAccess(auth, { permission: 'workorders:read' }),
    canCreate: hasAccess(auth, { permission: 'workorders:create' }),
  };
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('nav.workOrders');

export default function WorkOrderScreen({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('workorders');
  const { t: tc } = useTranslation();
  if (!d.canRead)
    return (
      <section className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-2xl font-semibold">{tc('home.title', { name: d.name })}</h1>
        <p className="mt-2 max-w-prose text-slate-600">{tc('home.body', { company: d.company })}</p>
        <p className="mt-4 text-sm text-slate-500">{tc('home.today', { date: d.date, week: d.week })}</p>
      </section>
    );
  return (
    <WorkOrderTabsProvider userId={d.userId}>
      <div className="space-y-4">
        <header className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h1 className="text-2xl font-semibold">{tc('home.title', { name: d.name })}</h1>
            <p className="text-sm text-slate-500">{tc('home.today', { date: d.date, week: d.week })}</p>
          </div>
          {d.canCreate ? (
            <LinkButton href="/work-orders/new" variant="primary">
              {t('list.new')}
            </LinkButton>
          ) : null}
        </header>
        <WorkOrderTabBar />
        <Outlet />
      </div>
    </WorkOrderTabsProvider>
  );
}
