import { data } from 'react-router';
import type { Route } from './+types/work-orders.$id.time';
import { tenantContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { tenantTimeZone } from '~/core/i18n/number-format';
import { deleteWorkOrderTime, saveWorkOrderTime, type TimePanelData } from '~/core/work-orders/time.service';
import { wallClockToIso } from '~/core/work-orders/time-rules';

/**
 * The order screen's time panel saves and deletes one row here (`intent` save or delete). Start
 * and end come as wall-clock time (`datetime-local`) in the tenant's zone. Answers `{ok: true,
 * data}` with the order's time, or `{code, fields}`.
 */
export const middleware = guard({ permission: 'workorders:report' });

export type TimeActionResult =
  | { ok: true; intent: string; data: TimePanelData }
  | { ok?: undefined; intent?: string; code: string; fields?: Record<string, string[]> };

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? 'save');
  try {
    if (intent === 'delete') {
      const saved = await run(context, (ctx) => deleteWorkOrderTime(ctx, { id: text(form, 'id') }));
      return data<TimeActionResult>({ ok: true, intent, data: saved });
    }
    const zone = tenantTimeZone(context.get(tenantContext).config.country);
    const span = form.get('mode') === 'span';
    const input = {
      id: text(form, 'id'),
      workOrderId: params.id,
      userId: text(form, 'userId'),
      date: span ? undefined : text(form, 'date'),
      startTs: span ? (wallClockToIso(String(form.get('start') ?? ''), zone) ?? undefined) : undefined,
      endTs: span ? (wallClockToIso(String(form.get('end') ?? ''), zone) ?? undefined) : undefined,
      hours: span ? undefined : text(form, 'hours'),
      minutes: span ? undefined : text(form, 'minutes'),
      travelHours: text(form, 'travelHours'),
      travelMinutes: text(form, 'travelMinutes'),
      distanceKm: text(form, 'distanceKm'),
      comment: text(form, 'comment'),
    };
    const saved = await run(context, (ctx) => saveWorkOrderTime(ctx, input));
    return data<TimeActionResult>({ ok: true, intent, data: saved.data });
  } catch (e) {
    return actionError(e);
  }
}
