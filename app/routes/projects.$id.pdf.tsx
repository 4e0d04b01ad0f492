import type { Route } from './+types/projects.$id.pdf';
import { fileResponse } from '~/app/lib/file-response.server';
import { guard, runResource } from '~/app/lib/guard.server';
import { PROJECT_ACCESS } from '~/core/projects/project-access';
import { projectPdf } from '~/core/projects/project-document.service';

/**
 * The project report for the browser: GET [?details=1][&templateId=] downloads the PDF (with the
 * time and article rows when details is set); another tenant's id is 404, no projects:read 403.
 */
export const middleware = guard(PROJECT_ACCESS.read);

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const details = query.get('details');
  return fileResponse(
    await runResource(context, (ctx) =>
      projectPdf(ctx, params.id, {
        details: details === '1' || details === 'true',
        templateId: query.get('templateId') || undefined,
      }),
    ),
  );
}
