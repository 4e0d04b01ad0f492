import { useTranslation } from 'react-i18next';
import { Link, redirect, useActionData } from 'react-router';
import type { Route } from './+types/projects.new';
import { actionError, type ActionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { useActionToast } from '~/app/components/shell/use-action-toast';
import { emptyProject, ProjectForm, projectFromForm } from '~/app/components/projects/project-form';
import { useFieldErrors } from '~/app/components/objects/shared';
import { createProject, projectOptions } from '~/core/projects/project.service';
import { pageTitle } from '~/app/lib/page-title';
import { regionChoices } from '~/core/regions/region.service';

/** A new project: its general info and first customer; the number is the next free one. */
export const middleware = guard({ permission: 'projects:edit', module: 'projects' });

export async function loader({ context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  return run(context, async (ctx) => ({
    users: (await projectOptions(ctx)).users,
    regions: await regionChoices(ctx),
    me: auth.user.id,
  }));
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const customerId = String(form.get('customerId') ?? '');
  let id: string;
  try {
    id = await run(
      context,
      async (ctx) =>
        (
          await createProject(ctx, {
            project: { ...projectFromForm(form), customerIds: customerId ? [customerId] : [] },
          })
        ).project.id,
    );
  } catch (e) {
    return actionError(e);
  }
  throw redirect(`/projects/${id}?created=1`);
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.newProject');

export default function NewProject({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('projects');
  const result = useActionData<ActionError>();
  useActionToast(result);
  const errors = useFieldErrors(result, 'project');
  return (
    <section className="max-w-4xl rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <Link to="/projects" className="text-sm text-brand-700 underline">
        ← {t('back')}
      </Link>
      <h1 className="mt-2 text-2xl font-semibold">{t('new.title')}</h1>
      <div className="mt-6">
        <ProjectForm
          project={emptyProject(loaderData.me)}
          users={loaderData.users}
          regions={loaderData.regions}
          errors={errors}
          canEdit
          withCustomer
          submitLabel={t('create')}
        />
      </div>
    </section>
  );
}
