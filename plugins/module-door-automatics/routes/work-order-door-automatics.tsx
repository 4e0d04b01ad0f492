import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';
import { actionError } from '~/app/lib/action-error.server';
import { pluginGuard } from '~/app/lib/plugin-links.server';
import { run } from '~/app/lib/guard.server';
import { hasAccess } from '~/core/permissions/access';
import { isAppError } from '~/core/errors/app-error';
import { loadActive } from '~/core/work-orders/work-order-read';
import { MODULE_ID } from '../constants';
import { listDoorAutomatics } from '../door-automatic.service';
import { getWorkOrderDoorAutomatics, setWorkOrderDoorAutomatics } from '../work-order-door-automatics.service';

/**
 * The order page's door-automatics panel: GET the order's door automatics and those at its object
 * to choose from; POST `doorAutomatics` (ids, in order) replaces them (GET and PUT
 * /wo/doorautomatics/{id} of the API, the same services).
 */
export const middleware = pluginGuard(MODULE_ID, { permission: 'workorders:read' });

export async function loader({ params, context }: LoaderFunctionArgs) {
  // A refusal answers as data, never as an error: the panel sits in the order page, which must
  // not be replaced by an error page because one panel cannot be shown.
  return panelData(context, params.id).catch((e: unknown) => {
    if (isAppError(e) && e.status < 500) return null;
    throw e;
  });
}

function panelData(context: LoaderFunctionArgs['context'], id: string | undefined) {
  return run(context, async (ctx) => {
    const wo = await loadActive(ctx, id);
    const { doorAutomatics } = await getWorkOrderDoorAutomatics(ctx, wo.id);
    // Those at the object to choose from need the register's read permission (a technician may
    // lack it): without it the panel shows the order's own, read-only.
    const canReadRegister = hasAccess(ctx.auth, { permission: 'doorautomatics:read', module: MODULE_ID });
    const atObject =
      wo.businessObjectId && canReadRegister
        ? (await listDoorAutomatics(ctx, { businessObjectId: wo.businessObjectId, limit: 100 })).doorAutomatics
        : doorAutomatics;
    return {
      hasObject: Boolean(wo.businessObjectId),
      linked: doorAutomatics.map((d) => d.id),
      options: atObject.map((d) => ({ id: d.id, number: d.number, title: d.title, location: d.location })),
      canEdit:
        canReadRegister &&
        hasAccess(ctx.auth, { permission: 'workorders:edit_doorautomatics', module: MODULE_ID }) &&
        !wo.isClosed &&
        !wo.isLocked,
    };
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await request.formData();
  try {
    const { doorAutomatics } = await run(context, (ctx) =>
      setWorkOrderDoorAutomatics(ctx, params.id, { doorAutomatics: form.getAll('doorAutomatics').map(String) }),
    );
    return data({ ok: true as const, count: doorAutomatics.length });
  } catch (e) {
    return actionError(e);
  }
}
