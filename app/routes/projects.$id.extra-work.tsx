import { data } from 'react-router';
import type { Route } from './+types/projects.$id.extra-work';
import { tenantContext } from '~/app/context';
import { actionError } from '~/app/lib/action-error.server';
import { guard, run } from '~/app/lib/guard.server';
import { AppError, isAppError } from '~/core/errors/app-error';
import type { DateFormat } from '~/core/i18n/number-format';
import {
  EXTRA_WORK_LINKS_READ,
  listExtraWorkLinks,
  requireProjectOrder,
  sendExtraWorkLink,
  type ExtraWorkLink,
} from '~/core/projects/extra-work-link.service';
import { setProjectExtraStatus, type ProjectExtraStatus } from '~/core/work-orders/close.service';

/**
 * The project's extra-work panel (app/components/projects/extra-work-panel.tsx) loads a work
 * order's approval links here (`?workOrderId`) and posts `intent` send (e-mail the customer a link)
 * or status (pending, accepted, declined — the rule of POST /wo/projectextra). The order must be
 * one of this project's (404 otherwise); the services check the rights.
 */
export const middleware = guard(EXTRA_WORK_LINKS_READ);

export interface ExtraWorkPanelData {
  links: ExtraWorkLink[];
  projectExtraStatus: ProjectExtraStatus | null;
  /** Labour and articles without VAT, the amount the customer is asked to approve. */
  amount: string | null;
  /** The order's contact, else the customer's contact (never the invoice mailbox). */
  defaultEmail: string | null;
}

export type ExtraWorkLoaderResult =
  (ExtraWorkPanelData & { config: { dateFormat: DateFormat; country: string } }) | { error: string };

export type ExtraWorkActionResult =
  | ({ ok: true; intent: string } & ExtraWorkPanelData)
  | { ok?: undefined; intent?: string; code: string; fields?: Record<string, string[]> };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const tenant = context.get(tenantContext);
  const workOrderId = new URL(request.url).searchParams.get('workOrderId') ?? '';
  try {
    const panel = await run(context, async (ctx) => {
      await requireProjectOrder(ctx, params.id, workOrderId);
      return listExtraWorkLinks(ctx, { workOrderId });
    });
    return data<ExtraWorkLoaderResult>({
      ...panel,
      config: { dateFormat: tenant.config.dateFormat, country: tenant.config.country },
    });
  } catch (e) {
    // the panel says it could not load, instead of the page being replaced by an error
    if (isAppError(e) && e.status < 500)
      return data<ExtraWorkLoaderResult>({ error: 'FAILED_TO_FETCH' }, { status: e.status });
    throw e;
  }
}

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get('intent') ?? '');
  const workOrderId = text(form, 'workOrderId') ?? '';
  try {
    const panel = await run(context, async (ctx) => {
      await requireProjectOrder(ctx, params.id, workOrderId);
      if (intent === 'send')
        await sendExtraWorkLink(ctx, {
          workOrderId,
          email: text(form, 'email') ?? '',
          message: text(form, 'message'),
          hostname: new URL(request.url).hostname,
        });
      else if (intent === 'status') await setProjectExtraStatus(ctx, { workOrderId, status: form.get('status') });
      else throw new AppError('ERROR_INVALID_VALUE', 400);
      return listExtraWorkLinks(ctx, { workOrderId });
    });
    return data<ExtraWorkActionResult>({ ok: true, intent, ...panel });
  } catch (e) {
    return actionError<ExtraWorkActionResult>(e, { intent });
  }
}
