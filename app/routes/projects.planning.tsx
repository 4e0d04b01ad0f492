import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { Route } from './+types/projects.planning';
import { ResourcePlanner } from '~/app/components/projects/resource-planner';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { tenantToday } from '~/core/calendar/tenant-today';
import { parsePlainDate } from '~/core/calendar/dates';
import { hasAccess } from '~/core/permissions/access';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import { planningRange, planningStep } from '~/core/projects/resource-calendar';
import { resourcePlan } from '~/core/projects/resource.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * The resource planning calendar (`/projects/planning`; spec section 2 "Resource planning
 * calendar", the PROJECTS module and projects:read): every person's and supplier's plans on
 * projects as ISO weeks over 1, 3, 6 or 12 months (`?step=`, 3 by default; `?date=` a day of the
 * first month), clashes marked. The calendar is read here for the first paint; the planner reads
 * and writes through /projects/resources.
 */
export const middleware = guard(PROJECT_ACCESS.read);

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const params = new URL(request.url).searchParams;
  const step = planningStep(params.get('step'));
  return run(context, async (ctx) => {
    const asked = params.get('date');
    const date = asked && parsePlainDate(asked) ? asked : tenantToday(ctx);
    const plan = await resourcePlan(ctx, planningRange(date, step));
    return { step, date, plan, canEdit: hasAccess(auth, PROJECT_ACCESS.edit) };
  });
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.resourcePlanning', null, { within: 'nav.projects' });

export default function ProjectPlanning({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation('projects');
  const [, setSearchParams] = useSearchParams();
  return (
    <div className="grid min-w-0 gap-4">
      <div>
        <Link to="/projects" className="text-sm text-brand-700 underline">
          ← {t('planning.backToProjects')}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold">{t('planning.title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('planning.intro')}</p>
      </div>
      <ResourcePlanner
        canEdit={d.canEdit}
        initialFrom={d.date}
        step={d.step}
        initialPlan={d.plan}
        onViewChange={(v) =>
          setSearchParams(
            (prev) => {
              const next = new URLSearchParams(prev);
              next.set('step', String(v.step));
              next.set('date', v.date);
              return next;
            },
            { preventScrollReset: true },
          )
        }
      />
    </div>
  );
}
