import type { Route } from './+types/projects.options';
import { guard, run } from '~/app/lib/guard.server';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import { searchProjects } from '~/core/projects/project.service';

/**
 * Project options for an EntityPicker (GET ?q): the work-order form's project field. Up to 20
 * projects whose number, title, name or region matches, ongoing first, as "1001 · Title".
 */
export const middleware = guard(PROJECT_ACCESS.read);

export async function loader({ request, context }: Route.LoaderArgs) {
  const q = new URL(request.url).searchParams.get('q')?.trim().slice(0, 200) ?? '';
  const { projects } = await run(context, (ctx) => searchProjects(ctx, { q }));
  return { total: projects.length, options: projects.map((p) => ({ id: p.id, label: `${p.number} · ${p.name}` })) };
}
