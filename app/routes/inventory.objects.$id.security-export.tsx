import { data } from 'react-router';
import type { Route } from './+types/inventory.objects.$id.security-export';
import { guard, run } from '~/app/lib/guard.server';
import { exportSecurityForm, SECURITY_EXPORT_PAGES } from '~/core/business-objects/security-form-export.service';
import { isAppError } from '~/core/errors/app-error';
import { fileResponse } from '~/app/lib/file-response.server';

/**
 * The security tab's "Export documentation": POST {type, include[], signature} downloads the
 * object's security documentation as Word or PDF (the same service as POST /bo/{id}/sec/form/export;
 * the pages not ticked are left out).
 */
export const middleware = guard({ permission: 'security:bo_document:read', module: 'security' });

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const include = new Set(form.getAll('include').map(String));
  try {
    const file = await run(context, (ctx) =>
      exportSecurityForm(ctx, params.id, {
        type: form.get('type'),
        signature: form.get('signature') || undefined,
        excludedPages: SECURITY_EXPORT_PAGES.filter((p) => !include.has(p)),
      }),
    );
    return fileResponse(file);
  } catch (e) {
    if (isAppError(e) && e.status < 500) throw data(e.code, { status: e.status });
    throw e;
  }
}
