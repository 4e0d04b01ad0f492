import { Outlet, useRouteLoaderData } from 'react-router';
import { useReportLoadTimes } from '~/app/lib/use-report-load-times';
import type { Route } from './+types/app-layout';
import { tenantContext } from '~/app/context';
import { guard, requireAuth } from '~/app/lib/guard.server';
import { NAV_LINKS, visibleLinks } from '~/app/components/shell/nav';
import { RouteErrorPage } from '~/app/components/shell/error-page';
import { TopBar } from '~/app/components/shell/top-bar';
import { useRevealFirstError } from '~/app/components/shell/use-reveal-first-error';
import { navBadgeCounts } from '~/app/lib/nav-badges.server';
import { pluginNavLinks } from '~/app/lib/plugin-links.server';
import { accessSnapshot, SIGNED_IN } from '~/core/permissions/access';

/** The signed-in shell: every page under it needs a session. */
export const middleware = guard(SIGNED_IN);

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const tenant = context.get(tenantContext);
  const counts = await navBadgeCounts(context, auth);
  return {
    user: { fullName: auth.user.fullName, initials: auth.user.initials, email: auth.user.email },
    company: tenant.displayName,
    logoUrl: tenant.config.logoUrl,
    links: visibleLinks(auth, [...NAV_LINKS, ...pluginNavLinks()]).map(({ badge, ...l }) =>
      badge ? { ...l, badge, count: counts[badge] } : l,
    ),
    /** The top bar's counts (0 for a count the person may not see), for pages that repeat one. */
    counts,
    access: accessSnapshot(auth),
    /** The largest file an upload may hold (the tenant's limit), for the file browsers. */
    maxUploadMb: tenant.config.files.maxUploadMb,
  };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  useRevealFirstError();
  useReportLoadTimes();
  return (
    <div className="flex min-h-dvh flex-col">
      <TopBar {...loaderData} />
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">
        <Outlet />
      </main>
    </div>
  );
}

/**
 * A signed-in page that fails keeps the shell (issue 28 item 10): the top bar stays and the error
 * takes only the page's place, so the person can go on from the menu.
 */
export function ErrorBoundary() {
  const shell = useRouteLoaderData<typeof loader>('routes/app-layout');
  if (!shell) return <RouteErrorPage />;
  return (
    <div className="flex min-h-dvh flex-col">
      <TopBar {...shell} />
      <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 sm:px-6">
        <RouteErrorPage inShell />
      </main>
    </div>
  );
}
