import { data } from 'react-router';
import type { Route } from './+types/work-orders.id06';
import { guard, run } from '~/app/lib/guard.server';
import { isAppError } from '~/core/errors/app-error';
import { exportId06Register } from '~/core/work-orders/id06.service';
import { fileResponse } from '~/app/lib/file-response.server';

/**
 * The order page's "ID06 register": POST {id06Code, timestamp} downloads the site's attendance
 * register for that day (the same service as POST /wo/id06).
 */
export const middleware = guard({ permission: 'workorders:id06', module: 'id06' });

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  try {
    const file = await run(context, (ctx) =>
      exportId06Register(ctx, { id06Code: form.get('id06Code'), timestamp: form.get('timestamp') }),
    );
    return fileResponse(file);
  } catch (e) {
    if (isAppError(e) && e.status < 500) throw data(e.code, { status: e.status });
    throw e;
  }
}
