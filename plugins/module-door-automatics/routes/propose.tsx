import type { LoaderFunctionArgs } from 'react-router';
import { pluginGuard } from '~/app/lib/plugin-links.server';
import { run } from '~/app/lib/guard.server';
import { MODULE_ID } from '../constants';
import { proposeDoorAutomaticId } from '../door-automatic.service';

/** The form's propose button: the next free door automatic ID for ?relationId (the object). */
export const middleware = pluginGuard(MODULE_ID, { permission: 'doorautomatics:edit' });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const relationId = new URL(request.url).searchParams.get('relationId') || undefined;
  return run(context, (ctx) => proposeDoorAutomaticId(ctx, { relationId }));
}
