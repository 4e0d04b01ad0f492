import type { Route } from './+types/inventory.objects.$id.code-value';
import { guard, run } from '~/app/lib/guard.server';
import { getCodeValue } from '~/core/business-objects/access-codes.service';
import { isAppError } from '~/core/errors/app-error';

/**
 * One access code's value for the object page's Show and Copy buttons: POST only (nothing to
 * cache or prefetch), answered with Cache-Control: no-store. The service logs view.code or
 * copy.code in the same transaction; without bo:codes:view nothing is read or logged.
 */
export const middleware = guard({ permission: 'bo:codes:view' });

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const copy = form.get('intent') === 'copy';
  try {
    const { value } = await run(context, (ctx) => getCodeValue(ctx, params.id, params.codeId, { copy }));
    return Response.json({ value }, { headers: NO_STORE });
  } catch (e) {
    if (isAppError(e) && e.status < 500)
      return Response.json({ code: e.code }, { status: e.status, headers: NO_STORE });
    throw e;
  }
}

/** A GET answers 405: values are only handed out to a POST. */
export function loader() {
  return new Response(null, { status: 405, headers: { Allow: 'POST', ...NO_STORE } });
}
