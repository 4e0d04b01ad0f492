import { data } from 'react-router';
import type { Route } from './+types/time.expenses';
import { actionError } from '~/app/lib/action-error.server';
import { AppError } from '~/core/errors/app-error';
import { guard, run, runResource } from '~/app/lib/guard.server';
import {
  addCompensationReport,
  deleteCompensationReport,
  editCompensationReport,
} from '~/core/time-reports/compensation.service';
import {
  addDistanceReport,
  deleteDistanceReport,
  editDistanceReport,
  lastDistanceReading,
} from '~/core/time-reports/distance.service';

/**
 * The week page's mileage and compensation panels (app/components/time/distance-panel.tsx,
 * compensation-panel.tsx) post here: `intent` saveDistance, deleteDistance, saveCompensation or
 * deleteCompensation. Answers `{ok: true, intent}` (the page's loader then runs again) or
 * `{code, fields}`. GET `?userId&vehicle` answers the last odometer reading, to prefill a trip.
 * The services decide whose rows the asker may change.
 */
export const middleware = guard({ permission: 'timereports:read_own' });

export type ExpensesActionResult =
  { ok: true; intent: string } | { ok?: undefined; intent?: string; code: string; fields?: Record<string, string[]> };

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  return runResource(context, (ctx) =>
    lastDistanceReading(ctx, {
      userId: url.searchParams.get('userId') || undefined,
      vehicle: url.searchParams.get('vehicle') ?? undefined,
    }),
  );
}

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  try {
    await run(context, async (ctx) => {
      const id = text(form, 'id');
      if (intent === 'deleteDistance') await deleteDistanceReport(ctx, id);
      else if (intent === 'deleteCompensation') await deleteCompensationReport(ctx, id);
      else if (intent === 'saveDistance') {
        const odometer = form.get('mode') !== 'km';
        const input = {
          id,
          userId: text(form, 'userId'),
          date: text(form, 'date'),
          vehicle: text(form, 'vehicle') ?? '',
          readingKm: odometer ? text(form, 'readingKm') : undefined,
          reportedDistanceKm: text(form, 'reportedDistanceKm'),
          tagId: text(form, 'tagId'),
          comment: text(form, 'comment'),
        };
        await (id ? editDistanceReport(ctx, input) : addDistanceReport(ctx, input));
      } else if (intent === 'saveCompensation') {
        const input = {
          id,
          userId: text(form, 'userId'),
          tagId: text(form, 'tagId'),
          date: text(form, 'date'),
          comment: text(form, 'comment'),
          data: {
            quantity: text(form, 'quantity'),
            amount: text(form, 'amount'),
            receiptFileIds: form.getAll('receiptFileIds').filter((v): v is string => typeof v === 'string' && v !== ''),
          },
        };
        await (id ? editCompensationReport(ctx, input) : addCompensationReport(ctx, input));
      } else throw new AppError('ERROR_INVALID_VALUE', 400);
    });
    return data<ExpensesActionResult>({ ok: true, intent });
  } catch (e) {
    return actionError(e);
  }
}
