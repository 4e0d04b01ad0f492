import { tenantTimeZone } from '~/core/i18n/number-format';
import { useMemo } from 'react';
import type { Route } from './+types/work-orders.calendar';
import { tenantContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { CalendarTab } from '~/app/components/work-orders/calendar/calendar-tab';
import { formatPlainDate } from '~/core/calendar/dates';
import { AppError } from '~/core/errors/app-error';

import {
  deleteSchedule,
  getCalendarPreferences,
  loadBoard,
  moveSchedule,
  parseView,
  planWorkOrder,
  saveCalendarPreferences,
  type Board,
} from '~/core/work-orders/schedule.service';
import { pageTitle } from '~/app/lib/page-title';

/**
 * The work-order screen's calendar tab (spec sections 2 and 9, issue 6): the planning board by
 * technician or by project, in days, weeks, months, quarters, half years or years. Dropping an
 * order on a person and a day plans it; plans move, stretch and go by mouse or keyboard. The
 * period is remembered per user; an address without one uses the remembered one.
 */
export const middleware = guard({ permission: 'workorders:read' });

export async function loader({ request, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  const tenant = context.get(tenantContext);
  const q = new URL(request.url).searchParams;
  return run(context, async (ctx) => {
    const prefs = q.has('period') || q.has('perspective') ? null : await getCalendarPreferences(ctx);
    const view = parseView(ctx, {
      period: q.get('period') ?? prefs?.period,
      perspective: q.get('perspective') ?? prefs?.perspective,
      step: q.get('step') ?? prefs?.step,
      date: q.get('date') ?? undefined,
      q: q.get('q') ?? undefined,
    });
    const board = await loadBoard(ctx, view);
    return {
      view: {
        period: view.period,
        perspective: view.perspective,
        step: view.step,
        date: formatPlainDate(view.anchor),
        q: view.q,
      },
      // one JSON string: React Router's stream encoding of thousands of plans costs far more than JSON
      boardJson: JSON.stringify(board),
      me: auth.user.id,
      timeZone: tenantTimeZone(tenant.config.country),
      dateFormat: tenant.config.dateFormat,
    };
  });
}

export type CalendarActionResult =
  { ok: true; intent: string; version?: number } | { ok?: false; code: string; fields?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData()) as Record<string, string>;
  const { intent, id, ...rest } = form;
  // blank fields are "not sent": what a move leaves out stays as it was
  const input = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== ''));
  try {
    return await run(context, async (ctx) => {
      switch (intent) {
        case 'plan':
          return { ok: true as const, intent, version: (await planWorkOrder(ctx, input)).version };
        case 'move':
          return { ok: true as const, intent, version: (await moveSchedule(ctx, id, input)).version };
        case 'unplan':
          return { ok: true as const, intent, version: (await deleteSchedule(ctx, id, input)).version };
        case 'prefs':
          await saveCalendarPreferences(ctx, input);
          return { ok: true as const, intent };
        default:
          throw new AppError('ERROR_INVALID_VALUE', 400);
      }
    });
  } catch (e) {
    return actionError(e);
  }
}

/** Remembering the period changes nothing on the board. */
export function shouldRevalidate({
  formData,
  defaultShouldRevalidate,
}: {
  formData?: FormData;
  defaultShouldRevalidate: boolean;
}) {
  if (formData?.get('intent') === 'prefs') return false;
  return defaultShouldRevalidate;
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.calendar', null, { within: 'nav.workOrders' });

export default function CalendarRoute({ loaderData }: Route.ComponentProps) {
  const { boardJson, ...rest } = loaderData;
  const board = useMemo(() => JSON.parse(boardJson) as Board, [boardJson]);
  return <CalendarTab {...rest} board={board} />;
}
