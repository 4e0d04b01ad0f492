import { data } from 'react-router';
import type { Route } from './+types/work-orders.$id.reminders';
import { tenantContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { tenantTimeZone, type DateFormat } from '~/core/i18n/number-format';
import { isAppError } from '~/core/errors/app-error';
import {
  createWorkOrderReminder,
  deleteWorkOrderReminder,
  editWorkOrderReminder,
  listWorkOrderReminders,
  type RemindersPanelData,
} from '~/core/work-orders/reminders.service';
import { wallClockToIso } from '~/core/work-orders/time-rules';

/**
 * The order screen's reminders panel loads (loader) and saves here (action, `intent` save or
 * delete), so the order page's own loader stays as it is. The due time comes as wall-clock time
 * (`datetime-local`) in the tenant's zone. Writing needs workorders:edit, which the service checks.
 */
export const middleware = guard({ permission: 'workorders:read', module: 'reminders' });

export type RemindersLoaderResult =
  | { data: RemindersPanelData; config: { dateFormat: DateFormat; country: string }; timeZone: string }
  | { error: string };

export type RemindersActionResult =
  | { ok: true; intent: string; data: RemindersPanelData }
  | { ok?: undefined; intent?: string; code: string; fields?: Record<string, string[]> };

export async function loader({ params, context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  try {
    const panel = await run(context, (ctx) => listWorkOrderReminders(ctx, params.id));
    return data<RemindersLoaderResult>({
      data: panel,
      config: { dateFormat: tenant.config.dateFormat, country: tenant.config.country },
      timeZone: tenantTimeZone(tenant.config.country),
    });
  } catch (e) {
    // the panel says it could not load, instead of the page being replaced by an error
    if (isAppError(e) && e.status < 500)
      return data<RemindersLoaderResult>({ error: 'FAILED_TO_FETCH' }, { status: e.status });
    throw e;
  }
}

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'save');
  try {
    if (intent === 'delete') {
      const panel = await run(context, (ctx) =>
        deleteWorkOrderReminder(ctx, { workOrderId: params.id, id: text(form, 'id') }),
      );
      return data<RemindersActionResult>({ ok: true, intent, data: panel });
    }
    const zone = tenantTimeZone(context.get(tenantContext).config.country);
    const input = {
      id: text(form, 'id'),
      workOrderId: params.id,
      userId: text(form, 'userId'),
      dueAt: wallClockToIso(String(form.get('due') ?? ''), zone) ?? undefined,
      message: String(form.get('message') ?? ''),
    };
    const saved = await run(context, (ctx) =>
      input.id ? editWorkOrderReminder(ctx, input) : createWorkOrderReminder(ctx, input),
    );
    return data<RemindersActionResult>({ ok: true, intent, data: saved.data });
  } catch (e) {
    return actionError<RemindersActionResult>(e, { intent });
  }
}
